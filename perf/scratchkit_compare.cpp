// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-compare: runs the kernels on the layer (default Kokkos backend)
// and, where built with CUDA and a GPU is present, their native CUDA twins
// (on the same stream as Kokkos, through Backend::native);
// checks every row against the host reference; times each (device-fenced,
// after warm-up, median of repetitions) and prints a table.
//
//   scratchkit-compare [--full] [--reps N] [--csv FILE]
//
// --full uses GPU-sized problems; the default sizes run in seconds on a CPU.
#include <scratchkit/check/reference.hpp>
#include <scratchkit/scratchkit.hpp>
#include <scratchkit/native/cuda.hpp>
#include <scratchkit/version.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Mem  = Exec::memory_space;
namespace sk = scratchkit;

#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
constexpr bool native_possible = true;
#else
constexpr bool native_possible = false;
#endif

struct Row {
  std::string kernel, variant, backend, type, size;
  double time_ms = 0, gbps = 0, gflops = 0;
  std::string check;
};

struct Options {
  bool full        = false;
  int reps         = 10;
  std::string csv;
};

/// Median wall time of `reps` runs of f, each followed by a fence, after one warm-up run.
double median_ms(int reps, const std::function<void()>& f, const std::function<void()>& fence) {
  f();
  fence();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    fence();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class HostView>
void fill(const HostView& v, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  for (std::size_t i = 0; i < v.span(); ++i) v.data()[i] = static_cast<typename HostView::value_type>(d(g));
}

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

void progress(std::size_t done, std::size_t total, const Row& r) {
  std::fprintf(stderr, "[%zu/%zu] %s %s %s %s %s: %.3f ms %s\n", done, total, r.kernel.c_str(), r.variant.c_str(),
               r.backend.c_str(), r.type.c_str(), r.size.c_str(), r.time_ms, r.check.c_str());
}

template <class T>
void gemm_rows(const Options& o, std::vector<Row>& rows, bool native) {
  const int n = o.full ? 4096 : 192;
  using View  = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
  View A("A", n, n), B("B", n, n), C("C", n, n);
  auto hA = Kokkos::create_mirror(A);
  auto hB = Kokkos::create_mirror(B);
  fill(hA, 1);
  fill(hB, 2);
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  const double flops = 2.0 * n * n * n, bytes = 3.0 * n * n * sizeof(T);
  const int check_rows = std::min(n, 64);  // reference cost is K per element: check the first rows
  for (auto v : {sk::GemmVariant::naive, sk::GemmVariant::tiled}) {
    for (int backend = 0; backend < (native ? 2 : 1); ++backend) {
      Row r{"gemm", sk::name(v), backend ? "native" : "layer", type_name<T>(), std::to_string(n) + "^3"};
      Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
      auto run = [&]() { sk::gemm(Exec(), v, T(1), A, B, T(0), C, backend ? sk::Backend::native : sk::Backend::layer); };
      r.time_ms = median_ms(o.reps, run, [] { Exec().fence(); });
      auto hC   = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
      const auto res =
          sk::check::gemm<T>(check_rows, n, n, T(1), hA.data(), hB.data(), T(0), hC.data(), hC.data());
      r.check  = res.passed() ? "PASSED" : "FAILED";
      r.gflops = flops / (r.time_ms * 1e6);
      r.gbps   = bytes / (r.time_ms * 1e6);
      rows.push_back(r);
    }
  }
}

template <class T>
void reduce_rows(const Options& o, std::vector<Row>& rows, bool native) {
  const std::size_t n = o.full ? (std::size_t(1) << 28) : (std::size_t(1) << 20);
  Kokkos::View<T*, Mem> x("x", n);
  auto hx = Kokkos::create_mirror(x);
  fill(hx, 3);
  Kokkos::deep_copy(x, hx);
  for (auto v : {sk::ReduceVariant::tree, sk::ReduceVariant::grid_stride_atomic, sk::ReduceVariant::warp_shuffle})
  for (int backend = 0; backend < (native ? 2 : 1); ++backend) {
    Row r{"reduce_sum", sk::name(v), backend ? "native" : "layer", type_name<T>(), "2^" + std::to_string(o.full ? 28 : 20)};
    T got    = 0;
    auto run = [&]() {
      got = sk::reduce(Exec(), v, sk::ReduceOp::sum, x, backend ? sk::Backend::native : sk::Backend::layer);
    };
    r.time_ms      = median_ms(o.reps, run, [] { Exec().fence(); });
    const auto res = sk::check::reduce<T>(sk::ReduceOp::sum, hx.data(), n, got, sk::reduce_error_depth(v, n));
    r.check        = res.passed() ? "PASSED" : "FAILED";
    r.gbps         = n * sizeof(T) / (r.time_ms * 1e6);
    r.gflops       = n / (r.time_ms * 1e6);
    rows.push_back(r);
  }
}

template <class T>
void stencil_rows(const Options& o, std::vector<Row>& rows, bool native) {
  const int n = o.full ? (1 << 28) : (1 << 20), R = 3;
  Kokkos::View<T*, Mem> in("in", n), w("w", 2 * R + 1), out("out", n);
  auto hin = Kokkos::create_mirror(in);
  auto hw  = Kokkos::create_mirror(w);
  fill(hin, 4);
  fill(hw, 5);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(w, hw);
  for (int backend = 0; backend < (native ? 2 : 1); ++backend) {
    Row r{"stencil_1d_r3", "halo_tile", backend ? "native" : "layer", type_name<T>(),
          "2^" + std::to_string(o.full ? 28 : 20)};
    Kokkos::deep_copy(out, std::numeric_limits<T>::quiet_NaN());
    auto run = [&]() {
      sk::stencil_1d(Exec(), sk::Stencil1DVariant::halo_tile, in, w, out,
                     backend ? sk::Backend::native : sk::Backend::layer);
    };
    r.time_ms      = median_ms(o.reps, run, [] { Exec().fence(); });
    auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    const auto res = sk::check::stencil_1d<T>(hin.data(), hw.data(), R, hout.data(), n);
    r.check        = res.passed() ? "PASSED" : "FAILED";
    r.gbps         = 2.0 * n * sizeof(T) / (r.time_ms * 1e6);  // read in once, write out once
    r.gflops       = 2.0 * (2 * R + 1) * n / (r.time_ms * 1e6);
    rows.push_back(r);
  }
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--full") {
      o.full = true;
    } else if (a == "--reps" && i + 1 < argc) {
      o.reps = std::atoi(argv[++i]);
      if (o.reps < 1) {
        std::fprintf(stderr, "scratchkit-compare: --reps needs a positive count\n");
        std::exit(2);
      }
    } else if (a == "--csv" && i + 1 < argc) {
      o.csv = argv[++i];
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: scratchkit-compare [--full] [--reps N] [--csv FILE] [Kokkos options]\n");
      std::exit(0);
    } else if (a.rfind("--kokkos", 0) != 0) {
      std::fprintf(stderr, "scratchkit-compare: unknown argument '%s' (try --help)\n", a.c_str());
      std::exit(2);
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int failed = 0;
  {
    const Options o  = parse(argc, argv);
    bool native      = false;
#if SCRATCHKIT_HAS_NATIVE_CUDA
    native = native_possible && sk::native::cuda::device_available();
#endif
    std::printf("# %s\n", sk::build_summary().c_str());
#if SCRATCHKIT_HAS_NATIVE_CUDA
    std::printf("# device: %s\n", sk::native::cuda::device_description().c_str());
#endif
    std::printf("# native CUDA rows: %s; sizes: %s; median of %d after 1 warm-up\n",
                native ? "yes" : (native_possible ? "no (no GPU)" : "no (needs native CUDA and Kokkos with CUDA)"),
                o.full ? "full" : "small", o.reps);
    std::vector<Row> rows;
    std::vector<std::function<void()>> jobs = {
        [&] { gemm_rows<float>(o, rows, native); },    [&] { gemm_rows<double>(o, rows, native); },
        [&] { reduce_rows<float>(o, rows, native); },  [&] { reduce_rows<double>(o, rows, native); },
        [&] { stencil_rows<float>(o, rows, native); }, [&] { stencil_rows<double>(o, rows, native); }};
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      const std::size_t before = rows.size();
      jobs[j]();
      for (std::size_t i = before; i < rows.size(); ++i) progress(j + 1, jobs.size(), rows[i]);
    }
    std::printf("\n| kernel | variant | backend | type | size | time_ms | GB/s | GFLOP/s | check |\n");
    std::printf("|---|---|---|---|---|---:|---:|---:|---|\n");
    for (const auto& r : rows) {
      std::printf("| %s | %s | %s | %s | %s | %.4f | %.1f | %.1f | %s |\n", r.kernel.c_str(), r.variant.c_str(),
                  r.backend.c_str(), r.type.c_str(), r.size.c_str(), r.time_ms, r.gbps, r.gflops, r.check.c_str());
      failed += r.check != "PASSED";
    }
    if (!o.csv.empty()) {
      FILE* f = std::fopen(o.csv.c_str(), "w");
      if (!f) {
        std::fprintf(stderr, "scratchkit-compare: cannot write %s\n", o.csv.c_str());
        failed = 1;
      } else {
        std::fprintf(f, "kernel,variant,backend,type,size,time_ms,gbps,gflops,check\n");
        for (const auto& r : rows)
          std::fprintf(f, "%s,%s,%s,%s,%s,%.6f,%.3f,%.3f,%s\n", r.kernel.c_str(), r.variant.c_str(),
                       r.backend.c_str(), r.type.c_str(), r.size.c_str(), r.time_ms, r.gbps, r.gflops, r.check.c_str());
        std::fclose(f);
      }
    }
    std::printf("\n%zu rows, %d failed the cross-check\n", rows.size(), failed);
  }
  Kokkos::finalize();
  return failed ? 1 : 0;
}
