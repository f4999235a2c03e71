// SPDX-License-Identifier: BSD-3-Clause
// What the scratch checker costs a host kernel when it is compiled in but no launch asks for it,
// and what a checked launch costs an access: the 16 x 16 tiled SGEMM of
// tests/support/checker_kernels.hpp (n = 512) and a 2-D 5-point stencil on a 32 x 8 halo tile
// (n = 512 and 2048), on Kokkos::Serial, median of 9 (5 at n = 2048) runs after one warm-up. Built
// twice, with the hooks (a config.hpp that defines SCRATCHKIT_ENABLE_SCRATCH_CHECK) and without,
// against one configured tree (docs/checker.md "What it costs"):
//
//   c++ -O3 -DNDEBUG -std=c++20 -fopenmp -I include -I <build>/include -I <kokkos>/include perf/checker_cost.cpp \
//       -L <kokkos>/lib -lkokkoscore -o checker_cost
//   ./checker_cost [--checked]     # --checked: every launch under the checker (quiet), per access
#include <scratchkit/scratchkit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "checker_cost_common.hpp"

namespace {
bool sgemm(int n) {
  constexpr int T = 16;
  using Tile = scratchkit::SharedArray<float, T * T>;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> A("A", n, n), Bm("B", n, n), C("C", n, n);
  Kokkos::deep_copy(A, 1.0f), Kokkos::deep_copy(Bm, 2.0f);
  scratchkit::ScratchCheckReport rep;
  const auto p = with_check(scratchkit::LaunchParams(scratchkit::Dim3(n / T, n / T), scratchkit::Dim3(T, T)).uses<Tile, Tile>(), &rep);
  const double ms = median_ms(9, [&]() {
    scratchkit::launch(Exec(), "checker_cost::sgemm", p, KOKKOS_LAMBDA(const B& b) {
      Tile As(b), Bs(b);
      scratchkit::PerThread<float, B> acc(b, 0.0f);
      for (int k0 = 0; k0 < n; k0 += T) {
        b.threads([&](const scratchkit::Thread& t) {
          As[t.y * T + t.x] = A(t.gy, k0 + t.x);
          Bs[t.y * T + t.x] = Bm(k0 + t.y, t.gx);
        });
        scratchkit::sync_threads(b);
        b.threads([&](const scratchkit::Thread& t) {
          float s = acc(t);
          for (int k = 0; k < T; ++k) s += As[t.y * T + k] * Bs[k * T + t.x];
          acc(t) = s;
        });
        scratchkit::sync_threads(b);
      }
      b.threads([&](const scratchkit::Thread& t) { C(t.gy, t.gx) = acc(t); });
    });
    Exec().fence();
  });
  accesses = rep.accesses;
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  const bool ok = h(0, 0) == 2.0f * n && h(n - 1, n - 1) == 2.0f * n;
  report("sgemm", n, ms, ok);
  return ok;
}

bool stencil2d(int n) {
  constexpr int BX = 32, BY = 8, TX = BX + 2, TY = BY + 2;
  using Tile = scratchkit::SharedArray<float, TX * TY>;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> in("in", n, n), out("out", n, n);
  auto hi = Kokkos::create_mirror_view(in);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) hi(y, x) = float((x * 7 + y * 13) % 17);
  Kokkos::deep_copy(in, hi);
  scratchkit::ScratchCheckReport rep;
  const auto p = with_check(scratchkit::LaunchParams(scratchkit::Dim3(n / BX, n / BY), scratchkit::Dim3(BX, BY)).uses<Tile>(), &rep);
  const double ms = median_ms(n > 1024 ? 5 : 9, [&]() {
    scratchkit::launch(Exec(), "checker_cost::stencil2d", p, KOKKOS_LAMBDA(const B& b) {
      Tile s(b);
      const scratchkit::Dim3 g0 = b.grid_origin();
      b.block_stride(scratchkit::Dim3(TX, TY), [&](int x, int y, int) {
        const int gx = g0.x + x - 1, gy = g0.y + y - 1;
        s[y * TX + x] = gx >= 0 && gx < n && gy >= 0 && gy < n ? in(gy, gx) : 0.0f;
      });
      scratchkit::sync_threads(b);
      b.threads([&](const scratchkit::Thread& t) {
        const int c = (t.y + 1) * TX + t.x + 1;
        out(t.gy, t.gx) = 0.25f * (s[c - 1] + s[c + 1] + s[c - TX] + s[c + TX]) - s[c];
      });
    });
    Exec().fence();
  });
  accesses = rep.accesses;
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  auto at = [&](int y, int x) { return y < 0 || y >= n || x < 0 || x >= n ? 0.0f : hi(y, x); };
  bool ok = true;
  for (int y : {0, 1, n / 2, n - 1})
    for (int x : {0, 5, n / 3, n - 1})
      ok = ok && ho(y, x) == 0.25f * (at(y, x - 1) + at(y, x + 1) + at(y - 1, x) + at(y + 1, x)) - at(y, x);
  report("stencil2d", n, ms, ok);
  return ok;
}
}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--checked") == 0) checked = true;
  if (checked && !scratchkit::scratch_check_compiled) {
    std::printf("--checked: the checker is not compiled in\n");
    return 77;
  }
  bool ok = sgemm(512);
  ok = stencil2d(512) && ok;
  ok = stencil2d(2048) && ok;
  return ok ? 0 : 1;
}
