// SPDX-License-Identifier: BSD-3-Clause
/// 2-D stencil of radius 1 or 2, star or box, on the layer (native twin: src/cuda/stencil_2d.cu).
#pragma once

#include <scratchkit/detail/stencil_2d/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants/stencil_2d.hpp>

#include <climits>
#include <sstream>
#include <type_traits>

namespace scratchkit {

/// One 2-D stencil step on an n0 x n1 grid: for every point (i, j),
///   out(i, j) = sum over the shape's taps (a, b) of w(a, b) * in(i + a - R, j + b - R),
/// with w of (2R + 1) x (2R + 1) weights, R = 1 or 2, and `in` outside the grid as `boundary` says
/// (Boundary::zero: 0, clamp: the nearest grid point, periodic: wrapped; `leave` is refused). Every
/// point of `out` is written, the edges included. Shape `star` reads the centre row and column of
/// w (4R + 1 taps: the 5-point stencil at R = 1, the 9-point at R = 2), `box` every tap (9 at R = 1,
/// 25 at R = 2); the other entries of w are not read under `star`. Each output is s = 0;
/// s += w(a, b) * in(...) over a = 0..2R, then b = 0..2R, in that order on every layout and on both
/// backends, so the layer and the CUDA twin agree bit for bit.
///
/// \tparam ExecSpace a Kokkos execution space; the Views must be accessible from it
/// \param exec     where the kernel runs (asynchronous: fence exec before reading out)
/// \param shape    Stencil2DShape::star or Stencil2DShape::box
/// \param in       rank-2 View of float or double, n0 x n1, any layout (LayoutRight, LayoutLeft, LayoutStride)
/// \param w        rank-2 View of (2R + 1) x (2R + 1) weights, R = 1 or 2, the element type of in
/// \param out      rank-2 View of in's extents and element type, a different array than in
/// \param boundary what in is outside the grid: zero (default), clamp or periodic
/// \param backend  Backend::layer (any execution space) or Backend::native (the CUDA twin on exec's
///                 stream: Kokkos::Cuda, CUDA memory, in, w and out all contiguous row-major or all
///                 contiguous column-major; UnsupportedError naming the strides otherwise)
/// \throws ShapeError for extents that differ, weights that are not 3 x 3 or 5 x 5, an extent of
///         2^30 or more, in and out the same array, or an out with overlapping elements;
///         UnsupportedError for Boundary::leave
/// \code
/// Kokkos::View<float**> u("u", ny, nx), v("v", ny, nx), w("w", 3, 3);  // w: a 5-point Laplacian's cross
/// scratchkit::stencil_2d(exec, scratchkit::Stencil2DShape::star, u, w, v, scratchkit::Boundary::clamp);
/// \endcode
template <class ExecSpace, class InView, class WView, class OutView>
void stencil_2d(const ExecSpace& exec, Stencil2DShape shape, const InView& in, const WView& w, const OutView& out,
                Boundary boundary = Boundary::zero, Backend backend = Backend::layer) {
  static_assert(InView::rank == 2 && WView::rank == 2 && OutView::rank == 2,
                "scratchkit::stencil_2d: in, w, out must be rank-2 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename WView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "scratchkit::stencil_2d: the Views must be accessible from the execution space");
  using T = typename OutView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "scratchkit::stencil_2d: float or double");
  static_assert(std::is_same<typename InView::non_const_value_type, T>::value &&
                    std::is_same<typename WView::non_const_value_type, T>::value,
                "scratchkit::stencil_2d: in, w and out must have the same element type");
  const std::size_t lim = std::size_t(1) << 30;
  if (in.extent(0) != out.extent(0) || in.extent(1) != out.extent(1) || w.extent(0) != w.extent(1) ||
      (w.extent(0) != 3 && w.extent(0) != 5) || in.extent(0) >= lim || in.extent(1) >= lim) {
    std::ostringstream os;
    os << "scratchkit::stencil_2d: need in and out of equal extents (each < 2^30) and 3 x 3 or 5 x 5 weights "
          "(radius 1 or 2): in is "
       << in.extent(0) << " x " << in.extent(1) << ", out " << out.extent(0) << " x " << out.extent(1) << ", w "
       << w.extent(0) << " x " << w.extent(1);
    throw ShapeError(os.str());
  }
  if (boundary == Boundary::leave)
    throw UnsupportedError(
        "scratchkit::stencil_2d: Boundary::leave would read scratch no load wrote; use zero, clamp or periodic");
  if (in.size() > 0 && static_cast<const void*>(in.data()) == static_cast<const void*>(out.data()))
    throw ShapeError("scratchkit::stencil_2d: in and out are the same array; a block reads its neighbours' points "
                     "while others write theirs, give it two arrays");
  detail::require_distinct_elements(out, "stencil_2d", "out");
  detail::map_layouts("stencil_2d", backend, {"in", "w", "out"}, [&](auto transposed, const auto& i, const auto& wv,
                                                                     const auto& o) {
    detail::stencil_2d_run(exec, shape, boundary, detail::const_view(i), detail::const_view(wv), o,
                           decltype(transposed)::value, backend);
  }, in, w, out);
}

}  // namespace scratchkit
