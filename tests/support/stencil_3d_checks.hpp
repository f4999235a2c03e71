// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the 3-D stencil tests (test_stencil_3d.cpp, test_stencil_3d_shapes.cpp).
#pragma once

#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>

#include <catch2/catch_test_macros.hpp>

#include <array>
#include <cstdint>
#include <random>

namespace scratchkit {
namespace test {

/// The shapes (nz, ny, nx) every 3-D case runs.
inline const int shapes[][3] = {
    {1, 1, 1},   {2, 2, 2},    {3, 3, 3},    {1, 5, 7},   {5, 1, 7},    {5, 7, 1},   {2, 9, 40},  {40, 2, 9},
    {9, 40, 2},  {1, 2, 3},    {3, 2, 1},    {3, 3, 34},  {4, 9, 33},   {8, 32, 8},  {33, 8, 32}, {17, 33, 65},
    {31, 17, 3}, {70, 10, 34}, {65, 16, 64}, {64, 64, 64}, {0, 4, 4},   {4, 0, 4},   {4, 4, 0},
    // z_streaming: chunks of 32 planes (31, 32, 33, 63, 64, 65, 97 planes, a
    // last chunk of 1 or 2 planes), tiles of 64 x 16 (x, y) with 2 outputs per
    // thread 32 apart in x (nx = 31, 32, 33, 63..66, 127..129), primes.
    {32, 16, 64}, {33, 15, 63},  {31, 17, 65},  {63, 1, 66},  {34, 2, 33},   {97, 33, 129}, {65, 31, 127},
    {66, 47, 128}, {2, 16, 65},  {3, 18, 31},   {37, 13, 97}, {64, 5, 32},   {33, 3, 2},    {1, 17, 129},
};

/// Random c0, c1 in [-1, 1) for a case, from its seed.
template <class T>
std::array<T, 2> coefficients(std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const T c0 = static_cast<T>(d(gen));
  return {c0, static_cast<T>(d(gen))};
}

/// `out` (any layout) equals `ref` bit for bit, once copied into a contiguous
/// View of ref's shape, and passes the host reference of `hin` (the input).
template <class View, class Out, class HostIn, class T>
void check_against(const Out& out, const View& ref, const HostIn& hin, const std::array<T, 2>& c) {
  const int nz = static_cast<int>(ref.extent(0)), ny = static_cast<int>(ref.extent(1)),
            nx = static_cast<int>(ref.extent(2));
  View got("got", nz, ny, nx);
  Kokkos::deep_copy(got, out);
  CHECK(test::same_bits(got, ref));
  auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), got);
  const auto res = scratchkit::check::stencil_3d_7pt<T>(hin.data(), hout.data(), nz, ny, nx, c[0], c[1]);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

}  // namespace test
}  // namespace scratchkit
