#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Build-time report of a Ninja build tree: the slowest steps from .ninja_log (the last build of
# each output), the wall time of that build, and one summary line
#   total_wall_s=<s> max_tu_s=<s> jobs=<n> kokkos=<version>
#
#   scripts/build_times.sh BUILD_DIR [TOP_N]      (TOP_N default 15)
#
# Environment: JOBS, the -j the build ran with (default: what CMakeCache.txt does not know,
# so nproc). Run it right after a clean build (`cmake --build BUILD_DIR --clean-first`): the
# wall time is from the first start to the last end of the steps in the log's last build.
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/.ninja_log" ]; then
  echo "usage: $0 BUILD_DIR [TOP_N]   (BUILD_DIR: a Ninja build tree with .ninja_log)" >&2
  exit 2
fi
dir="$1"
top="${2:-15}"
jobs="${JOBS:-$(nproc)}"
kokkos="$(sed -n 's/^Kokkos_DIR:[A-Z]*=//p' "$dir/CMakeCache.txt" 2>/dev/null | head -n1)"
version="unknown"
if [ -n "$kokkos" ]; then
  version="$(sed -n 's/.*PACKAGE_VERSION "\([0-9.]*\)".*/\1/p' "$kokkos"/KokkosConfigVersion.cmake 2>/dev/null | head -n1)"
  [ -n "$version" ] || version="unknown"
fi
# .ninja_log v5: start_ms end_ms mtime output hash; a new build restarts at start 0, and a step
# rebuilt later appears again: keep the last build's lines (from the last line whose start is
# below the previous one's, i.e. where ninja started again) and the last entry per output.
awk -v top="$top" -v jobs="$jobs" -v kokkos="$version" '
  NR == 1 { next }
  { start[NR] = $1; end_[NR] = $2; out[NR] = $4; n = NR }
  END {
    first = 2
    for (i = 3; i <= n; ++i) if (start[i] + 0 < start[i - 1] + 0 && start[i] + 0 == 0) first = i
    lo = -1; hi = 0
    for (i = first; i <= n; ++i) {
      t[out[i]] = (end_[i] - start[i]) / 1000.0
      if (lo < 0 || start[i] + 0 < lo) lo = start[i] + 0
      if (end_[i] + 0 > hi) hi = end_[i] + 0
    }
    m = 0
    for (o in t) { names[++m] = o }
    # sort by time, descending (insertion sort: a few hundred steps)
    for (i = 2; i <= m; ++i) {
      k = names[i]; j = i - 1
      while (j >= 1 && t[names[j]] < t[k]) { names[j + 1] = names[j]; --j }
      names[j + 1] = k
    }
    max_tu = 0
    for (i = 1; i <= m; ++i) if (names[i] ~ /\.o$/ && t[names[i]] > max_tu) max_tu = t[names[i]]
    printf "%-10s %s\n", "seconds", "step (slowest first)"
    for (i = 1; i <= m && i <= top; ++i) printf "%-10.1f %s\n", t[names[i]], names[i]
    printf "\nsteps: %d\n", m
    printf "total_wall_s=%.0f max_tu_s=%.1f jobs=%d kokkos=%s\n", (hi - lo) / 1000.0, max_tu, jobs, kokkos
  }' "$dir/.ninja_log"
