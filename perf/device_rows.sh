#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: scratchkit-bench alone (tests and examples off) built against a CUDA Kokkos,
# then the rows whose names contain one of ONLY (scratchkit-bench --only), each row checked
# against its host reference before it is timed (device events, median of REPS). Prints each
# row's median and, for the halo-tile rows, the ratio to the constant strided-loop row of the
# same kernel, type, layout and size and the share of the copy ceiling.
#
#   perf/device_rows.sh KOKKOS_CUDA OUTDIR ONLY [--full]
#
# Environment: DEPS_PREFIX (a prefix holding Google Benchmark, e.g. Debian's package unpacked
# with dpkg -x), JOBS (default nproc), REPS (default 30). OUTDIR gets machine.txt, bench.log,
# bench.json and rows.txt.
set -uo pipefail
kokkos="$1"; out="$2"; only="$3"; full="${4:-}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
mkdir -p "$out"
build=/tmp/device-rows-build
prefix=()
[ -z "${DEPS_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -n 1
  g++ --version | head -n 1
} >"$out/machine.txt" 2>&1
start=$SECONDS
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" \
  -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" "${prefix[@]}" -DSCRATCHKIT_ENABLE_TESTS=OFF \
  -DSCRATCHKIT_ENABLE_EXAMPLES=OFF -DSCRATCHKIT_ENABLE_INSTALL_TEST=OFF -DSCRATCHKIT_ENABLE_PERF=ON \
  >"$out/configure.log" 2>&1 || { tail -n 30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target scratchkit-bench >"$out/build.log" 2>&1 ||
  { grep -m3 -A12 "error" "$out/build.log" | head -n 60; exit 1; }
echo "bench built in $((SECONDS - start)) s"
"$build/perf/scratchkit-bench" $full --only "$only" --reps "${REPS:-30}" --benchmark_out="$out/bench.json" \
  --benchmark_out_format=json >"$out/bench.log" 2>&1
echo "bench exit $?: $(grep -c PASSED "$out/bench.log") PASSED, $(grep -c FAILED "$out/bench.log") FAILED"
python3 - "$out/bench.json" <<'EOF' | tee "$out/rows.txt"
import json, sys
rows = {}
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('aggregate_name') != 'median':
        continue
    name = b['run_name'].split('/iterations')[0]
    rows[name] = (b['real_time'], b.get('bytes', 0.0), b['time_unit'])
scale = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}
def gbs(t, by, unit):
    return by / (t * scale[unit]) / 1e9 if t > 0 else 0.0
copy = max((gbs(*r) for n, r in rows.items() if n.startswith('copy')), default=0.0)
print(f"copy ceiling: {copy:.0f} GB/s (fastest copy row)")
for n, r in sorted(rows.items()):
    line = f"{n}: {r[0] * scale[r[2]] * 1e6:.2f} us"
    parts = n.split('/')
    if len(parts) >= 2 and parts[1].startswith('halo_tile_primitive'):
        ref = rows.get('/'.join([parts[0], parts[1].replace('halo_tile_primitive', 'halo_tile')] + parts[2:]))
        if ref:
            line += f", / strided loop {r[0] * scale[r[2]] / (ref[0] * scale[ref[2]]):.3f}"
        if copy and r[1]:
            line += f", {100 * gbs(*r) / copy:.1f} % of copy"
    print(line)
EOF
