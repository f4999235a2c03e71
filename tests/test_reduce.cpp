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
void check_reduce(ReduceVariant v, ReduceOp op, std::size_t n) {
  const auto seed = test::case_seed(n, static_cast<int>(op), sizeof(T));
  CAPTURE(name(v), name(op), n, seed, Exec::name(), sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, typename Exec::memory_space> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  test::fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  const T got = reduce(Exec(), v, op, x);

  const long long depth = reduce_error_depth(v, n);
  const auto res  = check::reduce<T>(op, hx.data(), n, got, depth);
  CAPTURE(got, res.worst, depth);
  CHECK(res.bad == 0);
}

template <class Exec>
void all_types(ReduceVariant v, ReduceOp op, std::size_t n) {
  check_reduce<Exec, std::int32_t>(v, op, n);
  check_reduce<Exec, std::int64_t>(v, op, n);
  check_reduce<Exec, float>(v, op, n);
  check_reduce<Exec, double>(v, op, n);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Reductions on the layer match the host reference", "[reduce][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    for (auto op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max})
      for (std::size_t n : {0, 1, 2, 3, 31, 33, 255, 256, 257, 511, 512, 513, 1000, 65537, 262145, 1 << 20})
        all_types<Exec>(v, op, n);
}

TEST_CASE("The error depth of each variant follows its summation tree", "[reduce]") {
  CHECK(reduce_error_depth(ReduceVariant::tree, 512) == 9);
  CHECK(reduce_error_depth(ReduceVariant::tree, 513) == 18);
  // grid-stride: 1024 blocks of 256 threads, 4 elements each for 2^20, tree of 8, 1024 atomics.
  CHECK(reduce_error_depth(ReduceVariant::grid_stride_atomic, 1 << 20) == 4 + 8 + 1024);
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, 1 << 20) == 4 + 10 + 4 + 10);
}

TEST_CASE("Native reduction needs the CUDA backend", "[reduce][bad-input]") {
  Kokkos::View<float*, Kokkos::HostSpace> x("x", 10);
  CHECK_THROWS_AS(reduce(Kokkos::DefaultHostExecutionSpace(), ReduceVariant::tree, ReduceOp::sum, x, Backend::native),
                  UnsupportedError);
}

TEST_CASE("reduce_tree_passes counts the passes", "[reduce]") {
  CHECK(reduce_tree_passes(1) == 1);
  CHECK(reduce_tree_passes(512) == 1);
  CHECK(reduce_tree_passes(513) == 2);
  CHECK(reduce_tree_passes(512 * 512) == 2);
  CHECK(reduce_tree_passes(512 * 512 + 1) == 3);
}
