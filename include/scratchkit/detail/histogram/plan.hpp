// SPDX-License-Identifier: BSD-3-Clause
/// Histogram code both twins share (internal):
/// blockings, checked bin parameters, the launch plan and the streaming loop,
/// so that the layer and the native kernel bin and launch alike.
#pragma once

#include <scratchkit/detail/grid_stride.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/config.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/tuning/histogram.hpp>

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The histogram policy of this build's GPU (both twins).
using HistogramPolicy = tuning::HistogramPolicy<tuning::cuda_arch>;
/// Threads per block of the global_atomic variant (layer and native).
constexpr int histogram_block = HistogramPolicy::atomic_threads;
/// Blocks per SM global_atomic is compiled for (launch bounds
/// <histogram_block, histogram_min_blocks>).
constexpr int histogram_min_blocks = HistogramPolicy::atomic_min_blocks;
/// Independent 16-byte loads each global_atomic thread issues per step.
constexpr int histogram_loads = HistogramPolicy::atomic_loads;

/// How the shared_atomic kernels load their 16-byte vectors (both twins; CUDA
/// only, host backends load plainly): the load hints of detail::LoadHint
/// (load16.hpp). A tuning choice; the counts do not depend on it.
using HistogramLoad = LoadHint;

/// Compile-time shape of the shared_atomic kernel (both twins instantiate it
/// alike; scratchkit-histogram-tune times candidates against CUB):
/// Threads per block; Loads independent 16-byte loads a thread issues before
/// binning them; MinBlocks the launch bound (__launch_bounds__(Threads,
/// MinBlocks)) and the most blocks per SM the grid fills; Copies interleaved
/// sub-histograms for up to 256 bins (histogram_copies); Load the load hint;
/// Split: each block streams its own contiguous share of the values (balanced
/// to 128 bytes) instead of the grid-stride walk, so that no block has a
/// step more than another.
template <int Threads_, int Loads_, int MinBlocks_, int Copies_, HistogramLoad Load_ = HistogramLoad::nc,
          bool Split_ = false>
struct HistogramBlocking {
  static constexpr int threads        = Threads_;
  static constexpr int loads          = Loads_;
  static constexpr int min_blocks     = MinBlocks_;
  static constexpr int copies         = Copies_;
  static constexpr HistogramLoad load = Load_;
  static constexpr bool split         = Split_;
  static_assert(threads % 32 == 0 && threads >= 32 && threads <= 1024, "HistogramBlocking: threads a multiple of 32");
  static_assert(loads >= 1 && loads <= 16, "HistogramBlocking: 1 to 16 loads");
  static_assert(min_blocks >= 1 && min_blocks * threads <= 2048, "HistogramBlocking: at most 2048 threads per SM");
  static_assert(copies >= 1 && copies <= 32 && (copies & (copies - 1)) == 0,
                "HistogramBlocking: copies a power of two up to 32 (one per lane)");
};

/// HistogramBlocking spelled by the field names of tuning::HistogramSm90::Small.
template <class F>
using HistogramBlockingOf = HistogramBlocking<F::threads, F::loads, F::min_blocks, F::copies, F::load, F::split>;
/// The blocking of shared_atomic up to histogram_small_bins bins (the policy's Small).
using HistogramDefaultBlocking = HistogramBlockingOf<HistogramPolicy::Small>;
/// The blocking above histogram_small_bins (one sub-histogram, bins in chunks; the policy's Large).
using HistogramLargeBlocking = HistogramBlockingOf<HistogramPolicy::Large>;
/// Bins up to which shared_atomic uses HistogramDefaultBlocking.
constexpr int histogram_small_bins = HistogramPolicy::small_bins;

/// Run-time shape of a shared_atomic launch (a blocking's figures; the tuner varies them).
struct HistogramShape {
  int threads       = 256;  ///< threads per block
  int loads         = 2;    ///< 16-byte loads per thread per step
  int blocks_per_sm = 8;    ///< most blocks per SM the grid fills
  int copies        = 8;    ///< sub-histograms at up to 256 bins
};
template <class Bk>
constexpr HistogramShape histogram_shape() {
  return HistogramShape{Bk::threads, Bk::loads, Bk::min_blocks, Bk::copies};
}
/// The shape shared_atomic launches `bins` bins with.
inline HistogramShape histogram_shape_for(long long bins) {
  return bins <= histogram_small_bins ? histogram_shape<HistogramDefaultBlocking>()
                                      : histogram_shape<HistogramLargeBlocking>();
}

/// Shared bytes one block costs beyond its counters, for the residency
/// estimate both twins plan with: 1 KB the hardware reserves per block, the
/// (threads + 2) doubles Kokkos reserves for a team, the layer's 128-byte
/// alignment slack. The native twin costs less; it plans with the same
/// figure so that both launch the same grid.
constexpr std::size_t histogram_block_overhead(int threads) {
  return 1024 + 8 * (static_cast<std::size_t>(threads) + 2) + 128;
}

/// Sub-histograms per block for `bins` bins when `max_copies` are kept at up
/// to 256 bins: the largest power of two c <= max_copies with bins * c <=
/// 256 * max_copies (8: 8 copies up to 256 bins, 4 to 512, 2 to 1024, then
/// 1). Bin k, copy c lives at k * copies + c and lane l counts into copy
/// l % copies, so lanes with different l % copies never share a bank, and
/// two lanes only collide on a counter when they also share l % copies.
inline int histogram_copies(long long bins, int max_copies = 8) {
  int c = max_copies;
  while (c > 1 && bins * c > 256LL * max_copies) c /= 2;
  return c;
}

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
  long long fill_blocks       = 1;  ///< blocks that fill the device when sms or threads_per_sm is 0 (host backends:
                                    ///< the concurrency)
  long long sms               = 0;  ///< SMs (0: no residency limit, as on host backends)
  long long threads_per_sm    = 0;  ///< resident threads per SM (0: unknown, fill_blocks rules)
  std::size_t shared_per_sm   = 0;  ///< shared memory per SM in bytes (0: unknown, no limit)
  std::size_t max_block_bytes = 0;  ///< the most dynamic shared memory one block may have
  /// Blocks of `threads` threads resident at once when threads are the only limit.
  long long fill(int threads) const {
    const long long b = sms > 0 && threads_per_sm > 0 ? sms * (threads_per_sm / threads) : fill_blocks;
    return b > 0 ? b : 1;
  }
};

/// Grid and scratch of one histogram launch (the same arithmetic on the layer and native).
struct HistogramPlan {
  int blocks     = 0;  ///< blocks per chunk of bins; the grid is blocks * chunks (1-D, chunk-major)
  int chunks     = 1;  ///< shared_atomic: chunks of bins, one pass over the values each
  int chunk_bins = 0;  ///< shared_atomic: bins per chunk (the last one may have fewer)
  int copies     = 1;  ///< shared_atomic: interleaved sub-histograms per block (histogram_copies)
  std::size_t shared_bytes = 0;  ///< shared_atomic: dynamic shared bytes per block (chunk_bins * copies counters)
  bool small     = false;  ///< shared_atomic: launched with HistogramDefaultBlocking (else HistogramLargeBlocking)
  HistogramShape shape;    ///< shared_atomic: the shape planned with
};

/// Plans a launch over n values into `bins` bins on device d.
/// global_atomic: one block per histogram_block * 4 values, at most the
/// device once full. shared_atomic with shape s: the fewest chunks of bins
/// whose counters fit d.max_block_bytes, then a grid that fills the device
/// once: as many blocks per SM as threads, s.blocks_per_sm and shared memory
/// (counters plus histogram_block_overhead) allow, split evenly over the
/// chunks, each block given at least as many values as it has counters to
/// zero and merge.
inline HistogramPlan histogram_plan(HistogramVariant v, std::size_t n, int bins, const HistogramDevice& d,
                                    const HistogramShape& s) {
  const long long per_tile = static_cast<long long>(v == HistogramVariant::global_atomic ? histogram_block : s.threads) * 4;
  const long long tiles    = static_cast<long long>((n + per_tile - 1) / per_tile);
  HistogramPlan p;
  if (v == HistogramVariant::global_atomic) {
    const long long fill = d.fill(histogram_block);
    p.blocks = static_cast<int>(tiles < fill ? tiles : fill);
    if (p.blocks < 1) p.blocks = 1;
    return p;
  }
  p.shape    = s;
  p.small    = bins <= histogram_small_bins;
  int copies = histogram_copies(bins, s.copies);
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
  // One wave: blocks resident per SM under the thread, bound and shared-memory limits.
  const long long fill = d.fill(s.threads);
  long long cap        = fill;
  if (d.sms > 0 && d.shared_per_sm > 0) {
    long long per_sm       = fill / d.sms;
    const long long by_mem = static_cast<long long>(d.shared_per_sm / (p.shared_bytes + histogram_block_overhead(s.threads)));
    if (by_mem < per_sm) per_sm = by_mem;
    if (s.blocks_per_sm > 0 && s.blocks_per_sm < per_sm) per_sm = s.blocks_per_sm;
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

/// The plan with the shape histogram() uses for `bins` (histogram_shape_for).
inline HistogramPlan histogram_plan(HistogramVariant v, std::size_t n, int bins, const HistogramDevice& d) {
  return histogram_plan(v, n, bins, d, histogram_shape_for(bins));
}

/// A contiguous array read with load hint L (the source both twins stream a contiguous View through).
template <class T, HistogramLoad L>
using HistogramPtrSource = StreamPtrSource<T, L>;

/// Calls f(value) for every value one thread of a shared_atomic block takes
/// (both twins): the 16-byte aligned body [head, head + nv*V) as vectors,
/// Bk::loads of them loaded before the first is binned; block 0's thread 0
/// also takes the misaligned head (before) and the tail (after).
/// Grid-stride: vectors i = block*BS*U + rank + k*blocks*BS*U + u*BS.
/// Split (Bk::split): block b walks its own range of the body, the 128-byte
/// groups of 8 vectors dealt out evenly (the first nq % blocks blocks one
/// more, the last also the < 8 vectors left), as i = begin + rank + k*BS*U + u*BS.
template <class Bk, class Src, class F>
SCRATCHKIT_HD_FORCEINLINE void histogram_stream(const Src& src, std::size_t n, std::size_t head, int block, int rank,
                                                int blocks, const F& f) {
  using T          = typename Src::value_type;
  constexpr int V  = Src::width;
  constexpr int BS = Bk::threads, U = Bk::loads;
  const bool first = block == 0 && rank == 0;
  if (first) {
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (static_cast<std::size_t>(j) < head) f(src.at(static_cast<std::size_t>(j)));
  }
  const std::size_t nv = (n - head) / V;
  std::size_t i, end, step;
  if constexpr (Bk::split) {
    const std::size_t nq = nv / 8, per = nq / static_cast<std::size_t>(blocks),
                      rem = nq % static_cast<std::size_t>(blocks), b = static_cast<std::size_t>(block);
    const std::size_t begin = 8 * (b * per + (b < rem ? b : rem));
    end  = block == blocks - 1 ? nv : begin + 8 * (per + (b < rem ? 1 : 0));
    i    = begin + static_cast<std::size_t>(rank);
    step = static_cast<std::size_t>(BS) * U;
  } else {
    end  = nv;
    i    = static_cast<std::size_t>(block) * (BS * U) + static_cast<std::size_t>(rank);
    step = static_cast<std::size_t>(blocks) * (BS * U);
  }
  for (; i < end; i += step) {
    T x[U][V];
    if (i + static_cast<std::size_t>(U - 1) * BS < end) {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < V; ++j) f(x[u][j]);
      }
    } else {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u)
        if (i + static_cast<std::size_t>(u) * BS < end) {
          src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
          SCRATCHKIT_UNROLL
          for (int j = 0; j < V; ++j) f(x[u][j]);
        }
    }
  }
  if (first) {
    const std::size_t t0 = head + nv * V;
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (t0 + static_cast<std::size_t>(j) < n) f(src.at(t0 + static_cast<std::size_t>(j)));
  }
}

}  // namespace detail
}  // namespace scratchkit
