// SPDX-License-Identifier: BSD-3-Clause
// User-style rows: kernels a user writes on the layer, each beside the plain Kokkos version a CPU
// Kokkos user writes (MDRangePolicy / RangePolicy over rows, no scratch, no barriers), both checked:
//   tutorial_sgemm, tutorial_stencil2d, tutorial_scan256  examples/tutorial's kernels, as they are
//   user_sgemm                                            a register tile of 4 sums a thread, in
//                                                         PerThread<float[4]> and PerThread<Kokkos::Array>
//   user_stencil_2d_5pt, user_stencil_3d_7pt              2-D and 3-D blocks with a halo tile in scratch,
//                                                         written as a CUDA user writes them, both layouts;
//                                                         the 2-D one also written with a CPU in mind (_interior);
//                                                         both with the HaloTile primitive (halo_tile_primitive_*);
//                                                         on CUDA their twins (native, perf/twins/), checked bit for bit
//   heat3d                                                examples/heat3d's time loop (the library's
//                                                         stencil_3d_7pt at its default variant), 10 steps;
//                                                         two plain rows: MDRangePolicy, RangePolicy over planes
#include "harness.hpp"
#include "plain_kokkos.hpp"
#include "plain_pair.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>
#include <scratchkit/scratchkit.hpp>

#include "../examples/tutorial/common.hpp"
#include "twins/user_stencils.hpp"

// The tutorial's kernel files, each in a namespace of its own (their helpers share names), main
// renamed; parts 0 and 3 of this file the user 3-D stencil (float, double), part 1 the tutorial's SGEMM
// and scan and heat3d, parts 2 and 4 the 2-D stencils (float with the tutorial's, double; perf/CMakeLists.txt).
#define main tutorial_main
#if SCRATCHKIT_BENCH_PART == 2
namespace tut_stencil2d {
#include "../examples/tutorial/stencil2d.cpp"
}
#elif SCRATCHKIT_BENCH_PART == 1
namespace tut_sgemm {
#include "../examples/tutorial/sgemm.cpp"
}
namespace tut_scan {
#include "../examples/tutorial/scan.cpp"
}
#endif
#undef main

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

using LBlock = scratchkit::Block<Exec>;

/// Element (z, y, x) of a grid whose x is the unit-stride index in either layout.
template <class View>
KOKKOS_INLINE_FUNCTION decltype(auto) at3(const View& v, int z, int y, int x) {
  if constexpr (plain::right_v<View>)
    return v(z, y, x);
  else
    return v(x, y, z);
}
template <class View>
KOKKOS_INLINE_FUNCTION decltype(auto) at2(const View& v, int y, int x) {
  if constexpr (plain::right_v<View>)
    return v(y, x);
  else
    return v(x, y);
}

/// Whether two device Views hold the same bits (the layer's rows against their CUDA twin's).
template <class View>
bool same_bits(const View& a, const View& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  return ha.span() == hb.span() &&
         std::memcmp(ha.data(), hb.data(), ha.span() * sizeof(typename View::non_const_value_type)) == 0;
}

#if SCRATCHKIT_BENCH_PART == 0 || SCRATCHKIT_BENCH_PART == 3
// ---------------------------------------------------------------- user-style 3-D 7-point stencil
/// The halo tile's load: a strided loop over the block's threads, as a CUDA user writes it, or
/// (Stride) the layer's block_stride over the tile's box (outside the kernel's lambda: nvcc refuses
/// an extended lambda whose first capture is in an if constexpr).
template <bool Stride, int BX, int BY, int BZ, class Tile, class View>
KOKKOS_INLINE_FUNCTION void load_tile_3d(const LBlock& b, Tile& s, const View& in, const Dim3& o, int n) {
  using T              = typename View::non_const_value_type;
  constexpr int PX = BX + 2, PY = BY + 2, TILE = PX * PY * (BZ + 2), NT = BX * BY * BZ;
  if constexpr (Stride) {
    b.block_stride(Dim3(PX, PY, BZ + 2), [&](int x, int y, int z) {
      const int gx = o.x + x - 1, gy = o.y + y - 1, gz = o.z + z - 1;
      s[(z * PY + y) * PX + x] = gx >= 0 && gx < n && gy >= 0 && gy < n && gz >= 0 && gz < n ? at3(in, gz, gy, gx) : T(0);
    });
  } else {
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < TILE; i += NT) {
        const int gx = o.x + i % PX - 1, gy = o.y + i / PX % PY - 1, gz = o.z + i / (PX * PY) - 1;
        s[i] = gx >= 0 && gx < n && gy >= 0 && gy < n && gz >= 0 && gz < n ? at3(in, gz, gy, gx) : T(0);
      }
    });
  }
}

/// A CUDA user's 3-D stencil on the layer: 32 x 4 x 4 blocks, a (BZ+2)(BY+2)(BX+2) halo tile loaded
/// by a strided loop over the block's threads (Stride: the layer's block_stride over the tile's
/// box instead), one point per thread; boundary points copied.
template <class T, bool Stride, class View>
void user_stencil_3d(const View& in, const View& out, T c0, T c1) {
  constexpr int BX = 32, BY = 4, BZ = 4, PX = BX + 2, PY = BY + 2, TILE = PX * PY * (BZ + 2);
  using Tile  = SharedArray<T, TILE>;
  const int n = static_cast<int>(in.extent(0));
  auto p = LaunchParams({ceil_div(n, BX), ceil_div(n, BY), ceil_div(n, BZ)}, {BX, BY, BZ}).uses<Tile>();
  launch(Exec(), "bench::user_stencil_3d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile s(b);
    const Dim3 o = b.grid_origin();
    load_tile_3d<Stride, BX, BY, BZ>(b, s, in, o, n);
    sync_threads(b);
    b.threads([&](const Thread& t) {
      if (t.gx >= n || t.gy >= n || t.gz >= n) return;
      const T* c = &s[((t.z + 1) * PY + t.y + 1) * PX + t.x + 1];
      if (t.gx == 0 || t.gy == 0 || t.gz == 0 || t.gx == n - 1 || t.gy == n - 1 || t.gz == n - 1) {
        at3(out, t.gz, t.gy, t.gx) = c[0];
        return;
      }
      T sum = c[-1];
      sum += c[1];
      sum += c[-PX];
      sum += c[PX];
      sum += c[-PX * PY];
      sum += c[PX * PY];
      at3(out, t.gz, t.gy, t.gx) = c0 * c[0] + c1 * sum;
    });
  });
}

/// user_stencil_3d written with the halo-tile primitive: one load (zero outside the grid; x is the
/// unit-stride axis in either layout), one phase over the block's in-grid box, the boundary rule as a
/// select rather than an early return.
template <class T, class View>
void user_stencil_3d_halo(const View& in, const View& out, T c0, T c1) {
  constexpr int BX = 32, BY = 4, BZ = 4;
  using Tile   = HaloTile3d<T, BX, BY, BZ>;
  const int n  = static_cast<int>(in.extent(0));
  const auto axes = plain::right_v<View> ? HaloAxes::as_indexed : HaloAxes::reversed;
  auto p = LaunchParams({ceil_div(n, BX), ceil_div(n, BY), ceil_div(n, BZ)}, {BX, BY, BZ}).uses<Tile>();
  launch(Exec(), "bench::user_stencil_3d_halo", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile s(b);
    s.load(b, in, Boundary::zero, axes);
    sync_threads(b);
    s.clipped(b, [&](const Thread& t) {
      const T c = s(t.z, t.y, t.x);
      T sum     = s(t.z, t.y, t.x - 1);
      sum += s(t.z, t.y, t.x + 1);
      sum += s(t.z, t.y - 1, t.x);
      sum += s(t.z, t.y + 1, t.x);
      sum += s(t.z - 1, t.y, t.x);
      sum += s(t.z + 1, t.y, t.x);
      // Both values, then one select: GCC keeps it a branch under -ftrapping-math (docs/performance.md).
      const T v         = c0 * c + c1 * sum;
      const bool edge = (t.gx == 0) | (t.gy == 0) | (t.gz == 0) | (t.gx == n - 1) | (t.gy == n - 1) | (t.gz == n - 1);
      at3(out, t.gz, t.gy, t.gx) = edge ? c : v;
    });
  });
}

template <class T, class Layout>
void add_user_3d(std::vector<Case>& cases, int n, bool native) {
  using D                = Kokkos::View<T***, Layout, Mem>;
  struct Data {
    D in, out;
    typename D::host_mirror_type hin;
    explicit Data(int m)
        : in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user3d::in"), m, m, m),
          out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user3d::out"), m, m, m),
          hin(Kokkos::create_mirror(in)) {
      fill_random(hin, 8);
      Kokkos::deep_copy(in, hin);
    }
  };
  const std::string size = std::to_string(n) + "^3";
  const std::string key  = std::string("user3d/") + type_name<T>() + "/" + layout_name<Layout>() + "/" + size;
  auto data = [key, n] { return data_cache().get<Data>(key, [n] { return Data(n); }); };
  const T c0 = T(0.4), c1 = T(0.1);
  auto check = [data, n, c0, c1] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
    return check::stencil_3d_7pt<T>(d->hin.data(), h.data(), n, n, n, c0, c1).passed();
  };
  auto poison = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
  const double interior = static_cast<double>(n - 2) * (n - 2) * (n - 2);
  Case k{"user_stencil_3d_7pt", "halo_tile_32x4x4", "layer", type_name<T>(), size};
  k.layout  = layout_name<Layout>();
  k.bytes   = 2.0 * n * n * n * sizeof(T);
  k.flops   = 8.0 * interior;
  k.prepare = poison;
  k.run     = [data, c0, c1] {
    auto d = data();
    user_stencil_3d<T, false>(d->in, d->out, c0, c1);
  };
  k.check = check;
  Case ks    = k;
  ks.variant = "halo_tile_32x4x4_block_stride";
  ks.run     = [data, c0, c1] {
    auto d = data();
    user_stencil_3d<T, true>(d->in, d->out, c0, c1);
  };
  cases.push_back(ks);
  Case kh    = k;
  kh.variant = "halo_tile_primitive_32x4x4";
  kh.run     = [data, c0, c1] {
    auto d = data();
    user_stencil_3d_halo<T>(d->in, d->out, c0, c1);
  };
  cases.push_back(kh);

#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  if (native) {  // the CUDA twin; its check: the reference, then both layer loads bit for bit
    Case kn    = k;
    kn.backend = "native";
    kn.run     = [data, n, c0, c1] {
      auto d       = data();
      const bool r = plain::right_v<D>;
      native::cuda::bench::user_stencil_3d_7pt(d->in.data(), d->out.data(), n, static_cast<int>(d->in.stride(1)),
                                               static_cast<int>(d->in.stride(r ? 0 : 2)), c0, c1,
                                               Exec().cuda_stream());
    };
    kn.check = [data, check, c0, c1] {
      if (!check()) return false;
      auto d = data();
      D twin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user3d::twin"), d->out.layout());
      Kokkos::deep_copy(twin, d->out);
      user_stencil_3d<T, false>(d->in, d->out, c0, c1);
      const bool loop = same_bits(d->out, twin);
      user_stencil_3d_halo<T>(d->in, d->out, c0, c1);
      return loop && same_bits(d->out, twin);
    };
    cases.push_back(kn);
  }
#endif
  (void)native;
  add_with_plain(cases, k, "mdrange", [data, c0, c1] {
    auto d = data();
    plain::stencil_3d_7pt(Exec(), d->in, d->out, c0, c1);
  });
}

#elif SCRATCHKIT_BENCH_PART == 2 || SCRATCHKIT_BENCH_PART == 4
// ---------------------------------------------------------------- user-style 2-D 5-point stencil
/// The 2-D halo tile's and the weights' load, as load_tile_3d.
template <bool Stride, int BX, int BY, class Tile, class W, class View, class WView>
KOKKOS_INLINE_FUNCTION void load_tile_2d(const LBlock& b, Tile& tile, W& w, const View& in, const WView& w5,
                                         const Dim3& o, int ny, int nx) {
  using T          = typename View::non_const_value_type;
  constexpr int P = BX + 2, TILE = P * (BY + 2), NT = BX * BY;
  if constexpr (Stride) {
    b.block_stride(5, [&](int i) { w[i] = w5(i); });
    b.block_stride(Dim3(P, BY + 2), [&](int x, int y, int) {
      const int gy = o.y + y - 1, gx = o.x + x - 1;
      tile[y * P + x] = gy >= 0 && gy < ny && gx >= 0 && gx < nx ? at2(in, gy, gx) : T(0);
    });
  } else {
    b.threads([&](const Thread& t) {
      if (t.rank < 5) w[t.rank] = w5(t.rank);
      for (int i = t.rank; i < TILE; i += NT) {
        const int gy = o.y + i / P - 1, gx = o.x + i % P - 1;
        tile[i] = gy >= 0 && gy < ny && gx >= 0 && gx < nx ? at2(in, gy, gx) : T(0);
      }
    });
  }
}

/// The 2-D user stencils' block (32 x 8) and halo tile; the grid's extents (ny, nx) in either
/// layout and the launch of one block per 32 x 8 points, with the tile and 5 weights in scratch.
struct UserStencil2d {
  static constexpr int BX = 32, BY = 8, P = BX + 2, TILE = P * (BY + 2);
  template <class T>
  using Tile = SharedArray<T, TILE>;
  template <class T>
  using W = SharedArray<T, 5>;
  template <class T, class View>
  static LaunchParams params(const View& in, int& ny, int& nx) {
    ny = static_cast<int>(plain::right_v<View> ? in.extent(0) : in.extent(1));
    nx = static_cast<int>(plain::right_v<View> ? in.extent(1) : in.extent(0));
    return LaunchParams({ceil_div(nx, BX), ceil_div(ny, BY)}, {BX, BY}).uses<Tile<T>, W<T>>();
  }
};

/// out = w0 c + w1 west + w2 east + w3 north + w4 south, zero outside the grid: the tutorial's
/// stencil2d in either layout and type, 32 x 8 blocks, the halo tile in scratch (Stride: loaded by
/// the layer's block_stride over the tile's box instead of a strided loop over the threads).
template <class T, bool Stride, class View, class WView>
void user_stencil_2d(const View& in, const WView& w5, const View& out) {
  using S          = UserStencil2d;
  constexpr int BX = S::BX, BY = S::BY, P = S::P;
  using Tile       = S::Tile<T>;
  using W          = S::W<T>;
  int ny = 0, nx = 0;
  const auto p = S::params<T>(in, ny, nx);
  launch(Exec(), "bench::user_stencil_2d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile tile(b);
    W w(b);
    const Dim3 o = b.grid_origin();
    load_tile_2d<Stride, BX, BY>(b, tile, w, in, w5, o, ny, nx);
    sync_threads(b);
    b.threads([&](const Thread& t) {
      if (t.gy >= ny || t.gx >= nx) return;
      const T* c = &tile[(t.y + 1) * P + t.x + 1];
      at2(out, t.gy, t.gx) = w[0] * c[0] + w[1] * c[-1] + w[2] * c[1] + w[3] * c[-P] + w[4] * c[P];
    });
  });
}

/// user_stencil_2d written with a CPU in mind (docs/performance.md, "Halo tiles on a CPU"): blocks whose halo
/// tile lies inside the grid load it without tests; the stencil phase runs over the block's
/// in-grid box (threads(box, f)) without a test, the weights read once into registers. Both are
/// valid GPU code: the branch is uniform over a block.
template <class T, class View, class WView>
void user_stencil_2d_interior(const View& in, const WView& w5, const View& out) {
  using S          = UserStencil2d;
  constexpr int BX = S::BX, BY = S::BY, P = S::P;
  using Tile       = S::Tile<T>;
  using W          = S::W<T>;
  int ny = 0, nx = 0;
  const auto p = S::params<T>(in, ny, nx);
  launch(Exec(), "bench::user_stencil_2d_interior", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile tile(b);
    W w(b);
    const Dim3 o = b.grid_origin();
    if (o.x >= 1 && o.y >= 1 && o.x + BX + 1 <= nx && o.y + BY + 1 <= ny) {
      b.block_stride(5, [&](int i) { w[i] = w5(i); });
      b.block_stride(Dim3(P, BY + 2), [&](int x, int y, int) { tile[y * P + x] = at2(in, o.y + y - 1, o.x + x - 1); });
    } else {
      load_tile_2d<true, BX, BY>(b, tile, w, in, w5, o, ny, nx);
    }
    sync_threads(b);
    const T w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    const Dim3 box(nx - o.x < BX ? nx - o.x : BX, ny - o.y < BY ? ny - o.y : BY);
    b.threads(box, [&](const Thread& t) {
      const T* c = &tile[(t.y + 1) * P + t.x + 1];
      at2(out, t.gy, t.gx) = w0 * c[0] + w1 * c[-1] + w2 * c[1] + w3 * c[-P] + w4 * c[P];
    });
  });
}

/// user_stencil_2d written with the halo-tile primitive: one load (zero outside the grid; x is the
/// unit-stride axis in either layout), one phase over the block's in-grid box, the weights in locals.
template <class T, class View, class WView>
void user_stencil_2d_halo(const View& in, const WView& w5, const View& out) {
  using S    = UserStencil2d;
  using Tile = HaloTile2d<T, S::BX, S::BY>;
  using W    = S::W<T>;
  int ny = 0, nx = 0;
  S::params<T>(in, ny, nx);
  const auto axes = plain::right_v<View> ? HaloAxes::as_indexed : HaloAxes::reversed;
  const auto p = LaunchParams({ceil_div(nx, S::BX), ceil_div(ny, S::BY)}, {S::BX, S::BY}).uses<Tile, W>();
  launch(Exec(), "bench::user_stencil_2d_halo", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile tile(b);
    W w(b);
    b.block_stride(5, [&](int i) { w[i] = w5(i); });
    tile.load(b, in, Boundary::zero, axes);
    sync_threads(b);
    const T w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    tile.clipped(b, [&](const Thread& t) {
      at2(out, t.gy, t.gx) = w0 * tile(t.y, t.x) + w1 * tile(t.y, t.x - 1) + w2 * tile(t.y, t.x + 1) +
                             w3 * tile(t.y - 1, t.x) + w4 * tile(t.y + 1, t.x);
    });
  });
}

/// The plain version, as the plain 3-D stencil: a RangePolicy over rows, the interior of a row as a
/// unit-stride loop without tests (vectorisable), the grid's edges with them; the same expression.
template <class T, class View, class WView>
void plain_stencil_2d(const View& in, const WView& w5, const View& out) {
  const int ny = static_cast<int>(plain::right_v<View> ? in.extent(0) : in.extent(1));
  const int nx = static_cast<int>(plain::right_v<View> ? in.extent(1) : in.extent(0));
  Kokkos::parallel_for("bench::plain_stencil_2d", Kokkos::RangePolicy<Exec>(0, ny), KOKKOS_LAMBDA(int y) {
    const T w0 = w5(0), w1 = w5(1), w2 = w5(2), w3 = w5(3), w4 = w5(4);
    const auto v = [&](int yy, int xx) -> T {
      return yy >= 0 && yy < ny && xx >= 0 && xx < nx ? at2(in, yy, xx) : T(0);
    };
    const auto edge = [&](int x) {
      at2(out, y, x) = w0 * v(y, x) + w1 * v(y, x - 1) + w2 * v(y, x + 1) + w3 * v(y - 1, x) + w4 * v(y + 1, x);
    };
    if (y == 0 || y == ny - 1 || nx < 3) {
      for (int x = 0; x < nx; ++x) edge(x);
      return;
    }
    edge(0);
    for (int x = 1; x < nx - 1; ++x)
      at2(out, y, x) = w0 * at2(in, y, x) + w1 * at2(in, y, x - 1) + w2 * at2(in, y, x + 1) +
                       w3 * at2(in, y - 1, x) + w4 * at2(in, y + 1, x);
    edge(nx - 1);
  });
}

template <class T>
bool check_stencil_2d(const T* in, const T* out, const std::vector<T>& w, int ny, int nx) {
  // 5 products summed in order: within gamma_6 sum |w_j v_j| of the exact value (Higham 3.1).
  const double u = std::numeric_limits<T>::epsilon() / 2, g6 = 6 * u / (1 - 6 * u);
  const auto v = [&](int y, int x) { return y < 0 || y >= ny || x < 0 || x >= nx ? 0.0 : double(in[std::size_t(y) * nx + x]); };
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const double t[5] = {v(y, x), v(y, x - 1), v(y, x + 1), v(y - 1, x), v(y + 1, x)};
      double s = 0, a = 0;
      for (int j = 0; j < 5; ++j) s += double(w[j]) * t[j], a += std::fabs(double(w[j]) * t[j]);
      if (!(std::fabs(double(out[std::size_t(y) * nx + x]) - s) <= g6 * a)) return false;
    }
  return true;
}

int user_2d_size(const Config& c) { return host_full(c) ? 4096 : c.full ? 16384 : 1024; }

/// Rows of the 2-D stencil: `tutorial` runs examples/tutorial's own stencil2d_layer (float,
/// LayoutRight), otherwise user_stencil_2d.
template <class T, class Layout>
void add_user_2d(std::vector<Case>& cases, int n, bool tutorial, bool native) {
  using V = Kokkos::View<T**, Layout, Mem>;
  struct Data {
    V in, out;
    Kokkos::View<T*, Mem> w;
    std::vector<T> hin, hw;
    explicit Data(int m)
        : in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user2d::in"), m, m),
          out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user2d::out"), m, m), w("user2d::w", 5) {
      auto h = Kokkos::create_mirror(in);
      fill_random(h, 9);
      Kokkos::deep_copy(in, h);
      hin.assign(h.data(), h.data() + h.span());
      auto hw5 = Kokkos::create_mirror(w);
      fill_random(hw5, 10);
      Kokkos::deep_copy(w, hw5);
      hw.assign(hw5.data(), hw5.data() + 5);
    }
  };
  const std::string size = std::to_string(n) + "^2";
  const std::string key  = std::string("user2d/") + type_name<T>() + "/" + layout_name<Layout>() + "/" + size;
  auto data = [key, n] { return data_cache().get<Data>(key, [n] { return Data(n); }); };
  auto check = [data, n] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
    return check_stencil_2d<T>(d->hin.data(), h.data(), d->hw, n, n);  // a square: either layout's memory
  };
  auto poison = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
  const std::string kernel = tutorial ? "tutorial_stencil2d" : "user_stencil_2d_5pt";
  Case k{kernel, tutorial ? "tutorial_32x8" : "halo_tile_32x8", "layer", type_name<T>(), size};
  k.layout  = layout_name<Layout>();
  k.bytes   = 2.0 * n * n * sizeof(T);
  k.flops   = 9.0 * n * n;
  k.prepare = poison;
#if SCRATCHKIT_BENCH_PART == 2
  if constexpr (std::is_same<T, float>::value && std::is_same<Layout, Kokkos::LayoutRight>::value) {
    if (tutorial)
      k.run = [data] {
        auto d = data();
        tut_stencil2d::stencil2d_layer(d->in, d->w, d->out, 32, 8);
      };
  }
#endif
  if (!tutorial)
    k.run = [data] {
      auto d = data();
      user_stencil_2d<T, false>(d->in, d->w, d->out);
    };
  k.check = check;
  if (!tutorial) {
    Case ks    = k;
    ks.variant = "halo_tile_32x8_block_stride";
    ks.run     = [data] {
      auto d = data();
      user_stencil_2d<T, true>(d->in, d->w, d->out);
    };
    cases.push_back(ks);
    Case ki    = k;
    ki.variant = "halo_tile_32x8_interior";
    ki.run     = [data] {
      auto d = data();
      user_stencil_2d_interior<T>(d->in, d->w, d->out);
    };
    cases.push_back(ki);
    Case kh    = k;
    kh.variant = "halo_tile_primitive_32x8";
    kh.run     = [data] {
      auto d = data();
      user_stencil_2d_halo<T>(d->in, d->w, d->out);
    };
    cases.push_back(kh);
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
    if (native) {  // the CUDA twin; its check: the reference, then both layer loads bit for bit
      Case kn    = k;
      kn.backend = "native";
      kn.run     = [data, n] {
        auto d = data();
        native::cuda::bench::user_stencil_2d_5pt(d->in.data(), d->w.data(), d->out.data(), n, n,
                                                 static_cast<int>(d->in.stride(plain::right_v<V> ? 0 : 1)),
                                                 Exec().cuda_stream());
      };
      kn.check = [data, check] {
        if (!check()) return false;
        auto d = data();
        V twin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "user2d::twin"), d->out.layout());
        Kokkos::deep_copy(twin, d->out);
        user_stencil_2d<T, false>(d->in, d->w, d->out);
        const bool loop = same_bits(d->out, twin);
        user_stencil_2d_halo<T>(d->in, d->w, d->out);
        return loop && same_bits(d->out, twin);
      };
      cases.push_back(kn);
    }
#endif
  }
  (void)native;
  add_with_plain(cases, k, "range_rows", [data] {
    auto d = data();
    plain_stencil_2d<T>(d->in, d->w, d->out);
  });
}

#else
// ---------------------------------------------------------------- user sgemm with a register tile
/// A user's SGEMM with a register tile, written as for a GPU: 16 x 16 threads, each computing
/// R = 4 rows of one column of a 64 x 16 tile of C, its four sums across the barriers in `Acc`:
/// PerThread<float[4]> (a structure of arrays on host backends) or
/// PerThread<Kokkos::Array<float, 4>> (each thread's four together).
template <class Acc, class Init, class M>
void user_sgemm_register_tile(const M& A, const M& B, const M& C) {
  constexpr int TX = 16, TY = 16, R = 4, BK = 16;
  using AsT = SharedArray<float, TY * R * BK>;
  using BsT = SharedArray<float, BK * TX>;
  const int m = static_cast<int>(C.extent(0)), n = static_cast<int>(C.extent(1)), K = static_cast<int>(A.extent(1));
  const auto p = LaunchParams(Dim3(ceil_div(n, TX), ceil_div(m, TY * R)), Dim3(TX, TY)).uses<AsT, BsT>();
  launch(Exec(), "bench::user_sgemm_register_tile", p, KOKKOS_LAMBDA(const LBlock& b) {
    AsT As(b);
    BsT Bs(b);
    Acc acc(b, Init{});
    const int row0 = b.block_idx().y * TY * R;
    for (int k0 = 0; k0 < K; k0 += BK) {
      b.threads([&](const Thread& t) {
        for (int i = 0; i < R; ++i) {
          const int r = row0 + t.y * R + i, k = k0 + t.x;
          As[(t.y * R + i) * BK + t.x] = r < m && k < K ? A(r, k) : 0.0f;
        }
        Bs[t.y * TX + t.x] = k0 + t.y < K && t.gx < n ? B(k0 + t.y, t.gx) : 0.0f;
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        auto&& a = acc(t);  // a row proxy (float[4]) or a reference (Kokkos::Array)
        for (int k = 0; k < BK; ++k) {
          const float bv = Bs[k * TX + t.x];
          for (int i = 0; i < R; ++i) a[i] += As[(t.y * R + i) * BK + k] * bv;
        }
      });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) {
      auto&& a = acc(t);
      for (int i = 0; i < R; ++i)
        if (row0 + t.y * R + i < m && t.gx < n) C(row0 + t.y * R + i, t.gx) = a[i];
    });
  });
}

// ---------------------------------------------------------------- tutorial sgemm, scan256
void add_tutorial_sgemm(std::vector<Case>& cases, int n) {
  using M = Kokkos::View<float**, Kokkos::LayoutRight, Mem>;
  struct Data {
    M A, B, C;
    std::vector<float> a, b;
    explicit Data(int m)
        : A(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tsgemm::A"), m, m),
          B(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tsgemm::B"), m, m),
          C(Kokkos::view_alloc(Kokkos::WithoutInitializing, "tsgemm::C"), m, m) {
      auto ha = Kokkos::create_mirror(A), hb = Kokkos::create_mirror(B);
      fill_random(ha, 1);
      fill_random(hb, 2);
      Kokkos::deep_copy(A, ha);
      Kokkos::deep_copy(B, hb);
      a.assign(ha.data(), ha.data() + ha.span());
      b.assign(hb.data(), hb.data() + hb.span());
    }
  };
  const std::string size = std::to_string(n) + "^3";
  auto data = [size, n] { return data_cache().get<Data>("tsgemm/" + size, [n] { return Data(n); }); };
  // 16 rows spread over C against a double reference within gamma_{K+1} sum_k |a_ik b_kj| (Higham 3.1).
  auto check = [data, n] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->C);
    const double u = std::numeric_limits<float>::epsilon() / 2, g = (n + 1) * u / (1 - (n + 1) * u);
    for (int r = 0; r < 16; ++r) {
      const int i = static_cast<int>(static_cast<long long>(r) * (n - 1) / 15);
      for (int j = 0; j < n; ++j) {
        double s = 0, a = 0;
        for (int k = 0; k < n; ++k) {
          const double p = double(d->a[std::size_t(i) * n + k]) * d->b[std::size_t(k) * n + j];
          s += p, a += std::fabs(p);
        }
        if (!(std::fabs(h(i, j) - s) <= g * a)) return false;
      }
    }
    return true;
  };
  auto poison = [data] { Kokkos::deep_copy(data()->C, std::numeric_limits<float>::quiet_NaN()); };
  Case k{"tutorial_sgemm", "tutorial_16x16", "layer", "float", size};
  k.bytes   = 3.0 * n * n * sizeof(float);
  k.flops   = 2.0 * n * n * n;
  k.prepare = poison;
  k.run     = [data] {
    auto d = data();
    tut_sgemm::sgemm_layer(d->A, d->B, d->C);
  };
  k.check = check;
  add_with_plain(cases, k, "range_ikj", [data] {
    auto d = data();
    plain::gemm(Exec(), 1.0f, d->A, d->B, 0.0f, d->C);
  });
  // The same product with a register tile per thread, its sums in either PerThread.
  Case u    = k;
  u.kernel  = "user_sgemm";
  u.variant = "register_tile_4_items";
  u.run     = [data] {
    auto d = data();
    user_sgemm_register_tile<PerThread<float[4], LBlock>, float>(d->A, d->B, d->C);
  };
  cases.push_back(u);
  u.variant = "register_tile_4_array";
  u.run     = [data] {
    auto d = data();
    user_sgemm_register_tile<PerThread<Kokkos::Array<float, 4>, LBlock>, Kokkos::Array<float, 4>>(d->A, d->B, d->C);
  };
  add_with_plain(cases, u, "range_ikj", [data] {
    auto d = data();
    plain::gemm(Exec(), 1.0f, d->A, d->B, 0.0f, d->C);
  });
}

void add_tutorial_scan(std::vector<Case>& cases, int e) {
  using V = Kokkos::View<int*, Mem>;
  const int n = 1 << e;
  struct Data {
    V in, out;
    std::vector<int> x;
    explicit Data(int m) : in("tscan::in", m), out("tscan::out", m) {
      x = tutorial::random_values<int>(m, 5000);
      auto h = Kokkos::create_mirror(in);
      for (int i = 0; i < m; ++i) h(i) = x[i];
      Kokkos::deep_copy(in, h);
    }
  };
  const std::string size = "2^" + std::to_string(e);
  auto data  = [size, n] { return data_cache().get<Data>("tscan/" + size, [n] { return Data(n); }); };
  auto check = [data, n] {  // integers: exact
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
    int s  = 0;
    for (int i = 0; i < n; ++i) {
      s = (i % 256 == 0 ? 0 : s) + d->x[i];
      if (h(i) != s) return false;
    }
    return true;
  };
  auto poison = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<int>::min()); };
  Case k{"tutorial_scan256", "tutorial_hillis_steele", "layer", "int32", size};
  k.bytes   = 2.0 * n * sizeof(int);
  k.prepare = poison;
  k.run     = [data] {
    auto d = data();
    tut_scan::scan256_layer(d->in, d->out);
  };
  k.check = check;
  // A CPU user's segmented scan: a RangePolicy over the 256-element segments, each scanned in a loop.
  add_with_plain(cases, k, "range_segments", [data, n] {
    auto d = data();
    const V in = d->in, out = d->out;
    Kokkos::parallel_for("bench::plain_scan256", Kokkos::RangePolicy<Exec>(0, (n + 255) / 256), KOKKOS_LAMBDA(int s) {
      int acc   = 0;
      const int e0 = s * 256, e1 = e0 + 256 < n ? e0 + 256 : n;
      for (int i = e0; i < e1; ++i) out(i) = acc += in(i);
    });
  });
}

// ---------------------------------------------------------------- heat3d
/// examples/heat3d's loop: `steps` forward-Euler steps of the library's stencil_3d_7pt (default variant)
/// on an n^3 double LayoutRight grid, from the eigenmode u0 = sin(pi x) sin(pi y) sin(pi z); checked as
/// heat3d checks: max |u_N - g^N u0| <= N gamma_8 max|u0| + (N + 4) eps max|u0|.
void add_heat3d(std::vector<Case>& cases, int n) {
  constexpr int steps = 10;
  constexpr double alpha = 0.1;
  using G = Kokkos::View<double***, Kokkos::LayoutRight, Mem>;
  struct Data {
    G u, v, u0;
    std::vector<double> h0;
    explicit Data(int m) : u("heat::u", m, m, m), v("heat::v", m, m, m), u0("heat::u0", m, m, m) {
      auto h = Kokkos::create_mirror(u0);
      const double pi = 3.14159265358979323846, hh = 1.0 / (m - 1);
      for (int z = 0; z < m; ++z)
        for (int y = 0; y < m; ++y)
          for (int x = 0; x < m; ++x) {
            const bool bd = x == 0 || y == 0 || z == 0 || x == m - 1 || y == m - 1 || z == m - 1;
            h(z, y, x)    = bd ? 0.0 : std::sin(pi * x * hh) * std::sin(pi * y * hh) * std::sin(pi * z * hh);
          }
      Kokkos::deep_copy(u0, h);
      h0.assign(h.data(), h.data() + h.span());
    }
  };
  const std::string size = std::to_string(n) + "^3x" + std::to_string(steps);
  auto data = [size, n] { return data_cache().get<Data>("heat3d/" + size, [n] { return Data(n); }); };
  auto check = [data, n] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->u);
    const double pi = 3.14159265358979323846, hh = 1.0 / (n - 1);
    const double gN = std::pow(1.0 - 6.0 * alpha * (1.0 - std::cos(pi * hh)), steps);
    const double eps = std::numeric_limits<double>::epsilon(), u8 = 8 * eps / 2, g8 = u8 / (1 - u8);
    double err = 0, m0 = 0;
    for (std::size_t i = 0; i < d->h0.size(); ++i) {
      err = std::fmax(err, std::fabs(h.data()[i] - gN * d->h0[i]));
      m0  = std::fmax(m0, std::fabs(d->h0[i]));
    }
    return err <= (steps * g8 + (steps + 4) * eps) * m0;  // NaN fails
  };
  auto prepare = [data] {
    auto d = data();
    Kokkos::deep_copy(d->u, d->u0);
  };
  // 0: the layer; 1: plain MDRangePolicy; 2: plain RangePolicy over planes.
  const auto loop = [data](int how) {
    auto d = data();
    G a = d->u, b = d->v;
    const auto variant = default_variant<Stencil3DVariant, double>(Exec());
    for (int s = 0; s < steps; ++s) {
      if (how == 0)
        stencil_3d_7pt(Exec(), variant, a, b, 1.0 - 6.0 * alpha, alpha);
      else if (how == 1)
        plain::stencil_3d_7pt(Exec(), a, b, 1.0 - 6.0 * alpha, alpha);
      else
        plain::stencil_3d_7pt_planes(Exec(), a, b, 1.0 - 6.0 * alpha, alpha);
      std::swap(a, b);
    }
  };
  Case k{"heat3d", "stencil_3d_7pt_default", "layer", "double", size};
  k.bytes   = steps * 2.0 * n * n * n * sizeof(double);
  k.flops   = steps * 8.0 * (n - 2.0) * (n - 2.0) * (n - 2.0);
  k.prepare = prepare;
  k.run     = [loop] { loop(0); };
  k.check   = check;
  add_with_plain(cases, k, "mdrange", [loop] { loop(1); });
  if (plain_rows()) {  // a second yardstick: the report compares with the fastest plain row
    Case p    = k;
    p.variant = "range_planes";
    p.backend = "plain-kokkos";
    p.run     = [loop] { loop(2); };
    cases.push_back(p);
  }
}

#endif
}  // namespace

#if SCRATCHKIT_BENCH_PART == 0
namespace {
int user_3d_size(const Config& c) { return host_full(c) ? 256 : c.full ? 512 : 64; }
}  // namespace
void add_user_cases(const Config& c, std::vector<Case>& cases) {
  const int n3 = user_3d_size(c);
  add_user_3d<float, Kokkos::LayoutRight>(cases, n3, c.native);
  add_user_3d<float, Kokkos::LayoutLeft>(cases, n3, c.native);
  add_user_3d_double_cases(c, cases, n3);
  add_user_2d_cases(c, cases);
  add_user_2d_double_cases(c, cases);
  add_tutorial_cases(c, cases);
}
#elif SCRATCHKIT_BENCH_PART == 3
void add_user_3d_double_cases(const Config& c, std::vector<Case>& cases, int n3) {
  add_user_3d<double, Kokkos::LayoutRight>(cases, n3, c.native);
  add_user_3d<double, Kokkos::LayoutLeft>(cases, n3, c.native);
}
#elif SCRATCHKIT_BENCH_PART == 1
void add_tutorial_cases(const Config& c, std::vector<Case>& cases) {
  const bool big = c.full;
  add_tutorial_sgemm(cases, host_full(c) ? 1024 : big ? 4096 : 256);
  add_tutorial_scan(cases, host_full(c) ? 24 : big ? 28 : 20);
  add_heat3d(cases, host_full(c) ? 192 : big ? 512 : 64);
}
#elif SCRATCHKIT_BENCH_PART == 2
void add_user_2d_cases(const Config& c, std::vector<Case>& cases) {
  const int n2 = user_2d_size(c);
  add_user_2d<float, Kokkos::LayoutRight>(cases, n2, true, false);
  add_user_2d<float, Kokkos::LayoutRight>(cases, n2, false, c.native);
  add_user_2d<float, Kokkos::LayoutLeft>(cases, n2, false, c.native);
}
#else
void add_user_2d_double_cases(const Config& c, std::vector<Case>& cases) {
  const int n2 = user_2d_size(c);
  add_user_2d<double, Kokkos::LayoutRight>(cases, n2, false, c.native);
  add_user_2d<double, Kokkos::LayoutLeft>(cases, n2, false, c.native);
}
#endif

}  // namespace perf
}  // namespace scratchkit
