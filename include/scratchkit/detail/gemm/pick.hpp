// SPDX-License-Identifier: BSD-3-Clause
/// Which of the GEMM policy's blockings an M x N product runs with on a GPU (both twins pick alike).
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/tuning/gemm.hpp>

namespace scratchkit {
namespace detail {

/// The GEMM policy of this build's GPU (tuning::GemmPolicy at tuning::cuda_arch):
/// what both twins run on a GPU.
template <class Scalar>
using GemmDefaultBlocking = tuning::GemmPolicy<tuning::cuda_arch, Scalar>;

/// 128 x 128 tiles of an M x N product C: what the default blockings' picks count.
SCRATCHKIT_HOST_DEVICE constexpr long long gemm_tiles_128(int M, int N) {
  // In 64 bits before the rounding: M + 127 overflows int for M above INT_MAX - 127.
  return ((static_cast<long long>(M) + 127) / 128) * ((static_cast<long long>(N) + 127) / 128);
}

/// Which of GemmDefaultBlocking<double>'s large blockings an M x N product runs with (both twins):
/// true for small_type.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_mma_pick_small(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::small_below_tiles;
}

/// True where an M x N product of double runs GemmDefaultBlocking<double>::tiny_type on a GPU (both
/// twins): fewer 128 x 128 tiles than tiny_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_tiny(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::tiny_below_tiles;
}

/// True where an M x N double product runs GemmDefaultBlocking<double>::few_type on a GPU (both twins) when
/// neither small_type nor large_type fits the launch: fewer 128 x 128 tiles than fallback_few_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_fallback_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::fallback_few_below_tiles;
}

/// True where an M x N product of Scalar runs GemmDefaultBlocking<Scalar>::few_type on a GPU (both twins):
/// fewer 128 x 128 tiles than few_below_tiles (double: and not gemm_pick_tiny, where tiny_type fits).
template <class Scalar>
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<Scalar>::few_below_tiles;
}

}  // namespace detail
}  // namespace scratchkit
