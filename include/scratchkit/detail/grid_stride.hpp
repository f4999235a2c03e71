// SPDX-License-Identifier: BSD-3-Clause
/// The grid-stride traversal of 16-byte vectors that reduce and histogram share (both twins; no Kokkos here).
#pragma once

#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/macros.hpp>

#include <cstddef>

namespace scratchkit {
namespace detail {

/// One thread's pass over a grid-stride stream of 16-byte vectors (the
/// traversal reduce and histogram share; the native twin is stream_lanes in
/// src/cuda/vector_load.cuh): vectors i = block*BS*U + rank + k*blocks*BS*U +
/// u*BS of the aligned body [head, head + nv*V), U loads issued before the
/// first value is used; f(j, value) gets lane j of each. Block 0's thread 0
/// also takes the misaligned head (before) and the tail (after), as lanes j.
template <int U, int BS, class Src, class F>
SCRATCHKIT_HD_FORCEINLINE void stream_lanes(const Src& src, std::size_t n, std::size_t head, int block, int rank,
                                             int blocks, const F& f) {
  using T          = typename Src::value_type;
  constexpr int V  = Src::width;
  const bool first = block == 0 && rank == 0;
  if (first) {
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (static_cast<std::size_t>(j) < head) f(j, src.at(static_cast<std::size_t>(j)));
  }
  const std::size_t nv   = (n - head) / V;
  const std::size_t step = static_cast<std::size_t>(blocks) * (BS * U);
  for (std::size_t i = static_cast<std::size_t>(block) * (BS * U) + static_cast<std::size_t>(rank); i < nv;
       i += step) {
    T x[U][V];
    if (i + static_cast<std::size_t>(U - 1) * BS < nv) {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < V; ++j) f(j, x[u][j]);
      }
    } else {
      SCRATCHKIT_UNROLL
      for (int u = 0; u < U; ++u)
        if (i + static_cast<std::size_t>(u) * BS < nv) {
          src.vec(head + (i + static_cast<std::size_t>(u) * BS) * V, x[u]);
          SCRATCHKIT_UNROLL
          for (int j = 0; j < V; ++j) f(j, x[u][j]);
        }
    }
  }
  if (first) {
    const std::size_t t0 = head + nv * V;
    SCRATCHKIT_UNROLL
    for (int j = 0; j < V; ++j)
      if (t0 + static_cast<std::size_t>(j) < n) f(j, src.at(t0 + static_cast<std::size_t>(j)));
  }
}

/// A stream_lanes source over a contiguous array: element i, and the 16-byte
/// vector at element i read with load hint L.
template <class T, LoadHint L>
struct StreamPtrSource {
  using value_type = T;
  static constexpr int width = vec16<T>::width;
  const T* p;
  SCRATCHKIT_HD_FORCEINLINE T at(std::size_t i) const { return p[i]; }
  SCRATCHKIT_HD_FORCEINLINE void vec(std::size_t i, T (&v)[width]) const { load16_hint<L>(p + i, v); }
};

}  // namespace detail
}  // namespace scratchkit
