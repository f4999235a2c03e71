// SPDX-License-Identifier: BSD-3-Clause
/// The launch tuning hook: a typed request per launch, typed overrides back (as Kokkos Tools' tuning interface).
#pragma once

#include <scratchkit/block.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace scratchkit {
namespace tuning {

/// Which kernel a request is for: a caller's launch(), or one of the library's kernels whose
/// blocks per team the library picks itself (kernel-specific overrides key on it).
enum class Kernel {
  user,         ///< launch() of a caller's kernel (and plan_launch)
  reduce_tree,  ///< ReduceVariant::tree's tree blocks
  stencil_1d,   ///< the 1-D stencils (halo_tile, vectorized)
  tile,         ///< the tile kernels (tile_scan, tile_reduce, tile_warp_scan, tile_exchange)
};

/// The order in which a team of LaunchBounds' TeamLoop runs its blocks.
enum class TeamLoopOrder {
  strided,      ///< team t runs t, t + L, t + 2L, ... (the library's choice)
  consecutive,  ///< team t runs t*k ... t*k + k - 1
};

/// Host backends, one member per block: how Block::threads walks a phase's logical threads.
enum class HostThreadsLoop {
  rows,    ///< counted loops over 1-D blocks and over each x row of 2-D / 3-D blocks (the library's choice)
  nested,  ///< the scalar x, y, z loop for every block shape
};

/// One launch, as the hook sees it: what is launched and the launch's own choices.
struct LaunchRequest {
  const char* label = "";         ///< the kernel's label (never null; the library's start with "scratchkit::")
  Kernel kernel     = Kernel::user;
  const char* space = "";         ///< the execution space's name (ExecSpace::name())
  bool host         = false;      ///< a host backend: host_team_size and the host loops apply
  bool block_driver = false;      ///< the layer's CUDA block driver runs it: cuda_team_space applies
  bool team_loop    = false;      ///< a team may run several blocks: blocks_per_team, the order and scratch copies apply
  Dim3 grid, block;
  /// The launch's own blocks per team (LaunchParams::blocks_per_team or the kernel's value;
  /// Kernel::tile: 0 runs the kernel without the team loop).
  int blocks_per_team = 1;
  bool alternate_scratch = false;  ///< the launch asks for two alternating scratch copies
  int host_team_size     = 0;      ///< LaunchParams::host_team_size; 0: one member per block unless the league is short
};

/// A hook's answer: each field left empty keeps the launch's own choice.
struct LaunchTuning {
  std::optional<TeamLoopOrder> team_loop_order;
  /// true: one scratch copy and a barrier between a team's blocks, never two alternating copies.
  std::optional<bool> single_scratch;
  /// Blocks per team (>= 1; Kernel::tile also 0: without the team loop), where the request's
  /// team_loop is set. The launch still takes fewer where the grid is short of four waves of teams.
  std::optional<int> blocks_per_team;
  /// Host backends: team members per block (>= 1; capped by the backend and the block's warps).
  std::optional<int> host_team_size;
  /// CUDA block driver: false drops Kokkos' team-collective space before the block's scratch
  /// (Kokkos team collectives on Block::team() then must not be used).
  std::optional<bool> cuda_team_space;
  std::optional<HostThreadsLoop> host_threads_loop;
  /// Host backends: true runs every phase as one call per logical thread, never the plain
  /// loops of detail::host_direct (same results, for measuring those loops).
  std::optional<bool> host_per_thread_phases;
};

/// Called on the launching host thread, once per launch, before the launch is planned; never
/// from device code. Launches on several host threads call it concurrently.
using TuningHook = std::function<LaunchTuning(const LaunchRequest&)>;

}  // namespace tuning

namespace detail {
/// The installed hook, or null. Read with one load per launch; written by tuning's installers.
inline std::atomic<const tuning::TuningHook*>& tuning_hook_slot() {
  static std::atomic<const tuning::TuningHook*> slot{nullptr};
  return slot;
}
/// Installs `hook` (null: none) and hands back the one it replaces.
inline std::unique_ptr<const tuning::TuningHook> exchange_tuning_hook(std::unique_ptr<const tuning::TuningHook> hook) {
  return std::unique_ptr<const tuning::TuningHook>(tuning_hook_slot().exchange(hook.release(), std::memory_order_acq_rel));
}
}  // namespace detail

namespace tuning {

/// Installs `hook` for every later launch of the process (an empty function removes it).
/// Install and remove it while no launch runs on another host thread: the hook replaced is
/// destroyed here. Without a hook every launch takes the library's own choices.
/// \code
/// scratchkit::tuning::set_tuning_hook([](const scratchkit::tuning::LaunchRequest& r) {
///   scratchkit::tuning::LaunchTuning t;
///   if (r.kernel == scratchkit::tuning::Kernel::reduce_tree) t.blocks_per_team = 4;
///   return t;
/// });
/// \endcode
inline void set_tuning_hook(TuningHook hook) {
  detail::exchange_tuning_hook(hook ? std::make_unique<const TuningHook>(std::move(hook)) : nullptr);
}

/// Removes the installed hook: the library's own choices again.
inline void clear_tuning_hook() { set_tuning_hook(TuningHook()); }

/// Whether a hook is installed.
inline bool has_tuning_hook() { return detail::tuning_hook_slot().load(std::memory_order_acquire) != nullptr; }

/// Installs a hook for its lifetime and then puts back the one it replaced (same rules as set_tuning_hook).
class ScopedTuningHook {
 public:
  explicit ScopedTuningHook(TuningHook hook)
      : m_previous(detail::exchange_tuning_hook(hook ? std::make_unique<const TuningHook>(std::move(hook)) : nullptr)) {}
  ~ScopedTuningHook() { detail::exchange_tuning_hook(std::move(m_previous)); }
  ScopedTuningHook(const ScopedTuningHook&)            = delete;
  ScopedTuningHook& operator=(const ScopedTuningHook&) = delete;

 private:
  std::unique_ptr<const TuningHook> m_previous;
};

}  // namespace tuning
}  // namespace scratchkit
