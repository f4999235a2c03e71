// SPDX-License-Identifier: BSD-3-Clause
/// Reduce code both twins share (internal):
/// the blocking, the grid arithmetic and the streaming loop, so that the layer
/// and the native kernels split the data alike (bit-equal results).
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/config.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace detail {

/// Threads per block of ReduceVariant::tree (a power of two).
constexpr int reduce_block = 256;
/// Blocks per SM ReduceVariant::tree is compiled for (launch bounds
/// <reduce_block, reduce_min_blocks>: 32 registers a thread).
constexpr int reduce_min_blocks = 8;
/// Elements one block of ReduceVariant::tree consumes per pass.
constexpr int reduce_per_block = 2 * reduce_block;

/// Compile-time streaming shape of the grid-stride reductions (warp_shuffle,
/// grid_stride_atomic; both twins instantiate it alike, scratchkit-reduce-tune
/// times candidates against CUB): Threads per block (a power of two: the
/// block tree halves it); Loads independent 16-byte loads a thread issues per
/// grid-stride step before combining any; MinBlocks the launch bound
/// (__launch_bounds__(Threads, MinBlocks)) and the most blocks per SM the
/// grid fills; Load the load hint (LoadHint, load16.hpp).
template <int Threads_, int Loads_, int MinBlocks_, LoadHint Load_ = LoadHint::nc>
struct ReduceBlocking {
  static constexpr int threads    = Threads_;
  static constexpr int loads      = Loads_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr LoadHint load  = Load_;
  static_assert(threads >= 32 && threads <= 1024 && (threads & (threads - 1)) == 0,
                "ReduceBlocking: threads a power of two from 32 to 1024 (at most 32 warps: one warp reduces them)");
  static_assert(loads >= 1 && loads <= 16, "ReduceBlocking: 1 to 16 loads");
  static_assert(min_blocks >= 1 && min_blocks * threads <= 2048, "ReduceBlocking: at most 2048 threads per SM");
};

/// The blocking of warp_shuffle and grid_stride_atomic on both twins:
/// 256 threads, 4 loads (2 KB of 4-byte or 8-byte elements in flight per
/// warp), 8 blocks per SM (32 registers, 2048 threads on Hopper, Ampere
/// A100, Volta), loads through __ldg (docs/performance.md, "Reduction").
using ReduceDefaultBlocking = ReduceBlocking<256, 4, 8, LoadHint::nc>;

/// Blocks of Bk that fill a device once: by_threads (its blocks of
/// Bk::threads threads when threads are the only limit) capped at
/// Bk::min_blocks per SM where the SM count is known (sms > 0: CUDA).
template <class Bk = ReduceDefaultBlocking>
inline long long reduce_fill(long long by_threads, long long sms) {
  long long b = by_threads;
  if (sms > 0 && b > sms * Bk::min_blocks) b = sms * Bk::min_blocks;
  return b < 1 ? 1 : b;
}

/// Grid of the grid-stride variants (warp_shuffle, grid_stride_atomic) over n
/// elements of elem_bytes bytes: enough blocks for one step of Bk::loads
/// vectors a thread, at most fill_blocks (the device once full), at least 1.
template <class Bk = ReduceDefaultBlocking>
inline int reduce_grid(std::size_t n, std::size_t elem_bytes, long long fill_blocks) {
  const std::size_t per_block = static_cast<std::size_t>(Bk::threads) * Bk::loads * (16 / elem_bytes);
  long long need = static_cast<long long>((n + per_block - 1) / per_block);
  if (need > fill_blocks) need = fill_blocks;
  return static_cast<int>(need < 1 ? 1 : need);
}

/// Largest number of elements one accumulator lane of a grid-stride thread
/// takes (each an `op` into the lane): the steps of Bk::loads vectors, plus
/// the peeled head and tail that thread 0 adds.
template <class Bk = ReduceDefaultBlocking>
inline long long reduce_lane_chain(std::size_t n, std::size_t elem_bytes, int grid) {
  const std::size_t vectors  = n / (16 / elem_bytes);
  const std::size_t per_step = static_cast<std::size_t>(grid) * Bk::threads * Bk::loads;
  return static_cast<long long>((vectors + per_step - 1) / per_step) * Bk::loads + 2;
}

/// A contiguous array read with load hint L (the source both twins stream a contiguous View through).
template <class T, LoadHint L>
struct ReducePtrSource {
  using value_type = T;
  static constexpr int width = vec16<T>::width;
  const T* p;
  SCRATCHKIT_HD_FORCEINLINE T at(std::size_t i) const { return p[i]; }
  SCRATCHKIT_HD_FORCEINLINE void vec(std::size_t i, T (&v)[width]) const { load16_hint<L>(p + i, v); }
};

/// One thread's pass over the grid-stride stream of a reduction of blocking
/// Bk (both twins): vectors i = block*BS*U + rank + k*blocks*BS*U + u*BS
/// (BS = Bk::threads, U = Bk::loads) of the 16-byte aligned body [head,
/// head + nv*V), the U loads of a step issued before the first value is
/// used; f(j, value) gets lane j of each. Block 0's thread 0 also takes the
/// misaligned head (before) and the tail (after), as lanes j.
template <class Bk, class Src, class F>
SCRATCHKIT_HD_FORCEINLINE void reduce_stream(const Src& src, std::size_t n, std::size_t head, int block, int rank,
                                             int blocks, const F& f) {
  using T          = typename Src::value_type;
  constexpr int V  = Src::width;
  constexpr int BS = Bk::threads, U = Bk::loads;
  const bool first = block == 0 && rank == 0;
  if (first) {
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (static_cast<std::size_t>(j) < head) f(j, src.at(static_cast<std::size_t>(j)));
  }
  const std::size_t nv   = (n - head) / V;
  const std::size_t step = static_cast<std::size_t>(blocks) * (BS * U);
  for (std::size_t i = static_cast<std::size_t>(block) * (BS * U) + static_cast<std::size_t>(rank); i < nv;
       i += step) {
    T x[U][V];
    if (i + static_cast<std::size_t>(U - 1) * BS < nv) {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < V; ++j) f(j, x[u][j]);
      }
    } else {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u)
        if (i + static_cast<std::size_t>(u) * BS < nv) {
          src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
          SCRATCHKIT_UNROLL
          for (int j = 0; j < V; ++j) f(j, x[u][j]);
        }
    }
  }
  if (first) {
    const std::size_t t0 = head + nv * V;
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (t0 + static_cast<std::size_t>(j) < n) f(j, src.at(t0 + static_cast<std::size_t>(j)));
  }
}

}  // namespace detail
}  // namespace scratchkit
