// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA transpose (src/cuda/transpose.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/transpose/blocking.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// out = in transposed: in is rows x cols, out is cols x rows (out[c * rows + r] = in[r * cols + c]).
/// in and out must not overlap. Throws ShapeError on negative or too large extents.
void transpose(TransposeVariant v, int rows, int cols, const float* in, float* out, void* stream = nullptr);
void transpose(TransposeVariant v, int rows, int cols, const double* in, double* out, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
