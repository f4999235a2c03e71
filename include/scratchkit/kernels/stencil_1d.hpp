// SPDX-License-Identifier: BSD-3-Clause
/// 1-D stencil of radius R on the layer (native twin: src/cuda/stencil_1d.cu).
#pragma once

#include <scratchkit/detail/stencil_1d/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// out(i) = sum_{j=0}^{2R} w(j) * in(i + j - R), with in(k) = 0 outside
/// [0, n) (zero boundary), for a stencil of 2R+1 weights.
/// Variants: `halo_tile` (one output per thread, a tile of 256 + 2R
/// elements) and `vectorized` (V = 16 / sizeof(T) consecutive outputs per
/// thread, a tile of 256 V + 2 R' + V elements, R' = R rounded up to V, filled
/// and read with 16-byte vectors). `vectorized` uses 16-byte global loads
/// (stores) only where `in` (`out`) is contiguous with a 16-byte aligned data
/// pointer, and scalar accesses elsewhere, e.g. for a subview that starts at
/// an odd element. Both compute every output as s = 0; s += w(j) * in(i+j-R)
/// for j = 0..2R in order, so they agree bit for bit with each other and with
/// their native twins.
/// Throws ShapeError if in and out differ in length or w has an even number
/// of weights; LaunchError if the tile plus the weights do not fit in the
/// backend's scratch. Any rank-1 layout: LayoutLeft, LayoutRight and unit-stride
/// LayoutStride Views are contiguous (fast); other strides run a correct
/// element-wise path; an out with a zero stride throws ShapeError.
/// Backend::native runs the CUDA twin on exec's stream (Kokkos::Cuda,
/// contiguous CUDA Views; UnsupportedError naming the strides otherwise).
/// \code
/// Kokkos::View<float*> in("in", n), w("w", 2 * R + 1), out("out", n);
/// scratchkit::stencil_1d(exec, scratchkit::Stencil1DVariant::vectorized, in, w, out);
/// \endcode
template <class ExecSpace, class InView, class WView, class OutView>
void stencil_1d(const ExecSpace& exec, Stencil1DVariant variant, const InView& in, const WView& w,
                const OutView& out, Backend backend = Backend::layer) {
  static_assert(InView::rank == 1 && WView::rank == 1 && OutView::rank == 1,
                "scratchkit::stencil_1d: in, w, out must be rank-1 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename WView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "scratchkit::stencil_1d: the Views must be accessible from the execution space");
  if (in.extent(0) != out.extent(0) || w.extent(0) % 2 == 0 || in.extent(0) > static_cast<std::size_t>(INT_MAX / 2)) {
    std::ostringstream os;
    os << "scratchkit::stencil_1d: need in and out of equal length (< 2^30) and an odd number of weights "
          "(2R+1): in has "
       << in.extent(0) << ", out " << out.extent(0) << ", w " << w.extent(0);
    throw ShapeError(os.str());
  }
  detail::require_distinct_elements(out, "stencil_1d", "out");
  detail::map_layouts("stencil_1d", backend, {"in", "w", "out"}, [&](auto, const auto& i, const auto& wv,
                                                                     const auto& o) {
    detail::stencil_1d_run(exec, variant, detail::const_view(i), detail::const_view(wv), o, backend);
  }, in, w, out);
}

}  // namespace scratchkit
