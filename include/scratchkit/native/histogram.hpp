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
/// Values each thread loads per grid-stride step: independent loads in flight.
constexpr int histogram_items = 4;

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

/// Grid and scratch of one histogram launch (the same arithmetic on the layer and native).
struct HistogramPlan {
  int blocks     = 0;  ///< blocks per chunk of bins; the grid is blocks * chunks (1-D, chunk-major)
  int chunks     = 1;  ///< shared_atomic: chunks of bins, one grid-stride pass over the values each
  int chunk_bins = 0;  ///< shared_atomic: bins per chunk (the last one may have fewer)
  std::size_t shared_bytes = 0;  ///< shared_atomic: dynamic shared bytes per block
};

/// Plans a launch over n > 0 values into `bins` bins.
/// `fill_blocks`: blocks of histogram_block threads that fill the device
/// (device threads / block size; the host backends' concurrency).
/// `max_shared_bytes`: the most dynamic shared memory one block may have;
/// shared_atomic splits the bins into the fewest chunks that fit it.
inline HistogramPlan histogram_plan(HistogramVariant v, std::size_t n, int bins, long long fill_blocks,
                                    std::size_t max_shared_bytes) {
  constexpr long long per_tile = static_cast<long long>(histogram_block) * histogram_items;
  const long long tiles = static_cast<long long>((n + per_tile - 1) / per_tile);
  if (fill_blocks < 1) fill_blocks = 1;
  HistogramPlan p;
  if (v == HistogramVariant::global_atomic) {
    p.blocks = static_cast<int>(tiles < fill_blocks ? tiles : fill_blocks);
    if (p.blocks < 1) p.blocks = 1;
    return p;
  }
  const long long max_bins = static_cast<long long>(max_shared_bytes / sizeof(std::uint32_t));
  if (max_bins < 1) {
    std::ostringstream os;
    os << "scratchkit::histogram: " << max_shared_bytes << " bytes of shared memory per block hold no bin";
    throw LaunchError(os.str());
  }
  const long long chunks = (bins + max_bins - 1) / max_bins;
  p.chunks       = static_cast<int>(chunks);
  p.chunk_bins   = static_cast<int>((bins + chunks - 1) / chunks);  // balanced chunks
  p.shared_bytes = static_cast<std::size_t>(p.chunk_bins) * sizeof(std::uint32_t);
  // Each block zeroes and merges chunk_bins counters: give it at least that
  // many values, and together fill the device.
  const long long by_work = static_cast<long long>((n + p.chunk_bins - 1) / p.chunk_bins);
  long long b             = tiles < by_work ? tiles : by_work;
  const long long cap     = fill_blocks / chunks;
  if (b > cap) b = cap;
  if (b < 1) b = 1;
  if (b * chunks > INT_MAX) b = INT_MAX / chunks;
  p.blocks = static_cast<int>(b);
  return p;
}

}  // namespace detail
}  // namespace scratchkit
