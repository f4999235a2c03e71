// SPDX-License-Identifier: BSD-3-Clause
// 16-byte vector loads for the native streaming kernels (reduce, histogram): the twin of
// include/scratchkit/detail/vector_load.hpp (the device's limits: check.cuh).
#pragma once

#include "check.cuh"

#include <scratchkit/detail/load16.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

// The 16-byte loads the layer uses too (include/scratchkit/detail/load16.hpp).
template <class T>
constexpr int vec_width = scratchkit::detail::vec16<T>::width;
using scratchkit::detail::head_to_16;
using scratchkit::detail::load16;

// One thread's pass over a grid-stride stream of 16-byte vectors (the layer's
// scratchkit::detail::stream_lanes): vectors i = block*BS*U + rank +
// k*blocks*BS*U + u*BS of the aligned body, U loads issued before the first
// value is used, f(j, value) for lane j; block 0's thread 0 also takes the head
// and the tail.
template <int U, int BS, class T, class F>
__device__ __forceinline__ void stream_lanes(const T* __restrict__ x, std::size_t n, std::size_t head, int block,
                                             int rank, int blocks, const F& f) {
  constexpr int V  = vec_width<T>;
  const bool first = block == 0 && rank == 0;
  if (first) {
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (static_cast<std::size_t>(j) < head) f(j, x[j]);
  }
  const std::size_t nv   = (n - head) / V;
  const std::size_t step = static_cast<std::size_t>(blocks) * (BS * U);
  const T* body          = x + head;
  for (std::size_t i = static_cast<std::size_t>(block) * (BS * U) + rank; i < nv; i += step) {
    T v[U][V];
    if (i + (U - 1) * BS < nv) {
#pragma unroll
      for (int u = 0; u < U; ++u) load16(body + (i + static_cast<std::size_t>(u) * BS) * V, v[u]);
#pragma unroll
      for (int u = 0; u < U; ++u) {
#pragma unroll
        for (int j = 0; j < V; ++j) f(j, v[u][j]);
      }
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (i + static_cast<std::size_t>(u) * BS < nv) {
          load16(body + (i + static_cast<std::size_t>(u) * BS) * V, v[u]);
#pragma unroll
          for (int j = 0; j < V; ++j) f(j, v[u][j]);
        }
    }
  }
  if (first) {
    const std::size_t t0 = head + nv * V;
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (t0 + static_cast<std::size_t>(j) < n) f(j, x[t0 + j]);
  }
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
