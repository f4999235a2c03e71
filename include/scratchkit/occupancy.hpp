// SPDX-License-Identifier: BSD-3-Clause
/// occupancy_report: blocks per SM of a launch description and what limits them.
#pragma once

#include <scratchkit/detail/occupancy.hpp>
#include <scratchkit/launch.hpp>

#include <sstream>
#include <string>

namespace scratchkit {

/// What a launch description gets from the execution space: its plan, and on
/// CUDA the blocks each SM keeps resident, what limits them, and the shared
/// memory they use (CUDA's occupancy calculator; detail/occupancy.hpp).
struct OccupancyReport {
  std::string label;
  std::string space;
  bool gpu = false;
  bool device_known = false;            ///< false: a GPU whose limits this build cannot ask (no CUDA)
  LaunchPlan plan;
  detail::DeviceLimits device;
  detail::OccupancyInput input;         ///< shared bytes per block as the launch requests them
  detail::Occupancy occupancy;
  int desired_occupancy = 0;            ///< LaunchParams::desired_occupancy (0: none)
  int carveout_percent  = -1;           ///< the carveout that hint sets on CUDA (-1: none)
  int host_concurrency  = 0;            ///< host backends: threads running teams at once
  std::string str() const;
};

namespace detail {
/// The carveout Kokkos' CUDA launch sets for a desired occupancy (Kokkos 4
/// and 5, Cuda/Kokkos_Cuda_KernelLaunch.hpp, configure_shmem_preference):
/// blocks for that share of the SM's threads, their shared memory rounded up
/// to 8 KB, as a percent of the SM's.
inline int kokkos_carveout_for(const DeviceLimits& d, int threads, std::size_t shmem, int occupancy_pct,
                               int regs_per_thread) {
  std::size_t blocks_regs = 1u << 20;
  if (regs_per_thread > 0) blocks_regs = d.regs_per_sm / ((regs_per_thread + 7) / 8 * 8 * std::size_t(threads));
  const std::size_t want_threads = (std::size_t(d.max_threads_per_sm) * occupancy_pct / 100 + 31) / 32 * 32;
  std::size_t blocks = static_cast<std::size_t>((want_threads + threads * 0.8) / threads);
  if (blocks > blocks_regs) blocks = blocks_regs;
  if (blocks == 0) blocks = 1;
  std::size_t per_block = shmem;
  const std::size_t unit = 8192;
  if (occupancy_pct < 100 && per_block * blocks < unit) per_block = unit / blocks;
  if (per_block == 0) return 0;
  const std::size_t c = 100 * ((blocks * per_block + unit - 1) / unit * unit) / d.shared_per_sm;
  return c > 100 ? 100 : static_cast<int>(c);
}
}  // namespace detail

/// The occupancy of a launch on ExecSpace (the default instance's device),
/// with `regs_per_thread` if the caller knows them (the layer's Kokkos path
/// cannot tell: 0, not counted). Throws LaunchError as plan_launch does.
/// On host backends a team member runs one block at a time: the report says
/// so, with the scratch a block takes and how many run at once.
/// \code
/// std::cout << scratchkit::occupancy_report<Kokkos::Cuda>(params, "my::kernel").str();
/// \endcode
template <class ExecSpace, class Bounds = NoLaunchBounds>
OccupancyReport occupancy_report(const LaunchParams& p, const char* label = nullptr, int regs_per_thread = 0) {
  OccupancyReport r;
  r.label             = label ? label : "";
  r.space             = detail::space_name<ExecSpace>();
  r.gpu               = detail::is_gpu_space<ExecSpace>::value;
  r.plan              = plan_launch<ExecSpace, Bounds>(p, label);
  r.desired_occupancy = p.desired_occupancy();
  r.input.threads         = r.plan.logical_threads;
  r.input.static_shared   = r.plan.scratch_bytes;  // Kokkos requests the block's scratch as one piece
  r.input.regs_per_thread = regs_per_thread;
  r.input.max_threads     = static_cast<int>(Bounds::max_threads);
  r.input.min_blocks      = static_cast<int>(Bounds::min_blocks);
  if (!r.gpu) {
    r.host_concurrency = static_cast<int>(ExecSpace().concurrency());
    return r;
  }
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    try {
      r.device       = detail::cuda_device_limits(ExecSpace().cuda_device());
      r.device_known = true;
    } catch (const Error&) {
      // a device CUDA cannot describe: the report says its limits are unknown
    }
  }
#endif
  if (!r.device_known) return r;
  if (r.desired_occupancy > 0) {
    r.carveout_percent     = detail::kokkos_carveout_for(r.device, r.input.threads, r.input.static_shared,
                                                         r.desired_occupancy, regs_per_thread);
    r.input.carveout_percent = r.carveout_percent;
  }
  r.occupancy = detail::occupancy(r.device, r.input);
  return r;
}

inline std::string OccupancyReport::str() const {
  std::ostringstream os;
  os << "occupancy of '" << label << "' on " << space << ": block of " << plan.logical_threads << " threads, "
     << plan.blocks << " blocks, scratch " << plan.scratch_bytes << " bytes per block (level " << plan.scratch_level
     << ", limit " << plan.level0_max << ")\n";
  if (!gpu) {
    os << "  host backend: each team member runs one block at a time; " << host_concurrency
       << " host thread(s), so up to " << (host_concurrency < plan.league_size ? host_concurrency : plan.league_size)
       << " block(s) at once, " << plan.scratch_bytes << " bytes of scratch each\n";
    return os.str();
  }
  if (!device_known) {
    os << "  GPU limits unknown in this build\n";
    return os.str();
  }
  const detail::Occupancy& o = occupancy;
  os << "  " << device.name << ": " << o.blocks_per_sm << " blocks per SM (" << o.warps_per_sm << " warps, "
     << static_cast<int>(o.occupancy * 100 + 0.5) << " % occupancy), limited by " << detail::limiter_name(o.limiter)
     << "\n  by threads " << o.by_threads << ", by blocks " << o.by_blocks << ", by registers ";
  if (o.by_registers < 0)
    os << "unknown (Kokkos does not expose the kernel's registers)";
  else
    os << o.by_registers << " (" << input.regs_per_thread << " per thread)";
  os << ", by shared memory " << o.by_shared << " (" << o.shared_per_block << " bytes per block with the "
     << device.reserved_shared_per_block << " the driver reserves, carveout " << o.shared_config / 1024 << " KB";
  if (carveout_percent >= 0)
    os << " from desired occupancy " << desired_occupancy << " %: carveout " << carveout_percent << " %";
  os << ")\n  shared memory per SM used: " << o.shared_per_sm_used << " of " << o.shared_config << " bytes";
  if (!o.min_blocks_met) os << "; the launch bounds ask for " << input.min_blocks << " blocks per SM";
  os << "\n";
  return os.str();
}

}  // namespace scratchkit
