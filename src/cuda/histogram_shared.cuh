// SPDX-License-Identifier: BSD-3-Clause
// The native shared_atomic histogram kernel for any HistogramBlocking
// (include/scratchkit/detail/histogram/plan.hpp): used by src/cuda/histogram.cu and
// by the tuner (perf/tune/histogram_tune.cu), so the tuner times the library's kernel.
#pragma once

#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/native/histogram.hpp>

#include "check.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

// scratchkit::detail::histogram_bin, the same operations.
template <class C>
__device__ __forceinline__ int histogram_bin_of(C v, C lo, C hi, C scale, int B) {
  const bool in = v >= lo && v < hi;             // NaN fails both tests
  const C f     = in ? (v - lo) * scale : C(0);  // >= 0: v >= lo
  int b         = f < static_cast<C>(B) ? static_cast<int>(f) : B - 1;
  b             = b < B ? b : B - 1;
  return in ? b : -1;
}

// Grid: blocks * chunks, chunk-major; block (c, x) counts bins [c*chunk, c*chunk + chunk)
// into `copies` interleaved sub-histograms (bin k, copy q at k * copies + q), then adds
// each non-zero bin to counts with one atomic (counts zeroed before the launch).
template <class T, class C, class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    histogram_shared_kernel(const T* __restrict__ values, std::size_t n, std::size_t head, C lo, C hi, C scale,
                            int nb, int blocks, int chunk, int copies, std::uint32_t* __restrict__ counts) {
  constexpr int BS = Bk::threads;
  extern __shared__ __align__(16) unsigned char histogram_smem[];
  std::uint32_t* h = reinterpret_cast<std::uint32_t*>(histogram_smem);
  const int c  = blockIdx.x / blocks;
  const int bc = blockIdx.x - c * blocks;  // block within the chunk
  const int k0 = c * chunk;
  const int kn = nb - k0 < chunk ? nb - k0 : chunk;
  for (int j = threadIdx.x; j < kn * copies; j += BS) h[j] = 0;
  __syncthreads();
  const int copy = threadIdx.x & (copies - 1);  // copies is a power of two
  using Src      = scratchkit::detail::HistogramPtrSource<T, Bk::load>;
  scratchkit::detail::histogram_stream<Bk>(Src{values}, n, head, bc, static_cast<int>(threadIdx.x), blocks, [&](T x) {
    // -1 - k0 and bins of other chunks fail the unsigned test
    const int kc = histogram_bin_of<C>(static_cast<C>(x), lo, hi, scale, nb) - k0;
    if (static_cast<unsigned>(kc) < static_cast<unsigned>(kn)) atomicAdd(&h[kc * copies + copy], 1u);
  });
  __syncthreads();
  for (int j = threadIdx.x; j < kn; j += BS) {
    std::uint32_t v = 0;
    for (int q = 0; q < copies; ++q) v += h[j * copies + q];
    if (v != 0) atomicAdd(&counts[k0 + j], v);
  }
}

// Launches the kernel of blocking Bk with `plan` on s (counts already zeroed;
// values + head 16-byte aligned). The caller checked the plan's shape is Bk's.
template <class T, class Bk>
void launch_histogram_shared(const T* values, std::size_t n, std::size_t head,
                             const scratchkit::detail::HistogramBins<scratchkit::detail::histogram_compute_t<T>>& hb,
                             const scratchkit::detail::HistogramPlan& plan, std::uint32_t* counts, cudaStream_t s) {
  using C     = scratchkit::detail::histogram_compute_t<T>;
  auto kernel = histogram_shared_kernel<T, C, Bk>;
  if (plan.shared_bytes > 48 * 1024)
    SCRATCHKIT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(plan.shared_bytes)));
  kernel<<<plan.blocks * plan.chunks, Bk::threads, plan.shared_bytes, s>>>(
      values, n, head, hb.lo, hb.hi, hb.scale, hb.bins, plan.blocks, plan.chunk_bins, plan.copies, counts);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("histogram_shared_atomic");
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
