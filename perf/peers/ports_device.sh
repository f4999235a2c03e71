#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host, in one call: the three RAJAPerf ports (examples/rajaperf) of this tree and of a
# baseline tree, timed on the GPU (layer and CUDA twin, with registers from cuobjdump) and on the
# host's cores (Serial-like 1 thread, 2 and all threads), each row at the suite's default size,
# inputs and reps, median of the samples (the ports' --bench). Every run checks first (the
# port's random cases and the suite's checksum; --twin: the twin bit for bit).
#
#   perf/peers/ports_device.sh KOKKOS_CUDA KOKKOS_OPENMP OUTDIR [BASE_TREE]
#
# BASE_TREE: a tree (its include/ and examples/rajaperf/) to time beside this one, built the same
# way (the commit it holds is the caller's to name). OUTDIR gets machine.txt, registers.txt,
# gpu.log, host.log and summary.txt. Environment: JOBS (default nproc), SAMPLES (default 10).
set -uo pipefail
kcuda="$1"
komp="$2"
out="$3"
base="${4:-}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jobs="${JOBS:-$(nproc)}"
samples="${SAMPLES:-10}"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
mkdir -p "$out"
targets=(rajaperf_mat_mat_shared rajaperf_mass3dpa rajaperf_diffusion3dpa)
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DSCRATCHKIT_ENABLE_TESTS=OFF -DSCRATCHKIT_ENABLE_EXAMPLES=ON
        -DSCRATCHKIT_ENABLE_PERF=OFF -DSCRATCHKIT_ENABLE_ETI=OFF)
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -n 1
  g++ --version | head -n 1
  lscpu | grep -E "^Model name|^CPU\(s\)" | tr -s ' '
} >"$out/machine.txt" 2>&1

# A tree's ports: the tree's own CMake project where it has one, else this tree's with its
# headers and ports swapped in (a baseline copied without the rest of its tree).
build_tree() {  # tree cuda|openmp dir
  local tree="$1" kind="$2" dir="$3" kokkos cxx=()
  if [ "$kind" = cuda ]; then kokkos="$kcuda"; cxx=(-DCMAKE_CXX_COMPILER="$kcuda/bin/nvcc_wrapper"); else kokkos="$komp"; fi
  cmake -S "$tree" -B "$dir" "${common[@]}" -DKokkos_ROOT="$kokkos" "${cxx[@]}" >"$dir.configure.log" 2>&1 &&
    cmake --build "$dir" -j "$jobs" --target "${targets[@]}" >"$dir.build.log" 2>&1
}
trees=("$src")
names=(head)
if [ -n "$base" ]; then
  # The baseline's headers and ports in a copy of this tree (CMake files of this tree).
  cp -r "$src" /tmp/ports-base-tree && rm -rf /tmp/ports-base-tree/include /tmp/ports-base-tree/examples/rajaperf &&
    cp -r "$base/include" /tmp/ports-base-tree/include &&
    cp -r "$base/examples/rajaperf" /tmp/ports-base-tree/examples/rajaperf &&
    rm -rf /tmp/ports-base-tree/build-* && trees+=(/tmp/ports-base-tree) && names+=(base)
fi
for i in "${!trees[@]}"; do
  for kind in cuda openmp; do
    d="/tmp/ports-${names[$i]}-$kind"
    start=$SECONDS
    build_tree "${trees[$i]}" "$kind" "$d" || { echo "build ${names[$i]} $kind failed"; tail -n 30 "$d.build.log" "$d.configure.log"; }
    echo "built ${names[$i]} $kind in $((SECONDS - start)) s" | tee -a "$out/summary.txt"
    # Each port's layer unit: its compile time from ninja's log (start and end in ms).
    awk -v t="${names[$i]} $kind" '$4 ~ /rajaperf_.*\.cpp\.o$/ { n = split($4, a, "/"); printf "compile %s %s %.1f s\n", t, a[n], ($2 - $1) / 1000 }' \
      "$d/.ninja_log" 2>/dev/null | tee -a "$out/summary.txt"
  done
done

: >"$out/registers.txt"
for i in "${!trees[@]}"; do
  for t in "${targets[@]}"; do
    exe="/tmp/ports-${names[$i]}-cuda/examples/rajaperf/$t"
    [ -x "$exe" ] || continue
    echo "== ${names[$i]} $t" >>"$out/registers.txt"
    cuobjdump --dump-resource-usage "$exe" 2>/dev/null | grep -A1 "Function" | grep -v "^--" | paste - - |
      grep -E "rajaperf|_kernel" | sed -E 's/.*Function ([^:]*):.*REG:([0-9]+) STACK:([0-9]+) SHARED:([0-9]+).*/REG \2 STACK \3 SHARED \4 \1/' |
      cut -c1-160 >>"$out/registers.txt"
  done
done

: >"$out/gpu.log"
for i in "${!trees[@]}"; do
  for t in "${targets[@]}"; do
    exe="/tmp/ports-${names[$i]}-cuda/examples/rajaperf/$t"
    [ -x "$exe" ] || continue
    echo "== ${names[$i]} $t" >>"$out/gpu.log"
    "$exe" --twin >>"$out/gpu.log" 2>&1 | tail -n 1
    "$exe" --bench --twin --samples "$samples" 2>&1 | grep -E "^ROW|^CHECKSUM|FAIL" >>"$out/gpu.log"
  done
done
: >"$out/host.log"
for th in 1 2 "$(nproc)"; do
  for i in "${!trees[@]}"; do
    for t in "${targets[@]}"; do
      exe="/tmp/ports-${names[$i]}-openmp/examples/rajaperf/$t"
      [ -x "$exe" ] || continue
      echo "== ${names[$i]} $t threads=$th" >>"$out/host.log"
      OMP_NUM_THREADS=$th OMP_PROC_BIND=spread OMP_PLACES=cores "$exe" --bench --samples "$samples" 2>&1 |
        grep -E "^ROW|FAIL" >>"$out/host.log"
    done
  done
done
python3 - "$out" <<'PY' | tee -a "$out/summary.txt"
import re, sys, collections
out = sys.argv[1]
def rows(path):
    tree = None; r = collections.OrderedDict()
    for line in open(path):
        m = re.match(r"== (\w+) (\w+)(?: threads=(\d+))?", line)
        if m:
            tree, th = m.group(1), m.group(3) or "gpu"
            continue
        if line.startswith("ROW"):
            f = dict(kv.split("=", 1) for kv in line.split()[1:])
            r[(f["kernel"], th, tree, f["variant"])] = float(f["time_per_rep_s"])
    return r
for name in ("gpu.log", "host.log"):
    r = rows(f"{out}/{name}")
    keys = sorted({(k, th) for (k, th, _, _) in r})
    for k, th in keys:
        h = r.get((k, th, "head", "scratchkit_layer")); b = r.get((k, th, "base", "scratchkit_layer"))
        tw = r.get((k, th, "head", "scratchkit_twin"))
        s = f"{name[:-4]} {k} threads={th}: head layer {h * 1e6:.2f} us" if h else f"{k} {th}: no head row"
        if b: s += f", base layer {b * 1e6:.2f} us (head/base time {h / b:.3f})"
        if tw: s += f", twin {tw * 1e6:.2f} us (layer/twin speed {tw / h:.3f})"
        print(s)
PY
