// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA reduce (src/cuda/reduce.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
///
/// Also holds the grid arithmetic both twins share, so the layer and the
/// native kernels split the data alike (bit-equal results).
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/kernels/variants.hpp>

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

namespace detail {

/// Threads per block of every reduction variant (a power of two).
constexpr int reduce_block = 256;
/// Blocks per SM the grid-stride kernels are compiled for (launch bounds
/// <reduce_block, reduce_min_blocks>: 32 registers a thread) and that their
/// grid fills: 2048 threads per SM on Hopper, Ampere A100, Volta.
constexpr int reduce_min_blocks = 8;
/// Independent 16-byte loads each thread issues per grid-stride step.
constexpr int reduce_loads = 4;
/// Elements one block of ReduceVariant::tree consumes per pass.
constexpr int reduce_per_block = 2 * reduce_block;

/// Grid of the grid-stride variants (warp_shuffle, grid_stride_atomic) over n
/// elements of elem_bytes bytes: enough blocks for one step of reduce_loads
/// vectors a thread, at most fill_blocks (the device once full), at least 1.
inline int reduce_grid(std::size_t n, std::size_t elem_bytes, long long fill_blocks) {
  const std::size_t per_block = static_cast<std::size_t>(reduce_block) * reduce_loads * (16 / elem_bytes);
  long long need = static_cast<long long>((n + per_block - 1) / per_block);
  if (need > fill_blocks) need = fill_blocks;
  return static_cast<int>(need < 1 ? 1 : need);
}

/// Largest number of elements one accumulator lane of a grid-stride thread
/// takes (each an `op` into the lane): the steps of reduce_loads vectors, plus
/// the peeled head and tail that thread 0 adds.
inline long long reduce_lane_chain(std::size_t n, std::size_t elem_bytes, int grid) {
  const std::size_t vectors = n / (16 / elem_bytes);
  const std::size_t per_step = static_cast<std::size_t>(grid) * reduce_block * reduce_loads;
  return static_cast<long long>((vectors + per_step - 1) / per_step) * reduce_loads + 2;
}

}  // namespace detail
}  // namespace scratchkit
