// SPDX-License-Identifier: BSD-3-Clause
/// transpose: the layer implementation behind kernels/transpose.hpp (the public calls and contracts are there).
#pragma once

#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/detail/transpose/blocking.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/transpose.hpp>
#include <scratchkit/padded_tile.hpp>
#include <scratchkit/shared_array.hpp>

#include <climits>
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Tile edge of naive and tiled: a block covers 32 x 32 elements (tiled_padded: TransposeBlocking).
constexpr int transpose_tile = 32;
/// Block rows: blocks are 32 x 8 threads, each moving 32 / 8 = 4 elements
/// (fewer threads than elements: each thread's loads are independent, which
/// hides memory latency better than one element per thread).
constexpr int transpose_block_rows = 8;
/// Launch bounds: 8 blocks of 256 threads per SM (32 registers), full occupancy.
constexpr int transpose_min_blocks = 8;

/// The (r, c) element of the unpadded 32 x 32 tile of `tiled` (pitch 32: column reads conflict 32-way).
template <class T>
KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> transpose_tile_at(const SharedArray<T, transpose_tile * transpose_tile>& s, int r, int c) {
  return s[r * transpose_tile + c];
}

/// Grid of 32 x 32 tiles over a rows x cols input, numbered on a 1-D grid
/// (tile column fastest) as the native twin numbers its blocks.
inline LaunchParams transpose_params(int rows, int cols) {
  return LaunchParams(Dim3(ceil_div(cols, transpose_tile) * ceil_div(rows, transpose_tile)),
                      Dim3(transpose_tile, transpose_block_rows));
}

// Index arithmetic as in the native twin: the tile from the block's linear
// index (one division by the tile columns), the thread's (x, y) from its rank
// with the compile-time block width (a mask and a shift), rather than the
// Block's general decoding (divisions by the run-time grid and block shapes).

template <class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void transpose_naive(const ExecSpace& exec, const InView& in, const OutView& out) {
  using B_t        = Block<ExecSpace>;
  constexpr int T  = transpose_tile;
  constexpr int BR = transpose_block_rows;
  const int rows = static_cast<int>(in.extent(0)), cols = static_cast<int>(in.extent(1));
  const int nbx  = ceil_div(cols, T);
  launch<LaunchBounds<T * BR, transpose_min_blocks>, ScratchFallback::none>(exec, "scratchkit::transpose_naive", transpose_params(rows, cols), KOKKOS_LAMBDA(const B_t& b) {
    const int blk = b.block_rank();
    const int row0 = (blk / nbx) * T, col0 = (blk % nbx) * T;
    b.threads([&](const Thread& t) {
      const int tx = t.rank % T, ty = t.rank / T;
      // Reads along rows are coalesced; writes go down a column of out (strided): the baseline.
      const int c = col0 + tx;
      for (int j = 0; j < T; j += BR) {
        const int r = row0 + ty + j;
        if (r < rows && c < cols) out(c, r) = read_only(in, r, c);
      }
    });
  });
}

/// tiled: through the unpadded tile Tile = SharedArray<T, 32*32>.
template <class Tile, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void transpose_through_tile(const ExecSpace& exec, const char* label, const InView& in, const OutView& out) {
  using B_t        = Block<ExecSpace>;
  constexpr int T  = transpose_tile;
  constexpr int BR = transpose_block_rows;
  const int rows = static_cast<int>(in.extent(0)), cols = static_cast<int>(in.extent(1));
  const int nbx  = ceil_div(cols, T);
  launch<LaunchBounds<T * BR, transpose_min_blocks>, ScratchFallback::none>(exec, label, transpose_params(rows, cols).uses<Tile>(), KOKKOS_LAMBDA(const B_t& b) {
    Tile tile(b);
    const int blk  = b.block_rank();
    const int row0 = (blk / nbx) * T, col0 = (blk % nbx) * T;
    b.threads([&](const Thread& t) {
      const int tx = t.rank % T, ty = t.rank / T;
      // A warp reads 32 consecutive elements of one input row and stores them in a tile row.
      const int c = col0 + tx;
      for (int j = 0; j < T; j += BR) {
        const int r = row0 + ty + j;
        if (r < rows && c < cols) transpose_tile_at(tile, ty + j, tx) = read_only(in, r, c);
      }
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int tx = t.rank % T, ty = t.rank / T;
      // A warp reads a tile column and writes 32 consecutive elements of one output row.
      const int r = row0 + tx;
      // One 32-way conflicted column read in flight per thread, each followed by its store: unrolled, nvcc issues
      // the four reads back to back and the block stalls on the shared-memory pipe (docs/performance.md, "Transpose").
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
      for (int j = 0; j < T; j += BR) {
        const int c = col0 + ty + j;
        if (r < rows && c < cols) out(c, r) = transpose_tile_at(tile, tx, ty + j);
      }
    });
  });
}

/// Tile-origin shift of tiled_padded along dimension 1 of `v` (the contiguous direction
/// of the rows that a warp reads from `in` or writes to `out`): transpose_tile_shift
/// when dimension 1 is unit-stride, 0 (the plain grid) otherwise. From the same address
/// and pitch as the native twin's for row-major contiguous Views.
template <class View>
int transpose_view_shift(const View& v, int tile) {
  using Scalar = typename View::value_type;
  if (v.span() == 0 || v.stride(1) != 1) return 0;
  return transpose_tile_shift(v.data(), v.stride(0) * sizeof(Scalar), sizeof(Scalar), tile);
}

/// tiled_padded with blocking Bk (TransposeBlocking, detail/transpose/blocking.hpp): an
/// ER x EC tile through an ER x (EC + 1) PaddedTile, 32 x BR threads, tiles in
/// groups of G tile rows (transpose_tile_of), the tile grid shifted so that the tile
/// rows read and written start on 256-byte boundaries (transpose_tile_shift), as
/// src/cuda/transpose_padded.cuh.
template <class Bk, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void transpose_padded(const ExecSpace& exec, const InView& in, const OutView& out) {
  using B_t        = Block<ExecSpace>;
  using Scalar     = typename OutView::non_const_value_type;
  using Tile       = PaddedTile<Scalar, Bk::ER, Bk::EC>;
  constexpr int ER = Bk::ER, EC = Bk::EC, BR = Bk::BR, G = Bk::G;
  const int rows = static_cast<int>(in.extent(0)), cols = static_cast<int>(in.extent(1));
  // Columns of in from in's alignment (its rows are read), rows of in from out's (out's rows are written).
  const int shift_c = transpose_view_shift(in, EC), shift_r = transpose_view_shift(out, ER);
  const int nbx = ceil_div(static_cast<long long>(cols) + shift_c, EC);
  const int nby = ceil_div(static_cast<long long>(rows) + shift_r, ER);
  const long long tiles = static_cast<long long>(nbx) * nby;
  if (tiles > INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::transpose: in is " << rows << " x " << cols << ": " << tiles << " tiles of " << ER << " x "
       << EC << ", more than the " << INT_MAX << " blocks a launch can have";
    throw ShapeError(os.str());
  }
  const auto params = LaunchParams(Dim3(static_cast<int>(tiles)), Dim3(32, BR)).uses<Tile>();
  launch<LaunchBounds<Bk::threads, Bk::min_blocks>, ScratchFallback::none>(exec, "scratchkit::transpose_tiled_padded", params, KOKKOS_LAMBDA(const B_t& b) {
    Tile tile(b);
    int tile_row, tile_col;
    transpose_tile_of(b.block_rank(), nbx, nby, G, tile_row, tile_col);
    const int row0 = tile_row * ER - shift_r, col0 = tile_col * EC - shift_c;
    // Interior tiles need no bounds checks: their loads are unpredicated and all of a
    // thread's ER * EC / (32 * BR) loads are issued before the first shared store (a
    // predicate per load would split them into batches of 4-7: fewer bytes in flight).
    const bool full = row0 >= 0 && col0 >= 0 && row0 + ER <= rows && col0 + EC <= cols;
    b.threads([&](const Thread& t) {
      const int tx = t.rank % 32, ty = t.rank / 32;
      // A warp reads 32 consecutive elements of one input row into a tile row.
      if (full) {
        for (int j = 0; j < ER; j += BR)
          for (int i = 0; i < EC; i += 32) tile(ty + j, tx + i) = read_only(in, row0 + ty + j, col0 + tx + i);
      } else {
        for (int j = 0; j < ER; j += BR)
          for (int i = 0; i < EC; i += 32) {
            const int r = row0 + ty + j, c = col0 + tx + i;
            if (transpose_inside(r, c, rows, cols)) tile(ty + j, tx + i) = read_only(in, r, c);
          }
      }
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int tx = t.rank % 32, ty = t.rank / 32;
      // A warp reads a tile column (32 banks, thanks to the padding) and writes 32
      // consecutive elements of one output row.
      if (full) {
        for (int j = 0; j < EC; j += BR)
          for (int i = 0; i < ER; i += 32) out(col0 + ty + j, row0 + tx + i) = tile(tx + i, ty + j);
      } else {
        for (int j = 0; j < EC; j += BR)
          for (int i = 0; i < ER; i += 32) {
            const int c = col0 + ty + j, r = row0 + tx + i;
            if (transpose_inside(r, c, rows, cols)) out(c, r) = tile(tx + i, ty + j);
          }
      }
    });
  });
}

inline bool transpose_variant_known(TransposeVariant v) {
  return v == TransposeVariant::naive || v == TransposeVariant::tiled || v == TransposeVariant::tiled_padded;
}

/// The row-major transpose on `backend` (after the checks and the layout mapping of scratchkit::transpose).
template <class ExecSpace, class InView, class OutView>
void transpose_run(const ExecSpace& exec, TransposeVariant variant, const InView& in, const OutView& out,
                   Backend backend) {
  using Scalar    = typename OutView::non_const_value_type;
  constexpr int T = transpose_tile;
  if (backend == Backend::native)
    return native_run(exec, "transpose", {"in", "out"}, [&](auto stream) {
      native::cuda::transpose(variant, static_cast<int>(in.extent(0)), static_cast<int>(in.extent(1)), in.data(),
                              out.data(), stream);
    }, in, out);
  if (in.extent(0) == 0 || in.extent(1) == 0) return;
  using Flat = SharedArray<Scalar, T * T>;
  switch (variant) {
    case TransposeVariant::naive: transpose_naive(exec, in, out); return;
    case TransposeVariant::tiled:
      transpose_through_tile<Flat>(exec, "scratchkit::transpose_tiled", in, out);
      return;
    case TransposeVariant::tiled_padded:
      transpose_padded<typename TransposeDefaultBlocking<Scalar>::type>(exec, in, out);
      return;
  }
  throw UnsupportedError(std::string("scratchkit::transpose: variant ") + name(variant) +
                         " is not implemented on the layer");
}

}  // namespace detail
}  // namespace scratchkit

/// transpose's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_TRANSPOSE(PREFIX, E, T, L)                                                             \
  PREFIX template void scratchkit::detail::transpose_run<E, scratchkit::detail::EtiView<const T, 2, L, E>,   \
                                                         scratchkit::detail::EtiView<T, 2, L, E>>(            \
      const E&, scratchkit::TransposeVariant, const scratchkit::detail::EtiView<const T, 2, L, E>&,           \
      const scratchkit::detail::EtiView<T, 2, L, E>&, scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_TRANSPOSE_EXTERN(E, T, L) SCRATCHKIT_ETI_TRANSPOSE(extern, E, T, L)
#define SCRATCHKIT_ETI_TRANSPOSE_SPACE(E)                       \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TRANSPOSE_EXTERN, E, float) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TRANSPOSE_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_TRANSPOSE_SPACE)
#undef SCRATCHKIT_ETI_TRANSPOSE_SPACE
#undef SCRATCHKIT_ETI_TRANSPOSE_EXTERN
#endif
