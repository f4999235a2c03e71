#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a machine with an NVIDIA GPU: configure against a CUDA-enabled Kokkos,
# build, run the test suite, the GPU tests under compute-sanitizer (memcheck,
# racecheck, synccheck, initcheck) and the comparison at full size.
#
#   scripts/gpu_suite.sh KOKKOS_ROOT OUTDIR [extra cmake args...]
#
# OUTDIR gets machine.txt, ctest.log, sanitizer.log, summary.md and
# results.tar.gz (bench.json, summary.csv, summary.md, plots, all logs).
# Environment: SKIP_TESTS=1, SKIP_SANITIZER=1, SKIP_BENCH=1,
# SANITIZER_TESTS (Catch2 filter), SANITIZER_TIMEOUT (s per tool; the
# sanitized tests run with SCRATCHKIT_TEST_QUICK=1: sizes capped at 2^16),
# SANITIZER_TOOLS (default: memcheck racecheck synccheck initcheck),
# BENCH_ARGS (default --full; a full H100 run takes more than the 10 minutes
# one command may run on the lent GPU machine: split it with --only and
# BENCH_PART), BENCH_LAUNCHER (MPI mode, e.g. "mpiexec -n 2"), BUILD_DIR.
set -uo pipefail
kokkos="$1"
out="$2"
shift 2
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-/tmp/scratchkit-build-cuda}"
work="$(mktemp -d)"
mkdir -p "$out"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  c++ --version | head -n 1
  cmake --version | head -n 1
  kv="$(sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")/\1/p' "$kokkos"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake 2>/dev/null | head -n 1)"
  echo "Kokkos: ${kv:-unknown} at $kokkos ($(grep -o 'KOKKOS_ENABLE_CUDA\b\|KOKKOS_ARCH_HOPPER90' "$kokkos"/include/KokkosCore_config.h 2>/dev/null | tr '\n' ' '))"
} >"$work/machine.txt" 2>&1
cp "$work/machine.txt" "$out/"
cat "$work/machine.txt"

finish() {
  tar -C "$work" -czf "$out/results.tar.gz" .
  [ -f "$work/summary.md" ] && cp "$work/summary.md" "$out/"
}
trap finish EXIT

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" "$@" >"$work/configure.log" 2>&1 ||
  { tail -n 40 "$work/configure.log"; exit 1; }
grep -A 15 "scratchkit .* configuration" "$work/configure.log"
cmake --build "$build" -j "$(nproc)" >"$work/build.log" 2>&1 || { grep -B2 -A8 "error" "$work/build.log" | head -n 80; exit 1; }
echo "build: ok"

if [ "${SKIP_TESTS:-0}" != 1 ]; then
  echo "== ctest"
  ctest --test-dir "$build" --output-on-failure -j 4 >"$work/ctest.log" 2>&1
  echo "ctest exit $?"
  cp "$work/ctest.log" "$out/"
  grep -E "tests passed|\*\*\*|Failed" "$work/ctest.log"
fi

if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
  echo "== compute-sanitizer"
  san="$work/sanitizer-${SANITIZER_TOOLS:-all}.log"
  san="${san// /-}"
  : >"$san"
  for tool in ${SANITIZER_TOOLS:-memcheck racecheck synccheck initcheck}; do
    echo "---- $tool" >>"$san"
    SCRATCHKIT_TEST_QUICK=1 timeout "${SANITIZER_TIMEOUT:-240}" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      "$build/tests/scratchkit_tests" "${SANITIZER_TESTS:-[native]}" >>"$san" 2>&1
    echo "$tool: exit $?" | tee -a "$san"
  done
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test cases" "$san"
  cp "$san" "$out/"
fi

if [ "${SKIP_BENCH:-0}" != 1 ]; then
  # BENCH_PART names this part of a run split over several calls (e.g.
  # BENCH_ARGS="--full --only histogram" BENCH_PART=histogram); report.py
  # merges the parts' JSON files.
  part="${BENCH_PART:+-$BENCH_PART}"
  echo "== scratchkit-bench ${BENCH_ARGS:---full}"
  # shellcheck disable=SC2086
  # BENCH_LAUNCHER runs the MPI mode (build with -DSCRATCHKIT_ENABLE_MPI=ON),
  # e.g. BENCH_LAUNCHER="mpiexec -n 2": one rank per GPU, per-rank table in ranks*.csv.
  ranks_out=()
  [ -n "${BENCH_LAUNCHER:-}" ] && ranks_out=(--ranks-out "$work/ranks$part.csv")
  # shellcheck disable=SC2086
  ${BENCH_LAUNCHER:-} "$build/perf/scratchkit-bench" ${BENCH_ARGS:---full} --benchmark_out="$work/bench$part.json" \
    --benchmark_out_format=json "${ranks_out[@]}" >"$work/bench$part.txt" 2>"$work/bench-progress$part.log"
  echo "bench exit $?"
  grep -E "FAILED|cases" "$work/bench-progress$part.log"
  python3 "$src/perf/report.py" "$work/bench$part.json" --out "$work" --plots --require-pass
fi
