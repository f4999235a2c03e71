// SPDX-License-Identifier: BSD-3-Clause
/// Seeded random inputs for cross-checks and benchmarks (never zeros).
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>

namespace scratchkit {
namespace check {

/// Fills a host View (anything with data() and span()) from seed: reals
/// uniform in [-1, 1), integers uniform in [lo, hi]. The same seed gives the
/// same values everywhere, so a failing case can be replayed.
template <class HostView>
void fill_random(const HostView& v, std::uint64_t seed, long long lo = -1000, long long hi = 1000) {
  using T = typename HostView::non_const_value_type;
  std::mt19937_64 gen(seed);
  auto* p             = v.data();
  const std::size_t n = v.span();
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
  } else {
    std::uniform_int_distribution<long long> d(lo, hi);
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<T>(d(gen));
  }
}

}  // namespace check
}  // namespace scratchkit
