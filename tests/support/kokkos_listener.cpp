// SPDX-License-Identifier: BSD-3-Clause
// Initialises Kokkos once per test binary and prints what the tests run on.
#include "test_support.hpp"

#include <scratchkit/block.hpp>
#include <scratchkit/version.hpp>

#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#if defined(__linux__)
#include <execinfo.h>
#include <unistd.h>
#endif

namespace {

#if defined(__linux__)
// SCRATCHKIT_TEST_BACKTRACE=1: a fatal signal prints the host stack before the
// process dies. Catch2 reports the signal first, then restores the handler it
// found (this one) and raises the signal again, so the frames below Catch2's
// handler are those of the faulting code. Written for a host SIGSEGV that
// appears only under compute-sanitizer (tests/results/h100/history.md, 69f079b).
// Addresses are printed as binary(+offset): resolve them with
// `addr2line -f -C -e scratchkit_tests 0xoffset` on the machine that built it.
extern "C" void print_backtrace(int sig) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  static const char head[] = "\n# scratchkit test: fatal signal, host stack:\n";
  (void)!write(2, head, sizeof(head) - 1);
  backtrace_symbols_fd(frames, n, 2);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_backtrace() {
  const char* v = std::getenv("SCRATCHKIT_TEST_BACKTRACE");
  if (v == nullptr || v[0] == '\0' || v[0] == '0') return;
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc's unwinder now, not inside the handler
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, print_backtrace);
}
#else
void install_backtrace() {}
#endif

// SCRATCHKIT_TEST_WARP_SIZE=32|64: the warp size host backends run this test
// binary's blocks with (scratchkit::set_host_warp_size), so that ctest runs
// the same suite for NVIDIA's warps and AMD's wavefronts (tests/CMakeLists.txt).
void choose_host_warp_size() {
  const char* v = std::getenv("SCRATCHKIT_TEST_WARP_SIZE");
  if (v == nullptr || v[0] == '\0') return;
  scratchkit::set_host_warp_size(std::atoi(v));  // throws for anything but 32 and 64
}

#if defined(KOKKOS_ENABLE_HIP)
// A HIP build's tests need an AMD GPU (Kokkos' default space is HIP). Without
// one the run stops before Kokkos starts, with Catch2's "all skipped" exit
// code, which ctest reports as Skipped: never a silent pass.
void require_amd_gpu() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) == hipSuccess && devices > 0) return;
  std::printf("# SKIPPED: this test binary is built for Kokkos HIP and no AMD GPU is present (hipGetDeviceCount)\n");
  std::fflush(stdout);
  std::_Exit(4);
}
#else
void require_amd_gpu() {}
#endif

class KokkosListener : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;
  void testRunStarting(Catch::TestRunInfo const&) override {
    install_backtrace();
    require_amd_gpu();
    choose_host_warp_size();
    Kokkos::initialize();
    std::printf("# %s\n# host warp size %d (set SCRATCHKIT_TEST_WARP_SIZE to change)\n"
                "# test seed %llu (set SCRATCHKIT_TEST_SEED to change)\n",
                scratchkit::build_summary().c_str(), scratchkit::host_warp_size(),
                static_cast<unsigned long long>(scratchkit::test::base_seed()));
  }
  void testRunEnded(Catch::TestRunStats const&) override { Kokkos::finalize(); }
};

}  // namespace

CATCH_REGISTER_LISTENER(KokkosListener)
