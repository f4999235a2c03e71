// SPDX-License-Identifier: BSD-3-Clause
/// The host yardstick: each kernel written the way a CPU Kokkos user writes it
/// (RangePolicy, MDRangePolicy, atomics; no team scratch, no barriers), the
/// rows "plain-kokkos" of the bench on host backends. report.py holds each
/// layer row to the plain row of its kernel, type, layout and size (the
/// reductions and the tile collectives use Kokkos' parallel_reduce and
/// team_scan / team_reduce rows, "kokkos-builtin", for the same purpose).
///
/// Each computes what the layer computes within the checks' bounds: the
/// stencils sum their terms in the layer's order, GEMM sums over k in
/// increasing order, the histogram bins with the layer's expression.
#pragma once

#include <scratchkit/kernels/histogram.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace perf {
namespace plain {

/// Kokkos' view of a LayoutRight rank-3 or rank-2 array: the last index fastest.
template <class View>
constexpr bool right_v = std::is_same<typename View::array_layout, Kokkos::LayoutRight>::value;

/// out[i] = sum_j w[j] in[i + j - R], zero outside [0, n): one RangePolicy, the interior
/// without tests (the terms in the layer's order, j increasing).
template <int R, class ExecSpace, class InView, class WView, class OutView>
void stencil_1d(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out) {
  using T     = typename OutView::non_const_value_type;
  const long n = static_cast<long>(in.extent(0));
  Kokkos::parallel_for(
      "scratchkit::bench::plain_stencil_1d", Kokkos::RangePolicy<ExecSpace>(exec, 0, n), KOKKOS_LAMBDA(long i) {
        T s = 0;
        if (i >= R && i + R < n) {
          for (int j = 0; j <= 2 * R; ++j) s += w(j) * in(i + j - R);
        } else {
          for (int j = 0; j <= 2 * R; ++j) {
            const long k = i + j - R;
            if (k >= 0 && k < n) s += w(j) * in(k);
          }
        }
        out(i) = s;
      });
}

/// (nz, ny, nx): a 3-D View's extents in memory order, slowest first (LayoutLeft's reversed).
struct ExtentsZYX {
  int z, y, x;
};
template <class View>
ExtentsZYX extents_zyx(const View& v) {
  constexpr bool right = right_v<View>;
  return {static_cast<int>(right ? v.extent(0) : v.extent(2)), static_cast<int>(v.extent(1)),
          static_cast<int>(right ? v.extent(2) : v.extent(0))};
}

/// One x row (z, y) of a 7-point step (heat/Jacobi): boundary cells copied, interior
/// out = c0 u + c1 (x-1 + x+1 + y-1 + y+1 + z-1 + z+1), the fast index as a unit-stride loop
/// (vectorisable). (nz, ny, nx): the extents in memory order, slowest first.
template <class InView, class OutView>
KOKKOS_INLINE_FUNCTION void stencil_3d_7pt_row(const InView& in, const OutView& out,
                                               typename OutView::non_const_value_type c0,
                                               typename OutView::non_const_value_type c1, int nz, int ny, int nx, int z,
                                               int y) {
  using T        = typename OutView::non_const_value_type;
  const auto at = [&](const auto& a, int zz, int yy, int xx) -> decltype(auto) {
    if (right_v<OutView>)  // a plain if: both orders compile for a rank-3 View, and the test folds
      return a(zz, yy, xx);
    else
      return a(xx, yy, zz);
  };
  if (z == 0 || y == 0 || z == nz - 1 || y == ny - 1) {
    for (int x = 0; x < nx; ++x) at(out, z, y, x) = at(in, z, y, x);
    return;
  }
  if (nx > 0) at(out, z, y, 0) = at(in, z, y, 0);
  for (int x = 1; x < nx - 1; ++x) {
    T s = at(in, z, y, x - 1);
    s += at(in, z, y, x + 1);
    s += at(in, z, y - 1, x);
    s += at(in, z, y + 1, x);
    s += at(in, z - 1, y, x);
    s += at(in, z + 1, y, x);
    at(out, z, y, x) = c0 * at(in, z, y, x) + c1 * s;
  }
  if (nx > 1) at(out, z, y, nx - 1) = at(in, z, y, nx - 1);
}

/// One 7-point step (stencil_3d_7pt_row): an MDRangePolicy over the two slow indices, the fast
/// one as the inner loop.
template <class ExecSpace, class InView, class OutView>
void stencil_3d_7pt(const ExecSpace& exec, const InView& in, const OutView& out,
                    typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  const ExtentsZYX e = extents_zyx(in);
  const int nz = e.z, ny = e.y, nx = e.x;
  using Pol    = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
  Kokkos::parallel_for(
      "scratchkit::bench::plain_stencil_3d_7pt", Pol(exec, {0, 0}, {nz, ny}),
      KOKKOS_LAMBDA(int z, int y) { stencil_3d_7pt_row(in, out, c0, c1, nz, ny, nx, z, y); });
}

/// The same step as a RangePolicy over the slowest index, each thread a contiguous run of planes.
/// On OpenMP, MDRangePolicy deals its tiles round-robin (schedule(static, 1)), so in a time loop
/// each step reads rows the other threads wrote; planes keep most of a thread's rows its own.
template <class ExecSpace, class InView, class OutView>
void stencil_3d_7pt_planes(const ExecSpace& exec, const InView& in, const OutView& out,
                           typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  const ExtentsZYX e = extents_zyx(in);
  const int nz = e.z, ny = e.y, nx = e.x;
  Kokkos::parallel_for(
      "scratchkit::bench::plain_stencil_3d_7pt_planes", Kokkos::RangePolicy<ExecSpace>(exec, 0, nz),
      KOKKOS_LAMBDA(int z) {
        for (int y = 0; y < ny; ++y) stencil_3d_7pt_row(in, out, c0, c1, nz, ny, nx, z, y);
      });
}

/// out(c, r) = in(r, c): a tiled MDRangePolicy (cache blocking by Kokkos' tiles).
template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, const InView& in, const OutView& out) {
  const long rows = static_cast<long>(in.extent(0)), cols = static_cast<long>(in.extent(1));
  constexpr auto it = right_v<InView> ? Kokkos::Iterate::Right : Kokkos::Iterate::Left;
  using Pol         = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2, it, it>>;
  Kokkos::parallel_for("scratchkit::bench::plain_transpose", Pol(exec, {0, 0}, {rows, cols}, {32, 32}),
                       KOKKOS_LAMBDA(long r, long c) { out(c, r) = in(r, c); });
}

/// Counts of values in [lo, hi) in counts.extent(0) bins: zeroed, then one
/// atomic increment per value (the layer's binning expression).
template <class ExecSpace, class ValuesView, class CountsView>
void histogram(const ExecSpace& exec, const ValuesView& values, double lo, double hi, const CountsView& counts) {
  using T = typename ValuesView::non_const_value_type;
  using C = detail::histogram_compute_t<T>;
  const auto hb = detail::histogram_bins<T>(lo, hi, counts.extent(0), "bench::plain_histogram");
  const C l = hb.lo, h = hb.hi, scale = hb.scale;
  const int nb = hb.bins;
  Kokkos::deep_copy(exec, counts, std::uint32_t(0));
  Kokkos::parallel_for(
      "scratchkit::bench::plain_histogram", Kokkos::RangePolicy<ExecSpace>(exec, 0, values.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) {
        const int k = detail::histogram_bin<C>(static_cast<C>(values(i)), l, h, scale, nb);
        if (k >= 0) Kokkos::atomic_add(&counts(k), typename CountsView::value_type(1));  // atomic_inc is not in Kokkos 3.4
      });
}

/// C = alpha A B + beta C: a RangePolicy over rows of C (LayoutRight; columns for
/// LayoutLeft), each row accumulated in place over k increasing with the inner loop
/// along the row (unit stride, vectorisable): i-k-j order.
template <class ExecSpace, class AV, class BV, class CV>
void gemm(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
          typename CV::non_const_value_type beta, const CV& C) {
  using T             = typename CV::non_const_value_type;
  constexpr bool right = right_v<CV>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)), K = static_cast<int>(A.extent(1));
  Kokkos::parallel_for(
      "scratchkit::bench::plain_gemm", Kokkos::RangePolicy<ExecSpace>(exec, 0, right ? M : N),
      KOKKOS_LAMBDA(int o) {
        if (right_v<CV>) {  // not if constexpr: nvcc refuses an extended lambda whose first capture is in one
          const int i = o;
          for (int j = 0; j < N; ++j) C(i, j) = beta == T(0) ? T(0) : beta * C(i, j);
          for (int k = 0; k < K; ++k) {
            const T a = alpha * A(i, k);
            for (int j = 0; j < N; ++j) C(i, j) += a * B(k, j);
          }
        } else {
          const int j = o;
          for (int i = 0; i < M; ++i) C(i, j) = beta == T(0) ? T(0) : beta * C(i, j);
          for (int k = 0; k < K; ++k) {
            const T b = alpha * B(k, j);
            for (int i = 0; i < M; ++i) C(i, j) += A(i, k) * b;
          }
        }
      });
}

}  // namespace plain
}  // namespace perf
}  // namespace scratchkit
