// SPDX-License-Identifier: BSD-3-Clause
/// Warp collectives on the layer: a shuffle reduction over 32 consecutive logical threads.
#pragma once

#include <scratchkit/per_thread.hpp>

namespace scratchkit {

/// Reduces v over each warp (32 consecutive ranks; the last warp of a block
/// may be partial) with the binary operator op; the warp's result lands in
/// v(t) of its first lane (t.rank % 32 == 0); other lanes hold partial values.
///
/// Called from the kernel body, like sync_threads: every thread takes part.
/// On a GPU it is the shuffle tree of CUDA's `__shfl_down_sync` (offsets 16,
/// 8, 4, 2, 1), in registers; on host backends the same tree, in the same
/// order, over the PerThread array of the team member that owns the warp.
/// \code
/// scratchkit::PerThread<float, Block, 256> v(b);
/// b.threads([&](const Thread& t) { v(t) = x(i0 + t.rank); });
/// scratchkit::warp_reduce(b, v, [](float a, float c) { return a + c; });
/// b.threads([&](const Thread& t) { if (t.rank % 32 == 0) partial[t.rank / 32] = v(t); });
/// \endcode
template <class T, class BlockT, int MaxThreads, class Op>
KOKKOS_INLINE_FUNCTION void warp_reduce(const BlockT& b, PerThread<T, BlockT, MaxThreads>& v, const Op& op) {
  constexpr int W = BlockT::warp_size;
  if constexpr (BlockT::is_gpu) {
    b.threads([&](const Thread& t) {
      const int base  = t.rank - t.rank % W;
      const int width = b.num_threads() - base < W ? b.num_threads() - base : W;
      const int lane  = t.rank - base;
#if defined(__CUDA_ARCH__)
      const unsigned mask = width == W ? 0xffffffffu : ((1u << width) - 1u);
      T x                 = v(t);
      for (int off = W / 2; off > 0; off >>= 1) {
        const T y = __shfl_down_sync(mask, x, off);
        if (lane + off < width) x = op(x, y);
      }
      v(t) = x;
#else
      (void)lane;
      (void)op;
      SCRATCHKIT_ABORT("scratchkit::warp_reduce: no shuffle for this GPU backend");
#endif
    });
  } else {
    // Host: the owning member runs each of its warps' lanes in ascending
    // order, which reads every lane + off before it is updated in the same
    // round: exactly the values a shuffle would see.
    const int n = b.num_threads();
    b.threads([&](const Thread& t) {
      if (t.rank % W != 0) return;
      const int width = n - t.rank < W ? n - t.rank : W;
      for (int off = W / 2; off > 0; off >>= 1)
        for (int lane = 0; lane + off < width; ++lane) {
          const Thread a = b.thread_of(t.rank + lane), c = b.thread_of(t.rank + lane + off);
          v(a)           = op(v(a), v(c));
        }
    });
  }
}

}  // namespace scratchkit
