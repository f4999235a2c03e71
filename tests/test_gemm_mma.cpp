// SPDX-License-Identifier: BSD-3-Clause
// register_blocked on the FP64 tensor cores (m8n8k4) with stage rings of 2 and 3 and warp tiles of
// 32 x 64 and 64 x 32, on the layer (helpers and the tolerance: support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM tensor-core path: stage rings of 2 and 3, rectangular warp tiles",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  // All under the layer's ~40 KB of level-0 scratch on a GPU.
  for (const auto& s : mma_shapes) {
    check_mma_blockings<Exec, detail::GemmMmaBlocking<64, 128, 32, 64, 2, 2>,
                        detail::GemmMmaBlocking<64, 128, 32, 64, 2, 3>,
                        detail::GemmMmaBlocking<128, 64, 64, 32, 2, 3>,
                        detail::GemmMmaBlocking<128, 128, 64, 32, 1, 2>>(s[0], s[1], s[2]);
  }
}
