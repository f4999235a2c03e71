// SPDX-License-Identifier: BSD-3-Clause
/// Reduce code both twins share (internal):
/// the blocking, the grid arithmetic and the streaming loop, so that the layer
/// and the native kernels split the data alike (bit-equal results).
#pragma once

#include <scratchkit/detail/grid_stride.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/config.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/tuning/reduce.hpp>

#include <cfloat>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The reduce policy of this build's GPU (both twins).
using ReducePolicy = tuning::ReducePolicy<tuning::cuda_arch>;
/// Threads per block of ReduceVariant::tree (a power of two).
constexpr int reduce_block = ReducePolicy::tree_threads;
/// Blocks per SM ReduceVariant::tree is compiled for (launch bounds
/// <reduce_block, reduce_min_blocks>).
constexpr int reduce_min_blocks = ReducePolicy::tree_min_blocks;
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

/// ReduceBlocking spelled by the field names of tuning::ReduceSm90::Stream.
template <class F>
using ReduceBlockingOf = ReduceBlocking<F::threads, F::loads, F::min_blocks, F::load>;
/// The blocking of warp_shuffle and grid_stride_atomic on both twins (the policy's Stream).
using ReduceDefaultBlocking = ReduceBlockingOf<ReducePolicy::Stream>;

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

/// The largest finite value of a reduce's element type (float, double, int32, int64).
template <class T>
SCRATCHKIT_HOST_DEVICE constexpr T reduce_finite_max() {
  if constexpr (std::is_same<T, float>::value) {
    return FLT_MAX;
  } else if constexpr (std::is_same<T, double>::value) {
    return DBL_MAX;
  } else if constexpr (std::is_same<T, std::int32_t>::value) {
    return INT32_MAX;
  } else {
    static_assert(std::is_same<T, std::int64_t>::value, "reduce: float, double, int32 or int64");
    return INT64_MAX;
  }
}
/// The lowest finite value of a reduce's element type.
template <class T>
SCRATCHKIT_HOST_DEVICE constexpr T reduce_finite_min() {
  if constexpr (std::is_floating_point<T>::value) {
    return -reduce_finite_max<T>();
  } else if constexpr (std::is_same<T, std::int32_t>::value) {
    return INT32_MIN;
  } else {
    return INT64_MIN;
  }
}

/// The operator as a type, so kernels carry no run-time switch (both twins; their atomics are their own).
template <class T, ReduceOp Op>
struct Reducer {
  using value_type             = T;
  static constexpr ReduceOp op = Op;
  SCRATCHKIT_HOST_DEVICE static T apply(T a, T b) {
    if constexpr (Op == ReduceOp::sum) {
      return a + b;
    } else if constexpr (Op == ReduceOp::min) {
      return b < a ? b : a;
    } else {
      return a < b ? b : a;
    }
  }
  // scratchkit's own constants, not Kokkos::reduction_identity: Kokkos 5 made the
  // floating-point ones +-infinity, and an empty reduce must not depend on the version.
  SCRATCHKIT_HOST_DEVICE static T identity() {
    if constexpr (Op == ReduceOp::sum) {
      return T(0);
    } else if constexpr (Op == ReduceOp::min) {
      return reduce_finite_max<T>();
    } else {
      return reduce_finite_min<T>();
    }
  }
};

/// A contiguous array read with load hint L (the source both twins stream a contiguous View through).
template <class T, LoadHint L>
using ReducePtrSource = StreamPtrSource<T, L>;

/// One thread's pass over the grid-stride stream of a reduction of blocking
/// Bk (both twins): stream_lanes with Bk::loads loads of Bk::threads threads.
template <class Bk, class Src, class F>
SCRATCHKIT_HD_FORCEINLINE void reduce_stream(const Src& src, std::size_t n, std::size_t head, int block, int rank,
                                             int blocks, const F& f) {
  stream_lanes<Bk::loads, Bk::threads>(src, n, head, block, rank, blocks, f);
}

}  // namespace detail
}  // namespace scratchkit
