// SPDX-License-Identifier: BSD-3-Clause
/// The measurement knobs of the perf tools: environment variables that override the
/// launch's fixed choices for one run of a tool, through a tuning hook (tuning/hook.hpp).
/// The library itself reads no environment; docs/performance.md ("Tuning") lists every knob.
#pragma once

#include <scratchkit/tuning/hook.hpp>

#include <cstdlib>
#include <cstring>

namespace scratchkit {
namespace perf {

/// The knobs as read from the environment (each at its default: the library's own choice).
struct MeasurementKnobs {
  bool team_loop_consecutive    = false;
  bool team_loop_single_scratch = false;
  int reduce_tree_blocks_per_team = 0;   ///< > 0: set
  int stencil1d_blocks_per_team   = 0;   ///< > 0: set
  int tile_blocks_per_team        = -1;  ///< >= 0: set (0: no team loop)
  int host_team_size              = 0;   ///< > 0: set
  bool cuda_drop_team_space       = false;
  bool host_nested_threads_loop   = false;
  bool host_per_thread_phases     = false;

  bool any() const {
    return team_loop_consecutive || team_loop_single_scratch || reduce_tree_blocks_per_team > 0 ||
           stencil1d_blocks_per_team > 0 || tile_blocks_per_team >= 0 || host_team_size > 0 ||
           cuda_drop_team_space || host_nested_threads_loop || host_per_thread_phases;
  }

  /// The overrides for one launch.
  tuning::LaunchTuning operator()(const tuning::LaunchRequest& r) const {
    tuning::LaunchTuning t;
    if (team_loop_consecutive) t.team_loop_order = tuning::TeamLoopOrder::consecutive;
    if (team_loop_single_scratch) t.single_scratch = true;
    if (r.kernel == tuning::Kernel::reduce_tree && reduce_tree_blocks_per_team > 0)
      t.blocks_per_team = reduce_tree_blocks_per_team;
    if (r.kernel == tuning::Kernel::stencil_1d && stencil1d_blocks_per_team > 0)
      t.blocks_per_team = stencil1d_blocks_per_team;
    if (r.kernel == tuning::Kernel::tile && tile_blocks_per_team >= 0) t.blocks_per_team = tile_blocks_per_team;
    // A launch's own LaunchParams::host_team_size stays.
    if (host_team_size > 0 && r.host_team_size == 0) t.host_team_size = host_team_size;
    if (cuda_drop_team_space) t.cuda_team_space = false;
    if (host_nested_threads_loop) t.host_threads_loop = tuning::HostThreadsLoop::nested;
    if (host_per_thread_phases) t.host_per_thread_phases = true;
    return t;
  }
};

/// Reads the knobs from the environment:
///   SCRATCHKIT_TEAM_LOOP_ORDER=consecutive       TeamLoop order t*k ... t*k + k - 1
///   SCRATCHKIT_TEAM_LOOP_SCRATCH=single          no alternating scratch copies
///   SCRATCHKIT_REDUCE_BLOCKS_PER_TEAM=k (k >= 1)  tree reduction blocks per team
///   SCRATCHKIT_STENCIL1D_BLOCKS_PER_TEAM=k (>= 1) 1-D stencil blocks per team
///   SCRATCHKIT_TILE_BLOCKS_PER_TEAM=k (k >= 0)    tile kernels' blocks per team (0: no team loop)
///   SCRATCHKIT_HOST_TEAM_SIZE=k (k >= 1)          host backends: team members per block
///   SCRATCHKIT_CUDA_TEAM_SPACE=0                 block driver without Kokkos' team-collective space
///   SCRATCHKIT_HOST_THREADS_LOOP=nested          host: the scalar x, y, z phase loop of threads(f), not the rows
///   SCRATCHKIT_HOST_LOOPS=off                    host: per-thread phases, no detail::host_direct loops
inline MeasurementKnobs measurement_knobs_from_environment() {
  const auto is = [](const char* name, const char* value) {
    const char* v = std::getenv(name);
    return v != nullptr && std::strcmp(v, value) == 0;
  };
  // The variable as an integer, or -1 where it is unset or below lo.
  const auto at_least = [](const char* name, int lo) {
    const char* v = std::getenv(name);
    const int n   = v ? std::atoi(v) : -1;
    return v != nullptr && n >= lo ? n : -1;
  };
  MeasurementKnobs k;
  k.team_loop_consecutive       = is("SCRATCHKIT_TEAM_LOOP_ORDER", "consecutive");
  k.team_loop_single_scratch    = is("SCRATCHKIT_TEAM_LOOP_SCRATCH", "single");
  k.reduce_tree_blocks_per_team = at_least("SCRATCHKIT_REDUCE_BLOCKS_PER_TEAM", 1);
  k.stencil1d_blocks_per_team   = at_least("SCRATCHKIT_STENCIL1D_BLOCKS_PER_TEAM", 1);
  k.tile_blocks_per_team        = at_least("SCRATCHKIT_TILE_BLOCKS_PER_TEAM", 0);
  const int team                = at_least("SCRATCHKIT_HOST_TEAM_SIZE", 1);
  k.host_team_size              = team > 0 ? team : 0;
  k.cuda_drop_team_space        = is("SCRATCHKIT_CUDA_TEAM_SPACE", "0");
  k.host_nested_threads_loop    = is("SCRATCHKIT_HOST_THREADS_LOOP", "nested");
  k.host_per_thread_phases      = is("SCRATCHKIT_HOST_LOOPS", "off");
  return k;
}

/// Installs the environment's knobs as the process's tuning hook; none where no knob is set,
/// so that a plain run measures the launch path without a hook. Call before the first launch.
inline void install_measurement_hook_from_environment() {
  const MeasurementKnobs k = measurement_knobs_from_environment();
  if (k.any()) tuning::set_tuning_hook(k);
}

}  // namespace perf
}  // namespace scratchkit
