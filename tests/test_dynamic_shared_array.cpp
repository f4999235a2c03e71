// SPDX-License-Identifier: BSD-3-Clause
// DynamicSharedArray: the pool sized at launch, partitions by offset, the layout plan.
#include "test_support.hpp"

#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/shared_array.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using namespace scratchkit;

namespace {

struct Offsets {
  std::size_t ints, doubles, floats;
  int n_int, n_double, n_float;
};

// Three partitions of one pool, behind a static array: every thread fills
// its share of each partition, a barrier, then every thread checks a share
// another thread wrote. out(blk) counts mismatches; out(grid + blk) records
// misaligned partitions.
template <class Exec>
void partitions(const Kokkos::View<int*, typename Exec::memory_space>& out, const LaunchParams& p, Offsets o) {
  using B      = Block<Exec>;
  using Static = SharedArray<int, 5>;
  const int grid = p.grid().x;
  launch(Exec(), "test::dynamic_partitions", p, KOKKOS_LAMBDA(const B& b) {
    Static st(b);
    auto ints    = DynamicSharedArray<int>::offset(b, o.ints, o.n_int);
    auto doubles = DynamicSharedArray<double>::offset(b, o.doubles, o.n_double);
    auto floats  = DynamicSharedArray<float, 128>::offset(b, o.floats, o.n_float);
    auto whole   = DynamicSharedArray<char>::get(b);
    const int n  = b.num_threads();
    const int bk = b.block_idx().x;
    b.threads([&](const Thread& t) {
      for (int i = t.rank; i < o.n_int; i += n) ints[i] = 7 * i + bk;
      for (int i = t.rank; i < o.n_double; i += n) doubles[i] = 0.5 * i + bk;
      for (int i = t.rank; i < o.n_float; i += n) floats[i] = -1.0f * i - bk;
      if (t.rank < 5) st[t.rank] = 1000 + t.rank;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      int bad = 0;
      const int r = n - 1 - t.rank;  // read what another thread wrote
      for (int i = r; i < o.n_int; i += n) bad += ints[i] != 7 * i + bk;
      for (int i = r; i < o.n_double; i += n) bad += doubles[i] != 0.5 * i + bk;
      for (int i = r; i < o.n_float; i += n) bad += floats[i] != -1.0f * i - bk;
      if (t.rank < 5) bad += st[t.rank] != 1000 + t.rank;
      if (bad) Kokkos::atomic_add(&out(bk), bad);
      if (t.rank == 0) {
        int mis = 0;
        mis += reinterpret_cast<std::uintptr_t>(whole.data()) % 128 != 0;
        mis += reinterpret_cast<std::uintptr_t>(doubles.data()) % 16 != 0;
        mis += reinterpret_cast<std::uintptr_t>(floats.data()) % 128 != 0;
        mis += whole.size() != b.dynamic_shared_bytes();
        out(grid + bk) = mis;
      }
    });
  });
}

}  // namespace

TEST_CASE("DynamicLayout aligns partitions and sums their bytes", "[layer][dynamic_shared_array]") {
  DynamicLayout l;
  CHECK(l.add<int>(37) == 0);              // 148 bytes
  CHECK(l.add<double>(11) == 160);         // aligned to 16: 160 .. 248
  CHECK(l.add<float>(5, 128) == 256);      // aligned to 128: 256 .. 276
  CHECK(l.bytes() == 276);
  CHECK_NOTHROW(l.require_fits(276));
  CHECK_THROWS_WITH(l.require_fits(275), Catch::Matchers::ContainsSubstring("[256, 276)") &&
                                             Catch::Matchers::ContainsSubstring("275 bytes"));
  CHECK_THROWS_AS(l.add<double>(1, 4), LaunchError);  // below alignof(double)
  CHECK_THROWS_AS(l.add<float>(1, 24), LaunchError);  // not a power of two
}

TEMPLATE_LIST_TEST_CASE("DynamicSharedArray partitions the pool", "[layer][dynamic_shared_array]", test::Spaces) {
  using Exec = TestType;
  for (int nthreads : {1, 33, 256}) {
    CAPTURE(nthreads, Exec::name());
    DynamicLayout l;
    Offsets o{};
    o.n_int    = 37 + nthreads;
    o.n_double = 11;
    o.n_float  = 2 * nthreads + 3;
    o.ints     = l.add<int>(o.n_int);
    o.doubles  = l.add<double>(o.n_double);
    o.floats   = l.add<float>(o.n_float, 128);
    const int grid = 4;
    const auto p = LaunchParams(Dim3(grid), Dim3(nthreads)).uses<SharedArray<int, 5>>().shared_mem_bytes(l).require(l);
    Kokkos::View<int*, typename Exec::memory_space> out("out", 2 * grid);
    partitions<Exec>(out, p, o);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int i = 0; i < 2 * grid; ++i) CHECK(h(i) == 0);
  }
}

TEST_CASE("A partition past the pool is rejected before launch", "[layer][dynamic_shared_array][bad-input]") {
  DynamicLayout l;
  l.add<float>(100);
  l.add<double>(10);  // 400 .. 480
  const auto p = LaunchParams(Dim3(1), Dim3(32)).shared_mem_bytes(400).require(l);
  CHECK_THROWS_WITH(plan_launch<test::DeviceSpace>(p),
                    Catch::Matchers::ContainsSubstring("[400, 480)") &&
                        Catch::Matchers::ContainsSubstring("400 bytes"));
}

TEMPLATE_LIST_TEST_CASE("Typed partitions: one handle carries offset, type and count", "[layer][dynamic_shared_array]",
                        test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  const int nthreads = 96, grid = 3;
  DynamicLayout l;
  const auto ints    = l.partition<int>(nthreads + 5);
  const auto doubles = l.partition<double>(7);
  CHECK(ints.offset == 0);
  CHECK(ints.count == static_cast<std::size_t>(nthreads + 5));
  CHECK(doubles.offset == detail::round_up((nthreads + 5) * sizeof(int), 16));
  // Sizing the pool from the layout is enough: no separate require().
  const auto p = LaunchParams(Dim3(grid), Dim3(nthreads)).shared_mem_bytes(l);
  CHECK(p.has_required_layout());
  Kokkos::View<int*, typename Exec::memory_space> out("out", grid);
  launch(Exec(), "test::typed_partitions", p, KOKKOS_LAMBDA(const B& b) {
    auto is = ints.get(b);
    auto ds = doubles.get(b);
    b.threads([&](const Thread& t) {
      is[t.rank] = t.rank + b.block_rank();
      if (t.rank < 7) ds[t.rank] = 0.5 * t.rank;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      int bad = (is.size() != ints.count || ds.size() != 7) ? 1 : 0;
      const int o = nthreads - 1 - t.rank;
      bad += is[o] != o + b.block_rank() ? 1 : 0;
      if (t.rank < 7) bad += ds[6 - t.rank] != 0.5 * (6 - t.rank) ? 1 : 0;
      if (bad) Kokkos::atomic_add(&out(b.block_rank()), 1);
    });
  });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < grid; ++i) CHECK(h(i) == 0);
  // A pool resized below the layout afterwards is refused before the launch.
  auto small = LaunchParams(Dim3(1), Dim3(32)).shared_mem_bytes(l);
  small.shared_mem_bytes(std::size_t(64));
  CHECK_THROWS_AS(plan_launch<Exec>(small), LaunchError);
}
