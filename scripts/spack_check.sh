#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks the spack recipe (spack/spack_repo/scratchkit) and spack.yaml with a
# real spack, offline, in a scratch configuration of its own. Not part of CI.
#
#   scripts/spack_check.sh SPACK_ROOT SPACK_PACKAGES [WORK_DIR]
#
#   SPACK_ROOT      a checkout of spack 1.x (github.com/spack/spack)
#   SPACK_PACKAGES  a checkout of its builtin packages (github.com/spack/spack-packages)
#   WORK_DIR        scratch folder for config, mirror, installs (default /tmp/scratchkit-spack-check)
#
# Environment:
#   SPACK_PYTHON          a Python with clingo (python3 -m venv v && v/bin/pip install clingo)
#   COMPILER_WRAPPER_GIT  git dir of github.com/spack/compiler-wrapper: its v1.1.0 is put into a
#                         local source mirror (spack 1.x builds this small package for every
#                         compiled package). Not needed when WORK_DIR/mirror already has it.
#   HOST_KOKKOS_PREFIX    a Serial Kokkos for the ~cuda install (default /usr: Debian 12's
#                         libtrilinos-kokkos-dev, Kokkos 3.4.01)
#   HOST_KOKKOS_SPEC      its spec (default "kokkos@3.4.01 ~cuda +serial cxxstd=17")
#   CUDA_KOKKOS_PREFIX    a Kokkos built with CUDA for cuda_arch=90 for the +cuda install; without
#                         it the +cuda install and test are left out (reported, not hidden)
#   CUDA_KOKKOS_SPEC      its spec (default "kokkos@4.6.01 +cuda +cmake_lang +serial cuda_arch=90 cxxstd=17 ~shared")
#   CUDA_KOKKOS5_PREFIX   a Kokkos 5 built with nvcc_wrapper (Kokkos_ENABLE_CUDA, HOPPER90, Serial,
#                         shared), declared as a +cuda +wrapper external, as sites register their
#                         own Kokkos; without it that install and test are left out (reported)
#   CUDA_KOKKOS5_SPEC     its spec (default "kokkos@5.0.99 +cuda +wrapper +serial cuda_arch=90 cxxstd=20 +shared")
#   KOKKOS_TARBALL        the Kokkos 4.7.01 source that spack builds Kokkos from (default
#                         SRC/../shared/deps/kokkos-4.7.01.tar.gz, a tree with the top folder
#                         kokkos-4.7.01/, e.g. `git archive --format=tar.gz --prefix=kokkos-4.7.01/`);
#                         without it the installs on a Kokkos that spack builds are left out (reported)
#   CUDA_PREFIX           the CUDA toolkit (default /usr/local/cuda)
#
# What it runs, each step logged with its command and stopping at the first failure:
#   spack audit packages scratchkit; spack info; spack spec of every spec the README names, of
#   specs that must be refused and of +kokkos_internals_driver on a Kokkos 4.6.01 external;
#   spack.yaml loaded and concretized as a copy (with `spack develop -p`, as its comments say);
#   in an environment with the Kokkos externals: spack develop -p <this checkout> scratchkit@main,
#   spack install of scratchkit ~cuda (Kokkos 3.4.01), +cuda cuda_arch=90 on the CUDA Kokkos 4.6.01
#   and on the +cuda +wrapper Kokkos 5, spack test run of each;
#   in an environment where spack builds Kokkos 4.7.01 itself (from a local source mirror):
#   spack install of scratchkit ~cuda ^kokkos@4.7.01 +openmp and +cuda cuda_arch=90 ^kokkos@4.7.01
#   (spack builds kokkos +cuda +wrapper with CUDA), spack test run of each.
#
# Kokkos externals are declared without dependencies (spack's default for externals): spack does
# not build them, and so its Kokkos recipe's conflict for building kokkos@:4.7.0 with CUDA 13
# (conflicts("^cuda@13:", when="@:4.7.0")) does not apply to a Kokkos 4.6.01 that was built with
# CUDA 13 outside spack. Nothing here downloads anything: KOKKOS_TARBALL is put into the local
# source mirror under the sha256 that spack's Kokkos recipe gives 4.7.01; where its bytes are not
# that release tarball's (the one in ../shared/deps is the 4.7.01 master merge commit, packed by
# git archive), spack installs it with --no-checksum, which the log states.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '3,10p' "$0" >&2
  exit 2
fi
spack_root="$(cd "$1" && pwd)"
packages_root="$(cd "$2" && pwd)"
work="${3:-/tmp/scratchkit-spack-check}"
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
host_kokkos_prefix="${HOST_KOKKOS_PREFIX:-/usr}"
host_kokkos_spec="${HOST_KOKKOS_SPEC:-kokkos@3.4.01 ~cuda +serial cxxstd=17}"
cuda_kokkos_prefix="${CUDA_KOKKOS_PREFIX:-}"
cuda_kokkos_spec="${CUDA_KOKKOS_SPEC:-kokkos@4.6.01 +cuda +cmake_lang +serial cuda_arch=90 cxxstd=17 ~shared}"
cuda5_kokkos_prefix="${CUDA_KOKKOS5_PREFIX:-}"
cuda5_kokkos_spec="${CUDA_KOKKOS5_SPEC:-kokkos@5.0.99 +cuda +wrapper +serial cuda_arch=90 cxxstd=20 +shared}"
kokkos_tarball="${KOKKOS_TARBALL:-$src/../shared/deps/kokkos-4.7.01.tar.gz}"
cuda_prefix="${CUDA_PREFIX:-/usr/local/cuda}"

mkdir -p "$work"
work="$(cd "$work" && pwd)"
export SPACK_USER_CONFIG_PATH="$work/user-config"
export SPACK_USER_CACHE_PATH="$work/user-cache"
export SPACK_SYSTEM_CONFIG_PATH="$work/system-config"
unset SPACK_DISABLE_LOCAL_CONFIG SPACK_ENV
spack="$spack_root/bin/spack"

step() { printf '\n== %s   [+%d s]\n' "$*" "$SECONDS"; }
run() {
  printf '$ %s\n' "$*"
  "$@"
}
# refused SPEC [SPACK_ARGS...]: `spack SPACK_ARGS spec SPEC` must fail; shows spack's reason.
refused() {
  local s="$1"
  shift
  printf '$ spack %sspec %s   (must fail)\n' "${*:+$* }" "$s"
  # shellcheck disable=SC2086  # a spec is several words
  if "$spack" "$@" spec $s >"$work/refused.log" 2>&1; then
    cat "$work/refused.log"
    echo "spack_check: '$s' concretized" >&2
    exit 1
  fi
  grep -A3 -E "^==> Error" "$work/refused.log" | head -n 4
}

step "scratchkit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$src" diff --quiet HEAD 2>/dev/null || echo ' (+ uncommitted changes)')," \
  "spack $(git -C "$spack_root" rev-parse HEAD 2>/dev/null || echo '?')," \
  "spack-packages $(git -C "$packages_root" rev-parse HEAD 2>/dev/null || echo '?')"
# shellcheck disable=SC1091
echo "machine: $(uname -srm), $(. /etc/os-release && echo "$PRETTY_NAME"), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "python for spack: ${SPACK_PYTHON:-python3}"

# ---------------------------------------------------------------- scratch configuration
# A clean run: no install tree, build stage or test stage of an earlier one.
rm -rf "$SPACK_USER_CONFIG_PATH" "$SPACK_SYSTEM_CONFIG_PATH" "$work/env-install" "$work/env-build" "$work/env-spec46" \
  "$work/env-yaml" "$work/test-stage" "$work/opt" "$work/stage"
mkdir -p "$SPACK_USER_CONFIG_PATH" "$SPACK_SYSTEM_CONFIG_PATH" "$work/mirror"
cat >"$SPACK_USER_CONFIG_PATH/config.yaml" <<EOF
config:
  install_tree: {root: $work/opt}
  build_stage: [$work/stage]
  test_stage: $work/test-stage
  source_cache: $work/source-cache
  misc_cache: $work/misc-cache
  build_jobs: 2
EOF
cat >"$SPACK_USER_CONFIG_PATH/bootstrap.yaml" <<EOF
bootstrap:
  trusted: {github-actions-v2: false, github-actions-v0.6: false, spack-install: false}
EOF
cat >"$SPACK_USER_CONFIG_PATH/repos.yaml" <<EOF
repos:
  builtin: $packages_root/repos/spack_repo/builtin
EOF
cat >"$SPACK_USER_CONFIG_PATH/mirrors.yaml" <<EOF
mirrors:
  local:
    url: file://$work/mirror
    binary: false
EOF

# compiler-wrapper 1.1.0: a git archive of the tag is byte for byte the release tarball.
cw_sha=a07b35081d14b0729090bc1e5790a5dda2d5b997e064c62da39a1224ee249b2a
cw_file="$work/mirror/_source-cache/archive/${cw_sha:0:2}/$cw_sha.tar.gz"
if [ ! -f "$cw_file" ] && [ -n "${COMPILER_WRAPPER_GIT:-}" ]; then
  mkdir -p "$(dirname "$cw_file")"
  git -C "$COMPILER_WRAPPER_GIT" archive --format=tar --prefix=compiler-wrapper-1.1.0/ v1.1.0 | gzip -n >"$cw_file"
fi
if [ ! -f "$cw_file" ] || [ "$(sha256sum <"$cw_file" | cut -d' ' -f1)" != "$cw_sha" ]; then
  echo "spack_check: no compiler-wrapper 1.1.0 source in $work/mirror: set COMPILER_WRAPPER_GIT" >&2
  exit 1
fi

# Kokkos 4.7.01 for spack to build: under the sha256 of spack's recipe, the only place spack 1.x
# looks for it in a mirror (_source-cache/archive/<2 hex>/<sha256>.tar.gz).
k_sha="$(sed -n 's/.*version("4\.7\.01", sha256="\([0-9a-f]\{64\}\)".*/\1/p' \
  "$packages_root/repos/spack_repo/builtin/packages/kokkos/package.py")"
k_file=""
no_checksum=()
if [ -f "$kokkos_tarball" ] && [ -n "$k_sha" ]; then
  k_file="$work/mirror/_source-cache/archive/${k_sha:0:2}/$k_sha.tar.gz"
  mkdir -p "$(dirname "$k_file")"
  cp -f "$kokkos_tarball" "$k_file"
  k_have="$(sha256sum <"$k_file" | cut -d' ' -f1)"
  echo "kokkos@4.7.01 source for the local mirror: $(cd "$(dirname "$kokkos_tarball")" && pwd)/$(basename "$kokkos_tarball")"
  echo "  top folder $(tar tzf "$k_file" | head -n 1), sha256 $k_have; spack's recipe: $k_sha"
  if [ "$k_have" != "$k_sha" ]; then
    no_checksum=(--no-checksum)
    echo "  not the release tarball's bytes: the installs that build Kokkos use --no-checksum"
  fi
fi

# Core functionalities (clingo) must pass; "Binary packages" (patchelf, for relocating
# binary caches) is not needed to build from source and may fail.
run "$spack" bootstrap status || true
"$spack" python -c 'import clingo' 
step "externals"
run "$spack" external find --not-buildable cmake gcc gmake
run "$spack" external find --not-buildable --path "$cuda_prefix/bin" cuda

# ---------------------------------------------------------------- the recipe
step "the README's repository command"
run "$spack" repo add "$src/spack/spack_repo/scratchkit"
run "$spack" audit packages scratchkit
run "$spack" info scratchkit

step "spec of every spec the README names"
# Kokkos here is whatever spack would build (no Kokkos external in this scope).
readme_specs=(
  "scratchkit +cuda cuda_arch=90"
  "scratchkit ~cuda ^kokkos+openmp"
  "scratchkit +cuda cuda_arch=90 +mpi +benchmarks +tests"
)
for s in "${readme_specs[@]}"; do
  # shellcheck disable=SC2086  # a spec is several words
  run "$spack" spec -I -l $s
done
step "specs that must be refused"
# (the fourth: spack's Kokkos recipe does not build kokkos@:4.7.0 with CUDA 13; the fifth and
# sixth: the driver on Kokkos internals needs Kokkos 4.0-4.6, so with CUDA 13 only an external fits;
# the last: a Kokkos with CUDA needs +wrapper or +cmake_lang, whether scratchkit has +cuda or not)
for s in "scratchkit +cuda" "scratchkit +cuda cuda_arch=80,90" "scratchkit ~cuda +kokkos_internals_driver" \
  "scratchkit +cuda cuda_arch=90 ^kokkos@4.6.01" "scratchkit +cuda cuda_arch=90 +kokkos_internals_driver" \
  "scratchkit +cuda cuda_arch=90 +kokkos_internals_driver ^kokkos@4.7.01" "scratchkit +shared ^kokkos~shared~pic" \
  "scratchkit ~cuda ^kokkos+cuda~wrapper~cmake_lang cuda_arch=90"; do
  refused "$s"
done
# The one way to +kokkos_internals_driver with CUDA 13: a Kokkos 4.6 that spack did not build.
step "the driver variant on the Kokkos 4.6.01 external (concretization only; its prefix is not used)"
mkdir -p "$work/env-spec46"
cat >"$work/env-spec46/spack.yaml" <<EOF
spack:
  specs: []
  view: false
  packages:
    kokkos:
      buildable: false
      externals:
      - spec: "$cuda_kokkos_spec"
        prefix: ${cuda_kokkos_prefix:-$work/not-installed/kokkos-4.6.01}
EOF
run "$spack" -e "$work/env-spec46" spec -I -l scratchkit +cuda cuda_arch=90 ~shared +kokkos_internals_driver "^${cuda_kokkos_spec%% *}"

step "spack.yaml: loads and concretizes (a copy; its comments' commands)"
mkdir -p "$work/env-yaml"
cp "$src/spack.yaml" "$work/env-yaml/spack.yaml"
ln -s "$src/spack" "$work/env-yaml/spack"
run "$spack" -e "$work/env-yaml" develop -p "$src" scratchkit@main
run "$spack" -e "$work/env-yaml" concretize -f

# ---------------------------------------------------------------- installs
step "installs: an environment with the Kokkos externals and this checkout as the source"
mkdir -p "$work/env-install"
specs=("scratchkit@main ~cuda ^${host_kokkos_spec%% *}")
externals="      - spec: \"$host_kokkos_spec\"
        prefix: $host_kokkos_prefix"
left_out=()
if [ -n "$cuda_kokkos_prefix" ]; then
  # ~shared: a shared libscratchkit needs a shared or +pic Kokkos (the recipe says so).
  specs+=("scratchkit@main +cuda cuda_arch=90 ~shared ^${cuda_kokkos_spec%% *}")
  externals+="
      - spec: \"$cuda_kokkos_spec\"
        prefix: $cuda_kokkos_prefix"
else
  left_out+=("CUDA_KOKKOS_PREFIX not set: +cuda on the Kokkos 4.6.01 external")
fi
if [ -n "$cuda5_kokkos_prefix" ]; then
  # a +wrapper external has no kokkos-nvcc-wrapper node: the recipe takes <prefix>/bin/nvcc_wrapper
  specs+=("scratchkit@main +cuda cuda_arch=90 ^${cuda5_kokkos_spec%% *}")
  externals+="
      - spec: \"$cuda5_kokkos_spec\"
        prefix: $cuda5_kokkos_prefix"
else
  left_out+=("CUDA_KOKKOS5_PREFIX not set: +cuda on the +cuda +wrapper Kokkos 5 external")
fi
{
  echo "spack:"
  echo "  specs:"
  for s in "${specs[@]}"; do echo "  - \"$s\""; done
  cat <<EOF
  concretizer:
    unify: false
  view: false
  packages:
    kokkos:
      buildable: false
      externals:
$externals
EOF
} >"$work/env-install/spack.yaml"
run cat "$work/env-install/spack.yaml"
run "$spack" -e "$work/env-install" develop -p "$src" scratchkit@main
run "$spack" -e "$work/env-install" concretize -f
if [ -n "$cuda5_kokkos_prefix" ]; then
  refused "scratchkit@main +cuda cuda_arch=90 +kokkos_internals_driver ^${cuda5_kokkos_spec%% *}" -e "$work/env-install"
fi
run "$spack" -e "$work/env-install" install --fail-fast

step "spack test run (Kokkos externals)"
for s in "${specs[@]}"; do
  # shellcheck disable=SC2086  # a spec is several words
  run "$spack" -e "$work/env-install" test run --alias "$(echo "$s" | tr -c 'a-z0-9\n' '_')" $s
done

# ---------------------------------------------------------------- spack builds Kokkos
build_specs=()
if [ -n "$k_file" ]; then
  build_specs=("scratchkit@main ~cuda ^kokkos@4.7.01 +openmp" "scratchkit@main +cuda cuda_arch=90 ^kokkos@4.7.01")
  step "installs: spack builds kokkos@4.7.01 from the local mirror${no_checksum[*]:+ (${no_checksum[*]}: its sha256 above)}"
  mkdir -p "$work/env-build"
  {
    echo "spack:"
    echo "  specs:"
    for s in "${build_specs[@]}"; do echo "  - \"$s\""; done
    # The mirror holds Kokkos 4.7.01 only: nvcc_wrapper (kokkos-nvcc-wrapper, whose versions are
    # Kokkos' and which spack otherwise takes at its newest, 5.1.1) from that source too.
    cat <<EOF
  concretizer:
    unify: false
  view: false
  packages:
    kokkos-nvcc-wrapper:
      require: "@4.7.01"
EOF
  } >"$work/env-build/spack.yaml"
  run cat "$work/env-build/spack.yaml"
  run "$spack" -e "$work/env-build" develop -p "$src" scratchkit@main
  run "$spack" -e "$work/env-build" concretize -f
  run "$spack" -e "$work/env-build" install --fail-fast "${no_checksum[@]}"

  step "spack test run (Kokkos built by spack)"
  for s in "${build_specs[@]}"; do
    # shellcheck disable=SC2086  # a spec is several words
    run "$spack" -e "$work/env-build" test run --alias "$(echo "$s" | tr -c 'a-z0-9\n' '_')" $s
  done
else
  left_out+=("no $kokkos_tarball (KOKKOS_TARBALL): the installs on a Kokkos that spack builds")
fi

step "test results"
run "$spack" -e "$work/env-install" test results -l
for s in "${left_out[@]}"; do echo "spack_check: LEFT OUT: $s"; done
step "done in $SECONDS s"
# spack develop leaves a build-<arch>-<hash> link to its build stage in the checkout.
find "$src" -maxdepth 1 -type l -name 'build-*' -lname "$work/stage/*" -print -delete
