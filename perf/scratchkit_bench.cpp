// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-bench: the comparison. Every kernel x variant x backend x type x
// size, with the vendor baselines (cuBLAS, CUB), Kokkos' own parallel_reduce
// and the copy ceiling, each row checked against the host reference, timed
// with fences around every run after a warm-up (the checked run), the median
// of the repetitions reported through Google Benchmark (JSON with
// --benchmark_out=FILE --benchmark_out_format=json). perf/report.py turns the
// JSON into summary.csv, summary.md and plots.
//
//   scratchkit-bench [--full] [--reps N] [--only SUBSTRING] [--benchmark_* ...] [--kokkos-* ...]
#include "harness.hpp"

#include <scratchkit/native/cuda.hpp>
#include <scratchkit/version.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace scratchkit {
namespace perf {

DataCache& data_cache() {
  static DataCache c;
  return c;
}

namespace {

std::size_t g_total = 0, g_done = 0, g_failed = 0;

void run_case(benchmark::State& state, Case* c) {
  if (c->status.empty()) {  // first repetition: prepare, warm up with the checked run
    ++g_done;
    try {
      c->prepare();
      c->run();
      Exec().fence();
      c->status = c->check() ? "PASSED" : "FAILED";
    } catch (const UnsupportedError& e) {
      c->status = "SKIPPED";
    }
    if (c->status == "FAILED") ++g_failed;
    std::fprintf(stderr, "[%zu/%zu] %-60s %s\n", g_done, g_total, c->name().c_str(), c->status.c_str());
  }
  if (c->status == "SKIPPED") {
    state.SkipWithError("not implemented for this variant/backend");
    for (auto _ : state) {
    }
    return;
  }
  for (auto _ : state) {
    Exec().fence();
    const auto t0 = std::chrono::steady_clock::now();
    c->run();
    Exec().fence();
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  state.counters["bytes"] = c->bytes;
  state.counters["flops"] = c->flops;
  state.SetLabel(c->status);
}

Config parse(int& argc, char** argv) {
  Config c;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--full") {
      c.full = true;
    } else if (a == "--reps" && i + 1 < argc) {
      c.repetitions = std::atoi(argv[++i]);
      if (c.repetitions < 1) {
        std::fprintf(stderr, "scratchkit-bench: --reps needs a positive count\n");
        std::exit(2);
      }
    } else if (a == "--only" && i + 1 < argc) {
      c.only = argv[++i];
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: scratchkit-bench [--full] [--reps N] [--only SUBSTRING] [--benchmark_out=FILE "
                  "--benchmark_out_format=json] [Google Benchmark and Kokkos options]\n");
      std::exit(0);
    } else {
      argv[out++] = argv[i];  // left for Google Benchmark and Kokkos
    }
  }
  argc = out;
  return c;
}

}  // namespace
}  // namespace perf
}  // namespace scratchkit

int main(int argc, char** argv) {
  using namespace scratchkit::perf;
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    Config c = parse(argc, argv);
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
    c.native = scratchkit::native::cuda::device_available();
    c.vendor = c.native;
#endif
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
      Kokkos::finalize();
      return 2;
    }
    benchmark::AddCustomContext("scratchkit", scratchkit::build_summary());
#if SCRATCHKIT_HAS_NATIVE_CUDA
    benchmark::AddCustomContext("device", scratchkit::native::cuda::device_description());
#endif
    benchmark::AddCustomContext("sizes", c.full ? "full" : "small");
    benchmark::AddCustomContext("repetitions", std::to_string(c.repetitions));

    std::vector<Case> cases;
    add_copy_cases(c, cases);
    add_gemm_cases(c, cases);
    add_reduce_cases(c, cases);
    add_stencil_1d_cases(c, cases);
    add_stencil_3d_cases(c, cases);
    add_transpose_cases(c, cases);
    add_histogram_cases(c, cases);
    std::vector<Case> selected;
    for (auto& k : cases)
      if (c.only.empty() || k.name().find(c.only) != std::string::npos) selected.push_back(k);
    g_total = selected.size();
    std::fprintf(stderr, "# %s\n# %zu cases, median of %d after a checked warm-up run; native rows: %s\n",
                 scratchkit::build_summary().c_str(), g_total, c.repetitions, c.native ? "yes" : "no");
    for (auto& k : selected)
      benchmark::RegisterBenchmark(k.name().c_str(), run_case, &k)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1)
          ->Repetitions(c.repetitions)
          ->ReportAggregatesOnly(true);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    data_cache().clear();
    std::fprintf(stderr, "# %zu cases, %zu failed the cross-check\n", g_total, g_failed);
    rc = g_failed ? 1 : 0;
  }
  Kokkos::finalize();
  return rc;
}
