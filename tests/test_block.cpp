// SPDX-License-Identifier: BSD-3-Clause
// Logical threads and barriers: a multi-phase block kernel whose per-thread
// state lives across sync_threads, against a sequential reference, for 1-D,
// 2-D and 3-D blocks including non-power-of-two shapes.
#include "test_support.hpp"

#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/warp.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <vector>

using namespace scratchkit;

namespace {

using Shared = SharedArray<long long, 1024>;

// Four phases. Each phase reads what *other* threads wrote in the phase
// before, so a missing or misplaced barrier, a thread run twice or not at
// all, or per-thread state lost between phases changes the result.
template <class Exec>
void phases(const Kokkos::View<long long**, typename Exec::memory_space>& out,
            const Kokkos::View<int**, typename Exec::memory_space>& coords, Dim3 grid, Dim3 block) {
  using B        = Block<Exec>;
  const auto p   = LaunchParams(grid, block).uses<Shared>().shared_mem_bytes(1024 * sizeof(long long));
  launch(Exec(), "test::phases", p, KOKKOS_LAMBDA(const B& b) {
    Shared s(b);
    auto d = DynamicSharedArray<long long>::get(b);
    PerThread<long long, B> mine(b);
    const int n   = b.num_threads();
    const Dim3 bi = b.block_idx();
    const int blk = bi.x + b.grid_dim().x * (bi.y + b.grid_dim().y * bi.z);
    b.threads([&](const Thread& t) {  // phase 1
      mine(t)     = 7LL * t.rank + 1000LL * blk + 1;
      s[t.rank]   = 3 * mine(t) + t.x + 10 * t.y + 100 * t.z;
      coords(blk, t.rank) = t.x + 1000 * t.y + 1000000 * t.z;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // phase 2
      mine(t) += s[(t.rank + 1) % n];
      d[t.rank] = mine(t) * 5 - t.rank;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // phase 3: overwrite s, which phase 2 read
      mine(t) += d[n - 1 - t.rank];
      s[t.rank] = mine(t) - 2 * d[(t.rank + 3) % n];
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // phase 4
      out(blk, t.rank) = s[(t.rank * 5 + 3) % n] + mine(t);
    });
  });
}

// The same phases, one at a time, in plain sequential code.
std::vector<long long> reference(int blk, Dim3 block) {
  const int n = static_cast<int>(block.count());
  std::vector<long long> mine(n), s(n), d(n), out(n);
  for (int r = 0; r < n; ++r) {
    const int x = r % block.x, y = (r / block.x) % block.y, z = r / (block.x * block.y);
    mine[r] = 7LL * r + 1000LL * blk + 1;
    s[r]    = 3 * mine[r] + x + 10 * y + 100 * z;
  }
  for (int r = 0; r < n; ++r) {
    mine[r] += s[(r + 1) % n];
    d[r] = mine[r] * 5 - r;
  }
  std::vector<long long> s2(n);
  for (int r = 0; r < n; ++r) {
    mine[r] += d[n - 1 - r];
    s2[r] = mine[r] - 2 * d[(r + 3) % n];
  }
  for (int r = 0; r < n; ++r) out[r] = s2[(r * 5 + 3) % n] + mine[r];
  return out;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Per-thread state lives across sync_threads", "[layer][block][sync]", test::Spaces) {
  using Exec = TestType;
  const Dim3 grid(3, 2, 2);
  const Dim3 shapes[] = {Dim3(256),     Dim3(1),       Dim3(7),       Dim3(1000),   Dim3(1024),
                         Dim3(16, 16),  Dim3(5, 3),    Dim3(31, 33),  Dim3(8, 4, 2), Dim3(3, 5, 7),
                         Dim3(1, 1, 64), Dim3(6, 6, 6), Dim3(10, 10, 10)};
  for (const Dim3 block : shapes) {
    CAPTURE(block.x, block.y, block.z, Exec::name());
    const int n      = static_cast<int>(block.count());
    const int blocks = static_cast<int>(grid.count());
    Kokkos::View<long long**, typename Exec::memory_space> out("out", blocks, n);
    Kokkos::View<int**, typename Exec::memory_space> coords("coords", blocks, n);
    Kokkos::deep_copy(out, test::poison<long long>());
    phases<Exec>(out, coords, grid, block);
    auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), coords);
    for (int blk = 0; blk < blocks; ++blk) {
      const auto ref = reference(blk, block);
      int bad = 0, bad_coord = 0;
      for (int r = 0; r < n; ++r) {
        bad += h(blk, r) != ref[r];
        const int x = r % block.x, y = (r / block.x) % block.y, z = r / (block.x * block.y);
        bad_coord += hc(blk, r) != x + 1000 * y + 1000000 * z;
      }
      CAPTURE(blk);
      CHECK(bad == 0);
      CHECK(bad_coord == 0);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("PerThread<T[N]>: each thread's items live across sync_threads", "[layer][block][sync]",
                        test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  constexpr int N = 3;
  using Items = PerThread<long long[N], B>;
  // Host backends: item k of consecutive ranks is consecutive (a structure of arrays); a GPU thread's own.
  STATIC_REQUIRE(Items::stride == (B::is_gpu ? 1 : 1024));
  const Dim3 grid(3, 2);
  for (const Dim3 block : {Dim3(1), Dim3(37), Dim3(256), Dim3(1024), Dim3(5, 3), Dim3(8, 4, 2)}) {
    CAPTURE(block.x, block.y, block.z, Exec::name());
    const int n = static_cast<int>(block.count()), blocks = static_cast<int>(grid.count());
    Kokkos::View<long long***, typename Exec::memory_space> out("out", blocks, n, N);
    Kokkos::deep_copy(out, test::poison<long long>());
    const auto p = LaunchParams(grid, block).uses<Shared>();
    launch(Exec(), "test::per_thread_items", p, KOKKOS_LAMBDA(const B& b) {
      Shared s(b);
      Items v(b, 5);
      const int blk = b.block_idx().x + b.grid_dim().x * b.block_idx().y, m = b.num_threads();
      b.threads([&](const Thread& t) {
        auto row = v(t);  // a copy of the row refers to the same items
        for (int k = 0; k < N; ++k) row[k] += 10LL * t.rank + k + 1000LL * blk;
        s[t.rank] = v(t)[N - 1];
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        for (int k = 0; k < N; ++k) v(t)[k] += (k + 1) * s[(t.rank + 1) % m];
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        for (int k = 0; k < N; ++k) out(blk, t.rank, k) = v(t)[k];
      });
    });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int blk = 0; blk < blocks; ++blk)
      for (int r = 0; r < n; ++r) {
        const long long next = 5 + 10LL * ((r + 1) % n) + (N - 1) + 1000LL * blk;
        for (int k = 0; k < N; ++k) bad += h(blk, r, k) != 5 + 10LL * r + k + 1000LL * blk + (k + 1) * next;
      }
    CHECK(bad == 0);
  }
}

TEMPLATE_LIST_TEST_CASE("Block indices cover a 3-D grid once each", "[layer][block]", test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  const Dim3 grid(5, 3, 2);
  Kokkos::View<int***, typename Exec::memory_space> hits("hits", 2, 3, 5);
  launch(Exec(), "test::grid", LaunchParams(grid, Dim3(2, 3)), KOKKOS_LAMBDA(const B& b) {
    b.once([&]() { Kokkos::atomic_add(&hits(b.block_idx().z, b.block_idx().y, b.block_idx().x), 1); });
  });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hits);
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x) CHECK(h(z, y, x) == 1);
}

namespace {

// Records, for every logical thread, which team member ran it, and the team size.
template <class Exec>
void who_ran(const Kokkos::View<int**, typename Exec::memory_space>& member,
             const Kokkos::View<int*, typename Exec::memory_space>& team_size, Dim3 block) {
  using B = Block<Exec>;
  launch(Exec(), "test::who_ran", LaunchParams(Dim3(2), block), KOKKOS_LAMBDA(const B& b) {
    b.threads([&](const Thread& t) {
      Kokkos::atomic_add(&member(b.block_idx().x, t.rank), 1 + 1000 * b.team().team_rank());
    });
    sync_threads(b);
    b.once([&]() { team_size(b.block_idx().x) = b.team().team_size(); });
  });
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Each logical thread runs exactly once, spread over the team", "[layer][block]",
                        test::Spaces) {
  using Exec = TestType;
  for (const Dim3 block : {Dim3(256), Dim3(7, 3), Dim3(4, 4, 4), Dim3(1)}) {
    const int n = static_cast<int>(block.count());
    Kokkos::View<int**, typename Exec::memory_space> member("member", 2, n);
    Kokkos::View<int*, typename Exec::memory_space> ts("team_size", 2);
    who_ran<Exec>(member, ts, block);
    auto hm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), member);
    auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ts);
    const int team = ht(0), W = warp_size<Exec>();
    CAPTURE(Exec::name(), block.x, block.y, block.z, team, W, Exec().concurrency());
    if (detail::is_gpu_space<Exec>::value) {
      CHECK(team == n);  // one hardware thread per logical thread
    } else {
      CHECK(team >= 1);
      CHECK(team <= n);
      CHECK(team <= (n + W - 1) / W);
      if (Exec().concurrency() > 1 && n > W) CHECK(team > 1);  // host teams really share the work
    }
    int bad = 0;
    for (int blk = 0; blk < 2; ++blk)
      for (int r = 0; r < n; ++r) {
        const int v = hm(blk, r);
        bad += (v % 1000) != 1;                                           // ran exactly once
        if (!detail::is_gpu_space<Exec>::value) bad += (v / 1000) != (r / W) % team;  // members own warps
      }
    CHECK(bad == 0);
  }
}

namespace {

/// Sets the host warp size for one scope and restores the run's (SCRATCHKIT_TEST_WARP_SIZE) after it.
struct HostWarpSize {
  int saved = host_warp_size();
  explicit HostWarpSize(int lanes) { set_host_warp_size(lanes); }
  ~HostWarpSize() { set_host_warp_size(saved); }
};

// Every thread's b.warp_size() and the lane and width warp_of gives it.
template <class Exec>
void warp_layout(const Kokkos::View<int**, typename Exec::memory_space>& out, int n) {
  using B = Block<Exec>;
  launch(Exec(), "test::warp_layout", LaunchParams(Dim3(1), Dim3(n)), KOKKOS_LAMBDA(const B& b) {
    b.threads([&](const Thread& t) {
      const detail::WarpOf w = detail::warp_of(b, t);
      out(0, t.rank)         = b.warp_size();
      out(1, t.rank)         = w.lane;
      out(2, t.rank)         = w.width;
    });
  });
  Exec().fence();
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Host backends run blocks with the warp size chosen, GPUs with their hardware's",
                        "[layer][block][warp]", test::Spaces) {
  using Exec = TestType;
  CHECK_THROWS_AS(set_host_warp_size(48), UnsupportedError);
  CHECK_THROWS_AS(set_host_warp_size(0), UnsupportedError);
  for (const int lanes : {32, 64}) {
    const HostWarpSize chosen(lanes);
    const int want = detail::is_gpu_space<Exec>::value ? Block<Exec>::max_warp_size : lanes;
    CAPTURE(Exec::name(), lanes, want);
    CHECK(warp_size<Exec>() == want);
    CHECK(Block<Exec>::min_warp_size <= want);
    CHECK(want <= Block<Exec>::max_warp_size);
    for (const int n : {1, 31, 32, 33, 64, 65, 100, 256}) {
      Kokkos::View<int**, typename Exec::memory_space> out("out", 3, n);
      warp_layout<Exec>(out, n);
      auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      int bad = 0;
      for (int r = 0; r < n; ++r) {
        const int base = r / want * want;
        bad += h(0, r) != want;
        bad += h(1, r) != r - base;
        bad += h(2, r) != (n - base < want ? n - base : want);
      }
      CAPTURE(n);
      CHECK(bad == 0);
    }
  }
#if defined(KOKKOS_ENABLE_CUDA)
  STATIC_CHECK(Block<Kokkos::Cuda>::max_warp_size == 32);
#endif
#if defined(KOKKOS_ENABLE_HIP) && (defined(KOKKOS_ARCH_AMD_GFX90A) || defined(KOKKOS_ARCH_AMD_GFX942))
  STATIC_CHECK(Block<Kokkos::HIP>::max_warp_size == 64);
#endif
}

namespace {

// For each logical thread: how often a phase over `box` ran it (units; 100 more where its
// coordinates were wrong), then 1000 x (1 + what the box phase wrote to its scratch slot).
template <class Exec>
void box_phases(const Kokkos::View<int**, typename Exec::memory_space>& out, Dim3 block, Dim3 box) {
  using B = Block<Exec>;
  using A = SharedArray<int, 512>;
  launch(Exec(), "test::box_phases", LaunchParams(Dim3(2, 1, 1), block).uses<A>(), KOKKOS_LAMBDA(const B& b) {
    A a(b);
    const int blk = b.block_idx().x;
    b.threads([&](const Thread& t) {
      out(blk, t.rank) = 0;
      a[t.rank]        = -1;
    });
    sync_threads(b);
    b.threads(box, [&](const Thread& t) {
      const bool right = t.rank == t.x + b.block_dim().x * (t.y + b.block_dim().y * t.z) &&
                         t.gx == blk * b.block_dim().x + t.x && t.gy == t.y && t.gz == t.z;
      out(blk, t.rank) += 1 + (right ? 0 : 100);
      a[t.rank] = t.x + 10 * t.y + 100 * t.z;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { out(blk, t.rank) += 1000 * (a[t.rank] + 1); });
  });
  Exec().fence();
}

// A 3 x 4 x 5 shape at offset 7 of a scratch array: the element (i, j, k) is array[7 + (i * 4 + j) * 5 + k].
template <class Exec>
void shaped(const Kokkos::View<int*, typename Exec::memory_space>& out) {
  using B = Block<Exec>;
  using A = SharedArray<int, 80>;
  launch(Exec(), "test::shaped", LaunchParams(Dim3(1), Dim3(5, 4, 3)).uses<A>(), KOKKOS_LAMBDA(const B& b) {
    A a(b);
    const auto s = a.shape<3, 4, 5>(7);
    b.threads([&](const Thread& t) {
      a[t.rank] = -1;
      if (t.rank < 20) a[60 + t.rank] = -1;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { s(t.z, t.y, t.x) = t.x + 10 * t.y + 100 * t.z; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      out(t.rank) = a[t.rank];
      if (t.rank < 20) out(60 + t.rank) = a[60 + t.rank];
    });
  });
  Exec().fence();
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("threads(box, f) runs the logical threads inside the box once each, and no other",
                        "[layer][block][box]", test::Spaces) {
  using Exec = TestType;
  struct Case { Dim3 block, box; };
  for (const Case c : {Case{Dim3(5, 5), Dim3(4, 4)}, Case{Dim3(5, 5), Dim3(5, 4)}, Case{Dim3(4, 4, 4), Dim3(3, 4, 2)},
                       Case{Dim3(64), Dim3(37)}, Case{Dim3(7, 3), Dim3(7, 3)}, Case{Dim3(8, 8), Dim3(0, 8)},
                       Case{Dim3(16, 16, 2), Dim3(16, 9, 1)}}) {
    const int n = static_cast<int>(c.block.count());
    CAPTURE(Exec::name(), c.block.x, c.block.y, c.block.z, c.box.x, c.box.y, c.box.z);
    Kokkos::View<int**, typename Exec::memory_space> out("out", 2, n);
    box_phases<Exec>(out, c.block, c.box);
    auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int blk = 0; blk < 2; ++blk)
      for (int r = 0; r < n; ++r) {
        const int x = r % c.block.x, y = (r / c.block.x) % c.block.y, z = r / (c.block.x * c.block.y);
        const bool in = x < c.box.x && y < c.box.y && z < c.box.z;
        const int want = in ? 1 + 1000 * (x + 10 * y + 100 * z + 1) : 0;
        bad += h(blk, r) != want;
      }
    CHECK(bad == 0);
  }
}

namespace {
// block_stride over `ext` in blocks of `block` threads: each point of the box adds 1 to its slot of
// `out` (block, point) and writes its coordinates to a scratch slot; a second phase, after the
// barrier, adds 1000 x (1 + the coordinates read back) for every point (by a block-stride loop too).
template <class Exec>
void strided_cover(const Kokkos::View<int**, typename Exec::memory_space>& out, Dim3 block, Dim3 ext) {
  using B = Block<Exec>;
  using A = SharedArray<int, 1024>;
  launch(Exec(), "test::block_stride", LaunchParams(Dim3(2, 1, 1), block).uses<A>(), KOKKOS_LAMBDA(const B& b) {
    A a(b);
    const int blk = b.block_idx().x;
    b.block_stride(ext, [&](int x, int y, int z) {
      const int i = x + ext.x * (y + ext.y * z);
      out(blk, i) += 1;
      a[i] = x + 10 * y + 100 * z;
    });
    sync_threads(b);
    b.block_stride(static_cast<int>(ext.count()), [&](int i) { out(blk, i) += 1000 * (a[i] + 1); });
  });
  Exec().fence();
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("block_stride(extent, f) covers every point of the box once, larger or smaller than the block",
                        "[layer][block][block_stride]", test::Spaces) {
  using Exec = TestType;
  struct Case { Dim3 block, ext; };
  for (const Case c : {Case{Dim3(32, 4, 4), Dim3(34, 6, 5)}, Case{Dim3(64), Dim3(1000)}, Case{Dim3(8, 8), Dim3(10, 10)},
                       Case{Dim3(16, 16), Dim3(5, 3)}, Case{Dim3(7, 3), Dim3(9, 5, 3)}, Case{Dim3(32), Dim3(0, 4)},
                       Case{Dim3(128), Dim3(1, 1, 1)}}) {
    const int n = static_cast<int>(c.ext.count());
    CAPTURE(Exec::name(), c.block.x, c.block.y, c.block.z, c.ext.x, c.ext.y, c.ext.z);
    Kokkos::View<int**, typename Exec::memory_space> out("out", 2, n > 0 ? n : 1);
    strided_cover<Exec>(out, c.block, c.ext);
    auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int blk = 0; blk < 2; ++blk)
      for (int i = 0; i < n; ++i) {
        const int x = i % c.ext.x, y = (i / c.ext.x) % c.ext.y, z = i / (c.ext.x * c.ext.y);
        bad += h(blk, i) != 1 + 1000 * (x + 10 * y + 100 * z + 1);
      }
    CHECK(bad == 0);
  }
}

TEMPLATE_LIST_TEST_CASE("SharedArray::shape views the array row-major from its offset", "[layer][shared_array][shape]",
                        test::Spaces) {
  using Exec = TestType;
  Kokkos::View<int*, typename Exec::memory_space> out("out", 80);
  shaped<Exec>(out);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::vector<int> want(80, -1);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) want[7 + (i * 4 + j) * 5 + k] = k + 10 * j + 100 * i;
  int bad = 0;
  for (int e = 0; e < 80; ++e) bad += h(e) != want[e];
  CHECK(bad == 0);
  using S = SharedShape<SharedArray<int, 80>, 3, 4, 5>;
  static_assert(S::rank == 3 && S::extent(0) == 3 && S::extent(2) == 5, "SharedShape: rank and extents");
}

namespace {

// Every logical thread of every block records how often it ran and whether its Thread agrees with
// its rank and block: many blocks, so that host backends run one member per block (host_rows).
template <class Exec>
void thread_coordinates(const Kokkos::View<int*, typename Exec::memory_space>& out, Dim3 grid, Dim3 block) {
  using B = Block<Exec>;
  launch(Exec(), "test::thread_coordinates", LaunchParams(grid, block), KOKKOS_LAMBDA(const B& b) {
    const Dim3 g0 = b.grid_origin(), bd = b.block_dim();
    b.threads([&](const Thread& t) {
      const bool ok = t.rank == t.x + bd.x * (t.y + bd.y * t.z) && t.gx == g0.x + t.x && t.gy == g0.y + t.y &&
                      t.gz == g0.z + t.z && t.x < bd.x && t.y < bd.y && t.z < bd.z;
      Kokkos::atomic_add(&out(b.block_rank() * b.num_threads() + t.rank), ok ? 1 : 1000);
    });
  });
  Exec().fence();
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("2-D and 3-D blocks of a large grid run each thread once with its own coordinates",
                        "[layer][block]", test::Spaces) {
  using Exec = TestType;
  for (const Dim3 block : {Dim3(32, 8), Dim3(7, 3), Dim3(32, 4, 4), Dim3(5, 3, 2), Dim3(1, 9)}) {
    const Dim3 grid(6, 5, 3);
    const int n = static_cast<int>(block.count() * grid.count());
    CAPTURE(Exec::name(), block.x, block.y, block.z);
    Kokkos::View<int*, typename Exec::memory_space> out("out", n);
    thread_coordinates<Exec>(out, grid, block);
    auto h  = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h(i) != 1;
    CHECK(bad == 0);
  }
}
