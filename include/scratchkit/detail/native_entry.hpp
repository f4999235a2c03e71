// SPDX-License-Identifier: BSD-3-Clause
/// The native twins' entry points that Backend::native calls (internal).
///
/// The same functions as the pointer API of the native/<kernel>.hpp headers, declared
/// here without default arguments so that the layer includes nothing from
/// native/; a signature that drifts from its definition fails to link.
#pragma once

#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

// gemm (native/gemm.hpp)
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream, std::size_t shared_limit);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta, double* C,
          void* stream, std::size_t shared_limit);
// reduce (native/reduce.hpp)
float reduce(ReduceVariant v, ReduceOp op, const float* x, std::size_t n, void* stream);
double reduce(ReduceVariant v, ReduceOp op, const double* x, std::size_t n, void* stream);
std::int32_t reduce(ReduceVariant v, ReduceOp op, const std::int32_t* x, std::size_t n, void* stream);
std::int64_t reduce(ReduceVariant v, ReduceOp op, const std::int64_t* x, std::size_t n, void* stream);
// stencil_1d (native/stencil_1d.hpp)
void stencil_1d(Stencil1DVariant v, const float* in, const float* w, int R, float* out, int n, void* stream);
void stencil_1d(Stencil1DVariant v, const double* in, const double* w, int R, double* out, int n, void* stream);
// stencil_3d (native/stencil_3d.hpp)
void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream, std::size_t shared_limit);
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0, double c1,
                    void* stream, std::size_t shared_limit);
// transpose (native/transpose.hpp)
void transpose(TransposeVariant v, int rows, int cols, const float* in, float* out, void* stream);
void transpose(TransposeVariant v, int rows, int cols, const double* in, double* out, void* stream);
// histogram (native/histogram.hpp)
void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream);
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream);
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream);
// collectives (native/collectives.hpp)
void tile_scan(ScanKind kind, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items,
               void* stream);
void tile_scan(ScanKind kind, const float* in, float* out, std::size_t n, int threads, int items, void* stream);
void tile_scan(ScanKind kind, const double* in, double* out, std::size_t n, int threads, int items, void* stream);
void tile_reduce(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items, void* stream);
void tile_reduce(const float* in, float* out, std::size_t n, int threads, int items, void* stream);
void tile_reduce(const double* in, double* out, std::size_t n, int threads, int items, void* stream);
void tile_warp_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, void* stream);
void tile_warp_scan(const float* in, float* out, std::size_t n, int threads, void* stream);
void tile_warp_scan(const double* in, double* out, std::size_t n, int threads, void* stream);
void tile_exchange(ExchangeVariant v, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items,
                   void* stream);
void tile_exchange(ExchangeVariant v, const double* in, double* out, std::size_t n, int threads, int items,
                   void* stream);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
