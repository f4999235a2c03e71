// SPDX-License-Identifier: BSD-3-Clause
/// The native 3-D stencil twin running a given pick (internal): what Backend::native calls, apart
/// from native/stencil_3d.hpp so that the public declarations name no detail:: type.
#pragma once

#include <scratchkit/detail/stencil_3d/pick.hpp>
#include <scratchkit/native/stencil_3d.hpp>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// native::cuda::stencil_3d_7pt with z_streaming running `pick` (tile_2d_halo ignores it):
/// scratchkit::stencil_3d_7pt passes the layer's pick (scratchkit::detail::stencil3d_zs_layer_pick),
/// so that Backend::native runs the layer's shape on any launch path. Defined in src/cuda/stencil_3d.cu.
void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream, const scratchkit::detail::Stencil3DPick& pick);
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream, const scratchkit::detail::Stencil3DPick& pick);

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
