// SPDX-License-Identifier: BSD-3-Clause
// Compile-time block shapes (Block<Exec, BlockShape<X, Y, Z>>), compile-time boxes (Box<X, Y, Z>)
// and one-line multi-dimensional shared arrays (SharedArray<T[E0][E1]...>): the same results as
// the run-time shapes, every point of a box once, the launch's checks before launching.
#include "test_support.hpp"

#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <string>
#include <type_traits>
#include <vector>

using namespace scratchkit;

namespace {

using Exec = Kokkos::DefaultExecutionSpace;

using Block2 = Block<Exec, BlockShape<8, 4>>;
static_assert(Block2::static_shape && Block2::static_threads == 32, "a static shape's thread count");
static_assert(!Block<Exec>::static_shape && Block<Exec>::static_threads == 0, "a run-time shape");
static_assert(std::is_same<PerThread<double, Block<Exec, BlockShape<5, 3, 2>>>,
                           PerThread<double, Block<Exec, BlockShape<5, 3, 2>>, 30>>::value,
              "PerThread's room is a static shape's threads");
static_assert(std::is_same<PerThread<double, Block<Exec>>, PerThread<double, Block<Exec>, 1024>>::value,
              "PerThread's room for a run-time shape is the largest block");

using Flat  = SharedArray<int[3][5][7]>;
using Pad   = SharedArray<float[32][32 + 1]>;
static_assert(Flat::size() == 105 && Flat::rank == 3 && Flat::extent(0) == 3 && Flat::extent(2) == 7, "extents");
static_assert(Pad::shmem_size() == 32 * 33 * sizeof(float), "padding is written on the extent, as in CUDA");
static_assert(std::is_same<Flat::value_type, int>::value, "element type");

// The layer's test kernel of four phases (tests/test_block.cpp's, with a PerThread across the
// barriers and neighbours' reads), written once for a block type B: run with a run-time and with
// a static shape, the two must give the same values and coordinates.
template <class B>
void phases(const Kokkos::View<long long**, Exec::memory_space>& out,
            const Kokkos::View<int**, Exec::memory_space>& coords, Dim3 grid, Dim3 block) {
  using S      = SharedArray<long long, 1024>;
  const auto p = LaunchParams(grid, block).uses<S>();
  launch(Exec(), "test::static_phases", p, KOKKOS_LAMBDA(const B& b) {
    S s(b);
    PerThread<long long, B> mine(b);
    const int n   = b.num_threads();
    const Dim3 bi = b.block_idx();
    const int blk = bi.x + b.grid_dim().x * (bi.y + b.grid_dim().y * bi.z);
    b.threads([&](const Thread& t) {
      mine(t)             = 7LL * t.rank + 1000LL * blk + 1;
      s[t.rank]           = 3 * mine(t) + t.x + 10 * t.y + 100 * t.z;
      coords(blk, t.rank) = t.x + 1000 * t.y + 1000000 * t.z + 7 * (t.gx + 11 * t.gy + 131 * t.gz);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { mine(t) += s[(t.rank + 1) % n]; });
    sync_threads(b);
    b.threads([&](const Thread& t) { out(blk, t.rank) = s[(t.rank * 5 + 3) % n] + mine(t); });
  });
}

template <int X, int Y, int Z>
void same_as_runtime(Dim3 grid) {
  const Dim3 block(X, Y, Z);
  const int blocks = static_cast<int>(grid.count());
  Kokkos::View<long long**, Exec::memory_space> o1("o1", blocks, X * Y * Z), o2("o2", blocks, X * Y * Z);
  Kokkos::View<int**, Exec::memory_space> c1("c1", blocks, X * Y * Z), c2("c2", blocks, X * Y * Z);
  phases<Block<Exec>>(o1, c1, grid, block);
  phases<Block<Exec, BlockShape<X, Y, Z>>>(o2, c2, grid, block);
  Kokkos::fence();
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), o1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), o2);
  auto k1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c1);
  auto k2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c2);
  long bad = 0;
  for (int i = 0; i < blocks; ++i)
    for (int r = 0; r < X * Y * Z; ++r) bad += (h1(i, r) != h2(i, r)) + (k1(i, r) != k2(i, r));
  INFO("block " << X << " x " << Y << " x " << Z);
  CHECK(bad == 0);
  CHECK(h1(blocks - 1, X * Y * Z - 1) != 0);  // the kernel ran
}

}  // namespace

TEST_CASE("static block shapes give the run-time shapes' results", "[static_shape]") {
  same_as_runtime<64, 1, 1>(Dim3(3));
  same_as_runtime<8, 4, 1>(Dim3(2, 3));
  same_as_runtime<5, 3, 2>(Dim3(2, 1, 3));  // no power of two
  same_as_runtime<33, 1, 1>(Dim3(5));       // a warp and one thread
}

namespace {
// Each point of a static box once, from a static block, by block_stride; and threads(Box) over
// exactly the box. Counts each point's visits (a point visited twice or never shows).
template <int BX, int BY, int BZ, int EX, int EY, int EZ>
void box_cover() {
  using B = Block<Exec, BlockShape<BX, BY, BZ>>;
  Kokkos::View<int*, Exec::memory_space> visits("visits", EX * EY * EZ), in_box("in_box", BX * BY * BZ);
  const auto p = LaunchParams(Dim3(1), Dim3(BX, BY, BZ));
  launch(Exec(), "test::static_box", p, KOKKOS_LAMBDA(const B& b) {
    b.block_stride(Box<EX, EY, EZ>(), [&](int x, int y, int z) { visits(x + EX * (y + EY * z)) += 1; });
    sync_threads(b);
    b.threads(Box<(BX > 1 ? BX - 1 : 1), BY, BZ>(), [&](const Thread& t) { in_box(t.rank) += 1; });
  });
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits);
  auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), in_box);
  long bad = 0;
  for (int i = 0; i < EX * EY * EZ; ++i) bad += v(i) != 1;
  for (int z = 0; z < BZ; ++z)
    for (int y = 0; y < BY; ++y)
      for (int x = 0; x < BX; ++x) bad += t(x + BX * (y + BY * z)) != ((x < (BX > 1 ? BX - 1 : 1)) ? 1 : 0);
  INFO("block " << BX << "x" << BY << "x" << BZ << ", box " << EX << "x" << EY << "x" << EZ);
  CHECK(bad == 0);
}
}  // namespace

TEST_CASE("static boxes: block_stride visits each point once, threads(Box) the box", "[static_shape]") {
  box_cover<32, 8, 1, 34, 10, 1>();  // a halo tile of radius 1: 340 points over 256 threads
  box_cover<16, 4, 4, 18, 6, 6>();   // 3-D
  box_cover<64, 1, 1, 64, 1, 1>();   // exactly one point a thread
  box_cover<5, 5, 1, 4, 4, 4>();     // fewer points a z-plane than threads, a remainder
  box_cover<7, 3, 1, 2, 1, 1>();     // fewer points than threads
}

TEST_CASE("a static shape that is not the launch's block is refused before the launch", "[static_shape]") {
  using B       = Block<Exec, BlockShape<16, 16>>;
  Kokkos::View<int*, Exec::memory_space> ran("ran", 1);
  const auto p  = LaunchParams(Dim3(4), Dim3(16, 8));
  std::string what;
  try {
    launch(Exec(), "test::static_mismatch", p, KOKKOS_LAMBDA(const B& b) {
      b.threads([&](const Thread& t) { if (t.rank == 0) ran(0) = 1; });
    });
  } catch (const LaunchError& e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("test::static_mismatch") != std::string::npos);
  CHECK(what.find("BlockShape<16, 16, 1>") != std::string::npos);
  CHECK(what.find("(16, 8, 1)") != std::string::npos);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ran);
  CHECK(h(0) == 0);
}

TEST_CASE("a static shape's launch bounds come from the shape", "[static_shape]") {
  const auto body = KOKKOS_LAMBDA(const Block2&) {};
  using F         = std::decay_t<decltype(body)>;
  static_assert(std::is_same<detail::body_shape_t<F>, BlockShape<8, 4>>::value, "the body's shape is deduced");
  using Bn = detail::body_bounds_t<NoLaunchBounds, F>;
  static_assert(Bn::max_threads == 32 && Bn::min_blocks == 1, "no bounds given: the shape's threads");
  using Bg = detail::body_bounds_t<LaunchBounds<64, 4>, F>;
  static_assert(Bg::max_threads == 64 && Bg::min_blocks == 4, "bounds given are kept");
  const auto generic = KOKKOS_LAMBDA(const auto&) {};
  static_assert(std::is_same<detail::body_shape_t<std::decay_t<decltype(generic)>>, RuntimeShape>::value,
                "a generic body runs on a run-time shape");
  (void)body, (void)generic;
  SUCCEED();
}

TEST_CASE("SharedArray<T[E0][E1][E2]>: row-major, the same storage as the flat array", "[static_shape]") {
  Kokkos::View<int*, Exec::memory_space> out("out", 2 * 105);
  using B      = Block<Exec, BlockShape<7, 5, 3>>;
  const auto p = LaunchParams(Dim3(1), B::shape_type()).uses<Flat>();
  launch(Exec(), "test::shared_md", p, KOKKOS_LAMBDA(const B& b) {
    Flat s(b);
    b.threads([&](const Thread& t) { s(t.z, t.y, t.x) = 1 + t.x + 10 * t.y + 100 * t.z; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      out(t.rank)       = s[t.rank];                    // flat, C's layout of int[3][5][7]
      out(105 + t.rank) = s(2 - t.z, 4 - t.y, 6 - t.x);  // another thread's element
    });
  });
  auto h   = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  long bad = 0;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 7; ++x) {
        const int r = x + 7 * (y + 5 * z);
        bad += h(r) != 1 + x + 10 * y + 100 * z;
        bad += h(105 + r) != 1 + (6 - x) + 10 * (4 - y) + 100 * (2 - z);
      }
  CHECK(bad == 0);
}

namespace {
// A pool of `bytes` written and read back by a static-shape block of 128 threads.
template <ScratchFallback... M>
void static_pool(const Kokkos::View<int*, Exec::memory_space>& out, const LaunchParams& p) {
  using B = Block<Exec, BlockShape<128>>;
  launch<NoLaunchBounds, M...>(Exec(), "test::static_pool", p, KOKKOS_LAMBDA(const B& b) {
    auto d        = DynamicSharedArray<int>::get(b);
    const int n   = static_cast<int>(b.dynamic_shared_bytes() / sizeof(int));
    b.block_stride(n, [&](int i) { d[i] = i; });
    sync_threads(b);
    b.once([&]() { out(b.block_rank()) = d[n - 1] == n - 1 ? 1 : 0; });
  });
}
}  // namespace

TEST_CASE("a static-shape body is compiled for level 0 alone unless the call names level 1", "[static_shape]") {
  const auto avail        = plan_launch<Exec>(LaunchParams(Dim3(3), Dim3(128))).level0_max;
  const std::size_t bytes = (avail + 4096) / 4 * 4;
  const auto p = LaunchParams(Dim3(3), Dim3(128)).shared_mem_bytes(bytes).fallback(ScratchFallback::level1);
  Kokkos::View<int*, Exec::memory_space> out("out", 3);
  CHECK_THROWS_WITH(static_pool<>(out, p), Catch::Matchers::ContainsSubstring("ScratchFallback::level1"));
  static_pool<ScratchFallback::level1>(out, p);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 3; ++i) CHECK(h(i) == 1);
  Kokkos::deep_copy(out, 0);
  static_pool<>(out, LaunchParams(Dim3(3), Dim3(128)).shared_mem_bytes(1024));
  h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int i = 0; i < 3; ++i) CHECK(h(i) == 1);
}

TEST_CASE("LaunchParams(grid): the block is the body's static shape", "[static_shape]") {
  using B = Block<Exec, BlockShape<16, 4>>;
  Kokkos::View<int*, Exec::memory_space> seen("seen", 3 * 64);
  const auto p = LaunchParams(Dim3(3));
  launch(Exec(), "test::block_from_body", p, KOKKOS_LAMBDA(const B& b) {
    PerThread acc(b, 1);  // PerThread<int, B>: T from the initial value, the room from the shape
    b.threads([&](const Thread& t) { acc(t) += t.rank; });
    sync_threads(b);
    b.threads([&](const Thread& t) { seen(64 * b.block_rank() + t.rank) = acc(t) + 1000 * b.block_dim().y; });
  });
  auto h   = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), seen);
  long bad = 0;
  for (int i = 0; i < 3 * 64; ++i) bad += h(i) != 1 + i % 64 + 4000;
  CHECK(bad == 0);
  // A body on a run-time shape, and a plan without a launch, have no block to take: refused.
  CHECK_THROWS_WITH(launch(Exec(), "test::block_from_runtime", p, KOKKOS_LAMBDA(const Block<Exec>&) {}),
                    Catch::Matchers::ContainsSubstring("LaunchParams(grid) has no block"));
  CHECK_THROWS_AS(plan_launch<Exec>(p), LaunchError);
}
