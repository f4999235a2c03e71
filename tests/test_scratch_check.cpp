// SPDX-License-Identifier: BSD-3-Clause
// The host scratch checker: each test kernel's verdicts and bank counts,
// exactly (the CUDA twins in checker_twins.cu are measured against the same
// numbers by scripts/checker_gpu_check.sh), and the shipped kernels run clean.
#include "checker_kernels.hpp"
#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using namespace scratchkit;
using Catch::Matchers::ContainsSubstring;

namespace {
using HostExec = test::HostSpace;
using K        = test::CheckerKernels<HostExec>;

constexpr auto ld = ScratchOp::load;
constexpr auto st = ScratchOp::store;

#define SCRATCHKIT_REQUIRE_CHECKER() \
  if (!scratch_check_compiled) SKIP("scratch checker not compiled in (SCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF)")
}  // namespace

TEST_CASE("Checker: a missing barrier is a race per element, named with both threads and the phase",
          "[checker][race]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = K::missing_barrier(false);
  CHECK(r.label == "checker::missing_barrier");
  CHECK(r.blocks == 1);
  CHECK(r.races == 256);
  CHECK(r.uninitialised_reads == 0);
  REQUIRE_FALSE(r.findings.empty());
  // Element 1: written by thread 1 in the first threads() call, read by thread 0 in the second, one phase.
  CHECK_THAT(r.findings[0], ContainsSubstring("race: block (0, 0, 0), phase 0: static[0] SharedArray<float, 256> "
                                              "element 1 written by thread 1 (1, 0, 0) and read by thread 0 (0, 0, 0)"));
  CHECK(r.conflicts(ld) == 0);
  CHECK(r.conflicts(st) == 0);
  const ScratchCheckReport fixed = K::with_barrier(false);
  CHECK(fixed.races == 0);
  CHECK(fixed.clean());
  CHECK(fixed.phases == 2);
}

TEST_CASE("Checker: a race can be thrown as an error", "[checker][race]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 64>;
  Kokkos::View<int*, HostExec::memory_space> out("out", 64);
  const auto p = LaunchParams(Dim3(2), Dim3(64)).uses<S>().check_scratch(ScratchCheck().quiet().throwing());
  CHECK_THROWS_AS(launch(HostExec(), "checker::throwing", p, KOKKOS_LAMBDA(const B& b) {
                    S s(b);
                    b.threads([&](const Thread& t) { s[t.rank] = t.rank; });
                    b.threads([&](const Thread& t) { out(t.rank) = s[63 - t.rank]; });
                  }),
                  ScratchRaceError);
}

TEST_CASE("Checker: a read of an element no thread wrote is reported", "[checker][uninit]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = K::uninitialised_read(false);
  CHECK(r.uninitialised_reads == 32);
  CHECK(r.races == 0);
  REQUIRE_FALSE(r.findings.empty());
  CHECK_THAT(r.findings[0], ContainsSubstring("uninitialised read: block (0, 0, 0), phase 1: static[0] "
                                              "SharedArray<float, 64> element 32 read by thread 32 (32, 0, 0)"));
}

TEST_CASE("Checker: bank conflicts of the known patterns", "[checker][banks]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  SECTION("the seed's 16x16 tiled SGEMM: none") {
    const ScratchCheckReport r = K::sgemm_16x16(false);
    CHECK(r.blocks == 16);
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    // 16 blocks x 4 tiles x 8 warps: 32 loads (16 of As, 16 of Bs) and 2 stores each, one wavefront apiece.
    CHECK(r.wavefronts(ld) == 16 * 4 * 8 * 32);
    CHECK(r.wavefronts(st) == 16 * 4 * 8 * 2);
    CHECK(r.conflicts(ld) == 0);
    CHECK(r.conflicts(st) == 0);
  }
  SECTION("a column of a 32x32 float tile: 32-way") {
    const ScratchCheckReport r = K::column_read(false);
    CHECK(r.races == 0);
    CHECK(r.wavefronts(ld) == 32 * 32);
    CHECK(r.conflicts(ld) == 32 * 31);
    CHECK(r.conflicts(st) == 0);
    const ScratchArrayConflicts* a = r.array("static[0] PaddedTile<float, 32, 32, 0>");
    REQUIRE(a != nullptr);
    CHECK(a->ways[0].size() == 1);
    CHECK(a->ways[0].at(32) == 32);  // 32 requests, each 32-way
  }
  SECTION("the same column through a PaddedTile: none") {
    const ScratchCheckReport r = K::column_read_padded(false);
    CHECK(r.races == 0);
    CHECK(r.wavefronts(ld) == 32);
    CHECK(r.conflicts(ld) == 0);
    CHECK(r.conflicts(st) == 0);
    CHECK(r.array("static[0] PaddedTile<float, 32, 32, 1>") != nullptr);
  }
  SECTION("s[rank * 8] += ...: 8-way") {
    const ScratchCheckReport r = K::stride8_update(false);
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    // 2 warps: the += (one store to the checker) and the final read, each 8-way: 7 conflicts a request.
    CHECK(r.conflicts(st) == 2 * 7);
    CHECK(r.conflicts(ld) == 2 * 7);
    const ScratchArrayConflicts* a = r.array("static[0]");
    REQUIRE(a != nullptr);
    CHECK(a->ways[1].at(1) == 16);  // the zero fill: 8 contiguous stores a warp
    CHECK(a->ways[1].at(8) == 2);
    CHECK(a->ways[0].at(8) == 2);
  }
  SECTION("doubles: by half-warps") {
    const ScratchCheckReport r = K::doubles(false);
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    CHECK(r.conflicts(st) == 0);              // 32 contiguous rows
    CHECK(r.wavefronts(st) == 32 * 2);
    CHECK(r.wavefronts(ld) == 2 + 4 + 32);    // contiguous, stride 2, column
    CHECK(r.conflicts(ld) == 0 + 2 + 30);
  }
}

TEST_CASE("Checker: switched off, a launch records nothing and prints nothing", "[checker]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 64>;
  Kokkos::View<int*, HostExec::memory_space> out("out", 64);
  ScratchCheckReport rep;
  rep.races = -1;
  ScratchCheck off = ScratchCheck().into(&rep);
  off.enabled      = false;
  launch(HostExec(), "checker::off", LaunchParams(Dim3(1), Dim3(64)).uses<S>().check_scratch(off),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.threads([&](const Thread& t) { s[t.rank] = t.rank; });
           b.threads([&](const Thread& t) { out(t.rank) = s[63 - t.rank]; });
         });
  CHECK(rep.races == -1);  // untouched
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  CHECK(h(0) >= 0);
}

TEST_CASE("Checker: a scope checks every launch of its thread; a launch's own options win", "[checker]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 32>;
  Kokkos::View<int*, HostExec::memory_space> out("out", 32);
  const auto body = KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = t.rank; });
    sync_threads(b);
    b.threads([&](const Thread& t) { out(t.rank) = s[31 - t.rank]; });
  };
  ScratchCheckReport own;
  {
    ScratchCheckScope scope(ScratchCheck().quiet());
    launch(HostExec(), "checker::in_scope_1", LaunchParams(Dim3(3), Dim3(32)).uses<S>(), body);
    launch(HostExec(), "checker::own", LaunchParams(Dim3(1), Dim3(32)).uses<S>().check_scratch(ScratchCheck().quiet().into(&own)), body);
    launch(HostExec(), "checker::in_scope_2", LaunchParams(Dim3(2), Dim3(32)).uses<S>(), body);
    REQUIRE(scope.reports().size() == 2);
    CHECK(scope.reports()[0].label == "checker::in_scope_1");
    CHECK(scope.reports()[0].blocks == 3);
    CHECK(scope.reports()[1].label == "checker::in_scope_2");
    CHECK(scope.reports()[1].phases == 2 * 2);
    CHECK(scope.reports()[1].clean());
  }
  CHECK(own.label == "checker::own");
  CHECK(own.accesses == 64);
  CHECK(detail::scratch_check_scope == nullptr);  // the scope is gone: later launches are not recorded
}
