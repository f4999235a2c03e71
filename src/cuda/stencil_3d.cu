// SPDX-License-Identifier: BSD-3-Clause
// stencil 3d by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/stencil_3d.hpp. (to come)
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
