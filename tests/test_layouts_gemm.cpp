// SPDX-License-Identifier: BSD-3-Clause
// GEMM on every View layout (helpers: support/layout_checks.hpp; the bounds: test_layouts.cpp).
#include "layout_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>

using namespace scratchkit;
using namespace scratchkit::layout_checks;
using Catch::Matchers::ContainsSubstring;

TEMPLATE_LIST_TEST_CASE("Layouts: GEMM on every layout matches the reference and LayoutRight's bits",
                        "[layouts][gemm][layer]", test::Spaces) {
  gemm_layouts<TestType, float>();
  gemm_layouts<TestType, double>();
}
