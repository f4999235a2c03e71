#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The HIP line: compiles the library, the examples and the test suite for AMD GPUs (Kokkos with
# HIP for gfx90a, built from ../shared/deps with Debian's hipcc) on a machine without one. Nothing
# runs on a GPU here: the test binary is started once and must report that no AMD GPU is present
# (SKIPPED: Catch2's exit code 4), never pass; on a machine with an AMD GPU it runs the suite.
#
#   scripts/hip_line.sh [VERSION]      default 4.7.01
#
# Environment: BUILD_DIR (default build-hip-VERSION), JOBS (default: all cores), HIP_ARCH (Kokkos
# arch, default AMD_GFX90A), SCRATCHKIT_SKIP_APT=1 (install nothing), SCRATCHKIT_HIP_TESTS=units
# (compile one test unit per kernel instead of the whole test program: what .ci/run does),
# SCRATCHKIT_HIP_ETI_SPACES (backends the library instantiates for, default HIP: the host
# space's kernels are compiled and run by the Serial and OpenMP lines), SCRATCHKIT_HIP_OPT (the
# optimisation level of the library and test units: default 0 with SCRATCHKIT_HIP_TESTS=units,
# where nothing runs and -O0 compiles the kernels through the same front end and AMDGPU code
# generation, quicker; otherwise the Release build's), CMAKE_ARGS.
# Without hipcc (apt-get install hipcc: Debian 12 main) or without the Kokkos tarball the line
# prints "SKIPPED" with the reason and exits 0; every other failure exits non-zero.
set -euo pipefail

version="${1:-4.7.01}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${JOBS:-$(nproc)}"
dir="${BUILD_DIR:-$src/build-hip-$version}"
line="Kokkos $version hip (compile only)"
say() { printf '\n== [%s] %s\n' "$line" "$*"; }
start=$SECONDS
phase=$SECONDS
took() { echo "hip_line: $1 in $((SECONDS - phase)) s"; phase=$SECONDS; }

# hipcc (Debian 12 main: ROCm 5.2.3's clang 15) and ninja (the test units are object targets of its build files).
missing=()
command -v hipcc >/dev/null || missing+=(hipcc)
command -v ninja >/dev/null || missing+=(ninja-build)
if [ ${#missing[@]} -gt 0 ] && [ "${SCRATCHKIT_SKIP_APT:-0}" != 1 ] && [ "$(id -u)" = 0 ] &&
   command -v apt-get >/dev/null; then
  say "installing ${missing[*]} (Debian main)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; } || true
fi
if ! command -v hipcc >/dev/null; then
  say "SKIPPED: no hipcc on this machine (apt-get install hipcc); nothing of this line ran"
  exit 0
fi

say "Kokkos $version (HIP, ${HIP_ARCH:-AMD_GFX90A}) from ../shared/deps"
set +e
prefix="$(bash "$src/scripts/build_kokkos.sh" "$version" hip | tail -n 1)"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" = 3 ]; then
  say "SKIPPED: no Kokkos $version source tarball here (../shared/deps); nothing of this line ran"
  exit 0
fi
[ "$rc" = 0 ] || { echo "hip_line: building Kokkos $version (hip) failed" >&2; exit 1; }
took "Kokkos ready"

say "configuring $dir against $prefix"
mkdir -p "$dir"
# Release without bounds checks, as users build it: the checks' device printf paths cost hipcc
# 1.6x the CPU time (gemm ETI unit, 33 s against 20 s); tests/mistake_case.cpp, always
# bounds-checked, still compiles them for HIP.
generator=()
[ -f "$dir/CMakeCache.txt" ] || ! command -v ninja >/dev/null || generator=(-G Ninja)
if [ "${SCRATCHKIT_HIP_TESTS:-all}" = units ] && ! command -v ninja >/dev/null; then
  echo "hip_line: SCRATCHKIT_HIP_TESTS=units needs ninja (apt-get install ninja-build)" >&2
  exit 1
fi
opt=()
hip_opt="${SCRATCHKIT_HIP_OPT-}"
[ -n "$hip_opt" ] || [ "${SCRATCHKIT_HIP_TESTS:-all}" != units ] || hip_opt=0
[ -z "$hip_opt" ] || opt=("-DCMAKE_CXX_FLAGS_RELEASE=-O$hip_opt -DNDEBUG")
# shellcheck disable=SC2086
cmake -S "$src" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=hipcc "${opt[@]}" \
  -DKokkos_ROOT="$prefix" -DSCRATCHKIT_ENABLE_TESTS=ON -DSCRATCHKIT_ENABLE_BOUNDS_CHECK=OFF \
  -DSCRATCHKIT_ENABLE_PERF=OFF -DSCRATCHKIT_ENABLE_CUDA=OFF -DSCRATCHKIT_ENABLE_INSTALL_TEST=OFF \
  -DSCRATCHKIT_ETI_SPACES="${SCRATCHKIT_HIP_ETI_SPACES:-HIP}" -DSCRATCHKIT_TEST_OPT_LEVEL="${hip_opt:-1}" \
  -DCMAKE_CXX_FLAGS="-Werror=deprecated-declarations" ${CMAKE_ARGS:-} >"$dir/configure.log" 2>&1 ||
  { tail -n 40 "$dir/configure.log" >&2; exit 1; }
took "configured"

say "library ($jobs jobs)"
cmake --build "$dir" -j "$jobs" --target scratchkit
took "library built"
say "examples"
cmake --build "$dir" -j "$jobs" --target heat3d tutorial_sgemm tutorial_stencil2d tutorial_scan
took "examples built"
if [ "${SCRATCHKIT_HIP_TESTS:-all}" = units ]; then
  say "one test unit per kernel"
  # Each kernel's first test unit in the kernel table (cmake/kernels.txt; file:N compiles per part), and the Block's.
  units=("tests/CMakeFiles/scratchkit_tests.dir/test_block.cpp.o")
  while read -r unit; do
    case "$unit" in
      *:*) units+=("tests/CMakeFiles/scratchkit_tests.dir/parts/${unit%%.cpp:*}_0.cpp.o") ;;
      *) units+=("tests/CMakeFiles/scratchkit_tests.dir/$unit.o") ;;
    esac
  done < <(awk -F'|' '!/^[ \t]*(#|$)/ { split($4, t, " "); print t[1] }' "$src/cmake/kernels.txt")
  cmake --build "$dir" -j "$jobs" --target "${units[@]}"
  took "test units built"
  say "SKIPPED: test units compiled; the test program is not linked (SCRATCHKIT_HIP_TESTS=units), nothing ran"
else
  say "test suite"
  cmake --build "$dir" -j "$jobs" --target scratchkit_tests
  took "test suite built"
  set +e
  out="$("$dir/tests/scratchkit_tests" 2>&1)"
  rc=$?
  set -e
  printf '%s\n' "$out" | tail -n 5
  if [ "$rc" = 4 ] && printf '%s' "$out" | grep -q "SKIPPED: .*no AMD GPU"; then
    say "SKIPPED: the suite is compiled for HIP and reports that no AMD GPU is present; nothing ran on a GPU"
  elif [ "$rc" = 0 ]; then
    say "an AMD GPU is present: the whole suite through ctest"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
  else
    echo "hip_line: the HIP test program exited with $rc (neither 4, SKIPPED without an AMD GPU, nor 0)" >&2
    exit 1
  fi
fi
say "done in $((SECONDS - start)) s"
