// SPDX-License-Identifier: BSD-3-Clause
// Initialises Kokkos once per test binary and prints what the tests run on.
#include "test_support.hpp"

#include <scratchkit/version.hpp>

#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <cstdio>

namespace {

class KokkosListener : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;
  void testRunStarting(Catch::TestRunInfo const&) override {
    Kokkos::initialize();
    std::printf("# %s\n# test seed %llu (set SCRATCHKIT_TEST_SEED to change)\n", scratchkit::build_summary().c_str(),
                static_cast<unsigned long long>(scratchkit::test::base_seed()));
  }
  void testRunEnded(Catch::TestRunStats const&) override { Kokkos::finalize(); }
};

}  // namespace

CATCH_REGISTER_LISTENER(KokkosListener)
