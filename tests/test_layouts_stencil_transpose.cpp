// SPDX-License-Identifier: BSD-3-Clause
// The 3-D stencil and transpose on every View layout (helpers: support/layout_checks.hpp; the
// bounds: test_layouts.cpp).
#include "layout_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>

using namespace scratchkit;
using namespace scratchkit::layout_checks;
using Catch::Matchers::ContainsSubstring;

TEMPLATE_LIST_TEST_CASE("Layouts: 3-D stencil on every layout matches the reference, bits by memory order",
                        "[layouts][stencil_3d][layer]", test::Spaces) {
  stencil3d_layouts<TestType, float>();
  stencil3d_layouts<TestType, double>();
}

TEMPLATE_LIST_TEST_CASE("Layouts: transpose on every layout is exact", "[layouts][transpose][layer]", test::Spaces) {
  transpose_layouts<TestType, float>();
  transpose_layouts<TestType, double>();
}
