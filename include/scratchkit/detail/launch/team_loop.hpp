// SPDX-License-Identifier: BSD-3-Clause
/// One launch onto Kokkos: the policy, the team size and the level-0/level-1 and checker paths.
#pragma once

#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/launch/block_functor.hpp>
#include <scratchkit/detail/launch/limits.hpp>
#include <scratchkit/detail/launch/params.hpp>
#include <scratchkit/detail/launch/plan.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/scratch_check.hpp>

#include <cstddef>
#include <sstream>
#include <string>

namespace scratchkit {
namespace detail {

/// One launch with the functor for scratch level `Level` (Alt: see BlockFunctor).
/// Returns false, launching nothing, where `may_decline` is set and the
/// backend's team limit for this plan is below the block (the caller then
/// tries one scratch copy); throws LaunchError there otherwise.
template <class Bounds, int Level, bool Alt, class ExecSpace, class F>
bool launch_with(const ExecSpace& exec, const char* label, const LaunchParams& p, LaunchPlan plan, const F& body,
                 bool may_decline = false) {
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bounds::max_threads, Bounds::min_blocks>>;
  constexpr bool direct = block_driver_launch<ExecSpace, Bounds> && Level == 0;
  constexpr bool loop = Bounds::team_loop && !direct;
  using functor_type = BlockFunctor<ExecSpace, F, Level, direct, loop, Alt>;
  functor_type functor{body, plan.geometry, plan.blocks_per_team, plan.blocks, plan.settings.team_loop_strided,
                       Alt ? plan.scratch_stride : 0, plan.settings.cuda_team_space};
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  functor.m_check = scheck::launching;
#endif
  functor.m_label = label;
  // The backend's team limit for this functor and scratch size. On a GPU it
  // depends only on the kernel, the device and the scratch request, and
  // asking Kokkos for it is an occupancy calculation (and two TeamPolicy
  // constructions) on every launch: keep the last answer per kernel and thread.
  struct TeamMaxCache {
    int device = -1;
    std::size_t scratch = 0;
    int threads  = 0;  // the block driver's shared memory depends on it (its team space)
    bool team_space = true;
    int team_max = 0;
  };
  static thread_local TeamMaxCache cache;
  const int device = device_key(exec);
  int team_max;
  if (device >= 0 && cache.device == device && cache.scratch == plan.scratch_bytes &&
      cache.threads == plan.logical_threads && cache.team_space == plan.settings.cuda_team_space) {
    team_max = cache.team_max;
  } else {
#if SCRATCHKIT_CUDA_BLOCK_DRIVER
    if constexpr (direct) {
      // The block driver's own answer, which covers scratch above 48 KB
      // (Kokkos' team_size_max answers 0 there): CUDA's occupancy
      // calculator for the kernel with the block's shared memory.
      using driver_type = Kokkos::Impl::ParallelFor<functor_type, policy_type, Kokkos::Cuda>;
      const std::size_t shmem =
          cuda_block_reserve(plan.logical_threads, plan.settings.cuda_team_space) + plan.scratch_bytes - base_alignment;
      team_max = driver_type::team_size_max(exec, static_cast<int>(shmem), Bounds::min_blocks);
    } else
#endif
    {
      team_max = policy_type(exec, plan.league_size, 1, 1)
                     .set_scratch_size(Level, Kokkos::PerTeam(static_cast<int>(plan.scratch_bytes)))
                     .team_size_max(functor, Kokkos::ParallelForTag());
    }
    if (device >= 0)
      cache = TeamMaxCache{device, plan.scratch_bytes, plan.logical_threads, plan.settings.cuda_team_space, team_max};
  }
  if (is_gpu_space<ExecSpace>::value) {
    if (plan.logical_threads > team_max && may_decline) return false;
    if (plan.logical_threads > team_max) {
      std::ostringstream err;
      err << "scratchkit: cannot launch kernel '" << label << "' on " << space_name<ExecSpace>() << ": block of "
          << plan.logical_threads << " threads " << dim_str(p.block())
          << " is over this kernel's team size limit of " << team_max
          << " (registers and scratch of this kernel on this device";
      if (Bounds::min_blocks > 1)
        err << "; its launch bounds ask for " << Bounds::min_blocks << " blocks per SM, so "
            << Bounds::min_blocks << " times its " << plan.scratch_bytes << " bytes of scratch must fit in one SM";
      err << ")";
      throw LaunchError(err.str());
    }
    plan.team_size = plan.logical_threads;
  } else {
    // Host team members own whole warps: more members than warps would idle.
    const int warps = (plan.logical_threads + plan.geometry.warp - 1) / plan.geometry.warp;
    int t = plan.settings.host_team_size > 0 ? plan.settings.host_team_size
                                             : host_team_size(team_max, plan.league_size, exec.concurrency());
    if (t > team_max) t = team_max;
    if (t > warps) t = warps;
    plan.team_size = t < 1 ? 1 : t;
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    if (scheck::launching) plan.team_size = 1;  // the checker records a block from one host thread
#endif
  }
  const auto policy = policy_type(exec, plan.league_size, plan.team_size, 1)
                          .set_scratch_size(Level, Kokkos::PerTeam(static_cast<int>(plan.scratch_bytes)));
  if constexpr (is_gpu_space<ExecSpace>::value) {
    // A second instantiation only on GPUs: host backends ignore the hint.
    if (p.desired_occupancy() > 0) {
      Kokkos::parallel_for(cached_label<functor_type>(label), with_desired_occupancy(policy, p.desired_occupancy()),
                           functor);
      return true;
    }
  }
  Kokkos::parallel_for(cached_label<functor_type>(label), policy, functor);
  return true;
}

/// Runs one launch with the functor for scratch level `Level`: with
/// LaunchBounds' TeamLoop, the team loop without barriers where the plan has
/// two scratch copies or the launch has no scratch (a team's blocks share
/// nothing else: blocks of a grid are unordered, in CUDA too).
template <class Bounds, int Level, class ExecSpace, class F>
void launch_at_level(const ExecSpace& exec, const char* label, const LaunchParams& p, LaunchPlan plan,
                     const F& body) {
  constexpr bool loop = Bounds::team_loop && !(block_driver_launch<ExecSpace, Bounds> && Level == 0);
  if constexpr (loop) {
    if (plan.blocks_per_team > 1 && plan.settings.team_loop_alternate) {
      if (p.static_bytes() + p.dynamic_bytes() == 0) {
        launch_with<Bounds, Level, true>(exec, label, p, plan, body);
        return;
      }
      // Two copies fit level 0 (plan_launch), but the launch bounds' blocks
      // per SM times the doubled scratch may not fit an SM: then one copy.
      if (plan.scratch_stride != 0 && launch_with<Bounds, Level, true>(exec, label, p, plan, body, true)) return;
    }
  }
  plan.scratch_stride = 0;
  plan.scratch_bytes  = scratch_request(p);
  launch_with<Bounds, Level, false>(exec, label, p, plan, body);
}

/// launch() under the scratch checker: the blocks record their accesses, the
/// report is finished once the launch has run. Host backends only, so a GPU
/// launch compiles none of it.
template <class Bounds, bool Level1, class ExecSpace, class F>
void check_scratch_launch(const ExecSpace& exec, const char* label, const LaunchParams& p, const LaunchPlan& plan,
                          const F& body, const ScratchCheck& check) {
  if constexpr (is_gpu_space<ExecSpace>::value) {
    (void)exec, (void)p, (void)plan, (void)body, (void)check;
    throw UnsupportedError(std::string("scratchkit: kernel '") + label + "': the scratch checker runs on host "
                           "backends only, not on " + space_name<ExecSpace>());
  } else {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    scheck::LaunchCheck lc(check, label, space_name<ExecSpace>(), warp_size<ExecSpace>());
    struct Launching {
      explicit Launching(scheck::LaunchCheck* l) { scheck::launching = l; }
      ~Launching() { scheck::launching = nullptr; }
    } launching(&lc);
    if (plan.scratch_level == 0) {
      launch_at_level<Bounds, 0>(exec, label, p, plan, body);
    } else if constexpr (Level1) {
      launch_at_level<Bounds, 1>(exec, label, p, plan, body);
    } else {
      throw level0_only_error(label, plan.scratch_bytes);
    }
    exec.fence();
    scheck::launching = nullptr;
    lc.finish();
#else
    (void)exec, (void)p, (void)plan, (void)body, (void)check;
    throw UnsupportedError(std::string("scratchkit: kernel '") + label + "': the scratch checker is not compiled in "
                           "(configure scratchkit with -DSCRATCHKIT_ENABLE_SCRATCH_CHECK=ON)");
#endif
  }
}

}  // namespace detail
}  // namespace scratchkit
