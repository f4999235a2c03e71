// SPDX-License-Identifier: BSD-3-Clause
// perf/checker_cost.cpp's 2-D stencil (n = 256) with its tile read through `const float* q =
// s.data()`: what the checker costs it compiled in but not asked for, and what a checked launch
// costs a raw-pointer access (each one trapped, detail/scratch_trap.hpp), on Kokkos::Serial,
// median of 9 (5 checked) runs after one warm-up. A program of its own: one more kernel in
// checker_cost.cpp changes how GCC compiles that file's stencil in a checking build. Built
// twice, with the hooks (a config.hpp that defines SCRATCHKIT_ENABLE_SCRATCH_CHECK) and without,
// against one configured tree (docs/checker.md "What it costs"):
//
//   c++ -O3 -DNDEBUG -std=c++20 -fopenmp -I include -I <build>/include -I <kokkos>/include perf/checker_cost_raw.cpp \
//       -L <kokkos>/lib -lkokkoscore -o checker_cost_raw
//   ./checker_cost_raw [--checked]     # --checked: every launch under the checker (quiet), per access
#include <scratchkit/scratchkit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "checker_cost_common.hpp"

namespace {
bool stencil2d_raw(int n) {
  constexpr int BX = 32, BY = 8, TX = BX + 2, TY = BY + 2;
  using Tile = scratchkit::SharedArray<float, TX * TY>;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> in("in", n, n), out("out", n, n);
  auto hi = Kokkos::create_mirror_view(in);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) hi(y, x) = float((x * 7 + y * 13) % 17);
  Kokkos::deep_copy(in, hi);
  scratchkit::ScratchCheckReport rep;
  const auto p = with_check(scratchkit::LaunchParams(scratchkit::Dim3(n / BX, n / BY), scratchkit::Dim3(BX, BY)).uses<Tile>(), &rep);
  const double ms = median_ms(checked ? 5 : 9, [&]() {
    scratchkit::launch(Exec(), "checker_cost_raw::stencil2d", p, KOKKOS_LAMBDA(const B& b) {
      Tile s(b);
      const scratchkit::Dim3 g0 = b.grid_origin();
      b.block_stride(scratchkit::Dim3(TX, TY), [&](int x, int y, int) {
        const int gx = g0.x + x - 1, gy = g0.y + y - 1;
        s[y * TX + x] = gx >= 0 && gx < n && gy >= 0 && gy < n ? in(gy, gx) : 0.0f;
      });
      scratchkit::sync_threads(b);
      b.threads([&](const scratchkit::Thread& t) {
        const float* q  = s.data() + (t.y + 1) * TX + t.x + 1;  // the tile through a raw pointer
        out(t.gy, t.gx) = 0.25f * (q[-1] + q[1] + q[-TX] + q[TX]) - q[0];
      });
    });
    Exec().fence();
  });
  accesses = rep.accesses + rep.raw_accesses;
  auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  auto at = [&](int y, int x) { return y < 0 || y >= n || x < 0 || x >= n ? 0.0f : hi(y, x); };
  bool ok = true;
  for (int y : {0, 1, n / 2, n - 1})
    for (int x : {0, 5, n / 3, n - 1})
      ok = ok && ho(y, x) == 0.25f * (at(y, x - 1) + at(y, x + 1) + at(y - 1, x) + at(y + 1, x)) - at(y, x);
  report("stencil2d raw", n, ms, ok);
  if (checked) std::printf("           of which %lld through raw pointers (trapped)\n", rep.raw_accesses);
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
  return stencil2d_raw(256) ? 0 : 1;
}
