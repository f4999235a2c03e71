// SPDX-License-Identifier: BSD-3-Clause
// 1-D stencil on the layer against a host reference; the vectorized variant
// against halo_tile and against its native twin, bit for bit.
//
// Tolerance (rounding class): each output is a sum of 2R+1 products, so
//   |out_i - ref_i| <= gamma_{2R+1} * sum_j |w_j| |in_{i+j-R}|  (reference/reference.hpp).
// Both variants compute every output as s = 0; s += w_j * in_{i+j-R} for
// j = 0..2R in order, so they must agree bit for bit on every backend (and
// each with its native twin on the GPU), whatever path (16-byte vectors or
// scalars) the vectorized variant takes to load and store.
#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/stencil_1d.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <utility>
#include <vector>

using namespace scratchkit;

namespace {

template <class Exec, class T>
void check_stencil(Stencil1DVariant v, int n, int R) {
  const auto seed = test::case_seed(n, R, sizeof(T));
  CAPTURE(name(v), n, R, seed, Exec::name(), sizeof(T));
  using View = Kokkos::View<T*, typename Exec::memory_space>;
  View in("in", n), w("w", 2 * R + 1), out("out", n);
  auto hin = Kokkos::create_mirror_view(in);
  auto hw  = Kokkos::create_mirror_view(w);
  test::fill_random(hin, seed);
  test::fill_random(hw, seed + 1);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(w, hw);
  Kokkos::deep_copy(out, test::poison<T>());
  stencil_1d(Exec(), v, in, w, out);
  auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  const auto res = check::stencil_1d<T>(hin.data(), hw.data(), R, hout.data(), n);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

/// Kinds of input/output View the vectorized variant sees: aligned and
/// contiguous (16-byte path), starting one element into an allocation
/// (contiguous but not 16-byte aligned: scalar path), strided (scalar path).
enum class Placement { aligned, offset_by_one, strided };

inline const char* placement_name(Placement p) {
  return p == Placement::aligned ? "aligned" : p == Placement::offset_by_one ? "offset_by_one" : "strided";
}

/// vectorized against halo_tile, bit for bit, with in and out placed as `pl`
/// says; and vectorized against the host reference.
template <class Exec, class T>
void vectorized_vs_halo_tile(int n, int R, Placement pl) {
  const auto seed = test::case_seed(n, R, sizeof(T) + 100);
  CAPTURE(n, R, placement_name(pl), seed, Exec::name(), sizeof(T));
  using Mem   = typename Exec::memory_space;
  using View2 = Kokkos::View<T**, Kokkos::LayoutRight, Mem>;
  // Column 0 of an n x 2 array is strided; row 0 of a 1 x (n+1) array from
  // element 1 is contiguous and 4 or 8 bytes off a 16-byte boundary.
  View2 bin("bin", pl == Placement::strided ? n : 1, pl == Placement::strided ? 2 : n + 1);
  View2 bvec("bvec", bin.extent(0), bin.extent(1)), bhalo("bhalo", bin.extent(0), bin.extent(1));
  using Sub  = Kokkos::View<T*, Kokkos::LayoutStride, Mem>;
  auto pick = [&](const View2& b) -> Sub {
    if (pl == Placement::strided) return Kokkos::subview(b, Kokkos::ALL, 0);
    const int first = pl == Placement::offset_by_one ? 1 : 0;
    return Kokkos::subview(b, 0, std::make_pair(first, first + n));
  };
  const auto in = pick(bin), ovec = pick(bvec), ohalo = pick(bhalo);
  REQUIRE(in.extent(0) == static_cast<std::size_t>(n));
  Kokkos::View<T*, Mem> w("w", 2 * R + 1);
  auto hbin = Kokkos::create_mirror_view(bin);
  auto hw   = Kokkos::create_mirror_view(w);
  test::fill_random(hbin, seed);
  test::fill_random(hw, seed + 1);
  Kokkos::deep_copy(bin, hbin);
  Kokkos::deep_copy(w, hw);
  Kokkos::deep_copy(bvec, test::poison<T>());
  Kokkos::deep_copy(bhalo, test::poison<T>());
  stencil_1d(Exec(), Stencil1DVariant::vectorized, in, w, ovec);
  stencil_1d(Exec(), Stencil1DVariant::halo_tile, in, w, ohalo);
  Kokkos::fence();
  // Whole arrays: the elements outside the picked range must stay poisoned in both.
  CHECK(test::same_bits(bvec, bhalo));
  std::vector<T> hin(n), hout(n);
  // Strided device views go through a contiguous device copy: Kokkos cannot
  // copy a non-contiguous CUDA view straight to the host.
  const auto to_host = [](const Sub& v) {
    Kokkos::View<T*, Mem> tmp("tmp", v.extent(0));
    Kokkos::deep_copy(tmp, v);
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tmp);
  };
  auto hv = to_host(ovec);
  auto hi = to_host(in);
  for (int i = 0; i < n; ++i) {
    hin[i]  = hi(i);
    hout[i] = hv(i);
  }
  const auto res = check::stencil_1d<T>(hin.data(), hw.data(), R, hout.data(), n);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("1-D stencil on the layer matches the host reference", "[stencil_1d][layer]", test::Spaces) {
  using Exec = TestType;
  for (int R : {0, 1, 3, 8, 300})
    for (int n : {0, 1, 2, 255, 256, 257, 1000, 4099}) {
      check_stencil<Exec, float>(Stencil1DVariant::halo_tile, n, R);
      check_stencil<Exec, double>(Stencil1DVariant::halo_tile, n, R);
    }
}

TEMPLATE_LIST_TEST_CASE("1-D vectorized stencil on the layer matches the host reference", "[stencil_1d][layer]",
                        test::Spaces) {
  using Exec = TestType;
  // n around multiples of V (4 floats, 2 doubles) and of a block's outputs (256 V).
  for (int R : {0, 1, 2, 3, 4, 5, 8, 300})
    for (int n : {0, 1, 2, 3, 5, 7, 255, 511, 512, 513, 1023, 1024, 1025, 2049, 4099, 3 * 1024 + 2}) {
      check_stencil<Exec, float>(Stencil1DVariant::vectorized, n, R);
      check_stencil<Exec, double>(Stencil1DVariant::vectorized, n, R);
    }
}

TEMPLATE_LIST_TEST_CASE("1-D vectorized stencil agrees with halo_tile bit for bit", "[stencil_1d][layer]",
                        test::Spaces) {
  using Exec = TestType;
  for (auto pl : {Placement::aligned, Placement::offset_by_one, Placement::strided})
    for (int R : {0, 1, 3, 4, 7, 300})
      for (int n : {1, 2, 3, 6, 257, 1023, 1025, 2051, 5000}) {
        vectorized_vs_halo_tile<Exec, float>(n, R, pl);
        vectorized_vs_halo_tile<Exec, double>(n, R, pl);
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
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
    CHECK_THROWS_AS(stencil_1d(Exec(), v, in, wbig, out2), LaunchError);
    // ... naming the kernel, the radius and the numbers.
    CHECK_THROWS_WITH(stencil_1d(Exec(), v, in, wbig, out2),
                      Catch::Matchers::ContainsSubstring("bytes available per team") &&
                          Catch::Matchers::ContainsSubstring("radius 20000") &&
                          Catch::Matchers::ContainsSubstring("kernel 'scratchkit::stencil_1d_"));
    CHECK_THROWS_WITH(stencil_1d(Exec(), v, in, w, out), Catch::Matchers::ContainsSubstring("in has 100, out 99, w 3"));
  }
}

namespace {
#if SCRATCHKIT_TEST_TWINS
/// Layer vectorized, native vectorized and native halo_tile, bit for bit;
/// `first` = 1 starts the arrays one element into their allocations (the
/// scalar path of both twins).
template <class T>
void vectorized_twins(int n, int R, int first) {
  const auto seed = test::case_seed(n, R, sizeof(T) + 200 + first);
  CAPTURE(n, R, first, seed, sizeof(T));
  using View = Kokkos::View<T*, Kokkos::CudaSpace>;
  View bin("bin", n + 1), bl("bl", n + 1), bn("bn", n + 1), bh("bh", n + 1), w("w", 2 * R + 1);
  const auto range = std::make_pair(first, first + n);
  auto in = Kokkos::subview(bin, range), ol = Kokkos::subview(bl, range), on = Kokkos::subview(bn, range),
       oh = Kokkos::subview(bh, range);
  auto hbin = Kokkos::create_mirror_view(bin);
  auto hw   = Kokkos::create_mirror_view(w);
  test::fill_random(hbin, seed);
  test::fill_random(hw, seed + 1);
  Kokkos::deep_copy(bin, hbin);
  Kokkos::deep_copy(w, hw);
  for (const View& o : {bl, bn, bh}) Kokkos::deep_copy(o, test::poison<T>());
  const Kokkos::Cuda exec;
  stencil_1d(exec, Stencil1DVariant::vectorized, in, w, ol);
  stencil_1d(exec, Stencil1DVariant::vectorized, in, w, on, Backend::native);
  native::cuda::stencil_1d(Stencil1DVariant::halo_tile, in.data(), w.data(), R, oh.data(), n, exec.cuda_stream());
  exec.fence();
  CHECK(test::same_bits(bl, bn));
  CHECK(test::same_bits(bl, bh));
}
#endif
}  // namespace

TEST_CASE("Native CUDA vectorized 1-D stencil agrees with the layer bit for bit", "[stencil_1d][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (int first : {0, 1})
    for (int R : {0, 1, 3, 4, 8, 300})
      for (int n : {1, 3, 255, 1023, 1025, 4099, (1 << 20) + 3}) {
        vectorized_twins<float>(n, R, first);
        vectorized_twins<double>(n, R, first);
      }
#endif
}
