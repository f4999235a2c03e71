// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's MAT_MAT_SHARED as a hand-written CUDA kernel with __shared__ tiles: the
// twin of mat_mat_shared.cpp (the same operations in the same order, so the same bits). C = A B for
// row-major N x N doubles, one 16 x 16 block per 16 x 16 tile of C; the accumulator in a register.
#include "twin_support.cuh"

// [count-begin]
constexpr int TL_SZ = 16;  // the suite's tile edge

__global__ void __launch_bounds__(TL_SZ * TL_SZ)
    mat_mat_shared_kernel(int N, const double* __restrict__ A, const double* __restrict__ B, double* __restrict__ C) {
  __shared__ double As[TL_SZ][TL_SZ], Bs[TL_SZ][TL_SZ];
  const int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * TL_SZ + ty, col = blockIdx.x * TL_SZ + tx;
  double acc = 0.0;
  for (int k0 = 0; k0 < N; k0 += TL_SZ) {
    As[ty][tx] = row < N && k0 + tx < N ? A[row * N + k0 + tx] : 0.0;
    Bs[ty][tx] = k0 + ty < N && col < N ? B[(k0 + ty) * N + col] : 0.0;
    __syncthreads();
    for (int n = 0; n < TL_SZ; ++n) acc += As[ty][n] * Bs[n][tx];
    __syncthreads();
  }
  if (row < N && col < N) C[row * N + col] = acc;
}

void mat_mat_shared_cuda(int N, const double* A, const double* B, double* C, void* stream) {
  const int nb = (N + TL_SZ - 1) / TL_SZ;
  mat_mat_shared_kernel<<<dim3(nb, nb), dim3(TL_SZ, TL_SZ), 0, static_cast<cudaStream_t>(stream)>>>(N, A, B, C);
  peer::cuda_check_launch("mat_mat_shared_cuda");
}
// [count-end]
