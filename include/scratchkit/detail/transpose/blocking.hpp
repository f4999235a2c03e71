// SPDX-License-Identifier: BSD-3-Clause
/// Transpose code both twins share (internal): blockings, the tile grid and its alignment shift.
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/tuning/transpose.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace detail {

/// Blocking of TransposeVariant::tiled_padded (both twins and perf/raw_kokkos.hpp).
///
/// A block of 32 x BR threads moves an ER x EC tile of `in` (ER rows, EC
/// contiguous columns) through an ER x (EC + 1) padded shared tile: each
/// thread loads ER * EC / (32 * BR) elements before the barrier (all
/// independent, so they are in flight together) and stores as many after it.
/// Warps read 32 consecutive elements of an input row and write 32
/// consecutive elements of an output row; the padding makes the column reads
/// of the second phase conflict-free. Tiles are numbered in groups of G tile
/// rows, tile row fastest inside a group (transpose_tile_of), so that the
/// blocks resident at one time cover a squarish patch of `in` and of `out`
/// instead of a few full tile rows: both the reads and the writes then come
/// in runs of several KB per matrix row rather than 128-byte pieces spread
/// over the whole output. MinBlocks is the launch bound's blocks per SM.
template <int ER_, int EC_, int BR_, int G_, int MinBlocks_>
struct TransposeBlocking {
  static constexpr int ER = ER_, EC = EC_, BR = BR_, G = G_, min_blocks = MinBlocks_;
  static constexpr int threads = 32 * BR;
  static_assert(ER % 32 == 0 && EC % 32 == 0 && ER > 0 && EC > 0, "TransposeBlocking: tile edges multiples of 32");
  static_assert(BR > 0 && ER % BR == 0 && EC % BR == 0, "TransposeBlocking: BR divides both tile edges");
  static_assert(threads <= 1024 && G > 0 && G <= 32 && MinBlocks_ > 0,
                "TransposeBlocking: at most 1024 threads, G in [1, 32] (keeps G * tile columns in an int)");
};

/// TransposeBlocking spelled by the field names of tuning::TransposeSm90<T>::Tile.
template <class F>
using TransposeBlockingOf = TransposeBlocking<F::tile_rows, F::tile_cols, F::block_rows, F::group, F::min_blocks>;
/// The blocking TransposeVariant::tiled_padded runs with, per type (both twins):
/// the policy of this build's GPU (tuning/transpose.hpp); perf/tune/transpose_tune.cu
/// times the candidates against a device copy.
template <class Scalar>
struct TransposeDefaultBlocking {
  using type = TransposeBlockingOf<typename tuning::TransposePolicy<tuning::cuda_arch, Scalar>::Tile>;
};

/// Boundary tiled_padded aligns its tile rows to: 256 bytes, the span of a warp's
/// 64-float or 32-double read or write (two 128-byte lines; a tile row that straddles
/// a 256-byte boundary measured 4.5 points of copy slower on the H100 than an aligned one).
constexpr std::size_t transpose_align_bytes = 256;

/// Tile-origin shift of tiled_padded along one contiguous direction, in [0, tile):
/// tiles of `tile` elements then start at -shift, tile - shift, 2 tile - shift, ...
/// (the first one partial when shift > 0), which puts every tile start after the first
/// on a 256-byte boundary: with `line0` the address of element 0 of the first line and
/// `pitch_bytes` the bytes from one line to the next, the lead = ((256 - line0 % 256) %
/// 256) / elem_bytes elements before the first boundary make shift = (tile - lead %
/// tile) % tile. 0 (the plain grid) when the lines do not all share line0's misalignment
/// (pitch not a multiple of 256) or line0 is not element-aligned. Both twins call this
/// on the host, so they cut the same tiles.
inline int transpose_tile_shift(const void* line0, std::size_t pitch_bytes, std::size_t elem_bytes, int tile) {
  const auto a = reinterpret_cast<std::uintptr_t>(line0);
  if (tile <= 0 || elem_bytes == 0 || pitch_bytes % transpose_align_bytes != 0 || a % elem_bytes != 0) return 0;
  const std::size_t lead = (transpose_align_bytes - a % transpose_align_bytes) % transpose_align_bytes / elem_bytes;
  return static_cast<int>((static_cast<std::size_t>(tile) - lead % static_cast<std::size_t>(tile)) %
                          static_cast<std::size_t>(tile));
}

/// r in [0, rows) and c in [0, cols): the bounds test of tiled_padded's edge tiles, which
/// may start at negative indices (one unsigned compare per index).
SCRATCHKIT_HOST_DEVICE inline bool transpose_inside(int r, int c, int rows, int cols) {
  return static_cast<unsigned>(r) < static_cast<unsigned>(rows) &&
         static_cast<unsigned>(c) < static_cast<unsigned>(cols);
}

/// Tile (tile_row, tile_col) of block `blk` on an nby x nbx grid of tiles
/// numbered in groups of G tile rows: inside a group the tile row runs
/// fastest, then the tile column; the last group may have fewer rows.
SCRATCHKIT_HOST_DEVICE inline void transpose_tile_of(int blk, int nbx, int nby, int G, int& tile_row, int& tile_col) {
  const int span   = G * nbx;  // blocks of a full group (<= 32 * nbx: no overflow, see transpose())
  const int group  = blk / span;
  const int first  = group * G;
  const int height = nby - first < G ? nby - first : G;
  const int within = blk - group * span;
  tile_col         = within / height;
  tile_row         = first + within % height;
}

}  // namespace detail

}  // namespace scratchkit
