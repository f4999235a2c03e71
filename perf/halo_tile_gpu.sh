#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: the HaloTile rows (issue 62) against the user stencils' constant strided-loop
# load (halo_tile_32x8, halo_tile_32x4x4: the CUDA user's loop with compile-time TILE and NT) and
# against copy bandwidth; then the HaloTile tests on the GPU.
#
#   perf/halo_tile_gpu.sh KOKKOS_PREFIX BUILD_DIR [--full]
#
# KOKKOS_PREFIX: a CUDA Kokkos install (its bin/nvcc_wrapper compiles). Builds scratchkit-bench
# and scratchkit_tests in BUILD_DIR (Catch2 and Google Benchmark found by CMake, e.g. through
# DEPS_PREFIX as scripts/device_build.sh takes it), runs
#   scratchkit-bench --only user_stencil_2d_5pt,user_stencil_3d_7pt,tutorial_stencil2d,copy --reps 30
#   scratchkit_tests "[halo_tile]"
# and prints, per type and layout: the HaloTile row's time, its ratio to the strided-loop row
# (target >= 0.98 in speed: ratio <= 1.02) and its bandwidth as a share of the copy row's.
set -euo pipefail
kokkos="$1"; build="$2"; full="${3:-}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
prefix=()
[ -z "${DEPS_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" \
  -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" "${prefix[@]}" -DSCRATCHKIT_ENABLE_TESTS=ON \
  -DSCRATCHKIT_ENABLE_PERF=ON -DSCRATCHKIT_TEST_HEADERS=OFF > "$build.configure.log" 2>&1 ||
  { tail -n 30 "$build.configure.log"; exit 1; }
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target scratchkit-bench scratchkit_tests
"$build/perf/scratchkit-bench" $full --only user_stencil_2d_5pt,user_stencil_3d_7pt,tutorial_stencil2d,copy \
  --reps 30 --benchmark_out="$build/halo_tile_gpu.json" --benchmark_out_format=json > "$build/halo_tile_gpu.log"
tail -n 1 "$build/halo_tile_gpu.log"
python3 - "$build/halo_tile_gpu.json" <<'EOF'
import json, sys, collections
rows = {}
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('aggregate_name') != 'median':
        continue
    k, v, back, ty, lay, size = b['run_name'].split('/iterations')[0].split('/')
    rows[(k, v, ty, lay, size)] = (b['real_time'], b.get('bytes', 0.0), b['time_unit'])
def gbs(t, by, unit):
    s = t * {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}[unit]
    return by / s / 1e9 if s > 0 else 0.0
copy = max((gbs(*r) for (k, v, ty, lay, size), r in rows.items() if k.startswith('copy')), default=0.0)
print(f"copy ceiling: {copy:.0f} GB/s (fastest copy row)")
print("| kernel | type | layout | size | HaloTile | strided loop | HaloTile / strided | % of copy |")
print("|---|---|---|---|---:|---:|---:|---:|")
for (k, v, ty, lay, size), r in sorted(rows.items()):
    if not v.startswith('halo_tile_primitive'):
        continue
    ref = rows.get((k, v.replace('halo_tile_primitive', 'halo_tile'), ty, lay, size))
    ratio = f"{r[0] / ref[0]:.3f}" if ref else "-"
    share = f"{100 * gbs(*r) / copy:.0f} %" if copy else "-"
    print(f"| {k} | {ty} | {lay} | {size} | {r[0]:.2f} {r[2]} | {ref[0] if ref else float('nan'):.2f} | {ratio} | {share} |")
EOF
"$build/tests/scratchkit_tests" "[halo_tile]" | tail -n 3
