#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: stencil_2d's tests (layer against the host reference on every shape, radius,
# boundary, type and layout; layer against its CUDA twin bit for bit) and its bench rows (star and
# box, radius 1 and 2, float and double, 16384^2 points, layer and native) with the copy ceiling,
# as the committed sets ran (--full, median of REPS, device time). Builds against a CUDA Kokkos
# with its nvcc_wrapper: the library with the stencil_2d ETI units (SCRATCHKIT_ETI_SPACES=CUDA),
# the kernel's test program (scratchkit_tests_stencil_2d) and scratchkit-bench.
#
#   scripts/stencil_2d_gpu_check.sh KOKKOS_PREFIX [BUILD_DIR] [OUTDIR]
#
# BUILD_DIR defaults to build-stencil2d, OUTDIR to BUILD_DIR/stencil2d. Environment: DEPS_PREFIX
# (a prefix holding Google Benchmark and Catch2, as for scripts/device_build.sh), CUDA_ROOT
# (default /usr/local/cuda), JOBS (default nproc), REPS (default 10), BUILD_ONLY=1 (build and
# stop: where one command may run 10 minutes, build in one call and run in the next, which
# rebuilds nothing).
#
# What to look for (OUTDIR/stencil_2d.md): every test passed, the twin case not SKIPPED; each
# layer row's "layer/native" >= 0.98 (the twin's time / the layer's) and its "% of ceiling" >= 85.
set -euo pipefail
kokkos="${1:?usage: $0 KOKKOS_PREFIX [BUILD_DIR] [OUTDIR]}"
build="${2:-build-stencil2d}"
out="${3:-$build/stencil2d}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
reps="${REPS:-10}"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
prefix=()
[ -z "${DEPS_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")
start=$SECONDS
if [ ! -f "$build/CMakeCache.txt" ]; then
  # The scratch checker compiled in as in the default build the committed sets ran.
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" \
    -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" "${prefix[@]}" -DSCRATCHKIT_ENABLE_CUDA=ON \
    -DSCRATCHKIT_ENABLE_TESTS=ON -DSCRATCHKIT_ENABLE_EXAMPLES=OFF -DSCRATCHKIT_ENABLE_PERF=ON \
    -DSCRATCHKIT_ENABLE_SCRATCH_CHECK=ON -DSCRATCHKIT_ENABLE_INSTALL_TEST=OFF -DSCRATCHKIT_ETI_SPACES=CUDA \
    >"$out/configure.log" 2>&1 ||
    { tail -n 40 "$out/configure.log"; exit 1; }
fi
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target scratchkit_tests_stencil_2d scratchkit-bench \
  >"$out/build.log" 2>&1 || { grep -B2 -A12 -m3 "error" "$out/build.log" | head -n 60; exit 1; }
echo "built in $((SECONDS - start)) s"
[ "${BUILD_ONLY:-0}" != 1 ] || exit 0

rc=0
"$build/tests/scratchkit_tests_stencil_2d" --reporter compact >"$out/tests.txt" 2>&1 || rc=$?
grep -E "^test cases|^assertions|failed" "$out/tests.txt" | tail -n 5
if grep -qi "skipped:" "$out/tests.txt"; then
  grep -i "skipped:" "$out/tests.txt"
  echo "stencil_2d_gpu_check: a test case was skipped (the twin case needs a GPU, CUDA Kokkos and native CUDA)"
  rc=1
fi
"$build/perf/scratchkit-bench" --full --reps "$reps" --only stencil_2d_,copy/ \
  --benchmark_out="$out/bench.json" --benchmark_out_format=json >/dev/null || rc=$?
python3 "$src/perf/report.py" "$out/bench.json" --out "$out" --require-pass >"$out/report.txt" || rc=$?
tail -n 1 "$out/report.txt"
{
  echo "| kernel | backend | type | size | time (ms) | GB/s | % of ceiling | layer/native |"
  echo "|---|---|---|---|---|---|---|---|"
  python3 - "$out/summary.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kernel"].startswith("stencil_2d") or r["kernel"] == "copy":
        print(f"| {r['kernel']} | {r['backend']} | {r['type']} | {r['size']} | {r['time_ms']} | {r['gbps']} | "
              f"{r['pct_of_ceiling']} | {r['ratio_layer_over_native']} |")
PY
} >"$out/stencil_2d.md"
cat "$out/stencil_2d.md"
echo "stencil_2d_gpu_check: results in $out (exit $rc)"
exit "$rc"
