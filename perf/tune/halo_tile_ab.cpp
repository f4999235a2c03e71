// SPDX-License-Identifier: BSD-3-Clause
// Built by hand against two trees' headers (not by CMake), as histogram_ab.cpp:
//   nvcc_wrapper -DTREE='"head"' -I<tree>/include -I<build>/include -isystem <kokkos>/include -O3 -extended-lambda \
//     -arch=sm_90 -std=c++20 halo_tile_ab.cpp -L<kokkos>/lib -lkokkoscore -lkokkoscontainers -lcuda -ldl
// The bench's user stencils (perf/bench_user.cpp: 2-D 5-point 32 x 8 at 16384^2, 3-D 7-point
// 32 x 4 x 4 at 512^3, LayoutRight, float and double): the constant strided-loop load against the
// tree's HaloTile load, each HaloTile run between two runs of the strided loop; median of 30
// fenced launches (host timer), the ratio to the faster strided run, and whether the outputs
// are the same bits; then a copy of 2^28 floats (docs/performance.md, "HaloTile on a GPU").
#include <scratchkit/scratchkit.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#ifndef TREE
#define TREE "tree"  // the headers' tree, named in each line
#endif

using namespace scratchkit;
using Exec  = Kokkos::DefaultExecutionSpace;
using LBlock = Block<Exec>;

template <class T, class View, class WView>
void user2d(const View& in, const WView& w5, const View& out) {
  constexpr int BX = 32, BY = 8, P = BX + 2, TILE = P * (BY + 2), NT = BX * BY;
  using Tile = SharedArray<T, TILE>;
  using W    = SharedArray<T, 5>;
  const int ny = in.extent(0), nx = in.extent(1);
  auto p = LaunchParams({ceil_div(nx, BX), ceil_div(ny, BY)}, {BX, BY}).uses<Tile, W>();
  launch(Exec(), "probe::user2d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile tile(b);
    W w(b);
    const Dim3 o = b.grid_origin();
    b.threads([&](const Thread& t) {
      if (t.rank < 5) w[t.rank] = w5(t.rank);
      for (int i = t.rank; i < TILE; i += NT) {
        const int gy = o.y + i / P - 1, gx = o.x + i % P - 1;
        tile[i] = gy >= 0 && gy < ny && gx >= 0 && gx < nx ? in(gy, gx) : T(0);
      }
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      if (t.gy >= ny || t.gx >= nx) return;
      const T* c = &tile[(t.y + 1) * P + t.x + 1];
      out(t.gy, t.gx) = w[0] * c[0] + w[1] * c[-1] + w[2] * c[1] + w[3] * c[-P] + w[4] * c[P];
    });
  });
}


template <class T, class View, class WView>
void halo2d(const View& in, const WView& w5, const View& out) {
  using Tile = HaloTile2d<T, 32, 8>;
  using W    = SharedArray<T, 5>;
  const int ny = in.extent(0), nx = in.extent(1);
  auto p = LaunchParams({ceil_div(nx, 32), ceil_div(ny, 8)}, {32, 8}).uses<Tile, W>();
  launch(Exec(), "probe::halo2d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile tile(b);
    W w(b);
    b.block_stride(5, [&](int i) { w[i] = w5(i); });
    tile.load(b, in, Boundary::zero);
    sync_threads(b);
    const T w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4];
    tile.clipped(b, [&](const Thread& t) {
      out(t.gy, t.gx) = w0 * tile(t.y, t.x) + w1 * tile(t.y, t.x - 1) + w2 * tile(t.y, t.x + 1) +
                        w3 * tile(t.y - 1, t.x) + w4 * tile(t.y + 1, t.x);
    });
  });
}

template <class T, class View>
void user3d(const View& in, const View& out, T c0, T c1) {
  constexpr int BX = 32, BY = 4, BZ = 4, PX = BX + 2, PY = BY + 2, TILE = PX * PY * (BZ + 2), NT = BX * BY * BZ;
  using Tile  = SharedArray<T, TILE>;
  const int n = in.extent(0);
  auto p = LaunchParams({ceil_div(n, BX), ceil_div(n, BY), ceil_div(n, BZ)}, {BX, BY, BZ}).uses<Tile>();
  launch(Exec(), "probe::user3d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile s(b);
    const Dim3 o = b.grid_origin();
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < TILE; i += NT) {
        const int gx = o.x + i % PX - 1, gy = o.y + i / PX % PY - 1, gz = o.z + i / (PX * PY) - 1;
        s[i] = gx >= 0 && gx < n && gy >= 0 && gy < n && gz >= 0 && gz < n ? in(gz, gy, gx) : T(0);
      }
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      if (t.gx >= n || t.gy >= n || t.gz >= n) return;
      const T* c = &s[((t.z + 1) * PY + t.y + 1) * PX + t.x + 1];
      if (t.gx == 0 || t.gy == 0 || t.gz == 0 || t.gx == n - 1 || t.gy == n - 1 || t.gz == n - 1) {
        out(t.gz, t.gy, t.gx) = c[0];
        return;
      }
      T sum = c[-1];
      sum += c[1];
      sum += c[-PX];
      sum += c[PX];
      sum += c[-PX * PY];
      sum += c[PX * PY];
      out(t.gz, t.gy, t.gx) = c0 * c[0] + c1 * sum;
    });
  });
}

template <class T, class View>
void halo3d(const View& in, const View& out, T c0, T c1) {
  using Tile  = HaloTile3d<T, 32, 4, 4>;
  const int n = in.extent(0);
  auto p = LaunchParams({ceil_div(n, 32), ceil_div(n, 4), ceil_div(n, 4)}, {32, 4, 4}).uses<Tile>();
  launch(Exec(), "probe::halo3d", p, KOKKOS_LAMBDA(const LBlock& b) {
    Tile s(b);
    s.load(b, in, Boundary::zero);
    sync_threads(b);
    s.clipped(b, [&](const Thread& t) {
      const T c = s(t.z, t.y, t.x);
      T sum     = s(t.z, t.y, t.x - 1);
      sum += s(t.z, t.y, t.x + 1);
      sum += s(t.z, t.y - 1, t.x);
      sum += s(t.z, t.y + 1, t.x);
      sum += s(t.z - 1, t.y, t.x);
      sum += s(t.z + 1, t.y, t.x);
      const T v       = c0 * c + c1 * sum;
      const bool edge = (t.gx == 0) | (t.gy == 0) | (t.gz == 0) | (t.gx == n - 1) | (t.gy == n - 1) | (t.gz == n - 1);
      out(t.gz, t.gy, t.gx) = edge ? c : v;
    });
  });
}

template <class F>
double median_us(const F& f, int reps) {
  std::vector<double> t;
  f();
  Kokkos::fence();
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer tm;
    f();
    Kokkos::fence();
    t.push_back(tm.seconds() * 1e6);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class V>
bool same_bits(const V& a, const V& b) {
  auto ha = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  return std::memcmp(ha.data(), hb.data(), ha.span() * sizeof(typename V::value_type)) == 0;
}

template <class T>
void run2d(int n, int reps, const char* tag) {
  Kokkos::View<T**, Kokkos::LayoutRight> in("in", n, n), o1("o1", n, n), o2("o2", n, n);
  Kokkos::View<T*> w("w", 5);
  Kokkos::Random_XorShift64_Pool<> pool(7);
  Kokkos::fill_random(in, pool, T(1));
  Kokkos::fill_random(w, pool, T(1));
  const double a = median_us([&] { user2d<T>(in, w, o1); }, reps);
  const double b = median_us([&] { halo2d<T>(in, w, o2); }, reps);
  const double a2 = median_us([&] { user2d<T>(in, w, o1); }, reps);
  const double gb = 2.0 * n * n * sizeof(T) / (std::min(b, 1e30) * 1e3);
  std::printf("%s 2d %s %d^2: strided %.1f/%.1f us, halo %.1f us (%.0f GB/s), halo/strided %.3f, bits %s\n", tag,
              sizeof(T) == 4 ? "float" : "double", n, a, a2, b, gb, b / std::min(a, a2), same_bits(o1, o2) ? "same" : "DIFFER");
}
template <class T>
void run3d(int n, int reps, const char* tag) {
  Kokkos::View<T***, Kokkos::LayoutRight> in("in", n, n, n), o1("o1", n, n, n), o2("o2", n, n, n);
  Kokkos::Random_XorShift64_Pool<> pool(7);
  Kokkos::fill_random(in, pool, T(1));
  const T c0 = T(0.4), c1 = T(0.1);
  const double a = median_us([&] { user3d<T>(in, o1, c0, c1); }, reps);
  const double b = median_us([&] { halo3d<T>(in, o2, c0, c1); }, reps);
  const double a2 = median_us([&] { user3d<T>(in, o1, c0, c1); }, reps);
  const double gb = 2.0 * n * n * n * sizeof(T) / (b * 1e3);
  std::printf("%s 3d %s %d^3: strided %.1f/%.1f us, halo %.1f us (%.0f GB/s), halo/strided %.3f, bits %s\n", tag,
              sizeof(T) == 4 ? "float" : "double", n, a, a2, b, gb, b / std::min(a, a2), same_bits(o1, o2) ? "same" : "DIFFER");
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const char* tag = TREE;
  const int reps = 30;
  run2d<float>(16384, reps, tag);
  run2d<double>(16384, reps, tag);
  run3d<float>(512, reps, tag);
  run3d<double>(512, reps, tag);
  // Copy ceiling
  Kokkos::View<float*> x("x", std::size_t(1) << 28), y("y", std::size_t(1) << 28);
  const double c = median_us([&] { Kokkos::deep_copy(y, x); }, reps);
  std::printf("%s copy 2^28 float: %.1f us (%.0f GB/s)\n", tag, c, 2.0 * (1 << 28) * 4 / (c * 1e3));
  return 0;
}
