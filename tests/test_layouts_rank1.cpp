// SPDX-License-Identifier: BSD-3-Clause
// reduce, stencil_1d and histogram on rank-1 layouts and strides (helpers: support/layout_checks.hpp;
// the bounds: test_layouts.cpp).
#include "layout_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>

using namespace scratchkit;
using namespace scratchkit::layout_checks;
using Catch::Matchers::ContainsSubstring;

TEMPLATE_LIST_TEST_CASE("Layouts: reduce, stencil_1d and histogram on rank-1 layouts and strides",
                        "[layouts][reduce][stencil_1d][histogram][layer]", test::Spaces) {
  rank1_layouts<TestType, float>();
  rank1_layouts<TestType, double>();
}
