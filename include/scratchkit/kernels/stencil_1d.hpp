// SPDX-License-Identifier: BSD-3-Clause
/// 1-D stencil of radius R on the layer (native twin: src/cuda/stencil_1d.cu).
#pragma once

#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/native/stencil_1d.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/launch.hpp>

#include <sstream>

namespace scratchkit {
namespace detail {

/// Threads per block of Stencil1DVariant::halo_tile.
constexpr int stencil1d_block = 256;

template <class ExecSpace, class InView, class WView, class OutView>
void stencil_1d_halo_tile(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = stencil1d_block;
  const int n      = static_cast<int>(in.extent(0));
  const int R      = static_cast<int>((w.extent(0) - 1) / 2);
  const int tile_n = BS + 2 * R;
  DynamicLayout layout;
  const std::size_t tile_off = layout.add<T>(tile_n);
  const std::size_t w_off    = layout.add<T>(2 * R + 1);
  const auto p = LaunchParams(Dim3(ceil_div(n, BS)), Dim3(BS)).shared_mem_bytes(layout).require(layout);
  launch(exec, "scratchkit::stencil_1d_halo_tile", p, KOKKOS_LAMBDA(const B_t& b) {
    auto tile       = DynamicSharedArray<T>::offset(b, tile_off, tile_n);
    auto ws         = DynamicSharedArray<T>::offset(b, w_off, 2 * R + 1);
    const int start = b.block_idx().x * BS - R;  // global index of tile[0]
    b.threads([&](const Thread& t) {
      for (int k = t.rank; k < tile_n; k += BS) {
        const int g = start + k;
        tile[k]     = (g >= 0 && g < n) ? in(g) : T(0);
      }
      for (int k = t.rank; k <= 2 * R; k += BS) ws[k] = w(k);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int i = b.block_idx().x * BS + t.rank;
      if (i < n) {
        T s = T(0);
        for (int j = 0; j <= 2 * R; ++j) s += ws[j] * tile[t.rank + j];
        out(i) = s;
      }
    });
  });
}

}  // namespace detail

/// out(i) = sum_{j=0}^{2R} w(j) * in(i + j - R), with in(k) = 0 outside
/// [0, n) (zero boundary), for a stencil of 2R+1 weights.
/// Throws ShapeError if in and out differ in length or w has an even number
/// of weights; LaunchError if the tile of 256 + 2R elements plus the weights
/// do not fit in the backend's scratch. Backend::native runs the CUDA twin
/// on exec's stream (Kokkos::Cuda, contiguous CUDA Views).
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
  if (backend == Backend::native) {
    void* stream = detail::native_stream(exec, "stencil_1d");
    detail::require_native_view(in, "stencil_1d", "in");
    detail::require_native_view(w, "stencil_1d", "w");
    detail::require_native_view(out, "stencil_1d", "out");
#if SCRATCHKIT_HAS_NATIVE_CUDA
    native::cuda::stencil_1d(variant, in.data(), w.data(), static_cast<int>((w.extent(0) - 1) / 2), out.data(),
                             static_cast<int>(in.extent(0)), stream);
#else
    (void)stream;
#endif
    return;
  }
  switch (variant) {
    case Stencil1DVariant::halo_tile: detail::stencil_1d_halo_tile(exec, in, w, out); return;
    default: break;
  }
  throw UnsupportedError(std::string("scratchkit::stencil_1d: variant ") + name(variant) +
                         " is not implemented on the layer");
}

}  // namespace scratchkit
