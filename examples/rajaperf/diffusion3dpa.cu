// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's DIFFUSION3DPA, CUDA twin with __shared__ arrays: MFEM's 3-D diffusion
// operator by partial assembly, one 4 x 4 x 4 block per element. Its layer version: diffusion3dpa.cpp.
#include <cuda_runtime.h>

#include "twin_support.cuh"

// [count-begin]
constexpr int D1 = 3, Q1 = 4, NQ = Q1 * Q1 * Q1;  // dofs, quadrature points per direction; points per element

// B is symmetric about its centre, B(q, d) = B(Q1-1-q, D1-1-d), and G antisymmetric: one array holds B's
// entries at (q <= d) and G's, with a sign, at their mirrors. Layout [q][d], or transposed [d][q].
struct Half { int b, g; double s; };
__device__ inline int bg_at(int q, int d, bool tr) { return tr ? d * Q1 + q : q * D1 + d; }
__device__ inline Half half_at(int q, int d, bool tr) {
  const int own = bg_at(q, d, tr), mirror = bg_at(Q1 - 1 - q, D1 - 1 - d, tr);
  return q <= d ? Half{own, mirror, -1.0} : Half{mirror, own, 1.0};
}
// Thread (q, d) = (x, y) of plane z = 0 stores the pair (q, d), (Q1-1-q, D1-1-d) once: the second of the two.
__device__ inline void load_bg(double* bg, const double* B, const double* G, bool tr) {
  const int q = threadIdx.x, d = threadIdx.y;
  if (threadIdx.z != 0 || d >= D1 || d * Q1 + q < Q1 * D1 / 2) return;
  const Half h = half_at(q, d, tr);
  bg[h.b] = B[q + Q1 * d];
  bg[h.g] = G[q + Q1 * d] * h.s;
}

__global__ void __launch_bounds__(NQ)
    diffusion3dpa_kernel(const double* B, const double* G, const double* D, const double* X, double* Y) {
  __shared__ double bg[Q1 * D1], s0[3][NQ], s1[3][NQ];  // half of B and G; cubes reused under the phases' shapes
  const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z, rank = tx + Q1 * (ty + Q1 * tz), e = blockIdx.x;
  // x into s0[2] as [dz][dy][dx]; B, G
  if (tx < D1 && ty < D1 && tz < D1) s0[2][(tz * D1 + ty) * D1 + tx] = X[tx + D1 * (ty + D1 * (tz + D1 * e))];
  load_bg(bg, B, G, false);
  __syncthreads();
  if (ty < D1 && tz < D1) {  // over dx: s0[0], s0[1] = B x, G x as [dz][dy][qx]
    double u = 0.0, v = 0.0;
    for (int dx = 0; dx < D1; ++dx) {
      const Half h   = half_at(tx, dx, false);
      const double c = s0[2][(tz * D1 + ty) * D1 + dx];
      u += c * bg[h.b];
      v += c * bg[h.g] * h.s;
    }
    s0[0][(tz * D1 + ty) * Q1 + tx] = u;
    s0[1][(tz * D1 + ty) * Q1 + tx] = v;
  }
  __syncthreads();
  if (tz < D1) {  // over dy: s1[0..2] as [dz][qy][qx]
    double u = 0.0, v = 0.0, w = 0.0;
    for (int dy = 0; dy < D1; ++dy) {
      const Half h    = half_at(ty, dy, false);
      const double c0 = s0[0][(tz * D1 + dy) * Q1 + tx], c1 = s0[1][(tz * D1 + dy) * Q1 + tx];
      u += c1 * bg[h.b];
      v += c0 * bg[h.g] * h.s;
      w += c0 * bg[h.b];
    }
    s1[0][rank] = u;
    s1[1][rank] = v;
    s1[2][rank] = w;
  }
  __syncthreads();
  {  // over dz: the gradient at q = rank, times D(q), into s0[0..2] as [qz][qy][qx]
    double u = 0.0, v = 0.0, w = 0.0;
    for (int dz = 0; dz < D1; ++dz) {
      const Half h = half_at(tz, dz, false);
      u += s1[0][(dz * Q1 + ty) * Q1 + tx] * bg[h.b];
      v += s1[1][(dz * Q1 + ty) * Q1 + tx] * bg[h.b];
      w += s1[2][(dz * Q1 + ty) * Q1 + tx] * bg[h.g] * h.s;
    }
    const double* o = D + rank + NQ * 6 * e;  // the 6 entries of D(q), NQ apart
    s0[0][rank] = o[0] * u + o[NQ] * v + o[2 * NQ] * w;
    s0[1][rank] = o[NQ] * u + o[3 * NQ] * v + o[4 * NQ] * w;
    s0[2][rank] = o[2 * NQ] * u + o[4 * NQ] * v + o[5 * NQ] * w;
  }
  __syncthreads();
  load_bg(bg, B, G, true);  // B, G again, transposed
  __syncthreads();
  if (tx < D1) {  // over qx: s1[0..2] as [qz][qy][dx]
    double u = 0.0, v = 0.0, w = 0.0;
    for (int qx = 0; qx < Q1; ++qx) {
      const Half h = half_at(qx, tx, true);
      u += s0[0][(tz * Q1 + ty) * Q1 + qx] * bg[h.g] * h.s;
      v += s0[1][(tz * Q1 + ty) * Q1 + qx] * bg[h.b];
      w += s0[2][(tz * Q1 + ty) * Q1 + qx] * bg[h.b];
    }
    s1[0][(tz * Q1 + ty) * D1 + tx] = u;
    s1[1][(tz * Q1 + ty) * D1 + tx] = v;
    s1[2][(tz * Q1 + ty) * D1 + tx] = w;
  }
  __syncthreads();
  if (tx < D1 && ty < D1) {  // over qy: s0[0..2] as [qz][dy][dx]
    double u = 0.0, v = 0.0, w = 0.0;
    for (int qy = 0; qy < Q1; ++qy) {
      const Half h = half_at(qy, ty, true);
      u += s1[0][(tz * Q1 + qy) * D1 + tx] * bg[h.b];
      v += s1[1][(tz * Q1 + qy) * D1 + tx] * bg[h.g] * h.s;
      w += s1[2][(tz * Q1 + qy) * D1 + tx] * bg[h.b];
    }
    s0[0][(tz * D1 + ty) * D1 + tx] = u;
    s0[1][(tz * D1 + ty) * D1 + tx] = v;
    s0[2][(tz * D1 + ty) * D1 + tx] = w;
  }
  __syncthreads();
  if (tx < D1 && ty < D1 && tz < D1) {  // over qz: y += the three terms
    double u = 0.0, v = 0.0, w = 0.0;
    for (int qz = 0; qz < Q1; ++qz) {
      const Half h = half_at(qz, tz, true);
      u += s0[0][(qz * D1 + ty) * D1 + tx] * bg[h.b];
      v += s0[1][(qz * D1 + ty) * D1 + tx] * bg[h.b];
      w += s0[2][(qz * D1 + ty) * D1 + tx] * bg[h.g] * h.s;
    }
    Y[tx + D1 * (ty + D1 * (tz + D1 * e))] += u + v + w;
  }
}

void diffusion3dpa_cuda(const double* B, const double* G, const double* D, const double* X, double* Y, int NE,
                        void* stream) {
  diffusion3dpa_kernel<<<NE, dim3(Q1, Q1, Q1), 0, static_cast<cudaStream_t>(stream)>>>(B, G, D, X, Y);
  peer::cuda_check_launch("diffusion3dpa_cuda");
}
// [count-end]
