// SPDX-License-Identifier: BSD-3-Clause
/// stencil_2d: the layer implementation behind kernels/stencil_2d.hpp (the public call and its contract are there).
#pragma once

#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/halo_tile.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/stencil_2d.hpp>
#include <scratchkit/tuning/stencil_2d.hpp>
#include <scratchkit/variants/stencil_2d.hpp>

namespace scratchkit {
namespace detail {

/// The block and its tile, both twins' (tuning/stencil_2d.hpp).
using Stencil2DPolicy = tuning::Stencil2DPolicy;

/// One output at tile point (y, x): s = 0; s += w(a, b) * in(y + a - R, x + b - R) for a = 0..2R,
/// then b = 0..2R, the shape's taps only (wr: the weights row-major). Transposed: the arrays are
/// the call's transposed (its column-major Views seen row-major), so the call's tap (a, b) is
/// wr[b][a] times tile(y + b - R, x + a - R): the same products in the same order.
template <int R, bool Star, bool Transposed, class T, class Tile>
KOKKOS_FORCEINLINE_FUNCTION T stencil2d_point(const Tile& tile, const T* wr, int y, int x) {
  constexpr int K = 2 * R + 1;
  T s = 0;
  SCRATCHKIT_UNROLL
  for (int a = 0; a < K; ++a) {
    SCRATCHKIT_UNROLL
    for (int b = 0; b < K; ++b) {
      if (Star && a != R && b != R) continue;
      const T v = Transposed ? tile(y + b - R, x + a - R) : tile(y + a - R, x + b - R);
      s += wr[Transposed ? b * K + a : a * K + b] * v;
    }
  }
  return s;
}

/// The layer kernel: a HaloTile2d of the block's tile_x x tile_y points and a halo of R, loaded
/// with the call's Boundary by a block of static shape threads_x x threads_y; each thread writes
/// the in-grid points of its column, `rows` of them threads_y apart, one phase a row.
template <int R, bool Star, bool Transposed, class ExecSpace, class InView, class WView, class OutView>
void stencil_2d_tile(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out, Boundary bc) {
  using T          = typename OutView::non_const_value_type;
  using P          = Stencil2DPolicy;
  constexpr int K  = 2 * R + 1;
  using Tile       = HaloTile2d<T, P::tile_x, P::tile_y, R, R>;
  using B          = Block<ExecSpace, BlockShape<P::threads_x, P::threads_y>>;
  const int n0 = static_cast<int>(in.extent(0)), n1 = static_cast<int>(in.extent(1));
  auto p = LaunchParams(Dim3(ceil_div(n1, P::tile_x), ceil_div(n0, P::tile_y)));
  p.uses<Tile>();
  launch(exec, "scratchkit::stencil_2d", p, KOKKOS_LAMBDA(const B& b) {
    T wr[K * K];  // the weights in registers (the twin's too)
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j) wr[i * K + j] = w(i, j);
    const Dim3 o(b.block_idx().x * P::tile_x, b.block_idx().y * P::tile_y, 0);
    Tile tile(b);
    tile.load(b, in, o, bc);
    sync_threads(b);
    const Dim3 box = tile.in_grid_box();
    // Unrolled as the twin's: each thread's rows are independent sums (nvcc keeps radius 2 rolled otherwise).
    SCRATCHKIT_UNROLL
    for (int r = 0; r < P::rows; ++r) {
      const int y0 = r * P::threads_y, ny = box.y - y0 < 0 ? 0 : box.y - y0 < P::threads_y ? box.y - y0 : P::threads_y;
      b.threads(Dim3(box.x, ny, 1), [&](const Thread& t) {
        out(o.y + y0 + t.y, o.x + t.x) = stencil2d_point<R, Star, Transposed, T>(tile, wr, y0 + t.y, t.x);
      });
    }
  });
}

template <int R, class ExecSpace, class InView, class WView, class OutView>
void stencil_2d_radius(const ExecSpace& exec, Stencil2DShape shape, Boundary bc, const InView& in, const WView& w,
                       const OutView& out, bool transposed) {
  if (shape == Stencil2DShape::star) {
    if (transposed) return stencil_2d_tile<R, true, true>(exec, in, w, out, bc);
    return stencil_2d_tile<R, true, false>(exec, in, w, out, bc);
  }
  if (transposed) return stencil_2d_tile<R, false, true>(exec, in, w, out, bc);
  stencil_2d_tile<R, false, false>(exec, in, w, out, bc);
}

/// stencil_2d's entry point (detail/eti.hpp): the Views mapped by stencil_2d() onto row-major
/// ones (`transposed`: of the call's column-major Views), arguments checked there. The native
/// branch is here, compiled once in the library's unit.
template <class ExecSpace, class InView, class WView, class OutView>
void stencil_2d_run(const ExecSpace& exec, Stencil2DShape shape, Boundary bc, const InView& in, const WView& w,
                    const OutView& out, bool transposed, Backend backend) {
  const int R = static_cast<int>(w.extent(0) - 1) / 2;
  if (backend == Backend::native)
    return native_run(exec, "stencil_2d", {"in", "w", "out"}, [&](auto stream) {
      native::cuda::stencil_2d(shape, bc, R, in.data(), w.data(), out.data(), static_cast<int>(in.extent(0)),
                               static_cast<int>(in.extent(1)), transposed, stream);
    }, in, w, out);
  if (in.extent(0) == 0 || in.extent(1) == 0) return;  // nothing to compute: no launch
  if (R == 1) return stencil_2d_radius<1>(exec, shape, bc, in, w, out, transposed);
  stencil_2d_radius<2>(exec, shape, bc, in, w, out, transposed);
}

}  // namespace detail
}  // namespace scratchkit

/// stencil_2d's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_STENCIL_2D(PREFIX, E, T, L)                                                                \
  PREFIX template void scratchkit::detail::stencil_2d_run<E, scratchkit::detail::EtiView<const T, 2, L, E>,      \
                                                          scratchkit::detail::EtiView<const T, 2, L, E>,          \
                                                          scratchkit::detail::EtiView<T, 2, L, E>>(               \
      const E&, scratchkit::Stencil2DShape, scratchkit::Boundary, const scratchkit::detail::EtiView<const T, 2, L, E>&, \
      const scratchkit::detail::EtiView<const T, 2, L, E>&, const scratchkit::detail::EtiView<T, 2, L, E>&, bool,  \
      scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_STENCIL_2D_EXTERN(E, T, L) SCRATCHKIT_ETI_STENCIL_2D(extern, E, T, L)
#define SCRATCHKIT_ETI_STENCIL_2D_SPACE(E)                           \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_2D_EXTERN, E, float) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_STENCIL_2D_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_STENCIL_2D_SPACE)
#undef SCRATCHKIT_ETI_STENCIL_2D_SPACE
#undef SCRATCHKIT_ETI_STENCIL_2D_EXTERN
#endif
