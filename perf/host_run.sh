#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The whole host comparison (issue 49): scratchkit-bench on host builds, every layer row beside its
# plain Kokkos row (and OpenBLAS for gemm where found), each row checked; one set per run:
#   serial  a Serial-only Kokkos (BUILD_SERIAL), one thread
#   omp2    OpenMP, 2 threads        } OMP_PROC_BIND=spread OMP_PLACES=threads,
#   omp16   OpenMP, 16 threads       } OPENBLAS_NUM_THREADS = the thread count
#   ompN    OpenMP, N threads
# Writes perf/results/cpu-<set>/{summary.md,summary.csv,machine.txt} (replacing what was there).
#
#   perf/host_run.sh [--full] SET [SET...] [-- bench args...]
#
# Environment: BUILD_OPENMP (default build-host-openmp), BUILD_SERIAL (default build-host-serial):
# build directories under the checkout (git-ignored); each is configured and its scratchkit-bench built
# when it has none, against KOKKOS_OPENMP / KOKKOS_SERIAL (default ~/.cache/scratchkit/kokkos-5.0.99-
# openmp / -serial, scripts/build_kokkos.sh 5.0.99 openmp|serial: a host-only Kokkos, so that the
# default execution space is the host's), CMAKE_ARGS (more configure arguments, e.g.
# -DCMAKE_PREFIX_PATH=<Google Benchmark's prefix>). --full: the host's full sizes
# (GEMM 1024^3 and 4096^3 float, 3-D 256^3, arrays of 2^24; tens of minutes on 16 cores).
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
full=""; sets=(); extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full="--full" ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,20p' "$0"; exit 0 ;;
    *) sets+=("$1") ;;
  esac
  shift
done
[ ${#sets[@]} -gt 0 ] || { sed -n '11p' "$0" >&2; exit 2; }
bo="${BUILD_OPENMP:-$src/build-host-openmp}"; bs="${BUILD_SERIAL:-$src/build-host-serial}"

build() {  # build DIR KOKKOS_ROOT
  [ -x "$1/perf/scratchkit-bench" ] && return 0
  cmake -S "$src" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$2" -DSCRATCHKIT_ENABLE_TESTS=OFF \
    -DSCRATCHKIT_ENABLE_EXAMPLES=OFF -DSCRATCHKIT_ENABLE_PERF=ON -DSCRATCHKIT_ENABLE_CUDA=OFF ${CMAKE_ARGS:-} > "$1.configure.log"
  cmake --build "$1" -j"$(nproc)" --target scratchkit-bench
}

for set in "${sets[@]}"; do
  case "$set" in
    serial) threads=1; b="$bs"; build "$b" "${KOKKOS_SERIAL:-$HOME/.cache/scratchkit/kokkos-5.0.99-serial}" ;;
    omp[0-9]*) threads="${set#omp}"; b="$bo"; build "$b" "${KOKKOS_OPENMP:-$HOME/.cache/scratchkit/kokkos-5.0.99-openmp}" ;;
    *) echo "host_run.sh: unknown set $set (serial, omp2, omp16, ompN)" >&2; exit 2 ;;
  esac
  out="$src/perf/results/cpu-$set"
  rm -rf "$out"; mkdir -p "$out"
  tmp="$(mktemp -d)"
  {
    echo "set: $set ($([ "$set" = serial ] && echo "Kokkos Serial" || echo "Kokkos OpenMP, OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads"))"
    echo "date: $(date -u +%FT%TZ)"; echo "commit: $(git -C "$src" rev-parse --short HEAD)$(git -C "$src" diff --quiet HEAD -- include src perf || echo ' + uncommitted changes')"
    echo "host: $(hostname)"
    echo "processor: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') ($(nproc) logical CPUs online)"
    lscpu 2>/dev/null | grep -E '^(Socket|Core|Thread|NUMA node\(s\)|L2|L3)' | sed 's/  */ /g' || true
    echo "compiler: $(grep -m1 'CMAKE_CXX_COMPILER:' "$b/CMakeCache.txt" | cut -d= -f2) ($($(grep -m1 'CMAKE_CXX_COMPILER:' "$b/CMakeCache.txt" | cut -d= -f2) --version | head -1))"
    echo "build type: $(grep -m1 'CMAKE_BUILD_TYPE:' "$b/CMakeCache.txt" | cut -d= -f2), tests (scratch checker hooks) $(grep -m1 'SCRATCHKIT_ENABLE_TESTS:' "$b/CMakeCache.txt" | cut -d= -f2)"
    kr="$(grep -m1 'Kokkos_DIR:' "$b/CMakeCache.txt" | cut -d= -f2)"
    echo "Kokkos: $(grep -m1 -o 'PACKAGE_VERSION "[^"]*' "$kr/KokkosConfigVersion.cmake" 2>/dev/null | cut -d'"' -f2 || true) at $kr"
    echo "host BLAS: $(grep -m1 'SCRATCHKIT_OPENBLAS_LIBRARY:' "$b/CMakeCache.txt" | cut -d= -f2)"
    echo "thread placement: OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads OPENBLAS_NUM_THREADS=$threads"
    echo "sizes: ${full:-default (seconds on a laptop)}"
    echo "load before: $(uptime)"
  } > "$out/machine.txt"
  echo "== $set: $b, $threads thread(s) ${full}" >&2
  env OMP_NUM_THREADS="$threads" OMP_PROC_BIND=spread OMP_PLACES=threads OPENBLAS_NUM_THREADS="$threads" \
    "$b/perf/scratchkit-bench" $full ${extra[@]+"${extra[@]}"} --benchmark_out="$tmp/bench.json" \
    --benchmark_out_format=json --kokkos-print-configuration > "$tmp/bench.log" 2>&1 || {
      tail -20 "$tmp/bench.log" >&2; echo "host_run.sh: scratchkit-bench failed (log: $tmp/bench.log)" >&2; exit 1; }
  grep -m3 -E 'OpenMP|OMP_PROC_BIND|Kokkos Version' "$tmp/bench.log" | sed 's/^/kokkos: /' >> "$out/machine.txt" || true
  grep -m1 '^# host BLAS:' "$tmp/bench.log" | sed 's/^# host BLAS: /host BLAS as run: /' >> "$out/machine.txt" || true
  echo "load after: $(uptime)" >> "$out/machine.txt"
  python3 "$src/perf/report.py" "$tmp/bench.json" --out "$tmp" --require-pass > "$tmp/report.log" || {
    tail -3 "$tmp/report.log" >&2; exit 1; }
  cp "$tmp/summary.csv" "$out/summary.csv"
  {
    echo "# Host comparison, set $set: the layer against plain Kokkos (and OpenBLAS)"
    echo
    echo "Every row PASSED its check. Each line: the fastest layer variant of the kernel, type, layout and"
    echo "size against the fastest plain Kokkos row (perf/plain_kokkos.hpp, perf/bench_user.cpp,"
    echo "perf/bench_rajaperf.cpp; Kokkos' parallel_reduce / team_scan / team_reduce for the reductions and"
    echo "tile collectives), medians of the bench's repetitions. \`machine.txt\`: machine, compiler, Kokkos,"
    echo "thread placement; \`summary.csv\`: every row. Made by \`perf/host_run.sh ${full:+--full }$set${extra[*]+ -- ${extra[*]}}\`."
    echo
    cat "$tmp/host.md"
  } > "$out/summary.md"
  rm -rf "$tmp"
  echo "== $set: $out/summary.md" >&2
done
