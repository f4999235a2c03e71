// SPDX-License-Identifier: BSD-3-Clause
/// 3-D stencil tuning: tile_2d_halo's launch bounds and the z_streaming shapes per architecture (both twins).
#pragma once

#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100): the fastest of perf/tune/stencil3d_tune.cu at 512^3
/// (docs/performance.md, "3-D stencil"). Fields of a z_streaming shape
/// (detail::Stencil3DZsShape): block_y (threads 32 x block_y), outputs_x,
/// outputs_y (a thread's outputs), z_chunk (planes per block), min_blocks_float,
/// min_blocks_double (launch bounds), stages (0: register pipeline; >= 4: cp.async
/// ring of that many plane buffers), vec (ring cells of 16 bytes: 1, and outputs
/// in 16-byte groups: 2), z_alternate (odd chunks walk z downwards).
struct Stencil3DSm90 {
  /// tile_2d_halo: launch bounds' blocks per SM (8 x 256 threads, 32 registers).
  static constexpr int tile_min_blocks = 8;
  /// The layer's 3-D kernels launch on Kokkos' generic driver, not the block
  /// driver, under which ptxas recomputes their plane loops' invariants.
  static constexpr bool kokkos_driver = true;
  struct ShapeFields {
    static constexpr int outputs_y = 1, stages = 0, vec = 0, z_alternate = 0;
  };
  /// z_streaming, float: the cp.async ring, 128 x 8 tile, 5 plane buffers, 26 KB.
  struct FloatShape : ShapeFields {
    static constexpr int block_y = 8, outputs_x = 4, z_chunk = 128, min_blocks_float = 6, min_blocks_double = 6;
    static constexpr int stages = 5;
  };
  /// z_streaming, double: the register pipeline, 64 x 8 tile on 32 x 4 threads, 15.5 KB.
  struct DoubleShape : ShapeFields {
    static constexpr int block_y = 4, outputs_x = 2, outputs_y = 2, z_chunk = 64;
    static constexpr int min_blocks_float = 6, min_blocks_double = 6;
  };
  /// z_streaming on CUDA for rows of at least one wide tile, over 48 KB of
  /// shared memory per block: float 256 x 16 tile, 5 stages, z alternating, 93 KB.
  struct WideFloatShape : ShapeFields {
    static constexpr int block_y = 16, outputs_x = 8, z_chunk = 128, min_blocks_float = 2, min_blocks_double = 2;
    static constexpr int stages = 5, z_alternate = 1;
  };
  /// The same for double: 128 x 16 tile, 4 stages, 75 KB.
  struct WideDoubleShape : ShapeFields {
    static constexpr int block_y = 16, outputs_x = 4, z_chunk = 64, min_blocks_float = 2, min_blocks_double = 2;
    static constexpr int stages = 4;
  };
};

/// The policy of GPUs of compute capability Arch / 10 (tuning::cuda_arch): sm_90's
/// values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and every other
/// GPU (docs/performance.md, "Tuning"); an architecture's own values go in a
/// specialisation here.
template <int Arch>
struct Stencil3DPolicy : Stencil3DSm90 {};

}  // namespace tuning
}  // namespace scratchkit
