// SPDX-License-Identifier: BSD-3-Clause
// Histogram by hand in CUDA with extern __shared__: the twin of include/scratchkit/kernels/histogram.hpp.
// Same plan (scratchkit::detail::histogram_plan), same binning expression, so
// the counts agree exactly; shared_atomic may use up to the opt-in limit of
// shared memory per block, so it needs fewer chunks of bins than the layer.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

namespace sk = ::scratchkit::detail;

constexpr int BS = sk::histogram_block;
constexpr int IT = sk::histogram_items;
constexpr std::size_t default_shared_max = 48 * 1024;  // above it a kernel must opt in

// scratchkit::detail::histogram_bin, the same operations.
template <class C>
__device__ __forceinline__ int bin_of(C v, C lo, C hi, C scale, int B) {
  if (!(v >= lo) || !(v < hi)) return -1;  // NaN fails both tests
  const C f = (v - lo) * scale;            // >= 0: v >= lo
  if (!(f < static_cast<C>(B))) return B - 1;
  const int b = static_cast<int>(f);
  return b < B ? b : B - 1;
}

// The bins of values base, base + BS, ... (-1 past n or out of range), the IT
// loads issued before the first bin is computed; past n the last value is reloaded.
template <class T, class C>
__device__ __forceinline__ void load_bins(const T* __restrict__ values, std::size_t n, std::size_t base, C lo, C hi,
                                          C scale, int nb, int (&k)[IT]) {
  C x[IT];
#pragma unroll
  for (int u = 0; u < IT; ++u) {
    const std::size_t i = base + static_cast<std::size_t>(u) * BS;
    x[u] = static_cast<C>(values[i < n ? i : n - 1]);
  }
#pragma unroll
  for (int u = 0; u < IT; ++u)
    k[u] = base + static_cast<std::size_t>(u) * BS < n ? bin_of<C>(x[u], lo, hi, scale, nb) : -1;
}

template <class T, class C>
__global__ void __launch_bounds__(BS)
    histogram_global_atomic_kernel(const T* __restrict__ values, std::size_t n, C lo, C hi, C scale, int nb,
                                   std::uint32_t* __restrict__ counts) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * (BS * IT);
  for (std::size_t base = static_cast<std::size_t>(blockIdx.x) * (BS * IT) + threadIdx.x; base < n;
       base += stride) {
    int k[IT];
    load_bins(values, n, base, lo, hi, scale, nb, k);
#pragma unroll
    for (int u = 0; u < IT; ++u)
      if (k[u] >= 0) atomicAdd(&counts[k[u]], 1u);
  }
}

// Grid: blocks * chunks, chunk-major; block (c, x) counts bins [c*chunk, c*chunk + chunk).
template <class T, class C>
__global__ void __launch_bounds__(BS)
    histogram_shared_atomic_kernel(const T* __restrict__ values, std::size_t n, C lo, C hi, C scale, int nb,
                                   int blocks, int chunk, std::uint32_t* __restrict__ counts) {
  extern __shared__ __align__(16) unsigned char smem[];
  std::uint32_t* h = reinterpret_cast<std::uint32_t*>(smem);
  const int c  = blockIdx.x / blocks;
  const int bc = blockIdx.x - c * blocks;  // block within the chunk
  const int k0 = c * chunk;
  const int kn = nb - k0 < chunk ? nb - k0 : chunk;
  for (int j = threadIdx.x; j < kn; j += BS) h[j] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(blocks) * (BS * IT);
  for (std::size_t base = static_cast<std::size_t>(bc) * (BS * IT) + threadIdx.x; base < n; base += stride) {
    int k[IT];
    load_bins(values, n, base, lo, hi, scale, nb, k);
#pragma unroll
    for (int u = 0; u < IT; ++u) {  // -1 - k0 and bins of other chunks fail the unsigned test
      const int kc = k[u] - k0;
      if (static_cast<unsigned>(kc) < static_cast<unsigned>(kn)) atomicAdd(&h[kc], 1u);
    }
  }
  __syncthreads();
  for (int j = threadIdx.x; j < kn; j += BS) {
    const std::uint32_t v = h[j];
    if (v != 0) atomicAdd(&counts[k0 + j], v);
  }
}

template <class T>
void histogram_impl(HistogramVariant v, const T* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
                    int bins, void* stream) {
  using C = sk::histogram_compute_t<T>;
  if (bins < 1)
    throw ShapeError("scratchkit::native::cuda::histogram: needs at least 1 bin, got " + std::to_string(bins));
  const auto hb = sk::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "scratchkit::native::cuda::histogram");
  if (v != HistogramVariant::global_atomic && v != HistogramVariant::shared_atomic)
    throw UnsupportedError(std::string("scratchkit::native::cuda::histogram: variant ") + name(v) +
                           " is not implemented");
  int dev = 0, sms = 0, threads_per_sm = 0, optin = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  // Same fill as the layer: Kokkos' Cuda concurrency is SMs * threads per SM.
  const long long fill_blocks = static_cast<long long>(sms) * threads_per_sm / BS;
  const auto plan = sk::histogram_plan(v, n, hb.bins, fill_blocks, static_cast<std::size_t>(optin));

  const cudaStream_t s = detail::as_stream(stream);
  SCRATCHKIT_CUDA_CHECK(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(hb.bins) * sizeof(std::uint32_t), s));
  if (n == 0) return;
  if (v == HistogramVariant::global_atomic) {
    histogram_global_atomic_kernel<T, C>
        <<<plan.blocks, BS, 0, s>>>(values, n, hb.lo, hb.hi, hb.scale, hb.bins, counts);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("histogram_global_atomic");
    return;
  }
  if (plan.shared_bytes > default_shared_max)
    SCRATCHKIT_CUDA_CHECK(cudaFuncSetAttribute(histogram_shared_atomic_kernel<T, C>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(plan.shared_bytes)));
  histogram_shared_atomic_kernel<T, C><<<plan.blocks * plan.chunks, BS, plan.shared_bytes, s>>>(
      values, n, hb.lo, hb.hi, hb.scale, hb.bins, plan.blocks, plan.chunk_bins, counts);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("histogram_shared_atomic");
}

}  // namespace

void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream);
}
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream);
}
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
