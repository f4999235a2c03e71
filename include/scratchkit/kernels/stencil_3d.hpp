// SPDX-License-Identifier: BSD-3-Clause
/// 3-D 7-point stencil (one Jacobi/heat step) on the layer (native twin: src/cuda/stencil_3d.cu).
#pragma once

#include <scratchkit/detail/stencil_3d/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// One 7-point stencil step on an nz x ny x nx grid (Views indexed (z, y, x),
/// x fastest): for interior points
///   out = c0*in(z,y,x) + c1*(in(z,y,x-1) + in(z,y,x+1) + in(z,y-1,x) + in(z,y+1,x) + in(z-1,y,x) + in(z+1,y,x)),
/// summed in exactly that order on row-major Views (the native twin does the
/// same, so they agree bit for bit); points with an index 0 or n-1 in any
/// dimension are copied (fixed Dirichlet boundary). A heat step is
/// c0 = 1 - 6*alpha, c1 = alpha. In general the neighbours are summed in
/// memory order: the contiguous axis first, the axis of the largest stride
/// last (on column-major Views: the index-0 neighbours first), the same
/// rounding bound either way.
///
/// float or double. `in` and `out` must have the same extents and be
/// different arrays (ShapeError otherwise, before any launch). Backend::layer
/// takes any layout: LayoutRight, LayoutLeft (run on the reversed axes of
/// the same memory) and LayoutStride with in and out pitched alike along a
/// unit-stride axis (the first or the last) are fast; other strides run a
/// correct general path (docs/layouts.md). Backend::native runs the CUDA twin
/// on exec's stream and needs Kokkos::Cuda and CUDA Views both contiguous
/// row-major or both contiguous column-major (UnsupportedError otherwise). Asynchronous: fence
/// exec before reading out.
/// \code
/// Kokkos::View<float***> u("u", nz, ny, nx), v("v", nz, ny, nx);
/// const float alpha = 0.1f;
/// scratchkit::stencil_3d_7pt(exec, scratchkit::Stencil3DVariant::z_streaming, u, v, 1 - 6 * alpha, alpha);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void stencil_3d_7pt(const ExecSpace& exec, Stencil3DVariant variant, const InView& in, const OutView& out,
                    typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                    Backend backend = Backend::layer) {
  static_assert(InView::rank == 3 && OutView::rank == 3, "scratchkit::stencil_3d_7pt: in, out must be rank-3 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "scratchkit::stencil_3d_7pt: the Views must be accessible from the execution space");
  using T = typename OutView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "scratchkit::stencil_3d_7pt: float or double");
  static_assert(std::is_same<typename InView::non_const_value_type, T>::value,
                "scratchkit::stencil_3d_7pt: in and out must have the same element type");
  if (in.extent(0) != out.extent(0) || in.extent(1) != out.extent(1) || in.extent(2) != out.extent(2)) {
    std::ostringstream os;
    os << "scratchkit::stencil_3d_7pt: in and out must have the same extents (nz x ny x nx): in is "
       << in.extent(0) << " x " << in.extent(1) << " x " << in.extent(2) << ", out is " << out.extent(0) << " x "
       << out.extent(1) << " x " << out.extent(2);
    throw ShapeError(os.str());
  }
  if (in.size() > 0 && static_cast<const void*>(in.data()) == static_cast<const void*>(out.data())) {
    throw ShapeError(
        "scratchkit::stencil_3d_7pt: in and out are the same array; a Jacobi step reads in while writing out, "
        "give it two arrays");
  }
  detail::require_distinct_elements(out, "stencil_3d_7pt", "out");
  // One coefficient for all six neighbours and the same boundary rule on every axis: the stencil on
  // column-major Views is the stencil on the row-major Views of the same memory with the axes reversed
  // (layout_map.hpp; only the order of the neighbour sum follows the memory, see above).
  detail::map_layouts("stencil_3d_7pt", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::stencil_3d_run(exec, variant, detail::const_view(i), o, c0, c1, backend);
  }, in, out);
}

}  // namespace scratchkit
