// SPDX-License-Identifier: BSD-3-Clause
/// Seeded random inputs for cross-checks and benchmarks (never zeros).
#pragma once

#include <scratchkit/reference/parallel.hpp>

#include <cstddef>
#include <cstdint>
#include <random>
#include <type_traits>

namespace scratchkit {
namespace check {

/// Elements per independently seeded chunk of fill_random.
constexpr std::size_t fill_chunk = std::size_t(1) << 20;

/// The seed of chunk c >= 1 of fill_random (splitmix64 of seed and c):
/// chunk 0 uses `seed` itself, so inputs of up to fill_chunk elements are
/// the first values of std::mt19937_64(seed).
inline std::uint64_t chunk_seed(std::uint64_t seed, std::uint64_t c) {
  std::uint64_t z = seed + (c + 1) * 0x9E3779B97F4A7C15ull;
  z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Fills a host View (anything with data() and span()) from seed: reals
/// uniform in [-1, 1), integers uniform in [lo, hi]. The same seed gives the
/// same values everywhere, so a failing case can be replayed: the span is
/// cut into chunks of fill_chunk elements, each from its own std::mt19937_64
/// (chunk_seed), filled on host threads (detail::for_chunks) -- the values do
/// not depend on the thread count.
template <class HostView>
void fill_random(const HostView& v, std::uint64_t seed, long long lo = -1000, long long hi = 1000) {
  using T             = typename HostView::non_const_value_type;
  auto* p             = v.data();
  const std::size_t n = v.span();
  detail::for_chunks(n, fill_chunk, [=](std::size_t b, std::size_t e, std::size_t c) {
    std::mt19937_64 gen(c == 0 ? seed : chunk_seed(seed, c));
    if constexpr (std::is_floating_point<T>::value) {
      std::uniform_real_distribution<double> d(-1.0, 1.0);
      for (std::size_t i = b; i < e; ++i) p[i] = static_cast<T>(d(gen));
    } else {
      std::uniform_int_distribution<long long> d(lo, hi);
      for (std::size_t i = b; i < e; ++i) p[i] = static_cast<T>(d(gen));
    }
  });
}

}  // namespace check
}  // namespace scratchkit
