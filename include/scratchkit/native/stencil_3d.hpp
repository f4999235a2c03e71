// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA stencil 3d (src/cuda/stencil_3d.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/stencil_3d/z_streaming.hpp; the
/// overload that runs the layer's pick (Backend::native's) is internal: detail/stencil_3d/native.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {
namespace native {
namespace cuda {

/// One 7-point stencil step on an nz x ny x nx grid, element (z, y, x) at
/// in[(z*ny + y)*nx + x]: interior points get
/// c0*u + c1*(x-1 + x+1 + y-1 + y+1 + z-1 + z+1) summed in that order, boundary
/// points are copied. `in` and `out` must not overlap.
/// z_streaming runs the shape detail::stencil3d_zs_pick chooses with the
/// current device's room (its opt-in shared memory per block).
void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream = nullptr);
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream = nullptr);
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
