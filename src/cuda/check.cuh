// SPDX-License-Identifier: BSD-3-Clause
/// Error checking for the native CUDA kernels (internal).
#pragma once

#include <scratchkit/detail/device_limits.hpp>
#include <scratchkit/errors.hpp>

#include <cuda_runtime.h>

#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(std::string("scratchkit native CUDA: ") + what + ": " + cudaGetErrorString(e));
}

inline cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

inline int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

/// The current device's limits, queried once per device (the layer's: detail::device_limits).
inline scratchkit::detail::DeviceLimits device_limits() {
  int dev = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  return scratchkit::detail::cuda_device_limits(dev);
}

/// The most shared memory a block may have on the current device with the
/// opt-in (cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KB on an H100).
inline int shared_per_block_optin() { return static_cast<int>(device_limits().shared_per_block_optin); }

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit

#define SCRATCHKIT_CUDA_CHECK(expr) ::scratchkit::native::cuda::detail::check((expr), #expr)
#define SCRATCHKIT_CUDA_CHECK_LAUNCH(name) ::scratchkit::native::cuda::detail::check(cudaGetLastError(), name)
