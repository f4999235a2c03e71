// SPDX-License-Identifier: BSD-3-Clause
// register_blocked on the CUDA cores: the tuner's FMA orders and lane layouts with B through registers,
// on the layer (helpers: support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM CUDA-core path: every FMA order and lane layout of the tuner's candidates",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  using detail::GemmBlocking;
  for (const auto& s : simt_shapes) {
    check_simt_blockings<Exec, GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_columns>,
                         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_serpentine>,
                         GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, detail::gemm_prefetch>,
                         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_quads>>(s[0], s[1], s[2]);
  }
}
