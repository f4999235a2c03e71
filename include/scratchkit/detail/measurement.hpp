// SPDX-License-Identifier: BSD-3-Clause
/// Overrides of the launch's fixed choices, for measuring them. The library never sets
/// them and reads no environment: the perf tools set them from their own command line
/// (perf/measurement.hpp; docs/performance.md, "Tuning"), before their first launch.
#pragma once

namespace scratchkit {
namespace detail {

/// Each field at its default leaves the library's own choice in place.
struct MeasurementKnobs {
  /// TeamLoop order: team t runs blocks t*k ... t*k + k - 1 instead of t, t + L, ...
  bool team_loop_consecutive = false;
  /// TeamLoop with one scratch copy and a barrier between blocks, never two alternating copies.
  bool team_loop_single_scratch = false;
  /// Blocks per team of the tree reduction (> 0), of the 1-D stencils (> 0), of every tile
  /// kernel (>= 0; 0: no team loop); otherwise the kernel's own value.
  int reduce_tree_blocks_per_team = 0;
  int stencil1d_blocks_per_team   = 0;
  int tile_blocks_per_team        = -1;
  /// Host backends: team size of every launch (> 0; capped by the backend and the block's
  /// warps); otherwise the launch's own choice (detail::host_team_size).
  int host_team_size = 0;
  /// CUDA block driver: no Kokkos team-collective space before a block's scratch.
  bool cuda_drop_team_space = false;
  /// Host backends, one member per block: the phase loop over x, y, z for every block, not the
  /// vectorisable counted loops of 1-D blocks and of each x row of 2-D / 3-D blocks (Block::threads).
  bool host_nested_threads_loop = false;
  /// Host backends: the per-thread phases everywhere, never the plain loops of detail::host_direct.
  bool host_per_thread_phases = false;
};

/// The process's overrides (one object for the library and its callers).
inline MeasurementKnobs& measurement_knobs() {
  static MeasurementKnobs knobs;
  return knobs;
}

}  // namespace detail
}  // namespace scratchkit
