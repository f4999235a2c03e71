#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One line of the Kokkos matrix: builds a Kokkos from ../shared/deps (scripts/build_kokkos.sh,
# cached outside the checkout), builds scratchkit against it with deprecated Kokkos API as an
# error, runs the whole test suite and, on host backends, the comparison program with every
# row checked.
#
#   scripts/kokkos_line.sh VERSION BACKEND      e.g. 5.0.99 openmp (what CI runs)
#
# Environment: BUILD_DIR (default build-kokkos-VERSION-BACKEND), JOBS (default: all cores),
# OMP_NUM_THREADS (default 2), CMAKE_ARGS (extra configure arguments), KOKKOS_PREFIX (use this
# Kokkos install instead of building one), SCRATCHKIT_LINE_BENCH=0 to leave the comparison out,
# SCRATCHKIT_TEST_OPT_LEVEL (default 1: the test units at -O1; empty: the build type's flags),
# SCRATCHKIT_LIBRARY_OPT_LEVEL (default 1: the library's kernels at -O1),
# SCRATCHKIT_LINE_RELEASE_FLAGS (default "-O1 -DNDEBUG": the bench and examples; the comparison
# here checks rows, it does not measure). The header checks are left to the README's test
# command, which compiles every header on its own as C++17 and C++20.
# Where the Kokkos tarball is absent (a machine outside this project) the line prints
# "SKIPPED" with the reason and exits 0; every other failure exits non-zero.
set -euo pipefail

if [ $# -ne 2 ]; then
  sed -n '7,8p' "$0" >&2
  exit 2
fi
version="$1"
backend="$2"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${JOBS:-$(nproc)}"
dir="${BUILD_DIR:-$src/build-kokkos-$version-$backend}"
line="Kokkos $version $backend"
say() { printf '\n== [%s] %s\n' "$line" "$*"; }
start=$SECONDS

if [ -n "${KOKKOS_PREFIX:-}" ]; then
  prefix="$KOKKOS_PREFIX"
else
  say "Kokkos from ../shared/deps"
  set +e
  prefix="$(bash "$src/scripts/build_kokkos.sh" "$version" "$backend" | tail -n 1)"
  rc=${PIPESTATUS[0]}
  set -e
  if [ "$rc" = 3 ]; then
    say "SKIPPED: no Kokkos $version source tarball here (../shared/deps); nothing of this line ran"
    exit 0
  fi
  [ "$rc" = 0 ] || { echo "kokkos_line: building Kokkos $version ($backend) failed" >&2; exit 1; }
fi

say "configuring $dir against $prefix"
perf=ON
[ "${SCRATCHKIT_LINE_BENCH:-1}" != 0 ] || perf=OFF
# shellcheck disable=SC2086
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DSCRATCHKIT_ENABLE_TESTS=ON -DSCRATCHKIT_TEST_OPT_LEVEL="${SCRATCHKIT_TEST_OPT_LEVEL-1}" \
  -DSCRATCHKIT_LIBRARY_OPT_LEVEL="${SCRATCHKIT_LIBRARY_OPT_LEVEL-1}" -DSCRATCHKIT_TEST_HEADERS=OFF \
  "-DCMAKE_CXX_FLAGS_RELEASE=${SCRATCHKIT_LINE_RELEASE_FLAGS:--O1 -DNDEBUG}" \
  -DSCRATCHKIT_ENABLE_BOUNDS_CHECK=ON -DBUILD_SHARED_LIBS=ON \
  -DSCRATCHKIT_ENABLE_PERF="$perf" -DSCRATCHKIT_ENABLE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS="-Werror=deprecated-declarations" ${CMAKE_ARGS:-}
say "building ($jobs jobs)"
cmake --build "$dir" -j "$jobs"

export OMP_NUM_THREADS="${OMP_NUM_THREADS:-2}" OMP_PROC_BIND="${OMP_PROC_BIND:-spread}" OMP_PLACES="${OMP_PLACES:-threads}"
say "test suite (OMP_NUM_THREADS=$OMP_NUM_THREADS)"
ctest --test-dir "$dir" --output-on-failure -j "$jobs"

if [ "$perf" = ON ] && [ "$backend" != cuda ] && [ "$backend" != hip ]; then
  say "comparison on $backend (default sizes, every row checked against the host reference)"
  mkdir -p "$dir/results"
  if [ "$dir/tests/bench_smoke.json" -nt "$dir/perf/scratchkit-bench" ]; then
    # ctest's bench_smoke has just run the whole comparison (--reps 2): its rows, not a second run.
    cp "$dir/tests/bench_smoke.json" "$dir/results/bench.json"
  else
    "$dir/perf/scratchkit-bench" --reps 3 --benchmark_out="$dir/results/bench.json" \
      --benchmark_out_format=json >"$dir/results/bench.txt"
  fi
  python3 "$src/perf/report.py" "$dir/results/bench.json" --out "$dir/results" --require-pass
fi
say "PASSED in $((SECONDS - start)) s"
