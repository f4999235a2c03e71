// SPDX-License-Identifier: BSD-3-Clause
/// The perf harness's core: a case (one row of the comparison), its data
/// cache, checking, and registration with Google Benchmark.
#pragma once

#include <scratchkit/reference/random.hpp>
#include <scratchkit/reference/reference.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace scratchkit {
namespace perf {

using Exec = Kokkos::DefaultExecutionSpace;
using Mem  = Exec::memory_space;

/// What the run measures.
struct Config {
  bool full       = false;  ///< GPU-sized problems (issue sizes) instead of seconds-on-a-CPU sizes
  bool sweep      = false;  ///< every kernel at sizes from small up to the run's size (and copies of each size)
  int repetitions = 10;     ///< timed runs per case; the median is reported
  bool native     = false;  ///< native CUDA rows (Kokkos::Cuda, native kernels built, a GPU present)
  bool vendor     = false;  ///< cuBLAS / CUB rows
  std::string only;         ///< run only cases whose name contains one of these (comma-separated)
  std::string skip;         ///< and none of these (comma-separated)
};

/// Powers of two of a sweep: from 2^10 up to the run's size 2^top in steps of
/// `step` (top always included); the run's one size without --sweep.
inline std::vector<int> sweep_exponents(const Config& c, int top, int step = 4) {
  std::vector<int> e;
  if (c.sweep)
    for (int k = 10; k < top; k += step) e.push_back(k);
  e.push_back(top);
  return e;
}
/// Edge lengths of a sweep of n x n (or n^3) problems: from `first` doubling
/// (times 2^step_log2) up to the run's size, which is always included.
inline std::vector<int> sweep_edges(const Config& c, int first, int top, int step_log2 = 1) {
  std::vector<int> e;
  if (c.sweep)
    for (int n = first; n < top; n <<= step_log2) e.push_back(n);
  e.push_back(top);
  return e;
}

/// One row: a kernel x variant x backend x type x layout x size, the minimal bytes and
/// FLOPs it must move and do, and how to prepare, run and check it.
struct Case {
  std::string kernel, variant, backend, type, size;
  std::string layout = "LayoutRight";  ///< the Views' layout (LayoutRight, LayoutLeft, LayoutStride)
  double bytes = 0;  ///< each input read once, each output written once
  double flops = 0;
  std::function<void()> prepare;     ///< inputs ready (shared with the other rows of the same data)
  std::function<void()> run;         ///< one launch; the harness fences around it
  std::function<bool()> check;       ///< after a run: true when it matches the reference
  std::string status = "";           ///< PASSED / FAILED / SKIPPED (filled by the harness)
  std::string error;                 ///< why the case could not run (it is then FAILED)
  std::vector<double> samples_ms;    ///< every timed run (filled by the harness)
  std::string name() const { return kernel + "/" + variant + "/" + backend + "/" + type + "/" + layout + "/" + size; }
};

/// Holds one data set at a time (inputs shared by the rows of a kernel, type
/// and size), so a full GPU run never holds every input at once.
class DataCache {
 public:
  template <class D, class Make>
  std::shared_ptr<D> get(const std::string& key, const Make& make) {
    if (key != m_key) {
      m_data.reset();  // free the previous set first
      m_data = std::make_shared<D>(make());
      m_key  = key;
    }
    return std::static_pointer_cast<D>(m_data);
  }
  void clear() {
    m_data.reset();
    m_key.clear();
  }

 private:
  std::string m_key;
  std::shared_ptr<void> m_data;
};

DataCache& data_cache();

using check::fill_random;  // scratchkit/reference/random.hpp

/// A device View filled with random values, and its host copy for the reference.
template <class T, class Layout = Kokkos::LayoutRight>
struct Operand1D {
  Kokkos::View<T*, Layout, Mem> d;
  typename Kokkos::View<T*, Layout, Mem>::host_mirror_type h;
  Operand1D(const std::string& label, std::size_t n, std::uint64_t seed)
      : d(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n), h(Kokkos::create_mirror(d)) {
    fill_random(h, seed);
    Kokkos::deep_copy(d, h);
  }
};

template <class T>
const char* type_name() {
  if (std::is_same<T, float>::value) return "float";
  if (std::is_same<T, double>::value) return "double";
  if (std::is_same<T, std::int32_t>::value) return "int32";
  if (std::is_same<T, std::int64_t>::value) return "int64";
  return "?";
}

inline const char* backend_name(Backend b) { return b == Backend::native ? "native" : "layer"; }

/// The name of a Kokkos layout in case names and summary.csv.
template <class Layout>
const char* layout_name() {
  if (std::is_same<Layout, Kokkos::LayoutLeft>::value) return "LayoutLeft";
  if (std::is_same<Layout, Kokkos::LayoutStride>::value) return "LayoutStride";
  return "LayoutRight";
}

/// Whether the run has the host yardstick's rows ("plain-kokkos", perf/plain_kokkos.hpp): on host
/// backends, where a plain RangePolicy / MDRangePolicy kernel is what a CPU Kokkos user writes.
inline bool plain_rows() { return Kokkos::SpaceAccessibility<Kokkos::HostSpace, Mem>::accessible; }

/// --full on a host backend: sizes that finish in minutes on a CPU (the GPU's full sizes, GEMM 8192^3
/// and arrays of 2^28, take hours on a host), not the default's seconds-on-a-laptop sizes.
inline bool host_full(const Config& c) { return c.full && plain_rows(); }

/// The backends of kernel rows in this run.
inline std::vector<Backend> backends(const Config& c) {
  if (c.native) return {Backend::layer, Backend::native};
  return {Backend::layer};
}

// Case families: each kernel's add_<kernel>_cases is declared by the generated kernel_cases.hpp
// (cmake/kernels.txt); the others here.
void add_copy_cases(const Config&, std::vector<Case>&);
void add_stencil_3d_double_cases(const Config&, std::vector<Case>&, int n);  // bench_stencil_3d.cpp's part 1
void add_user_cases(const Config&, std::vector<Case>&);
void add_tutorial_cases(const Config&, std::vector<Case>&);  // bench_user.cpp's part 1
void add_user_2d_cases(const Config&, std::vector<Case>&);         // bench_user.cpp's part 2
void add_user_3d_double_cases(const Config&, std::vector<Case>&, int n);  // bench_user.cpp's part 3
void add_user_2d_double_cases(const Config&, std::vector<Case>&);  // bench_user.cpp's part 4
void add_rajaperf_cases(const Config&, std::vector<Case>&);

}  // namespace perf
}  // namespace scratchkit
