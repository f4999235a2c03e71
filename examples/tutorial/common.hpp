// SPDX-License-Identifier: BSD-3-Clause
/// What the tutorial's layer examples share around their kernels: the names a
/// kernel file uses, seeded inputs, the rounding bound, and the CUDA-twin run
/// (`--twin`: exit code 77, which ctest reports as SKIPPED, where no twin or
/// no GPU is there), and the scratch checker (`--check`: docs/checker.md).
#pragma once

#include <scratchkit/native/cuda.hpp>
#include <scratchkit/scratchkit.hpp>

#if TUTORIAL_CUDA_TWIN
#include "twins.hpp"
#endif

#include <Kokkos_Core.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

// What a kernel file on the layer names, as a CUDA file includes <cuda_runtime.h>.
using Exec  = Kokkos::DefaultExecutionSpace;
using Block = scratchkit::Block<Exec>;
/// A block whose shape is known at compile time (what a CUDA kernel's author knows of blockDim).
template <int X, int Y = 1, int Z = 1>
using ShapedBlock = scratchkit::Block<Exec, scratchkit::BlockShape<X, Y, Z>>;
using scratchkit::ceil_div;
using scratchkit::launch;
using scratchkit::LaunchParams;
using scratchkit::PerThread;
using scratchkit::sync_threads;
using scratchkit::Thread;

namespace tutorial {

/// Exit code of a run that could not happen here (ctest: SKIP_RETURN_CODE).
constexpr int skipped = 77;

inline bool has_flag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], flag) == 0) return true;
  return false;
}

/// Whether the CUDA twin can run here; says why not otherwise.
inline bool twin_available() {
#if TUTORIAL_CUDA_TWIN
  if (scratchkit::native::cuda::device_available()) return true;
  std::printf("SKIPPED: no CUDA device on this machine, the CUDA twin cannot run\n");
#else
  std::printf("SKIPPED: CUDA twins not built (SCRATCHKIT_ENABLE_CUDA=OFF)\n");
#endif
  return false;
}

/// An example's main: `run_all(twin)` under Kokkos, returning how many checks
/// failed; exit code 77 (SKIPPED) when --twin was asked where it cannot run.
/// With --check every launch runs under the scratch checker, which prints its
/// report; a race or an uninitialised read fails the run.
template <class F>
int main_of(int argc, char** argv, const F& run_all) {
  Kokkos::ScopeGuard guard(argc, argv);
  const bool twin = has_flag(argc, argv, "--twin");
  if (twin && !twin_available()) return skipped;
  const bool check = has_flag(argc, argv, "--check");
  if (check && (!scratchkit::scratch_check_compiled || scratchkit::detail::is_gpu_space<Exec>::value)) {
    std::printf("SKIPPED: the scratch checker needs a host backend and SCRATCHKIT_ENABLE_SCRATCH_CHECK\n");
    return skipped;
  }
  std::optional<scratchkit::ScratchCheckScope> scope;
  if (check) scope.emplace();
  int bad = run_all(twin);
  if (check)
    for (const auto& r : scope->reports()) bad += static_cast<int>(r.races + r.uninitialised_reads);
  std::printf("%s\n", bad == 0 ? "PASSED" : "FAILED");
  return bad == 0 ? 0 : 1;
}

/// With --twin: prints how the CUDA twin's n results compare (`wrong`: against
/// the host reference; `same`: bit-identical to the layer's) and returns
/// `wrong`, the failures it adds; 0 without.
inline int twin_report(bool twin, int wrong, long long same, std::size_t n) {
  if (!twin) return 0;
  std::printf("  CUDA twin: %d of %zu wrong against the host reference; bit-identical to the layer: %lld of %zu\n",
              wrong, n, same, n);
  return wrong;
}

/// Seeded values in [-1, 1) (floats) or [-1000, 1000] (ints): splitmix64.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (auto& x : v) {
    std::uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    if constexpr (std::is_integral<T>::value)
      x = static_cast<T>(static_cast<long long>(z % 2001) - 1000);
    else
      x = static_cast<T>(static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0);
  }
  return v;
}

/// gamma_n = n u / (1 - n u): the bound on the relative error of n rounded
/// float operations in a sum of products (Higham, Accuracy and Stability, 3.1).
inline double gamma_float(int n) {
  const double u = std::numeric_limits<float>::epsilon() / 2;
  return n * u / (1 - n * u);
}

/// A rank-1 or rank-2 View's elements on the host, in row-major order.
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.span());
}

/// A View holding `values` (row-major), on Exec's memory.
template <class View, class T>
View from_host(const char* label, const std::vector<T>& values, std::size_t n0, std::size_t n1 = 0) {
  View v;
  if constexpr (View::rank == 1)
    v = View(std::string(label), n0);
  else
    v = View(std::string(label), n0, n1);
  auto h = Kokkos::create_mirror_view(v);
  std::memcpy(h.data(), values.data(), values.size() * sizeof(T));
  Kokkos::deep_copy(v, h);
  return v;
}

}  // namespace tutorial
