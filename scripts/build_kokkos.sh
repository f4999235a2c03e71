#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds and installs a Kokkos from a source tarball (../shared/deps/ beside the checkout by
# default) outside the project tree, for CI and the GPU machine. A second call with the same
# tarball and options reuses the install (a stamp in the prefix records both).
#
#   scripts/build_kokkos.sh VERSION BACKEND [PREFIX]
#
#   VERSION  5.0.99 or 4.7.01 (the tarballs in the deps folder), or any version whose tarball
#            kokkos-VERSION*.tar.gz is there
#   BACKEND  openmp  Serial + OpenMP (g++)
#            serial  Serial only (g++): the host comparison's Serial set
#            cuda    Serial + CUDA for CUDA_ARCH (nvcc_wrapper as the C++ compiler)
#            hip     Serial + HIP for HIP_ARCH (hipcc)
#   PREFIX   install prefix (default $SCRATCHKIT_KOKKOS_CACHE/kokkos-VERSION-BACKEND, where
#            SCRATCHKIT_KOKKOS_CACHE defaults to ~/.cache/scratchkit)
#
# Environment: KOKKOS_DEPS (the tarball folder), JOBS (default: all cores), CUDA_ARCH
# (default HOPPER90), HIP_ARCH (default AMD_GFX90A), KOKKOS_EXTRA_ARGS (more cmake arguments).
# Deprecated code is off (Kokkos_ENABLE_DEPRECATED_CODE_4=OFF) so that a project using removed
# API fails to compile. Prints the prefix as its last line. Exit 3: no tarball for VERSION.
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '6,19p' "$0" >&2
  exit 2
fi
version="$1"
backend="$2"
src_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="${KOKKOS_DEPS:-$src_dir/../shared/deps}"
cache="${SCRATCHKIT_KOKKOS_CACHE:-$HOME/.cache/scratchkit}"
prefix="${3:-$cache/kokkos-$version-$backend}"
jobs="${JOBS:-$(nproc)}"

tarball="$(ls "$deps"/kokkos-"$version"*.tar.gz 2>/dev/null | head -n 1 || true)"
if [ -z "$tarball" ]; then
  echo "build_kokkos: no kokkos-$version*.tar.gz in $deps" >&2
  exit 3
fi

args=(-DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF
      -DBUILD_SHARED_LIBS=ON)
case "$version" in
  5.*) args+=(-DCMAKE_CXX_STANDARD=20) ;;
  *) args+=(-DCMAKE_CXX_STANDARD=17) ;;
esac
work="$(mktemp -d "${TMPDIR:-/tmp}/kokkos-$version-$backend.XXXXXX")"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
kokkos_src="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
case "$backend" in
  openmp) args+=(-DKokkos_ENABLE_OPENMP=ON) ;;
  serial) ;;
  cuda)
    # nvcc_wrapper is copied into the prefix by Kokkos' install; the build uses the source's.
    args+=(-DKokkos_ENABLE_CUDA=ON "-DKokkos_ARCH_${CUDA_ARCH:-HOPPER90}=ON"
           "-DCMAKE_CXX_COMPILER=$kokkos_src/bin/nvcc_wrapper")
    export NVCC_WRAPPER_DEFAULT_COMPILER="${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}"
    [ -n "${CUDA_ROOT:-}" ] || export CUDA_ROOT=/usr/local/cuda
    export PATH="$CUDA_ROOT/bin:$PATH"
    ;;
  hip)
    args+=(-DKokkos_ENABLE_HIP=ON "-DKokkos_ARCH_${HIP_ARCH:-AMD_GFX90A}=ON" -DKokkos_ENABLE_ROCTHRUST=OFF
           -DCMAKE_CXX_COMPILER=hipcc)
    ;;
  *)
    echo "build_kokkos: unknown backend '$backend' (openmp, serial, cuda, hip)" >&2
    exit 2
    ;;
esac
# shellcheck disable=SC2206
args+=(${KOKKOS_EXTRA_ARGS:-})

stamp="$(sha256sum "$tarball" | cut -c1-16) ${args[*]}"
stamp="${stamp//$kokkos_src/<src>}"
if [ -f "$prefix/.scratchkit-stamp" ] && [ "$(cat "$prefix/.scratchkit-stamp")" = "$stamp" ]; then
  echo "build_kokkos: reusing $prefix ($(basename "$tarball"), $backend)" >&2
  echo "$prefix"
  exit 0
fi

echo "build_kokkos: building $(basename "$tarball") ($backend) into $prefix with $jobs jobs" >&2
rm -rf "$prefix"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
start=$SECONDS
cmake -S "$kokkos_src" -B "$work/build" "${generator[@]}" -DCMAKE_INSTALL_PREFIX="$prefix" "${args[@]}" >"$work/configure.log" 2>&1 ||
  { tail -n 40 "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j "$jobs" >"$work/build.log" 2>&1 || { tail -n 60 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" >/dev/null
echo "$stamp" >"$prefix/.scratchkit-stamp"
echo "build_kokkos: built in $((SECONDS - start)) s" >&2
echo "$prefix"
