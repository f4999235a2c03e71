// SPDX-License-Identifier: BSD-3-Clause
/// histogram: the layer implementation behind kernels/histogram.hpp (the public calls and contracts are there).
///
/// global_atomic launches blocks of 256 threads (launch bounds <256, 8> on
/// both twins) walking the values grid-stride, each thread issuing
/// detail::histogram_loads independent 16-byte loads per step (8 float or
/// int32 values, 4 doubles); shared_atomic launches the shape of a
/// detail::HistogramBlocking (detail/histogram/plan.hpp): HistogramDefaultBlocking
/// up to detail::histogram_small_bins (1024) bins, HistogramLargeBlocking
/// above (threads, loads per step, launch bound and blocks per SM,
/// sub-histograms, load hint, grid-stride or one contiguous share per block;
/// scratchkit-histogram-tune picks the default against CUB). A misaligned head
/// and the tail that is not a whole vector are taken element by element by
/// the first thread. Strided Views are read element by element in the same
/// pattern.
/// - HistogramVariant::global_atomic: one Kokkos::atomic_add into counts per
///   counted value; no scratch. Grid: the device once full (SMs x threads per
///   SM / 256; the concurrency on host backends), fewer for few values.
/// - HistogramVariant::shared_atomic: each block counts into privatised bins
///   in its dynamic shared pool (DynamicSharedArray<std::uint32_t>), zeroed
///   first, with shared-memory atomics (red.shared on CUDA, see
///   scratchkit::atomic_inc), then adds every non-zero bin to counts
///   with one global atomic. Up to 256 bins a block keeps the blocking's
///   number of interleaved copies of its bins (detail::histogram_copies: 8
///   for 256 bins with 8 copies, then fewer as bins grow), lane l counting
///   into copy l % copies, which spreads a warp's atomics over the
///   shared-memory banks; they are summed at the merge.
///   Bins that do not fit in one block's shared memory are split into equal
///   chunks that do; each chunk gets its own blocks (the grid is chunk-major)
///   and a pass over the values. The layer fits a chunk into the level-0
///   limit Kokkos reports (TeamPolicy::scratch_size_max(0); on host backends
///   the level-1 limit, where scratch is ordinary memory) less the layer's
///   128-byte alignment slack; the native twin
///   allows itself the same (detail::histogram_native_shared_max), so both
///   split alike. The grid fills the device once: as many blocks per SM as
///   threads, the blocking and shared memory let be resident
///   (detail::histogram_plan).
/// Host backends launch one team member per block; its block takes the
/// same values as its threads would, in memory order (histogram_host_values):
/// global_atomic still adds each counted value with one atomic, shared_atomic
/// counts into its privatised bins without atomics and merges them as above
/// up to histogram_small_bins bins; above, with several blocks, each block
/// stores its bins in a row of the layer's workspace and a second pass sums
/// the rows into counts (histogram_host_workspace, histogram_row,
/// histogram_host_merge); GPU kernels carry nothing of it.
/// Counts are exact integers, so every variant and backend gives the same
/// counts; the binning itself is one expression (detail::histogram_bin),
/// repeated verbatim in the native twin.
#pragma once

#include <scratchkit/atomic.hpp>
#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/detail/histogram/native.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/vector_load.hpp>
#include <scratchkit/detail/workspace.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>

#include <climits>
#include <cstdint>
#include <mutex>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Bin of v for [lo, hi) in B bins (lo, hi, scale from histogram_bins), or -1
/// when v is outside [lo, hi) or NaN. The bin is floor((v - lo) * scale)
/// computed in C; rounding can reach B just below hi, which is clamped.
/// Written without early returns so that GPU compilers select instead of
/// branching; the conversion only sees values in [0, B).
/// The native twin (src/cuda/histogram.cu) does the same operations.
template <class C>
KOKKOS_INLINE_FUNCTION int histogram_bin(C v, C lo, C hi, C scale, int B) {
  const bool in = v >= lo && v < hi;        // NaN fails both tests
  const C f     = in ? (v - lo) * scale : C(0);  // >= 0: v >= lo
  int b         = f < static_cast<C>(B) ? static_cast<int>(f) : B - 1;
  b             = b < B ? b : B - 1;  // C(B) may round above B when B > 2^24 in float
  return in ? b : -1;
}

/// The launch bounds of the global_atomic kernel (native twin: __launch_bounds__(256, 8)).
using HistogramBounds = LaunchBounds<histogram_block, histogram_min_blocks>;
/// Kokkos (4.6) refuses a team whose scratch cannot be resident MinBlocks
/// times on an SM (the native twin is launched anyway: CUDA treats the bound
/// as a register budget). A shared_atomic layer block with more than this many
/// dynamic shared bytes takes the bound <threads, max(1, MinBlocks / 2)>: the
/// blocks of MinBlocks plus Kokkos' own per-team reserve must fit in 160 KB
/// (an A100's 164 KB, less slack; an H100 has 228 KB).
constexpr std::size_t histogram_shared_for_min_blocks(int threads, int min_blocks) {
  return 160 * 1024 / static_cast<std::size_t>(min_blocks) - histogram_block_overhead(threads);
}

/// Dynamic shared bytes a layer block may have: the level-0 limit less the layer's slack.
template <class ExecSpace>
std::size_t histogram_layer_shared_max() {
  const std::size_t level0 = static_cast<std::size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0));
  const std::size_t usable = level0 / 8 * 8;  // plan_launch rounds the request up to 8 bytes
  return usable > base_alignment ? usable - base_alignment : 0;
}

/// What a layer launch on exec fills (device attributes on CUDA, the concurrency on host backends).
template <class ExecSpace>
HistogramDevice histogram_layer_device(const ExecSpace& exec) {
  const DeviceLimits f = device_limits(exec);
  HistogramDevice d;
  d.fill_blocks     = f.blocks(histogram_block);
  d.sms             = f.sm_count;
  d.threads_per_sm  = f.max_threads_per_sm;
  d.shared_per_sm   = f.shared_per_sm;
  d.max_block_bytes = histogram_layer_shared_max<ExecSpace>();
  if constexpr (!is_gpu_space<ExecSpace>::value) {
    // Host: a block's bins may take level-1 scratch (kernel_fallback), so that one pass counts every bin.
    const std::size_t level1 = static_cast<std::size_t>(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(1)) / 8 * 8;
    if (level1 > base_alignment && level1 - base_alignment > d.max_block_bytes)
      d.max_block_bytes = level1 - base_alignment;
  }
  return d;
}

/// The plan histogram() launches on the layer with (n values, bins bins).
template <class ExecSpace>
HistogramPlan histogram_layer_plan(const ExecSpace& exec, HistogramVariant v, std::size_t n, int bins) {
  return histogram_plan(v, n, bins, histogram_layer_device(exec));
}

/// Calls f(value in C) for every value one thread of a grid-stride histogram
/// takes: vectors i = block*BS*U + rank + k*blocks*BS*U + u*BS of the
/// 16-byte aligned body [head, head + nv*V) (U = histogram_loads loads
/// issued before the first value is binned), and, for block 0's thread 0,
/// the peeled head and tail. `block` and `blocks` count the blocks of one
/// chunk of bins. The native twin visits the same values.
template <class C, class Src, class F>
KOKKOS_FORCEINLINE_FUNCTION void histogram_visit(const Src& src, std::size_t n, std::size_t head, int block, int rank,
                                                 int blocks, const F& f) {
  using T = typename Src::value_type;
  stream_lanes<histogram_loads, histogram_block>(src, n, head, block, rank, blocks,
                                                 [&](int, T x) { f(static_cast<C>(x)); });
}

/// histogram_bin's value for every input, with no conversion under a
/// condition (the converted value is always in [0, C(B))), so that a host
/// loop over it vectorises; NaN and out-of-range values give -1 as there.
template <class C>
KOKKOS_INLINE_FUNCTION int histogram_bin_host(C v, C lo, C hi, C scale, int B) {
  const bool in  = (v >= lo) & (v < hi);  // NaN fails both tests
  const C f      = (v - lo) * scale;      // histogram_bin's f where in
  const bool low = f < static_cast<C>(B);
  const C g      = (low & (f >= C(0))) ? f : C(0);
  int b          = static_cast<int>(g);
  b              = low ? b : B - 1;
  b              = b < B ? b : B - 1;  // C(B) may round above B when B > 2^24 in float
  return in ? b : -1;
}

/// Host paths (one member runs the block, detail::host_direct): for every value
/// that the threads of block `block` of a grid-stride walk with BS threads and
/// U loads per step take (Split: histogram_stream's contiguous shares), block 0
/// also the head and tail, calls count(slot(k, q)) with k its bin
/// (histogram_bin, -1 outside) and q < 256 its place in its run of values: the
/// same values as the per-thread walk, in memory order, binned and slotted a
/// run at a time (that loop vectorises), then counted.
template <int BS, int U, bool Split, class C, class Src, class S, class F>
KOKKOS_INLINE_FUNCTION void histogram_host_values(const Src& src, std::size_t n, std::size_t head, int block,
                                                  int blocks, const HistogramBins<C>& hb, const S& slot,
                                                  const F& count) {
  constexpr int V            = Src::width;
  constexpr std::size_t run  = 256;
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins;
  int k[run];
  const auto values = [&](std::size_t b, std::size_t e) {  // elements [b, e)
    for (; b < e; b += run) {
      const std::size_t m = e - b < run ? e - b : run;
      for (std::size_t q = 0; q < m; ++q)
        k[q] = slot(histogram_bin_host<C>(static_cast<C>(src.at(b + q)), lo, hi, scale, nb), static_cast<int>(q));
      // Unrolled: the loop is a load, a test and an increment, so its fetch alignment set its speed
      // (1.3-1.4x between two builds on the 2-core EPYC, perf/NOTES.md 2026-11-29).
      SCRATCHKIT_HOST_UNROLL_ROW
      for (std::size_t q = 0; q < m; ++q) count(k[q]);
    }
  };
  const std::size_t nv = (n - head) / V;
  if (block == 0) values(0, head);
  if constexpr (Split) {
    const std::size_t nq = nv / 8, per = nq / static_cast<std::size_t>(blocks),
                      rem = nq % static_cast<std::size_t>(blocks), b = static_cast<std::size_t>(block);
    const std::size_t begin = 8 * (b * per + (b < rem ? b : rem));
    const std::size_t end   = block == blocks - 1 ? nv : begin + 8 * (per + (b < rem ? 1 : 0));
    values(head + begin * V, head + end * V);
  } else {
    constexpr std::size_t group = static_cast<std::size_t>(BS) * U;  // vectors of one block's step
    for (std::size_t g = static_cast<std::size_t>(block) * group; g < nv; g += static_cast<std::size_t>(blocks) * group)
      values(head + g * V, head + (g + group < nv ? g + group : nv) * V);
  }
  if (block == 0) values(head + nv * V, n);
}

/// global_atomic's host path: the block's values in memory order, one atomic per counted value.
template <class B_t, class Src, class C, class CountsView>
KOKKOS_INLINE_FUNCTION void histogram_global_host(const Src& src, std::size_t n, std::size_t head, int block,
                                                  int blocks, const HistogramBins<C>& hb, const CountsView& counts) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    histogram_host_values<histogram_block, histogram_loads, false>(
        src, n, head, block, blocks, hb, [](int k, int) { return k; },
        [&](int k) {
          if (k >= 0) Kokkos::atomic_add(&counts(k), std::uint32_t(1));
        });
  }
}

template <class ExecSpace, class Src, class CountsView>
SCRATCHKIT_KERNEL_LINKAGE
void histogram_global_atomic(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head,
                             const HistogramBins<histogram_compute_t<typename Src::value_type>>& hb,
                             const CountsView& counts, const HistogramPlan& plan) {
  using C   = histogram_compute_t<typename Src::value_type>;
  using B_t = Block<ExecSpace>;
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins, blocks = plan.blocks;
  launch<HistogramBounds, ScratchFallback::none>(exec, "scratchkit::histogram_global_atomic",
                          LaunchParams(Dim3(plan.blocks), Dim3(histogram_block)).host_team_size(1),
                          KOKKOS_LAMBDA(const B_t& b) {
                            // not `if constexpr`: nvcc refuses an extended lambda's first capture inside one
                            if (host_direct(b)) {
                              histogram_global_host<B_t>(src, n, head, b.block_idx().x, blocks, hb, counts);
                              return;
                            }
                            b.threads([&](const Thread& t) {
                              histogram_visit<C>(src, n, head, b.block_idx().x, t.rank, blocks, [&](C v) {
                                const int k = histogram_bin<C>(v, lo, hi, scale, nb);
                                if (k >= 0) Kokkos::atomic_add(&counts(k), std::uint32_t(1));
                              });
                            });
                          });
}

/// Host backends: whether shared_atomic's blocks hand their bins to a second
/// pass through the layer's workspace (histogram_host_merge) instead of adding
/// them to counts with atomics, for `bins` bins in chunks of `chunk`, `blocks`
/// blocks a chunk. Above histogram_small_bins bins, a block's atomic merge
/// costs an atomic and a cache line taken from another core for nearly every
/// bin; the second pass reads each block's bins once, at unit stride
/// (docs/performance.md, "On a CPU"). Not above 256 MiB of workspace: the
/// blocks' scratch already holds as much. The launch and its blocks both ask
/// (histogram_row), from the values the blocks already have.
KOKKOS_INLINE_FUNCTION bool histogram_host_workspace(int bins, int blocks, int chunk) {
  const double bytes = 4.0 * blocks * ((bins + chunk - 1) / chunk) * static_cast<double>(chunk);
  return bins > histogram_small_bins && blocks > 1 && bytes <= 268435456.0;
}

/// Where block `block` of shared_atomic leaves its bins for
/// histogram_host_merge: on host backends, where histogram_host_workspace
/// holds, its row of the workspace, which the launch sized and holds (its
/// mutex) until the merge is done; else nullptr (the blocks add their bins to
/// counts with atomics). On GPU spaces a constant nullptr: the GPU kernel
/// captures nothing for the host's second pass and compiles to its merge by
/// atomics alone.
template <class ExecSpace>
KOKKOS_INLINE_FUNCTION std::uint32_t* histogram_row(int block, int bins, int blocks, int chunk) {
  if constexpr (is_gpu_space<ExecSpace>::value) {
    (void)block, (void)bins, (void)blocks, (void)chunk;
    return nullptr;
  } else {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
    (void)block, (void)bins, (void)blocks, (void)chunk;
    return nullptr;
#else
    if (!histogram_host_workspace(bins, blocks, chunk)) return nullptr;
    return reinterpret_cast<std::uint32_t*>(Workspace<typename ExecSpace::memory_space>::data()) +
           static_cast<std::size_t>(block) * chunk;
#endif
  }
}

/// shared_atomic's host path for bins [k0, k0 + kn) of block bc: the same
/// privatised bins, zeroed, counted without atomics (one member), value q of a
/// run into copy q % copies. Then, with a workspace row `row`
/// (histogram_row), the block's kn bins are stored there; without,
/// every non-zero bin is added to counts with one atomic (a plain add where
/// the block is its chunk's only one), starting at the block's own offset so
/// that blocks merge different bins at once.
template <class Bk, class B_t, class Src, class C, class CountsView>
KOKKOS_INLINE_FUNCTION void histogram_shared_host(std::uint32_t* h, const Src& src, std::size_t n, std::size_t head,
                                                  int bc, int blocks, const HistogramBins<C>& hb, int k0, int kn,
                                                  int copies, const CountsView& counts, std::uint32_t* row) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    for (int j = 0; j < kn * copies; ++j) h[j] = 0;
    const int cm = copies - 1;  // copies is a power of two
    histogram_host_values<Bk::threads, Bk::loads, Bk::split>(
        src, n, head, bc, blocks, hb,
        [=](int k, int q) {
          const int kc = k - k0;  // -1 - k0 and bins of other chunks fail the unsigned test
          const int j  = kc * copies + (q & cm);  // computed unconditionally: a select keeps the loop vectorised
          return static_cast<unsigned>(kc) < static_cast<unsigned>(kn) ? j : -1;
        },
        [&](int j) {
          if (j >= 0) h[j] += 1;
        });
    if (row != nullptr) {
      for (int j = 0; j < kn; ++j) {
        std::uint32_t v = 0;
        for (int c = 0; c < copies; ++c) v += h[j * copies + c];
        row[j] = v;
      }
      return;
    }
    const int start = static_cast<int>(static_cast<long long>(kn) * bc / blocks);
    for (int i = 0; i < kn; ++i) {
      const int j = start + i < kn ? start + i : start + i - kn;
      std::uint32_t v = 0;
      for (int c = 0; c < copies; ++c) v += h[j * copies + c];
      if (v == 0) continue;
      if (blocks == 1)  // the chunk's only block: no other writer of these bins
        counts(k0 + j) += v;
      else
        Kokkos::atomic_add(&counts(k0 + j), v);
    }
  }
}

/// The second pass of histogram_host_workspace: counts(k) = the sum over
/// the blocks of k's chunk of their rows' counter k - k0. Each iteration takes
/// a segment of bins of one chunk and adds the blocks' rows at unit stride.
template <class ExecSpace, class CountsView>
void histogram_host_merge(const ExecSpace& exec, const std::uint32_t* ws, int blocks, int chunk, int nb,
                          const CountsView& counts) {
  constexpr int seg = 1024;
  const int per_chunk = (chunk + seg - 1) / seg;
  const int chunks    = (nb + chunk - 1) / chunk;
  Kokkos::parallel_for(
      "scratchkit::histogram_host_merge", Kokkos::RangePolicy<ExecSpace>(exec, 0, chunks * per_chunk),
      KOKKOS_LAMBDA(int i) {
        const int c = i / per_chunk, k0 = c * chunk, j0 = (i - c * per_chunk) * seg;
        const int kn = nb - k0 < chunk ? nb - k0 : chunk;
        const int j1 = j0 + seg < kn ? j0 + seg : kn;
        std::uint32_t acc[seg];
        const std::uint32_t* r = ws + static_cast<std::size_t>(c) * blocks * chunk;
        for (int j = j0; j < j1; ++j) acc[j - j0] = r[j];
        for (int q = 1; q < blocks; ++q) {
          r += chunk;
          for (int j = j0; j < j1; ++j) acc[j - j0] += r[j];
        }
        for (int j = j0; j < j1; ++j) counts(k0 + j) = acc[j - j0];
      });
}

/// shared_atomic's GPU kernel: privatised bins in shared memory, zeroed, counted with shared atomics,
/// merged with one global atomic a non-zero bin. A body of its own, apart from the host paths: a dead
/// host branch in the same lambda changed nvcc's shared-address arithmetic in the count loop (the
/// 65536-bin histogram lost 18 % on the H100, docs/performance.md).
template <class Bk, class ExecSpace, class Src, class CountsView>
SCRATCHKIT_KERNEL_LINKAGE
void histogram_shared_atomic_gpu(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head,
                                 const HistogramBins<histogram_compute_t<typename Src::value_type>>& hb,
                                 const CountsView& counts, const HistogramPlan& plan, const LaunchParams& p) {
  using C   = histogram_compute_t<typename Src::value_type>;
  using T   = typename Src::value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = Bk::threads;
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins, blocks = plan.blocks, chunk = plan.chunk_bins, copies = plan.copies;
  auto body = KOKKOS_LAMBDA(const B_t& b) {
    auto h       = DynamicSharedArray<std::uint32_t>::offset(b, 0, static_cast<std::size_t>(chunk) * copies);
    const int c  = b.block_idx().x / blocks;      // chunk of bins of this block
    const int bc = b.block_idx().x - c * blocks;  // block within the chunk
    const int k0 = c * chunk;
    const int kn = nb - k0 < chunk ? nb - k0 : chunk;
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn * copies; j += BS) h[j] = 0;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int copy = t.rank & (copies - 1);  // copies is a power of two
      histogram_stream<Bk>(src, n, head, bc, t.rank, blocks, [&](T x) {
        // -1 - k0 and bins of other chunks fail the unsigned test
        const int kc = histogram_bin<C>(static_cast<C>(x), lo, hi, scale, nb) - k0;
        if (static_cast<unsigned>(kc) < static_cast<unsigned>(kn)) scratchkit::atomic_inc(h[kc * copies + copy]);
      });
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn; j += BS) {
        std::uint32_t v = 0;
        for (int q = 0; q < copies; ++q) v += h[j * copies + q];
        if (v != 0) Kokkos::atomic_add(&counts(k0 + j), v);
      }
    });
  };
  constexpr int fallback = Bk::min_blocks / 2 > 1 ? Bk::min_blocks / 2 : 1;
  if (plan.shared_bytes <= histogram_shared_for_min_blocks(BS, Bk::min_blocks))
    launch<LaunchBounds<BS, Bk::min_blocks>, ScratchFallback::none>(exec, "scratchkit::histogram_shared_atomic", p, body);
  else
    launch<LaunchBounds<BS, fallback>, ScratchFallback::none>(exec, "scratchkit::histogram_shared_atomic", p, body);
}

/// shared_atomic on host backends: one member a block (histogram_shared_host), its bins in level-1
/// scratch where they are over level 0, merged through the workspace where blocks share bins.
template <class Bk, class ExecSpace, class Src, class CountsView>
SCRATCHKIT_KERNEL_LINKAGE
void histogram_shared_atomic_host(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head,
                                  const HistogramBins<histogram_compute_t<typename Src::value_type>>& hb,
                                  const CountsView& counts, const HistogramPlan& plan, const LaunchParams& p) {
  using C   = histogram_compute_t<typename Src::value_type>;
  using T   = typename Src::value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = Bk::threads;
  const C lo = hb.lo, hi = hb.hi, scale = hb.scale;
  const int nb = hb.bins, blocks = plan.blocks, chunk = plan.chunk_bins, copies = plan.copies;
  // histogram_host_workspace: block r's bins go to row r (chunk counters) of the workspace,
  // held until the merge is done; the blocks find their rows themselves (histogram_row).
  using Space = typename ExecSpace::memory_space;
  std::unique_lock<std::mutex> held;
  std::uint32_t* ws = nullptr;
  if (histogram_host_workspace(nb, blocks, chunk)) {
    held = std::unique_lock<std::mutex>(Workspace<Space>::mutex());
    ws   = reinterpret_cast<std::uint32_t*>(
        Workspace<Space>::get(static_cast<std::size_t>(blocks) * plan.chunks * chunk * sizeof(std::uint32_t)));
  }
  auto body = KOKKOS_LAMBDA(const B_t& b) {
    auto h       = DynamicSharedArray<std::uint32_t>::offset(b, 0, static_cast<std::size_t>(chunk) * copies);
    const int c  = b.block_idx().x / blocks;      // chunk of bins of this block
    const int bc = b.block_idx().x - c * blocks;  // block within the chunk
    const int k0 = c * chunk;
    const int kn = nb - k0 < chunk ? nb - k0 : chunk;
    if (host_direct(b)) {
      histogram_shared_host<Bk, B_t>(h.data(), src, n, head, bc, blocks, hb, k0, kn, copies, counts,
                                     histogram_row<ExecSpace>(b.block_idx().x, nb, blocks, chunk));
      return;
    }
    // Several members a block, or under the checker: the per-thread phases of the GPU kernel.
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn * copies; j += BS) h[j] = 0;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int copy = t.rank & (copies - 1);  // copies is a power of two
      histogram_stream<Bk>(src, n, head, bc, t.rank, blocks, [&](T x) {
        const int kc = histogram_bin<C>(static_cast<C>(x), lo, hi, scale, nb) - k0;
        if (static_cast<unsigned>(kc) < static_cast<unsigned>(kn)) scratchkit::atomic_inc(h[kc * copies + copy]);
      });
    });
    sync_threads(b);
    std::uint32_t* const row = histogram_row<ExecSpace>(b.block_idx().x, nb, blocks, chunk);
    b.threads([&](const Thread& t) {
      for (int j = t.rank; j < kn; j += BS) {
        std::uint32_t v = 0;
        for (int q = 0; q < copies; ++q) v += h[j * copies + q];
        if (row != nullptr)
          row[j] = v;
        else if (v != 0)
          Kokkos::atomic_add(&counts(k0 + j), v);
      }
    });
  };
  constexpr int fallback = Bk::min_blocks / 2 > 1 ? Bk::min_blocks / 2 : 1;
  if (plan.shared_bytes <= histogram_shared_for_min_blocks(BS, Bk::min_blocks))
    launch<LaunchBounds<BS, Bk::min_blocks>, ScratchFallback::level1>(exec, "scratchkit::histogram_shared_atomic", p,
                                                                       body);
  else
    launch<LaunchBounds<BS, fallback>, ScratchFallback::level1>(exec, "scratchkit::histogram_shared_atomic", p, body);
  if (ws != nullptr) {
    histogram_host_merge(exec, ws, blocks, chunk, nb, counts);
    exec.fence();  // the workspace is free again (no label: Kokkos 3.4 has none)
  }
}

template <class Bk, class ExecSpace, class Src, class CountsView>
SCRATCHKIT_KERNEL_LINKAGE
void histogram_shared_atomic(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head,
                             const HistogramBins<histogram_compute_t<typename Src::value_type>>& hb,
                             const CountsView& counts, const HistogramPlan& plan) {
  const auto p = LaunchParams(Dim3(plan.blocks * plan.chunks), Dim3(Bk::threads))
                     .shared_mem_bytes(plan.shared_bytes)
                     .fallback(kernel_fallback<ExecSpace>)  // host: the bins of a chunk may be over level 0
                     .host_team_size(1);
  if constexpr (is_gpu_space<ExecSpace>::value)
    histogram_shared_atomic_gpu<Bk>(exec, src, n, head, hb, counts, plan, p);
  else
    histogram_shared_atomic_host<Bk>(exec, src, n, head, hb, counts, plan, p);
}

/// The source the shared_atomic kernel of Bk streams: a contiguous View
/// through Bk's load hint (HistogramPtrSource, as the native twin), a strided
/// one element by element.
template <class Bk, class T>
HistogramPtrSource<T, Bk::load> histogram_source(const ContiguousSource<T>& s) {
  return HistogramPtrSource<T, Bk::load>{s.p};
}
template <class Bk, class View>
const StridedSource<View>& histogram_source(const StridedSource<View>& s) {
  return s;
}

/// Zeroes counts and counts values into it on the layer with `plan`.
template <class ExecSpace, class ValuesView, class CountsView>
void histogram_layer_run(const ExecSpace& exec, HistogramVariant variant, const ValuesView& values,
                         const HistogramBins<histogram_compute_t<typename ValuesView::non_const_value_type>>& hb,
                         const CountsView& counts, const HistogramPlan& plan) {
  const std::size_t n = values.extent(0);
  Kokkos::deep_copy(exec, counts, std::uint32_t(0));
  if (n == 0) return;
  with_source(values, [&](const auto& src, std::size_t head) {
    if (variant == HistogramVariant::global_atomic)
      histogram_global_atomic(exec, src, n, head, hb, counts, plan);
    else if (plan.small)
      histogram_shared_atomic<HistogramDefaultBlocking>(exec, histogram_source<HistogramDefaultBlocking>(src), n,
                                                        head, hb, counts, plan);
    else
      histogram_shared_atomic<HistogramLargeBlocking>(exec, histogram_source<HistogramLargeBlocking>(src), n, head,
                                                      hb, counts, plan);
  });
}

/// histogram's entry point (detail/eti.hpp): the Views mapped by histogram() onto row-major ones,
/// the bins checked there (hb, of the caller's lo and hi). The native branch is here, compiled once
/// in the library's unit; the layer's plan is made before any launch (it may throw).
template <class ExecSpace, class ValuesView, class CountsView>
void histogram_run(const ExecSpace& exec, HistogramVariant variant, const ValuesView& values, double lo, double hi,
                   const HistogramBins<histogram_compute_t<typename ValuesView::non_const_value_type>>& hb,
                   const CountsView& counts, Backend backend) {
  const std::size_t n = values.extent(0);
  if (backend == Backend::native)
    return native_run(exec, "histogram", {"values", "counts"}, [&](auto stream) {
      // The layer's plan on exec, so that both twins launch the same blocks (detail::histogram_plan).
      if (variant == HistogramVariant::global_atomic || variant == HistogramVariant::shared_atomic)
        native::cuda::detail::histogram(variant, values.data(), n, lo, hi, counts.data(), hb.bins, stream,
                                        histogram_layer_plan(exec, variant, n, hb.bins));
      else
        native::cuda::histogram(variant, values.data(), n, lo, hi, counts.data(), hb.bins, stream);
    }, values, counts);
  if (variant != HistogramVariant::global_atomic && variant != HistogramVariant::shared_atomic)
    throw UnsupportedError(std::string("scratchkit::histogram: variant ") + name(variant) +
                           " is not implemented on the layer");
  histogram_layer_run(exec, variant, values, hb, counts, histogram_layer_plan(exec, variant, n, hb.bins));
}

}  // namespace detail
}  // namespace scratchkit

/// histogram's entry point for execution space E, value type T, layout L (detail/eti.hpp), and its
/// layer run with a given plan (tests/test_histogram_plan.cpp calls it).
#define SCRATCHKIT_ETI_HISTOGRAM(PREFIX, E, T, L)                                                                  \
  PREFIX template void scratchkit::detail::histogram_run<E, scratchkit::detail::EtiView<const T, 1, L, E>,        \
                                                         scratchkit::detail::EtiView<std::uint32_t, 1, L, E>>(     \
      const E&, scratchkit::HistogramVariant, const scratchkit::detail::EtiView<const T, 1, L, E>&, double, double, \
      const scratchkit::detail::HistogramBins<scratchkit::detail::histogram_compute_t<T>>&,                        \
      const scratchkit::detail::EtiView<std::uint32_t, 1, L, E>&, scratchkit::Backend);                            \
  PREFIX template void scratchkit::detail::histogram_layer_run<E, scratchkit::detail::EtiView<const T, 1, L, E>,  \
                                                               scratchkit::detail::EtiView<std::uint32_t, 1, L, E>>( \
      const E&, scratchkit::HistogramVariant, const scratchkit::detail::EtiView<const T, 1, L, E>&,                \
      const scratchkit::detail::HistogramBins<scratchkit::detail::histogram_compute_t<T>>&,                        \
      const scratchkit::detail::EtiView<std::uint32_t, 1, L, E>&, const scratchkit::detail::HistogramPlan&);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_HISTOGRAM_EXTERN(E, T, L) SCRATCHKIT_ETI_HISTOGRAM(extern, E, T, L)
#define SCRATCHKIT_ETI_HISTOGRAM_SPACE(E)                              \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_HISTOGRAM_EXTERN, E, float)   \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_HISTOGRAM_EXTERN, E, double)  \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_HISTOGRAM_EXTERN, E, std::int32_t)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_HISTOGRAM_SPACE)
#undef SCRATCHKIT_ETI_HISTOGRAM_SPACE
#undef SCRATCHKIT_ETI_HISTOGRAM_EXTERN
#endif
