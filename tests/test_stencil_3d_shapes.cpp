// SPDX-License-Identifier: BSD-3-Clause
// The 3-D stencil's z_streaming shapes run directly (detail::stencil_3d_zs_at), each against the
// host reference and, bit for bit, against the public z_streaming. A unit of its own: the shapes
// are the kernels' internals, which the library's explicit instantiations do not cover.
// tests/CMakeLists.txt compiles this file once per part (SCRATCHKIT_TEST_PART 0-17: one shape and
// type each, the register pipeline and element rings first, then the 16-byte rings, the last shapes
// and the zalt rings; 18: the wide rings on CUDA), so that no unit takes a minute in nvcc.
#include "test_support.hpp"
#include "stencil_3d_checks.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <array>
#include <vector>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per part by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;
using test::check_against;
using test::coefficients;
using test::shapes;

/// z_streaming shape Sh run directly (detail::stencil_3d_zs_at; the public API
/// runs Stencil3DZsDefault only) against the host reference and, bit for bit,
/// against the public z_streaming (the default shape): every shape, the
/// cp.async ring (Sh::stages > 0) included, does the same operations per point.
/// Strided: in and out with a padded row (the layer's general index path).
/// xs: the x shift of the tile grid (detail::stencil3d_tile_shift; -1: the one
/// computed from in's alignment, as the public API does).
/// Returns whether the ring took its 16-byte cells (detail::stencil3d_ring_v16).
template <class Exec, class T, class Sh>
bool check_zs_shape(int nz, int ny, int nx, bool strided, int xs = -1) {
  using View      = Kokkos::View<T***, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T) + 77);
  const auto c    = coefficients<T>(seed + 7);
  CAPTURE(Sh::TX, Sh::TY, Sh::ZC, Sh::stages, Sh::vec, nz, ny, nx, seed, Exec::name(), sizeof(T), strided, xs);
  View in("in", nz, ny, nx), ref("ref", nz, ny, nx);
  auto hin = Kokkos::create_mirror_view(in);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(ref, test::poison<T>());
  stencil_3d_7pt(Exec(), Stencil3DVariant::z_streaming, in, ref, c[0], c[1]);
  View out("out", nz, ny, nx);
  Kokkos::deep_copy(out, test::poison<T>());
  const long long sz = static_cast<long long>(ny) * nx;
  bool v16           = false;
  if (strided) {
    // in and out as windows (x < nx) of arrays with rows of nx + 3.
    View bin("bin", nz, ny, nx + 3), bout("bout", nz, ny, nx + 3);
    Kokkos::deep_copy(bout, test::poison<T>());
    const auto win = Kokkos::subview(bin, Kokkos::ALL, Kokkos::ALL, std::make_pair(0, nx));
    const auto wout = Kokkos::subview(bout, Kokkos::ALL, Kokkos::ALL, std::make_pair(0, nx));
    Kokkos::deep_copy(win, in);
    const detail::Stencil3DIndex<false> ix{static_cast<long long>(ny) * (nx + 3), nx + 3, 1};
    detail::stencil_3d_zs_at<Sh, false, false>(Exec(), win, wout, c[0], c[1], ix, ix, xs);
    Kokkos::deep_copy(out, wout);
  } else {
    const detail::Stencil3DIndex<true> ix{sz, nx, 1};
    const int shift = xs >= 0 ? xs : detail::stencil3d_tile_shift<Sh>(in.data(), nx);
    v16 = Sh::stages > 0 && detail::stencil3d_ring_v16<Sh>(in.data(), out.data(), nx, sz, shift);
    detail::stencil_3d_zs_at<Sh, true, true>(Exec(), in, out, c[0], c[1], ix, ix, xs);
  }
  Kokkos::fence();
  check_against<View>(out, ref, hin, c);
  return v16;
}

template <class Exec, class T, class Sh>
void check_zs_shape_all() {
  int v16 = 0;  // cases on the 16-byte cells (vec shapes: both paths must run)
  for (const auto& s : shapes)
    if (s[0] > 0 && s[1] > 0 && s[2] > 0) v16 += check_zs_shape<Exec, T, Sh>(s[0], s[1], s[2], false);
  for (const auto& s : {std::array<int, 3>{3, 3, 3}, {34, 17, 65}, {9, 20, 70}, {1, 1, 1}})
    check_zs_shape<Exec, T, Sh>(s[0], s[1], s[2], true);
  check_zs_shape<Exec, T, Sh>(Sh::ZC * 2 + 3, 5, 35, false);  // three chunks, a last one of 3 planes
  // Shifted tile grids (a first tile of 1, 31, 33, TX - 1 columns): every point
  // is still computed once, the same bits; nx around tile multiples and below one tile.
  // xs 4, 32, 64: multiples of 16 bytes, so the 16-byte cells stay usable.
  for (const int xs : {1, 4, 31, 32, 33, 64, Sh::TX - 1})
    if (xs < Sh::TX)
      for (const auto& s : {std::array<int, 3>{5, 9, 2 * Sh::TX}, {4, Sh::TY + 1, 2 * Sh::TX + 1}, {3, 3, 3},
                            {6, 2 * Sh::TY, Sh::TX - 1}, {2, 5, 70}, {3, 6, Sh::TX + 8}}) {
        v16 += check_zs_shape<Exec, T, Sh>(s[0], s[1], s[2], false, xs);
        check_zs_shape<Exec, T, Sh>(s[0], s[1], s[2], true, xs);
      }
  CHECK((v16 > 0) == (Sh::vec > 0));
}

#define SCRATCHKIT_TEST_STR2(x) #x
#define SCRATCHKIT_TEST_STR(x) SCRATCHKIT_TEST_STR2(x)

#if SCRATCHKIT_TEST_PART < 18
TEMPLATE_LIST_TEST_CASE("3-D z_streaming shapes (register pipeline and cp.async ring) agree bit for bit (part "
                        SCRATCHKIT_TEST_STR(SCRATCHKIT_TEST_PART) ")",
                        "[stencil_3d][layer]", test::Spaces) {
  using Exec = TestType;
  using detail::Stencil3DZsShape;
  // Ring: 64 x 4 tile, 8-plane chunks, 4 stages (prefetch 2); 32 x 4 tile,
  // 5-plane chunks, 5 stages (prefetch 3); 64 x 16 and 64 x 8 ring tiles with 128-plane chunks;
  // register-pipeline shapes: 2 x 2 outputs, and the float default of eafed8e (128 x 16); each
  // against the public z_streaming default (the ring for float, the register pipeline for double).
#if SCRATCHKIT_TEST_PART == 0
  check_zs_shape_all<Exec, float, Stencil3DZsShape<2, 2, 2, 8, 1, 1, 4>>();
#elif SCRATCHKIT_TEST_PART == 1
  check_zs_shape_all<Exec, double, Stencil3DZsShape<2, 2, 2, 8, 1, 1, 4>>();
#elif SCRATCHKIT_TEST_PART == 2
  check_zs_shape_all<Exec, float, Stencil3DZsShape<4, 1, 1, 5, 1, 1, 5>>();
#elif SCRATCHKIT_TEST_PART == 3
  check_zs_shape_all<Exec, double, Stencil3DZsShape<4, 1, 1, 5, 1, 1, 5>>();
#elif SCRATCHKIT_TEST_PART == 4
  check_zs_shape_all<Exec, float, Stencil3DZsShape<8, 2, 2, 128, 6, 6, 5>>();
#elif SCRATCHKIT_TEST_PART == 5
  check_zs_shape_all<Exec, double, Stencil3DZsShape<4, 2, 2, 128, 6, 6, 5>>();
#elif SCRATCHKIT_TEST_PART == 6
  // The 16-byte ring (vec 1: 16-byte cells; vec 2: and 16-byte outputs, a thread's points
  // in groups of 4 floats / 2 doubles), with its element-cell fallback for rows not 16-byte aligned.
  check_zs_shape_all<Exec, float, Stencil3DZsShape<4, 1, 1, 5, 1, 1, 5, 1>>();
#elif SCRATCHKIT_TEST_PART == 7
  check_zs_shape_all<Exec, double, Stencil3DZsShape<2, 2, 2, 8, 1, 1, 4, 1>>();
#elif SCRATCHKIT_TEST_PART == 8
  check_zs_shape_all<Exec, float, Stencil3DZsShape<2, 4, 2, 8, 1, 1, 4, 2>>();
#elif SCRATCHKIT_TEST_PART == 9
  check_zs_shape_all<Exec, double, Stencil3DZsShape<2, 2, 2, 8, 1, 1, 4, 2>>();
#elif SCRATCHKIT_TEST_PART == 10
  check_zs_shape_all<Exec, float, Stencil3DZsShape<8, 4, 1, 128, 6, 6, 5, 2>>();
#elif SCRATCHKIT_TEST_PART == 11
  check_zs_shape_all<Exec, double, Stencil3DZsShape<4, 4, 1, 7, 1, 1, 5, 2>>();
#elif SCRATCHKIT_TEST_PART == 12
  check_zs_shape_all<Exec, float, Stencil3DZsShape<2, 2, 2, 7, 1, 1>>();
#elif SCRATCHKIT_TEST_PART == 13
  check_zs_shape_all<Exec, float, Stencil3DZsShape<16, 4, 1, 128, 2, 2>>();
#elif SCRATCHKIT_TEST_PART == 14
  // Rings whose odd z chunks walk downwards (zalt): element cells, 16-byte cells and outputs.
  check_zs_shape_all<Exec, float, Stencil3DZsShape<4, 1, 1, 5, 1, 1, 5, 0, 1>>();
#elif SCRATCHKIT_TEST_PART == 15
  check_zs_shape_all<Exec, double, Stencil3DZsShape<2, 2, 2, 8, 1, 1, 4, 0, 1>>();
#elif SCRATCHKIT_TEST_PART == 16
  check_zs_shape_all<Exec, float, Stencil3DZsShape<2, 4, 2, 8, 1, 1, 4, 2, 1>>();
#elif SCRATCHKIT_TEST_PART == 17
  check_zs_shape_all<Exec, double, Stencil3DZsShape<4, 4, 1, 7, 1, 1, 5, 2, 1>>();
#endif
}
#elif defined(KOKKOS_ENABLE_CUDA)
// The wide rings (over 48 KB of shared memory) on CUDA only, where the launch can have them (the
// block driver's opt-in, or a Kokkos whose TeamPolicy offers it); elsewhere z_streaming never
// picks them.
TEST_CASE("3-D z_streaming wide rings agree bit for bit (part 18)", "[stencil_3d][layer]") {
  using Exec      = Kokkos::Cuda;
  const bool wide_f = detail::stencil3d_zs_layer_pick<float, Exec>(detail::Stencil3DZsWide<float>::TX).shape ==
                      detail::Stencil3DZsKind::wide;
  const bool wide_d = detail::stencil3d_zs_layer_pick<double, Exec>(detail::Stencil3DZsWide<double>::TX).shape ==
                      detail::Stencil3DZsKind::wide;
  if (!wide_f && !wide_d) SKIP("no wide ring fits this Kokkos' level-0 scratch on CUDA");
  if (wide_f) check_zs_shape_all<Exec, float, detail::Stencil3DZsWide<float>>();
  if (wide_d) check_zs_shape_all<Exec, double, detail::Stencil3DZsWide<double>>();
}
#endif
