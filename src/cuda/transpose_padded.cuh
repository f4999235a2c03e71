// SPDX-License-Identifier: BSD-3-Clause
/// TransposeVariant::tiled_padded in CUDA with __shared__ (internal): the twin of
/// detail::transpose_padded in include/scratchkit/kernels/transpose.hpp, same tile,
/// tile order and accesses. A template on the blocking, so that
/// perf/tune/transpose_tune.cu can time several; src/cuda/transpose.cu runs the default one.
#pragma once

#include <scratchkit/detail/transpose/blocking.hpp>
#include <scratchkit/native/transpose.hpp>

#include "check.cuh"

#include <climits>
#include <cstddef>
#include <sstream>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// Blocks of dim3(32, Bk::BR), a 1-D grid of nbx * nby tiles of Bk::ER x Bk::EC whose
/// origins sit shift_r rows above and shift_c columns left of in's (0, 0)
/// (scratchkit::detail::transpose_tile_shift): nbx = ceil((cols + shift_c) / EC),
/// nby = ceil((rows + shift_r) / ER), and the first tile row and column are partial
/// when their shift is not 0.
template <class S, class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    transpose_padded_kernel(int rows, int cols, int nbx, int nby, int shift_r, int shift_c, const S* __restrict__ in,
                            S* __restrict__ out) {
  constexpr int ER = Bk::ER, EC = Bk::EC, BR = Bk::BR, P = EC + 1;
  __shared__ S tile[ER * P];
  int tile_row, tile_col;
  scratchkit::detail::transpose_tile_of(static_cast<int>(blockIdx.x), nbx, nby, Bk::G, tile_row, tile_col);
  // The shifts put the tile rows read (rows of in, from col0) and written (rows of out,
  // from row0) on 256-byte boundaries where in's and out's alignment allow.
  const int row0 = tile_row * ER - shift_r, col0 = tile_col * EC - shift_c;
  const int tx = threadIdx.x, ty = threadIdx.y;
  // Interior tiles (all but the first and last tile row and column) need no bounds checks:
  // every load is then unpredicated and all ER * EC / (32 * BR) of them are issued before
  // the first shared store (with a predicate per load, the 7 predicate registers would
  // split them into batches of 4-7 and cut the bytes in flight).
  const bool full = row0 >= 0 && col0 >= 0 && row0 + ER <= rows && col0 + EC <= cols;
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
        if (scratchkit::detail::transpose_inside(r, c, rows, cols))
          tile[(ty + j) * P + tx + i] = in[static_cast<long long>(r) * cols + c];
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
        if (scratchkit::detail::transpose_inside(r, c, rows, cols))
          out[static_cast<long long>(c) * rows + r] = tile[(tx + i) * P + ty + j];
      }
    }
  }
}

/// Launches transpose_padded_kernel<S, Bk> on `s` with the given tile-origin shifts
/// (each in [0, tile edge); rows, cols in (0, INT_MAX / 2]). Throws ShapeError when the
/// tiles outnumber the blocks a launch can have.
template <class S, class Bk>
void launch_transpose_padded(int rows, int cols, int shift_r, int shift_c, const S* in, S* out, cudaStream_t s) {
  const int nbx = ceil_div(static_cast<long long>(cols) + shift_c, Bk::EC);
  const int nby = ceil_div(static_cast<long long>(rows) + shift_r, Bk::ER);
  const long long tiles = static_cast<long long>(nbx) * nby;
  if (tiles > INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::transpose: rows=" << rows << " cols=" << cols << " needs " << tiles
       << " tiles of " << Bk::ER << " x " << Bk::EC << ", more than the " << INT_MAX << " blocks a launch can have";
    throw ShapeError(os.str());
  }
  const dim3 block(32, Bk::BR), grid(static_cast<unsigned>(tiles));
  transpose_padded_kernel<S, Bk><<<grid, block, 0, s>>>(rows, cols, nbx, nby, shift_r, shift_c, in, out);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("transpose_tiled_padded");
}

/// As above, the shifts from the pointers' alignment (scratchkit::detail::transpose_tile_shift):
/// tile rows of in (contiguous along a row of cols elements) and of out (rows elements) on
/// 256-byte boundaries.
template <class S, class Bk>
void launch_transpose_padded(int rows, int cols, const S* in, S* out, cudaStream_t s) {
  using scratchkit::detail::transpose_tile_shift;
  const int shift_c = transpose_tile_shift(in, sizeof(S) * static_cast<std::size_t>(cols), sizeof(S), Bk::EC);
  const int shift_r = transpose_tile_shift(out, sizeof(S) * static_cast<std::size_t>(rows), sizeof(S), Bk::ER);
  launch_transpose_padded<S, Bk>(rows, cols, shift_r, shift_c, in, out, s);
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
