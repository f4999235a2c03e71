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
