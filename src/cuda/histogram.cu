// SPDX-License-Identifier: BSD-3-Clause
// Histogram by hand in CUDA with extern __shared__: the twin of include/scratchkit/kernels/histogram.hpp.
// Same plan (scratchkit::detail::histogram_plan over the same device
// attributes and the same per-block shared limit), same blockings and launch
// bounds, same values per thread, same binning expression, so the counts agree
// exactly. The shared_atomic kernel is in histogram_shared.cuh (the tuner's too).
#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/detail/histogram/native.hpp>
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "histogram_shared.cuh"
#include "vector_load.cuh"

#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

namespace sk = ::scratchkit::detail;

constexpr int BS    = sk::histogram_block;
constexpr int MIN_B = sk::histogram_min_blocks;
constexpr int U     = sk::histogram_loads;

// f(value in C) for every value this thread takes (layer: detail::histogram_visit):
// vectors i = block*BS*U + threadIdx + k*blocks*BS*U + u*BS of the aligned
// body, U loads issued before the first value is binned; block 0's thread 0
// also takes the misaligned head and the tail.
template <class C, class T, class F>
__device__ __forceinline__ void visit(const T* __restrict__ x, std::size_t n, std::size_t head, int block, int blocks,
                                      const F& f) {
  detail::stream_lanes<U, BS>(x, n, head, block, static_cast<int>(threadIdx.x), blocks,
                              [&](int, T v) { f(static_cast<C>(v)); });
}

template <class T, class C>
__global__ void __launch_bounds__(BS, MIN_B)
    histogram_global_atomic_kernel(const T* __restrict__ values, std::size_t n, std::size_t head, C lo, C hi, C scale,
                                   int nb, std::uint32_t* __restrict__ counts) {
  visit<C>(values, n, head, blockIdx.x, gridDim.x, [&](C v) {
    const int k = detail::histogram_bin_of<C>(v, lo, hi, scale, nb);
    if (k >= 0) atomicAdd(&counts[k], 1u);
  });
}

/// Whether `p` is a launch plan of variant v over `bins` bins (histogram_plan's invariants).
bool plan_fits(HistogramVariant v, int bins, const sk::HistogramPlan& p) {
  if (p.blocks < 1) return false;
  if (v == HistogramVariant::global_atomic) return true;
  const long long cb = p.chunk_bins, ch = p.chunks;
  return cb >= 1 && ch >= 1 && p.copies >= 1 && ch * cb >= bins && (ch - 1) * cb < bins &&
         p.shared_bytes >= static_cast<std::size_t>(cb) * p.copies * sizeof(std::uint32_t);
}

template <class T>
void histogram_impl(HistogramVariant v, const T* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
                    int bins, void* stream, const sk::HistogramPlan* given) {
  using C = sk::histogram_compute_t<T>;
  if (bins < 1)
    throw ShapeError("scratchkit::native::cuda::histogram: needs at least 1 bin, got " + std::to_string(bins));
  const auto hb = sk::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "scratchkit::native::cuda::histogram");
  if (v != HistogramVariant::global_atomic && v != HistogramVariant::shared_atomic)
    throw UnsupportedError(std::string("scratchkit::native::cuda::histogram: variant ") + name(v) +
                           " is not implemented");
  if (given && !plan_fits(v, hb.bins, *given))
    throw ShapeError("scratchkit::native::cuda::histogram: the plan given is not a plan of variant " +
                     std::string(name(v)) + " over " + std::to_string(hb.bins) + " bins");
  const sk::DeviceLimits f = detail::device_limits();
  sk::HistogramDevice d;
  d.fill_blocks     = f.blocks(BS);
  d.sms             = f.sm_count;
  d.threads_per_sm  = f.max_threads_per_sm;
  d.shared_per_sm   = f.shared_per_sm;
  d.max_block_bytes = sk::histogram_native_shared_max(f.shared_per_block);
  // One choice for both twins: the caller's plan (the layer's, on Backend::native), or the same planner here.
  const auto plan = given ? *given : sk::histogram_plan(v, n, hb.bins, d);
  if (given && plan.shared_bytes > static_cast<std::size_t>(detail::shared_per_block_optin()))
    throw LaunchError("scratchkit::native::cuda::histogram: the plan given needs " + std::to_string(plan.shared_bytes) +
                      " bytes of shared memory per block, the device allows " +
                      std::to_string(detail::shared_per_block_optin()));

  const cudaStream_t s = detail::as_stream(stream);
  SCRATCHKIT_CUDA_CHECK(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(hb.bins) * sizeof(std::uint32_t), s));
  if (n == 0) return;
  const std::size_t head = detail::head_to_16(values, n);
  if (v == HistogramVariant::global_atomic) {
    histogram_global_atomic_kernel<T, C>
        <<<plan.blocks, BS, 0, s>>>(values, n, head, hb.lo, hb.hi, hb.scale, hb.bins, counts);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("histogram_global_atomic");
    return;
  }
  if (plan.small)
    detail::launch_histogram_shared<T, sk::HistogramDefaultBlocking>(values, n, head, hb, plan, counts, s);
  else
    detail::launch_histogram_shared<T, sk::HistogramLargeBlocking>(values, n, head, hb, plan, counts, s);
}

}  // namespace

void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, nullptr);
}
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, nullptr);
}
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, nullptr);
}

namespace detail {

void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream, const sk::HistogramPlan& plan) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, &plan);
}
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream, const sk::HistogramPlan& plan) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, &plan);
}
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream, const sk::HistogramPlan& plan) {
  histogram_impl(v, values, n, lo, hi, counts, bins, stream, &plan);
}

}  // namespace detail

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
