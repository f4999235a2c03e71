#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scratchkit quick start on Debian 12 (bookworm), as root:
#
#   bash scripts/quickstart.sh main   # install what is missing, build, run the cross-check + comparison
#   bash scripts/quickstart.sh test   # install what is missing, build, run the whole test suite
#
# Environment: BUILD_DIR (default build, or build-test for `test`), JOBS
# (default: all cores), CMAKE_ARGS (extra configure arguments, e.g.
# "-DKokkos_ROOT=/opt/kokkos-cuda"), SCRATCHKIT_SKIP_APT=1 to install nothing.
#
# apt prints one line per step; its whole output goes to <build dir>/quickstart-apt.log (the
# script names it). Then the configure summary, the build's progress and the result.
set -euo pipefail

mode="${1:-}"
case "$mode" in
  main | test) ;;
  *)
    echo "usage: $0 main|test" >&2
    exit 2
    ;;
esac
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${JOBS:-$(nproc)}"

say() { printf '\n== %s\n' "$*"; }

if [ "$mode" = main ]; then
  dir="${BUILD_DIR:-$src/build}"
else
  dir="${BUILD_DIR:-$src/build-test}"
fi
apt_log="$dir/quickstart-apt.log"

# One line for an apt step: "  <what> ... done"; its output goes to $apt_log, whose last
# lines are shown if it fails.
apt_step() {
  local what="$1"
  shift
  printf '  %s ... ' "$what"
  printf '\n$ %s\n' "$*" >>"$apt_log"
  local rc=0
  "$@" >>"$apt_log" 2>&1 </dev/null || rc=$?
  if [ "$rc" = 0 ]; then
    echo "done"
  else
    echo "FAILED (exit $rc); the last lines of $apt_log:"
    tail -n 20 "$apt_log" >&2
    exit "$rc"
  fi
}

missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

install_dependencies() {
  if [ "${SCRATCHKIT_SKIP_APT:-0}" = 1 ]; then return; fi
  if ! command -v apt-get >/dev/null; then
    echo "quickstart: no apt-get: install CMake >= 3.25, a C++17 compiler, Kokkos and Catch2 3 yourself," \
         "then run with SCRATCHKIT_SKIP_APT=1" >&2
    return
  fi
  local base=(build-essential cmake python3 libtrilinos-kokkos-dev libbenchmark-dev) backports=(catch2)
  [ "$mode" != main ] || base+=(python3-matplotlib)
  [ "$mode" != test ] || base+=(libopenmpi-dev openmpi-bin)  # the 2-rank MPI test
  local need_base need_bp
  need_base="$(missing_packages "${base[@]}")"
  need_bp="$(missing_packages "${backports[@]}")"
  if [ -z "$need_base$need_bp" ]; then
    say "dependencies already installed"
    return
  fi
  if [ "$(id -u)" != 0 ]; then
    echo "quickstart: missing packages ($need_base $need_bp); run as root or install them" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # Only uncommented lines enable a suite (a commented-out "# deb ... bookworm-backports main"
  # does not, and apt-get -t bookworm-backports would then stop with exit 100).
  if [ -n "$need_bp" ] && ! { grep -rhEvs '^[[:space:]]*#' /etc/apt/sources.list /etc/apt/sources.list.d/ || true; } |
    grep -q "bookworm-backports"; then
    # Catch2 3 is in bookworm-backports: enable it from the mirror this machine already uses.
    local mirror
    # One-line (.list) and deb822 (.sources, Debian 12's default) files alike; a missing
    # /etc/apt/sources.list is not an error (grep exits 2 for it, which pipefail would pass on).
    mirror="$({ grep -rhEvs '^[[:space:]]*#' /etc/apt/sources.list /etc/apt/sources.list.d/ || true; } |
      { grep -oE 'https?://[^ ]+/debian/?( |$)' || true; } | head -n1 | tr -d ' ')"
    if [ -z "$mirror" ]; then
      echo "quickstart: cannot find the Debian mirror in /etc/apt; enable bookworm-backports yourself" >&2
      exit 1
    fi
    say "enabling bookworm-backports from $mirror"
    echo "deb ${mirror%/} bookworm-backports main" >/etc/apt/sources.list.d/scratchkit-bookworm-backports.list
  fi
  say "installing: $(echo $need_base $need_bp)"
  mkdir -p "$dir"
  : >"$apt_log"
  echo "  (apt's output: $apt_log)"
  apt_step "apt-get update" apt-get update
  # shellcheck disable=SC2086
  [ -z "$need_base" ] || apt_step "apt-get install $(echo $need_base | wc -w) packages" \
    apt-get install -y --no-install-recommends $need_base
  # shellcheck disable=SC2086,SC2116
  [ -z "$need_bp" ] || apt_step "apt-get install -t bookworm-backports $(echo $need_bp)" \
    apt-get install -y --no-install-recommends -t bookworm-backports $need_bp
}

configure_and_build() {
  local dir="$1"
  shift
  say "configuring $dir"
  # shellcheck disable=SC2086
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" ${CMAKE_ARGS:-}
  say "building $dir ($jobs jobs)"
  cmake --build "$dir" -j "$jobs"
}

install_dependencies
if [ "$mode" = main ]; then
  configure_and_build "$dir" -DSCRATCHKIT_ENABLE_TESTS=OFF
  results="${RESULTS_DIR:-$dir/results}"
  mkdir -p "$results"
  say "comparison on the default backend (progress on stderr; results in $results)"
  if dpkg-query -W -f='${Status}' libbenchmark1debian 2>/dev/null | grep -q "install ok installed"; then
    # Google Benchmark prints this from its own library: Debian builds libbenchmark without
    # NDEBUG. It does not describe scratchkit, which is built as CMAKE_BUILD_TYPE=Release.
    echo "note: '***WARNING*** Library was built as DEBUG' below is about Debian's Google Benchmark" \
         "library (libbenchmark1debian), not scratchkit (a Release build)"
  fi
  # shellcheck disable=SC2086
  "$dir/perf/scratchkit-bench" ${SCRATCHKIT_BENCH_ARGS:-} \
    --benchmark_out="$results/bench.json" --benchmark_out_format=json >"$results/bench.txt"
  say "summary"
  # Debian's interpreter, which has the python3-matplotlib installed above
  # (a python3 earlier on PATH, pyenv's say, may not).
  py=python3
  [ ! -x /usr/bin/python3 ] || py=/usr/bin/python3
  # report.py's last line counts the checks (correctness) and the speed targets met and MISSED apart.
  "$py" "$src/perf/report.py" "$results/bench.json" --out "$results" --plots --require-pass | tee "$results/report.txt"
  say "result: $(tail -n 1 "$results/report.txt" | sed 's/^report.py: //'); summary and legend in $results/summary.md"
else
  # The suite runs with scratch bounds checks on, with the MPI mode (a 2-rank test), and on a
  # shared library (the install test installs it and runs consumers on it). Where nvcc is
  # found, the native CUDA kernels are built too, whatever Kokkos has: they compile and link
  # without a GPU (their tests then report Skipped), which keeps CI checking them.
  cuda=()
  if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDACXX:-}" ]; then
    cuda=(-DSCRATCHKIT_ENABLE_CUDA=ON)
  else
    echo "quickstart: no nvcc (PATH, /usr/local/cuda/bin, CUDACXX): the native CUDA kernels are not built"
  fi
  # The test units at -O1 (SCRATCHKIT_TEST_OPT_LEVEL), and the library's kernels they check too
  # (SCRATCHKIT_LIBRARY_OPT_LEVEL): the same IEEE arithmetic as -O3 (no fast-math), quicker to
  # compile; the bench and examples keep Release's -O3, as `main` does everywhere.
  configure_and_build "$dir" -DSCRATCHKIT_ENABLE_TESTS=ON -DSCRATCHKIT_ENABLE_BOUNDS_CHECK=ON \
    -DSCRATCHKIT_ENABLE_MPI=ON -DBUILD_SHARED_LIBS=ON -DSCRATCHKIT_TEST_OPT_LEVEL=1 \
    -DSCRATCHKIT_LIBRARY_OPT_LEVEL=1 "${cuda[@]}"
  say "test suite"
  rc=0
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" || rc=$?
  if [ "$rc" = 0 ]; then
    say "result: every test passed or was skipped (ctest --test-dir $dir)"
  else
    say "result: ctest exit $rc: see the failures above, or $dir/Testing/Temporary/LastTest.log"
    exit "$rc"
  fi
fi
