#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a many-core host: the ports (examples/rajaperf, the layer on Kokkos OpenMP) beside the RAJA
# Performance Suite's host variants at 1, 2 and all cores, the sets issue 61's host targets name
# (layer <= 1.0x RAJA_Seq / RAJA_OpenMP, <= 1.1x Base_Seq / Base_OpenMP).
#
#   perf/peers/host_ports.sh KOKKOS_OPENMP RAJAPERF_EXE OUTDIR [THREADS...]
#
# RAJAPERF_EXE: the suite built with OpenMP (perf/peers/rajaperf.sh build SRC BUILD openmp, or the
# CUDA build, which has the host variants too). THREADS: default "1 2 <nproc>". One thread is
# compared with Base_Seq and RAJA_Seq, more with Base_OpenMP and RAJA_OpenMP, every checksum with
# Base_Seq's. OMP_PROC_BIND=close, OMP_PLACES=cores; SAMPLES (default 10): the ports' timed samples. OUTDIR/t<N>/ holds each set's csv files and
# summary.md; OUTDIR/summary.md all of them.
set -euo pipefail
komp="$1"; suite="$2"; out="$3"; shift 3
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 2 "$(nproc)")
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
peers="$src/perf/peers"
build="${BUILD:-/tmp/host-ports}"
mkdir -p "$out"
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$komp" -DSCRATCHKIT_ENABLE_TESTS=OFF \
  -DSCRATCHKIT_ENABLE_EXAMPLES=ON -DSCRATCHKIT_ENABLE_PERF=OFF -DSCRATCHKIT_ENABLE_ETI=OFF \
  -DSCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF -DSCRATCHKIT_ENABLE_CUDA=OFF >"$out/configure.log" 2>&1 ||
  { tail -n 30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target rajaperf_mat_mat_shared rajaperf_mass3dpa rajaperf_diffusion3dpa \
  >"$out/build.log" 2>&1 || { grep -B2 -A10 -m3 error "$out/build.log"; exit 1; }
{ lscpu | grep -E "^Model name|^CPU\(s\)" | tr -s ' '; g++ --version | head -n 1; } >"$out/machine.txt"
: >"$out/summary.md"
for n in "${threads[@]}"; do
  d="$out/t$n"
  if [ "$n" = 1 ]; then variants=(Base_Seq RAJA_Seq); ref=Base_Seq; else variants=(Base_Seq Base_OpenMP RAJA_OpenMP); ref=Base_OpenMP; fi
  export OMP_NUM_THREADS="$n" OMP_PROC_BIND=close OMP_PLACES=cores
  bash "$peers/run_ports.sh" "$build" "$d/ports" --samples "${SAMPLES:-10}" >/dev/null
  bash "$peers/rajaperf.sh" run "$suite" "$d/suite" "${variants[@]}" >/dev/null
  bash "$peers/rajaperf.sh" compare "$d/suite/rajaperf.csv" "$d/ports/scratchkit.csv" >"$d/checksums.txt"
  { echo "## $n thread(s)"; echo; python3 "$peers/summary.py" "$d/ports/scratchkit.csv" "$d/suite/rajaperf.csv" --host-ref "$ref"
    echo; echo "checksums against Base_Seq: $(grep -c PASSED "$d/checksums.txt") PASSED, $(grep -c FAILED "$d/checksums.txt") FAILED"; echo; } |
    tee -a "$out/summary.md"
done
