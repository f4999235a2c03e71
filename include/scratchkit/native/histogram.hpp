// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA histogram (src/cuda/histogram.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
///
/// Also holds the host-side planning both twins share (checked bin parameters,
/// grid and chunking), so the layer and the native kernel bin and launch alike.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {

/// Counts n values into `bins` equal bins over [lo, hi): counts[k] = number of
/// values in [lo + k*w, lo + (k+1)*w), w = (hi - lo) / bins (binning as
/// scratchkit::detail::histogram_bin). counts (bins elements) is overwritten;
/// values outside [lo, hi) and NaN are not counted. Throws ShapeError for
/// bins < 1, lo or hi not finite, or !(lo < hi), before anything runs.
void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream = nullptr);
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream = nullptr);
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream = nullptr);

}  // namespace cuda
}  // namespace native

namespace detail {

/// Threads per block of both histogram variants (layer and native).
constexpr int histogram_block = 256;
/// Blocks per SM both variants are compiled for (launch bounds
/// <histogram_block, histogram_min_blocks>: 32 registers a thread) and that
/// the grid fills when shared memory allows.
constexpr int histogram_min_blocks = 8;
/// Independent 16-byte loads each thread issues per grid-stride step (8
/// float or int32 values, 4 double values).
constexpr int histogram_loads = 2;
/// Shared bytes one block costs beyond its counters, for the residency
/// estimate both twins plan with: 1 KB the hardware reserves per block, the
/// (256 + 2) doubles Kokkos reserves for a 256-thread team, the layer's
/// 128-byte alignment slack. The native twin costs less; it plans with the
/// same figure so that both launch the same grid.
constexpr std::size_t histogram_block_overhead = 1024 + 8 * (histogram_block + 2) + 128;

/// Sub-histograms per block for `bins` bins: 8 interleaved copies (bin k,
/// copy c at k * 8 + c; lane l counts into copy l % 8) up to 256 bins, fewer
/// up to 1024 bins (8 KB of counters), 1 above. Lanes of a warp with
/// different l % 8 then never share a bank, and two lanes only collide on a
/// counter when they also share l % 8.
inline int histogram_copies(long long bins) { return bins <= 256 ? 8 : bins <= 512 ? 4 : bins <= 1024 ? 2 : 1; }

/// Dynamic shared bytes per block the native twin allows itself: the level-0
/// limit Kokkos 4 gives a layer block on CUDA (sharedMemPerBlock less 1026
/// doubles and an int64 it reserves, rounded down to 8) less the layer's
/// 128-byte slack, so that both twins split the bins into the same chunks.
inline std::size_t histogram_native_shared_max(std::size_t shared_per_block) {
  constexpr std::size_t kokkos_reserve = (1024 + 2) * 8 + 8;
  const std::size_t level0             = shared_per_block > kokkos_reserve ? shared_per_block - kokkos_reserve : 0;
  const std::size_t usable             = level0 / 8 * 8;
  return usable > 128 ? usable - 128 : 0;
}

/// Type the bin index is computed in: the value type for float and double,
/// double for int32 (every int32 is exact there).
template <class T>
struct histogram_compute {
  using type = T;
};
template <>
struct histogram_compute<std::int32_t> {
  using type = double;
};
template <class T>
using histogram_compute_t = typename histogram_compute<T>::type;

/// [lo, hi) and B bins in the compute type C, as the kernels use them.
template <class C>
struct HistogramBins {
  C lo;     ///< smallest C >= lo: for values of the kernel's type, v >= lo exactly when v >= this
  C hi;     ///< smallest C >= hi: likewise for v < hi
  C scale;  ///< C(B / (hi - lo)), computed in double
  int bins;
};

/// The smallest C not below x (x finite; +inf above C's range): float(x) rounded up, x itself for double.
template <class C>
C histogram_round_up(double x) {
  if (x > static_cast<double>(std::numeric_limits<C>::max())) return std::numeric_limits<C>::infinity();
  if (x < static_cast<double>(std::numeric_limits<C>::lowest())) return std::numeric_limits<C>::lowest();
  C c = static_cast<C>(x);
  if (static_cast<double>(c) < x) c = std::nextafter(c, std::numeric_limits<C>::infinity());
  return c;
}

/// Checks lo, hi and the bin count and returns them in the compute type of T.
/// Throws ShapeError naming the values for bins == 0 or > INT_MAX, lo or hi
/// not finite, !(lo < hi), or a range whose bin width C cannot represent.
template <class T>
HistogramBins<histogram_compute_t<T>> histogram_bins(double lo, double hi, std::size_t bins, const char* who) {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value ||
                    std::is_same<T, std::int32_t>::value,
                "scratchkit::histogram: values must be float, double or std::int32_t");
  using C = histogram_compute_t<T>;
  std::ostringstream os;
  os.precision(17);
  os << who << ": ";
  if (bins == 0 || bins > static_cast<std::size_t>(INT_MAX)) {
    os << "needs 1 to " << INT_MAX << " bins (the extent of counts), got " << bins;
    throw ShapeError(os.str());
  }
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi) || !std::isfinite(hi - lo)) {
    os << "needs finite lo < hi (and finite hi - lo), got lo=" << lo << ", hi=" << hi;
    throw ShapeError(os.str());
  }
  const C scale = static_cast<C>(static_cast<double>(bins) / (hi - lo));
  if (!(scale > C(0)) || !std::isfinite(scale)) {
    os << "bins per unit " << static_cast<double>(bins) / (hi - lo) << " (lo=" << lo << ", hi=" << hi
       << ", bins=" << bins << ") is not representable in the value type's " << sizeof(C) * 8
       << "-bit compute type";
    throw ShapeError(os.str());
  }
  return HistogramBins<C>{histogram_round_up<C>(lo), histogram_round_up<C>(hi), scale, static_cast<int>(bins)};
}

/// What a histogram launch fills: the device's SMs and shared memory, or a host backend's concurrency.
struct HistogramDevice {
  long long fill_blocks      = 1;  ///< blocks of histogram_block threads that fill the device when threads are the limit
                                   ///< (SMs x threads per SM / block; host backends: the concurrency)
  long long sms              = 0;  ///< SMs (0: no shared-memory residency limit, as on host backends)
  std::size_t shared_per_sm  = 0;  ///< shared memory per SM in bytes (0: unknown, no limit)
  std::size_t max_block_bytes = 0;  ///< the most dynamic shared memory one block may have
};

/// Grid and scratch of one histogram launch (the same arithmetic on the layer and native).
struct HistogramPlan {
  int blocks     = 0;  ///< blocks per chunk of bins; the grid is blocks * chunks (1-D, chunk-major)
  int chunks     = 1;  ///< shared_atomic: chunks of bins, one grid-stride pass over the values each
  int chunk_bins = 0;  ///< shared_atomic: bins per chunk (the last one may have fewer)
  int copies     = 1;  ///< shared_atomic: interleaved sub-histograms per block (histogram_copies)
  std::size_t shared_bytes = 0;  ///< shared_atomic: dynamic shared bytes per block (chunk_bins * copies counters)
};

/// Plans a launch over n values into `bins` bins on device d.
/// global_atomic: one block per histogram_block * 4 values, at most
/// d.fill_blocks. shared_atomic: the fewest chunks of bins whose counters fit
/// d.max_block_bytes, then a grid that fills the device once: as many blocks
/// per SM as threads and shared memory let be resident (counters plus
/// histogram_block_overhead), split evenly over the chunks, each block given
/// at least as many values as it has counters to zero and merge.
inline HistogramPlan histogram_plan(HistogramVariant v, std::size_t n, int bins, const HistogramDevice& d) {
  constexpr long long per_tile = static_cast<long long>(histogram_block) * 4;
  const long long tiles = static_cast<long long>((n + per_tile - 1) / per_tile);
  const long long fill  = d.fill_blocks < 1 ? 1 : d.fill_blocks;
  HistogramPlan p;
  if (v == HistogramVariant::global_atomic) {
    p.blocks = static_cast<int>(tiles < fill ? tiles : fill);
    if (p.blocks < 1) p.blocks = 1;
    return p;
  }
  int copies = histogram_copies(bins);
  while (copies > 1 && static_cast<std::size_t>(bins) * copies * sizeof(std::uint32_t) > d.max_block_bytes) copies /= 2;
  const long long max_bins = static_cast<long long>(d.max_block_bytes / (sizeof(std::uint32_t) * copies));
  if (max_bins < 1) {
    std::ostringstream os;
    os << "scratchkit::histogram: " << d.max_block_bytes << " bytes of shared memory per block hold no bin";
    throw LaunchError(os.str());
  }
  const long long chunks = (bins + max_bins - 1) / max_bins;
  p.chunks       = static_cast<int>(chunks);
  p.chunk_bins   = static_cast<int>((bins + chunks - 1) / chunks);  // balanced chunks
  p.copies       = copies;
  p.shared_bytes = static_cast<std::size_t>(p.chunk_bins) * copies * sizeof(std::uint32_t);
  // One wave: blocks resident per SM under the thread and shared-memory limits.
  long long cap = fill;
  if (d.sms > 0 && d.shared_per_sm > 0) {
    long long per_sm       = fill / d.sms;
    const long long by_mem = static_cast<long long>(d.shared_per_sm / (p.shared_bytes + histogram_block_overhead));
    if (by_mem < per_sm) per_sm = by_mem;
    cap = d.sms * (per_sm < 1 ? 1 : per_sm);
  }
  const long long counters = static_cast<long long>(p.chunk_bins) * copies;
  const long long by_work  = static_cast<long long>((n + counters - 1) / counters);
  long long b              = tiles < by_work ? tiles : by_work;
  if (b > cap / chunks) b = cap / chunks;
  if (b < 1) b = 1;
  if (b * chunks > INT_MAX) b = INT_MAX / chunks;
  p.blocks = static_cast<int>(b);
  return p;
}

}  // namespace detail
}  // namespace scratchkit
