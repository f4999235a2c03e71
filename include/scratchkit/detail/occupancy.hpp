// SPDX-License-Identifier: BSD-3-Clause
/// Blocks per SM of an NVIDIA GPU for a block shape, its shared memory and registers, as CUDA's occupancy calculator counts them.
#pragma once

// No Kokkos here: the native twins (tests/checker_twins.cu) check this formula
// against cudaOccupancyMaxActiveBlocksPerMultiprocessor.
#include <scratchkit/detail/device_limits.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace scratchkit {
namespace detail {

/// What limits the blocks a GPU keeps resident on one SM.
enum class OccupancyLimiter { none, threads, blocks, registers, shared, block_size };

inline const char* limiter_name(OccupancyLimiter l) {
  switch (l) {
    case OccupancyLimiter::threads: return "threads per SM";
    case OccupancyLimiter::blocks: return "blocks per SM";
    case OccupancyLimiter::registers: return "registers";
    case OccupancyLimiter::shared: return "shared memory";
    case OccupancyLimiter::block_size: return "block over the launch bounds or the device's threads per block";
    default: return "nothing";
  }
}

/// One kernel launch's demands.
struct OccupancyInput {
  int threads = 0;
  std::size_t static_shared = 0;   ///< __shared__ arrays (for the layer: the whole scratch request)
  std::size_t dynamic_shared = 0;  ///< the dynamic pool
  int regs_per_thread = 0;         ///< 0: unknown (not counted)
  int max_threads = 0;             ///< launch bounds' MaxThreads (0: none)
  int min_blocks = 0;              ///< launch bounds' MinBlocks (0: none)
  int carveout_percent = -1;       ///< cudaFuncAttributePreferredSharedMemoryCarveout (-1: no preference)
};

/// Blocks per SM and what limits them.
struct Occupancy {
  int blocks_per_sm = 0;
  OccupancyLimiter limiter = OccupancyLimiter::none;
  int by_threads = 0, by_blocks = 0, by_shared = 0;
  int by_registers = -1;                  ///< -1: registers unknown
  std::size_t shared_per_block = 0;       ///< with the reserved bytes, in allocation units
  std::size_t shared_config = 0;          ///< the carveout the SM runs with
  std::size_t shared_per_sm_used = 0;     ///< blocks_per_sm * shared_per_block
  int warps_per_sm = 0;
  double occupancy = 0;                   ///< resident warps / the SM's warps
  bool min_blocks_met = true;             ///< the launch bounds' MinBlocks fit
};

/// The shared-memory carveouts an SM of compute capability cc offers, in KB.
inline std::vector<int> shared_configs_kb(const DeviceLimits& d) {
  std::vector<int> all{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  if (d.cc_major == 7 && d.cc_minor == 0) all = {0, 8, 16, 32, 64, 96};
  std::vector<int> out;
  for (int kb : all)
    if (std::size_t(kb) * 1024 <= d.shared_per_sm) out.push_back(kb);
  return out;
}

/// CUDA's occupancy calculator (cuda_occupancy.h) for sm_70 and later: warps,
/// blocks, registers per sub-partition (4 of them, allocated per warp in units
/// of 256), and shared memory per block with the reserved bytes, in 128-byte
/// units, against the carveout the preference rounds up to.
inline Occupancy occupancy(const DeviceLimits& d, const OccupancyInput& in) {
  Occupancy o;
  const int warp = 32;
  if (in.threads < 1 || in.threads > d.max_threads_per_block || (in.max_threads > 0 && in.threads > in.max_threads)) {
    o.limiter = OccupancyLimiter::block_size;
    return o;
  }
  const int warps_per_block = (in.threads + warp - 1) / warp;
  o.by_threads = d.max_threads_per_sm / warp / warps_per_block;
  o.by_blocks  = d.max_blocks_per_sm;
  if (in.regs_per_thread > 0) {
    const int unit          = 256, parts = 4;
    const int regs_per_warp = (in.regs_per_thread * warp + unit - 1) / unit * unit;
    const int warps_by_regs = d.regs_per_sm / parts / regs_per_warp * parts;
    o.by_registers          = in.regs_per_thread > 255 ? 0 : warps_by_regs / warps_per_block;
  }
  const std::size_t unit  = 128;
  const std::size_t need  = in.static_shared + in.dynamic_shared + d.reserved_shared_per_block;
  o.shared_per_block      = (need + unit - 1) / unit * unit;
  const std::vector<int> configs = shared_configs_kb(d);
  std::size_t pref = d.shared_per_sm;  // no preference: the largest carveout, as the driver picks for occupancy
  if (in.carveout_percent >= 0) pref = d.shared_per_sm * std::size_t(in.carveout_percent) / 100;
  // The smallest carveout at or above the preference that still runs one block.
  o.shared_config = d.shared_per_sm;
  for (int kb : configs) {
    const std::size_t c = std::size_t(kb) * 1024;
    if (c >= pref && c >= o.shared_per_block) {
      o.shared_config = c;
      break;
    }
  }
  o.by_shared = in.static_shared + in.dynamic_shared > d.shared_per_block_optin
                    ? 0
                    : static_cast<int>(o.shared_config / o.shared_per_block);
  o.blocks_per_sm = o.by_threads, o.limiter = OccupancyLimiter::threads;
  const auto lower = [&](int n, OccupancyLimiter l) {
    if (n >= 0 && n < o.blocks_per_sm) o.blocks_per_sm = n, o.limiter = l;
  };
  lower(o.by_blocks, OccupancyLimiter::blocks);
  lower(o.by_registers, OccupancyLimiter::registers);
  lower(o.by_shared, OccupancyLimiter::shared);
  o.shared_per_sm_used = std::size_t(o.blocks_per_sm) * o.shared_per_block;
  o.warps_per_sm       = o.blocks_per_sm * warps_per_block;
  o.occupancy          = double(o.warps_per_sm) / (d.max_threads_per_sm / warp);
  o.min_blocks_met     = in.min_blocks <= 0 || o.blocks_per_sm >= in.min_blocks;
  return o;
}

}  // namespace detail
}  // namespace scratchkit
