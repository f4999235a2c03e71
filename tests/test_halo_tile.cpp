// SPDX-License-Identifier: BSD-3-Clause
// HaloTile: every boundary policy, 2-D and 3-D, radii 1 and 2, grids that are not multiples of the
// tile, View layouts (LayoutRight, LayoutLeft, LayoutStride subviews, both axis orders), float,
// double, int and a struct, against a host reference; on the host loops, the per-thread phases
// (two team members) and under the scratch checker. The in-grid phase, the checker's verdicts and
// bank counts on the tile.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstring>
#include <string>
#include <vector>

using namespace scratchkit;
using Catch::Matchers::ContainsSubstring;

namespace {
using Exec = test::HostSpace;
using MS   = Exec::memory_space;
using B    = Block<Exec>;

/// A user's element type: trivially copyable, not arithmetic (the checker sees it through `T&`).
struct Pt {
  float f;
  int i;
  KOKKOS_INLINE_FUNCTION bool operator==(const Pt& o) const { return f == o.f && i == o.i; }
};

/// The value of grid point (x, y, z): distinct for every point of the grids below, exact in each type.
template <class T>
T value_at(int x, int y, int z) {
  const int k = 1 + x + 100 * y + 10000 * z;
  if constexpr (std::is_same<T, Pt>::value)
    return Pt{static_cast<float>(k), -k};
  else
    return static_cast<T>(k);
}
template <class T>
T sentinel() {
  return value_at<T>(-7, -7, -7);  // a value no grid point has
}
template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_same<T, Pt>::value)
    return a == b;
  else
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// No race, uninitialised read or misuse (bank conflicts aside).
bool no_findings(const ScratchCheckReport& r) { return r.races == 0 && r.uninitialised_reads == 0 && r.misuses == 0; }

// Layouts of the input: a View of that layout, or a LayoutStride subview of a larger one.
struct Right {
  using layout = Kokkos::LayoutRight;
};
struct Left {
  using layout = Kokkos::LayoutLeft;
};
template <class Parent>
struct StrideOf {
  using layout = Kokkos::LayoutStride;
};
template <class L>
const char* layout_name() {
  if (std::is_same<L, Right>::value) return "LayoutRight";
  if (std::is_same<L, Left>::value) return "LayoutLeft";
  if (std::is_same<L, StrideOf<Right>>::value) return "LayoutStride (block of a LayoutRight)";
  return "LayoutStride (block of a LayoutLeft)";
}

template <class T, int Rank>
using data_t = std::conditional_t<Rank == 2, T**, T***>;

/// A View of extents e[0..Rank) in index order, of layout L, filled with value_at: tile axis x
/// is index Rank - 1 (as_indexed) or 0 (reversed).
template <class T, int Rank, class L>
Kokkos::View<data_t<T, Rank>, typename L::layout, MS> grid_view(const int* e, HaloAxes axes) {
  using V = Kokkos::View<data_t<T, Rank>, typename L::layout, MS>;
  V v;
  if constexpr (std::is_same<typename L::layout, Kokkos::LayoutStride>::value) {
    using PL = typename std::conditional_t<std::is_same<L, StrideOf<Right>>::value, Right, Left>::layout;
    if constexpr (Rank == 2) {
      Kokkos::View<T**, PL, MS> parent("parent", e[0] + 3, e[1] + 5);
      v = Kokkos::subview(parent, std::make_pair(2, 2 + e[0]), std::make_pair(1, 1 + e[1]));
    } else {
      Kokkos::View<T***, PL, MS> parent("parent", e[0] + 2, e[1] + 3, e[2] + 4);
      v = Kokkos::subview(parent, std::make_pair(1, 1 + e[0]), std::make_pair(2, 2 + e[1]), std::make_pair(3, 3 + e[2]));
    }
  } else if constexpr (Rank == 2) {
    v = V("grid", e[0], e[1]);
  } else {
    v = V("grid", e[0], e[1], e[2]);
  }
  const bool rev = axes == HaloAxes::reversed;
  if constexpr (Rank == 2) {
    for (int i = 0; i < e[0]; ++i)
      for (int j = 0; j < e[1]; ++j) v(i, j) = rev ? value_at<T>(i, j, 0) : value_at<T>(j, i, 0);
  } else {
    for (int i = 0; i < e[0]; ++i)
      for (int j = 0; j < e[1]; ++j)
        for (int k = 0; k < e[2]; ++k) v(i, j, k) = rev ? value_at<T>(i, j, k) : value_at<T>(k, j, i);
  }
  return v;
}

/// Element (x, y, z) of a tile, as the kernel reads it (2-D: tile(y, x)).
template <class Tile>
KOKKOS_INLINE_FUNCTION decltype(auto) at(const Tile& tile, int x, int y, int z) {
  if constexpr (Tile::rank == 2)
    return tile(y, x);
  else
    return tile(z, y, x);
}

/// How a launch runs its blocks on the host.
enum class Path { host_loops, two_members, checker };
const char* path_name(Path p) {
  return p == Path::host_loops ? "host loops" : p == Path::two_members ? "two team members" : "scratch checker";
}

using test::TeamSize;

/// Each block: the tile set to the sentinel, loaded, then copied whole (halo too) into
/// dump(block, (z * wy + y) * wx + x).
template <class Tile, class ExecT, class Shape, class V, class D>
void load_and_dump(const V& in, const D& dump, Dim3 grid, Dim3 block, Boundary bc, HaloAxes axes, Dim3 shift,
                   Path path, ScratchCheckReport* report) {
  using B = Block<ExecT, Shape>;
  using T            = typename Tile::value_type;
  constexpr int wx   = Tile::wx, wy = Tile::wy, rx = Tile::rx, ry = Tile::ry, rz = Tile::rz;
  const T s          = sentinel<T>();
  auto p             = LaunchParams(grid, block).uses<Tile>();
  if (path == Path::checker) p.check_scratch(ScratchCheck().quiet().into(report));
  launch(ExecT(), "test::halo_load", p, KOKKOS_LAMBDA(const B& b) {
    Tile tile(b);
    b.block_stride(Tile::points, [&](int k) {
      at(tile, k % wx - rx, k / wx % wy - ry, k / (wx * wy) - rz) = s;
    });
    sync_threads(b);
    const Dim3 g = b.grid_origin();
    tile.load(b, in, Dim3(g.x + shift.x, g.y + shift.y, g.z + shift.z), bc, axes);
    sync_threads(b);
    b.block_stride(Tile::points, [&](int k) {
      dump(b.block_rank(), k) = at(tile, k % wx - rx, k / wx % wy - ry, k / (wx * wy) - rz);
    });
  });
  ExecT().fence();
}

/// What tile point (x, y, z) of the halo'd box holds after a load at origin o of an n-point grid.
template <class T>
T expected(int gx, int gy, int gz, const int* n, Boundary bc) {
  const bool in = gx >= 0 && gx < n[0] && gy >= 0 && gy < n[1] && gz >= 0 && gz < n[2];
  if (in) return value_at<T>(gx, gy, gz);
  switch (bc) {
    case Boundary::leave: return sentinel<T>();
    case Boundary::zero: return T{};
    case Boundary::clamp: {
      const auto c = [](int a, int m) { return a < 0 ? 0 : a >= m ? m - 1 : a; };
      return value_at<T>(c(gx, n[0]), c(gy, n[1]), c(gz, n[2]));
    }
    case Boundary::periodic: {
      const auto w = [](int a, int m) { return ((a % m) + m) % m; };
      return value_at<T>(w(gx, n[0]), w(gy, n[1]), w(gz, n[2]));
    }
  }
  return T{};
}

const char* bc_name(Boundary bc) {
  return bc == Boundary::leave ? "leave" : bc == Boundary::zero ? "zero" : bc == Boundary::clamp ? "clamp" : "periodic";
}

/// Every policy, axis order, origin shift, block shape and path on grids of extents n (x, y, z), on
/// ExecT (a GPU: the one path it has; its input copied from the host's, contiguous layouts); Shape:
/// the blocks' shape as a BlockShape (blocks: that one) or given at launch.
template <class Tile, class L, class ExecT = Exec, class Shape = RuntimeShape>
void check_loads(const std::vector<std::array<int, 3>>& grids, const std::vector<Dim3>& blocks) {
  constexpr bool host = std::is_same<ExecT, Exec>::value;
  using T                = typename Tile::value_type;
  constexpr int Rank     = Tile::rank;
  constexpr int nxt = Tile::nx, nyt = Tile::ny, nzt = Tile::nz;
  for (const auto& n : grids) {
    for (HaloAxes axes : {HaloAxes::as_indexed, HaloAxes::reversed}) {
      // Extents in index order: x last (as_indexed) or first (reversed).
      int e[3];
      for (int d = 0; d < Rank; ++d) e[d] = n[axes == HaloAxes::reversed ? d : Rank - 1 - d];
      const auto in = Kokkos::create_mirror_view_and_copy(typename ExecT::memory_space(), grid_view<T, Rank, L>(e, axes));
      const Dim3 grid(ceil_div(n[0], nxt), ceil_div(n[1], nyt), Rank == 3 ? ceil_div(n[2], nzt) : 1);
      Kokkos::View<T**, Kokkos::LayoutRight, typename ExecT::memory_space> ddump("dump", grid.count(), Tile::points);
      for (Boundary bc : {Boundary::leave, Boundary::zero, Boundary::clamp, Boundary::periodic})
        for (Dim3 shift : {Dim3(0, 0, 0), Dim3(-3, 2, Rank == 3 ? -1 : 0)})
          for (Dim3 block : blocks)
            for (Path path : {Path::host_loops, Path::two_members, Path::checker}) {
              if (path == Path::checker && (!scratch_check_compiled || !host)) continue;
              if (path == Path::two_members && (!host || Exec().concurrency() < 2 || block.count() < 2)) continue;
              CAPTURE(layout_name<L>(), Rank, n[0], n[1], n[2], Tile::rx, Tile::ry, Tile::rz, bc_name(bc),
                      axes == HaloAxes::reversed, shift.x, shift.y, block.x, block.y, block.z, path_name(path));
              ScratchCheckReport r;
              {
                TeamSize ts(path == Path::two_members ? 2 : 1);
                load_and_dump<Tile, ExecT, Shape>(in, ddump, grid, block, bc, axes, shift, path, &r);
              }
              const auto dump = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ddump);
              if (path == Path::checker) {
                CHECK(r.races == 0);
                CHECK(r.uninitialised_reads == 0);
                CHECK(r.misuses == 0);
              }
              int bad = 0;
              for (int bz = 0; bz < grid.z; ++bz)
                for (int by = 0; by < grid.y; ++by)
                  for (int bx = 0; bx < grid.x; ++bx) {
                    const int blk = bx + grid.x * (by + grid.y * bz);
                    // The block's origin is blockIdx * blockDim (the block's shape, not the tile's).
                    const int ox = bx * block.x + shift.x, oy = by * block.y + shift.y, oz = bz * block.z + shift.z;
                    for (int k = 0; k < Tile::points; ++k) {
                      const int x = k % Tile::wx, y = k / Tile::wx % Tile::wy, z = k / (Tile::wx * Tile::wy);
                      const int gn[3] = {n[0], n[1], Rank == 3 ? n[2] : 1};
                      const T want = expected<T>(ox + x - Tile::rx, oy + y - Tile::ry, (Rank == 3 ? oz : 0) + z - Tile::rz,
                                                 gn, bc);
                      bad += !same(dump(blk, k), want);
                    }
                  }
              CHECK(bad == 0);
            }
    }
  }
}

template <class T, class L>
void loads_2d() {
  // 24 x 12: interior blocks whose rows start on 16-byte boundaries (the GPU's vector loads).
  const std::vector<std::array<int, 3>> grids = {{1, 1, 1}, {13, 6, 1}, {17, 9, 1}, {2, 3, 1}, {24, 12, 1}};
  // The tile's shape, and 15 threads (not a warp, not the tile): the load is a block-stride loop.
  check_loads<HaloTile2d<T, 8, 4>, L>(grids, {Dim3(8, 4), Dim3(5, 3)});
  check_loads<HaloTile2d<T, 8, 4>, L, Exec, BlockShape<8, 4>>(grids, {Dim3(8, 4)});  // the count from the type
  check_loads<HaloTile2d<T, 8, 4, 2, 2, 3>, L>(grids, {Dim3(8, 4)});  // radius 2, padded rows
  check_loads<HaloTile2d<T, 8, 4, 2, 1>, L>(grids, {Dim3(8, 4)});     // radius 2 along x, 1 along y
}
template <class T, class L>
void loads_3d() {
  const std::vector<std::array<int, 3>> grids = {{1, 1, 1}, {9, 5, 3}, {10, 4, 5}, {24, 6, 6}};
  check_loads<HaloTile3d<T, 8, 2, 2>, L>(grids, {Dim3(8, 2, 2), Dim3(5, 3, 1)});
  check_loads<HaloTile3d<T, 8, 2, 2, 2, 1, 2>, L>(grids, {Dim3(8, 2, 2)});
}

}  // namespace

static_assert(HaloTile2d<float, 32, 8>::pitch == 34, "");
static_assert(HaloTile2d<float, 32, 8>::shmem_size() == 34 * 10 * sizeof(float), "");
static_assert(HaloTile2d<double, 16, 16, 1, 1, 30>::pitch == 48, "");
static_assert(HaloTile3d<double, 32, 4, 4>::shmem_size() == 34 * 6 * 6 * sizeof(double), "");
static_assert(HaloTile3d<int, 8, 4, 2, 2, 1, 3>::points == 12 * 6 * 8, "");

TEMPLATE_TEST_CASE("HaloTile 2-D: every boundary policy, layout and path against a host reference",
                   "[halo_tile][layer]", float, double, int, Pt) {
  loads_2d<TestType, Right>();
  loads_2d<TestType, Left>();
  loads_2d<TestType, StrideOf<Right>>();
  loads_2d<TestType, StrideOf<Left>>();
}

TEMPLATE_TEST_CASE("HaloTile 3-D: every boundary policy, layout and path against a host reference",
                   "[halo_tile][layer]", float, double, int, Pt) {
  loads_3d<TestType, Right>();
  loads_3d<TestType, Left>();
  loads_3d<TestType, StrideOf<Left>>();
}

TEMPLATE_LIST_TEST_CASE("HaloTile on every backend: every boundary policy, both contiguous layouts",
                        "[halo_tile][layer][gpu]", test::Spaces) {
  const std::vector<std::array<int, 3>> g2 = {{1, 1, 1}, {13, 6, 1}, {37, 9, 1}, {68, 12, 1}};
  check_loads<HaloTile2d<float, 32, 4>, Right, TestType>(g2, {Dim3(32, 4), Dim3(5, 3)});
  check_loads<HaloTile2d<float, 32, 4, 2, 2, 3>, Left, TestType>(g2, {Dim3(32, 4)});
  const std::vector<std::array<int, 3>> g3 = {{1, 1, 1}, {9, 5, 3}, {40, 4, 5}, {68, 6, 6}};
  check_loads<HaloTile3d<double, 32, 2, 2>, Right, TestType>(g3, {Dim3(32, 2, 2)});
  check_loads<HaloTile3d<int, 16, 2, 2, 2, 1, 2>, Left, TestType>(g3, {Dim3(16, 2, 2), Dim3(5, 3, 1)});
}

namespace {
/// A 5-point stencil (2-D) or 7-point (3-D) over the tile, zero outside the grid, written through
/// the in-grid phase (clipped): every grid point once, none outside (outputs poisoned first).
template <class Tile, class V>
void stencil(const V& in, const V& out, Path path, ScratchCheckReport* report) {
  using T = typename Tile::value_type;
  const int n0 = static_cast<int>(in.extent(0)), n1 = static_cast<int>(in.extent(1));
  const int n2 = Tile::rank == 3 ? static_cast<int>(in.extent(2)) : 1;
  const Dim3 grid = Tile::rank == 2 ? Dim3(ceil_div(n1, Tile::nx), ceil_div(n0, Tile::ny))
                                    : Dim3(ceil_div(n2, Tile::nx), ceil_div(n1, Tile::ny), ceil_div(n0, Tile::nz));
  auto p = LaunchParams(grid, Dim3(Tile::nx, Tile::ny, Tile::nz)).uses<Tile>();
  if (path == Path::checker) p.check_scratch(ScratchCheck().quiet().into(report));
  launch(Exec(), "test::halo_stencil", p, KOKKOS_LAMBDA(const B& b) {
    (void)out;  // captured here: nvcc refuses an extended lambda's first capture inside an if constexpr
    Tile tile(b);
    tile.load(b, in, Boundary::zero);
    sync_threads(b);
    tile.clipped(b, [&](const Thread& t) {
      if constexpr (Tile::rank == 2) {
        out(t.gy, t.gx) = T(2) * tile(t.y, t.x) + tile(t.y, t.x - 1) + tile(t.y, t.x + 1) + tile(t.y - 1, t.x) +
                          tile(t.y + 1, t.x);
      } else {
        out(t.gz, t.gy, t.gx) = T(2) * tile(t.z, t.y, t.x) + tile(t.z, t.y, t.x - 1) + tile(t.z, t.y, t.x + 1) +
                                tile(t.z, t.y - 1, t.x) + tile(t.z, t.y + 1, t.x) + tile(t.z - 1, t.y, t.x) +
                                tile(t.z + 1, t.y, t.x);
      }
    });
  });
  Exec().fence();
}
}  // namespace

TEMPLATE_TEST_CASE("HaloTile: the in-grid phase writes every grid point once, none outside", "[halo_tile][layer]", float,
                   int) {
  using T = TestType;
  const T poison = static_cast<T>(-12345);
  for (Path path : {Path::host_loops, Path::two_members, Path::checker}) {
    if (path == Path::checker && !scratch_check_compiled) continue;
    if (path == Path::two_members && Exec().concurrency() < 2) continue;
    TeamSize ts(path == Path::two_members ? 2 : 1);
    for (auto ny_nx : {std::array<int, 2>{1, 1}, {9, 37}, {16, 64}, {31, 5}}) {
      const int ny = ny_nx[0], nx = ny_nx[1];
      CAPTURE(path_name(path), ny, nx);
      const int e[2] = {ny, nx};
      const auto in  = grid_view<T, 2, Right>(e, HaloAxes::as_indexed);
      Kokkos::View<T**, Kokkos::LayoutRight, MS> out("out", ny, nx);
      Kokkos::deep_copy(out, poison);
      ScratchCheckReport r;
      stencil<HaloTile2d<T, 32, 8>>(in, out, path, &r);
      if (path == Path::checker) CHECK(no_findings(r));
      const auto v = [&](int y, int x) { return y < 0 || y >= ny || x < 0 || x >= nx ? T(0) : in(y, x); };
      int bad = 0;
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
          bad += out(y, x) != T(2) * v(y, x) + v(y, x - 1) + v(y, x + 1) + v(y - 1, x) + v(y + 1, x);
      CHECK(bad == 0);
    }
    for (auto n : {std::array<int, 3>{1, 1, 1}, {5, 7, 35}, {9, 4, 64}}) {
      const int nz = n[0], ny = n[1], nx = n[2];
      CAPTURE(path_name(path), nz, ny, nx);
      const auto in = grid_view<T, 3, Right>(n.data(), HaloAxes::as_indexed);
      Kokkos::View<T***, Kokkos::LayoutRight, MS> out("out", nz, ny, nx);
      Kokkos::deep_copy(out, poison);
      ScratchCheckReport r;
      stencil<HaloTile3d<T, 32, 4, 2>>(in, out, path, &r);
      if (path == Path::checker) CHECK(no_findings(r));
      const auto v = [&](int z, int y, int x) {
        return z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx ? T(0) : in(z, y, x);
      };
      int bad = 0;
      for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
          for (int x = 0; x < nx; ++x)
            bad += out(z, y, x) != T(2) * v(z, y, x) + v(z, y, x - 1) + v(z, y, x + 1) + v(z, y - 1, x) +
                                       v(z, y + 1, x) + v(z - 1, y, x) + v(z + 1, y, x);
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("HaloTile: in_grid_box is the tile clipped to the grid", "[halo_tile][layer]") {
  using Tile = HaloTile2d<int, 8, 4>;
  Kokkos::View<int**, Kokkos::LayoutRight, MS> in("in", 6, 13);
  Kokkos::View<int*[3], MS> box("box", 4);
  launch(Exec(), "test::halo_box", LaunchParams(Dim3(2, 2), Dim3(8, 4)).uses<Tile>(), KOKKOS_LAMBDA(const B& b) {
    Tile tile(b);
    tile.load(b, in, Boundary::leave);
    sync_threads(b);
    const Dim3 c = tile.in_grid_box();
    b.once([&]() { box(b.block_rank(), 0) = c.x, box(b.block_rank(), 1) = c.y, box(b.block_rank(), 2) = c.z; });
  });
  Exec().fence();
  const int want[4][3] = {{8, 4, 1}, {5, 4, 1}, {8, 2, 1}, {5, 2, 1}};
  for (int i = 0; i < 4; ++i)
    for (int d = 0; d < 3; ++d) CHECK(box(i, d) == want[i][d]);
}

namespace {
#define SCRATCHKIT_REQUIRE_CHECKER() \
  if (!scratch_check_compiled) SKIP("scratch checker not compiled in (SCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF)")

/// A 2-D stencil on a 20 x 12 grid in 2 x 2 blocks of 16 x 8, the halo as `bc` says, with or without the barrier.
ScratchCheckReport checked_stencil(Boundary bc, bool barrier) {
  using Tile = HaloTile2d<float, 16, 8>;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> in("in", 12, 20), out("out", 12, 20);
  ScratchCheckReport r;
  launch(Exec(), "test::halo_checked",
         LaunchParams(Dim3(2, 2), Dim3(16, 8)).uses<Tile>().check_scratch(ScratchCheck().quiet().into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           Tile tile(b);
           tile.load(b, in, bc);
           if (barrier) sync_threads(b);
           tile.clipped(b, [&](const Thread& t) {
             out(t.gy, t.gx) = tile(t.y, t.x - 1) + tile(t.y, t.x + 1) + tile(t.y - 1, t.x) + tile(t.y + 1, t.x);
           });
         });
  return r;
}
}  // namespace

TEST_CASE("HaloTile under the checker: a read of a halo element `leave` left unwritten is uninitialised",
          "[halo_tile][checker]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport left = checked_stencil(Boundary::leave, true);
  CHECK(left.races == 0);
  // Halo elements outside the 20 x 12 grid read: block (0, 0) 8 at x = -1 and 16 at y = -1, (1, 0) 8 at
  // x = 20 and 4 at y = -1, (0, 1) 4 at x = -1 and 16 at y = 12, (1, 1) 4 and 4. The checker counts each
  // scratch element once a launch (docs/checker.md): in tile coordinates 8 at x = -1, 16 at y = -1, 8 at
  // x = 4 and 16 at y = 4, less (4, 4), counted in both of the last two.
  CHECK(left.uninitialised_reads == 8 + 16 + 8 + 16 - 1);
  REQUIRE_FALSE(left.findings.empty());
  CHECK(left.findings[0].kind == ScratchFindingKind::uninitialised_read);
  CHECK_THAT(left.findings[0].array, ContainsSubstring("HaloTile<float, 16x8, R 1x1, pad 0>"));
  for (Boundary bc : {Boundary::zero, Boundary::clamp, Boundary::periodic}) {
    const ScratchCheckReport r = checked_stencil(bc, true);
    CAPTURE(bc_name(bc));
    CHECK(no_findings(r));
  }
}

TEST_CASE("HaloTile under the checker: a missing barrier after the load is a race, named at the load",
          "[halo_tile][checker]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = checked_stencil(Boundary::zero, false);
  CHECK(r.races > 0);
  REQUIRE_FALSE(r.findings.empty());
  const ScratchFinding& f = r.findings[0];
  CHECK(f.kind == ScratchFindingKind::race);
  CHECK(f.other_access == "written");
  REQUIRE(f.other_site.file != nullptr);
  CHECK_THAT(std::string(f.other_site.file), ContainsSubstring("test_halo_tile.cpp"));  // the user's load, not the header
  CHECK(no_findings(checked_stencil(Boundary::zero, true)));
}

namespace {
/// Bank counts of a 16 x 16 block's 5-point stencil over a float tile with rows padded by Pad.
template <int Pad>
ScratchCheckReport banks_16x16() {
  using Tile = HaloTile2d<float, 16, 16, 1, 1, Pad>;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> in("in", 64, 64), out("out", 64, 64);
  ScratchCheckReport r;
  launch(Exec(), "test::halo_banks",
         LaunchParams(Dim3(4, 4), Dim3(16, 16)).uses<Tile>().check_scratch(ScratchCheck().quiet().into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           Tile tile(b);
           tile.load(b, in, Boundary::zero);
           sync_threads(b);
           tile.clipped(b, [&](const Thread& t) {
             out(t.gy, t.gx) = tile(t.y, t.x) + tile(t.y, t.x - 1) + tile(t.y, t.x + 1) + tile(t.y - 1, t.x) +
                               tile(t.y + 1, t.x);
           });
         });
  return r;
}
}  // namespace

TEST_CASE("HaloTile: bank conflicts as its documentation states them", "[halo_tile][checker][banks]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport plain = banks_16x16<0>(), padded = banks_16x16<30>();
  CAPTURE(plain.str(), padded.str());
  CHECK(no_findings(plain));
  CHECK(no_findings(padded));
  // 16 blocks, 8 warps a block, 5 reads a warp: 640 load requests. A warp reads two tile rows:
  // 18 floats apart every request conflicts 2-way; 48 apart (48 = 16 mod 32), none.
  CHECK(plain.wavefronts(ScratchOp::load) - plain.conflicts(ScratchOp::load) == 640);
  CHECK(plain.conflicts(ScratchOp::load) == 640);
  CHECK(padded.conflicts(ScratchOp::load) == 0);
  // The 12 edge blocks store 32 consecutive points of the 18 x 18 box a request (11 a block):
  // unpadded rows are consecutive words, padded rows put a 30-word gap in 10 of the 11 requests.
  // The 4 interior blocks load 16-byte vectors (108, threads 0-107) and store each one's 4
  // elements one at a time (4 requests a warp, lanes 4 words apart): 3-way in 48 of their 64.
  CHECK(plain.wavefronts(ScratchOp::store) - plain.conflicts(ScratchOp::store) == 12 * 11 + 4 * 16);
  CHECK(plain.conflicts(ScratchOp::store) == 96);
  CHECK(padded.conflicts(ScratchOp::store) == 256);
}
