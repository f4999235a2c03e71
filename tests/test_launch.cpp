// SPDX-License-Identifier: BSD-3-Clause
// Launch descriptions: block shapes, grids and scratch checked before any launch.
#include "test_support.hpp"

#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/occupancy.hpp>
#include <scratchkit/shared_array.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdint>
#include <string>

using namespace scratchkit;
using Catch::Matchers::ContainsSubstring;

namespace {

// Fills the whole dynamic pool and reads it back after a barrier; out(blk)
// gets 1 (the block ran) plus its mismatches, so a zeroed out must read 1
// per block afterwards. Used to run launches with large pools.
template <class Exec, class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = ScratchFallback::level1>
void fill_pool(const Kokkos::View<int*, typename Exec::memory_space>& out, const LaunchParams& p) {
  using B = Block<Exec>;
  launch<Bounds, MaxFallback>(Exec(), "test::fill_pool", p, KOKKOS_LAMBDA(const B& b) {
    auto pool   = DynamicSharedArray<int>::get(b);
    const int n = b.num_threads();
    const int m = static_cast<int>(pool.size());
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < m; i += n) pool[i] = i ^ 0x55;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      int bad = 0;
      for (int i = n - 1 - t.rank; i < m; i += n) bad += pool[i] != (i ^ 0x55);
      if (t.rank == 0) ++bad;  // the block ran
      if (bad) Kokkos::atomic_add(&out(b.block_idx().x), bad);
    });
  });
}

}  // namespace

// Compiled in two parts (tests/CMakeLists.txt), each unit under a minute in nvcc.
#if SCRATCHKIT_TEST_PART == 0
TEMPLATE_LIST_TEST_CASE("Scratch over the level-0 limit is rejected with the numbers", "[layer][launch][bad-input]",
                        test::Spaces) {
  using Exec = TestType;
  // The layer's limit for blocks of 64 threads: Kokkos' scratch_size_max(0),
  // or on CUDA with the layer's block driver the device's opt-in maximum
  // less the team space (the test below checks which).
  const auto avail = plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(64))).level0_max;
  const auto fits  = LaunchParams(Dim3(1), Dim3(64)).shared_mem_bytes(avail - 256);
  const auto plan    = plan_launch<Exec>(fits);
  CHECK(plan.scratch_level == 0);
  CHECK(plan.scratch_bytes <= avail);

  const std::size_t over = avail + 1;
  const auto p           = LaunchParams(Dim3(1), Dim3(64)).shared_mem_bytes(over);
  CAPTURE(avail, Exec::name());
  CHECK_THROWS_AS(plan_launch<Exec>(p), LaunchError);
  CHECK_THROWS_WITH(plan_launch<Exec>(p), ContainsSubstring("dynamic " + std::to_string(over)) &&
                                              ContainsSubstring(std::to_string(avail) + " bytes available"));
  // launch() rejects it too, before running anything.
  Kokkos::View<int*, typename Exec::memory_space> out("out", 1);
  CHECK_THROWS_AS(fill_pool<Exec>(out, p), LaunchError);

  // Over 227 KB (the most an H100 block can have) and far beyond any
  // memory: refused the same way.
  CHECK_THROWS_AS(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(64)).shared_mem_bytes(228 * 1024)), LaunchError);
  CHECK_THROWS_AS(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(64)).shared_mem_bytes(std::size_t(1) << 40)),
                  LaunchError);
  // Static arrays count too.
  using Big = SharedArray<char, 256 * 1024>;
  CHECK_THROWS_WITH(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(64)).uses<Big>()),
                    ContainsSubstring("static 262144"));
}

TEMPLATE_LIST_TEST_CASE("Level-1 fallback runs a pool larger than level 0", "[layer][launch]", test::Spaces) {
  using Exec       = TestType;
  const auto avail = plan_launch<Exec>(LaunchParams(Dim3(3), Dim3(128))).level0_max;
  const std::size_t bytes = (avail + 4096) / 4 * 4;
  const auto p = LaunchParams(Dim3(3), Dim3(128)).shared_mem_bytes(bytes).fallback(ScratchFallback::level1);
  const auto plan = plan_launch<Exec>(p);
  CHECK(plan.scratch_level == 1);
  Kokkos::View<int*, typename Exec::memory_space> out("out", 3);
  fill_pool<Exec>(out, p);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 3; ++i) CHECK(h(i) == 1);
  // A body compiled for level 0 only refuses the same request, and still runs within level 0.
  CHECK_THROWS_WITH((fill_pool<Exec, NoLaunchBounds, ScratchFallback::none>(out, p)),
                    ContainsSubstring("compiled for level-0 scratch only"));
  Kokkos::deep_copy(out, 0);
  fill_pool<Exec, NoLaunchBounds, ScratchFallback::none>(
      out, LaunchParams(Dim3(3), Dim3(128)).shared_mem_bytes(avail / 8 * 4).fallback(ScratchFallback::level1));
  h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 3; ++i) CHECK(h(i) == 1);
}

TEST_CASE("Scratch limits injected: the plan's level and its errors at limits this machine does not have",
          "[layer][launch][bad-input]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const auto real = detail::ScratchLimits<Exec>::get();
  const auto p    = [](std::size_t bytes) { return LaunchParams(Dim3(2), Dim3(64)).shared_mem_bytes(bytes); };
  {
    detail::ScopedScratchLimits<Exec> small(4096, 65536);
    const auto fits = plan_launch<Exec>(p(1000), "test::limits");
    CHECK(fits.level0_max == 4096);
    CHECK(fits.level1_max == 65536);
    CHECK(fits.scratch_level == 0);
    // 8000 bytes (8128 with the slack): over level 0, within level 1.
    CHECK(plan_launch<Exec>(LaunchParams(p(8000)).fallback(ScratchFallback::level1), "test::limits").scratch_level == 1);
    CHECK_THROWS_WITH(plan_launch<Exec>(p(8000), "test::limits"),
                      ContainsSubstring("block scratch of 8128 bytes requested") &&
                          ContainsSubstring("level-0 scratch has 4096 bytes available per team") &&
                          ContainsSubstring("may allow level-1 scratch, up to 65536 bytes"));
    // Above level 1 too: no fallback offered, and with one the level-1 limit is named.
    CHECK_THROWS_WITH(plan_launch<Exec>(p(100000), "test::limits"),
                      ContainsSubstring("level-1 scratch, 65536 bytes per team, is too small as well"));
    CHECK_THROWS_WITH(plan_launch<Exec>(LaunchParams(p(100000)).fallback(ScratchFallback::level1), "test::limits"),
                      ContainsSubstring("and level-1 scratch 65536 bytes"));
    // The launch follows the plan: the pool in level 1 is whole.
    Kokkos::View<int*, Exec::memory_space> out("out", 2);
    fill_pool<Exec>(out, LaunchParams(p(8000)).fallback(ScratchFallback::level1));
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    CHECK((h(0) == 1 && h(1) == 1));
    {
      detail::ScopedScratchLimits<Exec> inner(8192, 8192);
      CHECK(plan_launch<Exec>(p(8000)).scratch_level == 0);
    }
    CHECK(plan_launch<Exec>(p(1000)).level0_max == 4096);  // the outer scope's again
  }
  CHECK(detail::ScratchLimits<Exec>::get().level0 == real.level0);
  CHECK(detail::ScratchLimits<Exec>::get().level1 == real.level1);
}

TEST_CASE("Level-0 scratch above 48 KB on CUDA: the layer's block driver opts in", "[layer][launch][gpu]") {
#if !defined(KOKKOS_ENABLE_CUDA)
  SKIP("Kokkos was built without CUDA");
#elif !SCRATCHKIT_CUDA_BLOCK_DRIVER
  SKIP("built without SCRATCHKIT_KOKKOS_CUDA_DRIVER: the layer launches on Kokkos' public API, level 0 is Kokkos' limit");
#else
  if (Kokkos::Cuda().cuda_device_prop().sharedMemPerBlockOptin <= 48 * 1024) SKIP("no opt-in on this device");
  using Exec      = Kokkos::Cuda;
  const int optin = static_cast<int>(Kokkos::Cuda().cuda_device_prop().sharedMemPerBlockOptin);
  // Blocks of 256 threads: the opt-in maximum less the team space ((256 + 2)
  // doubles, rounded up to 128 bytes), plus the 128 bytes of slack the plan
  // counts and the driver does not place.
  const auto plan = plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(256)));
  CHECK(plan.level0_max == static_cast<std::size_t>(optin - 2176 + 128));
  const std::size_t dyn_max = plan.level0_max - 128;  // the largest dynamic pool of those blocks
  Kokkos::View<int*, Kokkos::CudaSpace> out("out", 7);
  for (std::size_t bytes : {std::size_t(48 * 1024 + 4), std::size_t(100 * 1024), std::size_t(192 * 1024), dyn_max}) {
    CAPTURE(bytes, optin);
    const auto p = LaunchParams(Dim3(7), Dim3(256)).shared_mem_bytes(bytes);
    CHECK(plan_launch<Exec>(p).scratch_level == 0);
    Kokkos::deep_copy(out, 0);
    fill_pool<Exec>(out, p);  // every word written, read back by another thread after a barrier
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int i = 0; i < 7; ++i) CHECK(h(i) == 1);
  }
  CHECK_THROWS_WITH(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(256)).shared_mem_bytes(dyn_max + 8)),
                    ContainsSubstring(std::to_string(plan.level0_max) + " bytes available"));
  // Two blocks of 150 KB cannot share an SM: launch bounds asking for that are refused before launch.
  using TwoPerSm = LaunchBounds<256, 2>;
  CHECK_THROWS_WITH((fill_pool<Exec, TwoPerSm>(out, LaunchParams(Dim3(7), Dim3(256)).shared_mem_bytes(150 * 1024))),
                    ContainsSubstring("2 blocks per SM"));
  // Bounds that ask for Kokkos' own driver keep Kokkos' limit.
  using KokkosDriver = LaunchBounds<0, 0, true>;
  CHECK(plan_launch<Exec, KokkosDriver>(LaunchParams(Dim3(1), Dim3(256))).level0_max ==
        static_cast<std::size_t>(Kokkos::TeamPolicy<Exec>::scratch_size_max(0)));
#endif
}

TEST_CASE("Block shapes outside CUDA's limits are rejected", "[layer][launch][bad-input]") {
  using Exec = test::DeviceSpace;
  for (Dim3 b : {Dim3(0), Dim3(2048), Dim3(1, 1, 65), Dim3(32, 32, 2), Dim3(-4, 2), Dim3(1, 1025)}) {
    CAPTURE(b.x, b.y, b.z);
    CHECK_THROWS_WITH(plan_launch<Exec>(LaunchParams(Dim3(1), b)),
                      ContainsSubstring("block shape (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " +
                                        std::to_string(b.z) + ")"));
  }
  CHECK_THROWS_WITH(plan_launch<Exec>(LaunchParams(Dim3(-1), Dim3(32))), ContainsSubstring("grid (-1, 1, 1)"));
  CHECK_THROWS_AS(plan_launch<Exec>(LaunchParams(Dim3(65536, 65536), Dim3(32))), LaunchError);
  CHECK_NOTHROW(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(32, 32))));
  CHECK_NOTHROW(plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(4, 4, 64))));
}

TEMPLATE_LIST_TEST_CASE("An empty grid is refused naming the kernel, or launches nothing when allowed",
                        "[layer][launch][edge]", test::Spaces) {
  using Exec = TestType;
  Kokkos::View<int*, typename Exec::memory_space> out("out", 1);
  for (Dim3 g : {Dim3(0), Dim3(4, 0), Dim3(1, 1, 0)}) {
    CAPTURE(g.x, g.y, g.z);
    const auto p = LaunchParams(g, Dim3(32)).shared_mem_bytes(64);
    CHECK_THROWS_AS(fill_pool<Exec>(out, p), LaunchError);
    CHECK_THROWS_WITH(fill_pool<Exec>(out, p), ContainsSubstring("kernel 'test::fill_pool'") &&
                                                   ContainsSubstring("grid " + detail::dim_str(g)) &&
                                                   ContainsSubstring("allow_empty_grid"));
    CHECK_THROWS_AS(plan_launch<Exec>(p), LaunchError);
    fill_pool<Exec>(out, LaunchParams(p).allow_empty_grid());
    // Every other check still applies to an allowed empty grid.
    CHECK_THROWS_AS(fill_pool<Exec>(out, LaunchParams(g, Dim3(2048)).allow_empty_grid()), LaunchError);
  }
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  CHECK(h(0) == 0);
}

TEST_CASE("FastDiv divides exactly over the whole non-negative int range", "[layer][launch]") {
  // The block and thread coordinates are decoded with it: exactness for every
  // n < 2^31 follows from the choice of m and p (block.hpp); checked here on
  // every divisor a launch can have in one dimension of a block (1..1024),
  // powers of two and their neighbours up to 2^30, and n near each multiple.
  std::vector<int> divisors;
  for (int d = 1; d <= 1024; ++d) divisors.push_back(d);
  for (int l = 11; l <= 30; ++l)
    for (int e : {-1, 0, 1}) divisors.push_back((1 << l) + e);
  divisors.push_back(2147483647);
  const std::vector<int> ns = {0, 1, 2, 3, 1023, 1024, 65535, 65536, 1 << 30, 2147483646, 2147483647};
  for (int d : divisors) {
    const detail::FastDiv f(d);
    auto check = [&](long long n) {
      if (n < 0 || n > 2147483647LL) return;
      const int k = static_cast<int>(n);
      if (f.div(k) != k / d || f.mod(k) != k % d) FAIL("FastDiv(" << d << ") wrong at n = " << k);
    };
    for (int n : ns) check(n);
    for (long long q : {1LL, 2LL, 3LL, 1000LL, 2147483647LL / d})
      for (int e : {-1, 0, 1}) check(q * d + e);
  }
  SUCCEED("all divisions exact");
}

#else
TEMPLATE_LIST_TEST_CASE("TeamLoop: a team runs several blocks, each once, with its own index and scratch",
                        "[layer][launch]", test::Spaces) {
  using Exec   = TestType;
  using B      = Block<Exec>;
  using Bounds = LaunchBounds<64, 1, false, true>;
  // 30 blocks (fewer than four waves anywhere: one block per team on a GPU),
  // and 60000 (enough waves on an H100 for the requested k to be taken).
  for (const Dim3 grid : {Dim3(5, 3, 2), Dim3(200, 150, 2)}) {
    const int nb = static_cast<int>(grid.count());
    for (int k : {1, 2, 4, 7, 30, 100}) {
      CAPTURE(nb, k);
      const auto p    = LaunchParams(grid, Dim3(64)).shared_mem_bytes(64 * sizeof(int)).blocks_per_team(k);
      const auto plan = plan_launch<Exec, Bounds>(p);
      CHECK(plan.blocks == nb);
      // At most k, and at least four waves of teams are kept; the optional
      // CUDA block driver runs one block per team.
      const long long waves4 = 4 * detail::resident_teams<Exec>(64);
      const int cap          = nb / waves4 > 1 ? static_cast<int>(nb / waves4) : 1;
      CHECK(plan.blocks_per_team == (detail::block_driver_launch<Exec, Bounds> ? 1 : (k < cap ? k : cap)));
      CHECK(plan.league_size == (nb + plan.blocks_per_team - 1) / plan.blocks_per_team);
      // out(rank) = 1 + rank-decoding errors + scratch errors: every block writes
      // its rank into the pool, and after a barrier each thread reads a word
      // another thread wrote.
      Kokkos::View<int*, typename Exec::memory_space> out("out", nb);
      const int gx = grid.x, gy = grid.y;
      launch<Bounds>(Exec(), "test::team_loop", p, KOKKOS_LAMBDA(const B& b) {
        auto pool    = DynamicSharedArray<int>::get(b);
        const int r  = b.block_rank();
        const Dim3 i = b.block_idx();
        b.threads([&](const Thread& t) { pool[t.rank] = r * 64 + t.rank; });
        sync_threads(b);
        b.threads([&](const Thread& t) {
          const int other = 63 - t.rank;
          int bad         = pool[other] != r * 64 + other ? 1 : 0;
          if (t.rank == 0) {
            bad += (i.x + gx * (i.y + gy * i.z)) != r ? 1 : 0;
            Kokkos::atomic_add(&out(r), 1);
          }
          if (bad) Kokkos::atomic_add(&out(r), 1000);
        });
      });
      auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      int bad = 0;
      for (int r = 0; r < nb; ++r) bad += h(r) != 1 ? 1 : 0;
      CHECK(bad == 0);
    }
  }
  const Dim3 grid(5, 3, 2);
  CHECK_THROWS_AS(LaunchParams(grid, Dim3(64)).blocks_per_team(0), LaunchError);
}

TEMPLATE_LIST_TEST_CASE("TeamLoop with alternate_scratch: blocks of a team alternate between two scratch copies",
                        "[layer][launch]", test::Spaces) {
  using Exec   = TestType;
  using B      = Block<Exec>;
  using Bounds = LaunchBounds<64, 1, false, true>;
  constexpr bool driver = detail::block_driver_launch<Exec, Bounds>;
  for (const Dim3 grid : {Dim3(5, 3, 2), Dim3(200, 150, 2)}) {
    const int nb = static_cast<int>(grid.count());
    for (int k : {1, 2, 3, 8}) {
      CAPTURE(nb, k);
      const auto p   = LaunchParams(grid, Dim3(64)).shared_mem_bytes(64 * sizeof(int)).blocks_per_team(k);
      const auto one = plan_launch<Exec, Bounds>(p);
      const auto two = plan_launch<Exec, Bounds>(LaunchParams(p).alternate_scratch());
      CHECK(two.blocks_per_team == one.blocks_per_team);
      if (driver || one.blocks_per_team == 1 || !two.settings.team_loop_alternate) {
        // One block per team (or alternation switched off): nothing changes.
        CHECK(two.scratch_stride == 0);
        CHECK(two.scratch_bytes == one.scratch_bytes);
      } else {
        // The second copy starts at the next 128-byte boundary past the first.
        CHECK(two.scratch_stride == 256);
        CHECK(two.scratch_bytes == one.scratch_bytes + 256);
      }
      // Each block: every thread writes its word, one barrier, every thread
      // reads another thread's word (a block r + 2 that wrote over block r's
      // copy before block r finished would show as a wrong word; racecheck
      // sees it too). Thread 0 records the block's copy, so that successive
      // blocks of one team can be compared below.
      Kokkos::View<int*, typename Exec::memory_space> out("out", nb);
      Kokkos::View<long long*, typename Exec::memory_space> where("where", nb);
      launch<Bounds>(Exec(), "test::team_loop_alternate", LaunchParams(p).alternate_scratch(),
                     KOKKOS_LAMBDA(const B& b) {
                       auto pool   = DynamicSharedArray<int>::get(b);
                       const int r = b.block_rank();
                       b.threads([&](const Thread& t) { pool[t.rank] = r * 64 + t.rank; });
                       sync_threads(b);
                       b.threads([&](const Thread& t) {
                         const int other = 63 - t.rank;
                         if (pool[other] != r * 64 + other) Kokkos::atomic_add(&out(r), 1000);
                         if (t.rank == 0) {
                           Kokkos::atomic_add(&out(r), 1);
                           where(r) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(pool.data()));
                         }
                       });
                     });
      auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      auto hw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), where);
      int bad = 0;
      for (int r = 0; r < nb; ++r) bad += h(r) != 1 ? 1 : 0;
      CHECK(bad == 0);
      // Successive blocks of a team (strided order: r and r + league size;
      // consecutive: r and r + 1 within a team's run) use copies two.scratch_stride apart.
      if (!driver && two.blocks_per_team > 1) {
        const bool strided = two.settings.team_loop_strided;
        int apart = 0, pairs = 0;
        for (int r = 0; r < nb; ++r) {
          const int next = strided ? r + two.league_size : r + 1;
          if (next >= nb || (!strided && next % two.blocks_per_team == 0)) continue;
          ++pairs;
          const long long d = hw(next) - hw(r);
          apart += (d == static_cast<long long>(two.scratch_stride) || d == -static_cast<long long>(two.scratch_stride))
                       ? 1
                       : 0;
        }
        CHECK(pairs > 0);
        CHECK(apart == pairs);
      }
    }
  }
}

TEMPLATE_LIST_TEST_CASE("TeamLoop with alternate_scratch launches with one copy where two do not fit the launch bounds",
                        "[layer][launch]", test::Spaces) {
  // 8 blocks of 256 per SM (launch bounds) with 16 KB of scratch each: two
  // copies (32 KB) fit Kokkos' level-0 limit, so plan_launch takes them, but
  // 8 x 32 KB is more than an SM has; the launch must fall back to one copy
  // (8 x 16 KB) instead of refusing a block size that works without it.
  using Exec   = TestType;
  using B      = Block<Exec>;
  using Bounds = LaunchBounds<256, 8, false, true>;
  constexpr int words = 4096;  // 16 KB of int
  const Dim3 grid(20000);
  const int nb  = static_cast<int>(grid.count());
  const auto p  = LaunchParams(grid, Dim3(256)).shared_mem_bytes(words * sizeof(int)).blocks_per_team(4).alternate_scratch();
  Kokkos::View<int*, typename Exec::memory_space> out("out", nb);
  REQUIRE_NOTHROW(launch<Bounds>(Exec(), "test::team_loop_alternate_bounds", p, KOKKOS_LAMBDA(const B& b) {
    auto pool   = DynamicSharedArray<int>::get(b);
    const int r = b.block_rank();
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < words; i += 256) pool[i] = r + i;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      int bad = 0;
      for (int i = 255 - t.rank; i < words; i += 256) bad += pool[i] != r + i ? 1 : 0;
      if (bad) Kokkos::atomic_add(&out(r), 1000);
      if (t.rank == 0) Kokkos::atomic_add(&out(r), 1);
    });
  }));
  auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  int bad = 0;
  for (int r = 0; r < nb; ++r) bad += h(r) != 1 ? 1 : 0;
  CHECK(bad == 0);
}

TEMPLATE_LIST_TEST_CASE("TeamLoop with alternate_scratch keeps one copy where two do not fit in level 0",
                        "[layer][launch]", test::Spaces) {
  using Exec   = TestType;
  using Bounds = LaunchBounds<64, 1, false, true>;
  const Dim3 grid(200, 150, 2);
  const std::size_t max0 = plan_launch<Exec, Bounds>(LaunchParams(grid, Dim3(64))).level0_max;
  // One copy fits (dynamic + 128 bytes of alignment slack), two do not.
  const std::size_t dyn = (max0 - 2 * detail::base_alignment) / 8 * 8;
  const auto p    = LaunchParams(grid, Dim3(64)).shared_mem_bytes(dyn).blocks_per_team(4).alternate_scratch();
  const auto plan = plan_launch<Exec, Bounds>(p);
  CHECK(plan.scratch_level == 0);
  CHECK(plan.scratch_stride == 0);
  CHECK(plan.scratch_bytes == plan_launch<Exec, Bounds>(LaunchParams(p).alternate_scratch(false)).scratch_bytes);
}

TEST_CASE("Occupancy on an H100 as CUDA's calculator counts it", "[launch][occupancy]") {
  using detail::OccupancyLimiter;
  const detail::DeviceLimits h100 = detail::DeviceLimits::h100();
  detail::OccupancyInput in;
  SECTION("16x16 SGEMM: 8 blocks of 8 warps fill the SM's 64 warps") {
    in.threads = 256, in.static_shared = 2048, in.regs_per_thread = 32;
    const auto o = detail::occupancy(h100, in);
    CHECK(o.blocks_per_sm == 8);
    CHECK(o.limiter == OccupancyLimiter::threads);
    CHECK(o.by_registers == 8);
    CHECK(o.shared_per_block == 3072);  // with the 1 KB the driver reserves per block
    CHECK(o.by_shared == 233472 / 3072);
    CHECK(o.shared_per_sm_used == 8 * 3072);
  }
  SECTION("48 KB of dynamic scratch: 4 blocks, shared memory the limit; a 50 % carveout leaves 2") {
    in.threads = 256, in.dynamic_shared = 48 * 1024;
    auto o = detail::occupancy(h100, in);
    CHECK(o.blocks_per_sm == 4);  // 228 KB / (48 KB + 1 KB)
    CHECK(o.limiter == OccupancyLimiter::shared);
    CHECK(o.by_registers == -1);  // unknown, not counted
    CHECK(o.shared_per_sm_used == 4 * (48 * 1024 + 1024));
    in.carveout_percent = 50;  // 114 KB rounds up to the 132 KB carveout
    o = detail::occupancy(h100, in);
    CHECK(o.shared_config == 132 * 1024);
    CHECK(o.blocks_per_sm == 2);
  }
  SECTION("1024 threads at 64 registers: registers allow one block") {
    in.threads = 1024, in.regs_per_thread = 64;
    const auto o = detail::occupancy(h100, in);
    CHECK(o.by_threads == 2);
    CHECK(o.by_registers == 1);
    CHECK(o.blocks_per_sm == 1);
    CHECK(o.limiter == OccupancyLimiter::registers);
  }
  SECTION("a block over the launch bounds runs nowhere") {
    in.threads = 256, in.max_threads = 128;
    const auto o = detail::occupancy(h100, in);
    CHECK(o.blocks_per_sm == 0);
    CHECK(o.limiter == OccupancyLimiter::block_size);
  }
  SECTION("the launch bounds' MinBlocks that scratch cannot meet") {
    in.threads = 256, in.dynamic_shared = 100 * 1024, in.min_blocks = 4;
    const auto o = detail::occupancy(h100, in);
    CHECK(o.blocks_per_sm == 2);
    CHECK_FALSE(o.min_blocks_met);
  }
}

TEMPLATE_LIST_TEST_CASE("occupancy_report describes the launch on the space in use", "[launch][occupancy]",
                        test::Spaces) {
  using Exec = TestType;
  using Tile = SharedArray<float, 16 * 16>;
  const auto p = LaunchParams(Dim3(4, 4), Dim3(16, 16)).uses<Tile, Tile>().desired_occupancy(50);
  const OccupancyReport r = occupancy_report<Exec>(p, "test::occupancy");
  CHECK(r.plan.blocks == 16);
  CHECK(r.plan.scratch_bytes >= 2 * Tile::shmem_size());
  CHECK(r.desired_occupancy == 50);
  const std::string s = r.str();
  CHECK(s.find("'test::occupancy'") != std::string::npos);
  if (!r.gpu) {
    CHECK(r.host_concurrency == static_cast<int>(Exec().concurrency()));
    CHECK(s.find("one block at a time") != std::string::npos);
  } else if (r.device_known) {
    CHECK(r.occupancy.blocks_per_sm > 0);
  }
  CHECK_THROWS_AS(LaunchParams(Dim3(1), Dim3(32)).desired_occupancy(101), LaunchError);
}

TEMPLATE_LIST_TEST_CASE("A desired occupancy reaches Kokkos through its public prefer()", "[launch][occupancy]",
                        test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  // The policy launch() hands Kokkos, with the hint: a valid Kokkos policy on every backend.
  using Policy    = Kokkos::TeamPolicy<Exec, Kokkos::LaunchBounds<0, 0>>;
  const auto pref = detail::with_desired_occupancy(Policy(Exec(), 3, 1, 1), 25);
  CHECK(pref.league_size() == 3);
  Kokkos::View<int*, typename Exec::memory_space> out("out", 64);
  launch(Exec(), "test::desired_occupancy", LaunchParams(Dim3(2), Dim3(32)).desired_occupancy(25),
         KOKKOS_LAMBDA(const B& b) { b.threads([&](const Thread& t) { out(b.block_rank() * 32 + t.rank) = 1; }); });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  int sum = 0;
  for (int i = 0; i < 64; ++i) sum += h(i);
  CHECK(sum == 64);
}
#endif
