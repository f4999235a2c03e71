// SPDX-License-Identifier: BSD-3-Clause
// 1-D stencil on the layer against a host reference.
//
// Tolerance (rounding class): each output is a sum of 2R+1 products, so
//   |out_i - ref_i| <= gamma_{2R+1} * sum_j |w_j| |in_{i+j-R}|  (check/reference.hpp).
#include "test_support.hpp"

#include <scratchkit/check/reference.hpp>
#include <scratchkit/kernels/stencil_1d.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>


using namespace scratchkit;

namespace {

template <class Exec, class T>
void check_stencil(int n, int R) {
  const auto seed = test::case_seed(n, R, sizeof(T));
  CAPTURE(n, R, seed, Exec::name(), sizeof(T));
  using View = Kokkos::View<T*, typename Exec::memory_space>;
  View in("in", n), w("w", 2 * R + 1), out("out", n);
  auto hin = Kokkos::create_mirror_view(in);
  auto hw  = Kokkos::create_mirror_view(w);
  test::fill_random(hin, seed);
  test::fill_random(hw, seed + 1);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(w, hw);
  Kokkos::deep_copy(out, test::poison<T>());
  stencil_1d(Exec(), Stencil1DVariant::halo_tile, in, w, out);
  auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const auto res = check::stencil_1d<T>(hin.data(), hw.data(), R, hout.data(), n);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("1-D stencil on the layer matches the host reference", "[stencil_1d][layer]", test::Spaces) {
  using Exec = TestType;
  for (int R : {0, 1, 3, 8, 300})
    for (int n : {0, 1, 2, 255, 256, 257, 1000, 4099}) {
      check_stencil<Exec, float>(n, R);
      check_stencil<Exec, double>(n, R);
    }
}

TEST_CASE("1-D stencil rejects bad shapes and oversized radii", "[stencil_1d][bad-input]") {
  using Exec = test::DeviceSpace;
  using View = Kokkos::View<float*, Exec::memory_space>;
  View in("in", 100), out("out", 99), w("w", 3), weven("w", 4);
  CHECK_THROWS_WITH(stencil_1d(Exec(), Stencil1DVariant::halo_tile, in, w, out),
                    Catch::Matchers::ContainsSubstring("in has 100, out 99, w 3"));
  View out2("out", 100);
  CHECK_THROWS_AS(stencil_1d(Exec(), Stencil1DVariant::halo_tile, in, weven, out2), ShapeError);
  // A radius whose tile cannot fit in level-0 scratch is refused with the numbers.
  View wbig("w", 2 * 20000 + 1);
  CHECK_THROWS_WITH(stencil_1d(Exec(), Stencil1DVariant::halo_tile, in, wbig, out2),
                    Catch::Matchers::ContainsSubstring("bytes available per team"));
}
