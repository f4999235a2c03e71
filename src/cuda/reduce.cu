// SPDX-License-Identifier: BSD-3-Clause
// Reduction by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/reduce.hpp.
// Same variants, same block size, grid and order of operations, so tree and
// warp_shuffle agree with the layer bit for bit; grid_stride_atomic combines
// blocks with atomics in whatever order they finish (floats: not reproducible).
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <cuda/std/limits>

#include <algorithm>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BS        = 256;     // threads per block (layer: detail::reduce_block)
constexpr int PER_BLOCK = 2 * BS;  // tree: elements per block and pass
constexpr int MAX_GRID  = 1024;    // grid-stride variants (layer: detail::reduce_max_grid)
constexpr int W         = 32;

template <class T, ReduceOp Op>
struct R {
  __device__ static T apply(T a, T b) {
    if constexpr (Op == ReduceOp::sum) {
      return a + b;
    } else if constexpr (Op == ReduceOp::min) {
      return b < a ? b : a;
    } else {
      return a < b ? b : a;
    }
  }
  __host__ __device__ static T identity() {
    if constexpr (Op == ReduceOp::sum) {
      return T(0);
    } else if constexpr (Op == ReduceOp::min) {
      return ::cuda::std::numeric_limits<T>::max();
    } else {
      return ::cuda::std::numeric_limits<T>::lowest();
    }
  }
};

// Atomic combine of v into *dst.
template <ReduceOp Op>
__device__ void atomic_combine(std::int32_t* dst, std::int32_t v) {
  if constexpr (Op == ReduceOp::sum) atomicAdd(dst, v);
  else if constexpr (Op == ReduceOp::min) atomicMin(dst, v);
  else atomicMax(dst, v);
}
template <ReduceOp Op>
__device__ void atomic_combine(std::int64_t* dst, std::int64_t v) {
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
__device__ void atomic_combine_real(T* dst, T v) {
  if constexpr (Op == ReduceOp::sum) {
    atomicAdd(dst, v);
  } else {
    using U = decltype(to_bits(v));
    U* p    = reinterpret_cast<U*>(dst);
    U old   = *p;
    for (;;) {
      const T cur = from_bits(old, T{});
      const T nxt = R<T, Op>::apply(cur, v);
      if (to_bits(nxt) == old) return;  // no change
      const U seen = atomicCAS(p, old, to_bits(nxt));
      if (seen == old) return;
      old = seen;
    }
  }
}
template <ReduceOp Op>
__device__ void atomic_combine(float* dst, float v) { atomic_combine_real<Op>(dst, v); }
template <ReduceOp Op>
__device__ void atomic_combine(double* dst, double v) { atomic_combine_real<Op>(dst, v); }

template <class T, ReduceOp Op>
__device__ void block_tree(T* s) {
  const int t = threadIdx.x;
  for (int w = BS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] = R<T, Op>::apply(s[t], s[t + w]);
    __syncthreads();
  }
}

template <class T, ReduceOp Op>
__global__ void reduce_tree_kernel(const T* __restrict__ in, std::size_t n, T* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  T* s = reinterpret_cast<T*>(smem);
  const int t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BS) + t;
  T v = R<T, Op>::identity();
  if (i < n) v = in[i];
  if (i + BS < n) v = R<T, Op>::apply(v, in[i + BS]);
  s[t] = v;
  __syncthreads();
  block_tree<T, Op>(s);
  if (t == 0) out[blockIdx.x] = s[0];
}

template <class T, ReduceOp Op>
__global__ void reduce_atomic_kernel(const T* __restrict__ in, std::size_t n, T* result) {
  __shared__ T s[BS];
  const int t = threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * BS;
  T acc = R<T, Op>::identity();
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * BS + t; i < n; i += stride)
    acc = R<T, Op>::apply(acc, in[i]);
  s[t] = acc;
  __syncthreads();
  block_tree<T, Op>(s);
  if (t == 0) atomic_combine<Op>(result, s[0]);
}

template <class T, ReduceOp Op>
__device__ T warp_tree(T x) {
  for (int off = W / 2; off > 0; off >>= 1) {
    const T y = __shfl_down_sync(0xffffffffu, x, off);
    x         = R<T, Op>::apply(x, y);  // BS is a multiple of 32: every lane + off exists
  }
  return x;
}

template <class T, ReduceOp Op>
__global__ void reduce_warp_kernel(const T* __restrict__ in, std::size_t n, T* __restrict__ out) {
  __shared__ T s[BS / W];
  const int t = threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * BS;
  T acc = R<T, Op>::identity();
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * BS + t; i < n; i += stride)
    acc = R<T, Op>::apply(acc, in[i]);
  acc = warp_tree<T, Op>(acc);
  if (t % W == 0) s[t / W] = acc;
  __syncthreads();
  if (t < W) {
    T v = t < BS / W ? s[t] : R<T, Op>::identity();
    v   = warp_tree<T, Op>(v);
    if (t == 0) out[blockIdx.x] = v;
  }
}

int grid_for(std::size_t n) {
  const long long need = std::max<long long>(1, static_cast<long long>((n + BS - 1) / BS));
  return static_cast<int>(std::min<long long>(need, MAX_GRID));
}

template <class T, ReduceOp Op>
T run(ReduceVariant v, const T* x, std::size_t n, cudaStream_t s) {
  if (n == 0) return R<T, Op>::identity();
  T result{};
  T* a = nullptr;
  T* b = nullptr;
  switch (v) {
    case ReduceVariant::tree: {
      std::size_t m = (n + PER_BLOCK - 1) / PER_BLOCK;
      SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&a), m * sizeof(T), s));
      SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&b), ((m + PER_BLOCK - 1) / PER_BLOCK) * sizeof(T), s));
      reduce_tree_kernel<T, Op><<<static_cast<unsigned>(m), BS, BS * sizeof(T), s>>>(x, n, a);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
      while (m > 1) {
        const std::size_t next = (m + PER_BLOCK - 1) / PER_BLOCK;
        reduce_tree_kernel<T, Op><<<static_cast<unsigned>(next), BS, BS * sizeof(T), s>>>(a, m, b);
        SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
        std::swap(a, b);
        m = next;
      }
      break;
    }
    case ReduceVariant::grid_stride_atomic: {
      SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&a), sizeof(T), s));
      const T id = R<T, Op>::identity();
      SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(a, &id, sizeof(T), cudaMemcpyHostToDevice, s));
      reduce_atomic_kernel<T, Op><<<grid_for(n), BS, 0, s>>>(x, n, a);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_grid_stride_atomic");
      break;
    }
    case ReduceVariant::warp_shuffle: {
      const int grid = grid_for(n);
      SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&b), grid * sizeof(T), s));
      SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&a), sizeof(T), s));
      reduce_warp_kernel<T, Op><<<grid, BS, 0, s>>>(x, n, b);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
      reduce_warp_kernel<T, Op><<<1, BS, 0, s>>>(b, static_cast<std::size_t>(grid), a);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
      break;
    }
    default:
      throw UnsupportedError(std::string("scratchkit::native::cuda::reduce: unknown variant ") + name(v));
  }
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(&result, a, sizeof(T), cudaMemcpyDeviceToHost, s));
  SCRATCHKIT_CUDA_CHECK(cudaFreeAsync(a, s));
  if (b) SCRATCHKIT_CUDA_CHECK(cudaFreeAsync(b, s));
  SCRATCHKIT_CUDA_CHECK(cudaStreamSynchronize(s));
  return result;
}

template <class T>
T dispatch(ReduceVariant v, ReduceOp op, const T* x, std::size_t n, void* stream) {
  const cudaStream_t s = detail::as_stream(stream);
  switch (op) {
    case ReduceOp::sum: return run<T, ReduceOp::sum>(v, x, n, s);
    case ReduceOp::min: return run<T, ReduceOp::min>(v, x, n, s);
    case ReduceOp::max: return run<T, ReduceOp::max>(v, x, n, s);
  }
  throw UnsupportedError("scratchkit::native::cuda::reduce: unknown operator");
}

}  // namespace

float reduce(ReduceVariant v, ReduceOp op, const float* x, std::size_t n, void* s) { return dispatch(v, op, x, n, s); }
double reduce(ReduceVariant v, ReduceOp op, const double* x, std::size_t n, void* s) { return dispatch(v, op, x, n, s); }
std::int32_t reduce(ReduceVariant v, ReduceOp op, const std::int32_t* x, std::size_t n, void* s) {
  return dispatch(v, op, x, n, s);
}
std::int64_t reduce(ReduceVariant v, ReduceOp op, const std::int64_t* x, std::size_t n, void* s) {
  return dispatch(v, op, x, n, s);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
