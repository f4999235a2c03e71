// SPDX-License-Identifier: BSD-3-Clause
// One kernel with one mistake that only the kernel can see, run in a process
// of its own (tests/test_mistakes.cpp runs it and reads its output): the
// check must stop the program with a message naming the values, on the host
// and, in this bounds-checked build, on a GPU.
//
//   scratchkit_mistake_case <case> host|device
//
// Exit 0 with "NOT CAUGHT" if the mistake ran through; 77 where `device` has
// no GPU execution space in this Kokkos.
#define SCRATCHKIT_ENABLE_BOUNDS_CHECK 1  // the GPU checks are the bounds-checked build's
#include <scratchkit/scratchkit.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#if defined(__unix__)
#include <sys/resource.h>
#endif
#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace {

using namespace scratchkit;

// A partition of the dynamic pool past its end: the pool is sized by hand
// (bytes, not the layout), so nothing is checked before the launch.
template <class Exec>
void partition_past_pool() {
  using B = Block<Exec>;
  DynamicLayout layout;
  const auto tile = layout.partition<float>(64);
  const auto w    = layout.partition<float>(5);  // bytes [256, 276)
  Kokkos::View<float*, typename Exec::memory_space> out("out", 64);
  launch(Exec(), "mistake::partition_past_pool", LaunchParams(Dim3(2), Dim3(64)).shared_mem_bytes(64 * sizeof(float)),
         KOKKOS_LAMBDA(const B& b) {
           const auto t = tile.get(b), ws = w.get(b);
           b.threads([&](const Thread& th) { t[th.rank] = ws[th.rank % 5]; });
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.rank) = t[th.rank]; });
         });
}

// A static array the kernel constructs but the launch does not plan.
template <class Exec>
void array_missing_from_uses() {
  using B = Block<Exec>;
  using A = SharedArray<float, 64>;
  using C = SharedArray<int, 32>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 64);
  launch(Exec(), "mistake::array_missing_from_uses", LaunchParams(Dim3(2), Dim3(64)).uses<A>(),
         KOKKOS_LAMBDA(const B& b) {
           A a(b);
           C c(b);  // not in uses<A>()
           b.threads([&](const Thread& th) { a[th.rank] = 1.0f, c[th.rank % 32] = 2; });
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.rank) = a[th.rank] + c[th.rank % 32]; });
         });
}

// A PerThread whose MaxThreads is below the block's threads.
template <class Exec>
void per_thread_too_small() {
  using B = Block<Exec>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 128);
  launch(Exec(), "mistake::per_thread_too_small", LaunchParams(Dim3(1), Dim3(128)), KOKKOS_LAMBDA(const B& b) {
    PerThread<float, B, 64> v(b, 1.0f);
    sync_threads(b);
    b.threads([&](const Thread& th) { out(th.rank) = v(th); });
  });
}

// An index past a SharedArray (bounds-checked builds only).
template <class Exec>
void shared_index_out_of_bounds() {
  using B = Block<Exec>;
  using A = SharedArray<float, 32>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 64);
  launch(Exec(), "mistake::shared_index_out_of_bounds", LaunchParams(Dim3(1), Dim3(64)).uses<A>(),
         KOKKOS_LAMBDA(const B& b) {
           A a(b);
           b.threads([&](const Thread& th) { a[th.rank] = 1.0f; });  // 64 threads, 32 elements
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.rank) = a[th.rank % 32]; });
         });
}

// A phase over a box that does not fit the block (4 x 4 box, 5 x 3 block).
template <class Exec>
void threads_box_past_block() {
  using B = Block<Exec>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 16);
  launch(Exec(), "mistake::threads_box_past_block", LaunchParams(Dim3(1), Dim3(5, 3)), KOKKOS_LAMBDA(const B& b) {
    b.threads({4, 4}, [&](const Thread& th) { out(th.x + 4 * th.y) = 1.0f; });
  });
}

// A shape index past its extent: (0, 5) in a 4 x 5 shape (element 5 is inside the array).
template <class Exec>
void shape_index_out_of_bounds() {
  using B = Block<Exec>;
  using A = SharedArray<float, 20>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 1);
  launch(Exec(), "mistake::shape_index_out_of_bounds", LaunchParams(Dim3(1), Dim3(1)).uses<A>(),
         KOKKOS_LAMBDA(const B& b) {
           A a(b);
           const auto m = a.shape<4, 5>();
           b.threads([&](const Thread& th) { m(th.rank, 5) = 1.0f; });
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.rank) = a[th.rank]; });
         });
}

// A multi-dimensional array's index past its extent: (0, 5) in a float[4][5] (element 5 is inside
// the array), on a static shape.
template <class Exec>
void shared_md_index_out_of_bounds() {
  using B = Block<Exec, BlockShape<1>>;
  using A = SharedArray<float[4][5]>;
  Kokkos::View<float*, typename Exec::memory_space> out("out", 1);
  launch(Exec(), "mistake::shared_md_index_out_of_bounds", LaunchParams(Dim3(1)).uses<A>(),
         KOKKOS_LAMBDA(const B& b) {
           A a(b);
           b.threads([&](const Thread& th) { a(th.rank, 5) = 1.0f; });
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.rank) = a[th.rank]; });
         });
}

// A halo tile read one point past its halo: x = 9 in a tile of x in [-1, 9).
template <class Exec>
void halo_tile_index_out_of_bounds() {
  using B    = Block<Exec>;
  using Tile = HaloTile2d<float, 8, 4>;
  Kokkos::View<float**, typename Exec::memory_space> in("in", 4, 8), out("out", 4, 8);
  launch(Exec(), "mistake::halo_tile_index_out_of_bounds", LaunchParams(Dim3(1), Dim3(8, 4)).uses<Tile>(),
         KOKKOS_LAMBDA(const B& b) {
           Tile tile(b);
           tile.load(b, in, Boundary::zero);
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.y, th.x) = tile(th.y, th.x + 2); });
         });
}

// A halo tile larger than the scratch the launch planned (the tile's 2-D box, planned for 8 x 4 points).
template <class Exec>
void halo_tile_past_plan() {
  using B = Block<Exec>;
  Kokkos::View<float**, typename Exec::memory_space> in("in", 4, 8), out("out", 4, 8);
  launch(Exec(), "mistake::halo_tile_past_plan", LaunchParams(Dim3(1), Dim3(8, 4)).uses<SharedArray<float, 32>>(),
         KOKKOS_LAMBDA(const B& b) {
           HaloTile2d<float, 8, 4> tile(b);  // 10 x 6 floats
           tile.load(b, in, Boundary::zero);
           sync_threads(b);
           b.threads([&](const Thread& th) { out(th.y, th.x) = tile(th.y, th.x); });
         });
}

// The message of a failed check names the kernel and block of the FailSite the thread runs
// (host code; set here by hand, as a launch sets it around a block's body).
inline void fail_site_named() {
#if !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
  const detail::FailSiteScope site("mistake::fail_site_named", 3, 1, 0);
  SCRATCHKIT_FAIL("scratchkit: SharedArray index %lld out of bounds [0, %lld)", 40LL, 32LL);
#endif
}

template <class Exec>
bool run(const std::string& which) {
  if (which == "partition_past_pool")
    partition_past_pool<Exec>();
  else if (which == "array_missing_from_uses")
    array_missing_from_uses<Exec>();
  else if (which == "per_thread_too_small")
    per_thread_too_small<Exec>();
  else if (which == "shared_index_out_of_bounds")
    shared_index_out_of_bounds<Exec>();
  else if (which == "threads_box_past_block")
    threads_box_past_block<Exec>();
  else if (which == "shape_index_out_of_bounds")
    shape_index_out_of_bounds<Exec>();
  else if (which == "shared_md_index_out_of_bounds")
    shared_md_index_out_of_bounds<Exec>();
  else if (which == "halo_tile_index_out_of_bounds")
    halo_tile_index_out_of_bounds<Exec>();
  else if (which == "halo_tile_past_plan")
    halo_tile_past_plan<Exec>();
  else if (which == "fail_site_named")
    fail_site_named();
  else
    return false;
  Exec().fence();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || (std::strcmp(argv[2], "host") != 0 && std::strcmp(argv[2], "device") != 0)) {
    std::fprintf(stderr, "usage: %s <case> host|device\n", argv[0]);
    return 2;
  }
  // The message may come from the device's printf, which the CUDA runtime
  // writes through stdout; unbuffered, it reaches the pipe even when the
  // failed launch ends the program.
  std::setvbuf(stdout, nullptr, _IONBF, 0);
#if defined(__unix__)
  // Every case stops the program on purpose (abort, or a trap on the GPU):
  // no core file, which for a process holding a CUDA context can take a long
  // time to write where the machine enables core dumps.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
#endif
#if defined(__linux__)
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // nor a piped core_pattern handler
#endif
  const bool device = std::strcmp(argv[2], "device") == 0;
  if (device && !detail::is_gpu_space<Kokkos::DefaultExecutionSpace>::value) {
    std::printf("SKIPPED: this Kokkos has no GPU execution space\n");
    return 77;
  }
  Kokkos::ScopeGuard guard;
  bool known = false;
  try {
    known = device ? run<Kokkos::DefaultExecutionSpace>(argv[1]) : run<Kokkos::DefaultHostExecutionSpace>(argv[1]);
  } catch (const std::exception& e) {
    // A GPU check traps; Kokkos reports the failed kernel at the fence.
    std::printf("the kernel failed: %s\n", e.what());
    return 3;
  }
  if (!known) {
    std::fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
  }
  std::printf("NOT CAUGHT: %s ran on %s\n", argv[1], argv[2]);
  std::fflush(stdout);
  return 0;
}
