// SPDX-License-Identifier: BSD-3-Clause
// Grid-stride reductions on a grid capped at a few blocks, against the host reference.
// A unit of its own: these calls reach the kernels' internals (detail::reduce_layer), which the
// library's explicit instantiations do not cover, so they compile here (docs/user-guide.md,
// "Compiled kernels"). Bounds as in test_reduce.cpp. tests/CMakeLists.txt compiles this file once
// per element type (SCRATCHKIT_TEST_PART = 0..3: int32, int64, float, double).
#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/reduce.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <tuple>
#include <utility>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per element type by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;

namespace {

using PartType = std::tuple_element_t<SCRATCHKIT_TEST_PART, std::tuple<std::int32_t, std::int64_t, float, double>>;

constexpr ReduceOp all_ops[] = {ReduceOp::sum, ReduceOp::min, ReduceOp::max};

/// reduce() with the grid-stride variants' grid capped at `fill` blocks
/// instead of the device's: several blocks, and the pass over their
/// partials, on any backend (Serial alone would always run one block).
template <class Exec, class XView>
typename XView::non_const_value_type reduce_fill(ReduceVariant v, ReduceOp op, const XView& x, long long fill) {
  using T = typename XView::non_const_value_type;
  T r{};
  detail::with_reducer<T>(op, [&](auto red) { r = detail::reduce_layer<decltype(red)>(Exec(), v, x, fill); });
  return r;
}

template <class Exec, class T>
void check_fill(std::size_t n, std::size_t off, long long fill) {
  const auto seed = test::case_seed(n, off + 4 * fill, 50 + sizeof(T));
  CAPTURE(n, off, fill, seed, Exec::name(), sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, typename Exec::memory_space> base("base", n + 3);
  auto hb = Kokkos::create_mirror(base);
  test::fill_random(hb, seed);
  Kokkos::deep_copy(base, hb);
  const auto x = Kokkos::subview(base, std::make_pair(off, off + n));
  for (auto v : {ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    for (auto op : all_ops) {
      CAPTURE(name(v), name(op));
      const T got = reduce_fill<Exec>(v, op, x, fill);
      const long long depth = reduce_error_depth(v, n, fill, sizeof(T), warp_size<Exec>());
      const auto res        = check::reduce<T>(op, hb.data() + off, n, got, depth);
      CAPTURE(got, res.worst, depth);
      CHECK(res.bad == 0);
    }
}

}  // namespace

#define SCRATCHKIT_TEST_STR2(x) #x
#define SCRATCHKIT_TEST_STR(x) SCRATCHKIT_TEST_STR2(x)

TEMPLATE_LIST_TEST_CASE("Grid-stride reductions over several blocks match the host reference (type "
                        SCRATCHKIT_TEST_STR(SCRATCHKIT_TEST_PART) ")",
                        "[reduce][layer]", test::Spaces) {
  using Exec = TestType;
  for (long long fill : {2, 3, 7, 1056})
    for (std::size_t n : {1, 5, 4097, 8193, 65537, 1000003})
      for (std::size_t off : {0, 1, 3}) check_fill<Exec, PartType>(n, off, fill);
}
