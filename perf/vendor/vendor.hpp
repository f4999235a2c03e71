// SPDX-License-Identifier: BSD-3-Clause
/// Vendor baselines for the perf harness: cuBLAS GEMM, CUB DeviceReduce and
/// DeviceHistogram, and a device-to-device copy (vendor.cu); CUB's
/// block and warp collectives in the tile kernels (vendor_collectives.cu). Built into
/// the bench (target scratchkit_vendor), not into the installed library.
///
/// Same conventions as the native kernels: device pointers, row-major,
/// `stream` a cudaStream_t. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {
namespace vendor {

/// C = alpha*A*B + beta*C (row-major) through cublasSgemm/cublasDgemm with
/// CUBLAS_DEFAULT_MATH: true FP32/FP64, no TF32 tensor-core math.
void gemm(int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C, void* stream);
void gemm(int M, int N, int K, double alpha, const double* A, const double* B, double beta, double* C, void* stream);

/// cub::DeviceReduce::Sum; returns the sum (synchronises the stream). Temporary
/// storage is cached between calls (not allocated inside the timed region).
float reduce_sum(const float* x, std::size_t n, void* stream);
double reduce_sum(const double* x, std::size_t n, void* stream);
std::int32_t reduce_sum(const std::int32_t* x, std::size_t n, void* stream);
std::int64_t reduce_sum(const std::int64_t* x, std::size_t n, void* stream);

/// cub::DeviceHistogram::HistogramEven with `bins` bins over [lo, hi).
void histogram_even(const float* values, std::size_t n, int bins, double lo, double hi, std::uint32_t* counts,
                    void* stream);
void histogram_even(const double* values, std::size_t n, int bins, double lo, double hi, std::uint32_t* counts,
                    void* stream);

/// The tile kernels of kernels/collectives.hpp on CUB (sums; 256 threads x 4
/// or 8 items, UnsupportedError for other shapes): BlockLoad and BlockStore
/// (warp transpose) around BlockScan; LoadDirectStriped and BlockReduce;
/// WarpScan; BlockLoad + BlockStore of the exchange variant. Asynchronous.
void tile_scan(ScanKind kind, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items,
               void* stream);
void tile_scan(ScanKind kind, const float* in, float* out, std::size_t n, int threads, int items, void* stream);
void tile_reduce(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items, void* stream);
void tile_reduce(const float* in, float* out, std::size_t n, int threads, int items, void* stream);
void tile_warp_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, void* stream);
void tile_warp_scan(const float* in, float* out, std::size_t n, int threads, void* stream);
void tile_exchange(ExchangeVariant v, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads,
                   int items, void* stream);

/// cudaMemcpyAsync device to device: the copy-bandwidth ceiling.
void copy(void* dst, const void* src, std::size_t bytes, void* stream);

}  // namespace vendor
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
