// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA 2-D stencil (src/cuda/stencil_2d.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, contiguous arrays; `stream` is a cudaStream_t (nullptr: the default stream);
/// asynchronous. Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants/stencil_2d.hpp>

namespace scratchkit {
namespace native {
namespace cuda {

/// One 2-D stencil of radius R (1 or 2) on row-major n0 x n1 arrays `in` and `out` with row-major
/// (2R + 1) x (2R + 1) weights `w`: kernels/stencil_2d.hpp's operation, bit for bit. `transposed`:
/// the arrays are the column-major arrays of the call seen row-major (in(i, j) is in[j * n1 + i]
/// for an n1 x n0 call), and the taps are summed in the call's order.
void stencil_2d(Stencil2DShape shape, Boundary boundary, int R, const float* in, const float* w, float* out, int n0,
                int n1, bool transposed, void* stream = nullptr);
void stencil_2d(Stencil2DShape shape, Boundary boundary, int R, const double* in, const double* w, double* out,
                int n0, int n1, bool transposed, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
