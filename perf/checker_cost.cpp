// SPDX-License-Identifier: BSD-3-Clause
// What the scratch checker costs a host kernel when it is compiled in but no launch asks for it:
// the 16 x 16 tiled SGEMM of tests/support/checker_kernels.hpp at n = 512 on the default host
// space, median of 9 runs after one warm-up. Built twice, with the hooks (-DSCRATCHKIT_ENABLE_SCRATCH_CHECK)
// and without, against one configured tree (docs/checker.md "What it costs"):
//
//   c++ -O3 -std=c++20 -fopenmp -I include -I <build>/include -I <kokkos>/include perf/checker_cost.cpp \
//       -L <kokkos>/lib -lkokkoscore [-DSCRATCHKIT_ENABLE_SCRATCH_CHECK] -o checker_cost
#include <scratchkit/scratchkit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Exec = Kokkos::DefaultHostExecutionSpace;
  using B    = scratchkit::Block<Exec>;
  constexpr int T = 16, n = 512;
  using Tile = scratchkit::SharedArray<float, T * T>;
  Kokkos::View<float**, Kokkos::LayoutRight, Exec::memory_space> A("A", n, n), Bm("B", n, n), C("C", n, n);
  Kokkos::deep_copy(A, 1.0f), Kokkos::deep_copy(Bm, 2.0f);
  const auto p = scratchkit::LaunchParams(scratchkit::Dim3(n / T, n / T), scratchkit::Dim3(T, T)).uses<Tile, Tile>();
  auto run = [&]() {
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
  };
  run();
  std::vector<double> ms;
  for (int r = 0; r < 9; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  std::printf("checker compiled in: %s, %s threads: median %.2f ms (min %.2f, max %.2f), C(0,0) = %g (expected %g)\n",
              scratchkit::scratch_check_compiled ? "yes" : "no ", std::to_string(Exec().concurrency()).c_str(),
              ms[4], ms.front(), ms.back(), h(0, 0), 2.0 * n);
  return h(0, 0) == 2.0f * n ? 0 : 1;
}
