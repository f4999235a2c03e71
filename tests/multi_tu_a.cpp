// SPDX-License-Identifier: BSD-3-Clause
// The second translation unit of scratchkit_multi_tu (multi_tu_b.cpp has main):
// the same kernels, called from here only after multi_tu_b.cpp has called them.
// Why this can fail: SCRATCHKIT_KERNEL_LINKAGE (include/scratchkit/launch.hpp).
#include "multi_tu.hpp"

int multi_tu_kernels_a(int n) { return multi_tu::run_kernels(n, 2); }
