// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA gemm (src/cuda/gemm.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace detail {

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HOST_DEVICE __host__ __device__
#else
#define SCRATCHKIT_HOST_DEVICE
#endif

/// alpha*acc + beta*c_old, written so that every compiler rounds it the same
/// way: the product alpha*acc rounded once, then one fused multiply-add.
/// (Left as an expression, nvcc may contract it either as fma(alpha, acc,
/// beta*c) or as fma(beta, c, alpha*acc) depending on the surrounding code,
/// and the layer and native twins would then differ in the last bit.)
template <class S>
SCRATCHKIT_HOST_DEVICE inline S gemm_epilogue(S alpha, S acc, S beta, S c_old) {
  const S ab = alpha * acc;
#if defined(__CUDA_ARCH__)
  return ::fma(beta, c_old, ab);
#else
  return std::fma(beta, c_old, ab);
#endif
}

}  // namespace detail
}  // namespace scratchkit

namespace scratchkit {
namespace detail {

/// Blocking of GemmVariant::register_blocked, shared by the layer and the
/// native twin so that both run the same tiles and launch bounds.
///
/// A block of `threads` = 32 * (BM/WM) * (BN/WN) threads computes a BM x BN
/// tile of C, walking K in slices of BK. Each warp owns a WM x WN warp tile;
/// its lanes form an LY x LX grid (LY = WM/TM, LX = WN/TN, LY * LX = 32) and
/// each lane holds a TM x TN thread tile in registers, split into 16-byte
/// fragments interleaved with its neighbours' so that every shared-memory
/// read is one conflict-free 16-byte vector. MinBlocks is the
/// __launch_bounds__ occupancy hint (blocks per SM) given on both twins.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MinBlocks_ = 1>
struct GemmBlocking {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int LY = WM / TM, LX = WN / TN;   ///< lanes of a warp along M and N
  static constexpr int WY = BM / WM, WX = BN / WN;   ///< warps of a block along M and N
  static constexpr int threads = 32 * WY * WX;       ///< 1-D block of this many threads
  static_assert(BM > 0 && BN > 0 && BK > 0 && TM > 0 && TN > 0 && MinBlocks_ > 0, "GemmBlocking: positive sizes");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % TM == 0 && WN % TN == 0,
                "GemmBlocking: BM, BN multiples of WM, WN; WM, WN multiples of TM, TN");
  static_assert(LY * LX == 32, "GemmBlocking: a warp tile must hold 32 thread tiles");
  static_assert(threads <= 1024, "GemmBlocking: at most 1024 threads per block");
};

/// The blocking GemmVariant::register_blocked runs with, per type (both
/// twins). To switch, change the `type` line; perf/gemm_tune.cu times the
/// candidates against cuBLAS on the GPU.
template <class Scalar>
struct GemmDefaultBlocking;
template <>
struct GemmDefaultBlocking<float> {
  // 128 x 128 x 8, 256 threads, 8 x 8 floats per thread, 2 blocks per SM (<= 128 registers).
  using type = GemmBlocking<128, 128, 8, 32, 64, 8, 8, 2>;
};
template <>
struct GemmDefaultBlocking<double> {
  // 128 x 64 x 8, 256 threads, 8 x 4 doubles per thread, 2 blocks per SM.
  using type = GemmBlocking<128, 64, 8, 32, 32, 8, 4, 2>;
};

}  // namespace detail

namespace native {
namespace cuda {

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
