// SPDX-License-Identifier: BSD-3-Clause
// 16-byte vector loads and the device fill query for the native streaming kernels
// (reduce, histogram): the twin of include/scratchkit/detail/vector_load.hpp.
#pragma once

#include "check.cuh"

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

// Elements of T in one 16-byte vector.
template <class T>
constexpr int vec_width = static_cast<int>(16 / sizeof(T));

// Elements before the first 16-byte boundary at or after p (at most n).
template <class T>
std::size_t head_to_16(const T* p, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::size_t h    = static_cast<std::size_t>((16 - a % 16) % 16) / sizeof(T);
  return h < n ? h : n;
}

// v[0..W) = p[0..W), p 16-byte aligned: one ld.global.nc.v4 / .v2.
template <class T>
__device__ __forceinline__ void load16(const T* __restrict__ p, T (&v)[vec_width<T>]) {
  if constexpr (std::is_same<T, float>::value) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(p));
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (std::is_same<T, double>::value) {
    const double2 q = __ldg(reinterpret_cast<const double2*>(p));
    v[0] = q.x, v[1] = q.y;
  } else if constexpr (sizeof(T) == 4) {
    const int4 q = __ldg(reinterpret_cast<const int4*>(p));
    v[0] = static_cast<T>(q.x), v[1] = static_cast<T>(q.y), v[2] = static_cast<T>(q.z), v[3] = static_cast<T>(q.w);
  } else {
    const longlong2 q = __ldg(reinterpret_cast<const longlong2*>(p));
    v[0] = static_cast<T>(q.x), v[1] = static_cast<T>(q.y);
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
