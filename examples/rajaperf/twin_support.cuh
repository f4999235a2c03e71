// SPDX-License-Identifier: BSD-3-Clause
/// Host side of the ports' CUDA twins: launch error checks (not part of the
/// kernels compared in docs/tutorial.md).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace peer {

/// Throws with `what` and CUDA's message when the last launch failed.
inline void cuda_check_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace peer
