// SPDX-License-Identifier: BSD-3-Clause
// The native CUDA twins against the layer, bit for bit, on LayoutLeft and LayoutRight (helpers:
// support/layout_checks.hpp).
#include "layout_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>

using namespace scratchkit;
using namespace scratchkit::layout_checks;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("Layouts: native CUDA twins agree with the layer bit for bit on LayoutLeft and LayoutRight",
          "[layouts][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  using E = Kokkos::Cuda;
  for (const Kind k : {Kind::right, Kind::left}) {
    CAPTURE(kind_name(k));
    for (auto v : gemm_variants)
      for (const auto& s : {std::array<int, 3>{17, 31, 13}, {131, 67, 9}, {257, 130, 33}, {1024, 512, 256}}) {
        CAPTURE(name(v), s[0], s[1], s[2]);
        CHECK(same_bits(gemm_on<E, float>(v, k, s[0], s[1], s[2]),
                        gemm_on<E, float>(v, k, s[0], s[1], s[2], Backend::native)));
        CHECK(same_bits(gemm_on<E, double>(v, k, s[0], s[1], s[2]),
                        gemm_on<E, double>(v, k, s[0], s[1], s[2], Backend::native)));
      }
    for (auto v : stencil3d_variants)
      for (const auto& s : {std::array<int, 3>{17, 33, 65}, {37, 13, 97}, {130, 129, 257}, {64, 64, 512}}) {
        CAPTURE(name(v), s[0], s[1], s[2]);
        CHECK(same_bits(stencil3d_on<E, float>(v, k, s[0], s[1], s[2]),
                        stencil3d_on<E, float>(v, k, s[0], s[1], s[2], Backend::native)));
        CHECK(same_bits(stencil3d_on<E, double>(v, k, s[0], s[1], s[2]),
                        stencil3d_on<E, double>(v, k, s[0], s[1], s[2], Backend::native)));
      }
    for (auto v : transpose_variants)
      for (const auto& s : {std::array<int, 2>{31, 33}, {257, 1025}, {4097, 65}}) {
        CAPTURE(name(v), s[0], s[1]);
        CHECK(same_bits(transpose_on<E, float>(v, k, s[0], s[1]),
                        transpose_on<E, float>(v, k, s[0], s[1], Backend::native)));
        CHECK(same_bits(transpose_on<E, double>(v, k, s[0], s[1]),
                        transpose_on<E, double>(v, k, s[0], s[1], Backend::native)));
      }
  }
  // Strided blocks: the native twins take contiguous arrays only, and say so with the strides.
  CHECK_THROWS_WITH((gemm_on<E, float>(GemmVariant::tiled, Kind::sub_right, 17, 31, 13, Backend::native)),
                    ContainsSubstring("strides"));
  CHECK_THROWS_AS((stencil3d_on<E, float>(Stencil3DVariant::z_streaming, Kind::sub_left, 5, 7, 9, Backend::native)),
                  UnsupportedError);
#endif
}
