// SPDX-License-Identifier: BSD-3-Clause
/// Warp collectives on the layer: shuffle, broadcast, reduction and scans over a warp of consecutive logical threads
/// (Block::warp_size(): 32 on NVIDIA GPUs, 64 on AMD CDNA GPUs, 32 or 64 on host backends).
#pragma once

#include <scratchkit/per_thread.hpp>

namespace scratchkit {

namespace detail {
/// The warp of logical thread t in a block of n threads: its first rank, its
/// width (the warp size, or fewer for the last warp of a block that is not a
/// whole number of warps) and t's lane.
struct WarpOf {
  int base, width, lane;
};
template <class BlockT>
KOKKOS_INLINE_FUNCTION WarpOf warp_of(const BlockT& b, const Thread& t) {
  const int W      = b.warp_size();
  const int base   = BlockT::is_gpu ? t.rank - t.rank % W : t.rank & -W;  // host: W a power of two, not a constant
  const int n      = b.num_threads();
  return WarpOf{base, n - base < W ? n - base : W, t.rank - base};
}
/// The shuffle mask of a warp of `width` lanes (its lanes 0 .. width - 1; CUDA's 32-lane warps).
KOKKOS_INLINE_FUNCTION unsigned warp_mask(int width) { return width >= 32 ? 0xffffffffu : ((1u << width) - 1u); }

// Device shuffles over a warp of W lanes: CUDA's __shfl*_sync over the lanes of
// `mask`, HIP's __shfl* over a wavefront (no mask: lanes past a partial warp's
// width are inactive, and callers never use what they return).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define SCRATCHKIT_DEVICE_SHUFFLE 1
template <int W, class T>
KOKKOS_FORCEINLINE_FUNCTION T shfl(unsigned mask, T x, int src_lane) {
#if defined(__CUDA_ARCH__)
  return __shfl_sync(mask, x, src_lane, W);
#else
  (void)mask;
  return __shfl(x, src_lane, W);
#endif
}
template <int W, class T>
KOKKOS_FORCEINLINE_FUNCTION T shfl_down(unsigned mask, T x, int delta) {
#if defined(__CUDA_ARCH__)
  return __shfl_down_sync(mask, x, delta, W);
#else
  (void)mask;
  return __shfl_down(x, static_cast<unsigned>(delta), W);
#endif
}
template <int W, class T>
KOKKOS_FORCEINLINE_FUNCTION T shfl_up(unsigned mask, T x, int delta) {
#if defined(__CUDA_ARCH__)
  return __shfl_up_sync(mask, x, delta, W);
#else
  (void)mask;
  return __shfl_up(x, static_cast<unsigned>(delta), W);
#endif
}
#else
#define SCRATCHKIT_DEVICE_SHUFFLE 0
#endif
/// Host backends: f(base, width) once for each warp of the block, run by the
/// team member that owns it (in its first lane's turn), so that a warp
/// collective can run its lanes' rounds in order over the PerThread array.
/// Warp sizes are powers of two (32, 64): masks, not divisions.
template <class BlockT, class F>
KOKKOS_INLINE_FUNCTION void host_warps(const BlockT& b, const F& f) {
  const int W = b.warp_size();
  const int n = b.num_threads();
  if constexpr (!BlockT::is_gpu) if (host_direct(b)) {  // nothing of it in a GPU pass
    for (int base = 0; base < n; base += W) f(base, n - base < W ? n - base : W);
    return;
  }
  b.threads([&](const Thread& t) {
    if ((t.rank & (W - 1)) == 0) f(t.rank, n - t.rank < W ? n - t.rank : W);
  });
}
/// warp_reduce's rounds over the lanes x[0 .. width) of one warp of W lanes.
template <class T, class Op>
KOKKOS_INLINE_FUNCTION void host_warp_reduce_lanes(T* x, int W, int width, const Op& op) {
  for (int off = W / 2; off > 0; off >>= 1)
    for (int lane = 0; lane + off < width; ++lane) x[lane] = op(x[lane], x[lane + off]);
}
/// warp_inclusive_scan's rounds over the lanes x[0 .. width) of one warp
/// (width <= 64, the host's widest warp). Each round reads a copy of the
/// lanes, as a shuffle reads the values from before the round, so that its
/// loop has no dependence and vectorises.
template <class T, class Op>
KOKKOS_INLINE_FUNCTION void host_warp_scan_lanes(T* x, int width, const Op& op) {
  T old[64];
  for (int off = 1; off < width; off <<= 1) {
    for (int lane = 0; lane < width; ++lane) old[lane] = x[lane];
    for (int lane = off; lane < width; ++lane) x[lane] = op(old[lane - off], old[lane]);
  }
}
}  // namespace detail

/// Reduces v over each warp (W = b.warp_size() consecutive ranks; the last
/// warp of a block may be partial) with the binary operator op (associative
/// and commutative: the tree pairs lane l with lane l + W/2 first); the
/// warp's result lands in v(t) of its first lane (t.rank % W == 0); other
/// lanes hold partial values.
///
/// Called from the kernel body, like sync_threads: every thread takes part.
/// On a GPU it is the shuffle tree of CUDA's `__shfl_down_sync` (offsets 16,
/// 8, 4, 2, 1) or HIP's `__shfl_down` (32, 16, ..., 1 on a 64-lane
/// wavefront), in registers; on host backends the same tree, in the same
/// order, over the PerThread array of the team member that owns the warp.
/// \code
/// scratchkit::PerThread<float, Block, 256> v(b);
/// b.threads([&](const Thread& t) { v(t) = x(i0 + t.rank); });
/// scratchkit::warp_reduce(b, v, [](float a, float c) { return a + c; });
/// const int W = b.warp_size();
/// b.threads([&](const Thread& t) { if (t.rank % W == 0) partial[t.rank / W] = v(t); });
/// \endcode
template <class T, class BlockT, int MaxThreads, class Op>
KOKKOS_INLINE_FUNCTION void warp_reduce(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, const Op& op) {
  if constexpr (BlockT::is_gpu) {
    constexpr int W = BlockT::max_warp_size;
    b.threads([&](const Thread& t) {
      const detail::WarpOf w = detail::warp_of(b, t);
#if SCRATCHKIT_DEVICE_SHUFFLE
      const unsigned mask = detail::warp_mask(w.width);
      T x                 = v(t);
      for (int off = W / 2; off > 0; off >>= 1) {
        const T y = detail::shfl_down<W>(mask, x, off);
        if (w.lane + off < w.width) x = op(x, y);
      }
      v(t) = x;
#else
      (void)w;
      (void)op;
      SCRATCHKIT_ABORT("scratchkit::warp_reduce: no shuffle for this GPU backend");
#endif
    });
  } else {
    // Host: the owning member runs each of its warps' lanes in ascending
    // order, which reads every lane + off before it is updated in the same
    // round: exactly the values a shuffle would see.
    const int W = b.warp_size();
    T* x        = v.impl_data();
    detail::host_warps(b, [&](int base, int width) { detail::host_warp_reduce_lanes(x + base, W, width, op); });
  }
}


/// Lets the lanes of each warp see each other's scratch writes before they
/// read them: CUDA's `__syncwarp()` (over the lanes a partial last warp has);
/// on AMD GPUs a wavefront barrier between wavefront-scope fences (what
/// ROCm's later `__syncwarp` does; ROCm 5 has none).
/// Called from the kernel body between two thread phases whose data flows
/// only within warps. On host backends it does nothing: the team member that
/// owns a warp runs all its lanes through one phase before the next.
/// \code
/// b.threads([&](const Thread& t) { s[t.rank] = x(t); });
/// scratchkit::sync_warp(b);
/// b.threads([&](const Thread& t) { y(t) = s[t.rank ^ 1]; });  // a lane of the same warp
/// \endcode
template <class BlockT>
KOKKOS_INLINE_FUNCTION void sync_warp(const BlockT& b) {
  if constexpr (BlockT::is_gpu) {
    b.threads([&](const Thread& t) {
#if defined(__CUDA_ARCH__)
      __syncwarp(detail::warp_mask(detail::warp_of(b, t).width));
#elif defined(__HIP_DEVICE_COMPILE__)
      (void)t;
      __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
      __builtin_amdgcn_wave_barrier();
      __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
      (void)t;
      SCRATCHKIT_ABORT("scratchkit::sync_warp: no warp barrier for this GPU backend");
#endif
    });
  } else {
    (void)b;
    SCRATCHKIT_SCRATCH_SYNC_WARP();  // host lanes are ordered already; the checker needs to know
  }
}

/// v(t) = the value v held at lane src_of(lane) of t's warp, for every lane
/// at once (CUDA's `__shfl_sync(mask, v, src)`, HIP's `__shfl(v, src)`, with
/// a per-lane source). src_of(lane) must be a lane of the same warp (below
/// the width of a partial last warp; checked in bounds-checked builds). T: a
/// type `__shfl_sync` and `__shfl` take (int, long long, float, double and
/// their unsigned kin) on GPUs, anything copyable on the host.
/// \code
/// scratchkit::warp_shuffle(b, v, [](int lane) { return lane ^ 1; });  // swap neighbours
/// \endcode
template <class T, class BlockT, int MaxThreads, class SrcOf>
KOKKOS_INLINE_FUNCTION void warp_shuffle(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, const SrcOf& src_of) {
  if constexpr (BlockT::is_gpu) {
    b.threads([&](const Thread& t) {
      const detail::WarpOf w = detail::warp_of(b, t);
      const int src          = src_of(w.lane);
      SCRATCHKIT_BOUNDS_CHECK(src >= 0 && src < w.width, "scratchkit::warp_shuffle: source lane outside the warp");
#if SCRATCHKIT_DEVICE_SHUFFLE
      v(t) = detail::shfl<BlockT::max_warp_size>(detail::warp_mask(w.width), v(t), src);
#else
      (void)src;
      SCRATCHKIT_ABORT("scratchkit::warp_shuffle: no shuffle for this GPU backend");
#endif
    });
  } else {
    // Host: every lane's value is read before any is replaced, as a shuffle does.
    T* x = v.impl_data();
    detail::host_warps(b, [&](int base, int width) {
      T old[BlockT::max_warp_size];
      for (int lane = 0; lane < width; ++lane) old[lane] = x[base + lane];
      for (int lane = 0; lane < width; ++lane) {
        const int src = src_of(lane);
        SCRATCHKIT_REQUIRE(src >= 0 && src < width, "scratchkit::warp_shuffle: source lane outside the warp");
        x[base + lane] = old[src];
      }
    });
  }
}

/// Every lane of each warp gets the value of lane src_lane of its warp
/// (CUDA's `__shfl_sync(mask, v, src_lane)`); src_lane must be a lane of
/// every warp (below the width of a partial last warp).
/// \code
/// scratchkit::warp_broadcast(b, v, 0);  // lane 0's value to its whole warp
/// \endcode
template <class T, class BlockT, int MaxThreads>
KOKKOS_INLINE_FUNCTION void warp_broadcast(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, int src_lane) {
  warp_shuffle(b, v, [=](int) { return src_lane; });
}

/// Inclusive scan of v over each warp (W = b.warp_size() consecutive ranks;
/// the last warp of a block may be partial) with the associative operator op:
/// lane l ends with op over lanes 0 .. l, the earlier lanes always the left
/// operand.
///
/// Called from the kernel body. On a GPU it is a Kogge-Stone scan of
/// `__shfl_up_sync` (CUDA) or `__shfl_up` (HIP) rounds (offsets 1, 2, 4, ...,
/// W/2: x = op(x from lane - off, x)); host backends run the same rounds over
/// the PerThread array, each round
/// from the last lane down so that every lane reads its source before it is
/// updated: the same operations in the same order, so results are bit
/// identical (floats included).
/// \code
/// scratchkit::PerThread<float, Block, 256> v(b);
/// b.threads([&](const Thread& t) { v(t) = x(i0 + t.rank); });
/// scratchkit::warp_inclusive_scan(b, v, [](float a, float c) { return a + c; });
/// \endcode
template <class T, class BlockT, int MaxThreads, class Op>
KOKKOS_INLINE_FUNCTION void warp_inclusive_scan(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, const Op& op) {
  if constexpr (BlockT::is_gpu) {
    constexpr int W = BlockT::max_warp_size;
    b.threads([&](const Thread& t) {
      const detail::WarpOf w = detail::warp_of(b, t);
#if SCRATCHKIT_DEVICE_SHUFFLE
      const unsigned mask = detail::warp_mask(w.width);
      T x                 = v(t);
      for (int off = 1; off < W; off <<= 1) {
        const T y = detail::shfl_up<W>(mask, x, off);
        if (w.lane >= off) x = op(y, x);
      }
      v(t) = x;
#else
      (void)w;
      (void)op;
      SCRATCHKIT_ABORT("scratchkit::warp_inclusive_scan: no shuffle for this GPU backend");
#endif
    });
  } else {
    T* x = v.impl_data();
    detail::host_warps(b, [&](int base, int width) { detail::host_warp_scan_lanes(x + base, width, op); });
  }
}

/// Exclusive scan of v over each warp: lane 0 ends with init, lane l > 0
/// with op(init, inclusive scan of lanes 0 .. l - 1), the inclusive scan
/// being warp_inclusive_scan's (the same bits). For a sum with init 0 the
/// extra op changes nothing but the sign of a zero.
/// \code
/// scratchkit::warp_exclusive_scan(b, v, 0, [](int a, int c) { return a + c; });  // offsets within each warp
/// \endcode
template <class T, class BlockT, int MaxThreads, class Op>
KOKKOS_INLINE_FUNCTION void warp_exclusive_scan(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, const T& init,
                                                const Op& op) {
  warp_inclusive_scan(b, v, op);
  warp_shuffle(b, v, [](int lane) { return lane > 0 ? lane - 1 : 0; });
  const int W = b.warp_size();
  b.threads([&](const Thread& t) {
    v(t) = (t.rank & (W - 1)) == 0 ? init : op(init, v(t));  // W: a power of two
  });
}

}  // namespace scratchkit
