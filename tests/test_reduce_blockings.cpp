// SPDX-License-Identifier: BSD-3-Clause
// Grid-stride reductions in blockings other than the default, against the host reference.
// A unit of its own: these calls reach the kernels' internals (detail::reduce_layer), which the
// library's explicit instantiations do not cover, so they compile here (docs/user-guide.md,
// "Compiled kernels"). Bounds as in test_reduce.cpp. tests/CMakeLists.txt compiles this file once
// per part (SCRATCHKIT_TEST_PART = 0..11: a blocking and one of int32, int64, float, double), so
// that no unit instantiates more than one kernel's worth of blockings.
#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/reduce.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <tuple>
#include <utility>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per part by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;

namespace {

/// Every result of the grid-stride variants in blocking Bk (not the default:
/// other threads, loads, hints) on misaligned subviews, on `fill` blocks.
/// The bound: the depth of Bk's tree, as reduce_error_depth derives it for the
/// default (a thread's lane chain of Bk::loads-vector steps + 2, its lanes,
/// the block: log2(threads) levels and one atomic per block, or warp + warps
/// (5 + 5) and the pass over the partials); 64 more levels cover any Bk here.
template <class Exec, class T, class Bk>
void check_blocking(std::size_t n, std::size_t off, long long fill) {
  const auto seed = test::case_seed(n, off + 4 * fill, 70 + sizeof(T) + Bk::threads + Bk::loads);
  CAPTURE(n, off, fill, seed, Exec::name(), sizeof(T), Bk::threads, Bk::loads, Bk::min_blocks);
  Kokkos::View<T*, typename Exec::memory_space> base("base", n + 3);
  auto hb = Kokkos::create_mirror(base);
  test::fill_random(hb, seed);
  Kokkos::deep_copy(base, hb);
  const auto x = Kokkos::subview(base, std::make_pair(off, off + n));
  const int grid = detail::reduce_grid<Bk>(n, sizeof(T), fill);
  const long long chain = detail::reduce_lane_chain<Bk>(n, sizeof(T), grid) + 2 + 64;
  const long long depth = chain + grid + detail::reduce_lane_chain<Bk>(static_cast<std::size_t>(grid), sizeof(T), 1);
  for (auto v : {ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    for (auto op : {ReduceOp::sum, ReduceOp::max}) {  // min: max's code path (fewer kernels to compile)
      CAPTURE(name(v), name(op));
      T got{};
      detail::with_reducer<T>(op, [&](auto red) { got = detail::reduce_layer<decltype(red), Bk>(Exec(), v, x, fill); });
      const auto res = check::reduce<T>(op, hb.data() + off, n, got, depth);
      CAPTURE(got, res.worst, depth);
      CHECK(res.bad == 0);
    }
}

using OtherBlockings = std::tuple<detail::ReduceBlocking<512, 2, 4, detail::LoadHint::no_allocate>,
                                  detail::ReduceBlocking<1024, 1, 2, detail::LoadHint::l2_256>,
                                  detail::ReduceBlocking<64, 3, 8, detail::LoadHint::evict_first>>;
using PartBlocking = std::tuple_element_t<SCRATCHKIT_TEST_PART / 4, OtherBlockings>;
using PartType     = std::tuple_element_t<SCRATCHKIT_TEST_PART % 4, std::tuple<std::int32_t, std::int64_t, float, double>>;

/// The part's blocking on its type.
template <class Exec, class Bk>
void check_blocking_part(std::size_t n, std::size_t off, long long fill) {
  check_blocking<Exec, PartType, Bk>(n, off, fill);
}

}  // namespace

#define SCRATCHKIT_TEST_STR2(x) #x
#define SCRATCHKIT_TEST_STR(x) SCRATCHKIT_TEST_STR2(x)

TEMPLATE_LIST_TEST_CASE("Grid-stride reductions in other blockings match the host reference (part "
                        SCRATCHKIT_TEST_STR(SCRATCHKIT_TEST_PART) ")",
                        "[reduce][layer]", test::Spaces) {
  using Exec = TestType;
  for (long long fill : {1, 3, 1056})
    for (std::size_t n : {1, 7, 4097, 65537, 262147})
      for (std::size_t off : {0, 1, 3}) check_blocking_part<Exec, PartBlocking>(n, off, fill);
}
