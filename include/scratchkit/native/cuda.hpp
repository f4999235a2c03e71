// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA backend: device queries, and every native kernel header.
///
/// No CUDA or Kokkos header is included: any translation unit may call these.
/// Pointers are device pointers (cudaMalloc, or a Kokkos CudaSpace View's
/// data()); matrices are row-major and contiguous. `stream` is a cudaStream_t
/// (nullptr: the default stream); calls are asynchronous unless they return
/// a value. Errors (a failed launch, a bad size) throw scratchkit::Error.
/// Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1. CUDA only, on NVIDIA
/// GPUs: there is no HIP twin, and on AMD GPUs (Kokkos HIP) as on host
/// backends Backend::native throws UnsupportedError (docs/amd.md).
#pragma once

#include <scratchkit/config.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

#include <scratchkit/native/all.hpp>  // every twin of cmake/kernels.txt (generated at configure time)

namespace scratchkit {
namespace native {
namespace cuda {

/// True when a CUDA device can be used (false on machines without a GPU).
bool device_available();
/// Number of CUDA devices (0 without a GPU).
int device_count();
/// The current device: index, name, compute capability, SMs, memory, driver and runtime versions.
std::string device_description();
/// cudaStreamSynchronize(stream), throwing on a pending error.
void synchronize(void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
