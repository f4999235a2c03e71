// SPDX-License-Identifier: BSD-3-Clause
// The same kernels as the layer's, written directly on Kokkos: a TeamPolicy,
// team_scratch(0) Views and team_barrier(), the way a Kokkos user writes them
// by hand. They are the yardstick of "the layer adds nothing" (performance
// issue, target 6): each does exactly the work of its layer twin, in the same
// order, so the three rows (layer, native, raw Kokkos) of a kernel differ only
// in how they are expressed.
//
// GPU idiom: one hardware thread per team rank (team_size = the block's
// threads, vector length 1), the thread's coordinates decoded from
// team_rank(), per-thread state in plain locals across barriers. That is only
// valid with one hardware thread per logical thread, so these rows run only
// on GPU backends (the harness registers them when native rows are on).
#pragma once

#include <scratchkit/kernels/gemm.hpp>
#include <scratchkit/kernels/transpose.hpp>

#include <Kokkos_Core.hpp>

namespace scratchkit {
namespace perf {
namespace raw {

/// transpose tiled_padded: the layer's blocking (TransposeDefaultBlocking: ER x EC tile padded to
/// ER x (EC + 1), 32 x BR threads, tiles in groups of G tile rows, the tile grid shifted to 256-byte
/// boundaries as the layer's), same accesses, same launch bounds.
template <class ExecSpace, class View>
void transpose_tiled_padded(const ExecSpace& exec, const View& in, const View& out) {
  using T      = typename View::non_const_value_type;
  using Bk     = typename detail::TransposeDefaultBlocking<T>::type;
  using policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bk::threads, Bk::min_blocks>>;
  using member = typename policy::member_type;
  constexpr int ER = Bk::ER, EC = Bk::EC, BR = Bk::BR, G = Bk::G;
  using Tile = Kokkos::View<T[ER][EC + 1], Kokkos::LayoutRight, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const int rows = static_cast<int>(in.extent(0)), cols = static_cast<int>(in.extent(1));
  if (rows == 0 || cols == 0) return;
  const int shift_c = detail::transpose_view_shift(in, EC), shift_r = detail::transpose_view_shift(out, ER);
  const int nbx = ceil_div(static_cast<long long>(cols) + shift_c, EC);
  const int nby = ceil_div(static_cast<long long>(rows) + shift_r, ER);
  const auto pol = policy(exec, nbx * nby, Bk::threads).set_scratch_size(0, Kokkos::PerTeam(Tile::shmem_size()));
  Kokkos::parallel_for("scratchkit::bench::raw_kokkos_transpose_tiled_padded", pol, KOKKOS_LAMBDA(const member& m) {
    Tile tile(m.team_scratch(0));
    int tile_row, tile_col;
    detail::transpose_tile_of(m.league_rank(), nbx, nby, G, tile_row, tile_col);
    const int row0 = tile_row * ER - shift_r, col0 = tile_col * EC - shift_c;
    const int tx = m.team_rank() % 32, ty = m.team_rank() / 32;
    const bool full = row0 >= 0 && col0 >= 0 && row0 + ER <= rows && col0 + EC <= cols;  // interior: no bounds checks
    if (full) {
      for (int j = 0; j < ER; j += BR)
        for (int i = 0; i < EC; i += 32) tile(ty + j, tx + i) = in(row0 + ty + j, col0 + tx + i);
    } else {
      for (int j = 0; j < ER; j += BR)
        for (int i = 0; i < EC; i += 32) {
          const int r = row0 + ty + j, c = col0 + tx + i;
          if (detail::transpose_inside(r, c, rows, cols)) tile(ty + j, tx + i) = in(r, c);
        }
    }
    m.team_barrier();
    if (full) {
      for (int j = 0; j < EC; j += BR)
        for (int i = 0; i < ER; i += 32) out(col0 + ty + j, row0 + tx + i) = tile(tx + i, ty + j);
    } else {
      for (int j = 0; j < EC; j += BR)
        for (int i = 0; i < ER; i += 32) {
          const int c = col0 + ty + j, r = row0 + tx + i;
          if (detail::transpose_inside(r, c, rows, cols)) out(c, r) = tile(tx + i, ty + j);
        }
    }
  });
}

/// gemm tiled: 16 x 16 tiles of A and B, 16 x 16 threads, one element of C each (as the layer's).
template <class ExecSpace, class AV, class BV, class CV>
void gemm_tiled(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                typename CV::non_const_value_type beta, const CV& C) {
  using Scalar   = typename CV::non_const_value_type;
  using policy   = Kokkos::TeamPolicy<ExecSpace>;
  using member   = typename policy::member_type;
  constexpr int TL = detail::gemm_tile;
  using Tile = Kokkos::View<Scalar[TL][TL], Kokkos::LayoutRight, typename ExecSpace::scratch_memory_space,
                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)), K = static_cast<int>(A.extent(1));
  const int gx = ceil_div(N, TL), gy = ceil_div(M, TL);
  if (gx == 0 || gy == 0) return;
  const auto pol = policy(exec, gx * gy, TL * TL).set_scratch_size(0, Kokkos::PerTeam(2 * Tile::shmem_size()));
  Kokkos::parallel_for("scratchkit::bench::raw_kokkos_gemm_tiled", pol, KOKKOS_LAMBDA(const member& m) {
    Tile As(m.team_scratch(0)), Bs(m.team_scratch(0));
    const int row0 = (m.league_rank() / gx) * TL, col0 = (m.league_rank() % gx) * TL;
    const int tx = m.team_rank() % TL, ty = m.team_rank() / TL;
    Scalar acc = 0;
    for (int k0 = 0; k0 < K; k0 += TL) {
      const int ar = row0 + ty, ac = k0 + tx, br = k0 + ty, bc = col0 + tx;
      As(ty, tx) = (ar < M && ac < K) ? A(ar, ac) : Scalar(0);
      Bs(ty, tx) = (br < K && bc < N) ? B(br, bc) : Scalar(0);
      m.team_barrier();
      for (int kk = 0; kk < TL; ++kk) acc += As(ty, kk) * Bs(kk, tx);
      m.team_barrier();
    }
    const int r = row0 + ty, c = col0 + tx;
    if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc : detail::gemm_epilogue(alpha, acc, beta, C(r, c));
  });
}

}  // namespace raw
}  // namespace perf
}  // namespace scratchkit
