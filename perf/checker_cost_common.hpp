// SPDX-License-Identifier: BSD-3-Clause
// What perf/checker_cost.cpp and perf/checker_cost_raw.cpp share: the host space, the checked
// launch, a median of timed runs and the report line.
#pragma once

#include <scratchkit/scratchkit.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {
#if defined(KOKKOS_ENABLE_SERIAL)
using Exec = Kokkos::Serial;
#else
using Exec = Kokkos::DefaultHostExecutionSpace;
#endif
using B  = scratchkit::Block<Exec>;
using MS = Exec::memory_space;

bool checked = false;
long long accesses = 0;

scratchkit::LaunchParams with_check(scratchkit::LaunchParams p, scratchkit::ScratchCheckReport* rep) {
  if (checked) p.check_scratch(scratchkit::ScratchCheck().quiet().keep(0).into(rep));
  return p;
}

template <class F>
double median_ms(int reps, const F& run) {
  run();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void report(const char* what, int n, double ms, bool ok) {
  std::printf("%-10s n = %4d  checker compiled in: %s%s  median %9.2f ms%s  %s\n", what, n,
              scratchkit::scratch_check_compiled ? "yes" : "no ", checked ? ", checked" : "", ms,
              checked ? "" : "", ok ? "result ok" : "RESULT WRONG");
  if (checked && accesses > 0) std::printf("           %lld accesses a launch: %.1f ns an access\n", accesses, ms * 1e6 / accesses);
}

}  // namespace
