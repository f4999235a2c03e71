// SPDX-License-Identifier: BSD-3-Clause
/// 3-D stencil code both twins share (internal):
/// the z-streaming shapes, halo and ring cells, cp.async plane loads and point
/// updates.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/detail/gemm/cp_async.hpp>        // gemm_cp_async1 / _commit / _wait (the ring's plane loads)
#include <scratchkit/detail/transpose/blocking.hpp>  // transpose_tile_shift (the x tile grid cut from the data's alignment)
#include <scratchkit/tuning/stencil_3d.hpp>

#include <cstddef>
#include <cstdint>

#include <type_traits>

namespace scratchkit {
namespace detail {

/// Shape of Stencil3DVariant::z_streaming, the same for both twins: a block of
/// 32 x BY threads (a warp per tile row segment) owns a TX x TY (x, y) tile,
/// TX = 32*RX, TY = BY*RY, of a chunk of ZC planes; thread (tx, ty) computes
/// the RY x RX outputs (ty + BY*ry, tx + 32*rx). MinBlocks*: launch bounds
/// (blocks per SM) for float and double.
/// Stages = 0: the register pipeline (planes z+1, z+2 in registers, three
/// shared plane buffers); its halo ring (2*TX + 2*TY cells) is loaded by ranks
/// 0, 1, ... in the order top row, bottom row, left column, right column, NH
/// cells per thread (rank + j*threads).
/// Stages >= 4: the cp.async ring: Stages shared plane buffers, planes loaded
/// global -> shared (no registers) Stages - 2 planes ahead; a plane's cells
/// (rows y0-1 .. y0+TY of the tile's columns, then the two halo columns) are
/// loaded by ranks 0, 1, ..., NL cells per thread (stencil3d_ring_cells).
/// Vec (ring only): 0: a cell is one element (4/8-byte cp.async), the tile's
/// column c at buffer column 1 + c; 1: a plane buffer row holds columns
/// x0-W .. x0+TX+W-1 (W = 16 / sizeof(T)), 16-byte aligned, and where the
/// input's rows are 16-byte aligned (stencil3d_ring_v16) a cell is a 16-byte
/// chunk (cp.async.cg 16, L1 bypassed; the halo columns come in the chunks
/// next to the tile); 2: as 1, and a thread's RX outputs along x are RX/W
/// groups of W consecutive points, 32*W apart (16-byte shared loads, 16-byte
/// stores where the rows are aligned), RX a multiple of W.
template <int BY_, int RX_, int RY_, int ZC_, int MinBlocksFloat_, int MinBlocksDouble_, int Stages_ = 0,
          int Vec_ = 0, int ZAlt_ = 0>
struct Stencil3DZsShape {
  static constexpr int BX = 32, BY = BY_, RX = RX_, RY = RY_, ZC = ZC_, stages = Stages_, vec = Vec_;
  /// Ring only: odd z chunks walk z downwards (zalt_down), so that the two chunks
  /// on either side of a chunk boundary load its planes at about the same time
  /// (both at their start or both at their end) and the second load is an L2 hit.
  static constexpr bool zalt = ZAlt_ != 0;
  static constexpr int TX = BX * RX, TY = BY * RY, N = RX * RY, threads = BX * BY;
  static constexpr int halo = 2 * TX + 2 * TY, NH = (halo + threads - 1) / threads;
  /// Ring: buffer column of the tile's column 0 (1, or 16 bytes of elements when vec > 0).
  template <class T>
  static constexpr SCRATCHKIT_HD_FORCEINLINE int lo() {
    return vec > 0 ? static_cast<int>(16 / sizeof(T)) : 1;
  }
  /// Ring: shared pitch (elements) and plane buffer size (elements).
  template <class T>
  static constexpr SCRATCHKIT_HD_FORCEINLINE int pitch() {
    return TX + 2 * lo<T>();
  }
  template <class T>
  static constexpr SCRATCHKIT_HD_FORCEINLINE int plane() {
    return (TY + 2) * pitch<T>();
  }
  /// Tile column of thread tx's output column kx (0 .. RX-1): 32 kx + tx, or with
  /// vec == 2 groups of W consecutive columns (W = 16 / sizeof(T)), 32 W apart.
  template <class T>
  static constexpr SCRATCHKIT_HD_FORCEINLINE int col(int kx, int tx) {
    return vec == 2 ? 32 * lo<T>() * (kx / lo<T>()) + lo<T>() * tx + kx % lo<T>() : 32 * kx + tx;
  }
  static constexpr int min_blocks_float = MinBlocksFloat_, min_blocks_double = MinBlocksDouble_;
  /// Blocks per SM the launch bounds ask for, for element type T.
  template <class T>
  static constexpr int min_blocks() {
    return sizeof(T) == 4 ? min_blocks_float : min_blocks_double;
  }
  /// Bytes of its plane buffers: 3 of (TY + 2) x (TX + 2), or Stages of plane<T>().
  template <class T>
  static constexpr long long smem_bytes() {
    return stages == 0 ? 3LL * (TY + 2) * (TX + 2) * static_cast<long long>(sizeof(T))
                       : static_cast<long long>(stages) * plane<T>() * static_cast<long long>(sizeof(T));
  }
  static_assert(BY >= 1 && RX >= 1 && RY >= 1 && ZC >= 1 && threads <= 1024, "Stencil3DZsShape: sizes");
  static_assert(vec == 0 || (stages > 0 && vec <= 2), "Stencil3DZsShape: vec 1 or 2 is a ring option");
  static_assert(MinBlocksFloat_ >= 1 && MinBlocksDouble_ >= 1, "Stencil3DZsShape: blocks per SM");
  static_assert(stages == 0 || stages >= 4, "Stencil3DZsShape: 0 (register pipeline) or >= 4 ring stages");
  static_assert(!zalt || stages > 0, "Stencil3DZsShape: alternating z chunks is a ring option");
};

/// Whether chunk ch of shape Sh walks z downwards (Sh::zalt: the odd ones).
/// Down or up, plane z's point reads planes z-1, z, z+1 in the same order, so
/// the bits are the same.
template <class Sh>
SCRATCHKIT_HD_FORCEINLINE bool stencil3d_zalt_down(int ch) {
  return Sh::zalt && (ch & 1) != 0;
}

/// Stencil3DZsShape spelled by the field names of tuning::Stencil3DSm90's shapes.
template <class F>
using Stencil3DZsShapeOf = Stencil3DZsShape<F::block_y, F::outputs_x, F::outputs_y, F::z_chunk, F::min_blocks_float,
                                            F::min_blocks_double, F::stages, F::vec, F::z_alternate>;
/// The 3-D stencil policy of this build's GPU (both twins).
using Stencil3DPolicy = tuning::Stencil3DPolicy<tuning::cuda_arch>;

/// The z_streaming shapes, the fastest of perf/tune/stencil3d_tune.cu on the H100
/// at 512^3 (docs/performance.md, "3-D stencil"): Stencil3DZsDefault<T> on the
/// layer, Stencil3DZsNativeDefault<T> in the native twin (the same shape). Every
/// shape of a type gives the same bits (every point is the same expression,
/// summed in the same order).
/// double: the register pipeline, 64 x 8 tile on 32 x 4 threads (2 x 2 outputs
/// each), 64-plane chunks, 6 blocks/SM, 15.5 KB;
/// float: the cp.async ring, 128 x 8 tile on 32 x 8 threads (4 outputs each
/// along x), 5 plane buffers (3 planes in flight), 128-plane chunks, 6 blocks/SM,
/// 26 KB. The outputs' bounds are one mask register (stencil3d_out_mask), so
/// both twins' builds fit in 40 registers without spills.
/// All stay under the layer's ~40 KB of level-0 scratch (LaunchError otherwise)
/// and the host backends' 32 KB.
template <class T>
using Stencil3DZsDefault = typename std::conditional<sizeof(T) == 4, Stencil3DZsShapeOf<Stencil3DPolicy::FloatShape>,
                                                     Stencil3DZsShapeOf<Stencil3DPolicy::DoubleShape>>::type;
template <class T>
using Stencil3DZsNativeDefault = Stencil3DZsDefault<T>;
/// z_streaming on CUDA for rows of at least one wide tile (stencil3d_zs_wide),
/// both twins: cp.async rings on wider and taller tiles than the defaults, with
/// over 48 KB of shared memory per block (the native twin opts in; the layer
/// runs them on its CUDA block driver, detail/cuda_block_launch.hpp), the plain
/// tile grid (no x shift: a shifted grid adds a mostly empty tile column):
/// float: 256 x 16 tile, 512 threads (8 outputs each along x), 128-plane chunks,
/// 5 stages, 2 blocks/SM, 93 KB; double: 128 x 16 tile, 512 threads (4 outputs
/// each), 64-plane chunks, 4 stages, 2 blocks/SM, 75 KB. Faster than the defaults
/// because each block and plane reads 18 rows of 1 KB runs instead of 10 of 512
/// bytes. float alternates the chunks' z direction (zalt): the planes on either
/// side of a chunk boundary are read by both chunks at about the same time, the
/// second read an L2 hit; double does not (its blocks run in about 4 waves, the
/// neighbouring chunk is rarely resident at the same time). Measurements:
/// docs/performance.md, "3-D stencil". Not on host backends (level-0 scratch of
/// 32 KB there).
template <class T>
using Stencil3DZsWide = typename std::conditional<sizeof(T) == 4, Stencil3DZsShapeOf<Stencil3DPolicy::WideFloatShape>,
                                                  Stencil3DZsShapeOf<Stencil3DPolicy::WideDoubleShape>>::type;
/// Whether z_streaming on CUDA runs Stencil3DZsWide<T> on rows of nx points (the
/// same answer on both twins): rows of at least one wide tile.
template <class T>
constexpr bool stencil3d_zs_wide(int nx) {
  return nx >= Stencil3DZsWide<T>::TX;
}
/// The layer's earlier float shape (the register pipeline), kept for the
/// bench's comparison rows (SCRATCHKIT_BENCH_STENCIL3D_SHAPES, perf/bench_stencil_3d.cpp).
using Stencil3DZsLayerRegsFloat = Stencil3DZsShape<16, 4, 1, 128, 2, 2>;

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
    h.v              = h.gy >= 0 && h.gy < ny && h.gx >= 0 && h.gx < nx;  // gx < 0: a shifted grid's first tile
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

/// x-shift of the z_streaming tile grid, in [0, Sh::TX): tiles start at x = -xs,
/// TX - xs, 2 TX - xs, ... (the first one partial when xs > 0), so that every tile
/// row after the first starts on a 256-byte boundary of its row
/// (detail::transpose_tile_shift: 0 when the rows do not all share the first
/// one's misalignment). `row0` is element (0, 0, 0) of `in`, `pitch` the
/// elements from one row to the next. A Kokkos View's data starts 128 bytes
/// into its allocation: without the shift a 512-byte tile row straddles three
/// 256-byte blocks. Both twins call it on the host with the same arguments, so
/// they cut the same tiles (the bits do not depend on the cut either way).
/// Whether the z_streaming twins cut their x tile grid from the data's alignment
/// (stencil3d_tile_shift); false: the plain grid (xs = 0) in both. The tuner times
/// both grids on 128-byte-offset data ("xs0" / "xsK" lines) whatever this says.
/// Per type, from that tuner on the H100 at 512^3 with the data 128 bytes in:
/// double's default shape gains, every float shape loses, since a shift of 96
/// adds a fifth, mostly empty tile column to each 512-wide row
/// (docs/performance.md, "3-D stencil").
template <class T>
constexpr bool stencil3d_shift_tiles = sizeof(T) == 8;

template <class Sh, class T>
inline int stencil3d_tile_shift(const T* row0, long long pitch) {
  // The rings' tiles (the wide ones above all) lose with the shift in the tuner:
  // register pipeline only.
  if (!stencil3d_shift_tiles<T> || Sh::stages > 0 || pitch <= 0) return 0;
  return transpose_tile_shift(row0, static_cast<std::size_t>(pitch) * sizeof(T), sizeof(T), Sh::TX);
}

/// The z_streaming launch grid of shape Sh, the same on both twins: x = the
/// nbx x nby x-y tiles (x fastest; the x grid shifted by xs, stencil3d_tile_shift),
/// y = the nchunks z chunks of Sh::ZC planes, at most gy = CUDA's 65535 grid
/// rows (a block loops over the chunks ch, ch + gy, ...).
struct Stencil3DZsGrid {
  int nbx, nby, nchunks, gy;
};

template <class Sh>
inline Stencil3DZsGrid stencil3d_zs_grid(int nz, int ny, int nx, int xs) {
  const auto up      = [](int a, int b) { return (a + b - 1) / b; };
  const int nchunks  = up(nz, Sh::ZC);
  return {up(nx + xs, Sh::TX), up(ny, Sh::TY), nchunks, nchunks < 65535 ? nchunks : 65535};
}

/// What does not change along z for a thread's N outputs (k = 0 .. N-1, at y +
/// BY*(k/RX), x0 + Sh::col<T>(k%RX, tx)): bit k set when output k is inside the grid
/// (x may be negative on a shifted grid), bit N + k when it is interior in x
/// and y. One register instead of 2N coordinates held across the z loop.
template <class Sh, class T>
SCRATCHKIT_HD_FORCEINLINE unsigned stencil3d_out_mask(int y, int x0, int tx, int ny, int nx) {
  static_assert(2 * Sh::N <= 32, "stencil3d_out_mask: at most 16 outputs per thread");
  unsigned m = 0;
  SCRATCHKIT_UNROLL
  for (int k = 0; k < Sh::N; ++k) {
    const int yk = y + Sh::BY * (k / Sh::RX), xk = x0 + Sh::template col<T>(k % Sh::RX, tx);
    if (yk < ny && static_cast<unsigned>(xk) < static_cast<unsigned>(nx)) m |= 1u << k;
    if (yk > 0 && yk < ny - 1 && xk > 0 && xk < nx - 1) m |= 1u << (Sh::N + k);
  }
  return m;
}

/// The cp.async ring's cells of one thread: cell j goes to element cell[j].dst of
/// a plane buffer from element cell[j].src of its plane (-1: not loaded, outside the
/// grid; such cells are only next to boundary points, which are copied). A cell
/// is W elements: 1, or with V16 a 16-byte chunk (stencil3d_ring_v16 says when
/// the rows allow it). Cells rank + j*threads: first the tile's columns of rows
/// y0-1 .. y0+TY (a warp copies consecutive cells of one row), then the left
/// and right halo columns of rows y0 .. y0+TY-1 (with V16 the chunk ending at
/// x0-1 and the one starting at x0+TX). Computed once per block.
template <class Sh, class T, bool V16>
struct Stencil3DRingCells {
  static constexpr int W     = V16 ? static_cast<int>(16 / sizeof(T)) : 1;
  static constexpr int rows  = (Sh::TY + 2) * (Sh::TX / W);
  static constexpr int NL    = (rows + 2 * Sh::TY + Sh::threads - 1) / Sh::threads;
  static_assert(!V16 || Sh::vec > 0, "Stencil3DRingCells: 16-byte cells need the vec layout");
  // One array of (src, dst) pairs, not an array of each: with two arrays of
  // different element sizes indexed by j, GCC 12.2 at -O2/-O3 (ivopts) addresses
  // off[j] from the int array's induction variable through a null-based
  // address, and then drops the whole initialising Block::threads call as
  // if it stored nothing: every ring test read uninitialised offsets on host
  // backends (SIGSEGV on Kokkos 4.6 Serial; docs/user-guide.md, "Known compiler issues").
  // On the GPU the loops are unrolled into registers either way.
  struct Cell {
    long long src;
    int dst;
  };
  Cell cell[NL];
};
template <class Sh, class T, bool V16, class At>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_ring_cells(Stencil3DRingCells<Sh, T, V16>& c, int rank, int x0, int y0,
                                                    int ny, int nx, const At& at) {
  using C = Stencil3DRingCells<Sh, T, V16>;
  constexpr int TX = Sh::TX, TY = Sh::TY, W = C::W, CR = TX / W, LO = Sh::template lo<T>();
  constexpr int P = Sh::template pitch<T>(), rows = C::rows;
  SCRATCHKIT_UNROLL
  for (int j = 0; j < C::NL; ++j) {
    const int f = rank + j * Sh::threads;
    int r = 0, cc = 0, gy = -1, gx = 0;
    if (f < rows) {  // whole warps (CR is a multiple of 8, a warp's cells are 1 to 4 rows)
      r  = f / CR;
      cc = LO + (f - r * CR) * W;
      gy = y0 - 1 + r;
      gx = x0 + cc - LO;
    } else if (f < rows + 2 * TY) {
      const bool right = f - rows >= TY;
      r                = (right ? f - rows - TY : f - rows) + 1;
      cc               = right ? LO + TX : LO - W;
      gy               = y0 + r - 1;
      gx               = right ? x0 + TX : x0 - W;
    }
    // With V16 every chunk is wholly inside or outside in x (x0, nx multiples of W).
    const bool v = gy >= 0 && gy < ny && gx >= 0 && gx + W <= nx;
    c.cell[j].src = v ? at(0, gy, gx) : -1;
    c.cell[j].dst = r * P + cc;
  }
}
/// One element global -> shared by cp.async.ca with the L2::256B prefetch hint
/// (the L2 fetches the 256-byte block around it from DRAM: a ring's rows are
/// runs of 512 bytes and more, so the rest of the block is read next anyway).
/// The hint is worth a few percent on the H100 (docs/performance.md, "3-D stencil"); plain copy elsewhere.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_cp_async1_l2_256(T* dst, const T* src) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "stencil3d_cp_async1_l2_256: 4- or 8-byte elements");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (sizeof(T) == 8)
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 8;\n" ::"r"(d), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 4;\n" ::"r"(d), "l"(src) : "memory");
#else
  *dst = *src;
#endif
}

/// Issues this thread's cp.async copies of one plane (`plane`: its element
/// (0, 0) in the input) into the plane buffer `buf` (shared memory). The
/// plane's address is made opaque first (opaque_global): nvcc otherwise
/// re-derives it from the kernel's parameters inside each predicated copy (on
/// the layer a 64-bit multiply-add and two constant loads per cell, natively an
/// add and a constant load per cell; docs/performance.md, "3-D stencil").
template <class Sh, class T, bool V16>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_ring_load(const Stencil3DRingCells<Sh, T, V16>& c, T* buf, const T* plane) {
  const T* const p = opaque_global(plane);
  SCRATCHKIT_UNROLL
  for (int j = 0; j < Stencil3DRingCells<Sh, T, V16>::NL; ++j)
    if (c.cell[j].src >= 0) {
      if constexpr (V16)
        gemm_cp_async16_inside(buf + c.cell[j].dst, p + c.cell[j].src);
      else
        stencil3d_cp_async1_l2_256(buf + c.cell[j].dst, p + c.cell[j].src);
    }
}
/// Whether the ring of shape Sh copies 16-byte cells (and, vec == 2, stores 16
/// bytes): Sh::vec > 0, in and out 16-byte aligned, row and plane pitches
/// (elements) and the tile shift xs multiples of W = 16 / sizeof(T), so that
/// every row of every tile starts on a 16-byte boundary and a chunk is wholly
/// inside or outside the grid. Both twins decide with it on the host; the bits
/// do not depend on it (only how the same values reach shared memory).
template <class Sh, class T>
inline bool stencil3d_ring_v16(const T* in, const T* out, long long sy, long long sz, int xs) {
  constexpr long long W = 16 / sizeof(T);
  return Sh::vec > 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(out) % 16 == 0 && sy % W == 0 && sz % W == 0 && xs % W == 0;
}
/// One output of the ring from its cell i of planes z-1 (m), z (c), z+1 (p),
/// pitch P: the sum in the order of every other variant (x-1, x+1, y-1, y+1,
/// z-1, z+1), boundary points copied.
template <int P, class T>
SCRATCHKIT_HD_FORCEINLINE T stencil3d_ring_point(const T* m, const T* c, const T* p, int i, T c0, T c1,
                                                 bool interior) {
  const T u = c[i];
  T s       = c[i - 1];
  s += c[i + 1];
  s += c[i - P];
  s += c[i + P];
  s += m[i];
  s += p[i];
  return interior ? c0 * u + c1 * s : u;
}
/// W = 16 / sizeof(T) consecutive elements of shared memory, 16-byte aligned:
/// one 16-byte load on CUDA (ld.shared.v4 / .v2), element loads elsewhere.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_lds16(const T* p, T (&v)[vec16<T>::width]) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<T, float>::value) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else {
    static_assert(std::is_same<T, double>::value, "stencil3d_lds16: float or double");
    const double2 q = *reinterpret_cast<const double2*>(p);
    v[0] = q.x, v[1] = q.y;
  }
#else
  for (int j = 0; j < vec16<T>::width; ++j) v[j] = p[j];
#endif
}
/// p[0 .. W) = v, p 16-byte aligned (global memory): one 16-byte store on CUDA.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_st16(T* p, const T (&v)[vec16<T>::width]) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<T, float>::value)
    *reinterpret_cast<float4*>(p) = make_float4(v[0], v[1], v[2], v[3]);
  else
    *reinterpret_cast<double2*>(p) = make_double2(v[0], v[1]);
#else
  for (int j = 0; j < vec16<T>::width; ++j) p[j] = v[j];
#endif
}
/// Output group g of a vec == 2 ring thread: the W consecutive points whose
/// centre cells start at i (16-byte aligned) in the plane buffers m, c, p (z-1,
/// z, z+1), pitch P; each point summed as stencil3d_ring_point sums it (x-1,
/// x+1, y-1, y+1, z-1, z+1: the same bits), with 16-byte shared loads (the x-1
/// of the first and x+1 of the last point are single loads). Point v interior
/// when bit v of `interior`.
template <int P, class T>
SCRATCHKIT_HD_FORCEINLINE void stencil3d_ring_points16(const T* m, const T* c, const T* p, int i, T c0, T c1,
                                                       unsigned interior, T (&out)[vec16<T>::width]) {
  constexpr int W = vec16<T>::width;
  T u[W], n[W], s[W], zm[W], zp[W];
  stencil3d_lds16(c + i, u);
  const T left = c[i - 1], right = c[i + W];
  stencil3d_lds16(c + i - P, n);
  stencil3d_lds16(c + i + P, s);
  stencil3d_lds16(m + i, zm);
  stencil3d_lds16(p + i, zp);
  SCRATCHKIT_UNROLL
  for (int v = 0; v < W; ++v) {
    T a = v == 0 ? left : u[v - 1];
    a += v == W - 1 ? right : u[v + 1];
    a += n[v];
    a += s[v];
    a += zm[v];
    a += zp[v];
    out[v] = (interior >> v & 1u) ? c0 * u[v] + c1 * a : u[v];
  }
}

}  // namespace detail
}  // namespace scratchkit
