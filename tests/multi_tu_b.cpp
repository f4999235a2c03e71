// SPDX-License-Identifier: BSD-3-Clause
// scratchkit_multi_tu: the library's kernels called from two translation units,
// this one first. nvcc's extended lambdas in header function templates of
// external linkage can break this: the linker keeps one translation unit's copy
// of each kernel's launch, which copies the lambda through that unit's helper,
// not yet set when the other unit calls first (a host SIGSEGV;
// SCRATCHKIT_KERNEL_LINKAGE in include/scratchkit/launch.hpp). Whether it shows
// depends on inlining: built with the kernel functions of external linkage
// (-DSCRATCHKIT_KERNEL_LINKAGE=) this program still ran on the H100, so the
// ctest lambda_wrapper_linkage checks the cause on its objects. The units are
// linked a first, b second, so that a's copies are the ones kept. Exit 0 when
// every result matches the host's; 1 on a wrong result.
#include "multi_tu.hpp"

#include <cstdio>

int multi_tu_kernels_a(int n);

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int bad = 0;
  {
    bad += multi_tu::run_kernels(1000, 1);  // this unit first: a's helpers are not set yet
    bad += multi_tu_kernels_a(1000);
    bad += multi_tu::run_kernels(37, 1);
  }
  Kokkos::finalize();
  std::printf("scratchkit_multi_tu: %s (%d wrong results)\n", bad == 0 ? "passed" : "FAILED", bad);
  return bad == 0 ? 0 : 1;
}
