// SPDX-License-Identifier: BSD-3-Clause
// register_blocked on the FP64 tensor cores with the default double blockings few_type and tiny_type
// called directly (every shape, not only those the pick sends them), on the layer (helpers and the
// tolerance: support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM tensor-core path: the default few-tile and tiny double blockings",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (const auto& s : mma_shapes) {
    check_mma_blockings<Exec, detail::GemmDefaultBlocking<double>::few_type,
                        detail::GemmDefaultBlocking<double>::tiny_type>(s[0], s[1], s[2]);
  }
}
