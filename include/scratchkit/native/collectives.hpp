// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA tile kernels of the block collectives (src/cuda/collectives.cu): plain pointer-and-size API.
///
/// Device pointers, contiguous arrays; `stream` is a cudaStream_t (nullptr:
/// the default stream); asynchronous. Errors throw scratchkit::Error.
/// Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/collectives/tile_shape.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// Each tile of threads*items consecutive elements scanned (sum) on its own:
/// out = the tile's inclusive or exclusive (from 0) prefix sums; the last tile may be partial.
void tile_scan(ScanKind kind, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items,
               void* stream = nullptr);
void tile_scan(ScanKind kind, const float* in, float* out, std::size_t n, int threads, int items,
               void* stream = nullptr);
void tile_scan(ScanKind kind, const double* in, double* out, std::size_t n, int threads, int items,
               void* stream = nullptr);

/// out[k] = the sum of tile k (threads*items elements, loaded striped); ceil(n / tile) outputs.
void tile_reduce(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, int items,
                 void* stream = nullptr);
void tile_reduce(const float* in, float* out, std::size_t n, int threads, int items, void* stream = nullptr);
void tile_reduce(const double* in, double* out, std::size_t n, int threads, int items, void* stream = nullptr);

/// Each warp of blocks of `threads` threads scans (inclusive sum) its lanes' elements, one a lane.
void tile_warp_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, int threads, void* stream = nullptr);
void tile_warp_scan(const float* in, float* out, std::size_t n, int threads, void* stream = nullptr);
void tile_warp_scan(const double* in, double* out, std::size_t n, int threads, void* stream = nullptr);

/// out = in, each tile loaded striped into blocked items and stored back
/// striped through the exchange of variant v (the load/store round trip).
void tile_exchange(ExchangeVariant v, const std::int32_t* in, std::int32_t* out, std::size_t n, int threads,
                   int items, void* stream = nullptr);
void tile_exchange(ExchangeVariant v, const double* in, double* out, std::size_t n, int threads, int items,
                   void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
