// SPDX-License-Identifier: BSD-3-Clause
// histogram with plans forced for a device of a few or many blocks and small or large blocks:
// several blocks and chunks on any backend, against the host reference exactly (helpers:
// support/histogram_checks.hpp). tests/CMakeLists.txt compiles this file once per part
// (SCRATCHKIT_TEST_PART 0: float and int32 values, 1: double), so that no unit takes a minute.
#include "histogram_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per part by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;
using namespace scratchkit::histogram_checks;

namespace {

/// Counts with a plan for a device of `fill` blocks whose blocks hold at most
/// `max_bytes` of counters: several blocks and chunks on any backend.
template <class Exec, class T>
void check_plan(std::size_t n, std::size_t off, long long fill, std::size_t max_bytes) {
  using Mem       = typename Exec::memory_space;
  const double lo = Range<T>::lo, hi = Range<T>::hi;
  const auto seed = test::case_seed(n, off + 8 * fill, 60 + sizeof(T) + std::is_integral<T>::value);
  CAPTURE(n, off, fill, max_bytes, seed, sizeof(T), std::is_integral<T>::value, Exec::name());
  const PlacedValues<Exec, T> in(n, off, seed);
  const auto values = in.values();
  detail::HistogramDevice d;
  d.fill_blocks     = fill;
  d.max_block_bytes = max_bytes;
  for (int bins : {7, 256, 1000, 4099}) {
    const auto ref = reference(in.host(), n, lo, hi, bins);
    const auto hbins = detail::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "test");
    for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
      const auto plan = detail::histogram_plan(v, n, bins, d);
      CAPTURE(name(v), bins, plan.blocks, plan.chunks, plan.chunk_bins, plan.copies);
      Kokkos::View<std::uint32_t*, Mem> counts("counts", bins);
      Kokkos::deep_copy(counts, count_poison);
      detail::histogram_layer_run(Exec(), v, values, hbins, counts, plan);
      CHECK(count_mismatches(counts, ref, bins) == 0);
    }
  }
}

}  // namespace

#define SCRATCHKIT_TEST_STR2(x) #x
#define SCRATCHKIT_TEST_STR(x) SCRATCHKIT_TEST_STR2(x)

TEMPLATE_LIST_TEST_CASE("Histogram over several blocks and chunks matches the reference exactly (part "
                        SCRATCHKIT_TEST_STR(SCRATCHKIT_TEST_PART) ")",
                        "[histogram][layer]", test::Spaces) {
  using Exec = TestType;
  for (long long fill : {3, 64})
    for (std::size_t max_bytes : {std::size_t(1000), std::size_t(32640)})
      for (std::size_t n : {1, 5, 4099, 65537})
        for (std::size_t off : {0, 1, 2}) {
#if SCRATCHKIT_TEST_PART == 0
          check_plan<Exec, float>(n, off, fill, max_bytes);
          check_plan<Exec, std::int32_t>(n, off, fill, max_bytes);
#else
          check_plan<Exec, double>(n, off, fill, max_bytes);
#endif
        }
}
