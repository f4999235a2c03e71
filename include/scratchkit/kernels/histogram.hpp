// SPDX-License-Identifier: BSD-3-Clause
/// Histogram of equal bins over [lo, hi) on the layer (native twin: src/cuda/histogram.cu).
///
/// Both variants launch blocks of 256 threads on a grid that fills the device
/// (device threads / 256 blocks on a GPU, the concurrency on host backends,
/// fewer when there are few values) and walk the values grid-stride, 4
/// coalesced values per thread and step.
/// - HistogramVariant::global_atomic: one Kokkos::atomic_add into counts per
///   counted value; no scratch.
/// - HistogramVariant::shared_atomic: each block counts into privatised bins
///   in its dynamic shared pool (DynamicSharedArray<std::uint32_t>), zeroed
///   first, with shared-memory atomics (red.shared on CUDA, see
///   detail::histogram_scratch_inc), then adds every non-zero bin to counts
///   with one global atomic.
///   Bins that do not fit in one block's shared memory are split into equal
///   chunks that do; each chunk gets its own blocks (the grid is chunk-major)
///   and a pass over the values. The layer fits a chunk into the level-0
///   limit Kokkos reports (TeamPolicy::scratch_size_max(0)) less the layer's
///   128-byte alignment slack: 40808 bytes on CUDA with Kokkos 4 (10202
///   bins), 32640 on Serial in Kokkos 3.4 (8160 bins). The native twin uses up to the opt-in limit
///   (cudaDevAttrMaxSharedMemoryPerBlockOptin, 227 KB on an H100: 58112
///   bins), opting in with cudaFuncSetAttribute above 48 KB.
/// Counts are exact integers, so every variant and backend gives the same
/// counts; the binning itself is one expression (detail::histogram_bin),
/// repeated verbatim in the native twin.
#pragma once

#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/histogram.hpp>

#include <climits>
#include <cstdint>
#include <sstream>
#include <type_traits>

// Unrolls the per-item loops on GPU compilers: the loads issue together and
// the items stay in registers, as in the native twin.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HISTOGRAM_UNROLL _Pragma("unroll")
#else
#define SCRATCHKIT_HISTOGRAM_UNROLL
#endif

namespace scratchkit {
namespace detail {

/// Bin of v for [lo, hi) in B bins (lo, hi, scale from histogram_bins), or -1
/// when v is outside [lo, hi) or NaN. The bin is floor((v - lo) * scale)
/// computed in C; rounding can reach B just below hi, which is clamped.
/// The native twin (src/cuda/histogram.cu) does the same operations.
template <class C>
KOKKOS_INLINE_FUNCTION int histogram_bin(C v, C lo, C hi, C scale, int B) {
  if (!(v >= lo) || !(v < hi)) return -1;  // NaN fails both tests
  const C f = (v - lo) * scale;            // >= 0: v >= lo
  if (!(f < static_cast<C>(B))) return B - 1;
  const int b = static_cast<int>(f);
  return b < B ? b : B - 1;  // C(B) may round above B when B > 2^24 in float
}

/// *p += 1, atomically, for a counter in block scratch. Kokkos' atomics take
/// a generic address and only special-case global memory; on CUDA a scratch
/// address gets the shared-memory reduction the native twin's atomicAdd on a
/// __shared__ array compiles to (red.shared.add), anything else Kokkos' atomic.
KOKKOS_INLINE_FUNCTION void histogram_scratch_inc(std::uint32_t* p) {
#if defined(__CUDA_ARCH__)
  if (__isShared(p)) {
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(p))) : "memory");
    return;
  }
#endif
  Kokkos::atomic_add(p, std::uint32_t(1));
}

/// Blocks that fill ExecSpace: device threads / block size on GPUs, the concurrency on hosts.
template <class ExecSpace>
long long histogram_fill_blocks(const ExecSpace& exec) {
  const long long c = exec.concurrency();
  return is_gpu_space<ExecSpace>::value ? c / histogram_block : c;
}

/// Dynamic shared bytes a layer block may have: the level-0 limit less the layer's slack.
template <class ExecSpace>
std::size_t histogram_layer_shared_max() {
  const std::size_t level0 = static_cast<std::size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
  const std::size_t usable = level0 / 8 * 8;  // plan_launch rounds the request up to 8 bytes
  return usable > base_alignment ? usable - base_alignment : 0;
}

/// The plan histogram() launches on the layer with (n > 0 values, bins bins).
template <class ExecSpace>
HistogramPlan histogram_layer_plan(const ExecSpace& exec, HistogramVariant v, std::size_t n, int bins) {
  return histogram_plan(v, n, bins, histogram_fill_blocks(exec), histogram_layer_shared_max<ExecSpace>());
}

/// The bins of values base, base + BS, ..., base + (IT-1) BS (-1 past n or
/// out of range), the IT loads issued before the first bin is computed, so
/// they are in flight together. Past n the last value is reloaded (and not counted).
template <int BS, class ValuesView, class C, int IT>
KOKKOS_FORCEINLINE_FUNCTION void histogram_load_bins(const ValuesView& values, std::size_t n, std::size_t base, C lo,
                                                     C hi, C scale, int nb, int (&k)[IT]) {
  C x[IT];
  SCRATCHKIT_HISTOGRAM_UNROLL
  for (int u = 0; u < IT; ++u) {
    const std::size_t i = base + static_cast<std::size_t>(u) * BS;
    x[u] = static_cast<C>(values(i < n ? i : n - 1));
  }
  SCRATCHKIT_HISTOGRAM_UNROLL
  for (int u = 0; u < IT; ++u)
    k[u] = base + static_cast<std::size_t>(u) * BS < n ? histogram_bin<C>(x[u], lo, hi, scale, nb) : -1;
}

template <class ExecSpace, class ValuesView, class CountsView>
void histogram_global_atomic(const ExecSpace& exec, const ValuesView& values,
                             const HistogramBins<histogram_compute_t<typename ValuesView::non_const_value_type>>& hb,
                             const CountsView& counts, const HistogramPlan& plan) {
  using C   = histogram_compute_t<typename ValuesView::non_const_value_type>;
  using B_t = Block<ExecSpace>;
  constexpr int BS = histogram_block, IT = histogram_items;
  const std::size_t n      = values.extent(0);
  const std::size_t stride = static_cast<std::size_t>(plan.blocks) * (BS * IT);
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins;
  launch(exec, "scratchkit::histogram_global_atomic", LaunchParams(Dim3(plan.blocks), Dim3(BS)),
         KOKKOS_LAMBDA(const B_t& b) {
           b.threads([&](const Thread& t) {
             for (std::size_t base = static_cast<std::size_t>(b.block_idx().x) * (BS * IT) + t.rank; base < n;
                  base += stride) {
               int k[IT];
               histogram_load_bins<BS>(values, n, base, lo, hi, scale, nb, k);
               SCRATCHKIT_HISTOGRAM_UNROLL
               for (int u = 0; u < IT; ++u)
                 if (k[u] >= 0) Kokkos::atomic_add(&counts(k[u]), std::uint32_t(1));
             }
           });
         });
}

template <class ExecSpace, class ValuesView, class CountsView>
void histogram_shared_atomic(const ExecSpace& exec, const ValuesView& values,
                             const HistogramBins<histogram_compute_t<typename ValuesView::non_const_value_type>>& hb,
                             const CountsView& counts, const HistogramPlan& plan) {
  using C   = histogram_compute_t<typename ValuesView::non_const_value_type>;
  using B_t = Block<ExecSpace>;
  constexpr int BS = histogram_block, IT = histogram_items;
  const std::size_t n      = values.extent(0);
  const std::size_t stride = static_cast<std::size_t>(plan.blocks) * (BS * IT);
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins, blocks = plan.blocks, chunk = plan.chunk_bins;
  const auto p = LaunchParams(Dim3(plan.blocks * plan.chunks), Dim3(BS)).shared_mem_bytes(plan.shared_bytes);
  launch(exec, "scratchkit::histogram_shared_atomic", p, KOKKOS_LAMBDA(const B_t& b) {
    auto h       = DynamicSharedArray<std::uint32_t>::offset(b, 0, chunk);
    const int c  = b.block_idx().x / blocks;  // chunk of bins of this block
    const int bc = b.block_idx().x - c * blocks;  // block within the chunk
    const int k0 = c * chunk;
    const int kn = nb - k0 < chunk ? nb - k0 : chunk;
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn; j += BS) h[j] = 0;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      for (std::size_t base = static_cast<std::size_t>(bc) * (BS * IT) + t.rank; base < n; base += stride) {
        int k[IT];
        histogram_load_bins<BS>(values, n, base, lo, hi, scale, nb, k);
        SCRATCHKIT_HISTOGRAM_UNROLL
        for (int u = 0; u < IT; ++u) {  // -1 - k0 and bins of other chunks fail the unsigned test
          const int kc = k[u] - k0;
          if (static_cast<unsigned>(kc) < static_cast<unsigned>(kn)) histogram_scratch_inc(&h[kc]);
        }
      }
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn; j += BS) {
        const std::uint32_t v = h[j];
        if (v != 0) Kokkos::atomic_add(&counts(k0 + j), v);
      }
    });
  });
}

}  // namespace detail

/// Counts the values of `values` into counts.extent(0) equal bins over
/// [lo, hi) on `backend`: counts(k) = how many values lie in
/// [lo + k*w, lo + (k+1)*w), w = (hi - lo) / bins, as detail::histogram_bin
/// computes it (in the value type, double for int32, with lo and hi rounded
/// up to that type, so exactly the values with lo <= v < hi are counted).
/// Values outside [lo, hi) and NaN are not counted (as CUB). counts is
/// overwritten.
///
/// values: rank-1 View of float, double or std::int32_t; counts: rank-1 View
/// of std::uint32_t. Backend::native runs the CUDA twin on exec's stream and
/// needs Kokkos::Cuda and contiguous CUDA Views (UnsupportedError otherwise).
/// Throws ShapeError, before any launch, for zero bins, lo or hi not finite,
/// or !(lo < hi). The header comment above says what each variant does.
/// Asynchronous: fence exec before reading counts.
/// \code
/// Kokkos::View<std::uint32_t*> counts("counts", 256);
/// scratchkit::histogram(exec, scratchkit::HistogramVariant::shared_atomic, x, 0.0, 1.0, counts);
/// \endcode
template <class ExecSpace, class ValuesView, class CountsView>
void histogram(const ExecSpace& exec, HistogramVariant variant, const ValuesView& values, double lo, double hi,
               const CountsView& counts, Backend backend = Backend::layer) {
  static_assert(ValuesView::rank == 1 && CountsView::rank == 1,
                "scratchkit::histogram: values and counts must be rank-1 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ValuesView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename CountsView::memory_space>::accessible,
                "scratchkit::histogram: the Views must be accessible from the execution space");
  using T = typename ValuesView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value ||
                    std::is_same<T, std::int32_t>::value,
                "scratchkit::histogram: values must be float, double or std::int32_t");
  static_assert(std::is_same<typename CountsView::value_type, std::uint32_t>::value,
                "scratchkit::histogram: counts must be a View of (non-const) std::uint32_t");
  const auto hb = detail::histogram_bins<T>(lo, hi, counts.extent(0), "scratchkit::histogram");
  const std::size_t n = values.extent(0);
  if (backend == Backend::native) {
    void* stream = detail::native_stream(exec, "histogram");
    detail::require_native_view(values, "histogram", "values");
    detail::require_native_view(counts, "histogram", "counts");
#if SCRATCHKIT_HAS_NATIVE_CUDA
    native::cuda::histogram(variant, values.data(), n, lo, hi, counts.data(), hb.bins, stream);
#else
    (void)stream;
#endif
    return;
  }
  if (variant != HistogramVariant::global_atomic && variant != HistogramVariant::shared_atomic)
    throw UnsupportedError(std::string("scratchkit::histogram: variant ") + name(variant) +
                           " is not implemented on the layer");
  const auto plan = detail::histogram_layer_plan(exec, variant, n, hb.bins);  // may throw: before any launch
  Kokkos::deep_copy(exec, counts, std::uint32_t(0));
  if (n == 0) return;
  if (variant == HistogramVariant::global_atomic)
    detail::histogram_global_atomic(exec, values, hb, counts, plan);
  else
    detail::histogram_shared_atomic(exec, values, hb, counts, plan);
}

}  // namespace scratchkit
