// SPDX-License-Identifier: BSD-3-Clause
/// Helpers shared by the native tuners (gemm_tune.cu, stencil3d_tune.cu,
/// transpose_tune.cu): error checks, hashed inputs, a max-abs-difference check
/// on the device and a cudaEvent median. Define SCRATCHKIT_TUNE_NAME (the tool's
/// name in error messages) before including it.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#ifndef SCRATCHKIT_TUNE_NAME
#error "define SCRATCHKIT_TUNE_NAME before including tune_common.cuh"
#endif

namespace scratchkit {
namespace tune {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, SCRATCHKIT_TUNE_NAME ": %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
#define TUNE_CUDA(expr) ::scratchkit::tune::cuda_check((expr), #expr)

/// --help or -h among the arguments: prints "usage: <argv[0]> <usage>" and returns true (the
/// tool then exits 0 without touching the GPU; tests/install's installed_cuda_tools starts
/// every installed tool this way, which is enough for the loader to find the CUDA runtime).
inline bool wants_help(int argc, char** argv, const char* usage) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s %s\n", argv[0], usage);
      return true;
    }
  return false;
}

/// The 64-bit hash of (seed, i) behind the tuners' inputs: the same inputs every run.
__device__ __forceinline__ unsigned long long input_hash(long long i, unsigned seed) {
  unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 0x9e3779b97f4a7c15ULL ^ seed;
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 29;
  return h;
}

/// x[i] uniform in [-1, 1) from input_hash(i, seed).
template <class T>
__global__ void fill_kernel(T* x, long long n, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    x[i] = static_cast<T>(static_cast<double>(input_hash(i, seed) >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

/// *out = max_i |x[i] - y[i]| (y null: max |x[i]|); non-negative doubles order like their bits; NaN wins.
template <class T>
__global__ void max_abs_diff_kernel(const T* x, const T* y, long long n, unsigned long long* out) {
  double m = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double d = y ? fabs(static_cast<double>(x[i]) - static_cast<double>(y[i])) : fabs(static_cast<double>(x[i]));
    m = d > m || d != d ? d : m;
  }
  atomicMax(out, static_cast<unsigned long long>(__double_as_longlong(m)));
}

template <class T>
double max_abs_diff(const T* x, const T* y, long long n) {
  static unsigned long long* slot = nullptr;
  if (!slot) TUNE_CUDA(cudaMalloc(&slot, sizeof(*slot)));
  TUNE_CUDA(cudaMemset(slot, 0, sizeof(*slot)));
  max_abs_diff_kernel<T><<<1024, 256>>>(x, y, n, slot);
  TUNE_CUDA(cudaGetLastError());
  unsigned long long bits = 0;
  TUNE_CUDA(cudaMemcpy(&bits, slot, sizeof(bits), cudaMemcpyDeviceToHost));
  double d;
  static_assert(sizeof(d) == sizeof(bits), "64-bit double");
  std::memcpy(&d, &bits, sizeof(d));
  return d;
}

/// Median time in ms of `run` over `reps` runs (cudaEvents), after `warmups`
/// untimed ones; `prepare` runs before each of them, untimed.
template <class P, class F>
double median_ms(const P& prepare, const F& run, int warmups, int reps) {
  cudaEvent_t a, b;
  TUNE_CUDA(cudaEventCreate(&a));
  TUNE_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < warmups; ++i) {
    prepare();
    run();
  }
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    prepare();
    TUNE_CUDA(cudaEventRecord(a));
    run();
    TUNE_CUDA(cudaEventRecord(b));
    TUNE_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    TUNE_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  TUNE_CUDA(cudaEventDestroy(a));
  TUNE_CUDA(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace tune
}  // namespace scratchkit
