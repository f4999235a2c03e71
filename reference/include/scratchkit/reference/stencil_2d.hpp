// SPDX-License-Identifier: BSD-3-Clause
/// Host reference of stencil_2d, in long double, with its error bound.
///
/// Each output is a sum of m = stencil_2d_points(shape, R) products, added in order from 0, so
/// |out - ref| <= gamma_m * sum over the taps of |w(a, b)| |in(...)| (reference.hpp's rounding class).
#pragma once

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/variants/stencil_2d.hpp>

#include <cmath>
#include <cstddef>

namespace scratchkit {
namespace check {

/// The grid index k of a tap on an axis of n points, as `bc` extends the grid; false: the tap is 0.
inline bool stencil_2d_index(int& k, int n, Boundary bc) {
  if (k >= 0 && k < n) return true;
  if (bc == Boundary::clamp) {
    k = k < 0 ? 0 : n - 1;
    return true;
  }
  if (bc == Boundary::periodic) {
    k = ((k % n) + n) % n;
    return true;
  }
  return false;  // zero
}

/// out against stencil_2d's operation on row-major n0 x n1 arrays in and out and row-major
/// (2R + 1) x (2R + 1) weights w.
template <class T>
Result stencil_2d(Stencil2DShape shape, Boundary bc, int R, const T* in, const T* w, const T* out, int n0, int n1) {
  const double g = gamma<T>(stencil_2d_points(shape, R));
  const int K    = 2 * R + 1;
  const auto part = [&](std::size_t b, std::size_t e, Result& r) {
    for (std::size_t idx = b; idx < e; ++idx) {
      const int i = static_cast<int>(idx / static_cast<std::size_t>(n1)), j = static_cast<int>(idx % n1);
      long double ref = 0, abs = 0;
      for (int a = 0; a < K; ++a)
        for (int c = 0; c < K; ++c) {
          if (shape == Stencil2DShape::star && a != R && c != R) continue;
          int y = i + a - R, x = j + c - R;
          if (!stencil_2d_index(y, n0, bc) || !stencil_2d_index(x, n1, bc)) continue;
          const long double p = static_cast<long double>(w[a * K + c]) * in[static_cast<std::size_t>(y) * n1 + x];
          ref += p;
          abs += std::fabs(p);
        }
      detail::account(r, std::fabs(static_cast<double>(static_cast<long double>(out[idx]) - ref)),
                      g * static_cast<double>(abs));
    }
  };
  const std::size_t n = n0 > 0 && n1 > 0 ? static_cast<std::size_t>(n0) * n1 : 0;
  return detail::compare_chunks(n, detail::check_chunk, part);
}

}  // namespace check
}  // namespace scratchkit
