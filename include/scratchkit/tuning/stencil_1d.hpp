// SPDX-License-Identifier: BSD-3-Clause
/// 1-D stencil tuning: block size, launch bounds and blocks per team per architecture (both twins).
#pragma once

#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100): the measured values (docs/performance.md, "1-D stencil" and
/// "Several blocks per team").
struct Stencil1DSm90 {
  /// Threads per block of both variants, and the launch bounds' blocks per SM:
  /// 8 x 256 threads (32 registers), the full occupancy a streaming kernel wants.
  static constexpr int threads = 256, min_blocks = 8;
  /// Blocks one Kokkos team runs on Kokkos' generic driver (LaunchBounds'
  /// TeamLoop), the best of a sweep per variant and type: halo_tile float,
  /// halo_tile double, vectorized.
  static constexpr int halo_tile_float_blocks_per_team = 8, halo_tile_double_blocks_per_team = 4;
  static constexpr int vectorized_blocks_per_team = 4;
};

/// The policy of GPUs of compute capability Arch / 10 (tuning::cuda_arch): sm_90's
/// values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and every other
/// GPU (docs/performance.md, "Tuning"); an architecture's own values go in a
/// specialisation here.
template <int Arch>
struct Stencil1DPolicy : Stencil1DSm90 {};

}  // namespace tuning
}  // namespace scratchkit
