// SPDX-License-Identifier: BSD-3-Clause
// PaddedTile: pitch and size, and a tiled transpose through it (rows in, columns out).
#include "test_support.hpp"

#include <scratchkit/launch.hpp>
#include <scratchkit/padded_tile.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

using namespace scratchkit;

static_assert(PaddedTile<float, 32, 32>::pitch == 33, "");
static_assert(PaddedTile<float, 32, 32>::shmem_size() == 32 * 33 * sizeof(float), "");
static_assert(PaddedTile<double, 8, 16, 2>::shmem_size() == 8 * 18 * sizeof(double), "");
static_assert(PaddedTile<float, 32, 32, 0>::pitch == 32, "");

namespace {

constexpr int TD = 32;  // tile edge
constexpr int RB = 8;   // rows per thread pass (blocks of 32 x 8 threads)

template <class Exec, class View>
void transpose(const View& in, const View& out) {
  using B    = Block<Exec>;
  using Tile = PaddedTile<typename View::non_const_value_type, TD, TD>;
  const int rows = static_cast<int>(in.extent(0)), cols = static_cast<int>(in.extent(1));
  const auto p = LaunchParams(Dim3(ceil_div(cols, TD), ceil_div(rows, TD)), Dim3(TD, RB)).uses<Tile>();
  launch(Exec(), "test::transpose_padded", p, KOKKOS_LAMBDA(const B& b) {
    Tile tile(b);
    const int r0 = b.block_idx().y * TD, c0 = b.block_idx().x * TD;
    b.threads([&](const Thread& t) {
      for (int j = t.y; j < TD; j += RB)
        if (r0 + j < rows && c0 + t.x < cols) tile(j, t.x) = in(r0 + j, c0 + t.x);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      for (int j = t.y; j < TD; j += RB)
        if (c0 + j < cols && r0 + t.x < rows) out(c0 + j, r0 + t.x) = tile(t.x, j);
    });
  });
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Transpose through a padded tile", "[layer][padded_tile]", test::Spaces) {
  using Exec = TestType;
  using View = Kokkos::View<float**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const int sizes[][2] = {{1, 1}, {32, 32}, {33, 31}, {100, 7}, {257, 129}};
  for (const auto& s : sizes) {
    const int rows = s[0], cols = s[1];
    CAPTURE(rows, cols, Exec::name());
    View in("in", rows, cols), out("out", cols, rows);
    auto hin = Kokkos::create_mirror_view(in);
    test::fill_random(hin, test::case_seed(rows, cols));
    Kokkos::deep_copy(in, hin);
    Kokkos::deep_copy(out, test::poison<float>());
    transpose<Exec>(in, out);
    auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) bad += !(hout(c, r) == hin(r, c));  // exact; NaN fails
    CHECK(bad == 0);
  }
}
