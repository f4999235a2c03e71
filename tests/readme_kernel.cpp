// SPDX-License-Identifier: BSD-3-Clause
// The README's kernel of your own (reverse_runs), exactly as README.md shows it: the code
// block is copied out of README.md at configure time (tests/CMakeLists.txt), so that the
// kernel users copy is the one compiled and run here, at sizes that are not multiples of
// its block of 256 (and 0, an empty grid). It includes the umbrella header only, which
// gives build_summary() too (as the user guide says).
#include <scratchkit/scratchkit.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdio>

#include "readme_reverse_runs.inc"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  std::printf("%s\n", scratchkit::build_summary().c_str());
  int failed = 0;
  for (const int n : {300, 1, 255, 256, 513, 1000, 0}) {
    Kokkos::View<float*> in("in", n), out("out", n);
    auto h_in = Kokkos::create_mirror_view(in);
    for (int i = 0; i < n; ++i) h_in(i) = static_cast<float>(i);
    Kokkos::deep_copy(in, h_in);
    Kokkos::deep_copy(out, -1.0f);
    reverse_runs(in, out);
    const auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      const int base = i / 256 * 256, len = std::min(256, n - base);
      const float want = static_cast<float>(base + len - 1 - (i - base));
      if (h_out(i) != want) {
        if (wrong < 3) std::printf("n = %d: out(%d) = %g, expected %g\n", n, i, double(h_out(i)), double(want));
        ++wrong;
      }
    }
    std::printf("reverse_runs, n = %4d: %s (%d wrong)\n", n, wrong ? "FAILED" : "PASSED", wrong);
    failed += wrong != 0;
  }
  return failed ? 1 : 0;
}
