// SPDX-License-Identifier: BSD-3-Clause
// The scratch checker's test kernels (tests/support/checker_kernels.hpp), one
// line of counts per case, in the format scripts/checker_gpu_check.sh compares
// with racecheck, initcheck and Nsight Compute on the CUDA twins:
//
//   scratchkit_checker_cases [--print] [case...]
#include "checker_kernels.hpp"

#include <cstdio>
#include <cstring>
#include <set>
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
    // The elements that race, each once, for the comparison with racecheck's hazard addresses.
    std::set<long long> elements;
    for (const auto& f : r.findings)
      if (f.kind == scratchkit::ScratchFindingKind::race) elements.insert(f.element);
    std::string list;
    for (long long e : elements) list += (list.empty() ? "" : ",") + std::to_string(e);
    std::printf("%s races=%lld uninit=%lld ld_conflicts=%lld st_conflicts=%lld ld_wavefronts=%lld st_wavefronts=%lld "
                "atomics=%lld race_elements=%s\n",
                c.name, r.races, r.uninitialised_reads, r.conflicts(ScratchOp::load), r.conflicts(ScratchOp::store),
                r.wavefronts(ScratchOp::load), r.wavefronts(ScratchOp::store), r.atomics,
                list.empty() ? "-" : list.c_str());
  }
  return 0;
}
