// SPDX-License-Identifier: BSD-3-Clause
/// What a launch may ask for: launch bounds, CUDA's limits on a block, the scratch fallback (no includes: any layer may name them).
#pragma once

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

}  // namespace scratchkit
