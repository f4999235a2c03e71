// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA (__shared__) twins of the layer kernels, behind a plain pointer-and-size API.
///
/// No CUDA or Kokkos header is included: any translation unit may call these.
/// Pointers are device pointers (cudaMalloc, or a Kokkos CudaSpace View's
/// data()); matrices are row-major and contiguous. `stream` is a cudaStream_t
/// (nullptr: the default stream); calls are asynchronous unless they return
/// a value. Errors (a failed launch, a bad size) throw scratchkit::Error.
/// Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {

/// True when a CUDA device can be used (false on machines without a GPU).
bool device_available();
/// Name, compute capability and driver of device 0, e.g. "NVIDIA H100 80GB HBM3 (sm_90, driver 13000)".
std::string device_description();
/// cudaStreamSynchronize(stream), throwing on a pending error.
void synchronize(void* stream = nullptr);

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr);

/// Reduces n elements of x with op; returns the result (synchronises the stream).
float reduce(ReduceVariant v, ReduceOp op, const float* x, std::size_t n, void* stream = nullptr);
double reduce(ReduceVariant v, ReduceOp op, const double* x, std::size_t n, void* stream = nullptr);
std::int32_t reduce(ReduceVariant v, ReduceOp op, const std::int32_t* x, std::size_t n, void* stream = nullptr);
std::int64_t reduce(ReduceVariant v, ReduceOp op, const std::int64_t* x, std::size_t n, void* stream = nullptr);

/// out[i] = sum_{j=0}^{2R} w[j] * in[i + j - R], zero outside [0, n).
void stencil_1d(Stencil1DVariant v, const float* in, const float* w, int R, float* out, int n,
                void* stream = nullptr);
void stencil_1d(Stencil1DVariant v, const double* in, const double* w, int R, double* out, int n,
                void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
