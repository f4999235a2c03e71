// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA gemm (src/cuda/gemm.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The device code both twins run is in scratchkit/detail/gemm/, the blockings
/// a default call runs in scratchkit/tuning/gemm.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>

namespace scratchkit {
namespace native {
namespace cuda {

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
/// `shared_limit`: register_blocked (double) picks no blocking whose stages
/// need more shared memory per block than this. scratchkit::gemm passes the
/// stages of the blocking the layer can launch (detail::gemm_native_shared_limit),
/// so that Backend::native runs the layer's blocking and the twins agree bit
/// for bit on any launch path; the default leaves the pick to the device.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
