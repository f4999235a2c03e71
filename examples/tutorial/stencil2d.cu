// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 2, CUDA twin: a 2-D 5-point stencil on an ny x nx grid (row-major,
// zero outside it), out = w0 c + w1 west + w2 east + w3 north + w4 south, with
// a halo tile and the 5 weights in two partitions of the dynamic shared
// memory; the block shape bx x by is chosen at run time. Layer version: stencil2d.cpp.
#include "twin_support.cuh"
#include "twins.hpp"

// [count-begin]
__global__ void stencil2d_kernel(int ny, int nx, const float* in, const float* w5, float* out) {
  extern __shared__ float smem[];
  const int bx = blockDim.x, by = blockDim.y, pitch = bx + 2;
  float* tile = smem;                   // (by + 2) x (bx + 2): the block's points and their halo
  float* w    = smem + (by + 2) * pitch;  // the 5 weights
  const int x0 = blockIdx.x * bx, y0 = blockIdx.y * by, rank = threadIdx.y * bx + threadIdx.x;
  if (rank < 5) w[rank] = w5[rank];
  for (int i = rank; i < (by + 2) * pitch; i += bx * by) {
    const int gy = y0 + i / pitch - 1, gx = x0 + i % pitch - 1;
    tile[i] = gy >= 0 && gy < ny && gx >= 0 && gx < nx ? in[gy * nx + gx] : 0.0f;
  }
  __syncthreads();
  const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
  if (y >= ny || x >= nx) return;
  const float* c = tile + (threadIdx.y + 1) * pitch + threadIdx.x + 1;
  out[y * nx + x] = w[0] * c[0] + w[1] * c[-1] + w[2] * c[1] + w[3] * c[-pitch] + w[4] * c[pitch];
}

void stencil2d_cuda(int ny, int nx, const float* in, const float* w5, float* out, int bx, int by) {
  const std::size_t bytes = ((by + 2) * (bx + 2) + 5) * sizeof(float);
  stencil2d_kernel<<<dim3((nx + bx - 1) / bx, (ny + by - 1) / by), dim3(bx, by), bytes>>>(ny, nx, in, w5, out);
}
// [count-end]

void stencil2d_cuda_host(int ny, int nx, const float* in, const float* w5, float* out, int bx, int by) {
  const tutorial::DeviceArray<float> i(std::size_t(ny) * nx, in), w(5, w5), o(std::size_t(ny) * nx);
  stencil2d_cuda(ny, nx, i.p, w.p, o.p, bx, by);
  o.to_host(out);
}
