// SPDX-License-Identifier: BSD-3-Clause
/// 2-D stencil blocking, shared by both twins (no Kokkos, no CUDA).
#pragma once

namespace scratchkit {
namespace tuning {

/// The block and its tile: threads_x x threads_y threads, each computing `rows` outputs in one
/// column of the tile (rows threads_y apart), so a block covers threads_x x (threads_y * rows)
/// points. A warp reads one tile row (conflict-free); several rows a thread give each thread
/// several independent loads in flight and cut the halo's share of the tile's loads.
/// Not measured yet (docs/performance.md, "2-D stencil"; scripts/stencil_2d_gpu_check.sh).
struct Stencil2DPolicy {
  static constexpr int threads_x = 32, threads_y = 8, rows = 4;
  static constexpr int tile_x = threads_x, tile_y = threads_y * rows;
};

}  // namespace tuning
}  // namespace scratchkit
