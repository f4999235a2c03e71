// SPDX-License-Identifier: BSD-3-Clause
/// 3-D 7-point stencil (one Jacobi/heat step) on the layer (native twin: src/cuda/stencil_3d.cu).
#pragma once

#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/stencil_3d.hpp>
#include <scratchkit/padded_tile.hpp>
#include <scratchkit/per_thread.hpp>

#include <algorithm>
#include <climits>
#include <sstream>

namespace scratchkit {
namespace detail {

/// Block shape (x, y) of both variants: a warp spans one row of 32 x values.
constexpr int stencil3d_bx = 32;
constexpr int stencil3d_by = 8;
/// Planes one block of Stencil3DVariant::z_streaming marches through: blocks
/// over (x-y tile, z chunk), so that mid-sized grids still fill the GPU.
constexpr int stencil3d_zchunk = 32;
/// CUDA's limit on gridDim.y; more z planes (chunks) are looped over.
constexpr int stencil3d_max_grid_y = 65535;

/// One plane's x-y tile with a one-cell halo: (by + 2) x (bx + 2), no padding
/// (a warp reads one row: consecutive banks).
template <class T>
using Stencil3DTile = PaddedTile<T, stencil3d_by + 2, stencil3d_bx + 2, 0>;

/// The halo cell a thread at block coordinate t (of B) and grid coordinate g
/// (of n) loads along one axis: -1 (the cell before the tile), +1 (after) or 0.
KOKKOS_INLINE_FUNCTION int stencil3d_halo_side(int t, int B, int g, int n) {
  return (t == 0 && g > 0) ? -1 : (t == B - 1 && g + 1 < n) ? 1 : 0;
}

// Grid of both variants: x = the x-y tiles (flattened, x fastest), y = z planes
// (tile_2d_halo) or z chunks (z_streaming), looped above gridDim.y's limit.
template <class ExecSpace, class InView, class OutView>
void stencil_3d_tile_2d_halo(const ExecSpace& exec, const InView& in, const OutView& out,
                             typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  using T    = typename OutView::non_const_value_type;
  using B_t  = Block<ExecSpace>;
  using Tile = Stencil3DTile<T>;
  constexpr int BX = stencil3d_bx, BY = stencil3d_by;
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)),
            nx = static_cast<int>(in.extent(2));
  const int nbx = ceil_div(nx, BX), nby = ceil_div(ny, BY);
  const int gy  = std::min(nz, stencil3d_max_grid_y);
  const auto p  = LaunchParams(Dim3(nbx * nby, gy), Dim3(BX, BY)).uses<Tile>();
  launch(exec, "scratchkit::stencil_3d_tile_2d_halo", p, KOKKOS_LAMBDA(const B_t& b) {
    Tile tile(b);
    PerThread<T, B_t, BX * BY> zm(b), zp(b);  // z neighbours, loaded before the barrier
    const int x0 = (b.block_idx().x % nbx) * BX, y0 = (b.block_idx().x / nbx) * BY;
    for (int z = b.block_idx().y; z < nz; z += gy) {
      b.threads([&](const Thread& t) {
        const int x = x0 + t.x, y = y0 + t.y;
        if (x < nx && y < ny) {
          // Centre and the halo cells next to it; cells outside the grid are
          // never read (their neighbours are boundary points).
          tile(t.y + 1, t.x + 1) = in(z, y, x);
          if (t.x == 0 && x > 0) tile(t.y + 1, 0) = in(z, y, x - 1);
          if (t.x == BX - 1 && x + 1 < nx) tile(t.y + 1, BX + 1) = in(z, y, x + 1);
          if (t.y == 0 && y > 0) tile(0, t.x + 1) = in(z, y - 1, x);
          if (t.y == BY - 1 && y + 1 < ny) tile(BY + 1, t.x + 1) = in(z, y + 1, x);
          if (z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1) {
            zm(t) = in(z - 1, y, x);
            zp(t) = in(z + 1, y, x);
          }
        }
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        const int x = x0 + t.x, y = y0 + t.y;
        if (x < nx && y < ny) {
          const T u = tile(t.y + 1, t.x + 1);
          if (z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1) {
            T s = tile(t.y + 1, t.x);
            s += tile(t.y + 1, t.x + 2);
            s += tile(t.y, t.x + 1);
            s += tile(t.y + 2, t.x + 1);
            s += zm(t);
            s += zp(t);
            out(z, y, x) = c0 * u + c1 * s;
          } else {
            out(z, y, x) = u;
          }
        }
      });
      if (z + gy < nz) sync_threads(b);  // the tile is rewritten for the next plane
    }
  });
}

template <class ExecSpace, class InView, class OutView>
void stencil_3d_z_streaming(const ExecSpace& exec, const InView& in, const OutView& out,
                            typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  using T    = typename OutView::non_const_value_type;
  using B_t  = Block<ExecSpace>;
  using Tile = Stencil3DTile<T>;
  constexpr int BX = stencil3d_bx, BY = stencil3d_by, ZC = stencil3d_zchunk;
  const int nz = static_cast<int>(in.extent(0)), ny = static_cast<int>(in.extent(1)),
            nx = static_cast<int>(in.extent(2));
  const int nbx = ceil_div(nx, BX), nby = ceil_div(ny, BY), nchunks = ceil_div(nz, ZC);
  const int gy  = std::min(nchunks, stencil3d_max_grid_y);
  // Two plane buffers: plane z is written to buffer z & 1, so one barrier per
  // plane separates its writes from the reads of the plane before.
  const auto p = LaunchParams(Dim3(nbx * nby, gy), Dim3(BX, BY)).uses<Tile, Tile>();
  launch(exec, "scratchkit::stencil_3d_z_streaming", p, KOKKOS_LAMBDA(const B_t& b) {
    Tile t0(b), t1(b);
    // Registers that live across the barriers: in(z-1), in(z), in(z+1) of
    // this thread's column, and the halo cells of the next plane it loads.
    PerThread<T, B_t, BX * BY> prev(b), cur(b), next(b), hx(b), hy(b);
    const int x0 = (b.block_idx().x % nbx) * BX, y0 = (b.block_idx().x / nbx) * BY;
    for (int c = b.block_idx().y; c < nchunks; c += gy) {
      const int zb = c * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
      b.threads([&](const Thread& t) {
        const int x = x0 + t.x, y = y0 + t.y;
        if (x < nx && y < ny) {
          prev(t) = zb > 0 ? in(zb - 1, y, x) : T(0);
          cur(t)  = in(zb, y, x);
          next(t) = zb + 1 < nz ? in(zb + 1, y, x) : T(0);
          const int hxo = stencil3d_halo_side(t.x, BX, x, nx), hyo = stencil3d_halo_side(t.y, BY, y, ny);
          if (hxo != 0) hx(t) = in(zb, y, x + hxo);
          if (hyo != 0) hy(t) = in(zb, y + hyo, x);
        }
      });
      for (int z = zb; z < ze; ++z) {
        const Tile& tile = ((z - zb) & 1) ? t1 : t0;
        b.threads([&](const Thread& t) {
          const int x = x0 + t.x, y = y0 + t.y;
          if (x < nx && y < ny) {
            const int hxo = stencil3d_halo_side(t.x, BX, x, nx), hyo = stencil3d_halo_side(t.y, BY, y, ny);
            tile(t.y + 1, t.x + 1) = cur(t);
            if (hxo != 0) tile(t.y + 1, t.x + 1 + hxo) = hx(t);
            if (hyo != 0) tile(t.y + 1 + hyo, t.x + 1) = hy(t);
          }
        });
        sync_threads(b);
        b.threads([&](const Thread& t) {
          const int x = x0 + t.x, y = y0 + t.y;
          if (x < nx && y < ny) {
            const T u = cur(t);
            if (z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1) {
              T s = tile(t.y + 1, t.x);
              s += tile(t.y + 1, t.x + 2);
              s += tile(t.y, t.x + 1);
              s += tile(t.y + 2, t.x + 1);
              s += prev(t);
              s += next(t);
              out(z, y, x) = c0 * u + c1 * s;
            } else {
              out(z, y, x) = u;
            }
            // Advance the column and prefetch what the next plane of this chunk needs.
            if (z + 1 < ze) {
              prev(t) = u;
              cur(t)  = next(t);
              next(t) = z + 2 < nz ? in(z + 2, y, x) : T(0);
              const int hxo = stencil3d_halo_side(t.x, BX, x, nx), hyo = stencil3d_halo_side(t.y, BY, y, ny);
              if (hxo != 0) hx(t) = in(z + 1, y, x + hxo);
              if (hyo != 0) hy(t) = in(z + 1, y + hyo, x);
            }
          }
        });
      }
      if (c + gy < nchunks) sync_threads(b);  // the next chunk rewrites buffer 0
    }
  });
}

}  // namespace detail

/// One 7-point stencil step on an nz x ny x nx grid (Views indexed (z, y, x),
/// x fastest): for interior points
///   out = c0*in(z,y,x) + c1*(in(z,y,x-1) + in(z,y,x+1) + in(z,y-1,x) + in(z,y+1,x) + in(z-1,y,x) + in(z+1,y,x)),
/// summed in exactly that order (the native twin does the same, so they agree
/// bit for bit); points with an index 0 or n-1 in any dimension are copied
/// (fixed Dirichlet boundary). A heat step is c0 = 1 - 6*alpha, c1 = alpha.
///
/// float or double. `in` and `out` must have the same extents and be
/// different arrays (ShapeError otherwise, before any launch). Backend::layer
/// takes any layout (LayoutRight is the fast one); Backend::native runs the
/// CUDA twin on exec's stream and needs Kokkos::Cuda and LayoutRight
/// contiguous CUDA Views (UnsupportedError otherwise). Asynchronous: fence
/// exec before reading out.
/// \code
/// Kokkos::View<float***> u("u", nz, ny, nx), v("v", nz, ny, nx);
/// const float alpha = 0.1f;
/// scratchkit::stencil_3d_7pt(exec, scratchkit::Stencil3DVariant::z_streaming, u, v, 1 - 6 * alpha, alpha);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void stencil_3d_7pt(const ExecSpace& exec, Stencil3DVariant variant, const InView& in, const OutView& out,
                    typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1,
                    Backend backend = Backend::layer) {
  static_assert(InView::rank == 3 && OutView::rank == 3, "scratchkit::stencil_3d_7pt: in, out must be rank-3 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "scratchkit::stencil_3d_7pt: the Views must be accessible from the execution space");
  using T = typename OutView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "scratchkit::stencil_3d_7pt: float or double");
  static_assert(std::is_same<typename InView::non_const_value_type, T>::value,
                "scratchkit::stencil_3d_7pt: in and out must have the same element type");
  if (in.extent(0) != out.extent(0) || in.extent(1) != out.extent(1) || in.extent(2) != out.extent(2)) {
    std::ostringstream os;
    os << "scratchkit::stencil_3d_7pt: in and out must have the same extents (nz x ny x nx): in is "
       << in.extent(0) << " x " << in.extent(1) << " x " << in.extent(2) << ", out is " << out.extent(0) << " x "
       << out.extent(1) << " x " << out.extent(2);
    throw ShapeError(os.str());
  }
  constexpr std::size_t max_extent = static_cast<std::size_t>(INT_MAX / 2);
  if (in.extent(0) > max_extent || in.extent(1) > max_extent || in.extent(2) > max_extent ||
      static_cast<long long>(ceil_div(in.extent(1), detail::stencil3d_by)) *
              ceil_div(in.extent(2), detail::stencil3d_bx) >
          INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::stencil_3d_7pt: extents " << in.extent(0) << " x " << in.extent(1) << " x " << in.extent(2)
       << " are too large (each < 2^30, at most 2^31-1 x-y tiles of " << detail::stencil3d_bx << " x "
       << detail::stencil3d_by << ")";
    throw ShapeError(os.str());
  }
  if (in.size() > 0 && static_cast<const void*>(in.data()) == static_cast<const void*>(out.data())) {
    throw ShapeError(
        "scratchkit::stencil_3d_7pt: in and out are the same array; a Jacobi step reads in while writing out, "
        "give it two arrays");
  }
  if (backend == Backend::native) {
    void* stream = detail::native_stream(exec, "stencil_3d_7pt");
    detail::require_native_view(in, "stencil_3d_7pt", "in");
    detail::require_native_view(out, "stencil_3d_7pt", "out");
#if SCRATCHKIT_HAS_NATIVE_CUDA
    native::cuda::stencil_3d_7pt(variant, in.data(), out.data(), static_cast<int>(in.extent(0)),
                                 static_cast<int>(in.extent(1)), static_cast<int>(in.extent(2)), c0, c1, stream);
#else
    (void)stream;
#endif
    return;
  }
  if (in.size() == 0) return;
  switch (variant) {
    case Stencil3DVariant::tile_2d_halo: detail::stencil_3d_tile_2d_halo(exec, in, out, c0, c1); return;
    case Stencil3DVariant::z_streaming: detail::stencil_3d_z_streaming(exec, in, out, c0, c1); return;
    default: break;
  }
  throw UnsupportedError(std::string("scratchkit::stencil_3d_7pt: variant ") + name(variant) +
                         " is not implemented on the layer");
}

}  // namespace scratchkit
