// SPDX-License-Identifier: BSD-3-Clause
/// Shared helpers for the tests: backends under test, seeded random data,
/// poisoning (the bounds themselves are in scratchkit/reference/reference.hpp).
#pragma once

#include <scratchkit/reference/random.hpp>
#include <scratchkit/config.hpp>
#include <scratchkit/native/cuda.hpp>
#include <scratchkit/tuning/hook.hpp>

#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <tuple>
#include <type_traits>

/// 1 when the layer/native twins can be compared on a GPU in this build
/// (native CUDA kernels and a Kokkos with CUDA); a GPU must also be present.
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
#define SCRATCHKIT_TEST_TWINS 1
#else
#define SCRATCHKIT_TEST_TWINS 0
#endif

namespace scratchkit {
namespace test {

/// Skips the current test case (reported SKIPPED, never passed) unless the
/// layer and native twins can both run on a GPU here.
inline void require_gpu_twins() {
#if !SCRATCHKIT_HAS_NATIVE_CUDA
  SKIP("native CUDA kernels not built (SCRATCHKIT_ENABLE_CUDA=OFF)");
#else
  if (!native::cuda::device_available()) SKIP("no CUDA device on this machine");
#if !defined(KOKKOS_ENABLE_CUDA)
  SKIP("Kokkos was built without CUDA: the layer does not run on the GPU, nothing to compare bit for bit");
#endif
#endif
}

/// True when two Views hold the same bytes (copied to the host first).
template <class View>
bool same_bits(const View& a, const View& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  return a.span() == b.span() &&
         std::memcmp(ha.data(), hb.data(), ha.span() * sizeof(typename View::value_type)) == 0;
}

using DeviceSpace = Kokkos::DefaultExecutionSpace;
using HostSpace   = Kokkos::DefaultHostExecutionSpace;
/// Every backend of this Kokkos build: the default one and, if different, the host one.
using Spaces = std::conditional_t<std::is_same<DeviceSpace, HostSpace>::value, std::tuple<DeviceSpace>,
                                  std::tuple<DeviceSpace, HostSpace>>;

/// Seed of this run: SCRATCHKIT_TEST_SEED, or a fixed default. Tests print it on failure.
inline std::uint64_t base_seed() {
  static const std::uint64_t s = [] {
    const char* e = std::getenv("SCRATCHKIT_TEST_SEED");
    return e ? std::strtoull(e, nullptr, 10) : std::uint64_t(20261121);
  }();
  return s;
}

/// n, or at most 2^16 when SCRATCHKIT_TEST_QUICK is set (runs under
/// compute-sanitizer, whose racecheck is slow on large grids).
inline std::size_t sized(std::size_t n) {
  static const bool quick = std::getenv("SCRATCHKIT_TEST_QUICK") != nullptr;
  return quick && n > (std::size_t(1) << 16) ? (std::size_t(1) << 16) : n;
}

/// A seed for one case, derived from the run seed and the case's numbers.
inline std::uint64_t case_seed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  std::uint64_t h = base_seed() ^ 0x9e3779b97f4a7c15ULL;
  for (std::uint64_t v : {a, b, c}) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return h;
}

using check::fill_random;  // seeded inputs: scratchkit/reference/random.hpp

/// A value no kernel writes: NaN for reals, a sentinel for integers.
template <class T>
T poison() {
  if constexpr (std::is_floating_point<T>::value)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return static_cast<T>(0x5A5A5A5A);
}

/// Sets the host team size of every launch while it lives, through a tuning hook.
struct TeamSize {
  explicit TeamSize(int n)
      : hook([n](const scratchkit::tuning::LaunchRequest&) {
          scratchkit::tuning::LaunchTuning t;
          t.host_team_size = n;
          return t;
        }) {}
  scratchkit::tuning::ScopedTuningHook hook;
};

}  // namespace test
}  // namespace scratchkit
