// SPDX-License-Identifier: BSD-3-Clause
// GEMM rows: every variant on both backends on LayoutRight and LayoutLeft Views, and cuBLAS (the FLOP ceiling).
// Minimal traffic: A and B read once, C written once (beta = 0): (MK + KN + MN) elements; 2MNK FLOPs.
#include "harness.hpp"
#include "plain_kokkos.hpp"
#include "raw_kokkos.hpp"

#include <scratchkit/kernels/gemm.hpp>
#include "vendor/vendor.hpp"

#ifdef SCRATCHKIT_BENCH_HOST_BLAS
#include <cblas.h>
#include <cstdio>
#include <cstdlib>
#if defined(__linux__)
#include <sched.h>
#endif
// OpenBLAS' own calls, declared here: the cblas.h found may be another BLAS's header.
extern "C" int openblas_get_num_threads(void);
extern "C" void openblas_set_num_threads(int);
extern "C" int openblas_get_parallel(void);
extern "C" char* openblas_get_config(void);
#endif

#include <limits>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

/// Rows of C the harness checks: 16 spread over C (the reference costs K per element).
inline std::vector<int> checked_rows(int n) {
  const int rows = n < 16 ? n : 16;
  std::vector<int> r;
  for (int k = 0; k < rows; ++k)
    r.push_back(static_cast<int>(static_cast<long long>(k) * (n - 1) / (rows > 1 ? rows - 1 : 1)));
  return r;
}

/// A, B, C of n x n in Layout (LayoutLeft: column-major, the default on CUDA).
template <class T, class Layout = Kokkos::LayoutRight>
struct GemmData {
  using View = Kokkos::View<T**, Layout, Mem>;
  int n;
  View A, B, C;
  typename View::host_mirror_type hA, hB;
  std::vector<check::GemmReference<T>> refs;  ///< one per checked row, built at the first check
  explicit GemmData(int n_)
      : n(n_),
        A(Kokkos::view_alloc(Kokkos::WithoutInitializing, "gemm::A"), n_, n_),
        B(Kokkos::view_alloc(Kokkos::WithoutInitializing, "gemm::B"), n_, n_),
        C(Kokkos::view_alloc(Kokkos::WithoutInitializing, "gemm::C"), n_, n_),
        hA(Kokkos::create_mirror(A)),
        hB(Kokkos::create_mirror(B)) {
    fill_random(hA, 1);
    fill_random(hB, 2);
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hB);
  }
};

/// Checks the rows of checked_rows(n) of C's memory against references computed once per data set: on
/// LayoutRight rows of C = A*B; on LayoutLeft the memory holds C^T = B^T * A^T row-major (A^T, B^T the
/// memory of A, B), so its rows are rows of B's memory times A's.
template <class T, class Layout>
bool check_rows(GemmData<T, Layout>& d) {
  const int n    = d.n;
  const auto rows = checked_rows(n);
  constexpr bool left = std::is_same<Layout, Kokkos::LayoutLeft>::value;
  const T* const first = left ? d.hB.data() : d.hA.data();
  const T* const second = left ? d.hA.data() : d.hB.data();
  if (d.refs.empty())
    for (int i : rows)
      d.refs.emplace_back(1, n, n, T(1), first + static_cast<std::size_t>(i) * n, second, T(0), nullptr);
  auto hC = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.C);
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (!d.refs[r].compare(hC.data() + static_cast<std::size_t>(rows[r]) * n).passed()) return false;
  return true;
}

template <class T, class Layout = Kokkos::LayoutRight>
void add(const Config& c, std::vector<Case>& cases, int n, bool default_only = false) {
  using D                = GemmData<T, Layout>;
  constexpr bool right   = std::is_same<Layout, Kokkos::LayoutRight>::value;
  const std::string size = std::to_string(n) + "^3";
  const std::string key  = std::string("gemm/") + type_name<T>() + "/" + layout_name<Layout>() + "/" + size;
  auto data = [key, n] { return data_cache().get<D>(key, [n] { return D(n); }); };
  const double bytes = 3.0 * n * n * sizeof(T), flops = 2.0 * n * n * n;
  auto poison = [data] { Kokkos::deep_copy(data()->C, std::numeric_limits<T>::quiet_NaN()); };
  for (auto v : {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                 GemmVariant::register_blocked})
    for (auto b : backends(c)) {
      if (default_only && v != GemmVariant::tiled) continue;  // tiled: the host default (kernels/defaults.hpp)
      Case k{"gemm", name(v), backend_name(b), type_name<T>(), size};
      k.layout  = layout_name<Layout>();
      k.bytes   = bytes;
      k.flops   = flops;
      k.prepare = poison;
      k.run     = [data, v, b] {
        auto d = data();
        gemm(Exec(), v, T(1), d->A, d->B, T(0), d->C, b);
      };
      k.check = [data] { return check_rows(*data()); };
      cases.push_back(k);
    }
  if (plain_rows()) {
    Case k{"gemm", "range_ikj", "plain-kokkos", type_name<T>(), size};
    k.layout  = layout_name<Layout>();
    k.bytes   = bytes;
    k.flops   = flops;
    k.prepare = poison;
    k.run     = [data] {
      auto d = data();
      plain::gemm(Exec(), T(1), d->A, d->B, T(0), d->C);
    };
    k.check = [data] { return check_rows(*data()); };
    cases.push_back(k);
  }
#ifdef SCRATCHKIT_BENCH_HOST_BLAS
  // The host BLAS a CPU user calls (OpenBLAS, its threads as many as Kokkos': OPENBLAS_NUM_THREADS).
  if (plain_rows()) {
    Case k{"gemm", "openblas", "vendor", type_name<T>(), size};
    k.layout  = layout_name<Layout>();
    k.bytes   = bytes;
    k.flops   = flops;
    k.prepare = poison;
    k.run     = [data] {
      auto d        = data();
      const auto o  = right ? CblasRowMajor : CblasColMajor;
      const int nn  = d->n;
      if constexpr (std::is_same<T, float>::value)
        cblas_sgemm(o, CblasNoTrans, CblasNoTrans, nn, nn, nn, 1.0f, d->A.data(), nn, d->B.data(), nn, 0.0f,
                    d->C.data(), nn);
      else
        cblas_dgemm(o, CblasNoTrans, CblasNoTrans, nn, nn, nn, 1.0, d->A.data(), nn, d->B.data(), nn, 0.0,
                    d->C.data(), nn);
    };
    k.check = [data] { return check_rows(*data()); };
    cases.push_back(k);
  }
#endif
  if (!right) return;  // the raw Kokkos and cuBLAS rows: LayoutRight only
  if (c.native) {
    // The tiled kernel written directly on Kokkos team scratch (perf/raw_kokkos.hpp): layer vs raw Kokkos.
    Case k{"gemm", "raw_kokkos_tiled", "kokkos-builtin", type_name<T>(), size};
    k.bytes   = bytes;
    k.flops   = flops;
    k.prepare = poison;
    k.run     = [data] {
      auto d = data();
      raw::gemm_tiled(Exec(), T(1), d->A, d->B, T(0), d->C);
    };
    k.check = [data] { return check_rows(*data()); };
    cases.push_back(k);
  }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  if (c.vendor) {
    Case k{"gemm", "cublas", "vendor", type_name<T>(), size};
    k.bytes   = bytes;
    k.flops   = flops;
    k.prepare = poison;
    k.run     = [data] {
      auto d = data();
      native::cuda::vendor::gemm(d->n, d->n, d->n, T(1), d->A.data(), d->B.data(), T(0), d->C.data(),
                                 Exec().cuda_stream());
    };
    k.check = [data] { return check_rows(*data()); };
    cases.push_back(k);
  }
#endif
}

}  // namespace

void add_gemm_cases(const Config& c, std::vector<Case>& cases) {
#ifdef SCRATCHKIT_BENCH_HOST_BLAS
  // The BLAS row runs OPENBLAS_NUM_THREADS threads (else Kokkos' host concurrency) on every CPU.
  // Under OMP_PROC_BIND the OpenMP runtime binds the main thread to one CPU before OpenBLAS
  // counts the CPUs it may use, so OpenBLAS ran one thread (0.3.26, the 16-core Xeon); its
  // workers inherit the mask of the thread that starts them, so they start under a full one.
  if (plain_rows()) {
    const char* e  = std::getenv("OPENBLAS_NUM_THREADS");
    const int want = e != nullptr && std::atoi(e) > 0 ? std::atoi(e)
                                                      : Kokkos::DefaultHostExecutionSpace().concurrency();
#if defined(__linux__)
    cpu_set_t bound, every;
    const bool widen = sched_getaffinity(0, sizeof(bound), &bound) == 0;
    CPU_ZERO(&every);
    for (int i = 0; i < CPU_SETSIZE; ++i) CPU_SET(i, &every);
    if (widen) sched_setaffinity(0, sizeof(every), &every);
    openblas_set_num_threads(want);
    if (widen) sched_setaffinity(0, sizeof(bound), &bound);
#else
    openblas_set_num_threads(want);
#endif
    // The BLAS row's thread count as OpenBLAS reports it (perf/host_run.sh puts it in machine.txt).
    const int par = openblas_get_parallel();  // 0: sequential build, 1: pthreads, 2: OpenMP
    std::fprintf(stderr, "# host BLAS: OpenBLAS %s, %d threads (%s)\n", openblas_get_config(),
                 openblas_get_num_threads(), par == 0 ? "sequential build" : par == 1 ? "pthreads" : "OpenMP");
  }
#endif
  if (host_full(c) && !c.sweep) {
    // A CPU's full sizes: every variant at 1024^3; at 4096^3 (the BLAS target) float
    // LayoutRight, the default variant against plain Kokkos and the BLAS only (minutes, not hours).
    add<float>(c, cases, 1024);
    add<float, Kokkos::LayoutLeft>(c, cases, 1024);
    add<double>(c, cases, 1024);
    add<double, Kokkos::LayoutLeft>(c, cases, 1024);
    add<float>(c, cases, 4096, true);
    return;
  }
  std::vector<int> sizes = c.full ? std::vector<int>{4096, 8192} : std::vector<int>{160};
  if (c.sweep) {  // the small sizes first (a new vector: g++ 13 warns falsely on insert at begin())
    std::vector<int> all{128, 256, 512, 1024, 2048};
    all.insert(all.end(), sizes.begin(), sizes.end());
    sizes = all;
  }
  if (c.sweep && !c.full) sizes = {32, 64, 128, 160};
  for (int n : sizes) {
    add<float>(c, cases, n);
    add<float, Kokkos::LayoutLeft>(c, cases, n);
    add<double>(c, cases, n);
    add<double, Kokkos::LayoutLeft>(c, cases, n);
  }
}

}  // namespace perf
}  // namespace scratchkit
