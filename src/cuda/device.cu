// SPDX-License-Identifier: BSD-3-Clause
// Device queries for the native backend.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <sstream>

namespace scratchkit {
namespace native {
namespace cuda {

bool device_available() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return false;
  }
  return n > 0;
}

int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

std::string device_description() {
  if (!device_available()) return "no CUDA device";
  cudaDeviceProp prop{};
  int dev = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  SCRATCHKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::ostringstream os;
  os << "device " << dev << ": " << prop.name << " (sm_" << prop.major << prop.minor << ", " << prop.multiProcessorCount << " SMs, "
     << (prop.totalGlobalMem >> 20) << " MiB, driver API " << driver << ", runtime " << runtime << ")";
  return os.str();
}

void synchronize(void* stream) { SCRATCHKIT_CUDA_CHECK(cudaStreamSynchronize(detail::as_stream(stream))); }

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
