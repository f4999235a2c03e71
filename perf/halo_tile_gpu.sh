#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: the HaloTile rows (issue 62) against the user stencils' constant strided-loop
# load on the layer (halo_tile_32x8, halo_tile_32x4x4: the CUDA user's loop with compile-time TILE
# and NT), against their CUDA twins (native rows, perf/twins/user_stencils.cu, checked bit for bit
# against both layer rows) and against copy bandwidth; heat3d and the library's stencil_3d_7pt
# variants; then the HaloTile tests on the GPU.
#
#   perf/halo_tile_gpu.sh KOKKOS_PREFIX BUILD_DIR [--full]
#
# KOKKOS_PREFIX: a CUDA Kokkos install (its bin/nvcc_wrapper compiles). Builds only scratchkit-bench
# and scratchkit_halo_tile_tests in BUILD_DIR (Catch2 and Google Benchmark found by CMake, e.g.
# through DEPS_PREFIX as scripts/device_build.sh takes it), runs
#   scratchkit-bench --only user_stencil_2d_5pt,user_stencil_3d_7pt,tutorial_stencil2d,heat3d,stencil_3d_7pt,copy --reps 30
#   scratchkit_halo_tile_tests
# and prints, per type and layout: the HaloTile row's time, its ratio to the strided-loop row and
# to the twin (target >= 0.98 in speed: ratio <= 1.02), the twin's to the strided loop, and the
# HaloTile row's bandwidth as a share of the copy row's; then the stencil_3d_7pt and heat3d rows.
# A row whose check failed (a twin not bit for bit) is marked FAILED in the log's last line.
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
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target scratchkit-bench scratchkit_halo_tile_tests
"$build/perf/scratchkit-bench" $full \
  --only user_stencil_2d_5pt,user_stencil_3d_7pt,tutorial_stencil2d,heat3d,stencil_3d_7pt,copy \
  --reps 30 --benchmark_out="$build/halo_tile_gpu.json" --benchmark_out_format=json > "$build/halo_tile_gpu.log"
tail -n 1 "$build/halo_tile_gpu.log"
grep -E "FAILED|SKIPPED" "$build/halo_tile_gpu.log" | head -n 20 || true
python3 - "$build/halo_tile_gpu.json" <<'EOF'
import json, sys
rows = {}
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('aggregate_name') != 'median':
        continue
    k, v, back, ty, lay, size = b['run_name'].split('/iterations')[0].split('/')
    rows[(k, v, back, ty, lay, size)] = (b['real_time'], b.get('bytes', 0.0), b['time_unit'])
def gbs(t, by, unit):
    s = t * {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}[unit]
    return by / s / 1e9 if s > 0 else 0.0
def f(x, d=3):
    return "-" if x is None else f"{x:.{d}f}"
copy = max((gbs(*r) for key, r in rows.items() if key[0].startswith('copy')), default=0.0)
print(f"copy ceiling: {copy:.0f} GB/s (fastest copy row)")
print("| kernel | type | layout | size | HaloTile | strided loop | twin | HaloTile / strided | HaloTile / twin "
      "| twin / strided | % of copy |")
print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
for (k, v, back, ty, lay, size), r in sorted(rows.items()):
    if not v.startswith('halo_tile_primitive') or back != 'layer':
        continue
    base = v.replace('halo_tile_primitive', 'halo_tile')
    ref = rows.get((k, base, 'layer', ty, lay, size))
    twin = rows.get((k, base, 'native', ty, lay, size))
    t_ref, t_twin = (ref[0] if ref else None), (twin[0] if twin else None)
    share = f"{100 * gbs(*r) / copy:.0f} %" if copy else "-"
    print(f"| {k} | {ty} | {lay} | {size} | {r[0]:.2f} {r[2]} | {f(t_ref, 2)} | {f(t_twin, 2)} "
          f"| {f(r[0] / t_ref if t_ref else None)} | {f(r[0] / t_twin if t_twin else None)} "
          f"| {f(t_twin / t_ref if t_twin and t_ref else None)} | {share} |")
print("\n| type | layout | size | 3-D HaloTile (32x4x4) | library tile_2d_halo | z_streaming | HaloTile / tile_2d_halo |")
print("|---|---|---|---:|---:|---:|---:|")
for (k, v, back, ty, lay, size), r in sorted(rows.items()):
    if k != 'user_stencil_3d_7pt' or v != 'halo_tile_primitive_32x4x4':
        continue
    t2 = rows.get(('stencil_3d_7pt', 'tile_2d_halo', 'layer', ty, lay, size))
    zs = rows.get(('stencil_3d_7pt', 'z_streaming', 'layer', ty, lay, size))
    print(f"| {ty} | {lay} | {size} | {r[0]:.2f} | {f(t2[0] if t2 else None, 2)} | {f(zs[0] if zs else None, 2)} "
          f"| {f(r[0] / t2[0] if t2 else None)} |")
print("\n| kernel | variant | backend | type | layout | size | time | % of copy |")
print("|---|---|---|---|---|---|---:|---:|")
for (k, v, back, ty, lay, size), r in sorted(rows.items()):
    if k in ('stencil_3d_7pt', 'heat3d'):
        share = f"{100 * gbs(*r) / copy:.0f} %" if copy and r[1] else "-"
        print(f"| {k} | {v} | {back} | {ty} | {lay} | {size} | {r[0]:.2f} {r[2]} | {share} |")
EOF
"$build/tests/scratchkit_halo_tile_tests" | tail -n 3
