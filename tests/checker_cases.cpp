// SPDX-License-Identifier: BSD-3-Clause
// The scratch checker's test kernels (tests/support/checker_kernels.hpp), one
// line of counts per case, in the format scripts/checker_gpu_check.sh compares
// with racecheck, initcheck and Nsight Compute on the CUDA twins:
//
//   scratchkit_checker_cases [--print] [case...]
#include "checker_kernels.hpp"

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  if (!scratchkit::scratch_check_compiled) {
    std::printf("SKIPPED: scratch checker not compiled in (SCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF)\n");
    return 77;
  }
  bool print = false;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--print") == 0) print = true;
    else only.push_back(argv[i]);
  }
  using scratchkit::ScratchOp;
  for (const auto& c : scratchkit::test::CheckerKernels<Kokkos::DefaultHostExecutionSpace>::cases()) {
    if (!only.empty() && std::find(only.begin(), only.end(), c.name) == only.end()) continue;
    const scratchkit::ScratchCheckReport r = c.run(print);
    std::printf("%s races=%lld uninit=%lld ld_conflicts=%lld st_conflicts=%lld ld_wavefronts=%lld st_wavefronts=%lld\n",
                c.name, r.races, r.uninitialised_reads, r.conflicts(ScratchOp::load), r.conflicts(ScratchOp::store),
                r.wavefronts(ScratchOp::load), r.wavefronts(ScratchOp::store));
  }
  return 0;
}
