// SPDX-License-Identifier: BSD-3-Clause
/// Reduce tuning: block sizes, launch bounds, loads and blocks per team per architecture (both twins).
#pragma once

#include <scratchkit/detail/load16.hpp>
#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100): the measured values (docs/performance.md, "Reduction" and "Tuning").
struct ReduceSm90 {
  /// ReduceVariant::tree: threads per block (a power of two), launch bounds'
  /// blocks per SM (32 registers a thread), tree blocks one Kokkos team runs on
  /// Kokkos' generic driver (the best over the four types).
  static constexpr int tree_threads = 256, tree_min_blocks = 8, tree_blocks_per_team = 8;
  /// warp_shuffle and grid_stride_atomic (detail::ReduceBlocking): 4 loads (2 KB
  /// in flight per warp), 8 blocks per SM (2048 threads), loads through __ldg.
  struct Stream {
    static constexpr int threads = 256, loads = 4, min_blocks = 8;
    static constexpr detail::LoadHint load = detail::LoadHint::nc;
  };
};

/// The policy of GPUs of compute capability Arch / 10 (tuning::cuda_arch): sm_90's
/// values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and every other
/// GPU (docs/performance.md, "Tuning"); an architecture's own values go in a
/// specialisation here.
template <int Arch>
struct ReducePolicy : ReduceSm90 {};

}  // namespace tuning
}  // namespace scratchkit
