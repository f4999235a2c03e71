// SPDX-License-Identifier: BSD-3-Clause
// Reduction on the layer against a host reference.
//
// Integers, min and max: exact. Float sums (rounding class): the tree adds
// each element at most d = passes * (1 + log2 256) times, so
//   |s - s_ref| <= gamma_d * sum |x_i|  (any summation tree of height d; check/reference.hpp).
#include "test_support.hpp"

#include <scratchkit/check/reference.hpp>
#include <scratchkit/kernels/reduce.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>

using namespace scratchkit;

namespace {

template <class Exec, class T>
void check_reduce(ReduceOp op, std::size_t n) {
  const auto seed = test::case_seed(n, static_cast<int>(op), sizeof(T));
  CAPTURE(name(op), n, seed, Exec::name(), sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, typename Exec::memory_space> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  test::fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  const T got = reduce(Exec(), ReduceVariant::tree, op, x);

  const int depth = reduce_tree_passes(n) * 9;  // per pass: 1 pair add + log2(256) tree levels
  const auto res  = check::reduce<T>(op, hx.data(), n, got, depth);
  CAPTURE(got, res.worst);
  CHECK(res.bad == 0);
}

template <class Exec>
void all_types(ReduceOp op, std::size_t n) {
  check_reduce<Exec, std::int32_t>(op, n);
  check_reduce<Exec, std::int64_t>(op, n);
  check_reduce<Exec, float>(op, n);
  check_reduce<Exec, double>(op, n);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Tree reduction on the layer matches the host reference", "[reduce][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max})
    for (std::size_t n : {0, 1, 2, 3, 255, 256, 257, 511, 512, 513, 1000, 65537, 262145, 1 << 20})
      all_types<Exec>(op, n);
}

TEST_CASE("reduce_tree_passes counts the passes", "[reduce]") {
  CHECK(reduce_tree_passes(1) == 1);
  CHECK(reduce_tree_passes(512) == 1);
  CHECK(reduce_tree_passes(513) == 2);
  CHECK(reduce_tree_passes(512 * 512) == 2);
  CHECK(reduce_tree_passes(512 * 512 + 1) == 3);
}
