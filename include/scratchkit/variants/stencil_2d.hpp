// SPDX-License-Identifier: BSD-3-Clause
/// stencil_2d's vocabulary, shared by the layer and its CUDA twin (no Kokkos, no CUDA).
#pragma once

#include <scratchkit/boundary.hpp>

namespace scratchkit {

/// Which taps of the (2R + 1) x (2R + 1) weights a 2-D stencil of radius R reads.
enum class Stencil2DShape {
  star,  ///< the centre row and column: 4R + 1 points (5-point at R = 1, 9-point at R = 2)
  box,   ///< every tap: (2R + 1)^2 points (9-point at R = 1, 25-point at R = 2)
};

inline const char* name(Stencil2DShape s) { return s == Stencil2DShape::star ? "star" : "box"; }

/// The points of a shape of radius R.
constexpr int stencil_2d_points(Stencil2DShape s, int R) {
  return s == Stencil2DShape::star ? 4 * R + 1 : (2 * R + 1) * (2 * R + 1);
}

}  // namespace scratchkit
