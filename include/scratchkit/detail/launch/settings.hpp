// SPDX-License-Identifier: BSD-3-Clause
/// A launch's settings (LaunchSettings, params.hpp): its own choices with the tuning hook's overrides, asked once per launch.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/launch/params.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/tuning/hook.hpp>

#include <atomic>
#include <string>

namespace scratchkit {
namespace detail {

/// The request for a launch of `kernel` with parameters p on ExecSpace (team_loop, block_driver:
/// which decisions apply; blocks_per_team: the launch's own).
template <class ExecSpace>
tuning::LaunchRequest tuning_request(const char* label, tuning::Kernel kernel, const LaunchParams& p, bool team_loop,
                                     bool block_driver, int blocks_per_team) {
  tuning::LaunchRequest r;
  r.label             = label != nullptr ? label : "";
  r.kernel            = kernel;
  r.space             = ExecSpace::name();
  r.host              = !is_gpu_space<ExecSpace>::value;
  r.block_driver      = block_driver;
  r.team_loop         = team_loop;
  r.grid              = p.grid();
  r.block             = p.block();
  r.blocks_per_team   = blocks_per_team;
  r.alternate_scratch = p.alternates_scratch();
  r.host_team_size    = p.requested_host_team_size();
  return r;
}

/// The installed hook's answer for the request `make()` builds (called only with a hook
/// installed); an empty answer, at the cost of one pointer test, without one.
template <class MakeRequest>
tuning::LaunchTuning ask_tuning_hook(const MakeRequest& make) {
  const tuning::TuningHook* hook = tuning_hook_slot().load(std::memory_order_acquire);
  if (hook == nullptr) return tuning::LaunchTuning();
  return (*hook)(make());
}

/// The settings of a launch with parameters p and the hook's answer t; LaunchError for an
/// override out of range.
inline LaunchSettings launch_settings(const LaunchParams& p, const tuning::LaunchTuning& t, const char* label) {
  const auto bad = [label](const char* what, int v) {
    return LaunchError(std::string("scratchkit: cannot launch kernel '") + (label ? label : "") +
                       "': the tuning hook's " + what + " " + std::to_string(v) + " is not >= 1");
  };
  LaunchSettings s;
  s.blocks_per_team = p.requested_blocks_per_team();
  s.host_team_size  = p.requested_host_team_size();
  if (t.blocks_per_team) {
    if (*t.blocks_per_team < 1) throw bad("blocks_per_team", *t.blocks_per_team);
    s.blocks_per_team = *t.blocks_per_team;
  }
  if (t.host_team_size) {
    if (*t.host_team_size < 1) throw bad("host_team_size", *t.host_team_size);
    s.host_team_size = *t.host_team_size;
  }
  if (t.team_loop_order) s.team_loop_strided = *t.team_loop_order == tuning::TeamLoopOrder::strided;
  if (t.single_scratch) s.team_loop_alternate = !*t.single_scratch;
  if (t.cuda_team_space) s.cuda_team_space = *t.cuda_team_space;
  if (t.host_threads_loop) s.host_nested_threads_loop = *t.host_threads_loop == tuning::HostThreadsLoop::nested;
  if (t.host_per_thread_phases) s.host_per_thread_phases = *t.host_per_thread_phases;
  return s;
}

}  // namespace detail
}  // namespace scratchkit
