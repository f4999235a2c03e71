// SPDX-License-Identifier: BSD-3-Clause
/// GEMM tuning: the blockings and size thresholds a default register_blocked call runs with, per architecture.
///
/// A policy holds, per element type: `type`, the layer's blocking; `native_type`,
/// the native twin's reference blocking (the tuner's "*" line); `few_type` and
/// `few_below_tiles`, the blocking of products of few tiles; for double the FP64
/// tensor-core blockings by size (tiny, few, small, large, fallback). Any two
/// SIMT blockings give the same bits (each element of C is one chain of
/// multiply-adds in k order), and both twins pick the tensor-core blocking from
/// the same policy, so a policy changes speed, never results. perf/tune/gemm_tune.cu
/// times candidates; a tuner runs another blocking by naming it
/// (detail::gemm_register_blocked<Blk>), not by editing a policy.
#pragma once

#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100, 132 SMs, 228 KB of shared memory per SM): the measured values
/// (docs/performance.md, "GEMM" and "Tuning").
template <class Scalar>
struct GemmSm90;

template <>
struct GemmSm90<float> {
  // 256 threads, 8 x 8 floats per thread, 2 blocks per SM (<= 128 registers), 4 x 8 lanes per warp. Lane
  // layout and FMA order change no result, only nvcc's register banks, which the issue-bound loop follows:
  // each twin runs the order fastest for it, the layer serpentine, the native twin by columns.
  struct Layer : detail::GemmSimtFields {
    static constexpr int block_m = 128, block_n = 128, block_k = 16, warp_m = 32, warp_n = 64;
    static constexpr int thread_m = 8, thread_n = 8, min_blocks = 2, order = detail::gemm_serpentine;
  };
  struct Native : Layer {
    static constexpr int order = detail::gemm_columns;
  };
  // Under few_below_tiles 128 x 128 tiles of C the blocking above leaves most SMs idle (64 tiles at 1024^3
  // on 132 SMs): 64 x 64 tiles of 128 threads, where the two blockings' measured speeds cross.
  struct Few : detail::GemmSimtFields {
    static constexpr int block_m = 64, block_n = 64, block_k = 16, warp_m = 32, warp_n = 32;
    static constexpr int thread_m = 8, thread_n = 4, min_blocks = 4, order = detail::gemm_serpentine;
  };
  using type        = detail::GemmBlockingOf<Layer>;
  using native_type = detail::GemmBlockingOf<Native>;
  using few_type    = detail::GemmBlockingOf<Few>;
  static constexpr long long few_below_tiles = 200;
  // Kokkos' generic driver, not the layer's block driver: under the block driver nvcc spills a register per
  // k-slice in this 128-register kernel.
  static constexpr bool simt_kokkos_driver = true;
};

template <>
struct GemmSm90<double> {
  // FP64 tensor cores, m16n8k16 (DMMA.16x8x16). No one blocking is best at every size, so both twins pick by
  // the number of 128 x 128 tiles of C (detail/gemm/pick.hpp). small: 4 warps, 2 stages = 96.5 KB, 2 blocks
  // per SM; large: 8 warps, 3 stages = 192 KB, 1 block per SM; both need CUDA's opt-in above 48 KB.
  struct Small : detail::GemmMmaFields {
    static constexpr int block_m = 64, block_n = 128, warp_m = 32, warp_n = 64;
    static constexpr int min_blocks = 2, stages = 2, k_steps = 2, mma_k = 16;
  };
  struct Large : detail::GemmMmaFields {
    static constexpr int block_m = 128, block_n = 128, warp_m = 32, warp_n = 64;
    static constexpr int min_blocks = 1, stages = 3, k_steps = 2, mma_k = 16;
  };
  // The fallback where a block cannot have that much shared memory (Kokkos' own ~40 KB of level 0): 36 KB.
  struct Fallback : detail::GemmMmaFields {
    static constexpr int block_m = 64, block_n = 128, warp_m = 32, warp_n = 64;
    static constexpr int min_blocks = 2, stages = 3;
  };
  // Products of few tiles: 32 x 64 tiles of 128 threads, 3 stages of k = 16, 37 KB (every launch path),
  // 4 blocks per SM; also from few_below_tiles to fallback_few_below_tiles where small and large do not fit.
  struct Few : detail::GemmMmaFields {
    static constexpr int block_m = 32, block_n = 64, warp_m = 16, warp_n = 32;
    static constexpr int min_blocks = 4, stages = 3, k_steps = 1, mma_k = 16;
  };
  // Tiny products: 32 x 32 tiles of 128 threads, 4 stages of k = 16, 33 KB, never split (cuBLAS runs
  // 32 x 32 x 32 tiles of 128 threads there).
  struct Tiny : detail::GemmMmaFields {
    static constexpr int block_m = 32, block_n = 32, warp_m = 16, warp_n = 16;
    static constexpr int min_blocks = 4, stages = 4, k_steps = 1, mma_k = 16;
  };
  using small_type  = detail::GemmMmaBlockingOf<Small>;
  using large_type  = detail::GemmMmaBlockingOf<Large>;
  using native_type = large_type;  ///< the tuner's reference line ("*")
  using type        = detail::GemmMmaBlockingOf<Fallback>;
  using few_type    = detail::GemmMmaBlockingOf<Few>;
  using tiny_type   = detail::GemmMmaBlockingOf<Tiny>;
  static constexpr long long tiny_below_tiles         = 64;    ///< tiny_type below this many 128 x 128 tiles
  static constexpr long long few_below_tiles          = 200;   ///< few_type below, where it fits
  static constexpr long long fallback_few_below_tiles = 1024;  ///< few_type below, where small/large do not fit
  static constexpr long long small_below_tiles        = 2048;  ///< small_type below, large_type above
  static_assert(type::smem_bytes <= 40 * 1024, "the fallback blocking must fit Kokkos 4.6's ~40 KB of level 0");
  static_assert(few_type::smem_bytes <= 40 * 1024, "the few-tile blocking must fit Kokkos 4.6's ~40 KB of level 0");
  static_assert(tiny_type::smem_bytes <= 40 * 1024, "the tiny blocking must fit Kokkos 4.6's ~40 KB of level 0");
};

/// Host backends (Serial, OpenMP, Threads): `type`, the blocking a default call
/// runs at every size. Today the sm_90 layer blockings, which host backends
/// have always run; host tuning overrides their fields here.
template <class Scalar>
struct GemmHost;
template <>
struct GemmHost<float> {
  struct Blocks : GemmSm90<float>::Layer {};
  using type = detail::GemmBlockingOf<Blocks>;
};
template <>
struct GemmHost<double> {
  // The tensor-core fallback's shape; host backends run its scalar multiply-adds in k order.
  struct Blocks : GemmSm90<double>::Fallback {};
  using type = detail::GemmMmaBlockingOf<Blocks>;
};

/// The GEMM policy of architecture key Arch (CUB's policy hub, chosen at compile
/// time: tuning::cuda_arch on GPUs, tuning::host_arch on host backends). GPUs:
/// sm_90's values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and
/// every other GPU, AMD included (docs/performance.md, "Tuning"); a GPU with less
/// shared memory per block still runs only blockings that fit it, since the picks
/// test the launch. An architecture's own values go in a specialisation here.
template <int Arch, class Scalar>
struct GemmPolicy : GemmSm90<Scalar> {};
template <class Scalar>
struct GemmPolicy<host_arch, Scalar> : GemmHost<Scalar> {};

}  // namespace tuning
}  // namespace scratchkit
