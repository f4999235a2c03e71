// SPDX-License-Identifier: BSD-3-Clause
// transpose by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/transpose.hpp. (to come)
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
