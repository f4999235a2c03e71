#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host comparison (issue 38): scratchkit-bench on a host build, the layer beside the plain
# Kokkos rows and the copy, on OpenMP with 2 threads and with 1 thread, each row checked;
# report.py per set (summary.md, summary.csv, host.md) under OUTDIR/<set>/, machine.txt in OUTDIR.
#
#   scripts/cpu_compare.sh BUILD_DIR OUTDIR [bench args...]
#
# Environment: SETS (default "omp2 omp1"; "omp2-team2": 2 threads with the previous host team
# size, every block spread over both threads, SCRATCHKIT_HOST_TEAM_SIZE=2).
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
    omp1) threads=1 ;;
    omp2-team2) team=2 ;;
  esac
  mkdir -p "$out/$set"
  echo "== $set: OMP_NUM_THREADS=$threads ${team:+SCRATCHKIT_HOST_TEAM_SIZE=$team}" >&2
  env OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads ${team:+SCRATCHKIT_HOST_TEAM_SIZE=$team} \
    "$build/perf/scratchkit-bench" "$@" --benchmark_out="$out/$set/bench.json" --benchmark_out_format=json \
    > "$out/$set/bench.log" 2>&1
  python3 "$src/perf/report.py" "$out/$set/bench.json" --out "$out/$set" --require-pass > /dev/null
  rm -f "$out/$set/bench.log"
done
echo "load after: $(uptime)" >> "$out/machine.txt"
