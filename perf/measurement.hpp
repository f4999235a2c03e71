// SPDX-License-Identifier: BSD-3-Clause
/// The measurement knobs of the perf tools: environment variables that override the
/// launch's fixed choices (detail::MeasurementKnobs) for one run of a tool. The library
/// itself reads no environment; docs/performance.md ("Tuning") lists every knob.
#pragma once

#include <scratchkit/detail/measurement.hpp>

#include <cstdlib>
#include <cstring>

namespace scratchkit {
namespace perf {

/// Sets detail::measurement_knobs() from the environment; call before the first launch.
///   SCRATCHKIT_TEAM_LOOP_ORDER=consecutive       TeamLoop order t*k ... t*k + k - 1
///   SCRATCHKIT_TEAM_LOOP_SCRATCH=single          no alternating scratch copies
///   SCRATCHKIT_REDUCE_BLOCKS_PER_TEAM=k (k >= 1)  tree reduction blocks per team
///   SCRATCHKIT_STENCIL1D_BLOCKS_PER_TEAM=k (>= 1) 1-D stencil blocks per team
///   SCRATCHKIT_TILE_BLOCKS_PER_TEAM=k (k >= 0)    tile kernels' blocks per team (0: no team loop)
///   SCRATCHKIT_HOST_TEAM_SIZE=k (k >= 1)          host backends: team members per block
///   SCRATCHKIT_CUDA_TEAM_SPACE=0                 block driver without Kokkos' team-collective space
///   SCRATCHKIT_HOST_THREADS_LOOP=nested          host: the scalar x, y, z phase loop of threads(f), not the rows
///   SCRATCHKIT_HOST_LOOPS=off                    host: per-thread phases, no detail::host_direct loops
inline void set_measurement_knobs_from_environment() {
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
  auto& k                       = detail::measurement_knobs();
  k.team_loop_consecutive       = is("SCRATCHKIT_TEAM_LOOP_ORDER", "consecutive");
  k.team_loop_single_scratch    = is("SCRATCHKIT_TEAM_LOOP_SCRATCH", "single");
  k.reduce_tree_blocks_per_team = at_least("SCRATCHKIT_REDUCE_BLOCKS_PER_TEAM", 1);
  k.stencil1d_blocks_per_team   = at_least("SCRATCHKIT_STENCIL1D_BLOCKS_PER_TEAM", 1);
  k.tile_blocks_per_team        = at_least("SCRATCHKIT_TILE_BLOCKS_PER_TEAM", 0);
  k.host_team_size              = at_least("SCRATCHKIT_HOST_TEAM_SIZE", 1) > 0 ? at_least("SCRATCHKIT_HOST_TEAM_SIZE", 1) : 0;
  k.cuda_drop_team_space        = is("SCRATCHKIT_CUDA_TEAM_SPACE", "0");
  k.host_nested_threads_loop    = is("SCRATCHKIT_HOST_THREADS_LOOP", "nested");
  k.host_per_thread_phases      = is("SCRATCHKIT_HOST_LOOPS", "off");
}

}  // namespace perf
}  // namespace scratchkit
