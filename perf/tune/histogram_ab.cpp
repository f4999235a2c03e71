// SPDX-License-Identifier: BSD-3-Clause
// Built by hand against two trees' headers (not by CMake), as in perf/results/h100/rows.md:
//   nvcc_wrapper -DTREE='"head"' -I<tree>/include -I<build>/include -isystem <kokkos>/include -O3 -extended-lambda \
//     -arch=sm_90 -std=c++20 histogram_ab.cpp -L<kokkos>/lib -lkokkoscore -lkokkoscontainers -lcuda -ldl
// Histogram shared_atomic on the layer, 2^28 floats in [-1, 1), 65536 and 256 bins: seconds per call,
// median of 7 batches of 10 calls after a warm-up (host timer around a fenced batch).
#include <scratchkit/kernels/histogram.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#ifndef TREE
#define TREE "tree"  // the headers' tree, named in each line
#endif
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  const std::size_t n = std::size_t(1) << 28;
  Kokkos::View<float*> x("x", n);
  Kokkos::Random_XorShift64_Pool<Exec> pool(7);
  Kokkos::fill_random(x, pool, -1.0f, 1.0f);
  for (int bins : {65536, 256}) {
    Kokkos::View<std::uint32_t*> counts("c", bins);
    auto run = [&] { scratchkit::histogram(Exec(), scratchkit::HistogramVariant::shared_atomic, x, -1.0, 1.0, counts); };
    for (int i = 0; i < 3; ++i) run();
    Kokkos::fence();
    std::vector<double> t;
    for (int s = 0; s < 7; ++s) {
      const auto a = std::chrono::steady_clock::now();
      for (int i = 0; i < 10; ++i) run();
      Kokkos::fence();
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count() / 10);
    }
    std::sort(t.begin(), t.end());
    std::printf("%s bins %d: %.4f ms (min %.4f, max %.4f)\n", TREE, bins, t[3] * 1e3, t[0] * 1e3, t[6] * 1e3);
  }
}
