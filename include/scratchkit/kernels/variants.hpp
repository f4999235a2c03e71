// SPDX-License-Identifier: BSD-3-Clause
/// Variant names shared by the layer kernels and their native CUDA twins (no Kokkos, no CUDA).
#pragma once

namespace scratchkit {

/// GEMM variants (C = alpha*A*B + beta*C).
enum class GemmVariant {
  naive,  ///< one thread per C element, no scratch
  tiled,  ///< 16x16 tiles of A and B in shared memory (the seed)
};

/// Reduction variants.
enum class ReduceVariant {
  tree,  ///< per block: two loads per thread, tree in dynamic shared memory (the seed)
};

/// Reduction operators.
enum class ReduceOp { sum, min, max };

/// 1-D stencil variants.
enum class Stencil1DVariant {
  halo_tile,  ///< block tile + halo of radius R in dynamic shared memory (the seed)
};

inline const char* name(GemmVariant v) {
  switch (v) {
    case GemmVariant::naive: return "naive";
    case GemmVariant::tiled: return "tiled";
  }
  return "?";
}
inline const char* name(ReduceVariant v) {
  switch (v) {
    case ReduceVariant::tree: return "tree";
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
  }
  return "?";
}

}  // namespace scratchkit
