// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA gemm (src/cuda/gemm.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The device code both twins run is in scratchkit/detail/gemm/, the blockings
/// a default call runs in scratchkit/tuning/gemm.hpp; the overload that runs the
/// layer's pick (Backend::native's) is internal: detail/gemm/native.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {
namespace native {
namespace cuda {

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
/// register_blocked runs the blocking detail::gemm_pick chooses with the
/// current device's room (its opt-in shared memory per block and per SM, its
/// SMs for split-K).
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr);
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
