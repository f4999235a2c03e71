// SPDX-License-Identifier: BSD-3-Clause
/// What a device offers a launch, one struct for the layer, the native twins and the occupancy formula (internal).
#pragma once

// No Kokkos here, and CUDA only under a CUDA compiler: the native twins (src/cuda/) read the same
// facts as the layer, and tests/checker_twins.cu checks the occupancy formula against CUDA's.
#include <cstddef>
#include <string>

#if defined(__CUDACC__)
#include <scratchkit/errors.hpp>

#include <cuda_runtime.h>

#include <map>
#include <mutex>
#endif

namespace scratchkit {
namespace detail {

/// A device's limits (cudaDeviceProp's fields of the same meaning). A host backend's: sm_count = 0
/// and max_threads_per_sm = its concurrency; another GPU backend's: one "SM" of its concurrency.
struct DeviceLimits {
  std::string name = "?";
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_threads_per_block = 1024;
  int regs_per_sm = 0;
  std::size_t shared_per_sm = 0;              ///< the largest carveout
  std::size_t shared_per_block = 0;           ///< a block's limit without the opt-in
  std::size_t shared_per_block_optin = 0;     ///< a block's limit with the opt-in
  std::size_t reserved_shared_per_block = 0;  ///< what the driver keeps in each block's shared memory (1 KB since sm_80)

  /// Blocks of `block` threads that fill the device once when threads are the only limit (at least 1).
  long long blocks(int block) const {
    const long long b = sm_count > 0 ? static_cast<long long>(sm_count) * (max_threads_per_sm / block)
                                     : static_cast<long long>(max_threads_per_sm);
    return b > 0 ? b : 1;
  }

  /// An H100 SXM (sm_90): the limits of CUDA 12/13's cudaDeviceProp.
  static DeviceLimits h100() {
    DeviceLimits d;
    d.name = "NVIDIA H100 (sm_90)";
    d.cc_major = 9, d.cc_minor = 0;
    d.sm_count = 132;
    d.max_threads_per_sm = 2048;
    d.max_blocks_per_sm = 32;
    d.regs_per_sm = 65536;
    d.shared_per_sm = 228 * 1024;
    d.shared_per_block = 48 * 1024;
    d.shared_per_block_optin = 227 * 1024;
    d.reserved_shared_per_block = 1024;
    return d;
  }
};

#if defined(__CUDACC__)
/// The limits of CUDA device `device`, queried once and cached (both twins read the same facts).
/// Throws Error where CUDA cannot describe the device.
inline DeviceLimits cuda_device_limits(int device) {
  static std::mutex m;
  static std::map<int, DeviceLimits> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(device);
  if (it != cache.end()) return it->second;
  cudaDeviceProp p{};
  const cudaError_t e = cudaGetDeviceProperties(&p, device);
  if (e != cudaSuccess)
    throw Error("scratchkit: cudaGetDeviceProperties failed for device " + std::to_string(device) + ": " +
                cudaGetErrorString(e));
  DeviceLimits d;
  d.name     = p.name;
  d.cc_major = p.major, d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount, d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor, d.max_threads_per_block = p.maxThreadsPerBlock;
  d.regs_per_sm   = p.regsPerMultiprocessor;
  d.shared_per_sm = p.sharedMemPerMultiprocessor, d.shared_per_block = p.sharedMemPerBlock;
  d.shared_per_block_optin = p.sharedMemPerBlockOptin, d.reserved_shared_per_block = p.reservedSharedMemPerBlock;
  cache.emplace(device, d);
  return d;
}
#endif

}  // namespace detail
}  // namespace scratchkit
