// SPDX-License-Identifier: BSD-3-Clause
// Configure-time probe (cmake/scratchkitKokkosDriver.cmake): instantiates the
// layer's CUDA block driver, built on Kokkos internals, and its team-size
// query, so that a Kokkos whose internals differ fails here rather than in a
// user's build. Compiled and linked, never run.
#include <scratchkit/launch.hpp>

#if !SCRATCHKIT_CUDA_BLOCK_DRIVER
#error "the CUDA block driver is not enabled for this Kokkos (no CUDA backend?)"
#endif

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    Kokkos::View<int*, Kokkos::CudaSpace> out("out", 1);
    const auto p = scratchkit::LaunchParams(scratchkit::Dim3(1), scratchkit::Dim3(64)).shared_mem_bytes(64 * 1024);
    scratchkit::launch(Kokkos::Cuda(), "scratchkit::probe", p, KOKKOS_LAMBDA(const scratchkit::Block<Kokkos::Cuda>& b) {
      if (b.team().team_rank() == 0) out(0) = 1;
    });
  }
  Kokkos::finalize();
  return 0;
}
