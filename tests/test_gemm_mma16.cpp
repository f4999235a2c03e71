// SPDX-License-Identifier: BSD-3-Clause
// register_blocked on the FP64 tensor cores with m16n8k16 (slices of 16 and 32, 2 and 3 stages, one or
// several pairs of column tiles per warp), on the layer (helpers and the tolerance:
// support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM tensor-core path: m16n8k16 blockings",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (const auto& s : mma_shapes) {
    check_mma_blockings<Exec, detail::GemmMmaBlocking<64, 64, 32, 32, 2, 2, 1, 16>,
                        detail::GemmMmaBlocking<32, 32, 16, 16, 1, 2, 2, 16>,
                        detail::GemmMmaBlocking<64, 32, 32, 16, 1, 3, 1, 16>>(s[0], s[1], s[2]);
  }
}
