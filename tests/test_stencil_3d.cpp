// SPDX-License-Identifier: BSD-3-Clause
// 3-D 7-point stencil: layer against the host reference, the two variants
// against each other, native twin bit for bit.
//
// Tolerance (rounding class, check::stencil_3d_7pt derives it): an interior
// point is 5 additions of the 6 neighbours, 2 products and 1 addition, so
//   |out - ref| <= gamma_8 (|c0||u| + |c1| sum |neighbours|)   (gamma_7 suffices);
// boundary points are copies and must match bit for bit. Both variants do the
// same operations in the same order, so they agree bit for bit with each
// other on every backend, and with their native twins on the GPU.
#include "test_support.hpp"
#include "stencil_3d_checks.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace scratchkit;
using test::check_against;
using test::coefficients;
using test::shapes;

namespace {

constexpr Stencil3DVariant variants[] = {Stencil3DVariant::tile_2d_halo, Stencil3DVariant::z_streaming};


template <class Exec, class T, class Layout = Kokkos::LayoutRight>
void check_stencil(Stencil3DVariant v, int nz, int ny, int nx) {
  using View      = Kokkos::View<T***, Layout, typename Exec::memory_space>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T));
  const auto c    = coefficients<T>(seed + 7);
  CAPTURE(name(v), nz, ny, nx, seed, c[0], c[1], Exec::name(), sizeof(T));
  View in("in", nz, ny, nx), out("out", nz, ny, nx);
  // Host copies in LayoutRight order, as the reference reads them.
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> hin("hin", nz, ny, nx), hout("hout", nz, ny, nx);
  test::fill_random(hin, seed);
  auto min = Kokkos::create_mirror_view(in);
  Kokkos::deep_copy(min, hin);  // reorders when Layout is not LayoutRight
  Kokkos::deep_copy(in, min);
  Kokkos::deep_copy(out, test::poison<T>());
  stencil_3d_7pt(Exec(), v, in, out, c[0], c[1]);
  auto mout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  Kokkos::deep_copy(hout, mout);
  const auto res = check::stencil_3d_7pt<T>(hin.data(), hout.data(), nz, ny, nx, c[0], c[1]);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}


}  // namespace

TEMPLATE_LIST_TEST_CASE("3-D stencil on the layer matches the host reference", "[stencil_3d][layer]",
                        test::Spaces) {
  using Exec = TestType;
  for (auto v : variants)
    for (const auto& s : shapes) {
      check_stencil<Exec, float>(v, s[0], s[1], s[2]);
      check_stencil<Exec, double>(v, s[0], s[1], s[2]);
    }
}

TEMPLATE_LIST_TEST_CASE("3-D stencil on the layer takes other layouts and more than 65535 planes",
                        "[stencil_3d][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : variants) {
    check_stencil<Exec, double, Kokkos::LayoutLeft>(v, 13, 11, 37);
    check_stencil<Exec, float, Kokkos::LayoutLeft>(v, 35, 3, 33);
    // tile_2d_halo loops over planes above gridDim.y's 65535.
    check_stencil<Exec, float>(v, 65535 + 70, 3, 1);
  }
}

/// in and out as strided windows of larger arrays (LayoutStride): the
/// layer's general index path (x stride 2 for in, padded rows for out).
template <class Exec, class T>
void check_strided(Stencil3DVariant v, int nz, int ny, int nx) {
  using Mem       = typename Exec::memory_space;
  using Big       = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
  using Strided   = Kokkos::View<T***, Kokkos::LayoutStride, Mem>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T) + 1000);
  const auto c    = coefficients<T>(seed + 7);
  CAPTURE(name(v), nz, ny, nx, seed, Exec::name(), sizeof(T));
  // in(z, y, x) = bin(z + 1, y + 2, 2x); out(z, y, x) = bout(z, y + 1, x + 3).
  const int bx = 2 * nx + 1;
  Big bin("bin", nz + 1, ny + 2, bx), bout("bout", nz, ny + 1, nx + 5);
  const Strided in(bin.data() + static_cast<std::size_t>(ny + 4) * bx,
                   Kokkos::LayoutStride(nz, static_cast<std::size_t>(ny + 2) * bx, ny, bx, nx, 2));
  const auto out = Kokkos::subview(bout, Kokkos::ALL, std::make_pair(1, ny + 1), std::make_pair(3, nx + 3));
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> hin("hin", nz, ny, nx), hout("hout", nz, ny, nx);
  test::fill_random(hin, seed);
  auto hbin = Kokkos::create_mirror_view(bin);
  Kokkos::deep_copy(hbin, test::poison<T>());
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) hbin(z + 1, y + 2, 2 * x) = hin(z, y, x);
  Kokkos::deep_copy(bin, hbin);
  Kokkos::deep_copy(bout, test::poison<T>());
  stencil_3d_7pt(Exec(), v, in, out, c[0], c[1]);
  auto hbout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bout);
  std::size_t outside = 0;  // elements of bout outside out's window that changed
  const T poison      = test::poison<T>();
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny + 1; ++y)
      for (int x = 0; x < nx + 5; ++x) {
        if (y >= 1 && x >= 3 && x < nx + 3)
          hout(z, y - 1, x - 3) = hbout(z, y, x);
        else if (std::memcmp(&hbout(z, y, x), &poison, sizeof(T)) != 0)
          ++outside;
      }
  const auto res = check::stencil_3d_7pt<T>(hin.data(), hout.data(), nz, ny, nx, c[0], c[1]);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
  CHECK(outside == 0);
}

TEMPLATE_LIST_TEST_CASE("3-D stencil on the layer takes strided views", "[stencil_3d][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : variants)
    for (const auto& s : {std::array<int, 3>{3, 3, 3}, {34, 17, 65}, {5, 20, 70}, {1, 1, 1}, {2, 33, 1}}) {
      check_strided<Exec, float>(v, s[0], s[1], s[2]);
      check_strided<Exec, double>(v, s[0], s[1], s[2]);
    }
}

TEMPLATE_LIST_TEST_CASE("3-D stencil variants agree bit for bit", "[stencil_3d][layer]", test::Spaces) {
  using Exec = TestType;
  using View = Kokkos::View<double***, Kokkos::LayoutRight, typename Exec::memory_space>;
  for (const auto& s : {std::array<int, 3>{3, 3, 3}, {17, 33, 65}, {70, 10, 34}}) {
    const auto seed = test::case_seed(s[0], s[1], s[2]);
    CAPTURE(s[0], s[1], s[2], seed, Exec::name());
    View in("in", s[0], s[1], s[2]), a("a", s[0], s[1], s[2]), b("b", s[0], s[1], s[2]);
    auto hin = Kokkos::create_mirror_view(in);
    test::fill_random(hin, seed);
    Kokkos::deep_copy(in, hin);
    Kokkos::deep_copy(a, test::poison<double>());
    Kokkos::deep_copy(b, test::poison<double>());
    const double alpha = 0.125;  // a heat step
    stencil_3d_7pt(Exec(), Stencil3DVariant::tile_2d_halo, in, a, 1 - 6 * alpha, alpha);
    stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, in, b, 1 - 6 * alpha, alpha);
    CHECK(test::same_bits(a, b));
  }
}

TEMPLATE_LIST_TEST_CASE("3-D z_streaming picks a shape its launch can have, on both twins",
                        "[stencil_3d][layer]", test::Spaces) {
  using Exec = TestType;
  // Rows of one wide tile and more: the wide ring only where it fits the
  // layer's level 0 (never on host backends; on CUDA with the block driver or
  // a Kokkos that opts in above 48 KB). A default call never throws for it.
  for (const int nx : {detail::Stencil3DZsWide<float>::TX, 2 * detail::Stencil3DZsWide<float>::TX + 3}) {
    const bool wide = detail::stencil3d_zs_layer_pick<float, Exec>(nx).shape == detail::Stencil3DZsKind::wide;
    CAPTURE(nx, wide, Exec::name());
    if (detail::is_gpu_space<Exec>::value && wide)
      CHECK(detail::stencil3d_zs_bytes<float>(detail::Stencil3DZsKind::wide) <=
            detail::stencil3d_zs_layer_room<float, Exec>());
    if (!detail::is_gpu_space<Exec>::value) CHECK_FALSE(wide);
    Kokkos::View<float***, Kokkos::LayoutRight, typename Exec::memory_space> in("in", 4, 5, nx), out("out", 4, 5, nx);
    CHECK_NOTHROW(stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, in, out, 0.4f, 0.1f));
  }
}

/// in and out as contiguous LayoutRight grids placed `off` elements into larger
/// allocations (as a View's data, 128 bytes in, or a user's sub-block): the
/// z_streaming tile grid is then cut from in's alignment (stencil3d_tile_shift;
/// rows of 64 floats or 32 doubles are 256 bytes, so the shift follows off).
/// Against the host reference and, bit for bit, the same grid at offset 0.
template <class Exec, class T>
void check_placed(int nz, int ny, int nx, int off, int& shifted) {
  using Mem       = typename Exec::memory_space;
  using View      = Kokkos::View<T***, Kokkos::LayoutRight, Mem>;
  using Placed    = Kokkos::View<T***, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T) + 555);
  const auto c    = coefficients<T>(seed + 7);
  CAPTURE(nz, ny, nx, off, seed, Exec::name(), sizeof(T));
  const std::size_t e = static_cast<std::size_t>(nz) * ny * nx;
  Kokkos::View<T*, Mem> bin("bin", e + off), bout("bout", e + off);
  const Placed in(bin.data() + off, nz, ny, nx), out(bout.data() + off, nz, ny, nx);
  View ref_in("ref_in", nz, ny, nx), ref("ref", nz, ny, nx);
  auto hin = Kokkos::create_mirror_view(ref_in);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(ref_in, hin);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(bout, test::poison<T>());
  Kokkos::deep_copy(ref, test::poison<T>());
  stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, ref_in, ref, c[0], c[1]);
  stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, in, out, c[0], c[1]);
  Kokkos::fence();
  if (detail::stencil3d_tile_shift<detail::Stencil3DZsDefault<T>>(in.data(), nx) > 0) ++shifted;
  check_against<View>(out, ref, hin, c);
  auto hbout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bout);
  const T poison = test::poison<T>();
  std::size_t before = 0;  // elements of bout before out that changed
  for (int i = 0; i < off; ++i) before += std::memcmp(&hbout(i), &poison, sizeof(T)) != 0;
  CHECK(before == 0);
}

TEMPLATE_LIST_TEST_CASE("3-D z_streaming on placed grids cuts its tiles from the data's alignment",
                        "[stencil_3d][layer]", test::Spaces) {
  using Exec  = TestType;
  int shifted = 0;  // placements whose tile grid was shifted: the path must be exercised
  for (const int off : {0, 1, 8, 16, 32, 33, 63})
    for (const auto& s : {std::array<int, 3>{5, 9, 256}, {4, 17, 128}, {3, 3, 64}}) {
      check_placed<Exec, float>(s[0], s[1], s[2], off, shifted);
      check_placed<Exec, double>(s[0], s[1], s[2], off, shifted);
    }
  CHECK((shifted > 0) == (detail::stencil3d_shift_tiles<float> || detail::stencil3d_shift_tiles<double>));
  // Rows not a multiple of 256 bytes: no shift (the rows' misalignments differ).
  float probe[4];
  CHECK(detail::stencil3d_tile_shift<detail::Stencil3DZsDefault<float>>(probe + 1, 100) == 0);
}

TEST_CASE("3-D stencil rejects bad shapes and aliasing before launch", "[stencil_3d][bad-input]") {
  using Exec = test::DeviceSpace;
  using View = Kokkos::View<float***, Kokkos::LayoutRight, Exec::memory_space>;
  View in("in", 4, 5, 6), out("out", 4, 5, 7);
  for (auto v : variants) {
    CHECK_THROWS_WITH(stencil_3d_7pt(Exec(), v, in, out, 0.4f, 0.1f),
                      Catch::Matchers::ContainsSubstring("in is 4 x 5 x 6, out is 4 x 5 x 7"));
    View out2("out", 5, 5, 6), out3("out", 4, 6, 6);
    CHECK_THROWS_AS(stencil_3d_7pt(Exec(), v, in, out2, 0.4f, 0.1f), ShapeError);
    CHECK_THROWS_AS(stencil_3d_7pt(Exec(), v, in, out3, 0.4f, 0.1f), ShapeError);
    CHECK_THROWS_WITH(stencil_3d_7pt(Exec(), v, in, in, 0.4f, 0.1f),
                      Catch::Matchers::ContainsSubstring("same array"));
    View ok("ok", 4, 5, 6);
    CHECK_NOTHROW(stencil_3d_7pt(Exec(), v, in, ok, 0.4f, 0.1f));
  }
}

TEST_CASE("3-D stencil Backend::native needs CUDA", "[stencil_3d][bad-input]") {
  using Exec = test::HostSpace;
  Kokkos::View<float***, Kokkos::LayoutRight, Exec::memory_space> in("in", 3, 3, 3), out("out", 3, 3, 3);
  if (!detail::native_available<Exec>())
    CHECK_THROWS_AS(stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, in, out, 0.4f, 0.1f, Backend::native),
                    UnsupportedError);
}

TEST_CASE("check::stencil_3d_7pt copies the boundary and bounds the interior", "[stencil_3d][check]") {
  // 3 x 3 x 3: one interior point (1, 1, 1).
  std::vector<double> in(27), out;
  for (int i = 0; i < 27; ++i) in[i] = 0.25 * i - 3;
  const double c0 = 0.4, c1 = 0.1;
  out        = in;
  out[13]    = c0 * in[13] + c1 * (in[12] + in[14] + in[10] + in[16] + in[4] + in[22]);
  CHECK(check::stencil_3d_7pt<double>(in.data(), out.data(), 3, 3, 3, c0, c1).passed());
  auto bad   = out;
  bad[13]    = out[13] + 1e-6;
  CHECK(check::stencil_3d_7pt<double>(in.data(), bad.data(), 3, 3, 3, c0, c1).bad == 1);
  bad        = out;
  bad[0]     = std::nextafter(in[0], 1e9);  // the boundary is a copy: one ulp is wrong
  CHECK(check::stencil_3d_7pt<double>(in.data(), bad.data(), 3, 3, 3, c0, c1).bad == 1);
  bad        = out;
  bad[13]    = std::nan("");
  CHECK(check::stencil_3d_7pt<double>(in.data(), bad.data(), 3, 3, 3, c0, c1).bad == 1);
}

namespace {
#if SCRATCHKIT_TEST_TWINS
template <class T>
void stencil_3d_twins(Stencil3DVariant v, int nz, int ny, int nx, bool via_public_api) {
  using View      = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T));
  const auto c    = coefficients<T>(seed + 7);
  CAPTURE(name(v), nz, ny, nx, seed, c[0], c[1], sizeof(T), via_public_api);
  View in("in", nz, ny, nx), ol("ol", nz, ny, nx), on("on", nz, ny, nx);
  auto hin = Kokkos::create_mirror_view(in);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(ol, test::poison<T>());
  Kokkos::deep_copy(on, test::poison<T>());
  const Kokkos::Cuda exec;
  stencil_3d_7pt(exec, v, in, ol, c[0], c[1]);
  if (via_public_api) {
    stencil_3d_7pt(exec, v, in, on, c[0], c[1], Backend::native);
  } else {
    native::cuda::stencil_3d_7pt(v, in.data(), on.data(), nz, ny, nx, c[0], c[1], exec.cuda_stream());
  }
  exec.fence();
  CHECK(test::same_bits(ol, on));
  auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ol);
  const auto res = check::stencil_3d_7pt<T>(hin.data(), hout.data(), nz, ny, nx, c[0], c[1]);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

/// The twins on grids placed `off` elements into their allocations (both cut
/// the z_streaming tile grid from in's alignment, stencil3d_tile_shift).
template <class T>
void stencil_3d_twins_placed(int nz, int ny, int nx, int off) {
  using Placed = Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T) + 999);
  const auto c    = coefficients<T>(seed + 7);
  const std::size_t e = static_cast<std::size_t>(nz) * ny * nx;
  Kokkos::View<T*, Kokkos::CudaSpace> bin("bin", e + off), bl("bl", e + off), bn("bn", e + off);
  const Placed in(bin.data() + off, nz, ny, nx), ol(bl.data() + off, nz, ny, nx), on(bn.data() + off, nz, ny, nx);
  CAPTURE(nz, ny, nx, off, seed, sizeof(T),
          scratchkit::detail::stencil3d_tile_shift<scratchkit::detail::Stencil3DZsDefault<T>>(in.data(), nx),
          scratchkit::detail::stencil3d_tile_shift<scratchkit::detail::Stencil3DZsNativeDefault<T>>(in.data(), nx));
  Kokkos::View<T***, Kokkos::LayoutRight, Kokkos::HostSpace> hin("hin", nz, ny, nx);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(bl, test::poison<T>());
  Kokkos::deep_copy(bn, test::poison<T>());
  const Kokkos::Cuda exec;
  stencil_3d_7pt(exec, Stencil3DVariant::z_streaming, in, ol, c[0], c[1]);
  native::cuda::stencil_3d_7pt(Stencil3DVariant::z_streaming, in.data(), on.data(), nz, ny, nx, c[0], c[1],
                               exec.cuda_stream());
  exec.fence();
  CHECK(test::same_bits(bl, bn));  // the elements before the grid included: still poison in both
  auto hout      = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ol);
  const auto res = check::stencil_3d_7pt<T>(hin.data(), hout.data(), nz, ny, nx, c[0], c[1]);
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}
#endif
}  // namespace

TEST_CASE("Native CUDA 3-D stencil agrees with the layer bit for bit on placed grids",
          "[stencil_3d][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  // 32 elements = 128 bytes (float) / 256 bytes (double): a View's placement.
  for (const int off : {0, 1, 32, 47})
    for (const auto& s : {std::array<int, 3>{9, 33, 512}, {70, 17, 256}, {3, 5, 64}, {5, 7, 100}}) {
      stencil_3d_twins_placed<float>(s[0], s[1], s[2], off);
      stencil_3d_twins_placed<double>(s[0], s[1], s[2], off);
    }
#endif
}

TEST_CASE("Native CUDA 3-D stencil agrees with the layer bit for bit", "[stencil_3d][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (auto v : variants) {
    for (const auto& s : shapes) {
      stencil_3d_twins<float>(v, s[0], s[1], s[2], false);
      stencil_3d_twins<double>(v, s[0], s[1], s[2], false);
    }
    // 256^3 (several z chunks of every tile) is 40^3 under SCRATCHKIT_TEST_QUICK:
    // racecheck needs minutes per launch at 256^3.
    const int big = test::sized(256 * 256 * 256) == 256 * 256 * 256 ? 256 : 40;
    for (const auto& s : {std::array<int, 3>{130, 129, 257}, {big, big, big}, {1, 1000, 1000}}) {
      stencil_3d_twins<float>(v, s[0], s[1], s[2], true);
      stencil_3d_twins<double>(v, s[0], s[1], s[2], true);
    }
    // Loops over gridDim.y: blocks of 8 planes (tile_2d_halo) and z chunks
    // (z_streaming: 128 planes for float, Stencil3DZsDefault<float>): more than
    // 65535 of them. Capped at 2^16 planes under SCRATCHKIT_TEST_QUICK (the sanitizers' runs).
    static_assert(scratchkit::detail::Stencil3DZsDefault<float>::ZC <= 128 &&
                      scratchkit::detail::Stencil3DZsNativeDefault<float>::ZC <= 128,
                  "grow the plane count below");
    stencil_3d_twins<float>(v, static_cast<int>(test::sized(65535 * 128 + 37)), 3, 3, false);
  }
#endif
}
