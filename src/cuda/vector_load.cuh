// SPDX-License-Identifier: BSD-3-Clause
// 16-byte vector loads and the device fill query for the native streaming kernels
// (reduce, histogram): the twin of include/scratchkit/detail/vector_load.hpp.
#pragma once

#include "check.cuh"

#include <scratchkit/detail/load16.hpp>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
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

// The current device's SM count, threads and shared memory per SM and per
// block, queried once per device (the layer queries the same attributes).
struct DeviceFill {
  long long sms            = 0;
  long long threads_per_sm = 0;
  std::size_t shared_per_sm    = 0;
  std::size_t shared_per_block = 0;
  long long blocks(int block) const {
    const long long b = sms * (threads_per_sm / block);
    return b > 0 ? b : 1;
  }
};

inline DeviceFill device_fill() {
  static std::mutex m;
  static std::map<int, DeviceFill> cache;
  int dev = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int sms = 0, tps = 0, spsm = 0, spb = 0;
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&tps, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&spsm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&spb, cudaDevAttrMaxSharedMemoryPerBlock, dev));
  DeviceFill f;
  f.sms = sms, f.threads_per_sm = tps, f.shared_per_sm = static_cast<std::size_t>(spsm);
  f.shared_per_block = static_cast<std::size_t>(spb);
  cache.emplace(dev, f);
  return f;
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
