#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# CPU time of a user's translation unit against a configured scratchkit build tree: each unit in
# scripts/user-unit/ (one call of scratchkit::gemm; the same with a plain Kokkos kernel) compiled
# with the exact command the tree uses for examples/tutorial/sgemm.cpp (compiler, flags, include
# paths), ETI on (as installed) and with -DSCRATCHKIT_ETI=0. Prints one line per unit and mode:
#   unit=<name> eti=<0|1> cpu_s=<user+sys> wall_s=<s>
#
#   scripts/user_unit_times.sh BUILD_DIR [REPEATS]     (REPEATS default 2; the last one is printed)
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/build.ninja" ]; then
  echo "usage: $0 BUILD_DIR [REPEATS]   (BUILD_DIR: a configured Ninja build tree)" >&2
  exit 2
fi
dir="$(cd "$1" && pwd)"
reps="${2:-2}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
obj="examples/tutorial/CMakeFiles/tutorial_sgemm.dir/sgemm.cpp.o"
cmd="$(ninja -C "$dir" -t commands "$obj" | tail -n 1)"
case "$cmd" in *sgemm.cpp*) ;; *) echo "no compile command for $obj in $dir" >&2; exit 1 ;; esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# the dependency-file flags name the example's outputs; drop them
cmd="$(printf '%s' "$cmd" | sed -E 's/ -MD -MT [^ ]+ -MF [^ ]+//; s/ -MD//; s/ -MF [^ ]+//')"
for unit in "$src"/scripts/user-unit/*.cpp; do
  name="$(basename "$unit" .cpp)"
  for eti in 1 0; do
    extra=""
    [ "$eti" = 1 ] || extra="-DSCRATCHKIT_ETI=0"
    c="$(printf '%s' "$cmd" | sed -E "s# -o [^ ]+# -o $tmp/$name.o#; s# -c [^ ]+# $extra -c $unit#")"
    for _ in $(seq "$reps"); do
      TIMEFORMAT="%U %S %R"
      t="$( { time (cd "$dir" && eval "$c" >/dev/null 2>"$tmp/err") ; } 2>&1 )" || { cat "$tmp/err" >&2; exit 1; }
    done
    read -r u s r <<<"$t"
    awk -v n="$name" -v e="$eti" -v u="$u" -v s="$s" -v r="$r" 'BEGIN { printf "unit=%s eti=%s cpu_s=%.1f wall_s=%.1f\n", n, e, u + s, r }'
  done
done
