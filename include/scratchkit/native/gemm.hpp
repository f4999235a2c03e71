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
/// native twin so that both run the same tiles: each block computes a BM x BN
/// tile of C, walking K in slices of BK; its (BN/TN) x (BM/TM) threads each
/// hold a TM x TN sub-block of C in registers.
template <int BM_, int BN_, int BK_, int TM_, int TN_>
struct GemmBlocking {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = TM_, TN = TN_;
  static constexpr int TX      = BN / TN;  ///< blockDim.x
  static constexpr int TY      = BM / TM;  ///< blockDim.y
  static constexpr int threads = TX * TY;
  static_assert(BM > 0 && BN > 0 && BK > 0 && TM > 0 && TN > 0 && BM % TM == 0 && BN % TN == 0,
                "GemmBlocking: BM, BN must be multiples of TM, TN");
  static_assert(threads <= 1024, "GemmBlocking: at most 1024 threads per block");
};

/// The blocking GemmVariant::register_blocked runs with, per type: 256
/// threads, 8 x 8 floats (4 x 4 doubles) of C per thread.
template <class Scalar>
struct GemmDefaultBlocking;
template <>
struct GemmDefaultBlocking<float> {
  using type = GemmBlocking<128, 128, 8, 8, 8>;
};
template <>
struct GemmDefaultBlocking<double> {
  using type = GemmBlocking<64, 64, 8, 4, 4>;
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
