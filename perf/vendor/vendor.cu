// SPDX-License-Identifier: BSD-3-Clause
// Vendor baselines (cuBLAS, CUB) and the copy ceiling, for the perf harness.
#include "vendor.hpp"

#include "check.cuh"

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>

#include <mutex>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace vendor {
namespace {

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("scratchkit vendor: ") + what + " failed with cuBLAS status " + std::to_string(s));
}

cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t x = nullptr;
    check_cublas(cublasCreate(&x), "cublasCreate");
    check_cublas(cublasSetMathMode(x, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");  // no TF32
    return x;
  }();
  return h;
}

// Grow-only temporary storage for CUB, kept between calls.
void* temp(std::size_t bytes) {
  static void* p       = nullptr;
  static std::size_t n = 0;
  if (bytes > n) {
    if (p) SCRATCHKIT_CUDA_CHECK(cudaFree(p));
    SCRATCHKIT_CUDA_CHECK(cudaMalloc(&p, bytes));
    n = bytes;
  }
  return p;
}

template <class T>
T* scalar_slot() {
  static T* p = nullptr;
  if (!p) SCRATCHKIT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&p), sizeof(T)));
  return p;
}

template <class T>
T reduce_sum_impl(const T* x, std::size_t n, void* stream) {
  const cudaStream_t s = detail::as_stream(stream);
  T* out               = scalar_slot<T>();
  std::size_t bytes    = 0;
  SCRATCHKIT_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, x, out, static_cast<long long>(n), s));
  SCRATCHKIT_CUDA_CHECK(cub::DeviceReduce::Sum(temp(bytes), bytes, x, out, static_cast<long long>(n), s));
  T result{};
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(&result, out, sizeof(T), cudaMemcpyDeviceToHost, s));
  SCRATCHKIT_CUDA_CHECK(cudaStreamSynchronize(s));
  return result;
}

template <class T>
void histogram_impl(const T* values, std::size_t n, int bins, double lo, double hi, std::uint32_t* counts,
                    void* stream) {
  const cudaStream_t s = detail::as_stream(stream);
  std::size_t bytes    = 0;
  auto* c              = reinterpret_cast<unsigned int*>(counts);
  const T l = static_cast<T>(lo), h = static_cast<T>(hi);
  SCRATCHKIT_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, values, c, bins + 1, l, h,
                                                            static_cast<long long>(n), s));
  SCRATCHKIT_CUDA_CHECK(cub::DeviceHistogram::HistogramEven(temp(bytes), bytes, values, c, bins + 1, l, h,
                                                            static_cast<long long>(n), s));
}

}  // namespace

// Row-major C = A B is column-major C^T = B^T A^T: swap the operands.
void gemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C, void* stream) {
  check_cublas(cublasSetStream(handle(), detail::as_stream(stream)), "cublasSetStream");
  check_cublas(cublasSgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N),
               "cublasSgemm");
}
void gemm(int M, int N, int K, double alpha, const double* A, const double* B, double beta, double* C,
          void* stream) {
  check_cublas(cublasSetStream(handle(), detail::as_stream(stream)), "cublasSetStream");
  check_cublas(cublasDgemm(handle(), CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N),
               "cublasDgemm");
}

float reduce_sum(const float* x, std::size_t n, void* s) { return reduce_sum_impl(x, n, s); }
double reduce_sum(const double* x, std::size_t n, void* s) { return reduce_sum_impl(x, n, s); }
std::int32_t reduce_sum(const std::int32_t* x, std::size_t n, void* s) { return reduce_sum_impl(x, n, s); }
std::int64_t reduce_sum(const std::int64_t* x, std::size_t n, void* s) { return reduce_sum_impl(x, n, s); }

void histogram_even(const float* v, std::size_t n, int bins, double lo, double hi, std::uint32_t* c, void* s) {
  histogram_impl(v, n, bins, lo, hi, c, s);
}
void histogram_even(const double* v, std::size_t n, int bins, double lo, double hi, std::uint32_t* c, void* s) {
  histogram_impl(v, n, bins, lo, hi, c, s);
}

void copy(void* dst, const void* src, std::size_t bytes, void* stream) {
  SCRATCHKIT_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, detail::as_stream(stream)));
}

}  // namespace vendor
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
