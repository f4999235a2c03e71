#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: the peer comparison of perf/results/<gpu>/rajaperf in one call. Builds the
# ports (examples/rajaperf) against a CUDA Kokkos and an OpenMP Kokkos, checks them (layer
# against the host reference and the CUDA twin, under compute-sanitizer memcheck and
# racecheck at the test sizes), then runs at the suite's default sizes: the ports (layer and
# twin) and the suite's Base_CUDA / RAJA_CUDA on the GPU, the ports and the suite's
# Base_OpenMP / RAJA_OpenMP on all the host's cores, and compares every checksum with the
# suite's Base_Seq.
#
#   perf/peers/device_run.sh KOKKOS_CUDA KOKKOS_OPENMP RAJAPERF_EXE OUTDIR
#
# RAJAPERF_EXE: the suite built with CUDA and OpenMP (perf/peers/rajaperf.sh build ... cuda).
# OUTDIR gets machine.txt, run.log and the csv files of each part. Environment: JOBS
# (default nproc), OMP_THREADS (default nproc), SKIP_SANITIZER=1, NCU=1 (Nsight Compute
# metrics of the layer's and the twin's kernels at the suite's sizes, ncu-<kernel>.csv).
set -uo pipefail
kcuda="$1"
komp="$2"
suite="$3"
out="$4"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
peers="$src/perf/peers"
jobs="${JOBS:-$(nproc)}"
threads="${OMP_THREADS:-$(nproc)}"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
mkdir -p "$out"
targets=(rajaperf_mat_mat_shared rajaperf_mass3dpa rajaperf_diffusion3dpa)
common=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DSCRATCHKIT_ENABLE_TESTS=OFF -DSCRATCHKIT_ENABLE_EXAMPLES=ON
        -DSCRATCHKIT_ENABLE_PERF=OFF -DSCRATCHKIT_ENABLE_ETI=OFF)

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
  nvcc --version | tail -n 1
  g++ --version | head -n 1
  lscpu | grep -E "^Model name|^CPU\(s\)|^Thread|^Socket" | tr -s ' '
  echo "Kokkos: $(sed -n 's/^set(PACKAGE_VERSION "\([0-9.]*\)")/\1/p' "$kcuda"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake) (CUDA), same (OpenMP)"
  # The device tool's copy of the tree may carry another .git: the caller names the commit.
  echo "scratchkit: ${SCRATCHKIT_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

start=$SECONDS
cmake -S "$src" -B /tmp/peers-cuda "${common[@]}" -DKokkos_ROOT="$kcuda" -DCMAKE_CXX_COMPILER="$kcuda/bin/nvcc_wrapper" \
  -DSCRATCHKIT_ENABLE_CUDA=ON >"$out/configure-cuda.log" 2>&1 || { tail -n 30 "$out/configure-cuda.log"; exit 1; }
cmake -S "$src" -B /tmp/peers-omp "${common[@]}" -DKokkos_ROOT="$komp" -DSCRATCHKIT_ENABLE_CUDA=OFF \
  >"$out/configure-omp.log" 2>&1 || { tail -n 30 "$out/configure-omp.log"; exit 1; }
cmake --build /tmp/peers-omp -j 4 --target "${targets[@]}" >"$out/build-omp.log" 2>&1 &
omp_pid=$!
cmake --build /tmp/peers-cuda -j "$jobs" --target "${targets[@]}" >"$out/build-cuda.log" 2>&1 ||
  { grep -B2 -A10 -m3 error "$out/build-cuda.log"; exit 1; }
wait $omp_pid || { grep -B2 -A10 -m3 error "$out/build-omp.log"; exit 1; }
echo "== built in $((SECONDS - start)) s"

echo "== checks (test sizes)"
for t in "${targets[@]}"; do
  /tmp/peers-cuda/examples/rajaperf/$t --twin 2>&1 | tail -n 12
  OMP_NUM_THREADS=$threads /tmp/peers-omp/examples/rajaperf/$t 2>&1 | tail -n 1
  if [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    for tool in memcheck racecheck; do
      compute-sanitizer --tool $tool --print-limit 20 /tmp/peers-cuda/examples/rajaperf/$t --twin \
        >"$out/sanitizer-$t-$tool.log" 2>&1
      echo "$t $tool: $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer-$t-$tool.log" | tr '\n' ' ')"
    done
  fi
done

echo "== GPU: ports and suite at the suite's sizes"
bash "$peers/run_ports.sh" /tmp/peers-cuda "$out/gpu" --twin
bash "$peers/rajaperf.sh" run "$suite" "$out/suite-gpu" Base_Seq Base_CUDA RAJA_CUDA
echo "== host: $threads OpenMP threads, OMP_PROC_BIND=spread"
OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=cores bash "$peers/run_ports.sh" /tmp/peers-omp "$out/host"
OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=cores \
  bash "$peers/rajaperf.sh" run "$suite" "$out/suite-host" Base_OpenMP RAJA_OpenMP
echo "== checksums against the suite's Base_Seq"
bash "$peers/rajaperf.sh" compare "$out/suite-gpu/rajaperf.csv" "$out/gpu/scratchkit.csv"
bash "$peers/rajaperf.sh" compare "$out/suite-gpu/rajaperf.csv" "$out/host/scratchkit.csv"
if [ "${NCU:-0}" = 1 ] && command -v ncu >/dev/null; then
  echo "== Nsight Compute: layer and twin kernels at the suite's sizes"
  metrics=gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__cycles_active.avg,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes.sum
  for t in "${targets[@]}"; do
    ncu --csv --metrics "$metrics" --kernel-name regex:'cuda_parallel_launch|_kernel' \
      /tmp/peers-cuda/examples/rajaperf/$t --bench --twin --reps 1 --samples 1 >"$out/ncu-$t.csv" 2>"$out/ncu-$t.err"
    echo "$t: $(grep -c gpu__time_duration "$out/ncu-$t.csv") kernel launches profiled"
  done
fi
echo "== done in $((SECONDS - start)) s"
