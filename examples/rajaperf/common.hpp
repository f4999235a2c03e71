// SPDX-License-Identifier: BSD-3-Clause
/// What the ports of the RAJA Performance Suite's shared-memory kernels share
/// around their kernels: options, inputs (seeded random, or the suite's own
/// constants), the suite's checksum, device-timed repetitions and the output
/// rows that perf/peers/rajaperf.sh reads. docs/tutorial.md, "Porting a real
/// kernel", walks through one of them.
#pragma once

#include <scratchkit/native/cuda.hpp>
#include <scratchkit/scratchkit.hpp>

#include <Kokkos_Core.hpp>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

// What a kernel file on the layer names, as a CUDA file includes <cuda_runtime.h>.
using Exec  = Kokkos::DefaultExecutionSpace;
using Block = scratchkit::Block<Exec>;
using scratchkit::BlockShape;
using scratchkit::Box;
using scratchkit::ceil_div;
using scratchkit::launch;
using scratchkit::LaunchParams;
using scratchkit::PerThread;
using scratchkit::SharedArray;
using scratchkit::sync_threads;
using scratchkit::Thread;

/// Device arrays of doubles, as the suite's `Real_ptr`s.
using Vec  = Kokkos::View<double*, Exec::memory_space>;
using CVec = Kokkos::View<const double*, Exec::memory_space>;

namespace peer {

/// Exit code of a run that could not happen here (ctest: SKIP_RETURN_CODE).
constexpr int skipped = 77;

/// The command line of a port:
///   (none)        random inputs at a small odd size: layer against the host reference
///   --twin        also the CUDA twin (exit 77 without a twin or a GPU)
///   --check       every launch under the host scratch checker (exit 77 where not compiled in)
///   --warp64      host blocks with 64-lane warps (set_host_warp_size)
///   --suite       the suite's inputs (constants) at its default size, its reps accumulated into
///                 the output as the suite runs them, then its checksum: CHECKSUM rows
///   --bench       --suite, then device-timed repetitions: ROW rows (with --twin, the twin's too)
///   --size N      the problem size (elements NE, or the matrix edge N), instead of the default
///   --reps R      the suite's repetitions (its default per kernel otherwise)
///   --samples S   timed samples of R back-to-back repetitions; the median is printed (default 10)
struct Options {
  bool twin = false, check = false, warp64 = false, suite = false, bench = false;
  long size   = 0;
  int reps    = 0;
  int samples = 10;
};

inline Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value    = [&](const char* name) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", name);
        std::exit(2);
      }
      const long v = std::atol(argv[++i]);
      if (v < 1) {
        std::fprintf(stderr, "%s %s: must be a positive integer\n", name, argv[i]);
        std::exit(2);
      }
      return v;
    };
    if (a == "--twin") o.twin = true;
    else if (a == "--check") o.check = true;
    else if (a == "--warp64") o.warp64 = true;
    else if (a == "--suite") o.suite = true;
    else if (a == "--bench") o.suite = o.bench = true;
    else if (a == "--size") o.size = value("--size");
    else if (a == "--reps") o.reps = static_cast<int>(value("--reps"));
    else if (a == "--samples") o.samples = static_cast<int>(value("--samples"));
    else if (a.rfind("--kokkos", 0) == 0) continue;  // Kokkos' own, already taken by ScopeGuard
    else {
      std::fprintf(stderr, "unknown option %s (--twin --check --warp64 --suite --bench --size N --reps R --samples S)\n",
                   a.c_str());
      std::exit(2);
    }
  }
  return o;
}

/// Whether the CUDA twin can run here; says why not otherwise.
inline bool twin_available() {
#if RAJAPERF_CUDA_TWIN
  if (scratchkit::native::cuda::device_available()) return true;
  std::printf("SKIPPED: no CUDA device on this machine, the CUDA twin cannot run\n");
#else
  std::printf("SKIPPED: CUDA twins not built (SCRATCHKIT_ENABLE_CUDA=OFF, or Kokkos without CUDA)\n");
#endif
  return false;
}

/// A port's main: `run(options)` under Kokkos, returning how many checks
/// failed; prints PASSED or FAILED. Exit code 77 (SKIPPED) where --twin or
/// --check was asked and cannot run here. Under --check every launch runs
/// under the scratch checker; a race or an uninitialised read fails the run.
template <class F>
int main_of(int argc, char** argv, const F& run) {
  Kokkos::ScopeGuard guard(argc, argv);
  const Options o = parse(argc, argv);
  if (o.twin && !twin_available()) return skipped;
  if (o.check && (!scratchkit::scratch_check_compiled || scratchkit::detail::is_gpu_space<Exec>::value)) {
    std::printf("SKIPPED: the scratch checker needs a host backend and SCRATCHKIT_ENABLE_SCRATCH_CHECK\n");
    return skipped;
  }
  if (o.warp64) scratchkit::set_host_warp_size(64);
  std::optional<scratchkit::ScratchCheckScope> scope;
  if (o.check) scope.emplace();
  long bad = 0;
  try {
    bad = run(o);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    bad = 1;
  }
  if (o.check) {
    for (const auto& r : scope->reports()) {
      std::printf("  checker: %s: %lld blocks, %lld races, %lld uninitialised reads, %lld misuses\n", r.label.c_str(), r.blocks,
                  r.races, r.uninitialised_reads, r.misuses);
      for (const auto& f : r.findings) std::printf("    %s\n", f.str().c_str());
      bad += r.races + r.uninitialised_reads + r.misuses;
    }
    if (scope->reports().empty()) {
      std::printf("  checker: no launch was checked\n");
      ++bad;
    }
  }
  std::printf("%s\n", bad == 0 ? "PASSED" : "FAILED");
  return bad == 0 ? 0 : 1;
}

/// Seeded values in [-1, 1): splitmix64.
inline std::vector<double> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<double> v(n);
  for (auto& x : v) {
    std::uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    x = static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
  }
  return v;
}

/// gamma_n = n u / (1 - n u) for doubles: the bound on the relative error of
/// a sum of n rounded products against sum |terms| (Higham, 3.1).
inline double gamma_double(int n) {
  const double u = std::numeric_limits<double>::epsilon() / 2;
  return n * u / (1 - n * u);
}

/// A device View holding `values`.
inline Vec to_device(const char* label, const std::vector<double>& values) {
  Vec v(std::string(label), values.size());
  auto h = Kokkos::create_mirror_view(v);
  std::memcpy(h.data(), values.data(), values.size() * sizeof(double));
  Kokkos::deep_copy(v, h);
  return v;
}

/// A device View of n copies of `value` (the suite's allocAndInitDataConst).
inline Vec constant(const char* label, std::size_t n, double value) {
  Vec v(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), n);
  Kokkos::deep_copy(v, value);
  return v;
}

inline std::vector<double> to_host(const Vec& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<double>(h.data(), h.data() + v.extent(0));
}

/// The suite's checksum of an output array: the sum over j of
/// (|sin(j + 1)| + 0.5) y[j], in long double with Kahan's compensation, times
/// the kernel's scale factor (RAJAPerf src/common/DataUtils.cpp, 2024).
inline long double suite_checksum(const std::vector<double>& y, long double scale = 1.0L) {
  long double sum = 0.0L, c = 0.0L;
  for (std::size_t j = 0; j < y.size(); ++j) {
    const long double x = (std::abs(std::sin(static_cast<double>(j) + 1.0)) + 0.5) * static_cast<long double>(y[j]);
    const long double t1 = x - c;
    volatile long double t = sum + t1;  // volatile: no reassociation, as the suite's
    volatile long double z = t - sum;
    c   = z - t1;
    sum = t;
  }
  return sum * scale;
}

/// Compares `got` with `want` elementwise within `tol[i]`; prints the first
/// misses and returns how many there are.
inline long compare(const char* what, const std::vector<double>& got, const std::vector<double>& want,
                    const std::vector<double>& tol) {
  long bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double err = std::abs(got[i] - want[i]);
    if (!(err <= tol[i])) {  // NaN fails too
      if (bad < 5) std::printf("  %s[%zu] = %.17g, reference %.17g (|err| %.3g > %.3g)\n", what, i, got[i], want[i], err, tol[i]);
      ++bad;
    }
    if (tol[i] > 0) worst = std::max(worst, err / tol[i]);
  }
  std::printf("  %s: %ld of %zu outside the bound (largest error %.3g of its bound)\n", what, bad, want.size(), worst);
  return bad;
}

/// How many elements of a and b have the same bits.
inline long long same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  long long n = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(double)) == 0;
  return n;
}

/// The CUDA stream of `exec`, as the twins take it (nullptr off CUDA).
inline void* stream_of(const Exec& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  return static_cast<void*>(exec.cuda_stream());
#else
  (void)exec;
  return nullptr;
#endif
}

/// Seconds per repetition of `launch_once` (which enqueues one repetition on
/// exec): one warm-up repetition, then `samples` samples of `reps`
/// back-to-back repetitions, each timed as a whole (CUDA events on exec's
/// stream on a GPU; a steady clock around a fence on a host), divided by
/// reps; the median sample. The suite times its reps back to back the same
/// way (startTimer / stopTimer around the loop).
template <class F>
double seconds_per_rep(const Exec& exec, int reps, int samples, const F& launch_once) {
  launch_once();
  exec.fence();
  std::vector<double> t;
  for (int s = 0; s < samples; ++s) {
#if defined(KOKKOS_ENABLE_CUDA)
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, exec.cuda_stream());
    for (int r = 0; r < reps; ++r) launch_once();
    cudaEventRecord(stop, exec.cuda_stream());
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    t.push_back(1e-3 * ms / reps);
#else
    const auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) launch_once();
    exec.fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps);
#endif
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// The name of the backend the layer ran on, for the rows.
inline std::string backend_name() {
  std::string s = Exec::name();
#if defined(KOKKOS_ENABLE_OPENMP)
  if (s == "OpenMP") s += "-" + std::to_string(Exec().concurrency());
#endif
  return s;
}

/// A row the comparison reads: `ROW kernel=<K> variant=<V> backend=<B> size=<n> reps=<r> time_per_rep_s=<t> gflops=<g>`.
inline void print_row(const char* kernel, const char* variant, long size, int reps, double seconds, double flops) {
  std::printf("ROW kernel=%s variant=%s backend=%s size=%ld reps=%d time_per_rep_s=%.6e gflops=%.3f\n", kernel,
              variant, backend_name().c_str(), size, reps, seconds, flops / seconds * 1e-9);
}

/// A checksum row: `CHECKSUM kernel=<K> variant=<V> checksum=<c>` (full long double precision).
inline void print_checksum(const char* kernel, const char* variant, long double checksum) {
  std::printf("CHECKSUM kernel=%s variant=%s checksum=%.21Lg\n", kernel, variant, checksum);
}

}  // namespace peer
