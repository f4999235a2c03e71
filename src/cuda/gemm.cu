// SPDX-License-Identifier: BSD-3-Clause
// GEMM by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/gemm.hpp.
// Same variants, same operations in the same order, so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int T = 16;

template <class S>
__global__ void gemm_naive_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                  S beta, S* __restrict__ C) {
  const int r = blockIdx.y * T + threadIdx.y, c = blockIdx.x * T + threadIdx.x;
  if (r < M && c < N) {
    S acc = 0;
    for (int k = 0; k < K; ++k) acc += A[static_cast<long long>(r) * K + k] * B[static_cast<long long>(k) * N + c];
    const long long i = static_cast<long long>(r) * N + c;
    C[i] = beta == S(0) ? alpha * acc : alpha * acc + beta * C[i];
  }
}

template <class S>
__global__ void gemm_tiled_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                  S beta, S* __restrict__ C) {
  __shared__ S As[T * T];
  __shared__ S Bs[T * T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
  S acc = S(0);
  for (int k0 = 0; k0 < K; k0 += T) {
    const int ar = row0 + ty, ac = k0 + tx;
    As[ty * T + tx] = (ar < M && ac < K) ? A[static_cast<long long>(ar) * K + ac] : S(0);
    const int br = k0 + ty, bc = col0 + tx;
    Bs[ty * T + tx] = (br < K && bc < N) ? B[static_cast<long long>(br) * N + bc] : S(0);
    __syncthreads();
    S s = acc;
    for (int kk = 0; kk < T; ++kk) s += As[ty * T + kk] * Bs[kk * T + tx];
    acc = s;
    __syncthreads();
  }
  const int r = row0 + ty, c = col0 + tx;
  if (r < M && c < N) {
    const long long i = static_cast<long long>(r) * N + c;
    C[i] = beta == S(0) ? alpha * acc : alpha * acc + beta * C[i];
  }
}

template <class S>
void gemm_impl(GemmVariant v, int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, void* stream) {
  if (M < 0 || N < 0 || K < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::gemm: negative extent M=" << M << " N=" << N << " K=" << K;
    throw ShapeError(os.str());
  }
  if (M == 0 || N == 0) return;
  const dim3 block(T, T), grid(detail::ceil_div(N, T), detail::ceil_div(M, T));
  const cudaStream_t s = detail::as_stream(stream);
  switch (v) {
    case GemmVariant::naive:
      gemm_naive_kernel<S><<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_naive");
      return;
    case GemmVariant::tiled:
      gemm_tiled_kernel<S><<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_tiled");
      return;
    default: break;
  }
  throw UnsupportedError(std::string("scratchkit::native::cuda::gemm: variant ") + name(v) + " is not implemented");
}

}  // namespace

void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream);
}
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
