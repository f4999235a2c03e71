// SPDX-License-Identifier: BSD-3-Clause
/// Shared helpers for the tests: backends under test, seeded random data,
/// poisoning (the bounds themselves are in scratchkit/check/reference.hpp).
#pragma once

#include <scratchkit/config.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>

namespace scratchkit {
namespace test {

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

/// A seed for one case, derived from the run seed and the case's numbers.
inline std::uint64_t case_seed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  std::uint64_t h = base_seed() ^ 0x9e3779b97f4a7c15ULL;
  for (std::uint64_t v : {a, b, c}) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  return h;
}

/// Fills a host View with uniform values: reals in [-1, 1), integers in [lo, hi].
template <class HostView>
void fill_random(const HostView& v, std::uint64_t seed, long long lo = -1000, long long hi = 1000) {
  using T = typename HostView::non_const_value_type;
  std::mt19937_64 gen(seed);
  auto* p = v.data();
  const std::size_t n = v.span();
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
  } else {
    std::uniform_int_distribution<long long> d(lo, hi);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
  }
}

/// A value no kernel writes: NaN for reals, a sentinel for integers.
template <class T>
T poison() {
  if constexpr (std::is_floating_point<T>::value)
    return std::numeric_limits<T>::quiet_NaN();
  else
    return static_cast<T>(0x5A5A5A5A);
}

}  // namespace test
}  // namespace scratchkit
