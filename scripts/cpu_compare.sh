#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host comparison (issue 38): scratchkit-bench on a host build, the layer beside the plain
# Kokkos rows and the copy, on OpenMP with 2 threads and with 1 thread, each row checked;
# report.py per set (summary.md, summary.csv, host.md) under OUTDIR/<set>/, machine.txt in OUTDIR.
#
#   scripts/cpu_compare.sh BUILD_DIR OUTDIR [bench args...]
#
# Environment: SETS (default "omp2 omp1"; "omp2-team2": 2 threads with the previous host team
# size, every block spread over both threads, SCRATCHKIT_HOST_TEAM_SIZE=2; "serial": for a
# BUILD_DIR against a Serial-only Kokkos, scripts/build_kokkos.sh VERSION serial; a set ending in
# "-nested", e.g. "omp2-nested": the scalar phase loop, SCRATCHKIT_HOST_THREADS_LOOP=nested; a set
# ending in "-phases", e.g. "serial-phases": no host loops, SCRATCHKIT_HOST_LOOPS=off).
# OUTDIR/host-summary.md: every set's host.md rows side by side.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '7p' "$0" >&2; exit 2; }
build="$1"; out="$2"; shift 2
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$out"
{
  echo "date: $(date -u +%FT%TZ)"; echo "commit: $(git -C "$src" rev-parse --short HEAD)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-) x $(nproc)"
  echo "compiler: $(c++ --version | head -1)"
  grep -m1 'Kokkos_ROOT:' "$build/CMakeCache.txt" || true
  grep -m1 'CMAKE_BUILD_TYPE:' "$build/CMakeCache.txt" || true
  echo "load before: $(uptime)"
} > "$out/machine.txt"
for set in ${SETS:-omp2 omp1}; do
  threads=2; team=""
  case "$set" in
    omp1 | omp1-* | serial | serial-*) threads=1 ;;
    omp2-team2) team=2 ;;
  esac
  loop=""; phases=""
  case "$set" in *-nested) loop=nested ;; *-phases) phases=off ;; esac
  mkdir -p "$out/$set"
  echo "== $set: OMP_NUM_THREADS=$threads ${team:+SCRATCHKIT_HOST_TEAM_SIZE=$team}" >&2
  env OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads ${team:+SCRATCHKIT_HOST_TEAM_SIZE=$team} \
    ${loop:+SCRATCHKIT_HOST_THREADS_LOOP=$loop} ${phases:+SCRATCHKIT_HOST_LOOPS=$phases} \
    "$build/perf/scratchkit-bench" "$@" --benchmark_out="$out/$set/bench.json" --benchmark_out_format=json \
    > "$out/$set/bench.log" 2>&1
  python3 "$src/perf/report.py" "$out/$set/bench.json" --out "$out/$set" --require-pass > /dev/null
  rm -f "$out/$set/bench.log"
done
echo "load after: $(uptime)" >> "$out/machine.txt"
python3 - "$out" ${SETS:-omp2 omp1} <<'PY'
import os, sys
out, sets = sys.argv[1], sys.argv[2:]
rows, order = {}, []
for st in sets:
    for line in open(os.path.join(out, st, "host.md")):
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        if len(c) < 12 or c[0] in ("kernel", "") or c[0].startswith("-"):
            continue
        key = tuple(c[:4]) + (c[6],)
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][st] = (c[4], c[5], c[7], c[8], c[11])
head = "| kernel | type | layout | size | plain Kokkos |" + "".join(f" {st}: best layer variant | layer ms | plain ms | layer / plain | targets |" for st in sets)
with open(os.path.join(out, "host-summary.md"), "w") as f:
    f.write(head + "\n|" + "---|" * (5 + 5 * len(sets)) + "\n")
    for key in order:
        f.write("| " + " | ".join(key) + " |" + "".join(" " + " | ".join(rows[key].get(st, ("",) * 5)) + " |" for st in sets) + "\n")
PY
