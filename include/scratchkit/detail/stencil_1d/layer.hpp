// SPDX-License-Identifier: BSD-3-Clause
/// stencil_1d: the layer implementation behind kernels/stencil_1d.hpp (the public calls and contracts are there).
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/stencil_1d.hpp>
#include <scratchkit/tuning/stencil_1d.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The 1-D stencil policy of this build's GPU (both twins).
using Stencil1DPolicy = tuning::Stencil1DPolicy<tuning::cuda_arch>;
/// Threads per block of both variants.
constexpr int stencil1d_block = Stencil1DPolicy::threads;
/// Launch bounds: without them the compiler may use more registers (the weight
/// loop unrolls) and fit fewer blocks.
constexpr int stencil1d_min_blocks = Stencil1DPolicy::min_blocks;

/// Blocks one Kokkos team runs on Kokkos' generic driver (LaunchBounds'
/// TeamLoop, strided order), per variant and type: a 1-D stencil block is ~100
/// instructions a thread, ~10^6 blocks at 2^28 points, and the generic
/// driver's per-team start is several percent of that. The values are the best
/// of a sweep over k per variant and type (docs/performance.md, "Several blocks
/// per team"). The launch takes fewer where the grid is short of four waves of
/// teams. A tuning hook may replace it (tuning::Kernel::stencil_1d).
template <class T>
int stencil1d_blocks_per_team(bool vectorized) {
  if (vectorized) return Stencil1DPolicy::vectorized_blocks_per_team;
  return sizeof(T) == 4 ? Stencil1DPolicy::halo_tile_float_blocks_per_team
                        : Stencil1DPolicy::halo_tile_double_blocks_per_team;
}
using Stencil1DBounds = TeamLoopBounds<stencil1d_block, stencil1d_min_blocks>;

/// p, a 16-byte aligned pointer into level-0 scratch, rebuilt on CUDA as the
/// start of the dynamic shared window plus its 32-bit offset with the low four
/// bits visibly clear (a no-op at run time). The layer's dynamic partitions sit
/// at run-time offsets (captured partition offset + the block's dynamic start),
/// whose alignment nvcc does not see through assume_aligned, so the weights loop
/// loads one weight per LDS from a per-thread register address; the native twin's
/// weights are `smem + round16(...)`, and nvcc reads them four at a time with
/// LDS.128 from a uniform register (docs/performance.md, "1-D stencil"). Only for level-0 scratch
/// (shared memory) of a CUDA launch: halo_tile sets no level-1 fallback, so its
/// level-1 instantiation (compiled by launch()) never runs. Candidate for the
/// layer core (a DynamicSharedArray whose offset carries its alignment).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* stencil1d_shared16(T* p) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  // The layer's own symbol for the window (launch.hpp, scratch_window): the
  // scratch pointers are built from it, so nvcc folds the offset to theirs.
  extern __shared__ __align__(128) char scratchkit_shared_base[];
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p)) -
                     static_cast<unsigned>(__cvta_generic_to_shared(scratchkit_shared_base));
  return reinterpret_cast<T*>(scratchkit_shared_base + (s & ~15u));
#else
  return p;
#endif
}

/// halo_tile's block on a host backend where one team member runs it
/// (detail::host_direct): the same tile and the same sums (each output over j
/// in order), with j outside the loop over the block's outputs so that it vectorises.
template <int BS, class B_t, class T, class InView, class WView, class OutView>
KOKKOS_INLINE_FUNCTION void stencil1d_halo_tile_host(const B_t& b, T* tp, T* ws, const InView& in, const WView& w,
                                                     const OutView& out, int n, int R, int blk) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    const int tile_n = BS + 2 * R, start = blk * BS - R;
    if (start >= 0 && start + tile_n <= n) {
      for (int k = 0; k < tile_n; ++k) tp[k] = T(read_only(in, start + k));
    } else {
      for (int k = 0; k < tile_n; ++k) {
        const int g = start + k;
        tp[k]       = (g >= 0 && g < n) ? T(read_only(in, g)) : T(0);
      }
    }
    for (int k = 0; k <= 2 * R; ++k) ws[k] = T(read_only(w, k));
    sync_threads(b);
    const T* const wsp = stencil1d_shared16(ws);
    const int m        = n - blk * BS < BS ? n - blk * BS : BS;
    T acc[BS];
    for (int r = 0; r < m; ++r) acc[r] = T(0);
    for (int j = 0; j <= 2 * R; ++j) {
      const T wj = wsp[j];
      for (int r = 0; r < m; ++r) acc[r] += wj * tp[r + j];
    }
    for (int r = 0; r < m; ++r) out(blk * BS + r) = acc[r];
  } else {
    (void)b;
  }
}

template <class ExecSpace, class InView, class WView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void stencil_1d_halo_tile(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = stencil1d_block;
  const int n      = static_cast<int>(in.extent(0));
  const int R      = static_cast<int>((w.extent(0) - 1) / 2);
  const int tile_n = BS + 2 * R;
  DynamicLayout layout;
  layout.add<T>(tile_n);  // the tile: the pool's first partition, at offset 0
  const std::size_t w_off = layout.add<T>(2 * R + 1);
  const auto p = LaunchParams(Dim3(ceil_div(n, BS)), Dim3(BS))
                     .shared_mem_bytes(layout)
                     .require(layout)
                     // One scratch copy and the team loop's barrier: two copies are slower
                     // here in both types (docs/performance.md, "Several blocks per team").
                     .blocks_per_team(stencil1d_blocks_per_team<T>(false));
  launch_kernel<Stencil1DBounds, ScratchFallback::none>(exec, "scratchkit::stencil_1d_halo_tile", tuning::Kernel::stencil_1d, p, KOKKOS_LAMBDA(const B_t& b) {
    auto tile       = DynamicSharedArray<T>::offset(b, 0, tile_n);
    auto ws         = DynamicSharedArray<T>::offset(b, w_off, 2 * R + 1);
    const int blk   = b.block_rank();  // the block's index (grid is 1-D)
    const int start = blk * BS - R;            // global index of tile[0]
    if (host_direct(b)) {  // not `if constexpr`: nvcc refuses an extended lambda's first capture inside one
      stencil1d_halo_tile_host<BS>(b, tile.data(), ws.data(), in, w, out, n, R, blk);
      return;
    }
    b.threads([&](const Thread& t) {
      for (int k = t.rank; k < tile_n; k += BS) {
        const int g = start + k;
        tile[k]     = (g >= 0 && g < n) ? T(read_only(in, g)) : T(0);
      }
      for (int k = t.rank; k <= 2 * R; k += BS) ws[k] = T(read_only(w, k));
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int i = blk * BS + t.rank;
      if (i < n) {
        const T* const wsp = stencil1d_shared16(ws.data());
        T s = T(0);
        for (int j = 0; j <= 2 * R; ++j) s += wsp[j] * tile[t.rank + j];
        out(i) = s;
      }
    });
  });
}

/// Outputs per thread of Stencil1DVariant::vectorized: one 16-byte vector
/// (4 floats, 2 doubles).
template <class T>
constexpr int stencil1d_vec = static_cast<int>(16 / sizeof(T));

/// One 16-byte vector of T: a copy of it is one 16-byte load or store on GPUs.
template <class T>
struct alignas(16) Stencil1DVec {
  T v[stencil1d_vec<T>];
};

/// A read-only 16-byte load of the vector at p (16-byte aligned); on CUDA
/// through the non-coherent path (float4 / double2), as in the native twin.
template <class T>
KOKKOS_INLINE_FUNCTION Stencil1DVec<T> stencil1d_load_vec(const T* p) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  Stencil1DVec<T> q;
  if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value) {
    load16(p, q.v);
  } else {
    q = *reinterpret_cast<const Stencil1DVec<T>*>(p);
  }
  return q;
#else
  return *reinterpret_cast<const Stencil1DVec<T>*>(p);
#endif
}

/// True when element i of `view` may be read as part of a 16-byte vector
/// (contiguous, data pointer 16-byte aligned; rank 1, so stride 1).
template <class View>
bool stencil1d_vector_ok(const View& view) {
  return view.span_is_contiguous() && reinterpret_cast<std::uintptr_t>(view.data()) % 16 == 0;
}

// Same math as halo_tile (zero boundary, per output j = 0..2R in order, from
// s = 0), so the results are bit-identical; the differences are in the data
// movement. Each thread computes V consecutive outputs; the tile is aligned to
// the input: tile[k] holds in(gstart + k), gstart = block * V*BS - Rp with Rp =
// R rounded up to V, so chunks of V elements are 16-byte aligned both in
// global memory and in the tile. It is filled with one vector per chunk (scalar
// loads at the ends, or everywhere when `in` is not contiguous and 16-byte
// aligned), and read back a vector at a time into a window of two chunks that
// slides along j. Output v of thread t at weight j reads tile[V*t + off + v + j],
// off = Rp - R.
template <class ExecSpace, class InView, class WView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void stencil_1d_vectorized(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using Vec = Stencil1DVec<T>;
  using B_t = Block<ExecSpace>;
  constexpr int BS = stencil1d_block, V = stencil1d_vec<T>, VB = V * BS;
  const int n       = static_cast<int>(in.extent(0));
  const int R       = static_cast<int>((w.extent(0) - 1) / 2);
  const int Rp      = (R + V - 1) / V * V;
  const int off     = Rp - R;
  const int nchunks = BS + 2 * Rp / V + 1;  // the window reads one chunk past the last output's
  const int cend    = (off + 2 * R) / V;    // chunk of the last weight, from the thread's first
  // The vector path reinterprets in's data as T: only when its elements are T.
  constexpr bool same_t = std::is_same<typename InView::non_const_value_type, T>::value;
  const bool vec_in = same_t && stencil1d_vector_ok(in), vec_out = stencil1d_vector_ok(out);
  DynamicLayout layout;
  const std::size_t tile_off = layout.add<T>(static_cast<std::size_t>(nchunks) * V, 16);
  const std::size_t w_off    = layout.add<T>(2 * R + 1);
  const auto p = LaunchParams(Dim3(ceil_div(n, VB)), Dim3(BS))
                     .shared_mem_bytes(layout)
                     .require(layout)
                     .blocks_per_team(stencil1d_blocks_per_team<T>(true))
                     // One sync_threads per block, reached by every thread; two copies are
                     // faster here (docs/performance.md, "Several blocks per team").
                     .alternate_scratch();
  launch_kernel<Stencil1DBounds, ScratchFallback::none>(exec, "scratchkit::stencil_1d_vectorized", tuning::Kernel::stencil_1d, p, KOKKOS_LAMBDA(const B_t& b) {
    auto tile        = DynamicSharedArray<T>::offset(b, tile_off, static_cast<std::size_t>(nchunks) * V);
    auto ws          = DynamicSharedArray<T>::offset(b, w_off, 2 * R + 1);
    Vec* tv          = reinterpret_cast<Vec*>(tile.data());
    const int blk    = b.block_rank();  // the block's index (grid is 1-D)
    const int gstart = blk * VB - Rp;           // global index of tile[0], a multiple of V
    b.threads([&](const Thread& t) {
      for (int k = t.rank; k < nchunks; k += BS) {
        const int g = gstart + V * k;
        Vec q;
        if (vec_in && g >= 0 && g + V <= n) {
          q = stencil1d_load_vec(reinterpret_cast<const T*>(in.data()) + g);
        } else {
          SCRATCHKIT_UNROLL
          for (int e = 0; e < V; ++e) q.v[e] = (g + e >= 0 && g + e < n) ? T(read_only(in, g + e)) : T(0);
        }
        tv[k] = q;
      }
      for (int k = t.rank; k <= 2 * R; k += BS) ws[k] = T(read_only(w, k));
    });
    sync_threads(b);
    // The weights' address as an opaque shared-memory offset: otherwise nvcc folds it
    // into the tile pointer (both come from the one scratch base), recomputes it inside
    // every `if (j in range)` below and turns those into branches, so that each weight
    // load waits on its own FMAs (the native twin keeps a separate weights pointer and
    // predicates the loads).
    const T* const wsp = opaque_shared(ws.data());
    b.threads([&](const Thread& t) {
      const int i0 = blk * VB + V * t.rank;
      if (i0 < n) {
        T acc[V], x[2 * V];
        SCRATCHKIT_UNROLL
        for (int v = 0; v < V; ++v) acc[v] = T(0);
        Vec q = tv[t.rank];
        SCRATCHKIT_UNROLL
        for (int e = 0; e < V; ++e) x[e] = q.v[e];
        for (int c = 0; c <= cend; ++c) {
          q = tv[t.rank + c + 1];
          SCRATCHKIT_UNROLL
          for (int e = 0; e < V; ++e) x[V + e] = q.v[e];
          SCRATCHKIT_UNROLL
          for (int r = 0; r < V; ++r) {
            const int j = c * V + r - off;  // x[r + v] is tile[V*t + off + v + j]
            if (j >= 0 && j <= 2 * R) {
              const T wj = wsp[j];
              SCRATCHKIT_UNROLL
              for (int v = 0; v < V; ++v) acc[v] += wj * x[r + v];
            }
          }
          SCRATCHKIT_UNROLL
          for (int e = 0; e < V; ++e) x[e] = x[V + e];
        }
        if (vec_out && i0 + V <= n) {
          SCRATCHKIT_UNROLL
          for (int v = 0; v < V; ++v) q.v[v] = acc[v];
          reinterpret_cast<Vec*>(out.data())[i0 / V] = q;
        } else {
          SCRATCHKIT_UNROLL
          for (int v = 0; v < V; ++v)
            if (i0 + v < n) out(i0 + v) = acc[v];
        }
      }
    });
  });
}

/// stencil_1d's entry point (detail/eti.hpp): the Views mapped by stencil_1d() onto row-major
/// ones, arguments checked there. The native branch is here, compiled once in the library's unit.
template <class ExecSpace, class InView, class WView, class OutView>
void stencil_1d_run(const ExecSpace& exec, Stencil1DVariant variant, const InView& in, const WView& w,
                    const OutView& out, Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "stencil_1d", {"in", "w", "out"}, [&](auto stream) {
      native::cuda::stencil_1d(variant, in.data(), w.data(), static_cast<int>((w.extent(0) - 1) / 2), out.data(),
                               static_cast<int>(in.extent(0)), stream);
    }, in, w, out);
  if (in.extent(0) == 0) return;  // nothing to compute: no launch (an empty grid is an error)
  try {
    switch (variant) {
      case Stencil1DVariant::halo_tile: detail::stencil_1d_halo_tile(exec, in, w, out); return;
      case Stencil1DVariant::vectorized:
        if constexpr (16 % sizeof(typename OutView::non_const_value_type) == 0) {
          detail::stencil_1d_vectorized(exec, in, w, out);
          return;
        }
        break;
      default: break;
    }
  } catch (const LaunchError& e) {
    // The block's scratch holds a tile of 256 + 2R values and the 2R + 1 weights:
    // a radius too large for this launch path's level 0 ends here, named.
    std::ostringstream os;
    os << "scratchkit::stencil_1d (" << name(variant) << "): radius " << (w.extent(0) - 1) / 2
       << " (" << w.extent(0) << " weights) does not fit this backend's block scratch, which holds a block's "
       << "values, 2R halo values and the 2R + 1 weights; call it with a smaller radius"
#if defined(KOKKOS_ENABLE_CUDA) && !SCRATCHKIT_KOKKOS_CUDA_DRIVER
       << ", or build with -DSCRATCHKIT_KOKKOS_CUDA_DRIVER=ON for the device's whole shared memory"
#endif
       << ". " << e.what();
    throw LaunchError(os.str());
  }
  throw UnsupportedError(std::string("scratchkit::stencil_1d: variant ") + name(variant) +
                         " is not implemented on the layer");
}

}  // namespace detail
}  // namespace scratchkit

/// stencil_1d's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_STENCIL_1D(PREFIX, E, T, L)                                                                \
  PREFIX template void scratchkit::detail::stencil_1d_run<E, scratchkit::detail::EtiView<const T, 1, L, E>,      \
                                                          scratchkit::detail::EtiView<const T, 1, L, E>,          \
                                                          scratchkit::detail::EtiView<T, 1, L, E>>(               \
      const E&, scratchkit::Stencil1DVariant, const scratchkit::detail::EtiView<const T, 1, L, E>&,               \
      const scratchkit::detail::EtiView<const T, 1, L, E>&, const scratchkit::detail::EtiView<T, 1, L, E>&,       \
      scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_STENCIL_1D_EXTERN(E, T, L) SCRATCHKIT_ETI_STENCIL_1D(extern, E, T, L)
#define SCRATCHKIT_ETI_STENCIL_1D_SPACE(E)                       \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_1D_EXTERN, E, float) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_1D_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_STENCIL_1D_SPACE)
#undef SCRATCHKIT_ETI_STENCIL_1D_SPACE
#undef SCRATCHKIT_ETI_STENCIL_1D_EXTERN
#endif
