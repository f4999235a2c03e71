// SPDX-License-Identifier: BSD-3-Clause
/// Launch description (grid, block shape, scratch) and launch() onto a Kokkos TeamPolicy.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/launch/limits.hpp>
#include <scratchkit/detail/launch/team_loop.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/scratch_check.hpp>
#include <scratchkit/shared_array.hpp>

#include <climits>
#include <cstdlib>
#include <sstream>
#include <string>

/// Linkage of the library's kernel functions (header templates whose bodies are KOKKOS_LAMBDAs): internal,
/// so that each translation unit keeps its own nvcc lambda wrapper (docs/user-guide.md, "Kernels in headers").
/// Defined empty on the command line it restores external linkage (the ctest lambda_wrapper_linkage then fails).
#ifndef SCRATCHKIT_KERNEL_LINKAGE
#define SCRATCHKIT_KERNEL_LINKAGE static
#endif

namespace scratchkit {

/// Where a launch's scratch lives when it is over the level-0 limit.
enum class ScratchFallback {
  none,   ///< reject a request over the level-0 limit (default)
  level1  ///< place the whole block scratch in Kokkos level-1 scratch (slower, large)
};

/// Compile-time launch bounds, CUDA's `__launch_bounds__(MaxThreads, MinBlocks)`:
/// `launch<LaunchBounds<256, 2>>(exec, label, params, body)`. They reach the
/// compiler as Kokkos::LaunchBounds on the TeamPolicy (ignored on host
/// backends); a block of more than MaxThreads threads is rejected at launch.
/// The default, LaunchBounds<0, 0>, sets none.
///
/// KokkosDriver (CUDA, only with the optional block driver,
/// SCRATCHKIT_KOKKOS_CUDA_DRIVER): `true` keeps this kernel on Kokkos' generic
/// TeamPolicy driver, whose league loop can keep a block's loop invariants in
/// registers. Without the block driver every launch is on Kokkos' driver.
///
/// TeamLoop: a team of Kokkos' generic driver may run several consecutive
/// blocks of the grid, one after another with a barrier between them
/// (LaunchParams::blocks_per_team sets how many; block_rank() and block_idx()
/// are the block's, not the team's), so that short blocks pay the driver's
/// per-team start once for all. The kernel must not rely on blocks running
/// concurrently (CUDA does not promise it either). Ignored (one block per
/// team) on the optional CUDA block driver.
template <unsigned MaxThreads, unsigned MinBlocks = 1, bool KokkosDriver = false, bool TeamLoop = false>
struct LaunchBounds {
  static constexpr unsigned max_threads = MaxThreads;    ///< 0: no bound
  static constexpr unsigned min_blocks  = MinBlocks;     ///< blocks per SM the compiler should fit
  static constexpr bool kokkos_driver   = KokkosDriver;  ///< CUDA block driver builds: use Kokkos' driver
  static constexpr bool team_loop       = TeamLoop;      ///< a team may run several blocks
};
using NoLaunchBounds = LaunchBounds<0, 0>;
/// LaunchBounds with its switches by name: a team may run several blocks.
template <unsigned MaxThreads, unsigned MinBlocks = 1>
using TeamLoopBounds = LaunchBounds<MaxThreads, MinBlocks, false, true>;
/// LaunchBounds with its switches by name: Kokkos' driver in block driver builds (where On).
template <unsigned MaxThreads, unsigned MinBlocks = 1, bool On = true>
using KokkosDriverBounds = LaunchBounds<MaxThreads, MinBlocks, On, false>;

/// CUDA's limits on a block, applied on every backend so that a kernel that
/// runs on the host also runs on a GPU.
struct BlockLimits {
  static constexpr int max_threads = 1024;
  static constexpr int max_x       = 1024;
  static constexpr int max_y       = 1024;
  static constexpr int max_z       = 64;
};

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
};

namespace detail {

/// The furthest fallback the library's kernels ask for: level 1 on host
/// backends only (a large blocking may be over their level 0), so that on a
/// GPU they compile the level-0 kernel alone.
template <class ExecSpace>
inline constexpr ScratchFallback kernel_fallback =
    is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1;

}  // namespace detail

/// Validates a launch and computes its mapping onto a Kokkos TeamPolicy.
/// Throws LaunchError (naming the requested and allowed values) for a block
/// shape the backend cannot run, an empty grid (unless allowed) or one too large, scratch over the limit, or
/// dynamic partitions past the pool. Nothing is launched. `Bounds`: the
/// launch bounds launch() will be given (they decide, on CUDA, which driver
/// runs the launch and so its level-0 limit).
/// `label` (optional): the kernel, named in every error (launch() passes its own).
template <class ExecSpace, class Bounds = NoLaunchBounds>
LaunchPlan plan_launch(const LaunchParams& p, const char* label = nullptr) {
  LaunchPlan plan;
  const Dim3 g = p.grid(), b = p.block();
  // The message stream is built only on failure: constructing an ostringstream
  // costs about a microsecond of host time on every launch, before the kernel
  // is enqueued.
  const auto begin_error = [label](std::ostringstream& err) {
    err << "scratchkit: cannot launch ";
    if (label) err << "kernel '" << label << "' ";
    err << "on " << detail::space_name<ExecSpace>() << ": ";
  };

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
        << detail::level0_max<ExecSpace, Bounds>(static_cast<int>(b.count())) << " bytes available per team)";
    throw LaunchError(err.str());
  }

  plan.blocks          = static_cast<int>(g.count());
  plan.blocks_per_team = 1;
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // At most the requested k, and never so many that fewer than four waves
    // of teams are left: a grid of a few thousand blocks keeps every SM busy.
    const long long waves4 = 4 * detail::resident_teams<ExecSpace>(static_cast<int>(b.count()));
    const long long cap    = plan.blocks / waves4 > 1 ? plan.blocks / waves4 : 1;
    const int k            = p.requested_blocks_per_team();
    plan.blocks_per_team   = k < cap ? k : static_cast<int>(cap);
  }
  plan.league_size     = plan.blocks == 0 ? 0 : (plan.blocks - 1) / plan.blocks_per_team + 1;
  plan.logical_threads = static_cast<int>(b.count());
  const std::size_t dyn_begin = detail::round_up(p.static_bytes(), detail::base_alignment);
  plan.scratch_bytes          = detail::scratch_request(p);
  plan.level0_max    = detail::level0_max<ExecSpace, Bounds>(plan.logical_threads);
  plan.level1_max    = detail::ScratchLimits<ExecSpace>::get().level1;
  plan.geometry      = detail::BlockGeometry(g, b, p.static_bytes(), p.dynamic_bytes(), dyn_begin,
                                               warp_size<ExecSpace>());
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // A second copy of the block's scratch at the next base_alignment
    // boundary past the first, when the team runs several blocks and both
    // copies fit in level 0 (one copy and the loop's barrier otherwise).
    if (p.alternates_scratch() && plan.blocks_per_team > 1 && detail::team_loop_alternate_allowed()) {
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
    else if (!library_kernel)
      err << " (a kernel written on the layer may allow level-1 scratch, up to " << plan.level1_max
          << " bytes, with LaunchParams::fallback(ScratchFallback::level1))";
    throw LaunchError(err.str());
  }
  return plan;
}

/// Whether the scratch of a launch with these parameters fits in level 0 on
/// ExecSpace for a launch with these bounds, as plan_launch will count it:
/// what a kernel that picks its tile size at run time asks (as a native one
/// reads cudaDeviceProp::sharedMemPerBlockOptin). Checks nothing else.
template <class ExecSpace, class Bounds = NoLaunchBounds>
bool fits_level0(const LaunchParams& p) {
  if (p.static_bytes() > detail::absurd_scratch || p.dynamic_bytes() > detail::absurd_scratch) return false;
  return detail::scratch_request(p) <= detail::level0_max<ExecSpace, Bounds>(static_cast<int>(p.block().count()));
}

/// Launches `body(const Block<ExecSpace>&)` once per block of the grid on
/// `exec`, as a Kokkos::parallel_for over a TeamPolicy named `label`.
/// Asynchronous like any Kokkos kernel: fence `exec` before reading results.
/// `Bounds` (optional, first template argument) sets launch bounds:
/// `launch<LaunchBounds<256, 2>>(exec, label, params, body)`.
/// `MaxFallback` (optional, second) is the furthest ScratchFallback this call
/// may ask for at run time: the default compiles the body for level-0 and
/// level-1 scratch; ScratchFallback::none compiles the level-0 kernel only
/// (half the device code), and a LaunchParams asking for level 1 is refused.
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = ScratchFallback::level1, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const char* label, const LaunchParams& p, const F& body) {
  LaunchPlan plan = plan_launch<ExecSpace, Bounds>(p, label);
  if (Bounds::max_threads > 0 && plan.logical_threads > static_cast<long long>(Bounds::max_threads)) {
    std::ostringstream err;
    err << "scratchkit: cannot launch kernel '" << label << "': block of " << plan.logical_threads << " threads "
        << detail::dim_str(p.block()) << " is over its launch bounds of " << Bounds::max_threads << " threads";
    throw LaunchError(err.str());
  }
  // Only a launch that allowed it reaches here with an empty grid (plan_launch
  // throws otherwise, as CUDA rejects a zero grid); it has still had every
  // other check, and launches nothing.
  if (plan.league_size == 0) return;
  const ScratchCheck* check = p.scratch_check().enabled ? &p.scratch_check() : detail::scratch_check_scope;
  if (check != nullptr && check->enabled) {
    detail::check_scratch_launch<Bounds, MaxFallback == ScratchFallback::level1>(exec, label, p, plan, body, *check);
    return;
  }
  if (plan.scratch_level == 0) {
    detail::launch_at_level<Bounds, 0>(exec, label, p, plan, body);
  } else if constexpr (MaxFallback == ScratchFallback::level1) {
    detail::launch_at_level<Bounds, 1>(exec, label, p, plan, body);
  } else {
    throw detail::level0_only_error(label, plan.scratch_bytes);
  }
}

/// launch() with a label built at run time.
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = ScratchFallback::level1, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const std::string& label, const LaunchParams& p, const F& body) {
  launch<Bounds, MaxFallback>(exec, label.c_str(), p, body);
}

/// ceil(a / b) for sizes, as grid arithmetic needs it.
KOKKOS_INLINE_FUNCTION constexpr int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

}  // namespace scratchkit
