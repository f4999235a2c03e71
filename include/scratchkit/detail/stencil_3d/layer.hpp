// SPDX-License-Identifier: BSD-3-Clause
/// stencil_3d: the layer implementation behind kernels/stencil_3d.hpp (the public calls and contracts are there).
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/detail/scratch_room.hpp>
#include <scratchkit/detail/stencil_3d/native.hpp>
#include <scratchkit/detail/stencil_3d/pick.hpp>
#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/padded_tile.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/tuning/stencil_3d.hpp>

#include <algorithm>
#include <climits>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Block shape (x, y) of both variants: a warp spans one row of 32 x values.
constexpr int stencil3d_bx = 32;
constexpr int stencil3d_by = 8;
/// Launch bounds of tile_2d_halo (the policy's blocks per SM).
constexpr int stencil3d_tile_min_blocks = Stencil3DPolicy::tile_min_blocks;
/// The 3-D kernels launch through Kokkos' generic TeamPolicy driver on CUDA,
/// not the layer's block driver (detail/cuda_block_launch.hpp): under the
/// block driver ptxas recomputes their plane loops' invariants in the loop,
/// which is slower (docs/performance.md, "3-D stencil").
constexpr bool stencil3d_kokkos_driver = Stencil3DPolicy::kokkos_driver;
/// The launch bounds of z_streaming shape Sh of T, which its launches and the pick's room
/// (stencil3d_zs_layer_room) share: the policy's driver, except that rings over Kokkos' ~40 KB of
/// level-0 scratch (Stencil3DZsWide) need the block driver's opt-in.
template <class Sh, class T>
using Stencil3DZsBounds = LaunchBounds<Sh::threads, Sh::template min_blocks<T>(),
                                       stencil3d_kokkos_driver && Sh::template smem_bytes<T>() <= 40 * 1024>;
/// Consecutive planes one tile_2d_halo block does (native twin: TILE_ZB).
constexpr int stencil3d_tile_zb = 8;
/// CUDA's limit on gridDim.y; more z planes (chunks) are looped over.
constexpr int stencil3d_max_grid_y = 65535;

/// One plane's x-y tile with a one-cell halo: (by + 2) x (bx + 2), no padding
/// (a warp reads one row: consecutive banks).
template <class T>
using Stencil3DTile = PaddedTile<T, stencil3d_by + 2, stencil3d_bx + 2, 0>;

/// Element offset of (z, y, x) from a View's data(), from its strides; the
/// x stride is 1 (a compile-time constant) when UnitX.
template <bool UnitX>
struct Stencil3DIndex {
  long long sz, sy, sx;
  KOKKOS_INLINE_FUNCTION long long operator()(int z, int y, int x) const {
    return static_cast<long long>(z) * sz + static_cast<long long>(y) * sy +
           (UnitX ? static_cast<long long>(x) : static_cast<long long>(x) * sx);
  }
};

/// tile_2d_halo's planes on a host backend where one team member runs the
/// block (detail::host_direct): the same points, sums and order of additions
/// as the per-thread phases below, written row by row so that the compiler
/// vectorises along x. On a CPU the tile only copies what the cache holds
/// already, so the neighbours are read from `in` itself (the value of each is
/// the tile's, so the bits are the phases'; in and out are different arrays).
/// Each row's interior points are computed without a test; boundary points
/// (copied) are the row's ends and whole boundary rows and planes, so no cell
/// outside the grid is read.
template <int BX, int BY, int ZB, class B_t, class T, bool UnitX>
KOKKOS_INLINE_FUNCTION void stencil3d_tile_host_planes(const B_t& b, const T* ip, T* op, int nz, int ny, int nx,
                                                       int gz, T c0, T c1, const Stencil3DIndex<UnitX>& iat,
                                                       const Stencil3DIndex<UnitX>& oat) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    const Dim3 bi = b.block_idx();
    const int x0 = bi.x * BX, y0 = bi.y * BY;
    const int wx = nx - x0 < BX ? nx - x0 : BX, wy = ny - y0 < BY ? ny - y0 : BY;
    const int xa = x0 > 1 ? x0 : 1, xe = x0 + wx < nx - 1 ? x0 + wx : nx - 1;  // interior columns [xa, xe)
    const long long sx = UnitX ? 1 : iat(0, 0, 1), so = UnitX ? 1 : oat(0, 0, 1);
    for (int zb = bi.z * ZB; zb < nz; zb += gz * ZB)
      for (int z = zb, ze = zb + ZB < nz ? zb + ZB : nz; z < ze; ++z)
        for (int ty = 0; ty < wy; ++ty) {
          const int y = y0 + ty;
          const T* c = ip + iat(z, y, x0);  // c[tx * sx]: the point (z, y, x0 + tx)
          T* d       = op + oat(z, y, x0);
          if (!(z > 0 && z < nz - 1 && y > 0 && y < ny - 1)) {
            for (int tx = 0; tx < wx; ++tx) d[tx * so] = load_read_only(c + tx * sx);
            continue;
          }
          for (int tx = 0; tx < xa - x0 && tx < wx; ++tx) d[tx * so] = load_read_only(c + tx * sx);
          SCRATCHKIT_HOST_IVDEP
          for (int tx = xa - x0; tx < xe - x0; ++tx) {
            const T* p = c + tx * sx;
            T v = load_read_only(p - sx);
            v += load_read_only(p + sx);
            v += load_read_only(p - iat.sy);
            v += load_read_only(p + iat.sy);
            v += load_read_only(p - iat.sz);
            v += load_read_only(p + iat.sz);
            d[tx * so] = c0 * load_read_only(p) + c1 * v;
          }
          for (int tx = xe - x0 > 0 ? xe - x0 : 0; tx < wx; ++tx) d[tx * so] = load_read_only(c + tx * sx);
        }
  } else {
    (void)b;
  }
}

// tile_2d_halo: a block of 32 x 8 threads owns one x-y tile of
// stencil3d_tile_zb consecutive planes and does them one after the other
// (grid: x tiles, y tiles, plane groups, looped above gridDim.y's limit).
// A plane is little work (one load, store and a few halo cells per thread),
// so a block's fixed cost (launch, coordinates, scratch base) is spread over
// several planes; block coordinates come from b.block_idx() (multiply-shift),
// and a point's offset is computed once per phase from raw pointers and 64-bit
// strides (neighbours: that offset plus a stride), as in the native kernel.
// Plane z+1's centre is read at plane z (as zp) and again at plane z+1 by the
// same threads: an L1 hit.
// SameIndex: in and out share their strides (the native case).
template <bool UnitX, bool SameIndex, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void stencil_3d_tile_2d_halo_at(const ExecSpace& exec, const InView& in, const OutView& out,
                                typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                                Stencil3DIndex<UnitX> iat, Stencil3DIndex<UnitX> oat_) {
  using T    = typename OutView::non_const_value_type;
  using B_t  = Block<ExecSpace>;
  using Tile = Stencil3DTile<T>;
  constexpr int BX = stencil3d_bx, BY = stencil3d_by;
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)),
            nx = static_cast<int>(in.extent(2));
  const int nbx = ceil_div(nx, BX), nby = ceil_div(ny, BY);
  constexpr int ZB = stencil3d_tile_zb;
  const int gz  = std::min(ceil_div(nz, ZB), stencil3d_max_grid_y);
  const T* ip   = in.data();
  T* op         = out.data();
  const auto p  = LaunchParams(Dim3(nbx, nby, gz), Dim3(BX, BY)).uses<Tile>();
  launch<KokkosDriverBounds<BX * BY, stencil3d_tile_min_blocks, stencil3d_kokkos_driver>, ScratchFallback::none>(exec, "scratchkit::stencil_3d_tile_2d_halo", p, KOKKOS_LAMBDA(const B_t& b) {
    const Stencil3DIndex<UnitX>& oat = SameIndex ? iat : oat_;
    Tile tile(b);
    if (host_direct(b)) {  // not `if constexpr`: nvcc refuses an extended lambda's first capture inside one
      stencil3d_tile_host_planes<BX, BY, ZB>(b, ip, op, nz, ny, nx, gz, c0, c1, iat, oat);
      return;
    }
    PerThread<T, B_t, BX * BY> zm(b), zp(b);  // z neighbours, loaded before the barrier
    // The point's offset and whether it is interior, found once per plane (as the
    // native kernel's i and interior) and kept across the barrier: the kernel is
    // issue-bound, so the store phase does not recompute them.
    PerThread<long long, B_t, BX * BY> off(b);
    PerThread<bool, B_t, BX * BY> inner(b);
    const Dim3 bi = b.block_idx();
    const int x0 = bi.x * BX, y0 = bi.y * BY;
    for (int zb = bi.z * ZB; zb < nz; zb += gz * ZB)
    for (int z = zb, ze = zb + ZB < nz ? zb + ZB : nz; z < ze; ++z) {
      b.threads([&](const Thread& t) {
        // bx = 32: a mask and a shift (the rank is never negative).
        const int tx = static_cast<int>(static_cast<unsigned>(t.rank) % BX);
        const int ty = static_cast<int>(static_cast<unsigned>(t.rank) / BX);
        const int x = x0 + tx, y = y0 + ty;
        const bool interior = z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1;
        const long long i   = iat(z, y, x);
        off(t)              = i;
        inner(t)            = interior;
        if (x < nx && y < ny) {
          const T* s = ip + i;
          // Centre and the halo cells next to it; cells outside the grid are
          // never read (their neighbours are boundary points).
          tile(ty + 1, tx + 1) = load_read_only(s);
          if (tx == 0 && x > 0) tile(ty + 1, 0) = load_read_only(s - iat(0, 0, 1));
          if (tx == BX - 1 && x + 1 < nx) tile(ty + 1, BX + 1) = load_read_only(s + iat(0, 0, 1));
          if (ty == 0 && y > 0) tile(0, tx + 1) = load_read_only(s - iat.sy);
          if (ty == BY - 1 && y + 1 < ny) tile(BY + 1, tx + 1) = load_read_only(s + iat.sy);
          if (interior) {
            zm(t) = load_read_only(s - iat.sz);
            zp(t) = load_read_only(s + iat.sz);
          }
        }
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        const int tx = static_cast<int>(static_cast<unsigned>(t.rank) % BX);
        const int ty = static_cast<int>(static_cast<unsigned>(t.rank) / BX);
        const int x = x0 + tx, y = y0 + ty;
        if (x < nx && y < ny) {
          const T u = tile(ty + 1, tx + 1);
          T* d      = op + (SameIndex ? off(t) : oat(z, y, x));
          if (inner(t)) {
            T s = tile(ty + 1, tx);
            s += tile(ty + 1, tx + 2);
            s += tile(ty, tx + 1);
            s += tile(ty + 2, tx + 1);
            s += zm(t);
            s += zp(t);
            *d = c0 * u + c1 * s;
          } else {
            *d = u;
          }
        }
      });
      sync_threads(b);  // the tile is rewritten for the next plane
    }
  });
}

// z_streaming, shape Sh (Stencil3DZsShape; Stencil3DZsDefault<T> in
// tuning/stencil_3d.hpp gives the tuned one per type): a block of 32 x BY threads owns a
// TX x TY (x, y) tile of a chunk of ZC planes. Thread (tx, ty) computes the
// outputs at (y0 + ty + BY*ry, x0 + tx + 32*rx): every warp load or store is
// one 128-byte row segment. Three shared buffers hold planes z-1, z (with a
// one-cell x-y halo) and the next plane's slot; plane z+1 stays in registers
// until its turn, and plane z+2 is loaded before the barrier of plane z
// (prefetch distance 2). The halo ring (top row, bottom row, left column,
// right column) is loaded by ranks 0, 1, ..., NH cells per thread, also two
// planes ahead, so no thread waits on a load before a barrier. Plane z goes to
// buffer (z - zb) % 3, which was last read at plane z-2: one barrier per
// plane. The z loop is unrolled by 3, so the buffer of each plane is a
// compile-time constant.

/// The three z_streaming plane buffers, one above the other: each (TY + 2) x
/// (TX + 2), no padding (a warp reads 32 consecutive cells of a row). One
/// array indexed by buffer, not three selected by reference, so that every
/// access stays a shared-memory access with an integer offset.
template <class T, class Sh>
using Stencil3DStreamTiles = PaddedTile<T, 3 * (Sh::TY + 2), Sh::TX + 2, 0>;

// Halo cells: detail::stencil3d_stream_halo (detail/stencil_3d/z_streaming.hpp, shared with the native twin).

/// One z_streaming thread's state along z (registers on a GPU): planes z,
/// z+1, z+2 of each output and of its halo cells (the planes not in shared
/// memory yet), and where plane z starts in `in` and `out`. What does not
/// change along z (which outputs are inside, the halo cells) is recomputed
/// from the rank in each phase: a few integer operations, cheaper than
/// registers held across the loop.
template <class T, class Sh>
struct Stencil3DStreamRegs {
  T c[Sh::N], p[Sh::N], q[Sh::N];
  T h0[Sh::NH], h1[Sh::NH], h2[Sh::NH];
  const T* hsrc[Sh::NH];  ///< the halo cells of plane z in in
  const T* src;           ///< output 0 of plane z in in
  T* dst;                 ///< output 0 of plane z in out
};

// Same operations in the same order as the native stencil_3d_z_streaming_kernel
// (src/cuda/stencil_3d_z_streaming.cuh). SameIndex: in and out share their
// strides (row-major, contiguous: the native case), so one offset serves both.
template <class Sh, bool UnitX, bool SameIndex, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void stencil_3d_z_streaming_at(const ExecSpace& exec, const InView& in, const OutView& out,
                               typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                               Stencil3DIndex<UnitX> iat, Stencil3DIndex<UnitX> oat_, int xs) {
  using T    = typename OutView::non_const_value_type;
  using B_t  = Block<ExecSpace>;
  using Tile = Stencil3DStreamTiles<T, Sh>;
  using Regs = Stencil3DStreamRegs<T, Sh>;
  constexpr int BX = Sh::BX, BY = Sh::BY, RX = Sh::RX, NT = Sh::threads, NH = Sh::NH;
  constexpr int TX = Sh::TX, TY = Sh::TY, ZC = Sh::ZC, N = Sh::N;
  static_assert(BX == 32, "z_streaming: a warp per tile row segment");
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)),
            nx = static_cast<int>(in.extent(2));
  const auto grid = stencil3d_zs_grid<Sh>(nz, ny, nx, xs);
  const int nbx = grid.nbx, nby = grid.nby, nchunks = grid.nchunks, gy = grid.gy;
  const T* ip   = in.data();
  T* op         = out.data();
  const auto p  = LaunchParams(Dim3(nbx * nby, gy), Dim3(BX, BY)).uses<Tile>();
  launch<Stencil3DZsBounds<Sh, T>, ScratchFallback::none>(
      exec, "scratchkit::stencil_3d_z_streaming", p, KOKKOS_LAMBDA(const B_t& b) {
        const Stencil3DIndex<UnitX>& oat = SameIndex ? iat : oat_;
        Tile tile(b);
        PerThread<Regs, B_t, NT> regs(b);
        // The block's (tile, first chunk) from its linear index (tile fastest);
        // the thread's tile row and column from its rank (bx = 32: a mask and
        // a shift). Output k is BY*(k/RX) rows and 32*(k%RX) columns on from
        // output 0, at + iat(0, BY*(k/RX), 32*(k%RX)) in in.
        const int blk = b.block_rank(), ntiles = nbx * nby;
        const int cf = blk / ntiles, tl = blk - cf * ntiles;
        const int x0 = (tl % nbx) * TX - xs, y0 = (tl / nbx) * TY;  // xs: stencil3d_tile_shift
        for (int ch = cf; ch < nchunks; ch += gy) {
          const int zb = ch * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
          const int zq = ze + 1 < nz ? ze + 1 : nz;  // planes below zq are loaded into q
          b.threads([&](const Thread& t) {
            const int tx = t.rank % BX, ty = t.rank / BX;
            const int x = x0 + tx, y = y0 + ty;  // output 0
            Regs& r     = regs(t);
            r.src       = ip + iat(zb, y, x);
            r.dst       = op + oat(zb, y, x);
            SCRATCHKIT_UNROLL
            for (int k = 0; k < N; ++k) {
              r.c[k] = r.p[k] = r.q[k] = T(0);
              if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx)) {
                const T* s = r.src + iat(0, BY * (k / RX), 32 * (k % RX));
                // Plane zb-1 goes to buffer 2, as the plane before zb in the rotation.
                if (zb > 0) tile(2 * (TY + 2) + ty + BY * (k / RX) + 1, tx + 32 * (k % RX) + 1) = load_read_only(s - iat.sz);
                r.c[k] = load_read_only(s);
                if (zb + 1 < nz) r.p[k] = load_read_only(s + iat.sz);
              }
            }
            SCRATCHKIT_UNROLL
            for (int j = 0; j < NH; ++j) {
              const Stencil3DStreamHalo h = stencil3d_stream_halo<Sh>(t.rank + j * NT, x0, y0, ny, nx);
              r.hsrc[j]                   = h.v ? ip + iat(zb, h.gy, h.gx) : ip;
              r.h0[j] = r.h1[j] = r.h2[j] = T(0);
              if (h.v) {
                r.h0[j] = load_read_only(r.hsrc[j]);
                if (zb + 1 < ze) r.h1[j] = load_read_only(r.hsrc[j] + iat.sz);
              }
            }
          });
          // One plane: buffer B (a compile-time constant: the z loop is unrolled
          // by 3 so that buffer offsets are immediates and the register
          // rotation below is a renaming).
          auto plane = [&](auto buffer, int z) {
            constexpr int B  = decltype(buffer)::value;
            constexpr int bo = B * (TY + 2), po = (B == 0 ? 2 : B - 1) * (TY + 2);  // rows of planes z, z-1
            b.threads([&](const Thread& t) {
              const int tx = t.rank % BX, ty = t.rank / BX;
              const int x = x0 + tx, y = y0 + ty;
              Regs& r     = regs(t);
              SCRATCHKIT_UNROLL
              for (int k = 0; k < N; ++k)
                if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx))
                  tile(bo + ty + BY * (k / RX) + 1, tx + 32 * (k % RX) + 1) = r.c[k];
              SCRATCHKIT_UNROLL
              for (int j = 0; j < NH; ++j) {
                const Stencil3DStreamHalo h = stencil3d_stream_halo<Sh>(t.rank + j * NT, x0, y0, ny, nx);
                if (h.v) tile(bo + h.r, h.c) = r.h0[j];
              }
              // Prefetch plane z+2: the centre values (z+1 at the next plane)
              // and the halo cells (needed two planes on).
              if (z + 2 < zq) {
                SCRATCHKIT_UNROLL
                for (int k = 0; k < N; ++k)
                  if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx))
                    r.q[k] = load_read_only(r.src + 2 * iat.sz + iat(0, BY * (k / RX), 32 * (k % RX)));
              }
              if (z + 2 < ze) {
                SCRATCHKIT_UNROLL
                for (int j = 0; j < NH; ++j)
                  if (stencil3d_stream_halo<Sh>(t.rank + j * NT, x0, y0, ny, nx).v)
                    r.h2[j] = load_read_only(r.hsrc[j] + 2 * iat.sz);
              }
            });
            sync_threads(b);
            b.threads([&](const Thread& t) {
              const int tx = t.rank % BX, ty = t.rank / BX;
              const int y = y0 + ty, x = x0 + tx;  // output 0
              Regs& r        = regs(t);
              const bool zin = z > 0 && z < nz - 1;
              SCRATCHKIT_UNROLL
              for (int k = 0; k < N; ++k) {
                const int yk = y + BY * (k / RX), xk = x + 32 * (k % RX);
                const int i = bo + ty + BY * (k / RX) + 1, j = tx + 32 * (k % RX) + 1;  // tile cell
                // Every point reads its neighbours' cells (inside the tile, not
                // always written: a boundary point's value is the select's other arm).
                const T u = tile(i, j);
                T s       = tile(i, j - 1);
                s += tile(i, j + 1);
                s += tile(i - 1, j);
                s += tile(i + 1, j);
                s += tile(po - bo + i, j);
                s += r.p[k];
                const bool interior = zin && yk > 0 && yk < ny - 1 && xk > 0 && xk < nx - 1;
                const T v           = interior ? c0 * u + c1 * s : u;  // boundary points are copied
                if (yk < ny && static_cast<unsigned>(xk) < static_cast<unsigned>(nx))
                  r.dst[oat(0, BY * (k / RX), 32 * (k % RX))] = v;
                r.c[k] = r.p[k];
                r.p[k] = r.q[k];
              }
              SCRATCHKIT_UNROLL
              for (int j = 0; j < NH; ++j) {
                r.h0[j] = r.h1[j];
                r.h1[j] = r.h2[j];
                r.hsrc[j] += iat.sz;
              }
              r.src += iat.sz;
              r.dst += oat.sz;
            });
          };
          for (int z = zb; z < ze; z += 3) {
            plane(std::integral_constant<int, 0>(), z);
            if (z + 1 < ze) plane(std::integral_constant<int, 1>(), z + 1);
            if (z + 2 < ze) plane(std::integral_constant<int, 2>(), z + 2);
          }
          if (ch + gy < nchunks) sync_threads(b);  // the next chunk rewrites buffers 0 and 2
        }
      });
}

// z_streaming with a cp.async ring (Sh::stages > 0): the same tile and
// thread-to-output mapping, but every plane goes global -> shared by cp.async
// (no registers hold planes in flight), Sh::stages plane buffers, plane p of
// the chunk in buffer (p - zb + 1) % stages, requested stages - 2 planes
// ahead. Same operations in the same order as the native
// stencil_3d_z_ring_kernel (src/cuda/stencil_3d_z_streaming.cuh); cell
// mapping, loads and the point are the shared detail::stencil3d_ring_*.

/// One ring thread's state across barriers: its cells, which of its outputs
/// are inside / interior in x-y (stencil3d_out_mask) and output 0 of plane z in out.
template <class T, class Sh, bool V16>
struct Stencil3DRingRegs {
  Stencil3DRingCells<Sh, T, V16> cells;
  unsigned mask;
  T* dst;
};

// V16: 16-byte cells and stores (stencil3d_ring_v16 holds; UnitX only).
template <class Sh, bool UnitX, bool SameIndex, bool V16, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void stencil_3d_z_ring_at(const ExecSpace& exec, const InView& in, const OutView& out,
                          typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                          Stencil3DIndex<UnitX> iat, Stencil3DIndex<UnitX> oat_, int xs) {
  using T    = typename OutView::non_const_value_type;
  using B_t  = Block<ExecSpace>;
  using Tile = PaddedTile<T, Sh::stages*(Sh::TY + 2), Sh::template pitch<T>(), 0>;
  using Regs = Stencil3DRingRegs<T, Sh, V16>;
  constexpr int BX = Sh::BX, BY = Sh::BY, RX = Sh::RX, NT = Sh::threads;
  constexpr int TX = Sh::TX, TY = Sh::TY, ZC = Sh::ZC, N = Sh::N;
  constexpr int ST = Sh::stages, D = ST - 2, P = Sh::template pitch<T>(), PL = Sh::template plane<T>();
  constexpr int LO = Sh::template lo<T>(), W = vec16<T>::width;
  static_assert(BX == 32, "z_streaming: a warp per tile row segment");
  static_assert(Sh::vec < 2 || RX % W == 0, "vec 2: RX a multiple of 16 / sizeof(T)");
  static_assert(!V16 || UnitX, "16-byte cells need unit x strides");
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)),
            nx = static_cast<int>(in.extent(2));
  const auto grid = stencil3d_zs_grid<Sh>(nz, ny, nx, xs);
  const int nbx = grid.nbx, nby = grid.nby, nchunks = grid.nchunks, gy = grid.gy;
  const T* ip   = in.data();
  T* op         = out.data();
  const auto p  = LaunchParams(Dim3(nbx * nby, gy), Dim3(BX, BY)).uses<Tile>();
  launch<Stencil3DZsBounds<Sh, T>, ScratchFallback::none>(
      exec, "scratchkit::stencil_3d_z_streaming", p, KOKKOS_LAMBDA(const B_t& b) {
        const Stencil3DIndex<UnitX>& oat = SameIndex ? iat : oat_;
        Tile tile(b);
        PerThread<Regs, B_t, NT> regs(b);
        T* const ring = tile.data();
        const int blk = b.block_rank(), ntiles = nbx * nby;
        const int cf = blk / ntiles, tl = blk - cf * ntiles;
        const int x0 = (tl % nbx) * TX - xs, y0 = (tl / nbx) * TY;  // xs: stencil3d_tile_shift
        const auto wrap = [](int bf) { return bf >= Sh::stages ? bf - Sh::stages : bf; };
        b.threads([&](const Thread& t) {
          stencil3d_ring_cells(regs(t).cells, t.rank, x0, y0, ny, nx, iat);
          regs(t).mask = stencil3d_out_mask<Sh, T>(y0 + t.rank / BX, x0, t.rank % BX, ny, nx);
        });
        for (int ch = cf; ch < nchunks; ch += gy) {
          const int zb = ch * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
          const int zl = ze < nz - 1 ? ze : nz - 1;  // the last plane loaded
          const int zf = zb > 0 ? zb - 1 : 0;        // the first plane loaded
          const bool down = stencil3d_zalt_down<Sh>(ch);  // Sh::zalt: odd chunks walk down
          b.threads([&](const Thread& t) {
            Regs& r = regs(t);
            SCRATCHKIT_UNROLL
            for (int d = 0; d <= D; ++d) {
              const int pz = down ? ze - d : zb - 1 + d;
              if ((down ? pz >= zf : pz >= 0) && pz <= zl) stencil3d_ring_load(r.cells, ring + d * PL, ip + iat(pz, 0, 0));
              gemm_cp_async_commit();
            }
            r.dst = op + oat(down ? ze - 1 : zb, y0 + t.rank / BX, x0 + Sh::template col<T>(0, t.rank % BX));
          });
          for (int zs = zb, bm = 0; zs < ze; ++zs) {  // bm: buffer of plane z-1 (z+1 going down)
            const int z = down ? zb + ze - 1 - zs : zs;
            b.threads([&](const Thread&) { gemm_cp_async_wait<D - 2>(); });
            sync_threads(b);
            b.threads([&](const Thread& t) {
              const int tx = t.rank % BX, ty = t.rank / BX, c0x = Sh::template col<T>(0, tx);
              Regs& r      = regs(t);
              const int pn = down ? z - D : z + D;
              if ((!down || pn >= zf) && pn <= zl) stencil3d_ring_load(r.cells, ring + wrap(bm + ST - 1) * PL, ip + iat(pn, 0, 0));
              gemm_cp_async_commit();
              const T* pa    = ring + bm * PL;
              const T* pc    = ring + wrap(bm + 1) * PL;
              const T* pb    = ring + wrap(bm + 2) * PL;
              const T* pm    = down ? pb : pa;
              const T* pp    = down ? pa : pb;
              const bool zin = z > 0 && z < nz - 1;
              // Plain ifs on constants: nvcc's extended lambdas cannot first-capture inside if constexpr.
              if (Sh::vec == 2) {
                SCRATCHKIT_UNROLL
                for (int k = 0; k < N; k += W) {
                  const int dx = Sh::template col<T>(k % RX, tx) - c0x;  // a constant
                  const int i  = (ty + BY * (k / RX) + 1) * P + LO + c0x + dx;
                  T v[W];
                  stencil3d_ring_points16<P>(pm, pc, pp, i, c0, c1, zin ? r.mask >> (N + k) : 0u, v);
                  T* d = r.dst + oat(0, BY * (k / RX), dx);
                  if (V16) {
                    if (r.mask >> k & 1u) stencil3d_st16(d, v);
                  } else {
                    SCRATCHKIT_UNROLL
                    for (int e = 0; e < W; ++e)
                      if (r.mask >> (k + e) & 1u) d[UnitX ? e : e * oat.sx] = v[e];
                  }
                }
              } else {
                SCRATCHKIT_UNROLL
                for (int k = 0; k < N; ++k) {
                  const int dx        = Sh::template col<T>(k % RX, tx) - c0x;
                  const int i         = (ty + BY * (k / RX) + 1) * P + LO + c0x + dx;  // tile cell
                  const bool interior = zin && (r.mask >> (N + k) & 1u);
                  const T v           = stencil3d_ring_point<P>(pm, pc, pp, i, c0, c1, interior);
                  if (r.mask >> k & 1u) r.dst[oat(0, BY * (k / RX), dx)] = v;
                }
              }
              r.dst += down ? -oat.sz : oat.sz;
            });
            bm = wrap(bm + 1);
          }
          if (ch + gy < nchunks) sync_threads(b);  // the next chunk rewrites the buffers
        }
      });
}

/// z_streaming with shape Sh: the register pipeline or (Sh::stages > 0) the cp.async ring.
/// The x tile grid is shifted by xs in [0, Sh::TX); xs < 0: stencil3d_tile_shift of in
/// when x is contiguous (as the native twin), else 0 (tests force other shifts).
template <class Sh, bool UnitX, bool SameIndex, class ExecSpace, class InView, class OutView>
void stencil_3d_zs_at(const ExecSpace& exec, const InView& in, const OutView& out,
                      typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                      Stencil3DIndex<UnitX> iat, Stencil3DIndex<UnitX> oat, int xs = -1) {
  if (xs < 0) xs = UnitX ? stencil3d_tile_shift<Sh>(in.data(), iat.sy) : 0;
  if constexpr (Sh::stages > 0) {
    // 16-byte cells where the rows allow (stencil3d_ring_v16, as the native twin decides).
    if constexpr (UnitX && Sh::vec > 0) {
      if (iat.sy == oat.sy && iat.sz == oat.sz && stencil3d_ring_v16<Sh>(in.data(), out.data(), iat.sy, iat.sz, xs))
        return stencil_3d_z_ring_at<Sh, UnitX, SameIndex, true>(exec, in, out, c0, c1, iat, oat, xs);
    }
    stencil_3d_z_ring_at<Sh, UnitX, SameIndex, false>(exec, in, out, c0, c1, iat, oat, xs);
  } else
    stencil_3d_z_streaming_at<Sh, UnitX, SameIndex>(exec, in, out, c0, c1, iat, oat, xs);
}

static_assert(scratch_room_granule == base_alignment, "detail::level0_room counts the layer's level-0 request");

/// The room z_streaming of T has on ExecSpace for the pick (detail/stencil_3d/pick.hpp): the level 0 of the
/// launch path the wide ring takes (its bounds, as stencil_3d_z_ring_at launches it: the CUDA block
/// driver where built, which opts in above 48 KB; else Kokkos' TeamPolicy::scratch_size_max(0)), less the
/// layer's slack.
template <class T, class ExecSpace>
std::size_t stencil3d_zs_layer_room() {
  using Sh = Stencil3DZsWide<T>;
  return level0_room(level0_max<ExecSpace, Stencil3DZsBounds<Sh, T>>(Sh::threads));
}

/// The z_streaming shape the layer runs on ExecSpace for contiguous rows of nx points: on CUDA
/// stencil3d_zs_pick with the layer's room (Backend::native hands the same value to the native twin);
/// elsewhere Stencil3DZsDefault<T> (the wide rings are CUDA's).
template <class T, class ExecSpace>
Stencil3DPick stencil3d_zs_layer_pick(int nx) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value)
    return stencil3d_zs_pick<T>(nx, stencil3d_zs_layer_room<T, ExecSpace>());
#endif
  (void)nx;
  return Stencil3DPick{};
}

/// Runs variant ZStreaming (else tile_2d_halo) with the index math fitted to
/// the Views: unit x stride and one offset for in and out when both have
/// unit x strides and equal y, z strides (the native case), strides otherwise.
template <bool ZStreaming, class ExecSpace, class InView, class OutView>
void stencil_3d_indexed(const ExecSpace& exec, const InView& in, const OutView& out,
                        typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  const auto ix = [](const auto& v) {
    return Stencil3DIndex<false>{static_cast<long long>(v.stride(0)), static_cast<long long>(v.stride(1)),
                                 static_cast<long long>(v.stride(2))};
  };
  using value_type                = typename OutView::non_const_value_type;
  const Stencil3DIndex<false> is = ix(in), os = ix(out);
  // LayoutRight, or LayoutStride with unit x strides (pitched rows: a halo'd grid's interior)
  if ((is.sx == 1 || in.extent(2) <= 1) && (os.sx == 1 || out.extent(2) <= 1)) {
    if (is.sz == os.sz && is.sy == os.sy) {  // the native case: same index math
      const Stencil3DIndex<true> rm{is.sz, is.sy, 1};
      if constexpr (ZStreaming) {
#if defined(KOKKOS_ENABLE_CUDA)
        // The wide rings where the pick takes them (the native twin is handed the same pick).
        if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
          if (stencil3d_zs_layer_pick<value_type, ExecSpace>(static_cast<int>(in.extent(2))).shape ==
              Stencil3DZsKind::wide)
            return stencil_3d_zs_at<Stencil3DZsWide<value_type>, true, true>(exec, in, out, c0, c1, rm, rm);
        }
#endif
        stencil_3d_zs_at<Stencil3DZsDefault<value_type>, true, true>(exec, in, out, c0, c1, rm, rm);
      } else
        stencil_3d_tile_2d_halo_at<true, true>(exec, in, out, c0, c1, rm, rm);
      return;
    }
  }
  if constexpr (ZStreaming)
    stencil_3d_zs_at<Stencil3DZsDefault<value_type>, false, false>(exec, in, out, c0, c1, is, os);
  else
    stencil_3d_tile_2d_halo_at<false, false>(exec, in, out, c0, c1, is, os);
}

/// The row-major stencil on `backend` (after the checks and the layout mapping of stencil_3d_7pt).
template <class ExecSpace, class InView, class OutView>
void stencil_3d_run(const ExecSpace& exec, Stencil3DVariant variant, const InView& in, const OutView& out,
                    typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                    Backend backend) {
  constexpr std::size_t max_extent = static_cast<std::size_t>(INT_MAX / 2);
  if (in.extent(0) > max_extent || in.extent(1) > max_extent || in.extent(2) > max_extent ||
      static_cast<long long>(ceil_div(in.extent(1), stencil3d_by)) *
              (ceil_div(in.extent(2), stencil3d_bx) + 1) >
          INT_MAX) {  // + 1: a z_streaming grid shifted in x (stencil3d_tile_shift) has one more tile per row
    std::ostringstream os;
    os << "scratchkit::stencil_3d_7pt: extents " << in.extent(0) << " x " << in.extent(1) << " x " << in.extent(2)
       << " (as run: row-major, docs/layouts.md) are too large (each < 2^30, at most 2^31-1 x-y tiles of " << stencil3d_bx << " x "
       << stencil3d_by << ")";
    throw ShapeError(os.str());
  }
  if (backend == Backend::native)
    return native_run(exec, "stencil_3d_7pt", {"in", "out"}, [&](auto stream) {
      // The shape the layer would run on exec (the wide ring or not), so that
      // both backends run the same one on any launch path.
      const int nx = static_cast<int>(in.extent(2));
      native::cuda::detail::stencil_3d_7pt(variant, in.data(), out.data(), static_cast<int>(in.extent(0)),
                                           static_cast<int>(in.extent(1)), nx, c0, c1, stream,
                                           stencil3d_zs_layer_pick<typename OutView::non_const_value_type, ExecSpace>(nx));
    }, in, out);
  if (in.size() == 0) return;
  switch (variant) {
    case Stencil3DVariant::tile_2d_halo: stencil_3d_indexed<false>(exec, in, out, c0, c1); return;
    case Stencil3DVariant::z_streaming: stencil_3d_indexed<true>(exec, in, out, c0, c1); return;
    default: break;
  }
  throw UnsupportedError(std::string("scratchkit::stencil_3d_7pt: variant ") + name(variant) +
                         " is not implemented on the layer");
}

}  // namespace detail
}  // namespace scratchkit

/// stencil_3d_7pt's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_STENCIL_3D(PREFIX, E, T, L)                                                                 \
  PREFIX template void scratchkit::detail::stencil_3d_run<E, scratchkit::detail::EtiView<const T, 3, L, E>,       \
                                                          scratchkit::detail::EtiView<T, 3, L, E>>(                \
      const E&, scratchkit::Stencil3DVariant, const scratchkit::detail::EtiView<const T, 3, L, E>&,                \
      const scratchkit::detail::EtiView<T, 3, L, E>&, T, T, scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_STENCIL_3D_EXTERN(E, T, L) SCRATCHKIT_ETI_STENCIL_3D(extern, E, T, L)
#define SCRATCHKIT_ETI_STENCIL_3D_SPACE(E)                       \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_3D_EXTERN, E, float) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_3D_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_STENCIL_3D_SPACE)
#undef SCRATCHKIT_ETI_STENCIL_3D_SPACE
#undef SCRATCHKIT_ETI_STENCIL_3D_EXTERN
#endif
