// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-histogram-tune: times candidate blockings of the native shared_atomic
// histogram (src/cuda/histogram_shared.cuh, the library's kernel) against CUB
// DeviceHistogram::HistogramEven in the same run, float values uniform in [-1, 1),
// bins over [-1, 1), to pick HistogramDefaultBlocking (include/scratchkit/tuning/histogram.hpp).
//
//   scratchkit-histogram-tune [log2 n]     (default: 28, as scratchkit-bench --full)
//
// Timing as scratchkit-bench: device time between two events with the stream held
// by a spinning kernel while the host enqueues (no launch latency in the figure);
// each run is what the library does: cudaMemsetAsync of counts, then the kernel
// (CUB: its two HistogramEven calls, temp storage allocated once beforehand, as the
// bench's vendor row). Candidates are timed in interleaved rounds (round r runs every
// candidate once), median over the rounds, after 3 warm-up rounds: clock drift
// hits all rows alike. After timing, every candidate runs once more on counts
// poisoned with 0xFFFFFFFF and its counts must equal a reference exactly ("wrong").
//
// One line per candidate: ms, GB/s (values read once), "xCUB" = CUB ms / ms
// (> 1: faster than CUB), registers, spill bytes, blocks resident per SM
// (occupancy API), the grid, the wrong count. Config "tT uU bB cC load split|stride
// [gG]": T threads, U 16-byte loads per step, launch bound B blocks per SM (the grid
// takes at most G per SM, G = B unless given), C sub-histograms at 256 bins, load hint.
// '*' marks the library's blocking for that bin count (default / large).
// "kernel only" rows: the default without the memset (counts zeroed untimed), the
// size of the prize for zeroing inside the kernel.
// Environment: SCRATCHKIT_TUNE_OFFSET=B  values B bytes past cudaMalloc's alignment
//   (default 128: where a Kokkos View's data starts, as in scratchkit-bench);
//   SCRATCHKIT_TUNE_ROUNDS=R  timed rounds (default 41).
#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/native/histogram.hpp>

#include "histogram_shared.cuh"
#define SCRATCHKIT_TUNE_NAME "histogram_tune"
#include "../hold_stream.cuh"
#include "tune_common.cuh"

#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace sk  = scratchkit::detail;
namespace skn = scratchkit::native::cuda::detail;
using sk::HistogramBlocking;
using sk::HistogramLoad;
using HL = HistogramLoad;

constexpr double lo = -1.0, hi = 1.0;

/// Reference: one global atomic per value, the library's binning.
template <class C>
__global__ void reference_kernel(const float* x, long long n, C l, C h, C scale, int nb, unsigned* counts) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int k = skn::histogram_bin_of<C>(static_cast<C>(x[i]), l, h, scale, nb);
    if (k >= 0) atomicAdd(&counts[k], 1u);
  }
}

const char* load_name(HL l) {
  switch (l) {
    case HL::nc: return "nc";
    case HL::no_allocate: return "noalloc";
    case HL::l2_256: return "L2:256B";
    case HL::no_allocate_256: return "noalloc+256B";
    case HL::evict_first: return "evict1st";
  }
  return "?";
}

struct Candidate {
  std::string name;
  std::function<void(cudaStream_t)> prepare;  ///< untimed, before the hold
  std::function<void(cudaStream_t)> run;      ///< timed
  int regs = -1, spill = 0, occ = 0;
  long long grid = 0;
  bool is_cub = false;
  std::vector<double> t;
};

struct Problem {
  long long n;
  int bins;
  float* x         = nullptr;
  char* alloc      = nullptr;
  std::size_t off  = 128;
  unsigned* counts = nullptr;
  void* cub_temp   = nullptr;
  std::size_t cub_bytes = 0;
  std::vector<unsigned> ref;
  sk::HistogramBins<float> hb;
  sk::HistogramDevice dev;
  std::size_t head = 0;

  Problem(long long n_, int bins_, float* data, std::size_t off_) : n(n_), bins(bins_), x(data), off(off_) {
    hb = sk::histogram_bins<float>(lo, hi, static_cast<std::size_t>(bins), "histogram_tune");
    TUNE_CUDA(cudaMalloc(&counts, static_cast<std::size_t>(bins) * sizeof(unsigned)));
    TUNE_CUDA(cudaMemset(counts, 0, static_cast<std::size_t>(bins) * sizeof(unsigned)));
    reference_kernel<float><<<1056, 256>>>(x, n, hb.lo, hb.hi, hb.scale, bins, counts);
    TUNE_CUDA(cudaGetLastError());
    ref.resize(static_cast<std::size_t>(bins));
    TUNE_CUDA(cudaMemcpy(ref.data(), counts, ref.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    TUNE_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, cub_bytes, x, counts, bins + 1, static_cast<float>(lo),
                                                  static_cast<float>(hi), n));
    TUNE_CUDA(cudaMalloc(&cub_temp, cub_bytes));
    int d = 0, sms = 0, tps = 0, spsm = 0, spb = 0;
    TUNE_CUDA(cudaGetDevice(&d));
    TUNE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d));
    TUNE_CUDA(cudaDeviceGetAttribute(&tps, cudaDevAttrMaxThreadsPerMultiProcessor, d));
    TUNE_CUDA(cudaDeviceGetAttribute(&spsm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, d));
    TUNE_CUDA(cudaDeviceGetAttribute(&spb, cudaDevAttrMaxSharedMemoryPerBlock, d));
    dev.sms             = sms;
    dev.threads_per_sm  = tps;
    dev.fill_blocks     = static_cast<long long>(sms) * (tps / 256);
    dev.shared_per_sm   = static_cast<std::size_t>(spsm);
    dev.max_block_bytes = sk::histogram_native_shared_max(static_cast<std::size_t>(spb));  // the library's limit
    head                = sk::head_to_16(x, static_cast<std::size_t>(n));
  }
  ~Problem() {
    cudaFree(counts);
    cudaFree(cub_temp);
  }
  void zero(cudaStream_t s) const {
    TUNE_CUDA(cudaMemsetAsync(counts, 0, static_cast<std::size_t>(bins) * sizeof(unsigned), s));
  }
  long long wrong() const {
    std::vector<unsigned> h(static_cast<std::size_t>(bins));
    TUNE_CUDA(cudaMemcpy(h.data(), counts, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    long long w = 0;
    for (std::size_t k = 0; k < h.size(); ++k) w += h[k] != ref[k];
    return w;
  }
};

/// Blocking Bk with grid cap `bps` blocks per SM (0: Bk::min_blocks); kernel_only: no memset in the timed run.
template <class Bk>
Candidate make(const Problem& p, int bps = 0, bool kernel_only = false, const char* note = "") {
  using Def = sk::HistogramDefaultBlocking;
  using Lg  = sk::HistogramLargeBlocking;
  sk::HistogramShape shape = sk::histogram_shape<Bk>();
  if (bps > 0) shape.blocks_per_sm = bps;
  const auto plan = sk::histogram_plan(scratchkit::HistogramVariant::shared_atomic, static_cast<std::size_t>(p.n),
                                       p.bins, p.dev, shape);
  const bool lib = (p.bins <= sk::histogram_small_bins ? std::is_same<Bk, Def>::value : std::is_same<Bk, Lg>::value) &&
                   bps == 0 && !kernel_only;
  char name[160];
  std::snprintf(name, sizeof name, "%st%d u%d b%d c%d %s %s", lib ? "*" : " ", Bk::threads, Bk::loads,
                Bk::min_blocks, Bk::copies, load_name(Bk::load), Bk::split ? "split" : "stride");
  std::string nm = name;
  if (bps > 0) nm += " g" + std::to_string(bps);
  if (kernel_only) nm += " kernel only";
  nm += note;
  Candidate c;
  c.name = nm;
  auto kernel = skn::histogram_shared_kernel<float, float, Bk>;
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  c.regs  = fa.numRegs;
  c.spill = static_cast<int>(fa.localSizeBytes);
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&c.occ, kernel, Bk::threads, plan.shared_bytes));
  c.grid = static_cast<long long>(plan.blocks) * plan.chunks;
  const Problem* pp = &p;
  if (kernel_only) {
    c.prepare = [pp](cudaStream_t s) { pp->zero(s); };
    c.run     = [pp, plan](cudaStream_t s) {
      skn::launch_histogram_shared<float, Bk>(pp->x, static_cast<std::size_t>(pp->n), pp->head, pp->hb, plan,
                                              pp->counts, s);
    };
  } else {
    c.prepare = [](cudaStream_t) {};
    c.run     = [pp, plan](cudaStream_t s) {
      pp->zero(s);
      skn::launch_histogram_shared<float, Bk>(pp->x, static_cast<std::size_t>(pp->n), pp->head, pp->hb, plan,
                                              pp->counts, s);
    };
  }
  return c;
}

Candidate make_cub(const Problem& p) {
  Candidate c;
  c.name   = " cub::DeviceHistogram::HistogramEven";
  c.is_cub = true;
  const Problem* pp = &p;
  c.prepare = [](cudaStream_t) {};
  c.run     = [pp](cudaStream_t s) {  // as the bench's vendor row: size query, then the call
    std::size_t bytes = 0;
    TUNE_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, bytes, pp->x, pp->counts, pp->bins + 1,
                                                  static_cast<float>(lo), static_cast<float>(hi), pp->n, s));
    TUNE_CUDA(cub::DeviceHistogram::HistogramEven(pp->cub_temp, bytes, pp->x, pp->counts, pp->bins + 1,
                                                  static_cast<float>(lo), static_cast<float>(hi), pp->n, s));
  };
  return c;
}

void time_all(const Problem& p, std::vector<Candidate>& cs, int rounds) {
  cudaStream_t s;
  TUNE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  TUNE_CUDA(cudaEventCreate(&a));
  TUNE_CUDA(cudaEventCreate(&b));
  constexpr int warmups = 3;
  for (int r = 0; r < warmups + rounds; ++r)
    for (auto& c : cs) {
      c.prepare(s);
      scratchkit::perf::hold_stream<<<1, 1, 0, s>>>(300000);  // 300 us: far above the enqueue time of either call
      TUNE_CUDA(cudaGetLastError());
      TUNE_CUDA(cudaEventRecord(a, s));
      c.run(s);
      TUNE_CUDA(cudaEventRecord(b, s));
      TUNE_CUDA(cudaEventSynchronize(b));
      float ms = 0;
      TUNE_CUDA(cudaEventElapsedTime(&ms, a, b));
      if (r >= warmups) c.t.push_back(ms);
    }
  TUNE_CUDA(cudaEventDestroy(a));
  TUNE_CUDA(cudaEventDestroy(b));
  TUNE_CUDA(cudaStreamSynchronize(s));
  double cub_ms = 0;
  for (auto& c : cs) {
    std::sort(c.t.begin(), c.t.end());
    if (c.is_cub) cub_ms = c.t[c.t.size() / 2];
  }
  for (auto& c : cs) {
    const double ms = c.t[c.t.size() / 2];
    // Check: the same call on poisoned counts (kernel-only rows: their untimed zeroing first).
    TUNE_CUDA(cudaMemsetAsync(p.counts, 0xff, static_cast<std::size_t>(p.bins) * sizeof(unsigned), s));
    c.prepare(s);
    c.run(s);
    TUNE_CUDA(cudaStreamSynchronize(s));
    // CUB bins with its own arithmetic: values within an ulp of a bin edge may differ; report, not fail.
    const long long w = p.wrong();
    std::printf("%5d bins  %-44s %8.4f ms %7.1f GB/s  %6.4f xCUB  (q1 %7.4f q3 %7.4f)", p.bins, c.name.c_str(), ms,
                static_cast<double>(p.n) * sizeof(float) / (ms * 1e6), cub_ms / ms, c.t[c.t.size() / 4],
                c.t[3 * c.t.size() / 4]);
    if (c.regs >= 0)
      std::printf("  regs %3d spill %3d B  %2d blk/SM  grid %5lld", c.regs, c.spill, c.occ, c.grid);
    std::printf("  wrong %lld%s\n", w, c.is_cub ? " (CUB: edge values may bin apart)" : "");
    std::fflush(stdout);
  }
  TUNE_CUDA(cudaStreamDestroy(s));
}

}  // namespace

int main(int argc, char** argv) {
  if (::scratchkit::tune::wants_help(argc, argv, "[log2 n]  (default 28; SCRATCHKIT_TUNE_OFFSET, SCRATCHKIT_TUNE_ROUNDS)")) return 0;
  const int lg          = argc > 1 ? std::atoi(argv[1]) : 28;
  const long long n     = 1LL << lg;
  const char* off_env   = std::getenv("SCRATCHKIT_TUNE_OFFSET");
  const char* round_env = std::getenv("SCRATCHKIT_TUNE_ROUNDS");
  const std::size_t off = off_env ? static_cast<std::size_t>(std::atol(off_env)) : 128;
  const int rounds      = round_env ? std::max(1, std::atoi(round_env)) : 41;
  cudaDeviceProp prop{};
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, CC %d.%d; n = 2^%d floats at +%zu B from cudaMalloc's alignment; median of %d "
              "interleaved rounds\n",
              prop.name, prop.multiProcessorCount, prop.major, prop.minor, lg, off, rounds);
  char* alloc = nullptr;
  TUNE_CUDA(cudaMalloc(&alloc, static_cast<std::size_t>(n) * sizeof(float) + off));
  float* x = reinterpret_cast<float*>(alloc + off);
  scratchkit::tune::fill_kernel<float><<<1024, 256>>>(x, n, 7u);
  TUNE_CUDA(cudaGetLastError());
  TUNE_CUDA(cudaDeviceSynchronize());
  {
    Problem p(n, 256, x, off);
    // Threads, loads, launch bound (blocks per SM), copies at 256 bins, load hint, split.
    std::vector<Candidate> cs = {
        make_cub(p),
        make<sk::HistogramDefaultBlocking>(p),
        make<HistogramBlocking<256, 2, 8, 8>>(p, 0, false, " (before 7f86b46)"),
        make<sk::HistogramDefaultBlocking>(p, 0, true),
        // grid: fewer blocks per SM than the bound
        make<HistogramBlocking<256, 2, 8, 8>>(p, 6),
        make<HistogramBlocking<256, 2, 8, 8>>(p, 4),
        // loads in flight
        make<HistogramBlocking<256, 1, 8, 8>>(p),
        make<HistogramBlocking<256, 4, 8, 8>>(p),
        make<HistogramBlocking<256, 4, 4, 8>>(p),
        make<HistogramBlocking<256, 8, 4, 8>>(p),
        make<HistogramBlocking<256, 8, 2, 8>>(p),
        // block size
        make<HistogramBlocking<128, 2, 16, 8>>(p),
        make<HistogramBlocking<128, 4, 16, 8>>(p),
        make<HistogramBlocking<512, 2, 4, 8>>(p),
        make<HistogramBlocking<512, 4, 4, 8>>(p),
        make<HistogramBlocking<512, 4, 2, 8>>(p),
        make<HistogramBlocking<512, 8, 2, 8>>(p),
        make<HistogramBlocking<1024, 1, 2, 8>>(p),
        make<HistogramBlocking<1024, 2, 2, 8>>(p),
        make<HistogramBlocking<1024, 4, 2, 8>>(p),
        make<HistogramBlocking<1024, 4, 1, 8>>(p),
        // sub-histograms
        make<HistogramBlocking<256, 2, 8, 1>>(p),
        make<HistogramBlocking<256, 2, 8, 2>>(p),
        make<HistogramBlocking<256, 2, 8, 4>>(p),
        make<HistogramBlocking<256, 2, 8, 16>>(p),
        make<HistogramBlocking<256, 2, 8, 32>>(p),
        make<HistogramBlocking<512, 4, 4, 16>>(p),
        make<HistogramBlocking<512, 4, 4, 32>>(p),
        make<HistogramBlocking<1024, 4, 2, 32>>(p),
        // load hints
        make<HistogramBlocking<256, 2, 8, 8, HL::no_allocate>>(p),
        make<HistogramBlocking<256, 2, 8, 8, HL::l2_256>>(p),
        make<HistogramBlocking<256, 2, 8, 8, HL::no_allocate_256>>(p),
        make<HistogramBlocking<256, 2, 8, 8, HL::evict_first>>(p),
        make<HistogramBlocking<512, 4, 4, 16, HL::no_allocate>>(p),
        make<HistogramBlocking<512, 4, 4, 16, HL::l2_256>>(p),
        // a876f6e: the two best rows of 7f86b46 combined (1024 or 512 threads with no-allocate loads)
        make<HistogramBlocking<1024, 2, 2, 8, HL::no_allocate>>(p),
        make<HistogramBlocking<512, 2, 4, 8, HL::no_allocate>>(p),
        make<HistogramBlocking<1024, 2, 2, 4, HL::no_allocate>>(p),
        make<HistogramBlocking<256, 2, 8, 2, HL::no_allocate>>(p),
        // balanced contiguous share per block (no block a step longer than another)
        make<HistogramBlocking<256, 2, 8, 8, HL::nc, true>>(p),
        make<HistogramBlocking<256, 4, 8, 8, HL::nc, true>>(p),
        make<HistogramBlocking<512, 4, 4, 16, HL::nc, true>>(p),
        make<HistogramBlocking<512, 4, 4, 16, HL::no_allocate, true>>(p),
        make<HistogramBlocking<256, 2, 8, 8, HL::l2_256, true>>(p),
        make<HistogramBlocking<1024, 4, 2, 32, HL::nc, true>>(p),
        make_cub(p),  // a second CUB row: how far two timings of one thing drift apart
    };
    cs.back().is_cub = false;
    cs.back().name   = " cub::DeviceHistogram::HistogramEven (again)";
    time_all(p, cs, rounds);
  }
  {
    Problem p(n, 65536, x, off);
    std::vector<Candidate> cs = {
        make_cub(p),
        make<sk::HistogramLargeBlocking>(p),
        make<HistogramBlocking<256, 2, 8, 1>>(p, 0, false, " (before 7f86b46)"),
        make<sk::HistogramLargeBlocking>(p, 0, true),
        make<HistogramBlocking<256, 4, 8, 1>>(p),
        make<HistogramBlocking<512, 2, 4, 1>>(p),
        make<HistogramBlocking<256, 2, 8, 1, HL::no_allocate>>(p),
        make<HistogramBlocking<256, 2, 8, 1, HL::nc, true>>(p),
        // what the default 256-bin blocking would do here (if it were used above histogram_small_bins)
        make<sk::HistogramDefaultBlocking>(p, 0, false, " (the small default)"),
    };
    time_all(p, cs, std::max(1, rounds / 4));
  }
  cudaFree(alloc);
  return 0;
}
