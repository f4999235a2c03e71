#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# On a GPU host: configures and builds scratchkit (library, tests, perf, examples) against a
# CUDA Kokkos install with its nvcc_wrapper, then prints the build-time report.
#
#   scripts/device_build.sh KOKKOS_PREFIX BUILD_DIR [OUTDIR] [extra cmake args...]
#
# Environment: DEPS_PREFIX (a prefix holding Catch2 and Google Benchmark, e.g. Debian packages
# unpacked with dpkg -x), BUILD_TIMEOUT (s, default 560), JOBS (default nproc).
set -uo pipefail
kokkos="$1"
build="$2"
out="${3:-$build}"
shift 3 || shift $#
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$out"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
prefix=()
[ -z "${DEPS_PREFIX:-}" ] || prefix=(-DCMAKE_PREFIX_PATH="$DEPS_PREFIX")
start=$SECONDS
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos" \
  -DCMAKE_CXX_COMPILER="$kokkos/bin/nvcc_wrapper" "${prefix[@]}" -DSCRATCHKIT_ENABLE_TESTS=ON "$@" \
  >"$out/configure.log" 2>&1 || { tail -n 40 "$out/configure.log"; exit 1; }
grep -A 20 "scratchkit .* configuration" "$out/configure.log"
timeout "${BUILD_TIMEOUT:-560}" cmake --build "$build" -j "${JOBS:-$(nproc)}" >"$out/build.log" 2>&1
rc=$?
echo "build exit $rc after $((SECONDS - start)) s"
[ "$rc" = 0 ] || grep -B2 -A12 -m3 "error" "$out/build.log" | head -n 60
JOBS="${JOBS:-$(nproc)}" bash "$src/scripts/build_times.sh" "$build" 25 | tee "$out/build_times.txt"
exit "$rc"
