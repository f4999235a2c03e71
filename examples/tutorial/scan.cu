// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 3, CUDA twin: an inclusive scan of each 256-element block of an
// int array (Hillis-Steele in shared memory: log2(256) = 8 rounds, each
// reading a neighbour's partial sum before a barrier and adding it after).
// Layer version: scan.cpp.
#include "twin_support.cuh"
#include "twins.hpp"

// [count-begin]
__global__ void scan256_kernel(int n, const int* in, int* out) {
  __shared__ int s[256];
  const int i = blockIdx.x * 256 + threadIdx.x;
  int v = s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < 256; off *= 2) {
    const int add = threadIdx.x >= off ? s[threadIdx.x - off] : 0;
    __syncthreads();
    s[threadIdx.x] = v += add;
    __syncthreads();
  }
  if (i < n) out[i] = v;
}

void scan256_cuda(int n, const int* in, int* out) {
  scan256_kernel<<<(n + 255) / 256, 256>>>(n, in, out);
}
// [count-end]

void scan256_cuda_host(int n, const int* in, int* out) {
  const tutorial::DeviceArray<int> i(n, in), o(n);
  scan256_cuda(n, i.p, o.p);
  o.to_host(out);
}
