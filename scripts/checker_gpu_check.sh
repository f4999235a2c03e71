#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host scratch checker against the GPU tools, on a machine with an NVIDIA GPU:
# each test kernel of tests/support/checker_kernels.hpp runs on the host under the
# checker (scratchkit_checker_cases), and its CUDA twin (tests/checker_twins.cu)
# under compute-sanitizer racecheck and initcheck and Nsight Compute's
# shared-memory counters; then the occupancy formula against CUDA's occupancy API.
# Writes one comparison log. Among the cases, warp_war and atomic_then_read differ from
# racecheck by design (checker_compare.py names them, docs/checker.md "Where it differs"),
# raw_pointer_race equals it where the checker traps raw pointers (Linux, x86-64), and
# warp_tree_synced measures Nsight's store conflicts around __syncwarp.
#
#   scripts/checker_gpu_check.sh [BUILD_DIR] [LOG]
#
# BUILD_DIR: a configured scratchkit build with the tests (default build-test, as
# `scripts/quickstart.sh test` leaves it); scratchkit_checker_cases is built there.
# LOG (default tests/results/checker-gpu-check.log). Environment: ARCH (default
# sm_90), NVCC, COMPUTE_SANITIZER, NCU (default: from PATH or /usr/local/cuda/bin);
# HOST_CASES, the output of scratchkit_checker_cases run elsewhere (the checker's verdicts do not
# depend on the machine), instead of building it in BUILD_DIR; RAW_DIR, a folder for the tools' raw output.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$src/build-test}"
log="${2:-$src/tests/results/checker-gpu-check.log}"
arch="${ARCH:-sm_90}"
cuda_bin=/usr/local/cuda/bin
tool() { command -v "$1" 2>/dev/null || echo "$cuda_bin/$1"; }
nvcc="${NVCC:-$(tool nvcc)}"
sanitizer="${COMPUTE_SANITIZER:-$(tool compute-sanitizer)}"
ncu="${NCU:-$(tool ncu)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum

echo "== building the CUDA twins ($arch) and the host cases"
"$nvcc" -std=c++17 -O2 -arch="$arch" -lineinfo -I"$src/include" "$src/tests/checker_twins.cu" -o "$work/twins"
host="$work/host.txt"
if [ -n "${HOST_CASES:-}" ]; then
  cp "$HOST_CASES" "$host"
  build="$HOST_CASES (run elsewhere)"
else
  [ -d "$build" ] || { echo "checker_gpu_check: no build directory $build (run scripts/quickstart.sh test first)" >&2; exit 1; }
  cmake --build "$build" --target scratchkit_checker_cases -j "${JOBS:-$(nproc)}"
  cases_bin="$(find "$build" -name scratchkit_checker_cases -type f -perm -u+x | head -n 1)"
  "$cases_bin" > "$host"
fi

raw="${RAW_DIR:-$work/raw}"
mkdir -p "$(dirname "$log")" "$raw"
# The tools may read stdin: the cases come on fd 3.
while read -r line <&3; do
  c="${line%% *}"
  echo "== $c"
  # racecheck: every hazard, each with its shared-memory byte address; initcheck; the four counters.
  "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 1000000 "$work/twins" "$c" > "$raw/$c.race" 2>&1 || true
  "$sanitizer" --tool initcheck "$work/twins" "$c" > "$raw/$c.init" 2>&1 || true
  "$ncu" --csv --metrics "$metrics" "$work/twins" "$c" > "$raw/$c.ncu" 2> "$raw/$c.ncu.err" || true
done 3< "$host"

{
  echo "# scratchkit host scratch checker vs. GPU tools"
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit ${SCRATCHKIT_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')}"
  echo "# GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "# $("$nvcc" --version | tail -n 1); $("$sanitizer" --version 2>/dev/null | head -n 1); $("$ncu" --version 2>/dev/null | tail -n 1)"
  echo "# host: scratchkit_checker_cases from $build"
  echo
  python3 "$src/scripts/checker_compare.py" "$host" "$raw" || echo "(some race sets differ)"
} > "$log"

{
  echo
  echo "## racecheck / initcheck excerpts (first hazard or error of each case)"
  for f in "$raw"/*.race "$raw"/*.init; do
    first="$(grep -m 1 -A 3 'Error\|Warning\|hazard' "$f" | head -n 4 || true)"
    [ -z "$first" ] || printf '%s:\n%s\n' "$(basename "$f")" "$first"
  done
  echo
  echo "## occupancy: scratchkit's formula (detail/occupancy.hpp) vs cudaOccupancyMaxActiveBlocksPerMultiprocessor"
  rc=0
  "$work/twins" occupancy || rc=$?
  [ "$rc" = 0 ] || echo "(exit code $rc: 1 = some rows differ, 77 = no GPU)"
} >> "$log" 2>&1
echo "== log: $log"
cat "$log"
