#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: the histogram shared_atomic rows of the main comparison (2^28 float values,
# 256 and 65536 bins), the layer against its native CUDA twin and CUB, after a change to the
# histogram's shared kernel path. Builds the library and scratchkit-bench only (no tests, no
# examples) against a CUDA Kokkos with its nvcc_wrapper, runs those rows as the committed set
# ran them (--full, median of 10, device time), and prints them beside the committed set's rows
# (perf/results/h200/summary.csv, or GPU=h100).
#
#   scripts/histogram_gpu_check.sh KOKKOS_PREFIX [BUILD_DIR] [OUTDIR]
#
# BUILD_DIR defaults to build-hist, OUTDIR to BUILD_DIR/hist. A second call reuses the build
# (cmake --build rebuilds what changed). Environment: DEPS_PREFIX (a prefix holding Google
# Benchmark, as for scripts/device_build.sh), CUDA_ROOT (default /usr/local/cuda), JOBS (default
# nproc), GPU (h200 or h100: the committed set to print beside; default h200), REPS (default 10),
# BASE_SRC (a second source tree, e.g. `git worktree add ../base a5d7a6d`: built in BUILD_DIR-base
# and run in the same call, so both sets of rows come from the same card), SKIP_BUILD=1, BUILD_ONLY=1
# (build and stop: where one command may run 10 minutes, build in one call and run in the next,
# which rebuilds nothing).
#
# What to look for: layer/native ("layer/native" column: the twin's time / the layer's, above 1 the
# layer is faster) at 2^28_65536bins back to the committed set's 1.12 (>= 1.1), and 2^28_256bins
# unchanged (1.06).
set -euo pipefail
kokkos="${1:?usage: $0 KOKKOS_PREFIX [BUILD_DIR] [OUTDIR]}"
build="${2:-build-hist}"
out="${3:-$build/hist}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
gpu="${GPU:-h200}"
reps="${REPS:-10}"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
prefix=()
[ -z "${DEPS_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")

# Configures and builds the library and scratchkit-bench of source tree $1 in $2. The scratch
# checker compiled in as in the default build the committed sets ran (it is in the block functor
# of every launch), tests and examples not built.
build_bench() {
  local tree="$1" dir="$2" start=$SECONDS
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    if [ ! -f "$dir/CMakeCache.txt" ]; then
      cmake -S "$tree" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" \
        -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" "${prefix[@]}" -DSCRATCHKIT_ENABLE_TESTS=OFF \
        -DSCRATCHKIT_ENABLE_EXAMPLES=OFF -DSCRATCHKIT_ENABLE_PERF=ON -DSCRATCHKIT_ENABLE_SCRATCH_CHECK=ON >"$out/configure-$(basename "$dir").log" 2>&1 ||
        { tail -n 40 "$out/configure-$(basename "$dir").log"; exit 1; }
    fi
    cmake --build "$dir" -j "${JOBS:-$(nproc)}" --target scratchkit-bench >"$out/build-$(basename "$dir").log" 2>&1 ||
      { grep -B2 -A12 -m3 "error" "$out/build-$(basename "$dir").log" | head -n 60; exit 1; }
    echo "built $dir/perf/scratchkit-bench in $((SECONDS - start)) s"
  fi
}

# Runs the histogram rows (and the copy, for % of ceiling) of the bench in $1; JSON to $2.
run_rows() {
  "$1/perf/scratchkit-bench" --full --reps "$reps" \
    --only histogram/shared_atomic/,histogram/cub_histogram_even/,copy/ \
    --benchmark_out="$2" --benchmark_out_format=json >/dev/null || echo "scratchkit-bench in $1: exit $? (a failed check; see report.py's line)"
}

build_bench "$src" "$build"
[ -z "${BASE_SRC:-}" ] || build_bench "$BASE_SRC" "$build-base"
[ "${BUILD_ONLY:-0}" != 1 ] || exit 0
[ -z "${BASE_SRC:-}" ] || run_rows "$build-base" "$out/base.json"
run_rows "$build" "$out/bench.json"
[ -z "${BASE_SRC:-}" ] || python3 "$src/perf/report.py" "$out/base.json" --out "$out/base" >/dev/null
rc=0
python3 "$src/perf/report.py" "$out/bench.json" --out "$out" --require-pass >"$out/report.txt" || rc=$?
tail -n 1 "$out/report.txt"

python3 - "$out" "$src/perf/results/$gpu/summary.csv" "${BASE_SRC:+$out/base/summary.csv}" <<'EOF'
import csv, sys
out, committed, base = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else ""
def rows(path):
    with open(path) as f:
        return {(r["kernel"], r["variant"], r["backend"], r["size"]): r for r in csv.DictReader(f)
                if r["kernel"] == "histogram" and r["type"] == "float" and r["layout"] == "LayoutRight"}
sets = [("this tree", rows(f"{out}/summary.csv"))]
if base:
    sets.append(("BASE_SRC", rows(base)))
try:
    sets.append((f"committed ({committed.split('/')[-2]})", rows(committed)))
except OSError:
    pass
print("| set | size | layer ms | native ms | CUB ms | layer/native | layer cv % | check |")
print("|---|---|---:|---:|---:|---:|---:|---|")
for size in ("2^28_65536bins", "2^28_256bins"):
    for name, s in sets:
        l = s.get(("histogram", "shared_atomic", "layer", size))
        n = s.get(("histogram", "shared_atomic", "native", size))
        v = s.get(("histogram", "cub_histogram_even", "vendor", size))
        if not l:
            continue
        print(f"| {name} | {size} | {float(l['time_ms']):.4f} | {float(n['time_ms']):.4f} | "
              f"{float(v['time_ms']):.4f} | {l['ratio_layer_over_native']} | {l.get('cv_pct', '')} | {l['check']} |"
              if n and v else f"| {name} | {size} | {l['time_ms']} | | | | | {l['check']} |")
EOF
echo "files: $out (summary.md, bench.json${BASE_SRC:+, base/})"
exit "$rc"
