// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 1, CUDA twin: the classic 16x16 tiled SGEMM with __shared__ tiles
// (C = A B, row-major M x K, K x N, M x N). Its layer version: sgemm.cpp.
#include "twin_support.cuh"
#include "twins.hpp"

// [count-begin]
__global__ void sgemm_kernel(int M, int N, int K, const float* A, const float* B, float* C) {
  __shared__ float As[16][16], Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += 16) {
    As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

void sgemm_cuda(int M, int N, int K, const float* A, const float* B, float* C) {
  sgemm_kernel<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(M, N, K, A, B, C);
}
// [count-end]

void sgemm_cuda_host(int M, int N, int K, const float* A, const float* B, float* C) {
  const tutorial::DeviceArray<float> a(std::size_t(M) * K, A), b(std::size_t(K) * N, B), c(std::size_t(M) * N);
  sgemm_cuda(M, N, K, a.p, b.p, c.p);
  c.to_host(C);
}
