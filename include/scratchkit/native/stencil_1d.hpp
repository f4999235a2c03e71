// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA stencil 1d (src/cuda/stencil_1d.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// out[i] = sum_{j=0}^{2R} w[j] * in[i + j - R], zero outside [0, n).
void stencil_1d(Stencil1DVariant v, const float* in, const float* w, int R, float* out, int n,
                void* stream = nullptr);
void stencil_1d(Stencil1DVariant v, const double* in, const double* w, int R, double* out, int n,
                void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
