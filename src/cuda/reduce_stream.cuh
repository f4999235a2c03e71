// SPDX-License-Identifier: BSD-3-Clause
// The native grid-stride reduction kernels (warp_shuffle, grid_stride_atomic) for
// any ReduceBlocking (include/scratchkit/detail/reduce/stream.hpp): used by
// src/cuda/reduce.cu and by the tuner (perf/tune/reduce_tune.cu), so the tuner times
// the library's kernels. The twin of the layer's reduce_thread / reduce_warp_pass
// / reduce_atomic_pass (include/scratchkit/kernels/reduce.hpp).
#pragma once

#include <scratchkit/detail/reduce/stream.hpp>
#include <scratchkit/native/reduce.hpp>

#include "check.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

constexpr int reduce_warp = 32;

// The operator as a type: the layer's (include/scratchkit/detail/reduce/stream.hpp).
using scratchkit::detail::Reducer;

// Atomic combine of v into *dst.
template <ReduceOp Op>
__device__ inline void atomic_combine(std::int32_t* dst, std::int32_t v) {
  if constexpr (Op == ReduceOp::sum) atomicAdd(dst, v);
  else if constexpr (Op == ReduceOp::min) atomicMin(dst, v);
  else atomicMax(dst, v);
}
template <ReduceOp Op>
__device__ inline void atomic_combine(std::int64_t* dst, std::int64_t v) {
  if constexpr (Op == ReduceOp::sum)
    atomicAdd(reinterpret_cast<unsigned long long*>(dst), static_cast<unsigned long long>(v));  // two's complement
  else if constexpr (Op == ReduceOp::min)
    atomicMin(reinterpret_cast<long long*>(dst), static_cast<long long>(v));
  else
    atomicMax(reinterpret_cast<long long*>(dst), static_cast<long long>(v));
}
// float/double: add natively; min/max by compare-and-swap on the bits.
__device__ inline unsigned int to_bits(float v) { return __float_as_uint(v); }
__device__ inline float from_bits(unsigned int u, float) { return __uint_as_float(u); }
__device__ inline unsigned long long to_bits(double v) { return static_cast<unsigned long long>(__double_as_longlong(v)); }
__device__ inline double from_bits(unsigned long long u, double) { return __longlong_as_double(static_cast<long long>(u)); }

template <ReduceOp Op, class T>
__device__ inline void atomic_combine_real(T* dst, T v) {
  if constexpr (Op == ReduceOp::sum) {
    atomicAdd(dst, v);
  } else {
    using Bits = decltype(to_bits(v));
    Bits* p    = reinterpret_cast<Bits*>(dst);
    Bits old   = *p;
    for (;;) {
      const T cur = from_bits(old, T{});
      const T nxt = Reducer<T, Op>::apply(cur, v);
      if (to_bits(nxt) == old) return;  // no change
      const Bits seen = atomicCAS(p, old, to_bits(nxt));
      if (seen == old) return;
      old = seen;
    }
  }
}
template <ReduceOp Op>
__device__ inline void atomic_combine(float* dst, float v) { atomic_combine_real<Op>(dst, v); }
template <ReduceOp Op>
__device__ inline void atomic_combine(double* dst, double v) { atomic_combine_real<Op>(dst, v); }

// One thread's part of a grid-stride reduction of blocking Bk (layer:
// scratchkit::detail::reduce_thread): reduce_stream over the aligned body
// through Bk's load hint, lane j into accumulator j; thread 0 also takes the
// head (before) and tail (after); the lanes combined as a tree.
template <class T, ReduceOp Op, class Bk>
__device__ __forceinline__ T reduce_thread(const T* x, std::size_t n, std::size_t head) {
  using Rd        = Reducer<T, Op>;
  using Src       = scratchkit::detail::ReducePtrSource<T, Bk::load>;
  constexpr int V = Src::width;
  T acc[V];
#pragma unroll
  for (int j = 0; j < V; ++j) acc[j] = Rd::identity();
  scratchkit::detail::reduce_stream<Bk>(Src{x}, n, head, static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x),
                                        static_cast<int>(gridDim.x),
                                        [&](int j, T v) { acc[j] = Rd::apply(acc[j], v); });
  if constexpr (V == 4) {
    return Rd::apply(Rd::apply(acc[0], acc[1]), Rd::apply(acc[2], acc[3]));
  } else {
    static_assert(V == 2, "reduce_thread: 4- or 8-byte elements");
    return Rd::apply(acc[0], acc[1]);
  }
}

// Shared-memory tree over BS slots (a power of two); the result ends in s[0].
template <class T, ReduceOp Op, int BS>
__device__ __forceinline__ void block_tree(T* s) {
  const int t = threadIdx.x;
  for (int w = BS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] = Reducer<T, Op>::apply(s[t], s[t + w]);
    __syncthreads();
  }
}

template <class T, ReduceOp Op>
__device__ __forceinline__ T warp_tree(T x) {
  for (int off = reduce_warp / 2; off > 0; off >>= 1) {
    const T y = __shfl_down_sync(0xffffffffu, x, off);
    x         = Reducer<T, Op>::apply(x, y);  // threads a multiple of 32: every lane + off exists
  }
  return x;
}

// grid_stride_atomic: reduce_thread, shared tree, one atomic per block into *result.
template <class T, ReduceOp Op, class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    reduce_atomic_kernel(const T* __restrict__ x, std::size_t n, std::size_t head, T* result) {
  __shared__ T s[Bk::threads];
  s[threadIdx.x] = reduce_thread<T, Op, Bk>(x, n, head);
  __syncthreads();
  block_tree<T, Op, Bk::threads>(s);
  if (threadIdx.x == 0) atomic_combine<Op>(result, s[0]);
}

// warp_shuffle, one pass: reduce_thread, warp shuffles, one shared slot per
// warp, warp 0 reduces the slots; out[blockIdx] per block.
template <class T, ReduceOp Op, class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    reduce_warp_kernel(const T* __restrict__ x, std::size_t n, std::size_t head, T* __restrict__ out) {
  constexpr int BS = Bk::threads, W = reduce_warp;
  static_assert(BS / W <= W, "reduce_warp_kernel: one warp reduces the warps' slots");
  __shared__ T s[BS / W];
  const int t = threadIdx.x;
  T acc       = warp_tree<T, Op>(reduce_thread<T, Op, Bk>(x, n, head));
  if (t % W == 0) s[t / W] = acc;
  __syncthreads();
  if (t < W) {
    T v = t < BS / W ? s[t] : Reducer<T, Op>::identity();
    v   = warp_tree<T, Op>(v);
    if (t == 0) out[blockIdx.x] = v;
  }
}

// 16-byte slots for count elements of elem bytes (the workspace's layout).
inline std::size_t reduce_slots(std::size_t count, std::size_t elem) { return (count * elem + 15) / 16 * 16; }

// Workspace bytes warp_shuffle needs with `grid` blocks: the partials, then the result.
template <class T>
std::size_t reduce_warp_workspace(int grid) {
  return reduce_slots(static_cast<std::size_t>(grid), sizeof(T)) + reduce_slots(1, sizeof(T));
}

// warp_shuffle with blocking Bk over x[0..n) (n > 0) on s, `grid` blocks
// (reduce_grid<Bk>), ws at least reduce_warp_workspace<T>(grid) bytes, 16-byte
// aligned: per-block partials, then one block over them in index order.
// Returns the device address of the result (ready once s reaches it).
template <class T, ReduceOp Op, class Bk>
T* launch_reduce_warp(const T* x, std::size_t n, int grid, char* ws, cudaStream_t s) {
  T* part = reinterpret_cast<T*>(ws);
  T* res  = reinterpret_cast<T*>(ws + reduce_slots(static_cast<std::size_t>(grid), sizeof(T)));
  reduce_warp_kernel<T, Op, Bk><<<grid, Bk::threads, 0, s>>>(x, n, scratchkit::detail::head_to_16(x, n),
                                                             grid == 1 ? res : part);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
  if (grid > 1) {
    const std::size_t g = static_cast<std::size_t>(grid);
    reduce_warp_kernel<T, Op, Bk><<<1, Bk::threads, 0, s>>>(part, g, scratchkit::detail::head_to_16(part, g), res);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
  }
  return res;
}

// grid_stride_atomic with blocking Bk over x[0..n) (n > 0) on s, `grid`
// blocks, into *res (16-byte aligned device slot; set to the identity here).
template <class T, ReduceOp Op, class Bk>
void launch_reduce_atomic(const T* x, std::size_t n, int grid, T* res, cudaStream_t s) {
  const T id = Reducer<T, Op>::identity();  // pageable source: staged before the call returns
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(res, &id, sizeof(T), cudaMemcpyHostToDevice, s));
  reduce_atomic_kernel<T, Op, Bk><<<grid, Bk::threads, 0, s>>>(x, n, scratchkit::detail::head_to_16(x, n), res);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_grid_stride_atomic");
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
