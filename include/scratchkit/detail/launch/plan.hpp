// SPDX-License-Identifier: BSD-3-Clause
/// plan_launch's checks and the mapping of a launch onto a Kokkos TeamPolicy (launch.hpp holds the contract).
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/launch/limits.hpp>
#include <scratchkit/detail/launch/params.hpp>
#include <scratchkit/detail/launch/settings.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/launch_bounds.hpp>

#include <climits>
#include <cstddef>
#include <sstream>
#include <string>

namespace scratchkit {
namespace detail {

/// The furthest fallback the library's kernels ask for: level 1 on host
/// backends only (a large blocking may be over their level 0), so that on a
/// GPU they compile the level-0 kernel alone.
template <class ExecSpace>
inline constexpr ScratchFallback kernel_fallback =
    is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1;

/// The scratch a launch requests per team: static arrays, then the dynamic
/// pool at the next 128-byte boundary, plus 128 bytes of slack (the base is
/// raised to 128 bytes inside the kernel), rounded up to 8 bytes.
inline std::size_t scratch_request(const LaunchParams& p) {
  return round_up(round_up(p.static_bytes(), base_alignment) + p.dynamic_bytes() + base_alignment, 8);
}

/// plan_launch (launch.hpp) for the launch parameters p and the launch's settings s (which the
/// plan carries on to the launch).
template <class ExecSpace, class Bounds>
LaunchPlan make_launch_plan(const LaunchParams& p, const char* label, const LaunchSettings& s) {
  LaunchPlan plan;
  plan.settings = s;
  const Dim3 g = p.grid(), b = p.block();
  // The message stream is built only on failure: constructing an ostringstream
  // costs about a microsecond of host time on every launch, before the kernel
  // is enqueued.
  const auto begin_error = [label](std::ostringstream& err) {
    err << "scratchkit: cannot launch ";
    if (label) err << "kernel '" << label << "' ";
    err << "on " << detail::space_name<ExecSpace>() << ": ";
  };
  if (p.block_from_body()) {
    std::ostringstream err;
    begin_error(err);
    err << "LaunchParams(grid) has no block: launch() takes it from a body on a static BlockShape; to plan "
           "without launching, give the block (LaunchParams(grid, Block::shape_type()))";
    throw LaunchError(err.str());
  }

  if (b.x < 1 || b.y < 1 || b.z < 1 || b.x > BlockLimits::max_x || b.y > BlockLimits::max_y ||
      b.z > BlockLimits::max_z || b.count() > BlockLimits::max_threads) {
    std::ostringstream err;
    begin_error(err);
    err << "block shape " << detail::dim_str(b) << " (" << b.count()
        << " threads) is outside the limits: each dimension >= 1, x,y <= " << BlockLimits::max_x
        << ", z <= " << BlockLimits::max_z << ", at most " << BlockLimits::max_threads << " threads";
    throw LaunchError(err.str());
  }
  if (g.x < 0 || g.y < 0 || g.z < 0 || g.count() > INT_MAX) {
    std::ostringstream err;
    begin_error(err);
    err << "grid " << detail::dim_str(g) << " must be non-negative with at most " << INT_MAX << " blocks";
    throw LaunchError(err.str());
  }
  if (g.count() == 0 && !p.empty_grid_allowed()) {
    std::ostringstream err;
    begin_error(err);
    err << "grid " << detail::dim_str(g)
        << " has no blocks; CUDA rejects an empty grid too (cudaErrorInvalidConfiguration). Return before the "
           "launch when the input is empty, or allow it with LaunchParams::allow_empty_grid()";
    throw LaunchError(err.str());
  }
  if (p.has_required_layout()) p.required_layout().require_fits(p.dynamic_bytes(), label);
  if (p.static_bytes() > detail::absurd_scratch || p.dynamic_bytes() > detail::absurd_scratch) {
    std::ostringstream err;
    begin_error(err);
    err << "block scratch request of static " << p.static_bytes() << " + dynamic " << p.dynamic_bytes()
        << " bytes is beyond any device (level-0 scratch has "
        << detail::level0_max<ExecSpace, Bounds>(static_cast<int>(b.count()), s.cuda_team_space)
        << " bytes available per team)";
    throw LaunchError(err.str());
  }

  plan.blocks          = static_cast<int>(g.count());
  plan.blocks_per_team = 1;
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // At most the requested k, and never so many that fewer than four waves
    // of teams are left: a grid of a few thousand blocks keeps every SM busy.
    const long long waves4 = 4 * detail::resident_teams<ExecSpace>(static_cast<int>(b.count()));
    const long long cap    = plan.blocks / waves4 > 1 ? plan.blocks / waves4 : 1;
    const int k            = s.blocks_per_team;
    plan.blocks_per_team   = k < cap ? k : static_cast<int>(cap);
  }
  plan.league_size     = plan.blocks == 0 ? 0 : (plan.blocks - 1) / plan.blocks_per_team + 1;
  plan.logical_threads = static_cast<int>(b.count());
  const std::size_t dyn_begin = detail::round_up(p.static_bytes(), detail::base_alignment);
  plan.scratch_bytes          = detail::scratch_request(p);
  plan.level0_max    = detail::level0_max<ExecSpace, Bounds>(plan.logical_threads, s.cuda_team_space);
  plan.level1_max    = detail::ScratchLimits<ExecSpace>::get().level1;
  plan.geometry      = detail::BlockGeometry(g, b, p.static_bytes(), p.dynamic_bytes(), dyn_begin,
                                               warp_size<ExecSpace>());
  plan.geometry.host_nested_threads_loop = s.host_nested_threads_loop;
  plan.geometry.host_per_thread_phases   = s.host_per_thread_phases;
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // A second copy of the block's scratch at the next base_alignment
    // boundary past the first, when the team runs several blocks and both
    // copies fit in level 0 (one copy and the loop's barrier otherwise).
    if (p.alternates_scratch() && plan.blocks_per_team > 1 && s.team_loop_alternate) {
      const std::size_t stride = detail::round_up(dyn_begin + p.dynamic_bytes(), detail::base_alignment);
      const std::size_t two    = detail::round_up(stride + dyn_begin + p.dynamic_bytes() + detail::base_alignment, 8);
      if (two <= plan.level0_max) {
        plan.scratch_bytes  = two;
        plan.scratch_stride = stride;
      }
    }
  }

  if (plan.scratch_bytes <= plan.level0_max) {
    plan.scratch_level = 0;
  } else if (p.scratch_fallback() == ScratchFallback::level1 && plan.scratch_bytes <= plan.level1_max) {
    plan.scratch_level = 1;
  } else {
    std::ostringstream err;
    begin_error(err);
    err << "block scratch of " << plan.scratch_bytes << " bytes requested (static " << p.static_bytes()
        << " + dynamic " << p.dynamic_bytes() << " + " << (plan.scratch_bytes - p.static_bytes() - p.dynamic_bytes())
        << " alignment), but level-0 scratch has " << plan.level0_max << " bytes available per team";
    if (detail::is_gpu_space<ExecSpace>::value && plan.level0_max <= 48 * 1024)
      err << " (Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "." << KOKKOS_VERSION % 100
          << " offers no more than 48 KB of shared memory per team"
#if defined(KOKKOS_ENABLE_CUDA)
          << "; a Kokkos that opts in above 48 KB (kokkos/kokkos pull request #9012), or scratchkit's CUDA"
             " block driver (CMake -DSCRATCHKIT_KOKKOS_CUDA_DRIVER=ON), gives up to the device's opt-in limit"
#endif
          << ")";
    // The library's own kernels (labels "scratchkit::...") choose their
    // scratch themselves: their callers get the kernel's own terms from its
    // entry point, not a LaunchParams setting they cannot reach.
    const bool library_kernel = label != nullptr && std::string(label).rfind("scratchkit::", 0) == 0;
    if (p.scratch_fallback() == ScratchFallback::level1)
      err << " and level-1 scratch " << plan.level1_max << " bytes";
    else if (!library_kernel && plan.scratch_bytes <= plan.level1_max)
      err << " (a kernel written on the layer may allow level-1 scratch, up to " << plan.level1_max
          << " bytes, with LaunchParams::fallback(ScratchFallback::level1))";
    else if (!library_kernel)
      err << " (level-1 scratch, " << plan.level1_max << " bytes per team, is too small as well: "
          << "split the block's data over more, smaller blocks)";
    throw LaunchError(err.str());
  }
  return plan;
}

}  // namespace detail
}  // namespace scratchkit
