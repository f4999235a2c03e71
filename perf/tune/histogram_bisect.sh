#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# histogram_ab.cpp against the headers of several commits, timed in one call on one GPU (how the
# 65536-bin histogram's loss was traced to 537b3cb: perf/results/h100/rows.md).
#
#   perf/tune/histogram_bisect.sh prepare DIR COMMIT...   # on a machine with the git history
#   perf/tune/histogram_bisect.sh run DIR KOKKOS_CUDA CONFIG_INCLUDE OUT   # on the GPU host
#
# prepare: DIR/<short hash>/include for each commit (git archive) and a copy of histogram_ab.cpp.
# run: compiles histogram_ab.cpp against each tree in parallel (CONFIG_INCLUDE: a directory holding
# the scratchkit/config.hpp of a CUDA build, ETI off), then runs them all twice, alternating;
# OUT/times.txt and OUT/build_<hash>.log. The twins' symbols are left unresolved: only the layer runs.
set -euo pipefail
cmd="${1:?usage: $0 prepare DIR COMMIT... | run DIR KOKKOS_CUDA CONFIG_INCLUDE OUT}"; shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "$cmd" in
  prepare)
    dir="$1"; shift; mkdir -p "$dir"
    for c in "$@"; do
      n="$(git -C "$here" rev-parse --short "$c")"; mkdir -p "$dir/$n"
      git -C "$here/../.." archive "$c" include | tar -x -C "$dir/$n"
    done
    cp "$here/histogram_ab.cpp" "$dir/" ;;
  run)
    dir="$1"; k="$2"; cfg="$3"; out="$4"; mkdir -p "$out"
    export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt"
    for d in "$dir"/*/; do
      n="$(basename "$d")"
      "$k/bin/nvcc_wrapper" -DTREE="\"$n\"" -I"$d/include" -I"$cfg" -isystem "$k/include" -O3 -DNDEBUG \
        --extended-lambda -arch=sm_90 -std=c++20 -Xptxas=-v "$dir/histogram_ab.cpp" -o "$out/hab_$n" -L"$k/lib" \
        -lkokkoscore -lkokkoscontainers -lcuda -ldl -Xlinker --unresolved-symbols=ignore-all \
        >"$out/build_$n.log" 2>&1 &
    done
    wait
    for r in 1 2; do
      for d in "$dir"/*/; do
        n="$(basename "$d")"
        [ -x "$out/hab_$n" ] && LD_LIBRARY_PATH="$k/lib" "$out/hab_$n" | tee -a "$out/times.txt"
      done
    done ;;
  *) echo "usage: $0 prepare DIR COMMIT... | run DIR KOKKOS_CUDA CONFIG_INCLUDE OUT" >&2; exit 2 ;;
esac
