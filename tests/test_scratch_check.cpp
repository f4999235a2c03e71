// SPDX-License-Identifier: BSD-3-Clause
// The host scratch checker: each test kernel's verdicts and bank counts,
// exactly (the CUDA twins in checker_twins.cu are measured against the same
// numbers by scripts/checker_gpu_check.sh), and the shipped kernels run clean.
#include "checker_kernels.hpp"
#include "test_support.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cmath>
#include <set>

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
  CHECK_THAT(r.findings[0].str(), ContainsSubstring("race: block (0, 0, 0), phase 0: static[0] SharedArray<float, 256> "
                                                    "element 1 written by thread 1 (1, 0, 0) at "));
  CHECK_THAT(r.findings[0].str(), ContainsSubstring(" and read by thread 0 (0, 0, 0) at "));
  // As data: every race kept (the cases keep all findings), each element once, both threads and sites.
  REQUIRE(r.findings.size() == 256);
  const ScratchFinding& f = r.findings[0];
  CHECK(f.kind == ScratchFindingKind::race);
  CHECK(f.array == "static[0] SharedArray<float, 256>");
  CHECK(f.element == 1);
  CHECK(f.thread == 0);
  CHECK(f.other_thread == 1);
  CHECK(f.access == "read");
  CHECK(f.other_access == "written");
  REQUIRE(f.site.file != nullptr);
  CHECK_THAT(std::string(f.site.file), ContainsSubstring("checker_kernels.hpp"));
  CHECK(f.site.line > f.other_site.line);  // the read's line follows the store's
  std::set<long long> elements;
  for (const auto& g : r.findings) elements.insert(g.element);
  CHECK(elements.size() == 256);
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

TEST_CASE("Checker: block_stride's points run on the thread a GPU gives them", "[checker][race][block_stride]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 200>;
  Kokkos::View<int*, HostExec::memory_space> out("out", 200);
  // A 200-point load by 64 threads, read back after a barrier: clean.
  ScratchCheckReport clean;
  launch(HostExec(), "checker::block_stride", K::checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &clean, false),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.block_stride(200, [&](int i) { s[i] = i; });
           sync_threads(b);
           b.block_stride(200, [&](int i) { out(i) = s[199 - i]; });
         });
  CHECK(clean.races == 0);
  CHECK(clean.clean());
  // Without the barrier, point i reads what point 199 - i wrote: a race where the two points are on
  // different threads (i % 64 != (199 - i) % 64), none where they share one.
  ScratchCheckReport racy;
  launch(HostExec(), "checker::block_stride_racy", K::checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &racy, false),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.block_stride(200, [&](int i) { s[i] = i; });
           b.block_stride(200, [&](int i) { out(i) = s[199 - i]; });
         });
  int want = 0;
  for (int i = 0; i < 200; ++i) want += i % 64 != (199 - i) % 64;
  CHECK(want > 0);
  CHECK(racy.races == want);
  // A 2-D box: point (x, y) on thread (x + 10 y) % 64; each writes its own slot: clean, one phase.
  ScratchCheckReport box;
  launch(HostExec(), "checker::block_stride_box", K::checked(LaunchParams(Dim3(1), Dim3(8, 8)).uses<S>(), &box, false),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.block_stride(Dim3(10, 20), [&](int x, int y, int) { s[x + 10 * y] = x; });
         });
  CHECK(box.races == 0);
  CHECK(box.phases == 1);
}

TEST_CASE("Checker: a read of an element no thread wrote is reported", "[checker][uninit]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = K::uninitialised_read(false);
  CHECK(r.uninitialised_reads == 32);
  CHECK(r.races == 0);
  REQUIRE_FALSE(r.findings.empty());
  CHECK_THAT(r.findings[0].str(), ContainsSubstring("uninitialised read: block (0, 0, 0), phase 1: static[0] "
                                                    "SharedArray<float, 64> element 32 read by thread 32 (32, 0, 0)"));
  CHECK(r.findings[0].kind == ScratchFindingKind::uninitialised_read);
  CHECK(r.findings[0].element == 32);
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
    // 2 warps: the += (a load and a store, as the GPU issues them) and the final read, each 8-way:
    // 7 conflicts a request.
    CHECK(r.conflicts(st) == 2 * 7);
    CHECK(r.conflicts(ld) == 2 * 2 * 7);
    const ScratchArrayConflicts* a = r.array("static[0]");
    REQUIRE(a != nullptr);
    CHECK(a->ways[1].at(1) == 16);  // the zero fill: 8 contiguous stores a warp
    CHECK(a->ways[1].at(8) == 2);
    CHECK(a->ways[0].at(8) == 4);
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

namespace {
std::set<long long> race_elements(const ScratchCheckReport& r) {
  std::set<long long> e;
  for (const auto& f : r.findings)
    if (f.kind == ScratchFindingKind::race) e.insert(f.element);
  return e;
}
}  // namespace

TEST_CASE("Checker: a race's verdict does not depend on the data", "[checker][race]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  // The warp-synchronous tree without sync_warp: on all-zero data every store leaves the bytes as
  // they were, and is still a store.
  const ScratchCheckReport random = K::warp_tree_random(false);
  const ScratchCheckReport zero   = K::warp_tree_zero(false);
  CHECK(random.races == 31);
  CHECK(zero.races == 31);
  std::set<long long> expected;
  for (long long e = 1; e < 32; ++e) expected.insert(e);
  CHECK(race_elements(random) == expected);
  CHECK(race_elements(zero) == expected);
  CHECK(zero.wavefronts(ld) == random.wavefronts(ld));
  CHECK(zero.wavefronts(st) == random.wavefronts(st));
  CHECK(zero.accesses == random.accesses);
  CHECK(random.untracked_write_bytes == 0);
}

TEST_CASE("Checker: a 2-D halo stencil's divergent stores, with and without its barrier", "[checker][race][banks]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport clean = K::halo_2d_clean(false);
  CHECK(clean.races == 0);
  CHECK(clean.uninitialised_reads == 0);
  CHECK(clean.misuses == 0);
  const ScratchCheckReport race = K::halo_2d_race(false);
  // Each block's 16 x 16 interior elements are read by a neighbour in the phase that stores them;
  // the halo elements are read only by the thread that stores them.
  CHECK(race.races == 4 * 256);
  std::set<long long> interior;
  for (int y = 1; y <= 16; ++y)
    for (int x = 1; x <= 16; ++x) interior.insert(y * 18 + x);
  CHECK(race_elements(race) == interior);
  // On all-zero data: the same findings.
  const ScratchCheckReport zero = K::halo_2d(false, true, false);
  CHECK(zero.races == race.races);
  CHECK(race_elements(zero) == interior);
  CHECK(zero.wavefronts(ld) == race.wavefronts(ld));
  CHECK(zero.wavefronts(st) == race.wavefronts(st));
  // The same accesses, so the same requests: a barrier moves no bank count.
  CHECK(race.wavefronts(ld) == clean.wavefronts(ld));
  CHECK(race.wavefronts(st) == clean.wavefronts(st));
  // 4 blocks x 8 warps: one store request for the interior, one per halo branch a warp enters
  // (x == 0 and x == 15: every warp; y == 0: warp 0; y == 15: warp 7).
  const ScratchArrayConflicts* a = clean.array("static[0]");
  REQUIRE(a != nullptr);
  CHECK(a->requests[1] == 4 * (8 * 3 + 2));
  CHECK(a->requests[0] == 4 * 8 * 5);  // five loads a thread
}

TEST_CASE("Checker: shared atomics are atomics", "[checker][atomic]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = K::shared_histogram_clean(false);
  CHECK(r.races == 0);
  CHECK(r.uninitialised_reads == 0);
  CHECK(r.atomics == 256 * 4);
  // Only the zeroing (warps 0 and 1) stores; the atomics are not stores, as the GPU's ATOMS are not.
  CHECK(r.wavefronts(st) == 2);
  CHECK(r.wavefronts(ld) == 2);
  const ScratchCheckReport unzeroed = K::shared_histogram(false, false);
  CHECK(unzeroed.races == 0);
  CHECK(unzeroed.uninitialised_reads > 0);
  REQUIRE_FALSE(unzeroed.findings.empty());
  CHECK(unzeroed.findings[0].kind == ScratchFindingKind::uninitialised_read);
  CHECK(unzeroed.findings[0].access == "updated atomically");
}

TEST_CASE("Checker: an atomic and a plain access of one element in a phase race", "[checker][atomic]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 32>;
  Kokkos::View<int*, HostExec::memory_space> out("out", 32);
  ScratchCheckReport r;
  launch(HostExec(), "checker::atomic_and_read",
         LaunchParams(Dim3(1), Dim3(32)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.threads([&](const Thread& t) { s[t.rank] = 0; });
           sync_threads(b);
           b.threads([&](const Thread& t) { atomic_add(s[0], t.rank); });
           b.threads([&](const Thread& t) { out(t.rank) = s[0]; });  // missing: sync_threads(b)
         });
  CHECK(r.races == 1);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].other_access == "updated atomically");
  CHECK(r.findings[0].access == "read");
}

TEST_CASE("Checker: Kokkos::atomic_add on &s[i] is an atomic where raw pointers trap, else raw-pointer stores with a hint",
          "[checker][atomic]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<unsigned, 4>;
  ScratchCheckReport r;
  launch(HostExec(), "checker::kokkos_atomic",
         LaunchParams(Dim3(1), Dim3(64)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.threads([&](const Thread& t) {
             if (t.rank < 4) s[t.rank] = 0u;
           });
           sync_threads(b);
           b.threads([&](const Thread& t) { Kokkos::atomic_add(&s[t.rank % 4], 1u); });
         });
  CHECK(r.atomics == 0);  // scratchkit::atomic_* only
  if (scratch_check_raw_pointers) {
#if defined(KOKKOS_ENABLE_SERIAL_ATOMICS)
    // Kokkos 3 without a parallel host backend: its atomics are a plain load and store.
    CHECK(r.races == 4);
    CHECK(r.raw_accesses == 128);
#else
    CHECK(r.races == 0);
    CHECK(r.raw_accesses == 64);
#endif
    return;
  }
  CHECK(r.races == 4);
  REQUIRE_FALSE(r.findings.empty());
  CHECK(r.findings[0].access == "written through a raw pointer");
  CHECK_THAT(r.findings[0].note, ContainsSubstring("scratchkit::atomic_add"));
  CHECK(r.findings[0].site.file != nullptr);  // named after the &s[i] that took the address
}

TEST_CASE("Checker: another thread's PerThread slot, and scratch outside threads(), are misuses", "[checker][misuse]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<float, 64>;
  Kokkos::View<float*, HostExec::memory_space> out("out", 64);
  SECTION("a neighbour's PerThread value") {
    ScratchCheckReport r;
    launch(HostExec(), "checker::per_thread_neighbour",
           LaunchParams(Dim3(1), Dim3(64)).check_scratch(ScratchCheck().quiet().into(&r)),
           KOKKOS_LAMBDA(const B& b) {
             PerThread<float, B> v(b);
             b.threads([&](const Thread& t) { v(t) = float(t.rank); });
             b.threads([&](const Thread& t) { out(t.rank) = v(b.thread_of((t.rank + 1) % 64)); });
           });
    CHECK(r.misuses == 1);  // one finding per kind and site in the launch, not one per thread
    CHECK(r.races == 0);
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings[0].kind == ScratchFindingKind::misuse);
    CHECK(r.findings[0].thread == 0);
    CHECK(r.findings[0].other_thread == 1);
    CHECK_THAT(r.findings[0].str(), ContainsSubstring("PerThread slot of thread 1 used by another thread"));
    CHECK_FALSE(r.clean());
  }
  SECTION("scratch read in the kernel body") {
    ScratchCheckReport r;
    launch(HostExec(), "checker::body_read",
           LaunchParams(Dim3(2), Dim3(64)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s[t.rank] = float(t.rank); });
             sync_threads(b);
             const float first = s[0];  // outside threads(): every GPU thread runs it, one host member
             b.threads([&](const Thread& t) { out(t.rank) = first + s[t.rank]; });
           });
    CHECK(r.misuses == 1);  // one per kind and site in the launch, not one per block
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings[0].kind == ScratchFindingKind::misuse);
    CHECK_THAT(r.findings[0].str(), ContainsSubstring("outside threads()"));
    CHECK(r.findings[0].element == 0);
  }
}

TEST_CASE("Checker: two threads storing one element through operator[] store nothing through raw pointers",
          "[checker][race]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<int, 32>;
  ScratchCheckReport r;
  launch(HostExec(), "checker::same_element",
         LaunchParams(Dim3(1), Dim3(32)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.threads([&](const Thread& t) { s[0] = t.rank; });
         });
  CHECK(r.races == 1);
  CHECK(r.untracked_write_bytes == 0);
  CHECK(r.accesses == 32);
}

TEST_CASE("Checker: the summary names both Nsight Compute wavefront counters", "[checker]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const ScratchCheckReport r = K::stride8_update(false);
  CHECK_THAT(r.str(), ContainsSubstring("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum " +
                                        std::to_string(r.wavefronts(ld)) + ", _op_st.sum " +
                                        std::to_string(r.wavefronts(st))));
}

TEST_CASE("Checker: sync_threads inside threads() is one finding, not a cascade", "[checker][misuse]") {
  SCRATCHKIT_REQUIRE_CHECKER();
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
  SKIP("a bounds-checked build stops at Block::sync's own check first");
#endif
  using B = Block<HostExec>;
  using S = SharedArray<float, 64>;
  Kokkos::View<float*, HostExec::memory_space> out("out", 64);
  SECTION("reached by every thread") {
    ScratchCheckReport r;
    launch(HostExec(), "checker::sync_in_threads",
           LaunchParams(Dim3(2), Dim3(64)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               s[t.rank] = float(t.rank);
               sync_threads(b);  // the mistake: inside threads()
               out(t.rank) = s[(t.rank + 1) % 64];
             });
           });
    CHECK(r.misuses == 1);
    CHECK(r.phases == 2);  // one a block: the barrier inside threads() ends none
    CHECK(r.races == 0);   // not reported under the misuse
    CHECK(r.untracked_write_bytes == 0);
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].kind == ScratchFindingKind::misuse);
    CHECK_THAT(r.findings[0].note, ContainsSubstring("sync_threads() called inside threads(...) (by all 64 threads"));
    REQUIRE(r.findings[0].site.file != nullptr);  // after the store before it
    CHECK_THAT(std::string(r.findings[0].site.file), ContainsSubstring("test_scratch_check.cpp"));
  }
  SECTION("reached by part of the block") {
    ScratchCheckReport r;
    launch(HostExec(), "checker::partial_barrier",
           LaunchParams(Dim3(1), Dim3(64)).uses<S>().check_scratch(ScratchCheck().quiet().into(&r)),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               s[t.rank] = float(t.rank);
               if (t.rank < 32) sync_threads(b);
             });
             sync_threads(b);
             b.threads([&](const Thread& t) { out(t.rank) = s[63 - t.rank]; });
           });
    CHECK(r.misuses == 1);
    CHECK(r.races == 0);
    REQUIRE(r.findings.size() == 1);
    CHECK_THAT(r.findings[0].note, ContainsSubstring("a barrier reached by 32 of the block's 64 threads"));
  }
}

TEST_CASE("Checker: an uninitialised histogram is one finding per bin, and its floats read NaN", "[checker][uninit]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  using B = Block<HostExec>;
  using S = SharedArray<unsigned, 64>;
  using F = SharedArray<float, 64>;
  Kokkos::View<float*, HostExec::memory_space> out("out", 64);
  ScratchCheckReport r;
  launch(HostExec(), "checker::unzeroed_bins",
         LaunchParams(Dim3(3), Dim3(256)).uses<S, F>().check_scratch(ScratchCheck().quiet().keep(1000).into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           S bins(b);
           F sums(b);
           b.threads([&](const Thread& t) { atomic_add(bins[t.rank % 64], 1u); });  // never zeroed
           sync_threads(b);
           b.threads([&](const Thread& t) {
             if (t.rank < 64) out(t.rank) = float(bins[t.rank]) + sums[t.rank];  // sums never written
           });
         });
  CHECK(r.blocks == 3);
  CHECK(r.uninitialised_reads == 64 + 64);  // one per bin (its first updater), one per sum, in the launch
  std::set<long long> bins;
  for (const auto& f : r.of_kind(ScratchFindingKind::uninitialised_read))
    if (f.array.find("unsigned") != std::string::npos) {
      bins.insert(f.element);
      CHECK(f.thread == f.element);  // the first thread to update the bin
    }
  CHECK(bins.size() == 64);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  CHECK(std::isnan(h(0)));  // the float poison is a NaN: the uninitialised read shows in the result
}

TEST_CASE("Checker: the cases where it and racecheck differ by design", "[checker][race]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  // Write-after-read inside warps: every element but 0 (racecheck: the warp edges only).
  const ScratchCheckReport war = K::warp_war(false);
  CHECK(war.races == 255);
  // Atomics, then a plain read with no barrier: every counter (racecheck: none).
  const ScratchCheckReport atom = K::atomic_then_read(false);
  CHECK(atom.races == 64);
  CHECK(atom.atomics == 128);
  // The warp-synchronous tree with sync_warp: clean.
  CHECK(K::warp_tree_synced(false).races == 0);
  // Loads through raw pointers are seen where they trap (racecheck: 64 elements), else not at all.
  const ScratchCheckReport raw = K::raw_pointer_race(false);
  if (scratch_check_raw_pointers) {
    CHECK(raw.races == 64);
    CHECK(raw.raw_accesses == 128);
  } else {
    CHECK(raw.races == 0);
    CHECK(raw.untracked_write_bytes > 0);
  }
}
