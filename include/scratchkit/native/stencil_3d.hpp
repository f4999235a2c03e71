// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA stencil 3d (src/cuda/stencil_3d.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cstddef>
#include <cstdint>

#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {

/// One 7-point stencil step on an nz x ny x nx grid, element (z, y, x) at
/// in[(z*ny + y)*nx + x]: interior points get
/// c0*u + c1*(x-1 + x+1 + y-1 + y+1 + z-1 + z+1) summed in that order, boundary
/// points are copied. `in` and `out` must not overlap.
void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream = nullptr);
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream = nullptr);

}  // namespace cuda
}  // namespace native

namespace detail {

/// Shape of Stencil3DVariant::z_streaming, the same for both twins: a block of
/// 32 x BY threads (a warp per tile row segment) owns a TX x TY (x, y) tile,
/// TX = 32*RX, TY = BY*RY, of a chunk of ZC planes; thread (tx, ty) computes
/// the RY x RX outputs (ty + BY*ry, tx + 32*rx). MinBlocks*: launch bounds
/// (blocks per SM) for float and double. The halo ring (2*TX + 2*TY cells)
/// is loaded by ranks 0, 1, ... in the order top row, bottom row, left
/// column, right column, NH cells per thread (rank + j*threads).
template <int BY_, int RX_, int RY_, int ZC_, int MinBlocksFloat_, int MinBlocksDouble_>
struct Stencil3DZsShape {
  static constexpr int BX = 32, BY = BY_, RX = RX_, RY = RY_, ZC = ZC_;
  static constexpr int TX = BX * RX, TY = BY * RY, N = RX * RY, threads = BX * BY;
  static constexpr int halo = 2 * TX + 2 * TY, NH = (halo + threads - 1) / threads;
  static constexpr int min_blocks_float = MinBlocksFloat_, min_blocks_double = MinBlocksDouble_;
  /// Blocks per SM the launch bounds ask for, for element type T.
  template <class T>
  static constexpr int min_blocks() {
    return sizeof(T) == 4 ? min_blocks_float : min_blocks_double;
  }
  /// Bytes of its three plane buffers, each (TY + 2) x (TX + 2).
  template <class T>
  static constexpr long long smem_bytes() {
    return 3LL * (TY + 2) * (TX + 2) * static_cast<long long>(sizeof(T));
  }
  static_assert(BY >= 1 && RX >= 1 && RY >= 1 && ZC >= 1 && threads <= 1024, "Stencil3DZsShape: sizes");
  static_assert(MinBlocksFloat_ >= 1 && MinBlocksDouble_ >= 1, "Stencil3DZsShape: blocks per SM");
};

/// The z_streaming shape both twins run for element type T, picked with
/// perf/stencil3d_tune.cu on the H100 at 512^3 (perf/results/h100/stencil3d_tune.txt):
/// float: 128 x 16 tile on 32 x 16 threads, 128-plane chunks, 2 blocks/SM
/// (88.2 % of copy; the first shape 64 x 16 / 32 planes / 3 blocks: 81.9 %);
/// double: 64 x 8 tile on 32 x 4 threads (2 x 2 outputs each), 64-plane chunks,
/// 6 blocks/SM (91.0 %; the first shape: 87.5 %). Tiles (28 KB / 15.5 KB) stay
/// under the layer's ~40 KB of level-0 scratch (LaunchError otherwise) and the
/// host backends' 32 KB.
template <class T>
using Stencil3DZsDefault = typename std::conditional<sizeof(T) == 4, Stencil3DZsShape<16, 4, 1, 128, 2, 2>,
                                                     Stencil3DZsShape<4, 2, 2, 64, 6, 6>>::type;

/// z_streaming halo cell hi (0 .. 2TX+2TY-1) of the tile at (x0, y0): its tile
/// cell (r, c), grid (gy, gx), and whether it is loaded (inside the grid; cells
/// outside are only next to boundary points, which are copied). One definition
/// for both twins, so they load the same cells in the same order.
struct Stencil3DStreamHalo {
  int r, c, gy, gx;
  bool v;
};
template <class Sh>
SCRATCHKIT_HD_FORCEINLINE Stencil3DStreamHalo stencil3d_stream_halo(int hi, int x0, int y0, int ny, int nx) {
  constexpr int TX = Sh::TX, TY = Sh::TY;
  Stencil3DStreamHalo h{0, 0, 0, 0, false};
  // Whole warps take the rows (TX is a multiple of 32: a warp-uniform branch).
  const int w = static_cast<int>(static_cast<unsigned>(hi) / 32u), lane = static_cast<int>(static_cast<unsigned>(hi) % 32u);
  constexpr int W = TX / 32;
  if (w < 2 * W) {  // rows above and below
    const bool below = w >= W;
    const int col    = (below ? w - W : w) * 32 + lane;
    h.r              = below ? TY + 1 : 0;
    h.c              = col + 1;
    h.gy             = below ? y0 + TY : y0 - 1;
    h.gx             = x0 + col;
    h.v              = h.gy >= 0 && h.gy < ny && h.gx < nx;
  } else if (hi - 2 * TX < 2 * TY) {  // columns left and right
    const int k      = hi - 2 * TX;
    const bool right = k >= TY;
    const int row    = right ? k - TY : k;
    h.r              = row + 1;
    h.c              = right ? TX + 1 : 0;
    h.gy             = y0 + row;
    h.gx             = right ? x0 + TX : x0 - 1;
    h.v              = h.gx >= 0 && h.gx < nx && h.gy < ny;
  }
  return h;
}

}  // namespace detail
}  // namespace scratchkit
