// SPDX-License-Identifier: BSD-3-Clause
// Reduction on the layer against a host reference; native twin against the layer (bit for bit).
//
// Integers, min and max: exact. Float sums (rounding class): each element
// goes through at most d additions, d = reduce_error_depth (the height of the
// variant's summation tree for this grid and element size: a thread's lane
// chain, its lanes, warp and block trees, the pass over the partials), so
//   |s - s_ref| <= gamma_d * sum |x_i|  (any summation tree of height d; reference/reference.hpp).
#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/reduce.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

using namespace scratchkit;

namespace {

constexpr ReduceVariant all_variants[] = {ReduceVariant::tree, ReduceVariant::grid_stride_atomic,
                                          ReduceVariant::warp_shuffle};
constexpr ReduceOp all_ops[] = {ReduceOp::sum, ReduceOp::min, ReduceOp::max};

/// The depth bound of this run: exec's grid, T's element size.
template <class Exec, class T>
long long depth_of(ReduceVariant v, std::size_t n) {
  return reduce_error_depth(v, n, detail::reduce_device_fill<detail::ReduceDefaultBlocking>(Exec()), sizeof(T),
                            warp_size<Exec>());
}

/// The reduce of x (any rank-1 View on Exec) checked against the host values hx[0..n).
template <class Exec, class XView, class T>
void check_against(ReduceVariant v, ReduceOp op, const XView& x, const T* hx, std::size_t n) {
  const T got = reduce(Exec(), v, op, x);
  const long long depth = depth_of<Exec, T>(v, n);
  const auto res        = check::reduce<T>(op, hx, n, got, depth);
  CAPTURE(got, res.worst, depth);
  CHECK(res.bad == 0);
}

template <class Exec, class T>
void check_reduce(ReduceVariant v, ReduceOp op, std::size_t n) {
  const auto seed = test::case_seed(n, static_cast<int>(op), sizeof(T));
  CAPTURE(name(v), name(op), n, seed, Exec::name(), sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, typename Exec::memory_space> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  test::fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  check_against<Exec>(v, op, x, hx.data(), n);
}

template <class Exec>
void all_types(ReduceVariant v, ReduceOp op, std::size_t n) {
  check_reduce<Exec, std::int32_t>(v, op, n);
  check_reduce<Exec, std::int64_t>(v, op, n);
  check_reduce<Exec, float>(v, op, n);
  check_reduce<Exec, double>(v, op, n);
}

/// x = subview [off, off + n) of a View of n + 3: a start 4*off or 8*off bytes
/// past a 16-byte boundary, so the vector loop peels a head of 4 - off or 2 - off elements.
template <class Exec, class T>
void check_misaligned(std::size_t n, std::size_t off) {
  const auto seed = test::case_seed(n, off, 10 + sizeof(T));
  CAPTURE(n, off, seed, Exec::name(), sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, typename Exec::memory_space> base("base", n + 3);
  auto hb = Kokkos::create_mirror(base);
  test::fill_random(hb, seed);
  Kokkos::deep_copy(base, hb);
  const auto x = Kokkos::subview(base, std::make_pair(off, off + n));
  REQUIRE(x.extent(0) == n);
  for (auto v : all_variants)
    for (auto op : all_ops) {
      CAPTURE(name(v), name(op));
      check_against<Exec>(v, op, x, hb.data() + off, n);
    }
}

/// A column of a 2-D LayoutRight View (stride 2) is read element by element
/// in the vector loop's order: its result has the bits of a contiguous,
/// 16-byte aligned copy of the same values (same operations, same order).
template <class Exec, class T>
void check_strided(std::size_t n) {
  const auto seed = test::case_seed(n, 7, 20 + sizeof(T));
  CAPTURE(n, seed, Exec::name(), sizeof(T));
  using Mem = typename Exec::memory_space;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> m("m", n, 2);
  Kokkos::View<T*, Mem> c("c", n);
  auto hm = Kokkos::create_mirror(m);
  test::fill_random(hm, seed);
  auto hc = Kokkos::create_mirror(c);
  for (std::size_t i = 0; i < n; ++i) hc(i) = hm(i, 1);
  Kokkos::deep_copy(m, hm);
  Kokkos::deep_copy(c, hc);
  const auto col = Kokkos::subview(m, Kokkos::ALL, 1);
  REQUIRE(detail::head_to_16(c.data(), n) == 0);
  for (auto v : all_variants)
    for (auto op : all_ops) {
      CAPTURE(name(v), name(op));
      const T a = reduce(Exec(), v, op, col), b = reduce(Exec(), v, op, c);
      check_against<Exec>(v, op, col, hc.data(), n);
      if (!(v == ReduceVariant::grid_stride_atomic && op == ReduceOp::sum && std::is_floating_point<T>::value))
        CHECK(std::memcmp(&a, &b, sizeof(T)) == 0);
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Reductions on the layer match the host reference", "[reduce][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : all_variants)
    for (auto op : all_ops)
      for (std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 255, 256, 257, 511, 512, 513, 1000, 4095, 4096, 4097,
                            65535, 65537, 262145, 1000003, 1 << 20})
        all_types<Exec>(v, op, n);
}

TEMPLATE_LIST_TEST_CASE("Reductions of misaligned subviews peel the head and the tail", "[reduce][layer]",
                        test::Spaces) {
  using Exec = TestType;
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 1023, 1025, 4097, 65537, 262147})
    for (std::size_t off : {1, 2, 3}) {
      check_misaligned<Exec, std::int32_t>(n, off);
      check_misaligned<Exec, std::int64_t>(n, off);
      check_misaligned<Exec, float>(n, off);
      check_misaligned<Exec, double>(n, off);
    }
}

TEMPLATE_LIST_TEST_CASE("Reductions of strided Views follow the contiguous order", "[reduce][layer]",
                        test::Spaces) {
  using Exec = TestType;
  for (std::size_t n : {1, 5, 4097, 100003}) {
    check_strided<Exec, std::int32_t>(n);
    check_strided<Exec, std::int64_t>(n);
    check_strided<Exec, float>(n);
    check_strided<Exec, double>(n);
  }
}

TEMPLATE_LIST_TEST_CASE("tree and warp_shuffle reductions are reproducible bit for bit", "[reduce][layer]",
                        test::Spaces) {
  using Exec      = TestType;
  const std::size_t n = 1000003;
  Kokkos::View<float*, typename Exec::memory_space> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  test::fill_random(hx, test::case_seed(n, 99));
  Kokkos::deep_copy(x, hx);
  for (auto v : {ReduceVariant::tree, ReduceVariant::warp_shuffle}) {
    CAPTURE(name(v));
    const float a = reduce(Exec(), v, ReduceOp::sum, x);
    for (int rep = 0; rep < 3; ++rep) {
      const float b = reduce(Exec(), v, ReduceOp::sum, x);
      CHECK(std::memcmp(&a, &b, sizeof(float)) == 0);
    }
  }
}

TEST_CASE("The error depth of each variant follows its summation tree", "[reduce]") {
  CHECK(reduce_error_depth(ReduceVariant::tree, 512, 1056, 4) == 9);
  CHECK(reduce_error_depth(ReduceVariant::tree, 513, 1056, 8) == 18);
  // H100: 132 SMs x 8 blocks. 2^28 floats: 2^26 vectors over 1056 x 256
  // threads x 4 loads: 63 steps of 4 per lane, + head and tail; 2 levels over
  // the 4 lanes; then the block (8 levels) and 1056 atomics, or warp + warps
  // (5 + 5) and again over the 1056 partials (264 vectors: 1 step of 4 + 2,
  // 2, 5 + 5).
  CHECK(detail::reduce_grid(std::size_t(1) << 28, 4, 1056) == 1056);
  CHECK(reduce_error_depth(ReduceVariant::grid_stride_atomic, std::size_t(1) << 28, 1056, 4) == 254 + 2 + 8 + 1056);
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, std::size_t(1) << 28, 1056, 4) == 254 + 2 + 10 + 6 + 2 + 10);
  // 2^28 doubles: 2^27 vectors, 125 steps of 4 per lane, 1 level over 2 lanes.
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, std::size_t(1) << 28, 1056, 8) == 502 + 1 + 10 + 6 + 1 + 10);
  // Small n: one block of 4096 floats a step; a single block needs no second pass.
  CHECK(detail::reduce_grid(4096, 4, 1056) == 1);
  CHECK(detail::reduce_grid(4097, 4, 1056) == 2);
  CHECK(detail::reduce_grid(0, 8, 1056) == 1);
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, 4096, 1056, 4) == 6 + 2 + 10);
  // 64-lane warps (AMD wavefronts): 6 shuffle levels a tree instead of 5.
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, 4096, 1056, 4, 64) == 6 + 2 + 12);
  CHECK(reduce_error_depth(ReduceVariant::warp_shuffle, std::size_t(1) << 28, 1056, 8, 64) ==
        502 + 1 + 12 + 6 + 1 + 12);
  CHECK(reduce_error_depth(ReduceVariant::tree, 513, 1056, 8, 64) == 18);
  // The untyped bound covers both element sizes on the default device.
  const long long fill =
      detail::reduce_device_fill<detail::ReduceDefaultBlocking>(Kokkos::DefaultExecutionSpace());
  for (auto v : all_variants)
    CHECK(reduce_error_depth(v, 1 << 20) ==
          std::max(reduce_error_depth(v, 1 << 20, fill, 4, warp_size<Kokkos::DefaultExecutionSpace>()),
                   reduce_error_depth(v, 1 << 20, fill, 8, warp_size<Kokkos::DefaultExecutionSpace>())));
}

TEST_CASE("Reduction rejects bad input before launch", "[reduce][bad-input]") {
  Kokkos::View<float*, Kokkos::HostSpace> x("x", 10), none("none", 0);
  CHECK_THROWS_AS(reduce(Kokkos::DefaultHostExecutionSpace(), ReduceVariant::tree, ReduceOp::sum, x, Backend::native),
                  UnsupportedError);
  CHECK_THROWS_AS(reduce(Kokkos::DefaultHostExecutionSpace(), static_cast<ReduceVariant>(42), ReduceOp::sum, x),
                  UnsupportedError);
  CHECK_THROWS_AS(reduce(Kokkos::DefaultHostExecutionSpace(), static_cast<ReduceVariant>(42), ReduceOp::sum, none),
                  UnsupportedError);
  CHECK_THROWS_AS(reduce(Kokkos::DefaultHostExecutionSpace(), ReduceVariant::tree, static_cast<ReduceOp>(42), x),
                  UnsupportedError);
}

TEST_CASE("reduce_tree_passes counts the passes", "[reduce]") {
  CHECK(reduce_tree_passes(1) == 1);
  CHECK(reduce_tree_passes(512) == 1);
  CHECK(reduce_tree_passes(513) == 2);
  CHECK(reduce_tree_passes(512 * 512) == 2);
  CHECK(reduce_tree_passes(512 * 512 + 1) == 3);
}

namespace {

#if SCRATCHKIT_TEST_TWINS
/// Layer and native on the same misaligned subview: equal bits (but the
/// atomic float sums, which must each be within the bound), and each again
/// equal to itself (reproducible).
template <class T>
void reduce_twins_misaligned(std::size_t n, std::size_t off) {
  using Cuda      = Kokkos::Cuda;
  const auto seed = test::case_seed(n, off, 30 + sizeof(T));
  CAPTURE(n, off, seed, sizeof(T), std::is_floating_point<T>::value);
  Kokkos::View<T*, Kokkos::LayoutRight, Kokkos::CudaSpace> base("base", n + 3);
  auto hb = Kokkos::create_mirror_view(base);
  test::fill_random(hb, seed);
  Kokkos::deep_copy(base, hb);
  const auto x = Kokkos::subview(base, std::make_pair(off, off + n));
  for (auto v : all_variants)
    for (auto op : all_ops) {
      CAPTURE(name(v), name(op));
      const T layer = reduce(Cuda(), v, op, x);
      const T nat   = reduce(Cuda(), v, op, x, Backend::native);
      const long long d = reduce_error_depth(Cuda(), v, n);
      CHECK(check::reduce<T>(op, hb.data() + off, n, layer, d).passed());
      CHECK(check::reduce<T>(op, hb.data() + off, n, nat, d).passed());
      if (v == ReduceVariant::grid_stride_atomic && op == ReduceOp::sum && std::is_floating_point<T>::value) continue;
      CHECK(std::memcmp(&layer, &nat, sizeof(T)) == 0);
      const T layer2 = reduce(Cuda(), v, op, x), nat2 = reduce(Cuda(), v, op, x, Backend::native);
      CHECK(std::memcmp(&layer, &layer2, sizeof(T)) == 0);
      CHECK(std::memcmp(&nat, &nat2, sizeof(T)) == 0);
    }
}
#endif

}  // namespace

TEST_CASE("Native CUDA reduction of misaligned subviews agrees with the layer bit for bit",
          "[reduce][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (std::size_t n0 : {0, 1, 3, 4, 5, 7, 8, 9, 4095, 4097, 65535, 65537, 1000003, (1 << 22) + 3})
    for (std::size_t off : {0, 1, 3}) {
      const std::size_t n = test::sized(n0);
      reduce_twins_misaligned<std::int32_t>(n, off);
      reduce_twins_misaligned<std::int64_t>(n, off);
      reduce_twins_misaligned<float>(n, off);
      reduce_twins_misaligned<double>(n, off);
    }
#endif
}
