#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a machine with an NVIDIA GPU: configure against a CUDA-enabled Kokkos,
# build, run the test suite, run the GPU tests under compute-sanitizer
# (memcheck, racecheck, synccheck, initcheck) and the comparison at full
# size. Logs go to OUTDIR.
#
#   scripts/gpu_suite.sh KOKKOS_ROOT OUTDIR [extra cmake args...]
set -uo pipefail
kokkos="$1"
out="$2"
shift 2
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-/tmp/scratchkit-build-cuda}"
mkdir -p "$out"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -n 2
  c++ --version | head -n 1
  cmake --version | head -n 1
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" "$@" >"$out/configure.log" 2>&1 ||
  { tail -n 40 "$out/configure.log"; exit 1; }
grep -A 14 "scratchkit .* configuration" "$out/configure.log"
cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { grep -B2 -A8 "error" "$out/build.log" | head -n 80; exit 1; }

echo "== ctest"
ctest --test-dir "$build" --output-on-failure -j 4 >"$out/ctest.log" 2>&1
rc_ctest=$?
grep -E "tests passed|Skipped|Failed|\*\*\*" "$out/ctest.log"

echo "== compute-sanitizer"
san="$out/sanitizer.log"
: >"$san"
rc_san=0
for tool in memcheck racecheck synccheck initcheck; do
  echo "---- $tool" >>"$san"
  timeout "${SANITIZER_TIMEOUT:-240}" compute-sanitizer --tool "$tool" --error-exitcode 9 \
    "$build/tests/scratchkit_tests" "${SANITIZER_TESTS:-[layer],[native]}" >>"$san" 2>&1
  rc=$?
  echo "$tool: exit $rc" | tee -a "$san"
  [ $rc -eq 0 ] || rc_san=1
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$san"

echo "== scratchkit-compare --full"
"$build/perf/scratchkit-compare" --full --csv "$out/compare.csv" >"$out/compare.txt" 2>"$out/compare-progress.log"
rc_cmp=$?
cat "$out/compare.txt"
echo "exit codes: ctest $rc_ctest, sanitizer $rc_san, compare $rc_cmp"
