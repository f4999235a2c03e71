// SPDX-License-Identifier: BSD-3-Clause
/// HaloTile: a block's 2-D or 3-D tile of a grid plus a halo, in static scratch, loaded in one call.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/boundary.hpp>  // Boundary: what load writes outside the grid
#include <scratchkit/shared_array.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/scratch_ref.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace scratchkit {

/// How a View's indices map onto a tile's (z, y, x): `as_indexed` (default) tile(z, y, x) is
/// view(z, y, x) (2-D: view(y, x)), whatever the layout; `reversed` tile(z, y, x) is view(x, y, z)
/// (2-D: view(x, y)), for grids indexed as Fortran codes index them (u(i, j, k), i fastest).
enum class HaloAxes { as_indexed, reversed };

namespace detail {

/// A View seen along the tile's axes: element (x, y, z) of the grid is p[x * s[0] + y * s[1] + z * s[2]].
template <class T>
struct HaloSource {
  const T* p;
  long s[3];   ///< strides of the tile's x, y, z, in elements
  int n[3];    ///< the grid's extents along them
  bool small;  ///< the View spans fewer than 2^31 elements: offsets in int
};

template <int Rank, class View>
KOKKOS_INLINE_FUNCTION HaloSource<typename View::non_const_value_type> halo_source(const View& v, HaloAxes axes) {
  static_assert(static_cast<int>(View::rank) == Rank, "HaloTile::load: the View's rank must be the tile's (2 or 3)");
  HaloSource<typename View::non_const_value_type> src{v.data(), {0, 0, 0}, {1, 1, 1},
                                                      static_cast<std::size_t>(v.span()) < (std::size_t(1) << 31)};
  for (int d = 0; d < Rank; ++d) {  // view index d is tile axis Rank - 1 - d (as_indexed) or d (reversed)
    const int a = axes == HaloAxes::reversed ? d : Rank - 1 - d;
    src.s[a]    = static_cast<long>(v.stride(d));
    src.n[a]    = static_cast<int>(v.extent(d));
  }
  return src;
}

/// Whether the layout makes the tile's x the View's unit-stride axis (then the host copy of a
/// row is a unit-stride loop the compiler knows as such; other layouts are tested at run time).
template <class View>
KOKKOS_INLINE_FUNCTION constexpr bool halo_layout_x_unit(HaloAxes axes) {
  using L = typename View::array_layout;
  if (std::is_same<L, Kokkos::LayoutRight>::value) return axes == HaloAxes::as_indexed;
  if (std::is_same<L, Kokkos::LayoutLeft>::value) return axes == HaloAxes::reversed;
  return false;
}

/// a modulo n in [0, n) for any int a (n > 0).
KOKKOS_INLINE_FUNCTION int halo_wrap(int a, int n) {
  const int r = a % n;
  return r < 0 ? r + n : r;
}
KOKKOS_INLINE_FUNCTION int halo_clamp(int a, int n) { return a < 0 ? 0 : a >= n ? n - 1 : a; }
/// n - o clipped to [0, e]: the in-grid extent of a tile of e points at o.
KOKKOS_INLINE_FUNCTION int halo_clip(int n, int o, int e) { return n - o < 0 ? 0 : n - o < e ? n - o : e; }

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
/// The boundary argument of a load and the user's source line (the checker names the load's stores after it).
struct BoundaryArg {
  Boundary value;
  SiteRef site;
  // NOLINTNEXTLINE(google-explicit-constructor): every load's Boundary converts
  BoundaryArg(Boundary b, SCRATCHKIT_SITE_DEFAULT) : value(b), site(SCRATCHKIT_SITE_OF(loc)) {}
};
inline Boundary boundary_value(const BoundaryArg& b) { return b.value; }
#else
using BoundaryArg = Boundary;
KOKKOS_FORCEINLINE_FUNCTION constexpr Boundary boundary_value(Boundary b) { return b; }
#endif

}  // namespace detail

/// A block's tile of a 2-D or 3-D grid with a halo of RX, RY(, RZ) points on each side, in the
/// block's static scratch (CUDA's `__shared__ T tile[NY + 2 RY][NX + 2 RX]`), loaded from a
/// View of any layout in one call and read in tile coordinates: `tile(y, x)`, `tile(z, y, x)`,
/// with (0, 0, 0) the tile's origin in the grid (by default the block's, b.grid_origin()) and the
/// halo at -R and at N .. N + R - 1. Extents and radii are compile-time constants, x first
/// (CUDA's order, as Dim3): HaloTile2d<float, 32, 8> is a 32 x 8 tile with radius 1, 34 x 10
/// elements. Use the aliases HaloTile2d and HaloTile3d.
///
/// \code
/// using Tile = scratchkit::HaloTile2d<float, 32, 8>;            // __shared__ float s[10][34]
/// auto p = scratchkit::LaunchParams({ceil_div(nx, 32), ceil_div(ny, 8)}, {32, 8}).uses<Tile>();
/// ... KOKKOS_LAMBDA(const Block& b) {
///   Tile tile(b);
///   tile.load(b, in, scratchkit::Boundary::zero);                // the tile and its halo, zero outside
///   scratchkit::sync_threads(b);
///   tile.clipped(b, [&](const scratchkit::Thread& t) {          // only the block's in-grid points
///     out(t.gy, t.gx) = c0 * tile(t.y, t.x) + c1 * (tile(t.y, t.x - 1) + tile(t.y, t.x + 1));
///   });
/// }
/// \endcode
///
/// Rows of the scratch tile are NX + 2 RX + Pad elements apart. Bank conflicts, as the scratch
/// checker counts them (tests/test_halo_tile.cpp, "bank conflicts"), for 4-byte elements and
/// radius 1: a block 32 wide reads one tile row a warp request, conflict-free for any Pad. A
/// block 16 wide (16 x 16) reads two rows a request: with Pad = 0 (rows 18 apart) every read
/// request is 2-way (640 conflicts in 640 requests over 16 blocks of a 5-point stencil); with
/// Pad = 30 (48 apart, 16 mod 32) none. The load's stores on a 64 x 64 grid: edge blocks store 32
/// consecutive tile points a request (none conflict with Pad = 0; with Pad = 30 a request crosses
/// the 30-word gap); interior blocks store each 16-byte vector's elements one at a time, lanes 4
/// words apart: 96 conflicts in 196 store requests with Pad = 0, 256 with Pad = 30.
template <class T, int Rank, int NX, int NY, int NZ, int RX, int RY, int RZ, int Pad = 0>
class HaloTile {
  static_assert(Rank == 2 || Rank == 3, "HaloTile: 2-D or 3-D");
  static_assert(NX > 0 && NY > 0 && NZ > 0, "HaloTile: extents must be positive");
  static_assert(RX >= 0 && RY >= 0 && RZ >= 0 && Pad >= 0, "HaloTile: radii and padding must not be negative");
  static_assert(Rank == 3 || (NZ == 1 && RZ == 0), "HaloTile: a 2-D tile has NZ = 1 and RZ = 0");
  static_assert(std::is_trivially_copyable<T>::value, "HaloTile: T must be trivially copyable");

 public:
  using value_type        = T;
  static constexpr int rank = Rank;
  static constexpr int nx = NX, ny = NY, nz = NZ;  ///< the tile's extents (the block's box)
  static constexpr int rx = RX, ry = RY, rz = RZ;  ///< halo radii
  static constexpr int wx = NX + 2 * RX, wy = NY + 2 * RY, wz = NZ + 2 * RZ;  ///< extents with the halo
  static constexpr int pitch = wx + Pad;           ///< elements from one scratch row to the next
  static constexpr int points = wx * wy * wz;      ///< elements a load writes
  using storage = SharedArray<T, static_cast<std::size_t>(pitch) * wy * wz>;

  /// Bytes it takes in scratch and their alignment: what LaunchParams::uses<HaloTile>() plans.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size() { return storage::shmem_size(); }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_align() { return storage::shmem_align(); }

  /// Takes the tile's bytes of the block's static region (in the order of uses<...>()); contents uninitialised.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit HaloTile(const BlockT& block) : m_s(block) {
    SCRATCHKIT_SCRATCH_HALO(T, m_s.impl_data(), storage::size(), pitch, NX, NY, NZ, RX, RY, RZ, Pad, Rank == 3);
  }

  /// Element (y, x) of a 2-D tile, -RY <= y < NY + RY, -RX <= x < NX + RX: `T&`, or under the
  /// scratch checker a proxy that records the access (name its type, `float v = tile(y, x);`).
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> operator()(detail::scratch_int_index yi, int x) const {
    static_assert(Rank == 2, "HaloTile: a 3-D tile takes tile(z, y, x)");
    const int y = detail::index_value(yi);
    check(0, y, x);
    return element(offset(0, y, x), yi);
  }
  /// Element (z, y, x) of a 3-D tile.
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> operator()(detail::scratch_int_index zi, int y, int x) const {
    static_assert(Rank == 3, "HaloTile: a 2-D tile takes tile(y, x)");
    const int z = detail::index_value(zi);
    check(z, y, x);
    return element(offset(z, y, x), zi);
  }
  /// The scratch storage: element (z, y, x) at data()[((z + RZ) * wy + y + RY) * pitch + x + RX].
  KOKKOS_INLINE_FUNCTION T* data() const { return m_s.data(); }

  /// Loads the tile and its halo from `view` around `origin` (the grid point of tile (0, 0, 0);
  /// default b.grid_origin()), points outside the grid as `boundary` says. A phase, like
  /// Block::block_stride: called from the kernel body by every thread, then sync_threads(b)
  /// before the tile is read. `view`: rank 2 or 3 (the tile's), element type T, any layout;
  /// `axes` maps its indices onto the tile's (HaloAxes).
  ///
  /// GPUs (and host blocks of several team members, and the scratch checker): a block-stride
  /// loop over the tile's points, consecutive threads on consecutive elements of the View's
  /// unit-stride axis (coalesced), without a test in blocks whose halo lies inside the grid.
  /// When the block's thread count is known at compile time (a BlockShape, or a block of the
  /// tile's NX x NY x NZ threads; a thread's points in 64 bytes) each thread's loads are unrolled
  /// and issued before its stores, with 32-bit offsets (Views of fewer than 2^31 elements); an
  /// interior block whose rows start on 16-byte boundaries (unit-stride x, NX, the origin's x, the
  /// row strides and the x extent whole 16-byte vectors, 4- and 8-byte arithmetic types) loads
  /// its rows as 16-byte vectors, one a thread, when they fit the block's threads. Host blocks of
  /// one member: row copies, a unit-stride loop without tests where the tile's x is the View's
  /// unit-stride axis; the grid's edges clamp each row's range and fill the rest as `boundary` says.
  /// Under the scratch checker each element is recorded as stored by the thread a GPU uses.
  template <class BlockT, class View>
  KOKKOS_INLINE_FUNCTION void load(const BlockT& b, const View& view, detail::BoundaryArg boundary,
                                   HaloAxes axes = HaloAxes::as_indexed) {
    load(b, view, b.grid_origin(), boundary, axes);
  }
  template <class BlockT, class View>
  KOKKOS_INLINE_FUNCTION void load(const BlockT& b, const View& view, const Dim3& origin, detail::BoundaryArg boundary,
                                   HaloAxes axes = HaloAxes::as_indexed) {
    static_assert(std::is_same<typename View::non_const_value_type, T>::value,
                  "HaloTile::load: the View's element type must be the tile's");
    const auto src = detail::halo_source<Rank>(view, axes);
    m_origin = origin;
    m_grid   = Dim3(src.n[0], src.n[1], src.n[2]);
    const Boundary bc = detail::boundary_value(boundary);
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    m_site = boundary.site;
#endif
    if constexpr (!BlockT::is_gpu) {
      if (detail::host_direct(b)) {
        if (detail::halo_layout_x_unit<View>(axes) || src.s[0] == 1)
          host_rows<true>(src, bc);
        else
          host_rows<false>(src, bc);
        return;
      }
    }
    // The unit-stride axis leads the block-stride order (LayoutLeft indexed as is: y or z).
    const int lead = src.s[0] == 1 || detail::halo_layout_x_unit<View>(axes) ? 0
                     : src.s[1] == 1                                          ? 1
                     : Rank == 3 && src.s[2] == 1                             ? 2
                                                                              : 0;
    if (lead == 1)
      strided<1, false>(b, src, bc);
    else if (Rank == 3 && lead == 2)
      strided<2, false>(b, src, bc);
    else if (detail::halo_layout_x_unit<View>(axes))
      strided<0, true>(b, src, bc);
    else
      strided<0, false>(b, src, bc);
  }

  /// The tile's box clipped to the grid, from the last load: Dim3(min(NX, nx - origin.x), ...),
  /// none negative. The threads of a block whose origin is the tile's with t.x < box.x, t.y < box.y,
  /// t.z < box.z are those on grid points.
  KOKKOS_INLINE_FUNCTION Dim3 in_grid_box() const {
    return Dim3(detail::halo_clip(m_grid.x, m_origin.x, NX), detail::halo_clip(m_grid.y, m_origin.y, NY),
                Rank == 3 ? detail::halo_clip(m_grid.z, m_origin.z, NZ) : 1);
  }
  /// A phase over the block's threads on grid points: b.threads(in_grid_box(), f) (Block::threads(box, f)),
  /// in place of `if (t.gx >= nx || t.gy >= ny) return;` inside threads(f). On host backends the row loop's
  /// trip count is the test, so the phase vectorises. The tile's box must fit the block (NX <= blockDim.x, ...).
  template <class BlockT, class F>
  KOKKOS_INLINE_FUNCTION void clipped(const BlockT& b, const F& f) const {
    b.threads(in_grid_box(), f);
  }
  /// The grid's extents along the tile's x, y, z, from the last load.
  KOKKOS_INLINE_FUNCTION Dim3 grid_extent() const { return m_grid; }
  /// The grid point of tile (0, 0, 0), from the last load.
  KOKKOS_INLINE_FUNCTION Dim3 origin() const { return m_origin; }

 private:
  KOKKOS_FORCEINLINE_FUNCTION static constexpr int offset(int z, int y, int x) {
    return ((z + RZ) * wy + y + RY) * pitch + x + RX;
  }
  KOKKOS_INLINE_FUNCTION static void check(int z, int y, int x) {
    SCRATCHKIT_BOUNDS_CHECK_V(x >= -RX && x < NX + RX && y >= -RY && y < NY + RY && z >= -RZ && z < NZ + RZ,
                              "scratchkit: HaloTile index (z %d, y %d, x %d) out of bounds [%d, %d) x [%d, %d) x "
                              "[%d, %d)",
                              z, y, x, -RZ, NZ + RZ, -RY, NY + RY, -RX, NX + RX);
    (void)z, (void)y, (void)x;
  }
  template <class I>
  KOKKOS_FORCEINLINE_FUNCTION detail::scratch_ref_t<T> element(int k, const I& ix) const {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    return detail::scratch_element(m_s.impl_data() + k, detail::index_site(ix));
#else
    (void)ix;
    return m_s.impl_data()[k];
#endif
  }
  // The load's store of element k (under the checker: a store at the load's line).
  KOKKOS_FORCEINLINE_FUNCTION void put(int k, const T& v) const {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    detail::scratch_element(m_s.impl_data() + k, m_site) = v;
#else
    m_s.impl_data()[k] = v;
#endif
  }

  // The grid element of tile point (x, y, z) of the halo'd box (0 <= x < wx, ...), as `bc` says;
  // false when the point is outside the grid and left unwritten.
  KOKKOS_FORCEINLINE_FUNCTION static bool fetch(const detail::HaloSource<T>& src, int gx, int gy, int gz, Boundary bc,
                                                T& v) {
    const bool in = gx >= 0 && gx < src.n[0] && gy >= 0 && gy < src.n[1] && gz >= 0 && gz < src.n[2];
    if (!in) {
      if (bc == Boundary::leave) return false;
      if (bc == Boundary::zero || src.n[0] <= 0 || src.n[1] <= 0 || src.n[2] <= 0) {
        v = T{};
        return bc == Boundary::zero;
      }
      if (bc == Boundary::clamp) {
        gx = detail::halo_clamp(gx, src.n[0]), gy = detail::halo_clamp(gy, src.n[1]), gz = detail::halo_clamp(gz, src.n[2]);
      } else {
        gx = detail::halo_wrap(gx, src.n[0]), gy = detail::halo_wrap(gy, src.n[1]), gz = detail::halo_wrap(gz, src.n[2]);
      }
    }
    v = src.p[gx * src.s[0] + gy * src.s[1] + gz * src.s[2]];
    return true;
  }

  // Block-stride load: point i of the halo'd box goes to logical thread i % num_threads(), the
  // box walked with axis Lead fastest (the View's unit-stride axis: coalesced loads).
  // XUnit: the layout makes x the unit-stride axis (one multiply less an element).
  template <int Lead, bool XUnit, class BlockT>
  KOKKOS_INLINE_FUNCTION void strided(const BlockT& b, const detail::HaloSource<T>& src, Boundary bc) const {
    // A thread count known at compile time (a static block shape, or a block of the tile's shape)
    // unrolls each thread's loads and issues them all before its stores.
    if (src.small) {
      if constexpr (BlockT::static_shape) {
        if constexpr (held_fits<BlockT::static_threads>()) {
          counted<Lead, XUnit, BlockT::static_threads>(b, src, bc);
          return;
        }
      } else if constexpr (held_fits<NX * NY * NZ>()) {
        if (b.num_threads() == NX * NY * NZ) {
          counted<Lead, XUnit, NX * NY * NZ>(b, src, bc);
          return;
        }
      }
    }
    // Lead 0 walks x, y, z; Lead 1 y, x, z; Lead 2 z, y, x (fastest first).
    constexpr int e0 = Lead == 0 ? wx : Lead == 1 ? wy : wz, e1 = Lead == 1 ? wx : wy, e01 = e0 * e1;
    const Dim3 o  = m_origin;
    const int gx0 = o.x - RX, gy0 = o.y - RY, gz0 = Rank == 3 ? o.z - RZ : 0;
    const bool interior = gx0 >= 0 && gx0 + wx <= src.n[0] && gy0 >= 0 && gy0 + wy <= src.n[1] &&
                          (Rank == 2 || (gz0 >= 0 && gz0 + wz <= src.n[2]));
    const int nt = b.num_threads();
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < points; i += nt) {
        const int c2 = i / e01, r = i - c2 * e01, c1 = r / e0, c0 = r - c1 * e0;
        const int x = Lead == 0 ? c0 : Lead == 1 ? c1 : c2, y = Lead == 1 ? c0 : c1, z = Lead == 2 ? c0 : c2;
        const int k = (z * wy + y) * pitch + x;
        if (interior) {
          put(k, src.p[(XUnit ? gx0 + x : (gx0 + x) * src.s[0]) + (gy0 + y) * src.s[1] + (gz0 + z) * src.s[2]]);
        } else {
          T v;
          if (fetch(src, gx0 + x, gy0 + y, gz0 + z, bc, v)) put(k, v);
        }
      }
    });
  }

  // Whether the values a thread of NT holds between its loads and its stores fit 64 bytes (registers, not
  // local memory); larger tiles a thread take the run-time loop.
  template <int NT>
  KOKKOS_INLINE_FUNCTION static constexpr bool held_fits() {
    return (points + NT - 1) / NT * sizeof(T) <= 64;
  }
  // Tile point i of the box walked with axis Lead fastest: its (x, y, z) (divisions by constants).
  template <int Lead>
  KOKKOS_FORCEINLINE_FUNCTION static void point_of(int i, int& x, int& y, int& z) {
    constexpr int e0 = Lead == 0 ? wx : Lead == 1 ? wy : wz, e1 = Lead == 1 ? wx : wy, e01 = e0 * e1;
    const int c2 = i / e01, r = i - c2 * e01, c1 = r / e0, c0 = r - c1 * e0;
    x = Lead == 0 ? c0 : Lead == 1 ? c1 : c2, y = Lead == 1 ? c0 : c1, z = Lead == 2 ? c0 : c2;
  }
  // Whether a point outside an edge block's grid is read (2), written T{} (1) or left (0), as
  // `bc` says, and its offset in the grid (fetch's rule, in 32 bits: HaloSource::small).
  KOKKOS_FORCEINLINE_FUNCTION static int edge_source(const detail::HaloSource<T>& src, int gx, int gy, int gz,
                                                     Boundary bc, int& off) {
    const bool in = gx >= 0 && gx < src.n[0] && gy >= 0 && gy < src.n[1] && gz >= 0 && gz < src.n[2];
    if (!in) {
      if (bc == Boundary::leave) return 0;
      if (bc == Boundary::zero) return 1;
      if (src.n[0] <= 0 || src.n[1] <= 0 || src.n[2] <= 0) return 0;
      if (bc == Boundary::clamp) {
        gx = detail::halo_clamp(gx, src.n[0]), gy = detail::halo_clamp(gy, src.n[1]), gz = detail::halo_clamp(gz, src.n[2]);
      } else {
        gx = detail::halo_wrap(gx, src.n[0]), gy = detail::halo_wrap(gy, src.n[1]), gz = detail::halo_wrap(gz, src.n[2]);
      }
    }
    off = gx * static_cast<int>(src.s[0]) + gy * static_cast<int>(src.s[1]) + gz * static_cast<int>(src.s[2]);
    return 2;
  }

  // The block-stride load with NT threads known at compile time: each thread's K points in
  // registers first, then in the tile (its loads in flight together); 32-bit offsets. Interior
  // blocks without tests, 16-byte vectors where the rows' alignment allows.
  template <int Lead, bool XUnit, int NT, class BlockT>
  KOKKOS_INLINE_FUNCTION void counted(const BlockT& b, const detail::HaloSource<T>& src, Boundary bc) const {
    constexpr int K = (points + NT - 1) / NT;
    const Dim3 o  = m_origin;
    const int gx0 = o.x - RX, gy0 = o.y - RY, gz0 = Rank == 3 ? o.z - RZ : 0;
    const bool interior = gx0 >= 0 && gx0 + wx <= src.n[0] && gy0 >= 0 && gy0 + wy <= src.n[1] &&
                          (Rank == 2 || (gz0 >= 0 && gz0 + wz <= src.n[2]));
    if constexpr (vector_rows<Lead, NT>()) {
      if (interior && vectors_fit<XUnit>(src, o.x)) {
        vectors<NT>(b, src, gx0, gy0, gz0);
        return;
      }
    }
    const int s0 = XUnit ? 1 : static_cast<int>(src.s[0]), s1 = static_cast<int>(src.s[1]),
              s2 = static_cast<int>(src.s[2]);
    b.threads([&](const Thread& t) {
      T v[K];
      if (interior) {
        const T* base = src.p + (gx0 * s0 + gy0 * s1 + gz0 * s2);
        SCRATCHKIT_UNROLL
        for (int k = 0; k < K; ++k) {
          const int i = t.rank + k * NT;
          int x, y, z;
          point_of<Lead>(i, x, y, z);
          if (k + 1 < K || i < points) v[k] = base[x * s0 + y * s1 + z * s2];
        }
        SCRATCHKIT_UNROLL
        for (int k = 0; k < K; ++k) {
          const int i = t.rank + k * NT;
          if (k + 1 < K || i < points) put(tile_index<Lead>(i), v[k]);
        }
      } else {
        int what[K];
        SCRATCHKIT_UNROLL
        for (int k = 0; k < K; ++k) {
          const int i = t.rank + k * NT;
          int x, y, z, off = 0;
          point_of<Lead>(i, x, y, z);
          what[k] = k + 1 < K || i < points ? edge_source(src, gx0 + x, gy0 + y, gz0 + z, bc, off) : 0;
          v[k]    = what[k] == 2 ? src.p[off] : T{};
        }
        SCRATCHKIT_UNROLL
        for (int k = 0; k < K; ++k)
          if (what[k] != 0) put(tile_index<Lead>(t.rank + k * NT), v[k]);
      }
    });
  }
  // The scratch offset of tile point i (the box walked with axis Lead fastest).
  template <int Lead>
  KOKKOS_FORCEINLINE_FUNCTION static int tile_index(int i) {
    if constexpr (Lead == 0 && Pad == 0) {
      return i;
    } else {
      int x, y, z;
      point_of<Lead>(i, x, y, z);
      return (z * wy + y) * pitch + x;
    }
  }

  // 16-byte vectors: rows along x (Lead 0) of a 4- or 8-byte arithmetic type, NX whole vectors,
  // at most one vector a thread (NT threads; with two a thread the scalar loads measured faster,
  // docs/performance.md).
  template <int Lead, int NT>
  KOKKOS_INLINE_FUNCTION static constexpr bool vector_rows() {
    if constexpr (Lead == 0 && std::is_arithmetic<T>::value && (sizeof(T) == 4 || sizeof(T) == 8)) {
      constexpr int W = 16 / static_cast<int>(sizeof(T));
      return NX % W == 0 && (NX / W + 2 * ((RX + W - 1) / W)) * wy * wz <= NT;
    } else {
      return false;
    }
  }
  // Whether an interior block's rows start on 16-byte boundaries: x of unit stride, the origin's
  // x, the rows' strides and the grid's x extent whole vectors, the data 16-byte aligned (then the
  // vectors covering the halo stay inside the grid's rows).
  template <bool XUnit>
  KOKKOS_INLINE_FUNCTION static bool vectors_fit(const detail::HaloSource<T>& src, int ox) {
    constexpr int W = 16 / static_cast<int>(sizeof(T));
    return (XUnit || src.s[0] == 1) && ox % W == 0 && src.n[0] % W == 0 && src.s[1] % W == 0 && src.s[2] % W == 0 &&
           reinterpret_cast<std::uintptr_t>(src.p) % 16 == 0;
  }
  // An interior block's rows as 16-byte vectors from HR vectors before its origin to HR after its
  // end, vector j on logical thread j (VP <= NT: vector_rows), the elements inside the halo'd row stored.
  template <int NT, class BlockT>
  KOKKOS_INLINE_FUNCTION void vectors(const BlockT& b, const detail::HaloSource<T>& src, int gx0, int gy0,
                                      int gz0) const {
    constexpr int W = 16 / static_cast<int>(sizeof(T)), HR = (RX + W - 1) / W, VR = NX / W + 2 * HR;
    constexpr int VP = VR * wy * wz, lead = HR * W - RX;  // tile x of a row's first element: -lead
    const int s1 = static_cast<int>(src.s[1]), s2 = static_cast<int>(src.s[2]);
    const T* base = src.p + (gx0 - lead + gy0 * s1 + gz0 * s2);
    b.threads([&](const Thread& t) {
      const int j = t.rank, row = j / VR, c = j - row * VR, z = row / wy, y = row - z * wy;
      if (VP < NT && j >= VP) return;
      T v[W];
      detail::load16_plain(base + (z * s2 + y * s1 + c * W), v);
      SCRATCHKIT_UNROLL
      for (int e = 0; e < W; ++e) {
        const int x = c * W + e - lead;
        if (x >= 0 && x < wx) put(row * pitch + x, v[e]);
      }
    });
  }

  // Host, one member: the tile row by row; Unit: the tile's x is the View's unit-stride axis.
  template <bool Unit>
  KOKKOS_INLINE_FUNCTION void host_rows(const detail::HaloSource<T>& src, Boundary bc) const {
    const int nx_ = src.n[0], ny_ = src.n[1], nz_ = src.n[2];
    const int gx0 = m_origin.x - RX, gy0 = m_origin.y - RY, gz0 = Rank == 3 ? m_origin.z - RZ : 0;
    const long sx = Unit ? 1 : src.s[0];
    // The row's in-grid range [xa, xb) of the wx points.
    int xa = -gx0 < 0 ? 0 : -gx0 > wx ? wx : -gx0;
    int xb = nx_ - gx0 > wx ? wx : nx_ - gx0 < xa ? xa : nx_ - gx0;
    const bool empty = nx_ <= 0 || ny_ <= 0 || nz_ <= 0;
    for (int z = 0; z < wz; ++z)
      for (int y = 0; y < wy; ++y) {
        T* __restrict__ dst = m_s.impl_data() + (z * wy + y) * pitch;
        int gy = gy0 + y, gz = gz0 + z;
        const bool row_in = gy >= 0 && gy < ny_ && gz >= 0 && gz < nz_;
        if (!row_in || empty) {
          if (bc == Boundary::leave) continue;
          if (bc == Boundary::zero || empty) {
            if (bc == Boundary::zero) fill(dst, 0, wx, T{});
            continue;
          }
          if (bc == Boundary::clamp)
            gy = detail::halo_clamp(gy, ny_), gz = detail::halo_clamp(gz, nz_);
          else
            gy = detail::halo_wrap(gy, ny_), gz = detail::halo_wrap(gz, nz_);
        }
        const T* __restrict__ row = src.p + gy * src.s[1] + gz * src.s[2];  // grid x = 0 of the row
        if (xa == 0 && xb == wx) {  // the whole row in the grid: a constant trip count
          SCRATCHKIT_HOST_IVDEP
          for (int x = 0; x < wx; ++x) dst[x] = row[(gx0 + x) * sx];
          continue;
        }
        SCRATCHKIT_HOST_IVDEP
        for (int x = xa; x < xb; ++x) dst[x] = row[(gx0 + x) * sx];
        // The row's ends outside the grid.
        if (bc == Boundary::leave) continue;
        if (bc == Boundary::zero) {
          fill(dst, 0, xa, T{});
          fill(dst, xb, wx, T{});
        } else {
          for (int x = 0; x < xa; ++x)
            dst[x] = row[(bc == Boundary::clamp ? detail::halo_clamp(gx0 + x, nx_) : detail::halo_wrap(gx0 + x, nx_)) * sx];
          for (int x = xb; x < wx; ++x)
            dst[x] = row[(bc == Boundary::clamp ? detail::halo_clamp(gx0 + x, nx_) : detail::halo_wrap(gx0 + x, nx_)) * sx];
        }
      }
  }
  KOKKOS_INLINE_FUNCTION static void fill(T* dst, int a, int b, const T& v) {
    for (int x = a; x < b; ++x) dst[x] = v;
  }

  storage m_s;
  Dim3 m_origin{0, 0, 0};
  Dim3 m_grid{0, 0, 0};
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  detail::SiteRef m_site{};
#endif
};

/// A 2-D halo tile: NX x NY points (x first, CUDA's order), radius RX along x and RY along y,
/// rows padded by Pad elements; read as tile(y, x).
template <class T, int NX, int NY, int RX = 1, int RY = RX, int Pad = 0>
using HaloTile2d = HaloTile<T, 2, NX, NY, 1, RX, RY, 0, Pad>;
/// A 3-D halo tile: NX x NY x NZ points, radii RX, RY, RZ, rows padded by Pad; read as tile(z, y, x).
template <class T, int NX, int NY, int NZ, int RX = 1, int RY = RX, int RZ = RX, int Pad = 0>
using HaloTile3d = HaloTile<T, 3, NX, NY, NZ, RX, RY, RZ, Pad>;

}  // namespace scratchkit
