// SPDX-License-Identifier: BSD-3-Clause
// Reduction by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/reduce.hpp.
// Same variants, blocking (ReduceDefaultBlocking for the grid-stride variants),
// launch bounds, grid (scratchkit::detail::reduce_grid over the same device
// attributes) and order of operations, so tree and warp_shuffle agree with the
// layer bit for bit; grid_stride_atomic combines blocks with atomics in whatever
// order they finish (floats: not reproducible). The grid-stride kernels are in
// reduce_stream.cuh (the tuner's too).
#include <scratchkit/detail/reduce/stream.hpp>
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "reduce_stream.cuh"
#include "vector_load.cuh"

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

using Bk                = sk::ReduceDefaultBlocking;  // warp_shuffle, grid_stride_atomic
constexpr int BS        = sk::reduce_block;           // tree: threads per block
constexpr int MIN_B     = sk::reduce_min_blocks;      // tree: launch bounds, blocks per SM
constexpr int PER_BLOCK = sk::reduce_per_block;       // tree: elements per block and pass

template <class T, ReduceOp Op>
using R = sk::Reducer<T, Op>;

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
  detail::block_tree<T, Op, BS>(s);
  if (t == 0) out[blockIdx.x] = s[0];
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

using detail::reduce_slots;

template <class T, ReduceOp Op>
T run(ReduceVariant v, const T* x, std::size_t n, cudaStream_t s) {
  if (v != ReduceVariant::tree && v != ReduceVariant::grid_stride_atomic && v != ReduceVariant::warp_shuffle)
    throw UnsupportedError(std::string("scratchkit::native::cuda::reduce: unknown variant ") + name(v));
  if (n == 0) return R<T, Op>::identity();
  const sk::DeviceLimits f = detail::device_limits();
  const long long fill     = sk::reduce_fill<Bk>(f.blocks(Bk::threads), f.sm_count);  // the layer's reduce_device_fill
  Workspace& ws              = workspace();
  std::lock_guard<std::mutex> lock(ws.mutex);
  T* res = nullptr;
  switch (v) {
    case ReduceVariant::tree: {
      std::size_t m        = (n + PER_BLOCK - 1) / PER_BLOCK;
      const std::size_t m2 = (m + PER_BLOCK - 1) / PER_BLOCK;
      char* buf            = ws.get(reduce_slots(m, sizeof(T)) + reduce_slots(m2, sizeof(T)));
      T* a                 = reinterpret_cast<T*>(buf);
      T* b                 = reinterpret_cast<T*>(buf + reduce_slots(m, sizeof(T)));
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
      const int grid = sk::reduce_grid<Bk>(n, sizeof(T), fill);
      res            = reinterpret_cast<T*>(ws.get(reduce_slots(1, sizeof(T))));
      detail::launch_reduce_atomic<T, Op, Bk>(x, n, grid, res, s);
      break;
    }
    default: {  // warp_shuffle: per-block partials, then one block over them
      const int grid = sk::reduce_grid<Bk>(n, sizeof(T), fill);
      char* buf      = ws.get(detail::reduce_warp_workspace<T>(grid));
      res            = detail::launch_reduce_warp<T, Op, Bk>(x, n, grid, buf, s);
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
