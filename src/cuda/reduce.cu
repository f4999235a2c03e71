// SPDX-License-Identifier: BSD-3-Clause
// Reduction by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/reduce.hpp.
// Same variants, block size, launch bounds, grid (scratchkit::detail::reduce_grid
// over the same device attributes) and order of operations, so tree and
// warp_shuffle agree with the layer bit for bit; grid_stride_atomic combines
// blocks with atomics in whatever order they finish (floats: not reproducible).
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "vector_load.cuh"

#include <cuda/std/limits>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

namespace sk = ::scratchkit::detail;

constexpr int BS        = sk::reduce_block;      // threads per block
constexpr int MIN_B     = sk::reduce_min_blocks;  // launch bounds: blocks per SM
constexpr int U         = sk::reduce_loads;      // 16-byte loads per thread and step
constexpr int PER_BLOCK = sk::reduce_per_block;  // tree: elements per block and pass
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
    using Bits = decltype(to_bits(v));
    Bits* p    = reinterpret_cast<Bits*>(dst);
    Bits old   = *p;
    for (;;) {
      const T cur = from_bits(old, T{});
      const T nxt = R<T, Op>::apply(cur, v);
      if (to_bits(nxt) == old) return;  // no change
      const Bits seen = atomicCAS(p, old, to_bits(nxt));
      if (seen == old) return;
      old = seen;
    }
  }
}
template <ReduceOp Op>
__device__ void atomic_combine(float* dst, float v) { atomic_combine_real<Op>(dst, v); }
template <ReduceOp Op>
__device__ void atomic_combine(double* dst, double v) { atomic_combine_real<Op>(dst, v); }

// One thread's part of a grid-stride reduction (layer: detail::reduce_thread):
// vectors i = blockIdx*BS*U + threadIdx + k*gridDim*BS*U + u*BS of the aligned
// body [head, head + nv*V), U loads issued before any is combined, lane j into
// accumulator j; thread 0 also takes the head (before) and tail (after); the
// lanes combined as a tree.
template <class T, ReduceOp Op>
__device__ __forceinline__ T reduce_thread(const T* __restrict__ x, std::size_t n, std::size_t head) {
  constexpr int V = detail::vec_width<T>;
  T acc[V];
#pragma unroll
  for (int j = 0; j < V; ++j) acc[j] = R<T, Op>::identity();
  detail::stream_lanes<U, BS>(x, n, head, static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x),
                              static_cast<int>(gridDim.x), [&](int j, T v) { acc[j] = R<T, Op>::apply(acc[j], v); });
  if constexpr (V == 4) {
    return R<T, Op>::apply(R<T, Op>::apply(acc[0], acc[1]), R<T, Op>::apply(acc[2], acc[3]));
  } else {
    return R<T, Op>::apply(acc[0], acc[1]);
  }
}

template <class T, ReduceOp Op>
__device__ void block_tree(T* s) {
  const int t = threadIdx.x;
  for (int w = BS / 2; w > 0; w >>= 1) {
    if (t < w) s[t] = R<T, Op>::apply(s[t], s[t + w]);
    __syncthreads();
  }
}

template <class T, ReduceOp Op>
__global__ void __launch_bounds__(BS, MIN_B)
    reduce_tree_kernel(const T* __restrict__ in, std::size_t n, T* __restrict__ out) {
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
__global__ void __launch_bounds__(BS, MIN_B)
    reduce_atomic_kernel(const T* __restrict__ x, std::size_t n, std::size_t head, T* result) {
  __shared__ T s[BS];
  s[threadIdx.x] = reduce_thread<T, Op>(x, n, head);
  __syncthreads();
  block_tree<T, Op>(s);
  if (threadIdx.x == 0) atomic_combine<Op>(result, s[0]);
}

template <class T, ReduceOp Op>
__device__ __forceinline__ T warp_tree(T x) {
  for (int off = W / 2; off > 0; off >>= 1) {
    const T y = __shfl_down_sync(0xffffffffu, x, off);
    x         = R<T, Op>::apply(x, y);  // BS is a multiple of 32: every lane + off exists
  }
  return x;
}

template <class T, ReduceOp Op>
__global__ void __launch_bounds__(BS, MIN_B)
    reduce_warp_kernel(const T* __restrict__ x, std::size_t n, std::size_t head, T* __restrict__ out) {
  __shared__ T s[BS / W];
  const int t = threadIdx.x;
  T acc       = warp_tree<T, Op>(reduce_thread<T, Op>(x, n, head));
  if (t % W == 0) s[t / W] = acc;
  __syncthreads();
  if (t < W) {
    T v = t < BS / W ? s[t] : R<T, Op>::identity();
    v   = warp_tree<T, Op>(v);
    if (t == 0) out[blockIdx.x] = v;
  }
}

// Grow-only device buffer per device, kept between calls (no allocation per
// call); the lock is held from the first launch to the final copy. Never
// freed: it lives as long as the process (the CUDA context ends with it).
struct Workspace {
  std::mutex mutex;
  std::map<int, std::pair<char*, std::size_t>> buffers;
  char* get(std::size_t bytes) {
    int dev = 0;
    SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
    auto& b = buffers[dev];
    if (b.second < bytes) {
      if (b.first) SCRATCHKIT_CUDA_CHECK(cudaFree(b.first));
      b = {nullptr, 0};
      SCRATCHKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&b.first), bytes));
      b.second = bytes;
    }
    return b.first;
  }
};
Workspace& workspace() {
  static Workspace* w = new Workspace();  // not destroyed at exit: after the runtime is gone
  return *w;
}

std::size_t slots(std::size_t count, std::size_t elem) { return (count * elem + 15) / 16 * 16; }

template <class T, ReduceOp Op>
T run(ReduceVariant v, const T* x, std::size_t n, cudaStream_t s) {
  if (v != ReduceVariant::tree && v != ReduceVariant::grid_stride_atomic && v != ReduceVariant::warp_shuffle)
    throw UnsupportedError(std::string("scratchkit::native::cuda::reduce: unknown variant ") + name(v));
  if (n == 0) return R<T, Op>::identity();
  const long long fill = detail::device_fill().blocks(BS);
  Workspace& ws        = workspace();
  std::lock_guard<std::mutex> lock(ws.mutex);
  T* res = nullptr;
  switch (v) {
    case ReduceVariant::tree: {
      std::size_t m        = (n + PER_BLOCK - 1) / PER_BLOCK;
      const std::size_t m2 = (m + PER_BLOCK - 1) / PER_BLOCK;
      char* buf            = ws.get(slots(m, sizeof(T)) + slots(m2, sizeof(T)));
      T* a                 = reinterpret_cast<T*>(buf);
      T* b                 = reinterpret_cast<T*>(buf + slots(m, sizeof(T)));
      reduce_tree_kernel<T, Op><<<static_cast<unsigned>(m), BS, BS * sizeof(T), s>>>(x, n, a);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
      while (m > 1) {
        const std::size_t next = (m + PER_BLOCK - 1) / PER_BLOCK;
        reduce_tree_kernel<T, Op><<<static_cast<unsigned>(next), BS, BS * sizeof(T), s>>>(a, m, b);
        SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
        std::swap(a, b);
        m = next;
      }
      res = a;
      break;
    }
    case ReduceVariant::grid_stride_atomic: {
      const int grid = sk::reduce_grid(n, sizeof(T), fill);
      res            = reinterpret_cast<T*>(ws.get(slots(1, sizeof(T))));
      const T id     = R<T, Op>::identity();
      SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(res, &id, sizeof(T), cudaMemcpyHostToDevice, s));
      reduce_atomic_kernel<T, Op><<<grid, BS, 0, s>>>(x, n, detail::head_to_16(x, n), res);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_grid_stride_atomic");
      break;
    }
    default: {  // warp_shuffle: per-block partials, then one block over them
      const int grid = sk::reduce_grid(n, sizeof(T), fill);
      char* buf      = ws.get(slots(grid, sizeof(T)) + slots(1, sizeof(T)));
      T* part        = reinterpret_cast<T*>(buf);
      res            = reinterpret_cast<T*>(buf + slots(grid, sizeof(T)));
      reduce_warp_kernel<T, Op><<<grid, BS, 0, s>>>(x, n, detail::head_to_16(x, n), grid == 1 ? res : part);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
      if (grid > 1) {
        const std::size_t g = static_cast<std::size_t>(grid);
        reduce_warp_kernel<T, Op><<<1, BS, 0, s>>>(part, g, detail::head_to_16(part, g), res);
        SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_warp_shuffle");
      }
      break;
    }
  }
  T result{};
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(&result, res, sizeof(T), cudaMemcpyDeviceToHost, s));
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
