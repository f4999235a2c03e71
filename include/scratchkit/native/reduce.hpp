// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA reduce (src/cuda/reduce.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/reduce/stream.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// Reduces n elements of x with op; returns the result (synchronises the stream).
/// x may start anywhere (a 16-byte vector loop peels the misaligned head).
float reduce(ReduceVariant v, ReduceOp op, const float* x, std::size_t n, void* stream = nullptr);
double reduce(ReduceVariant v, ReduceOp op, const double* x, std::size_t n, void* stream = nullptr);
std::int32_t reduce(ReduceVariant v, ReduceOp op, const std::int32_t* x, std::size_t n, void* stream = nullptr);
std::int64_t reduce(ReduceVariant v, ReduceOp op, const std::int64_t* x, std::size_t n, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
