// SPDX-License-Identifier: BSD-3-Clause
// Reduction by hand in CUDA with extern __shared__: the twin of include/scratchkit/kernels/reduce.hpp.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <cuda/std/limits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BS = 256;           // threads per block
constexpr int PER_BLOCK = 2 * BS;  // elements per block and pass

template <class V>
struct Fn {
  ReduceOp op;
  __device__ V operator()(V a, V b) const {
    switch (op) {
      case ReduceOp::sum: return a + b;
      case ReduceOp::min: return b < a ? b : a;
      case ReduceOp::max: return a < b ? b : a;
    }
    return a;
  }
  __host__ __device__ V identity() const {
    switch (op) {
      case ReduceOp::sum: return V(0);
      case ReduceOp::min: return ::cuda::std::numeric_limits<V>::max();
      case ReduceOp::max: return ::cuda::std::numeric_limits<V>::lowest();
    }
    return V(0);
  }
};

template <class V>
__global__ void reduce_tree_kernel(Fn<V> fn, const V* __restrict__ in, std::size_t n, V* __restrict__ out) {
  extern __shared__ __align__(16) unsigned char smem[];
  V* sdata = reinterpret_cast<V*>(smem);
  const int t = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * (2 * BS) + t;
  V v = fn.identity();
  if (i < n) v = in[i];
  if (i + BS < n) v = fn(v, in[i + BS]);
  sdata[t] = v;
  __syncthreads();
  for (int s = BS / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] = fn(sdata[t], sdata[t + s]);
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sdata[0];
}

template <class V>
V reduce_impl(ReduceVariant v, ReduceOp op, const V* x, std::size_t n, void* stream) {
  if (v != ReduceVariant::tree) throw UnsupportedError("scratchkit::native::cuda::reduce: unknown variant");
  const Fn<V> fn{op};
  if (n == 0) return fn.identity();
  const cudaStream_t s = detail::as_stream(stream);
  std::size_t m = (n + PER_BLOCK - 1) / PER_BLOCK;
  const std::size_t m2 = (m + PER_BLOCK - 1) / PER_BLOCK;
  V* a = nullptr;
  V* b = nullptr;
  SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&a), m * sizeof(V), s));
  SCRATCHKIT_CUDA_CHECK(cudaMallocAsync(reinterpret_cast<void**>(&b), m2 * sizeof(V), s));
  reduce_tree_kernel<V><<<static_cast<unsigned>(m), BS, BS * sizeof(V), s>>>(fn, x, n, a);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
  while (m > 1) {
    const std::size_t next = (m + PER_BLOCK - 1) / PER_BLOCK;
    reduce_tree_kernel<V><<<static_cast<unsigned>(next), BS, BS * sizeof(V), s>>>(fn, a, m, b);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("reduce_tree");
    V* tmp = a;
    a = b;
    b = tmp;
    m = next;
  }
  V result{};
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(&result, a, sizeof(V), cudaMemcpyDeviceToHost, s));
  SCRATCHKIT_CUDA_CHECK(cudaFreeAsync(a, s));
  SCRATCHKIT_CUDA_CHECK(cudaFreeAsync(b, s));
  SCRATCHKIT_CUDA_CHECK(cudaStreamSynchronize(s));
  return result;
}

}  // namespace

float reduce(ReduceVariant v, ReduceOp op, const float* x, std::size_t n, void* s) { return reduce_impl(v, op, x, n, s); }
double reduce(ReduceVariant v, ReduceOp op, const double* x, std::size_t n, void* s) { return reduce_impl(v, op, x, n, s); }
std::int32_t reduce(ReduceVariant v, ReduceOp op, const std::int32_t* x, std::size_t n, void* s) {
  return reduce_impl(v, op, x, n, s);
}
std::int64_t reduce(ReduceVariant v, ReduceOp op, const std::int64_t* x, std::size_t n, void* s) {
  return reduce_impl(v, op, x, n, s);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
