// SPDX-License-Identifier: BSD-3-Clause
/// TransposeVariant::tiled_padded in CUDA with __shared__ (internal): the twin of
/// detail::transpose_padded in include/scratchkit/kernels/transpose.hpp, same tile,
/// tile order and accesses. A template on the blocking, so that
/// perf/transpose_tune.cu can time several; src/cuda/transpose.cu runs the default one.
#pragma once

#include <scratchkit/native/transpose.hpp>

#include "check.cuh"

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// Blocks of dim3(32, Bk::BR), a 1-D grid of nbx * nby tiles of Bk::ER x Bk::EC.
template <class S, class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    transpose_padded_kernel(int rows, int cols, int nbx, int nby, const S* __restrict__ in, S* __restrict__ out) {
  constexpr int ER = Bk::ER, EC = Bk::EC, BR = Bk::BR, P = EC + 1;
  __shared__ S tile[ER * P];
  int tile_row, tile_col;
  scratchkit::detail::transpose_tile_of(static_cast<int>(blockIdx.x), nbx, nby, Bk::G, tile_row, tile_col);
  const int row0 = tile_row * ER, col0 = tile_col * EC;
  const int tx = threadIdx.x, ty = threadIdx.y;
  // Interior tiles (all but the last tile row and column) need no bounds checks: every
  // load is then unpredicated and all ER * EC / (32 * BR) of them are issued before the
  // first shared store (with a predicate per load, the 7 predicate registers would split
  // them into batches of 4-7 and cut the bytes in flight).
  const bool full = row0 + ER <= rows && col0 + EC <= cols;
  // A warp reads 32 consecutive elements of one input row into a tile row.
  if (full) {
    const S* p = in + (static_cast<long long>(row0 + ty) * cols + col0 + tx);
#pragma unroll
    for (int j = 0; j < ER; j += BR) {
#pragma unroll
      for (int i = 0; i < EC; i += 32) tile[(ty + j) * P + tx + i] = p[static_cast<long long>(j) * cols + i];
    }
  } else {
#pragma unroll
    for (int j = 0; j < ER; j += BR) {
#pragma unroll
      for (int i = 0; i < EC; i += 32) {
        const int r = row0 + ty + j, c = col0 + tx + i;
        if (r < rows && c < cols) tile[(ty + j) * P + tx + i] = in[static_cast<long long>(r) * cols + c];
      }
    }
  }
  __syncthreads();
  // A warp reads a tile column (pitch EC + 1: 32 banks) and writes 32 consecutive
  // elements of one output row.
  if (full) {
    S* q = out + (static_cast<long long>(col0 + ty) * rows + row0 + tx);
#pragma unroll
    for (int j = 0; j < EC; j += BR) {
#pragma unroll
      for (int i = 0; i < ER; i += 32) q[static_cast<long long>(j) * rows + i] = tile[(tx + i) * P + ty + j];
    }
  } else {
#pragma unroll
    for (int j = 0; j < EC; j += BR) {
#pragma unroll
      for (int i = 0; i < ER; i += 32) {
        const int c = col0 + ty + j, r = row0 + tx + i;
        if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = tile[(tx + i) * P + ty + j];
      }
    }
  }
}

/// Launches transpose_padded_kernel<S, Bk> on `s` (rows, cols > 0, tile count checked by the caller).
template <class S, class Bk>
void launch_transpose_padded(int rows, int cols, const S* in, S* out, cudaStream_t s) {
  const int nbx = ceil_div(cols, Bk::EC), nby = ceil_div(rows, Bk::ER);
  const dim3 block(32, Bk::BR), grid(static_cast<unsigned>(static_cast<long long>(nbx) * nby));
  transpose_padded_kernel<S, Bk><<<grid, block, 0, s>>>(rows, cols, nbx, nby, in, out);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("transpose_tiled_padded");
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
