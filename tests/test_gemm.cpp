// SPDX-License-Identifier: BSD-3-Clause
// GEMM on the layer against a host reference in long double, and its variants
// against each other (bit for bit: they all sum over k in the same order).
// Tolerance: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
// (scratchkit/check/reference.hpp says where it comes from).
#include "test_support.hpp"

#include <scratchkit/check/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>

using namespace scratchkit;

namespace {

template <class Exec, class Scalar>
void check_gemm(GemmVariant v, int M, int N, int K, Scalar alpha, Scalar beta) {
  using View = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(name(v), M, N, K, alpha, beta, seed, Exec::name());
  View A("A", M, K), B("B", K, N), C("C", M, N);
  auto hA = Kokkos::create_mirror_view(A);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror(C);  // a copy: on host backends a mirror view would alias C
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  if (beta == Scalar(0)) {
    Kokkos::deep_copy(hC, test::poison<Scalar>());  // beta == 0: C must not be read
  } else {
    test::fill_random(hC, seed + 2);
  }
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C, hC);
  gemm(Exec(), v, alpha, A, B, beta, C);
  auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  const auto res = check::gemm<Scalar>(M, N, K, alpha, hA.data(), hB.data(), beta, hC.data(), out.data());
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

// 0, 1, primes, 2^k +- 1 and non-multiples of every tile (16; 128 x 128 x 8 and 64 x 64 x 8 for register_blocked).
const int gemm_sizes[][3] = {{1, 1, 1},    {16, 16, 16},    {17, 31, 13}, {64, 64, 64},   {127, 129, 65},
                             {3, 4, 0},    {2, 3, 1},       {97, 33, 257}, {5, 7, 1023},  {100, 1, 17},
                             {65, 63, 17}, {128, 128, 128}, {1, 129, 3},   {131, 257, 9}, {257, 130, 33}};

const GemmVariant gemm_variants[] = {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                                     GemmVariant::register_blocked};

/// Runs every variant on the same inputs (beta != 0) and requires identical
/// bits: each sums C(i, j) over k = 0..K-1 in increasing order with the same
/// operations (the tiled ones add zero products past K, which changes nothing
/// for sums that are not exactly -0, impossible with these random inputs).
template <class Exec, class Scalar>
void check_same_bits_across_variants(int M, int N, int K) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(M, N, K, seed, Exec::name(), sizeof(Scalar));
  View A("A", M, K), B("B", K, N), C0("C0", M, N), Cref("Cref", M, N), C("C", M, N);
  auto hA = Kokkos::create_mirror_view(A);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror(C0);
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  test::fill_random(hC, seed + 2);
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C0, hC);
  const Scalar alpha = Scalar(1.25), beta = Scalar(-0.5);
  Kokkos::deep_copy(Cref, C0);
  gemm(Exec(), GemmVariant::naive, alpha, A, B, beta, Cref);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    Kokkos::deep_copy(C, C0);
    gemm(Exec(), v, alpha, A, B, beta, C);
    Exec().fence();
    CHECK(test::same_bits(C, Cref));
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("GEMM on the layer matches the host reference", "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : gemm_variants) {
    for (const auto& s : gemm_sizes) {
      check_gemm<Exec, float>(v, s[0], s[1], s[2], 1.0f, 0.0f);
      check_gemm<Exec, double>(v, s[0], s[1], s[2], 1.0, 0.0);
    }
    check_gemm<Exec, float>(v, 33, 17, 45, -1.5f, 0.75f);
    check_gemm<Exec, double>(v, 33, 17, 45, 2.0, -0.5);
    check_gemm<Exec, float>(v, 129, 65, 31, 0.5f, 1.0f);
    check_gemm<Exec, double>(v, 129, 65, 31, -1.0, 0.25);
    check_gemm<Exec, float>(v, 7, 3, 0, 1.0f, -2.0f);  // K = 0: C = beta * C
  }
}

TEMPLATE_LIST_TEST_CASE("GEMM variants agree with each other bit for bit", "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (const auto& s : {std::array<int, 3>{1, 1, 1}, {17, 31, 13}, {65, 63, 17}, {127, 129, 65}, {3, 4, 0},
                        {1, 129, 3}, {131, 257, 9}}) {
    check_same_bits_across_variants<Exec, float>(s[0], s[1], s[2]);
    check_same_bits_across_variants<Exec, double>(s[0], s[1], s[2]);
  }
}

TEST_CASE("GEMM rejects mismatched shapes before launch", "[gemm][bad-input]") {
  using Exec = test::DeviceSpace;
  using View = Kokkos::View<float**, Exec::memory_space>;
  View A("A", 4, 5), B("B", 6, 3), C("C", 4, 3), Cbad("C", 3, 3);
  CHECK_THROWS_WITH(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B, 0.0f, C),
                    Catch::Matchers::ContainsSubstring("A is 4 x 5, B is 6 x 3"));
  View B2("B", 5, 3);
  CHECK_THROWS_AS(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B2, 0.0f, Cbad), ShapeError);
  CHECK_NOTHROW(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B2, 0.0f, C));
  View E("E", 0, 3), Ea("Ea", 0, 5);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    CHECK_THROWS_AS(gemm(Exec(), v, 1.0f, A, B, 0.0f, C), ShapeError);
    CHECK_NOTHROW(gemm(Exec(), v, 1.0f, Ea, B2, 0.0f, E));  // M = 0
  }
}

TEST_CASE("GEMM Backend::native on a Serial execution space throws UnsupportedError", "[gemm][native][bad-input]") {
#ifdef KOKKOS_ENABLE_SERIAL
  using View = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  View A("A", 4, 5), B("B", 5, 3), C("C", 4, 3);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    CHECK_THROWS_AS(gemm(Kokkos::Serial(), v, 1.0, A, B, 0.0, C, Backend::native), UnsupportedError);
    CHECK_THROWS_WITH(gemm(Kokkos::Serial(), v, 1.0, A, B, 0.0, C, Backend::native),
                      Catch::Matchers::ContainsSubstring("Backend::native"));
  }
#else
  SKIP("Kokkos was built without the Serial backend");
#endif
}
