// SPDX-License-Identifier: BSD-3-Clause
// register_blocked on the FP64 tensor cores (m8n8k4): a ring of 4 stages and slices of 8, 16 and 32
// (1, 2, 4 mma k-steps per barrier), on the layer (helpers and the tolerance: support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM tensor-core path: a ring of 4 stages, k-steps per slice, square warp tiles",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (const auto& s : mma_shapes) {
    check_mma_blockings<Exec, detail::GemmMmaBlocking<64, 64, 32, 32, 3, 4>,
                        detail::GemmMmaBlocking<64, 64, 32, 32, 3, 2, 2>,
                        detail::GemmMmaBlocking<32, 32, 16, 16, 1, 2, 4>>(s[0], s[1], s[2]);
  }
}
