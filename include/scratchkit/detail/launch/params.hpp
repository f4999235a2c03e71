// SPDX-License-Identifier: BSD-3-Clause
/// A launch's description and plan (LaunchParams, LaunchPlan: public types, documented where
/// launch.hpp uses them) and its settings, below the launch path of detail/launch/ that reads them.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/launch_bounds.hpp>
#include <scratchkit/scratch_check.hpp>
#include <scratchkit/shared_array.hpp>

#include <cstddef>
#include <sstream>
#include <string>

namespace scratchkit {
namespace detail {

/// What the plan, the functor, the CUDA block driver and Block read of a launch's tunable
/// choices: made once per launch (launch_settings), then carried with the plan.
struct LaunchSettings {
  int blocks_per_team = 1;  ///< requested blocks per team (the plan caps it by the grid's waves)
  int host_team_size  = 0;  ///< host members per block; 0: detail::host_team_size's choice
  /// TeamLoop order: strided (the teams resident at one time read neighbouring blocks, as a
  /// CUDA grid's do; docs/performance.md, "Several blocks per team") unless the hook says consecutive.
  bool team_loop_strided        = true;
  bool team_loop_alternate      = true;   ///< LaunchParams::alternate_scratch may be taken
  bool cuda_team_space          = true;   ///< the block driver keeps Kokkos' team-collective space
  bool host_nested_threads_loop = false;  ///< tuning::HostThreadsLoop::nested
  bool host_per_thread_phases   = false;  ///< never detail::host_direct's plain loops
};

}  // namespace detail

/// A kernel launch: grid, block shape, the static scratch arrays the kernel
/// declares (`uses<...>`), the dynamic pool (`shared_mem_bytes`).
/// \code
/// auto p = scratchkit::LaunchParams({ceil_div(n, 16), ceil_div(m, 16)}, {16, 16})
///              .uses<Tile, Tile>()
///              .shared_mem_bytes(0);
/// \endcode
class LaunchParams {
 public:
  LaunchParams(Dim3 grid, Dim3 block) : m_grid(grid), m_block(block) {}
  /// The grid alone: launch() takes the block from the body's static shape (`const Block&` with
  /// `Block = scratchkit::Block<Exec, BlockShape<X, Y, Z>>`), so the shape is written once. A
  /// body on a run-time shape is refused (LaunchError), as is plan_launch(). A 2-D or 3-D grid
  /// is written `LaunchParams(Dim3(nx, ny))`: a braced `({nx, ny})` would also name a copy.
  explicit LaunchParams(Dim3 grid) : m_grid(grid), m_block(0, 0, 0), m_block_from_body(true) {}

  /// Plans the static arrays, in the order the kernel constructs them; a
  /// SharedArrays<...> group plans each of its arrays in its order.
  template <class... Arrays>
  LaunchParams& uses() {
    (add_uses(static_cast<Arrays*>(nullptr)), ...);
    return *this;
  }
  // uses<>'s one array, or each array of a SharedArrays group in its order.
 private:
  template <class A>
  void add_uses(A*) {
    add_static(A::shmem_size(), A::shmem_align());
  }
  template <class... Arrays>
  void add_uses(SharedArrays<Arrays...>*) {
    (add_uses(static_cast<Arrays*>(nullptr)), ...);
  }

 public:
  /// Adds `bytes` of static scratch aligned to `align` (for arrays whose type is not at hand).
  LaunchParams& add_static(std::size_t bytes, std::size_t align) {
    if (!detail::is_pow2(align) || align > detail::base_alignment) {
      std::ostringstream os;
      os << "scratchkit::LaunchParams: static alignment " << align << " must be a power of two <= "
         << detail::base_alignment;
      throw LaunchError(os.str());
    }
    m_static = detail::round_up(m_static, align) + bytes;
    return *this;
  }
  /// Size of the dynamic pool in bytes (CUDA's third <<<>>> argument).
  LaunchParams& shared_mem_bytes(std::size_t bytes) {
    m_dynamic = bytes;
    return *this;
  }
  /// Sizes the dynamic pool from a layout of partitions, and checks them
  /// against the pool at launch (as `require(layout)`).
  LaunchParams& shared_mem_bytes(const DynamicLayout& layout) {
    m_dynamic = layout.bytes();
    m_layout  = layout;
    return *this;
  }
  /// Checks (at launch, before it) that the layout's partitions fit in the pool.
  LaunchParams& require(const DynamicLayout& layout) {
    m_layout = layout;
    return *this;
  }
  /// What to do when the scratch request is over the level-0 limit.
  LaunchParams& fallback(ScratchFallback f) {
    m_fallback = f;
    return *this;
  }
  /// With LaunchBounds' TeamLoop: how many consecutive blocks one team runs
  /// (at least 1; the last team runs what is left). Without TeamLoop, or on
  /// the optional CUDA block driver, every team runs one block.
  LaunchParams& blocks_per_team(int n) {
    if (n < 1) throw LaunchError("scratchkit::LaunchParams::blocks_per_team: " + std::to_string(n) + " must be >= 1");
    m_per_team = n;
    return *this;
  }
  /// With LaunchBounds' TeamLoop: a team's successive blocks alternate between
  /// two copies of the scratch (static arrays and dynamic pool), so the team
  /// loop needs no barrier between one block and the next. Only for a body in
  /// which every thread reaches at least one sync_threads in every block: that
  /// barrier, in block r + 1, is what keeps block r + 2 from writing the copy
  /// block r may still be reading. The team's scratch doubles where a team runs
  /// more than one block; where two copies do not fit in level 0 the launch
  /// keeps one copy and the barrier (LaunchPlan::scratch_stride says which).
  /// No effect without TeamLoop or on the optional CUDA block driver.
  LaunchParams& alternate_scratch(bool on = true) {
    m_alternate = on;
    return *this;
  }
  /// Lets a grid with no blocks launch nothing instead of throwing. CUDA
  /// rejects an empty grid, and so does launch() by default: a grid sized
  /// from an empty input is usually a caller's mistake or an unhandled edge
  /// (see docs/user-guide.md, "Edge semantics").
  LaunchParams& allow_empty_grid(bool allow = true) {
    m_allow_empty = allow;
    return *this;
  }
  /// Host backends: team size to use (default: as many as the backend allows,
  /// at most the block's threads). Ignored on GPU backends, where the team is
  /// always the whole block.
  LaunchParams& host_team_size(int n) {
    m_host_team = n;
    return *this;
  }
  /// Runs this launch under the scratch checker (host backends, builds with
  /// SCRATCHKIT_ENABLE_SCRATCH_CHECK; docs/checker.md): races, uninitialised
  /// reads and bank conflicts, reported at the end of the launch. On the
  /// host the launch then runs each block on one team member.
  LaunchParams& check_scratch(const ScratchCheck& c = ScratchCheck()) {
    m_check = c;
    return *this;
  }
  /// A preferred occupancy in percent (1-100; 0: none), handed to Kokkos as
  /// `Kokkos::Experimental::prefer(policy, DesiredOccupancy(percent))`: on
  /// CUDA, Kokkos sets the kernel's shared-memory carveout from it
  /// (occupancy_report shows which). Host backends have nothing to tune.
  LaunchParams& desired_occupancy(int percent) {
    if (percent < 0 || percent > 100)
      throw LaunchError("scratchkit::LaunchParams::desired_occupancy: " + std::to_string(percent) +
                        " is not a percentage in [0, 100]");
    m_occupancy = percent;
    return *this;
  }

  Dim3 grid() const { return m_grid; }
  Dim3 block() const { return m_block; }
  /// LaunchParams(grid): the block is the body's static shape, filled in by launch().
  bool block_from_body() const { return m_block_from_body; }
  /// The block set: what launch() does for LaunchParams(grid) with the body's static shape.
  LaunchParams& impl_set_block(Dim3 block) {
    m_block           = block;
    m_block_from_body = false;
    return *this;
  }
  std::size_t static_bytes() const { return m_static; }
  std::size_t dynamic_bytes() const { return m_dynamic; }
  ScratchFallback scratch_fallback() const { return m_fallback; }
  int requested_host_team_size() const { return m_host_team; }
  int requested_blocks_per_team() const { return m_per_team; }
  bool alternates_scratch() const { return m_alternate; }
  bool empty_grid_allowed() const { return m_allow_empty; }
  const DynamicLayout& required_layout() const { return m_layout; }
  bool has_required_layout() const { return m_layout.bytes() > 0; }
  const ScratchCheck& scratch_check() const { return m_check; }
  int desired_occupancy() const { return m_occupancy; }

 private:
  Dim3 m_grid, m_block;
  std::size_t m_static    = 0;
  std::size_t m_dynamic   = 0;
  DynamicLayout m_layout;
  ScratchFallback m_fallback = ScratchFallback::none;
  int m_host_team            = 0;
  int m_per_team             = 1;
  bool m_allow_empty         = false;
  bool m_alternate           = false;
  ScratchCheck m_check{false};
  int m_occupancy = 0;
  bool m_block_from_body = false;
};

/// How a launch maps onto Kokkos; `plan_launch` computes it without launching.
struct LaunchPlan {
  int league_size       = 0;  ///< number of teams (the grid's blocks, or fewer when a team runs several)
  int blocks            = 0;  ///< number of blocks of the grid
  int blocks_per_team   = 1;  ///< consecutive blocks one team runs (LaunchBounds' TeamLoop)
  int team_size         = 0;  ///< hardware threads per team (chosen by launch(); 0 from plan_launch)
  int logical_threads   = 0;  ///< threads per block
  int scratch_level     = 0;  ///< 0, or 1 under ScratchFallback::level1
  std::size_t scratch_bytes   = 0;  ///< bytes requested per team
  /// Offset of a team's second scratch copy (LaunchParams::alternate_scratch
  /// taken: blocks alternate between the copies, no barrier between blocks);
  /// 0: one copy. launch() still takes one copy where the backend's team
  /// limit with two is below the block (on CUDA: the launch bounds' blocks
  /// per SM times the doubled scratch must fit in one SM).
  std::size_t scratch_stride  = 0;
  std::size_t level0_max      = 0;  ///< the backend's level-0 limit per team
  std::size_t level1_max      = 0;  ///< the backend's level-1 limit per team
  detail::BlockGeometry geometry{};
  detail::LaunchSettings settings{};  ///< the launch's choices after the tuning hook (tuning/hook.hpp)
};

}  // namespace scratchkit
