// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA stencil 3d (src/cuda/stencil_3d.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/stencil_3d/z_streaming.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// One 7-point stencil step on an nz x ny x nx grid, element (z, y, x) at
/// in[(z*ny + y)*nx + x]: interior points get
/// c0*u + c1*(x-1 + x+1 + y-1 + y+1 + z-1 + z+1) summed in that order, boundary
/// points are copied. `in` and `out` must not overlap.
/// `shared_limit`: z_streaming picks no shape that needs more shared memory
/// per block than this (Stencil3DZsWide: 93 / 75 KB). scratchkit::stencil_3d_7pt
/// passes what the layer's shape needs (detail::stencil3d_zs_native_shared_limit), so
/// that Backend::native runs the layer's shape on any launch path; the
/// default leaves the pick to the row length alone.
void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
