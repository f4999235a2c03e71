// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's MASS3DPA, CUDA twin with __shared__ arrays: MFEM's 3-D mass operator by
// partial assembly, one Q1 x Q1 block per element. Its layer version: mass3dpa.cpp.
#include <cuda_runtime.h>

#include "twin_support.cuh"

// [count-begin]
constexpr int D1 = 4, Q1 = 5;  // dofs, quadrature points per direction
__device__ inline int at(int z, int y, int x, int ny, int nx) { return (z * ny + y) * nx + x; }

// 32 blocks of one warp each fill an SM (its block limit): at most 64 registers a thread
__global__ void __launch_bounds__(Q1 * Q1, 32)
    mass3dpa_kernel(const double* B, const double* Bt, const double* D, const double* X, double* Y) {
  // B as [q][d], Bt as [d][q]; two cubes reused under the phases' shapes [z][ny][nx]
  __shared__ double bq[Q1 * D1], bt[D1 * Q1], s0[Q1 * Q1 * Q1], s1[Q1 * Q1 * Q1];
  const int tx = threadIdx.x, ty = threadIdx.y, e = blockIdx.x;
  // x into s0 as [dz][dy][dx] (X's own layout); B, Bt
  for (int i = tx + Q1 * ty; i < D1 * D1 * D1; i += Q1 * Q1) s0[i] = X[i + D1 * D1 * D1 * e];
  if (ty < D1) {
    bq[tx * D1 + ty] = B[tx + Q1 * ty];   // B(q, d), q = x, d = y
    bt[ty * Q1 + tx] = Bt[tx + D1 * ty];  // Bt(d, q), read where the suite reads it
  }
  __syncthreads();
  if (ty < D1) {  // over dx: s1 as [dz][dy][qx]
    double u[D1] = {};
    for (int dx = 0; dx < D1; ++dx)
      for (int dz = 0; dz < D1; ++dz) u[dz] += s0[at(dz, ty, dx, D1, D1)] * bq[tx * D1 + dx];
    for (int dz = 0; dz < D1; ++dz) s1[at(dz, ty, tx, D1, Q1)] = u[dz];
  }
  __syncthreads();
  {  // over dy: s0 as [dz][qy][qx]
    double u[D1] = {};
    for (int dy = 0; dy < D1; ++dy)
      for (int dz = 0; dz < D1; ++dz) u[dz] += s1[at(dz, dy, tx, D1, Q1)] * bq[ty * D1 + dy];
    for (int dz = 0; dz < D1; ++dz) s0[at(dz, ty, tx, Q1, Q1)] = u[dz];
  }
  __syncthreads();
  {  // over dz, times D: s1 as [qz][qy][qx]
    double u[Q1] = {};
    for (int dz = 0; dz < D1; ++dz)
      for (int qz = 0; qz < Q1; ++qz) u[qz] += s0[at(dz, ty, tx, Q1, Q1)] * bq[qz * D1 + dz];
    for (int qz = 0; qz < Q1; ++qz) s1[at(qz, ty, tx, Q1, Q1)] = u[qz] * D[tx + Q1 * (ty + Q1 * (qz + Q1 * e))];
  }
  __syncthreads();
  if (tx < D1) {  // over qx: s0 as [qz][qy][dx]
    double u[Q1] = {};
    for (int qx = 0; qx < Q1; ++qx)
      for (int qz = 0; qz < Q1; ++qz) u[qz] += s1[at(qz, ty, qx, Q1, Q1)] * bt[tx * Q1 + qx];
    for (int qz = 0; qz < Q1; ++qz) s0[at(qz, ty, tx, Q1, D1)] = u[qz];
  }
  __syncthreads();
  if (tx < D1 && ty < D1) {  // over qy: s1 as [qz][dy][dx]
    double u[Q1] = {};
    for (int qy = 0; qy < Q1; ++qy)
      for (int qz = 0; qz < Q1; ++qz) u[qz] += s0[at(qz, qy, tx, Q1, D1)] * bt[ty * Q1 + qy];
    for (int qz = 0; qz < Q1; ++qz) s1[at(qz, ty, tx, D1, D1)] = u[qz];
  }
  __syncthreads();
  if (tx < D1 && ty < D1) {  // over qz: y +=
    double u[D1] = {};
    for (int qz = 0; qz < Q1; ++qz)
      for (int dz = 0; dz < D1; ++dz) u[dz] += s1[at(qz, ty, tx, D1, D1)] * bt[dz * Q1 + qz];
    for (int dz = 0; dz < D1; ++dz) Y[tx + D1 * (ty + D1 * (dz + D1 * e))] += u[dz];
  }
}

void mass3dpa_cuda(const double* B, const double* Bt, const double* D, const double* X, double* Y, int NE,
                   void* stream) {
  mass3dpa_kernel<<<NE, dim3(Q1, Q1), 0, static_cast<cudaStream_t>(stream)>>>(B, Bt, D, X, Y);
  peer::cuda_check_launch("mass3dpa_kernel");
}
// [count-end]
