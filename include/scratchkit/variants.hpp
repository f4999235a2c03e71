// SPDX-License-Identifier: BSD-3-Clause
/// Variant and backend names shared by the layer kernels and their native CUDA twins (no Kokkos, no CUDA).
#pragma once

namespace scratchkit {

/// Which implementation runs a kernel.
enum class Backend {
  layer,  ///< written on scratchkit's layer: any Kokkos backend
  native  ///< hand-written CUDA with __shared__ (needs native CUDA, Kokkos::Cuda and CUDA memory)
};

/// GEMM variants (C = alpha*A*B + beta*C).
enum class GemmVariant {
  naive,                  ///< one thread per C element, no scratch
  tiled,                  ///< 16x16 tiles of A and B in shared memory (the seed)
  tiled_double_buffered,  ///< tiled, two shared buffers: loads of tile k+1 overlap the math of tile k
  register_blocked,       ///< each thread computes a small block of C in registers from shared tiles
};

/// Reduction variants.
enum class ReduceVariant {
  tree,                ///< per block: two loads per thread, tree in dynamic shared memory (the seed)
  grid_stride_atomic,  ///< grid-stride loop, shared tree per block, one atomic per block
  warp_shuffle,        ///< grid-stride loop, warp shuffles, one shared slot per warp
};

/// Reduction operators.
enum class ReduceOp { sum, min, max };

/// 1-D stencil variants.
enum class Stencil1DVariant {
  halo_tile,   ///< block tile + halo of radius R in dynamic shared memory (the seed)
  vectorized,  ///< halo tile filled with 16-byte loads, several outputs per thread
};

/// 3-D 7-point stencil variants.
enum class Stencil3DVariant {
  tile_2d_halo,  ///< an x-y tile with a one-cell halo in shared memory per z plane
  z_streaming,   ///< one x-y tile in shared memory, z neighbours streamed through registers
};

/// Transpose variants.
enum class TransposeVariant {
  naive,         ///< read rows, write columns directly
  tiled,         ///< through a 32x32 shared tile
  tiled_padded,  ///< through a padded shared tile (TransposeBlocking): no bank conflicts, more bytes per thread
};

/// Histogram variants.
enum class HistogramVariant {
  global_atomic,  ///< one global atomic per value
  shared_atomic,  ///< per-block privatised bins in shared memory, merged with global atomics
};

/// Scan kinds of the block collectives and the tile_scan kernel.
enum class ScanKind {
  inclusive,  ///< element k: op over elements 0 .. k
  exclusive,  ///< element k: op(init, op over elements 0 .. k - 1); element 0: init
};

/// How a block moves a tile between the striped arrangement of global memory
/// (coalesced) and the blocked one (each thread ITEMS consecutive items),
/// through shared memory (BlockExchange, CUB's BlockLoad/BlockStore).
enum class ExchangeVariant {
  warp_transpose,  ///< each warp exchanges its own 32 x ITEMS segment: only __syncwarp between the halves
  transpose,       ///< the whole block exchanges its tile (striped over the block): __syncthreads between the halves
};

inline const char* name(Backend b) { return b == Backend::layer ? "layer" : "native"; }
inline const char* name(GemmVariant v) {
  switch (v) {
    case GemmVariant::naive: return "naive";
    case GemmVariant::tiled: return "tiled";
    case GemmVariant::tiled_double_buffered: return "tiled_double_buffered";
    case GemmVariant::register_blocked: return "register_blocked";
  }
  return "?";
}
inline const char* name(ReduceVariant v) {
  switch (v) {
    case ReduceVariant::tree: return "tree";
    case ReduceVariant::grid_stride_atomic: return "grid_stride_atomic";
    case ReduceVariant::warp_shuffle: return "warp_shuffle";
  }
  return "?";
}
inline const char* name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
  }
  return "?";
}
inline const char* name(Stencil1DVariant v) {
  switch (v) {
    case Stencil1DVariant::halo_tile: return "halo_tile";
    case Stencil1DVariant::vectorized: return "vectorized";
  }
  return "?";
}
inline const char* name(Stencil3DVariant v) {
  switch (v) {
    case Stencil3DVariant::tile_2d_halo: return "tile_2d_halo";
    case Stencil3DVariant::z_streaming: return "z_streaming";
  }
  return "?";
}
inline const char* name(TransposeVariant v) {
  switch (v) {
    case TransposeVariant::naive: return "naive";
    case TransposeVariant::tiled: return "tiled";
    case TransposeVariant::tiled_padded: return "tiled_padded";
  }
  return "?";
}
inline const char* name(HistogramVariant v) {
  switch (v) {
    case HistogramVariant::global_atomic: return "global_atomic";
    case HistogramVariant::shared_atomic: return "shared_atomic";
  }
  return "?";
}

inline const char* name(ScanKind k) { return k == ScanKind::inclusive ? "inclusive" : "exclusive"; }
inline const char* name(ExchangeVariant v) {
  switch (v) {
    case ExchangeVariant::warp_transpose: return "warp_transpose";
    case ExchangeVariant::transpose: return "transpose";
  }
  return "?";
}

}  // namespace scratchkit
