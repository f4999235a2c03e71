// SPDX-License-Identifier: BSD-3-Clause
/// The spinning kernel that holds a stream while the host enqueues a timed call
/// (scratchkit-bench's device timer, scratchkit-histogram-tune): CUDA events
/// around the call then measure the device's time, not the launch latency.
#pragma once

namespace scratchkit {
namespace perf {

/// Spins one thread for `ns` nanoseconds of the GPU's global timer (static: nvcc ignores inline on a kernel).
static __global__ void hold_stream(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

}  // namespace perf
}  // namespace scratchkit
