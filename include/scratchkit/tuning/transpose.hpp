// SPDX-License-Identifier: BSD-3-Clause
/// Transpose tuning: the tiled_padded blocking per element type and architecture (both twins).
#pragma once

#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100): the best of perf/tune/transpose_tune.cu (docs/performance.md,
/// "Transpose"). Fields of detail::TransposeBlocking: tile_rows x tile_cols
/// elements, 32 x block_rows threads, tiles in groups of group tile rows,
/// min_blocks the launch bound. Tiles fit the host backends' 32 KB of scratch.
template <class Scalar>
struct TransposeSm90;
template <>
struct TransposeSm90<float> {
  // 64 x 64 tile (16.6 KB), 256 threads moving 16 floats each, tiles in row order.
  struct Tile {
    static constexpr int tile_rows = 64, tile_cols = 64, block_rows = 8, group = 1, min_blocks = 8;
  };
};
template <>
struct TransposeSm90<double> {
  // 32 x 32 tile (8.3 KB), 256 threads moving 4 doubles each, tiles in row order.
  struct Tile {
    static constexpr int tile_rows = 32, tile_cols = 32, block_rows = 8, group = 1, min_blocks = 8;
  };
};

/// The policy of GPUs of compute capability Arch / 10 (tuning::cuda_arch): sm_90's
/// values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and every other
/// GPU (docs/performance.md, "Tuning"); an architecture's own values go in a
/// specialisation here.
template <int Arch, class Scalar>
struct TransposePolicy : TransposeSm90<Scalar> {};

}  // namespace tuning
}  // namespace scratchkit
