// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-bench: the comparison. Every kernel x variant x backend x type x
// size, with the vendor baselines (cuBLAS, CUB), Kokkos' own parallel_reduce
// and the copy ceiling, each row checked against the host reference, timed
// after a warm-up (the checked run) -- on CUDA by events with the stream held
// while the host enqueues (device time, launch latency excluded; --host-timer:
// host clock around fences instead), elsewhere by the host clock around
// fences -- the median of the repetitions reported through Google Benchmark (JSON with
// --benchmark_out=FILE --benchmark_out_format=json). perf/report.py turns the
// JSON into summary.csv, summary.md and plots.
//
// --sweep runs every kernel at sizes from small (2^10 elements, 32^3, 64^2,
// GEMM 128^3) up to the run's size, and a copy of every power of two, so that
// each row's ceiling is a copy of about its bytes.
//
//   scratchkit-bench [--full] [--sweep] [--reps N] [--only SUBSTR[,SUBSTR...]] [--skip SUBSTR[,...]] [--host-timer] [--ranks-out FILE] [--benchmark_* ...] [--kokkos-* ...]
//
// Built with SCRATCHKIT_ENABLE_MPI, it runs under mpiexec/srun with one rank
// per GPU: rank r uses GPU (node-local rank) % (GPUs on the node); every rank
// runs every case, in lockstep (a barrier before each timed repetition);
// rank 0 writes the Google Benchmark output for its own runs and gathers
// each case's per-rank medians into min/median/max with the slowest rank
// named (printed, and written to --ranks-out FILE as CSV).
#include "harness.hpp"
#include "kernel_cases.hpp"  // generated from cmake/kernels.txt (perf/CMakeLists.txt)
#include "measurement.hpp"

#include <scratchkit/native/cuda.hpp>
#include <scratchkit/version.hpp>

#include <benchmark/benchmark.h>

#ifdef SCRATCHKIT_BENCH_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(KOKKOS_ENABLE_CUDA)
#include "hold_stream.cuh"
#endif

namespace scratchkit {
namespace perf {

DataCache& data_cache() {
  static DataCache c;
  return c;
}

namespace {

std::size_t g_total = 0, g_done = 0, g_failed = 0;
int g_rank = 0, g_ranks = 1;
bool g_host_timer = false;  ///< --host-timer: host clock around fences on CUDA too (the method before eae5ca1)

void barrier() {
#ifdef SCRATCHKIT_BENCH_MPI
  MPI_Barrier(MPI_COMM_WORLD);
#endif
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Sample {
  double seconds    = 0;  ///< the run's time (device time on CUDA, see time_run)
  double enqueue_us = 0;  ///< host time inside c.run()
};

#if defined(KOKKOS_ENABLE_CUDA)
using scratchkit::perf::hold_stream;

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("scratchkit-bench: ") + what + ": " + cudaGetErrorString(e));
}
#endif

/// Times one run of c. On CUDA: device time between two events on the
/// execution space's stream, with the stream held busy (a spinning kernel)
/// while the host enqueues the run, so that the host's launch latency is not
/// counted (nvbench's method); a call that blocks the host longer than the
/// hold (a result copied back, an allocation) is reported on stderr, and its
/// sample does include the wait. Elsewhere: host clock around the run, with a
/// fence on each side.
Sample time_run(Case& c) {
  Sample r;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) if (!g_host_timer) {
    static cudaEvent_t ev[2] = {nullptr, nullptr};
    constexpr unsigned long long hold_ns = 500000;  // far above any API's enqueue time (tens of us)
    if (!ev[0]) {
      cuda_check(cudaEventCreate(&ev[0]), "cudaEventCreate");
      cuda_check(cudaEventCreate(&ev[1]), "cudaEventCreate");
    }
    Exec exec;
    cudaStream_t s = exec.cuda_stream();
    exec.fence();
    hold_stream<<<1, 1, 0, s>>>(hold_ns);
    cuda_check(cudaGetLastError(), "hold kernel");
    cuda_check(cudaEventRecord(ev[0], s), "cudaEventRecord");
    const auto h0 = std::chrono::steady_clock::now();
    c.run();
    r.enqueue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - h0).count();
    cuda_check(cudaEventRecord(ev[1], s), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(ev[1]), "cudaEventSynchronize");
    exec.fence();
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, ev[0], ev[1]), "cudaEventElapsedTime");
    r.seconds = ms * 1e-3;
    static std::set<std::string> noted;
    if (r.enqueue_us * 1e3 > 0.9 * hold_ns && noted.insert(c.name()).second) {
      std::fprintf(stderr, "note: %s blocks the host (%.0f us in the call): its time includes that wait\n",
                   c.name().c_str(), r.enqueue_us);
    }
    return r;
  }
#endif
  Exec().fence();
  const auto t0 = std::chrono::steady_clock::now();
  c.run();
  r.enqueue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  Exec().fence();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

void run_case(benchmark::State& state, Case* c) {
  barrier();  // ranks run each repetition of each case together
  if (c->status.empty()) {  // first repetition: prepare, warm up with the checked run
    ++g_done;
    try {
      c->prepare();
      c->run();
      Exec().fence();
      c->status = c->check() ? "PASSED" : "FAILED";
    } catch (const UnsupportedError& e) {
      c->status = "SKIPPED";
    } catch (const std::exception& e) {
      // A case that cannot run (a launch the backend refuses, ...) is a failure
      // of that row, reported with its reason; the rest of the run goes on.
      c->status = "FAILED";
      c->error  = e.what();
      std::fprintf(stderr, "%s: %s\n", c->name().c_str(), e.what());
    }
    if (c->status == "FAILED") ++g_failed;
    if (g_rank == 0 || c->status == "FAILED")
      std::fprintf(stderr, "[%zu/%zu]%s %-60s %s\n", g_done, g_total,
                   g_ranks > 1 ? (" rank " + std::to_string(g_rank)).c_str() : "", c->name().c_str(),
                   c->status.c_str());
  }
  if (c->status == "SKIPPED" || !c->error.empty()) {
    state.SkipWithError(c->error.empty() ? "not implemented for this variant/backend" : ("FAILED: " + c->error).c_str());
    for (auto _ : state) {
    }
    return;
  }
  std::vector<double> enqueue_us;
  for (auto _ : state) {
    const Sample t = time_run(*c);
    state.SetIterationTime(t.seconds);
    c->samples_ms.push_back(t.seconds * 1e3);
    enqueue_us.push_back(t.enqueue_us);
  }
  // Host time spent inside the API call (checks, launch): what a caller pays
  // per call besides the device time; a blocking call shows its whole duration.
  state.counters["enqueue_us"] = median(enqueue_us);
  state.counters["bytes"] = c->bytes;
  state.counters["flops"] = c->flops;
  state.SetLabel(c->status);
}

std::string g_ranks_out;

/// A reporter that prints nothing: ranks other than 0 run silently.
class SilentReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

/// Gathers every case's median time and status from all ranks to rank 0,
/// which prints min/median/max over ranks and names the slowest rank.
void gather_ranks(const std::vector<Case>& cases) {
#ifdef SCRATCHKIT_BENCH_MPI
  const int n = static_cast<int>(cases.size());
  std::vector<double> mine(n);
  std::vector<int> mine_status(n);
  for (int i = 0; i < n; ++i) {
    mine[i]        = median(cases[i].samples_ms);
    mine_status[i] = cases[i].status == "PASSED" ? 0 : cases[i].status == "SKIPPED" ? 2 : 1;
  }
  std::vector<double> all(g_rank == 0 ? static_cast<std::size_t>(n) * g_ranks : 0);
  std::vector<int> all_status(all.size());
  MPI_Gather(mine.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Gather(mine_status.data(), n, MPI_INT, all_status.data(), n, MPI_INT, 0, MPI_COMM_WORLD);
  if (g_rank != 0) return;
  FILE* csv = g_ranks_out.empty() ? nullptr : std::fopen(g_ranks_out.c_str(), "w");
  if (!g_ranks_out.empty() && !csv) std::fprintf(stderr, "scratchkit-bench: cannot write %s\n", g_ranks_out.c_str());
  if (csv) std::fprintf(csv, "kernel,variant,backend,type,layout,size,ranks,min_ms,median_ms,max_ms,slowest_rank,check\n");
  std::printf("\n# per-rank medians over %d ranks (ms)\n| case | min | median | max | slowest rank | check |\n"
              "|---|---:|---:|---:|---:|---|\n",
              g_ranks);
  for (int i = 0; i < n; ++i) {
    std::vector<double> t(g_ranks);
    int worst = 0, status = 0;
    for (int r = 0; r < g_ranks; ++r) {
      t[r] = all[static_cast<std::size_t>(r) * n + i];
      if (t[r] > t[worst]) worst = r;
      status = std::max(status, all_status[static_cast<std::size_t>(r) * n + i] == 1 ? 3 : all_status[static_cast<std::size_t>(r) * n + i]);
    }
    const char* check = status == 3 ? "FAILED" : status == 2 ? "SKIPPED" : "PASSED";
    const double lo = *std::min_element(t.begin(), t.end()), hi = *std::max_element(t.begin(), t.end());
    const double med = median(t);
    const Case& k = cases[i];
    std::printf("| %s | %.4f | %.4f | %.4f | %d | %s |\n", k.name().c_str(), lo, med, hi, worst, check);
    if (csv)
      std::fprintf(csv, "%s,%s,%s,%s,%s,%s,%d,%.6f,%.6f,%.6f,%d,%s\n", k.kernel.c_str(), k.variant.c_str(),
                   k.backend.c_str(), k.type.c_str(), k.layout.c_str(), k.size.c_str(), g_ranks, lo, med, hi, worst, check);
  }
  if (csv) std::fclose(csv);
#else
  (void)cases;
#endif
}

/// True when `name` contains any of the comma-separated substrings in `list`.
bool matches_any(const std::string& name, const std::string& list) {
  std::size_t b = 0;
  while (b <= list.size()) {
    std::size_t e = list.find(',', b);
    if (e == std::string::npos) e = list.size();
    if (e > b && name.find(list.substr(b, e - b)) != std::string::npos) return true;
    b = e + 1;
  }
  return false;
}

const char* const usage =
    "usage: scratchkit-bench [--full] [--sweep] [--reps N] [--only SUBSTR[,SUBSTR...]] [--skip SUBSTR[,...]]\n"
    "                        [--host-timer] [--ranks-out FILE] [--benchmark_out=FILE --benchmark_out_format=json]\n"
    "                        [other --benchmark_* options] [--kokkos-* options]\n"
    "\n"
    "Runs every kernel x variant x backend x type x layout x size case (names kernel/variant/backend/type/\n"
    "layout/size), each first run once and checked, then timed; prints one row per case and, with\n"
    "--benchmark_out, writes the JSON that perf/report.py (installed: scratchkit-report) turns into the\n"
    "comparison table with its ratios and speed targets.\n"
    "\n"
    "options:\n"
    "  --full             the comparison's large sizes (on a GPU: 2^28 values, GEMM 4096^3 and 8192^3;\n"
    "                     smaller on a CPU); without it, small sizes that run in seconds\n"
    "  --sweep            every kernel at sizes from 2^10 elements (32^3, 64^2, GEMM 128^3) up to the run's\n"
    "                     size, and a copy of every power of two (report.py: sweep.md)\n"
    "  --reps N           timed repetitions per case (default 10); the median is reported, and mean,\n"
    "                     stddev and cv (stddev / mean) beside it\n"
    "  --only LIST        run only the cases whose name contains one of the comma-separated substrings\n"
    "                     (e.g. --only histogram/shared_atomic). The copy rows are cases too: leave them\n"
    "                     out and report.py has no copy bandwidth, so no % of ceiling and no plots\n"
    "                     (add ',copy/' to keep them)\n"
    "  --skip LIST        leave out the cases whose name contains one of the substrings (after --only)\n"
    "  --host-timer       CUDA: time with the host clock around fences (launch latency included) instead\n"
    "                     of CUDA events with the stream held while the host enqueues (device time)\n"
    "  --ranks-out FILE   MPI builds: write each case's per-rank medians (min/median/max, slowest rank) as CSV\n"
    "  --benchmark_out=FILE --benchmark_out_format=json\n"
    "                     Google Benchmark's JSON output (any other --benchmark_* option is passed to it)\n"
    "  --kokkos-*         Kokkos' own options (e.g. --kokkos-num-threads=N, --kokkos-device-id=N;\n"
    "                     --kokkos-help lists them)\n"
    "  -h, --help         this text\n"
    "\n"
    "output: the label of each row is its check, a correctness test, not a speed target:\n"
    "  PASSED   the warm-up run's output matched the host reference (reference/): exactly for integer\n"
    "           results, within a rounding-error bound of the summation depth for floating point\n"
    "  FAILED   it did not match, or the case threw (its reason is printed); the exit status is then 1\n"
    "  SKIPPED  this variant/backend/type does not exist here (no CUDA twin without a GPU, ...)\n"
    "Times are per call (device time on CUDA), the median of --reps runs. Speed ratios and the targets\n"
    "(met / MISSED) are report.py's: see `perf/report.py --help`.\n"
    "\n"
    "environment (measurement knobs, perf/measurement.hpp): SCRATCHKIT_TEAM_LOOP_ORDER, SCRATCHKIT_TEAM_LOOP_SCRATCH,\n"
    "SCRATCHKIT_REDUCE_BLOCKS_PER_TEAM, SCRATCHKIT_STENCIL1D_BLOCKS_PER_TEAM, SCRATCHKIT_TILE_BLOCKS_PER_TEAM,\n"
    "SCRATCHKIT_HOST_TEAM_SIZE, SCRATCHKIT_CUDA_TEAM_SPACE, SCRATCHKIT_HOST_THREADS_LOOP, SCRATCHKIT_HOST_LOOPS,\n"
    "SCRATCHKIT_BENCH_STENCIL3D_SHAPES; OPENBLAS_NUM_THREADS for the host BLAS rows.\n";

Config parse(int& argc, char** argv) {
  Config c;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--full") {
      c.full = true;
    } else if (a == "--sweep") {
      c.sweep = true;
    } else if (a == "--reps" && i + 1 < argc) {
      c.repetitions = std::atoi(argv[++i]);
      if (c.repetitions < 1) {
        std::fprintf(stderr, "scratchkit-bench: --reps needs a positive count\n");
        std::exit(2);
      }
    } else if (a == "--only" && i + 1 < argc) {
      c.only = argv[++i];
    } else if (a == "--skip" && i + 1 < argc) {
      c.skip = argv[++i];
    } else if (a == "--ranks-out" && i + 1 < argc) {
      g_ranks_out = argv[++i];
    } else if (a == "--host-timer") {
      g_host_timer = true;
    } else if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (a.rfind("--kokkos-", 0) != 0) {
      argv[out++] = argv[i];  // left for Google Benchmark
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
  install_measurement_hook_from_environment();
  std::vector<char*> args(argv, argv + argc);
  std::string device_arg;
  // --help answers before MPI and Kokkos start: it must work outside mpiexec and without a
  // network, and Kokkos would print its own options' help first.
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) parse(argc, argv);
#ifdef SCRATCHKIT_BENCH_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_ranks);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
  int local_rank = 0;
  MPI_Comm_rank(node, &local_rank);
  MPI_Comm_free(&node);
#if SCRATCHKIT_HAS_NATIVE_CUDA
  // One rank per GPU: bind by node-local rank.
  if (const int ngpu = scratchkit::native::cuda::device_count(); ngpu > 0)
    device_arg = "--kokkos-device-id=" + std::to_string(local_rank % ngpu);
#endif
  args.assign(argv, argv + argc);
  if (g_rank != 0)  // only rank 0 writes the Google Benchmark file
    args.erase(std::remove_if(args.begin(), args.end(),
                              [](char* a) { return std::strncmp(a, "--benchmark_out", 15) == 0; }),
               args.end());
#endif
  if (!device_arg.empty()) args.push_back(device_arg.data());
  argc = static_cast<int>(args.size());
  args.push_back(nullptr);
  argv = args.data();
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
#ifdef SCRATCHKIT_BENCH_MPI
      MPI_Finalize();
#endif
      return 2;
    }
    benchmark::AddCustomContext("scratchkit", scratchkit::build_summary());
#if SCRATCHKIT_HAS_NATIVE_CUDA
    benchmark::AddCustomContext("device", scratchkit::native::cuda::device_description());
#endif
    benchmark::AddCustomContext("sizes", std::string(c.full ? "full" : "small") + (c.sweep ? ", swept from 2^10" : ""));
    benchmark::AddCustomContext("repetitions", std::to_string(c.repetitions));
    benchmark::AddCustomContext("ranks", std::to_string(g_ranks));
#if defined(SCRATCHKIT_BENCH_MPI) && SCRATCHKIT_HAS_NATIVE_CUDA
    {  // every rank's binding, printed by rank 0
      char host[MPI_MAX_PROCESSOR_NAME] = {0};
      int len = 0;
      MPI_Get_processor_name(host, &len);
      std::string mine = std::string(host) + ": " + scratchkit::native::cuda::device_description();
      mine.resize(255, ' ');
      std::vector<char> all(g_rank == 0 ? 256 * g_ranks : 1);
      MPI_Gather(mine.c_str(), 256, MPI_CHAR, all.data(), 256, MPI_CHAR, 0, MPI_COMM_WORLD);
      if (g_rank == 0)
        for (int r = 0; r < g_ranks; ++r) {
          std::string line(&all[256 * r], 255);
          line.erase(line.find_last_not_of(' ') + 1);
          std::fprintf(stderr, "# rank %d on %s\n", r, line.c_str());
          benchmark::AddCustomContext("rank" + std::to_string(r), line);
        }
    }
#endif

    std::vector<Case> cases;
    add_copy_cases(c, cases);
    add_kernel_cases(c, cases);  // every kernel of cmake/kernels.txt (kernel_cases.hpp)
    add_user_cases(c, cases);
    add_rajaperf_cases(c, cases);
    std::vector<Case> selected;
    for (auto& k : cases)
      if ((c.only.empty() || matches_any(k.name(), c.only)) && (c.skip.empty() || !matches_any(k.name(), c.skip)))
        selected.push_back(k);
    g_total = selected.size();
    if (g_rank == 0)
      std::fprintf(stderr, "# %s\n# %zu cases, median of %d after a checked warm-up run; native rows: %s; ranks: %d\n",
                   scratchkit::build_summary().c_str(), g_total, c.repetitions, c.native ? "yes" : "no", g_ranks);
    for (auto& k : selected)
      benchmark::RegisterBenchmark(k.name().c_str(), run_case, &k)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1)
          ->Repetitions(c.repetitions)
          ->ReportAggregatesOnly(true);
    if (g_rank == 0) {
      benchmark::RunSpecifiedBenchmarks();
    } else {
      SilentReporter silent;
      benchmark::RunSpecifiedBenchmarks(&silent);
    }
    benchmark::Shutdown();
    data_cache().clear();
    gather_ranks(selected);
    unsigned long failed = g_failed;
#ifdef SCRATCHKIT_BENCH_MPI
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
#endif
    if (g_rank == 0)
      std::fprintf(stderr, "# %zu cases on %d rank(s), %lu failed the cross-check\n", g_total, g_ranks, failed);
    rc = failed ? 1 : 0;
  }
  Kokkos::finalize();
#ifdef SCRATCHKIT_BENCH_MPI
  MPI_Finalize();
#endif
  return rc;
}
