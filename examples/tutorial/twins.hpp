// SPDX-License-Identifier: BSD-3-Clause
/// The tutorial's CUDA twins as the layer examples call them: host arrays in
/// and out (each twin copies to the GPU, runs its `__shared__` kernel, copies
/// back). Plain C++: no CUDA or Kokkos header, defined only in builds with
/// SCRATCHKIT_ENABLE_CUDA (TUTORIAL_CUDA_TWIN).
#pragma once

void sgemm_cuda_host(int M, int N, int K, const float* A, const float* B, float* C);
void stencil2d_cuda_host(int ny, int nx, const float* in, const float* w5, float* out, int bx, int by);
void scan256_cuda_host(int n, const int* in, int* out);
