// SPDX-License-Identifier: BSD-3-Clause
/// The CUDA twins of the bench's user-style stencils (perf/bench_user.cpp: user_stencil_2d_5pt,
/// user_stencil_3d_7pt), written as a CUDA programmer writes them (user_stencils.cu). Built into
/// the bench (target scratchkit_bench_twins), not into the installed library.
///
/// Device pointers; x is the unit-stride axis, `sy` (`sz`) the elements from one y row (z plane)
/// to the next, offsets in int as a CUDA user indexes (grids of fewer than 2^31 elements); `stream`
/// a cudaStream_t. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>

namespace scratchkit {
namespace native {
namespace cuda {
namespace bench {

/// out = w0 c + w1 west + w2 east + w3 north + w4 south, zero outside the nx x ny grid: 32 x 8
/// blocks, the 34 x 10 halo tile in __shared__, loaded by a strided loop with a bounds test.
void user_stencil_2d_5pt(const float* in, const float* w5, float* out, int nx, int ny, int sy, void* stream);
void user_stencil_2d_5pt(const double* in, const double* w5, double* out, int nx, int ny, int sy, void* stream);

/// out = c0 c + c1 (sum of the 6 neighbours, in the order x-1, x+1, y-1, y+1, z-1, z+1) inside an
/// n^3 grid, out = in on its faces: 32 x 4 x 4 blocks, the 34 x 6 x 6 halo tile in __shared__.
void user_stencil_3d_7pt(const float* in, float* out, int n, int sy, int sz, float c0, float c1, void* stream);
void user_stencil_3d_7pt(const double* in, double* out, int n, int sy, int sz, double c0, double c1, void* stream);

}  // namespace bench
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
