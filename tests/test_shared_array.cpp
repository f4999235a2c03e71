// SPDX-License-Identifier: BSD-3-Clause
// SharedArray: compile-time sizes, alignments up to 128, placement without overlap.
#include "test_support.hpp"

#include <scratchkit/launch.hpp>
#include <scratchkit/shared_array.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>

using namespace scratchkit;

// Sizes and alignments are known at compile time.
static_assert(SharedArray<float, 256>::shmem_size() == 1024, "");
static_assert(SharedArray<double, 3>::shmem_size() == 24, "");
static_assert(SharedArray<char, 5>::shmem_align() == 1, "");
static_assert(SharedArray<float, 4, 128>::shmem_align() == 128, "");
static_assert(SharedArray<double, 1>::shmem_align() == alignof(double), "");

namespace {

using A0 = SharedArray<char, 3>;
using A1 = SharedArray<float, 5, 128>;
using A2 = SharedArray<double, 3>;
using A3 = SharedArray<char, 1, 64>;
using A4 = SharedArray<std::int16_t, 7, 16>;

// Each block records its arrays' addresses relative to the first and
// whether each is aligned; all blocks must agree.
template <class Exec>
void record_layout(const Kokkos::View<long long**, typename Exec::memory_space>& out) {
  using B = Block<Exec>;
  const auto p = LaunchParams(Dim3(3), Dim3(4)).uses<A0, A1, A2, A3, A4>();
  launch(Exec(), "test::shared_array_layout", p, KOKKOS_LAMBDA(const B& b) {
    A0 a0(b);
    A1 a1(b);
    A2 a2(b);
    A3 a3(b);
    A4 a4(b);
    b.once([&]() {
      const int blk = b.block_idx().x;
      const auto base = reinterpret_cast<std::uintptr_t>(a0.data());
      out(blk, 0) = static_cast<long long>(base % 128);  // the static region starts 128-aligned
      out(blk, 1) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a1.data()) - base);
      out(blk, 2) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a2.data()) - base);
      out(blk, 3) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a3.data()) - base);
      out(blk, 4) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a4.data()) - base);
      out(blk, 5) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a1.data()) % 128);
      out(blk, 6) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a3.data()) % 64);
      out(blk, 7) = static_cast<long long>(reinterpret_cast<std::uintptr_t>(a4.data()) % 16);
    });
  });
}

// Every thread writes its slot, a barrier, every thread reads a neighbour's:
// the arrays are shared by the block and distinct from each other.
template <class Exec>
void neighbour_exchange(const Kokkos::View<int*, typename Exec::memory_space>& out, int nthreads) {
  using B   = Block<Exec>;
  using Arr = SharedArray<int, 1024>;
  const auto p = LaunchParams(Dim3(2), Dim3(nthreads)).uses<Arr, Arr>();
  launch(Exec(), "test::shared_array_exchange", p, KOKKOS_LAMBDA(const B& b) {
    Arr s(b), u(b);
    const int n = b.num_threads();
    b.threads([&](const Thread& t) {
      s[t.rank] = 3 * t.rank + 1 + 100000 * b.block_idx().x;
      u[t.rank] = -t.rank;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      out(b.block_idx().x * n + t.rank) = s[(t.rank + 1) % n] + u[(t.rank + 2) % n];
    });
  });
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("SharedArray places arrays in order, aligned, without overlap", "[layer][shared_array]",
                        test::Spaces) {
  using Exec = TestType;
  Kokkos::View<long long**, typename Exec::memory_space> out("out", 3, 8);
  Kokkos::deep_copy(out, -1);
  record_layout<Exec>(out);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  // Expected offsets from the plan: 3 chars at 0, 5 floats at 128, 3 doubles
  // at 152, 1 char at 192, 7 int16 at 208.
  for (int blk = 0; blk < 3; ++blk) {
    CAPTURE(blk, Exec::name());
    CHECK(h(blk, 0) == 0);
    CHECK(h(blk, 1) == 128);
    CHECK(h(blk, 2) == 152);
    CHECK(h(blk, 3) == 192);
    CHECK(h(blk, 4) == 208);
    CHECK(h(blk, 5) == 0);
    CHECK(h(blk, 6) == 0);
    CHECK(h(blk, 7) == 0);
  }
  const auto plan = plan_launch<Exec>(LaunchParams(Dim3(1), Dim3(1)).uses<A0, A1, A2, A3, A4>());
  CHECK(plan.geometry.static_bytes == 208 + 14);
}

TEMPLATE_LIST_TEST_CASE("SharedArray is shared by the block's threads", "[layer][shared_array]", test::Spaces) {
  using Exec = TestType;
  for (int nthreads : {1, 7, 32, 100, 256, 1024}) {
    CAPTURE(nthreads, Exec::name());
    Kokkos::View<int*, typename Exec::memory_space> out("out", 2 * nthreads);
    Kokkos::deep_copy(out, test::poison<int>());
    neighbour_exchange<Exec>(out, nthreads);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int blk = 0; blk < 2; ++blk)
      for (int r = 0; r < nthreads; ++r) {
        const int expect = 3 * ((r + 1) % nthreads) + 1 + 100000 * blk - (r + 2) % nthreads;
        REQUIRE(h(blk * nthreads + r) == expect);
      }
  }
}

TEMPLATE_LIST_TEST_CASE("SharedArrays: declared once, planned and constructed in one order", "[layer][shared_array]",
                        test::Spaces) {
  using Exec   = TestType;
  using B      = Block<Exec>;
  using Shared = SharedArrays<SharedArray<char, 3>, SharedArray<float, 5, 128>, SharedArray<double, 64>>;
  const auto p = LaunchParams(Dim3(4), Dim3(64)).uses<Shared>();
  // The same plan as listing the arrays one by one: 3 chars, padding to 128, 5 floats, padding to 16, 64 doubles.
  CHECK(p.static_bytes() == LaunchParams(Dim3(4), Dim3(64))
                                .uses<SharedArray<char, 3>, SharedArray<float, 5, 128>, SharedArray<double, 64>>()
                                .static_bytes());
  CHECK(p.static_bytes() == 128 + 32 + 64 * 8);
  Kokkos::View<int*, typename Exec::memory_space> out("out", 4);
  launch(Exec(), "test::shared_arrays", p, KOKKOS_LAMBDA(const B& b) {
    Shared s(b);
    // C++17 lambdas cannot capture structured bindings (C++20 can): references.
    auto& c = s.template get<0>();
    auto& f = s.template get<1>();
    auto& d = s.template get<2>();
    b.threads([&](const Thread& t) {
      d[t.rank] = t.rank + 0.5;
      if (t.rank < 5) f[t.rank] = 2.0f * t.rank;
      if (t.rank < 3) c[t.rank] = static_cast<char>('a' + t.rank);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int o = 63 - t.rank;
      int bad     = d[o] != o + 0.5 ? 1 : 0;
      if (t.rank < 5) bad += f[4 - t.rank] != 2.0f * (4 - t.rank) ? 1 : 0;
      if (t.rank < 3) bad += s.template get<0>()[2 - t.rank] != static_cast<char>('a' + 2 - t.rank) ? 1 : 0;
      // Placement: the float array 128-aligned, the doubles after it.
      bad += reinterpret_cast<std::uintptr_t>(f.data()) % 128 != 0 ? 1 : 0;
      bad += reinterpret_cast<const char*>(d.data()) < reinterpret_cast<const char*>(f.data() + 5) ? 1 : 0;
      if (bad) Kokkos::atomic_add(&out(b.block_rank()), 1);
    });
  });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 4; ++i) CHECK(h(i) == 0);
}
