// SPDX-License-Identifier: BSD-3-Clause
// The launch tuning hook (tuning/hook.hpp): asked once per launch with the launch's request,
// its overrides taken (blocks per team, host per-thread phases), the library's own choices
// again once it is removed.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <vector>

using namespace scratchkit;

namespace {

/// A request as recorded by the hook (the label copied: it lives for the call only).
struct Seen {
  std::string label, space;
  tuning::LaunchRequest request;
};

/// A hook that records every request and answers `answer` to each.
struct Recorder {
  std::vector<Seen>* seen;
  tuning::LaunchTuning answer;
  tuning::LaunchTuning operator()(const tuning::LaunchRequest& r) const {
    seen->push_back(Seen{r.label, r.space, r});
    return answer;
  }
};

tuning::LaunchTuning blocks_per_team(int k) {
  tuning::LaunchTuning t;
  t.blocks_per_team = k;
  return t;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Tuning hook: asked once per launch with the launch's request", "[tuning][hook][launch]",
                        test::Spaces) {
  using Exec            = TestType;
  using B               = Block<Exec>;
  using Bounds          = LaunchBounds<64, 1, false, true>;  // TeamLoop
  constexpr bool driver = detail::block_driver_launch<Exec, Bounds>;
  const Dim3 grid(40, 3, 1);
  const auto p = LaunchParams(grid, Dim3(64)).shared_mem_bytes(64 * sizeof(int)).blocks_per_team(3).alternate_scratch();
  Kokkos::View<int*, typename Exec::memory_space> out("out", grid.count());
  const auto body = KOKKOS_LAMBDA(const B& b) {
    b.threads([&](const Thread& t) {
      if (t.rank == 0) out(b.block_rank()) += 1;
    });
  };
  std::vector<Seen> seen;
  REQUIRE_FALSE(tuning::has_tuning_hook());
  {
    tuning::ScopedTuningHook hook(Recorder{&seen, {}});
    CHECK(tuning::has_tuning_hook());
    launch<Bounds>(Exec(), "test::tuning_request", p, body);
    Exec().fence();
    REQUIRE(seen.size() == 1);
    const tuning::LaunchRequest& r = seen[0].request;
    CHECK(seen[0].label == "test::tuning_request");
    CHECK(seen[0].space == std::string(Exec::name()));
    CHECK(r.kernel == tuning::Kernel::user);
    CHECK(r.host == !detail::is_gpu_space<Exec>::value);
    CHECK(r.block_driver == driver);
    CHECK(r.team_loop == !driver);
    CHECK((r.grid.x == 40 && r.grid.y == 3 && r.grid.z == 1));
    CHECK((r.block.x == 64 && r.block.y == 1 && r.block.z == 1));
    CHECK(r.blocks_per_team == 3);
    CHECK(r.alternate_scratch);
    CHECK(r.host_team_size == 0);
    // An empty answer leaves every block run once.
    auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int i = 0; i < static_cast<int>(grid.count()); ++i) bad += h(i) != 1 ? 1 : 0;
    CHECK(bad == 0);
    // A launch that launches nothing (an allowed empty grid) is asked once too, and the
    // LaunchParams' host team size is in the request.
    launch<Bounds>(Exec(), "test::tuning_empty", LaunchParams(Dim3(0), Dim3(64)).allow_empty_grid().host_team_size(1),
                   body);
    REQUIRE(seen.size() == 2);
    CHECK(seen[1].label == "test::tuning_empty");
    CHECK(seen[1].request.host_team_size == 1);
  }
  // Removed: no more calls.
  CHECK_FALSE(tuning::has_tuning_hook());
  launch<Bounds>(Exec(), "test::tuning_request", p, body);
  Exec().fence();
  CHECK(seen.size() == 2);
}

TEMPLATE_LIST_TEST_CASE("Tuning hook: a blocks-per-team override reaches the plan", "[tuning][hook][launch]",
                        test::Spaces) {
  using Exec            = TestType;
  using Bounds          = LaunchBounds<64, 1, false, true>;
  constexpr bool driver = detail::block_driver_launch<Exec, Bounds>;
  // Enough blocks that four waves of teams leave room for 2 per team on any device.
  const auto p      = LaunchParams(Dim3(1 << 20), Dim3(64)).blocks_per_team(5);
  const auto before = plan_launch<Exec, Bounds>(p);
  CHECK(before.blocks_per_team == (driver ? 1 : 5));
  std::vector<Seen> seen;
  {
    tuning::ScopedTuningHook hook(Recorder{&seen, blocks_per_team(2)});
    const auto tuned = plan_launch<Exec, Bounds>(p);
    CHECK(seen.size() == 1);  // plan_launch asks as launch() does
    CHECK(tuned.blocks_per_team == (driver ? 1 : 2));
    CHECK(tuned.league_size == (driver ? (1 << 20) : (1 << 19)));
  }
  const auto after = plan_launch<Exec, Bounds>(p);
  CHECK(after.blocks_per_team == before.blocks_per_team);
  CHECK(after.league_size == before.league_size);
  // Out of range: refused with the hook named.
  tuning::ScopedTuningHook bad(Recorder{&seen, blocks_per_team(0)});
  CHECK_THROWS_AS((plan_launch<Exec, Bounds>(p)), LaunchError);
}

TEST_CASE("Tuning hook: host overrides take effect in the kernel", "[tuning][hook][host]") {
  using Exec   = test::HostSpace;
  using MS     = Exec::memory_space;
  using B      = Block<Exec>;
  using Bounds = LaunchBounds<32, 1, false, true>;
  const int nb = 64;
  // league_size seen by each block, and whether it ran on detail::host_direct's plain loops.
  Kokkos::View<int*, MS> league("league", nb), direct("direct", nb);
  const auto run = [&] {
    launch<Bounds>(Exec(), "test::tuning_host", LaunchParams(Dim3(nb), Dim3(32)).host_team_size(1),
                   KOKKOS_LAMBDA(const B& b) {
                     const int r = b.block_rank();
                     const bool d = detail::host_direct(b);
                     b.threads([&](const Thread& t) {
                       if (t.rank == 0) {
                         league(r) = b.team().league_size();
                         direct(r) = d ? 1 : 0;
                       }
                     });
                   });
    Exec().fence();
  };
  const auto all = [&](const Kokkos::View<int*, MS>& v, int value) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    int n  = 0;
    for (int i = 0; i < nb; ++i) n += h(i) == value ? 1 : 0;
    return n == nb;
  };
  // The library's choices: one block per team (no blocks_per_team asked), the plain loops.
  run();
  CHECK(all(league, nb));
  CHECK(all(direct, 1));
  {
    tuning::LaunchTuning t = blocks_per_team(4);
    t.host_per_thread_phases = true;
    t.host_threads_loop      = tuning::HostThreadsLoop::nested;
    std::vector<Seen> seen;
    tuning::ScopedTuningHook hook(Recorder{&seen, t});
    run();
    CHECK(seen.size() == 1);
    const auto plan = plan_launch<Exec, Bounds>(LaunchParams(Dim3(nb), Dim3(32)));
    CHECK(seen.size() == 2);
    CHECK(plan.blocks_per_team > 1);  // 4, unless four waves of teams leave fewer
    CHECK(plan.league_size < nb);
    CHECK(all(league, plan.league_size));
    CHECK(all(direct, 0));
  }
  // Removed: the library's choices again.
  run();
  CHECK(all(league, nb));
  CHECK(all(direct, 1));
}

TEST_CASE("Tuning hook: the library's kernels name themselves; overrides keep their results",
          "[tuning][hook][host][reduce][stencil_1d][collectives]") {
  using Exec = test::HostSpace;
  using MS   = Exec::memory_space;
  const std::size_t n = 100000;
  Kokkos::View<double*, MS> x("x", n);
  Kokkos::View<float*, MS> xf("xf", n), wf("wf", 5), sf("sf", n), sf2("sf2", n);
  Kokkos::View<int*, MS> xi("xi", n), si("si", n), si2("si2", n);
  Kokkos::parallel_for(
      "test::tuning_fill", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(const int i) {
        x(i)  = 1.0 / (1 + i % 97) - 0.25 * (i % 3);
        xf(i) = static_cast<float>(x(i));
        xi(i) = i % 13 - 6;
        if (i < 5) wf(i) = 0.5f - 0.125f * i;
      });
  Exec().fence();
  const double sum = reduce(Exec(), ReduceVariant::tree, ReduceOp::sum, x);
  stencil_1d(Exec(), Stencil1DVariant::halo_tile, xf, wf, sf);
  tile_scan(Exec(), ScanKind::inclusive, xi, si, 256, 4);
  Exec().fence();

  std::vector<Seen> seen;
  tuning::LaunchTuning t = blocks_per_team(2);
  t.team_loop_order      = tuning::TeamLoopOrder::consecutive;
  t.single_scratch       = true;
  t.host_team_size       = 1;
  tuning::ScopedTuningHook hook(Recorder{&seen, t});

  // The tree: one launch per pass (196 blocks, then 1), each asked once.
  CHECK(reduce(Exec(), ReduceVariant::tree, ReduceOp::sum, x) == sum);
  REQUIRE(seen.size() == 2);
  for (const Seen& s : seen) {
    CHECK(s.label == "scratchkit::reduce_tree");
    CHECK(s.request.kernel == tuning::Kernel::reduce_tree);
    CHECK(s.request.blocks_per_team == detail::reduce_tree_blocks_per_team());
  }
  CHECK(seen[0].request.grid.x == 196);
  CHECK(seen[1].request.grid.x == 1);

  seen.clear();
  stencil_1d(Exec(), Stencil1DVariant::halo_tile, xf, wf, sf2);
  Exec().fence();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].label == "scratchkit::stencil_1d_halo_tile");
  CHECK(seen[0].request.kernel == tuning::Kernel::stencil_1d);
  CHECK(seen[0].request.blocks_per_team == detail::stencil1d_blocks_per_team<float>(false));
  CHECK(test::same_bits(sf, sf2));

  // Tile kernels: 0 runs without the team loop, and the hook may switch it on (and off).
  for (int k : {0, 3}) {
    CAPTURE(k);
    seen.clear();
    Kokkos::deep_copy(si2, 0);
    tuning::ScopedTuningHook tile(Recorder{&seen, blocks_per_team(k)});
    tile_scan(Exec(), ScanKind::inclusive, xi, si2, 256, 4);
    Exec().fence();
    REQUIRE(seen.size() == 1);
    CHECK(seen[0].label == "scratchkit::tile_scan_inclusive");
    CHECK(seen[0].request.kernel == tuning::Kernel::tile);
    CHECK(test::same_bits(si, si2));
  }
  tuning::ScopedTuningHook negative(Recorder{&seen, blocks_per_team(-1)});
  CHECK_THROWS_AS(tile_scan(Exec(), ScanKind::inclusive, xi, si2, 256, 4), LaunchError);
}

TEST_CASE("Tuning hook: set, clear and nested scopes", "[tuning][hook]") {
  using Exec = test::HostSpace;
  using B    = Block<Exec>;
  std::vector<Seen> outer, inner;
  const auto once = [] {
    launch(Exec(), "test::tuning_nested", LaunchParams(Dim3(2), Dim3(32)), KOKKOS_LAMBDA(const B&){});
    Exec().fence();
  };
  tuning::set_tuning_hook(Recorder{&outer, {}});
  once();
  {
    tuning::ScopedTuningHook scoped(Recorder{&inner, {}});
    once();
  }
  once();  // the outer hook again
  CHECK(outer.size() == 2);
  CHECK(inner.size() == 1);
  tuning::clear_tuning_hook();
  CHECK_FALSE(tuning::has_tuning_hook());
  once();
  CHECK(outer.size() == 2);
  // An empty function installs nothing.
  tuning::set_tuning_hook(tuning::TuningHook());
  CHECK_FALSE(tuning::has_tuning_hook());
}
