// SPDX-License-Identifier: BSD-3-Clause
// histogram's shared_atomic with the blockings the tuner may pick (not the defaults the library
// compiles): every block count, traversal and copy count against the host reference, exactly.
// tests/CMakeLists.txt compiles this file once per blocking (SCRATCHKIT_TEST_PART = 0..3), so that
// no unit instantiates more than one.
#include "histogram_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <tuple>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per blocking by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;
using namespace scratchkit::histogram_checks;

namespace {

using TunerBlockings =
    std::tuple<detail::HistogramBlocking<256, 2, 8, 8, detail::HistogramLoad::nc, true>,
               detail::HistogramBlocking<512, 4, 4, 32, detail::HistogramLoad::no_allocate, false>,
               detail::HistogramBlocking<1024, 1, 2, 16, detail::HistogramLoad::l2_256, true>,
               detail::HistogramBlocking<128, 3, 8, 1, detail::HistogramLoad::evict_first, true>>;
using PartBlocking = std::tuple_element_t<SCRATCHKIT_TEST_PART, TunerBlockings>;

/// shared_atomic with blocking Bk (not the default: what the tuner may pick)
/// on a device of `fill` blocks: every block count, traversal and copy count
/// against the reference, contiguous (with Bk's load) and strided.
template <class Exec, class T, class Bk>
void check_blocking(std::size_t n, std::size_t off, long long fill) {
  using Mem       = typename Exec::memory_space;
  const double lo = Range<T>::lo, hi = Range<T>::hi;
  const auto seed = test::case_seed(n, off + 8 * fill, 80 + sizeof(T) + Bk::threads + Bk::loads);
  CAPTURE(n, off, fill, seed, sizeof(T), Bk::threads, Bk::loads, Bk::copies, Bk::split, Exec::name());
  const PlacedValues<Exec, T> in(n, off, seed);
  const auto values = in.values();
  const auto column = in.column();  // stride 2
  detail::HistogramDevice d;
  d.fill_blocks     = fill;
  d.max_block_bytes = 32640;
  for (int bins : {7, 256, 1000}) {
    const auto ref   = reference(in.host(), n, lo, hi, bins);
    const auto hbins = detail::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "test");
    const auto plan  = detail::histogram_plan(HistogramVariant::shared_atomic, n, bins, d, detail::histogram_shape<Bk>());
    CAPTURE(bins, plan.blocks, plan.copies);
    const auto run = [&](const auto& vals) {
      Kokkos::View<std::uint32_t*, Mem> counts("counts", bins);
      Kokkos::deep_copy(counts, count_poison);
      Kokkos::deep_copy(Exec(), counts, std::uint32_t(0));
      if (n > 0)
        detail::with_source(vals, [&](const auto& src, std::size_t head) {
          detail::histogram_shared_atomic<Bk>(Exec(), detail::histogram_source<Bk>(src), n, head, hbins, counts, plan);
        });
      CHECK(count_mismatches(counts, ref, bins) == 0);
    };
    run(values);
    run(column);
  }
}

}  // namespace

#define SCRATCHKIT_TEST_STR2(x) #x
#define SCRATCHKIT_TEST_STR(x) SCRATCHKIT_TEST_STR2(x)

TEMPLATE_LIST_TEST_CASE("Histogram blocking " SCRATCHKIT_TEST_STR(SCRATCHKIT_TEST_PART)
                        " of the tuner's candidates matches the reference exactly",
                        "[histogram][layer]", test::Spaces) {
  using Exec = TestType;
  for (long long fill : {1, 3, 37})
    for (std::size_t n : {0, 1, 5, 33, 4099, 65537, 200003})
      for (std::size_t off : {0, 1}) {
        check_blocking<Exec, float, PartBlocking>(n, off, fill);
        check_blocking<Exec, double, PartBlocking>(n, off, fill);
        check_blocking<Exec, std::int32_t, PartBlocking>(n, off, fill);
      }
}
