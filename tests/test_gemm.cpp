// SPDX-License-Identifier: BSD-3-Clause
// GEMM on the layer against a host reference in long double.
// Tolerance: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
// (scratchkit/check/reference.hpp says where it comes from).
#include "test_support.hpp"

#include <scratchkit/check/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>


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

const int gemm_sizes[][3] = {{1, 1, 1},   {16, 16, 16}, {17, 31, 13}, {64, 64, 64}, {127, 129, 65},
                             {3, 4, 0},   {2, 3, 1},    {97, 33, 257}, {5, 7, 1023}, {100, 1, 17}};

}  // namespace

TEMPLATE_LIST_TEST_CASE("GEMM on the layer matches the host reference", "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : {GemmVariant::naive, GemmVariant::tiled}) {
    for (const auto& s : gemm_sizes) {
      check_gemm<Exec, float>(v, s[0], s[1], s[2], 1.0f, 0.0f);
      check_gemm<Exec, double>(v, s[0], s[1], s[2], 1.0, 0.0);
    }
    check_gemm<Exec, float>(v, 33, 17, 45, -1.5f, 0.75f);
    check_gemm<Exec, double>(v, 33, 17, 45, 2.0, -0.5);
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
  CHECK_NOTHROW(gemm(Exec(), GemmVariant::tiled, 1.0f, Ea, B2, 0.0f, E));  // M = 0
}
