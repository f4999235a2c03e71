// SPDX-License-Identifier: BSD-3-Clause
/// The scratch checker's test kernels on the layer; tests/checker_twins.cu holds
/// their CUDA twins (same shapes, same accesses) for racecheck, initcheck and Nsight Compute.
#pragma once

#include <scratchkit/scratchkit.hpp>

#include <string>
#include <vector>

namespace scratchkit {
namespace test {

/// One test kernel: its name (as the twin program spells it) and its launch under the checker.
struct CheckerCase {
  const char* name;
  ScratchCheckReport (*run)(bool print);
};

template <class Exec>
struct CheckerKernels {
  using B  = Block<Exec>;
  using MS = typename Exec::memory_space;

  static LaunchParams checked(LaunchParams p, ScratchCheckReport* rep, bool print) {
    return p.check_scratch(ScratchCheck().into(rep).quiet(!print).keep(1 << 20));  // every finding, as data
  }

  /// 256 threads write s[t] and read s[t + 1]; without the barrier between: 256 races, one per element.
  static ScratchCheckReport neighbour_read(bool barrier, const char* label, bool print) {
    using S = SharedArray<float, 256>;
    Kokkos::View<float*, MS> out("out", 256);
    ScratchCheckReport rep;
    launch(Exec(), label, checked(LaunchParams(Dim3(1), Dim3(256)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s[t.rank] = float(t.rank); });
             if (barrier) sync_threads(b);  // every thread takes the same branch
             b.threads([&](const Thread& t) { out(t.rank) = s[(t.rank + 1) % 256]; });
           });
    return rep;
  }
  static ScratchCheckReport missing_barrier(bool print) { return neighbour_read(false, "checker::missing_barrier", print); }
  static ScratchCheckReport with_barrier(bool print) { return neighbour_read(true, "checker::with_barrier", print); }
  /// 64 threads; only the first 32 fill the array, all 64 read their element: 32 uninitialised reads.
  static ScratchCheckReport uninitialised_read(bool print) {
    using S = SharedArray<float, 64>;
    Kokkos::View<float*, MS> out("out", 64);
    ScratchCheckReport rep;
    launch(Exec(), "checker::uninitialised_read", checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               if (t.rank < 32) s[t.rank] = 1.0f;
             });
             sync_threads(b);
             b.threads([&](const Thread& t) { out(t.rank) = s[t.rank]; });
           });
    return rep;
  }
  /// The seed's 16x16 tiled SGEMM on a 64x64x64 problem (16 blocks of 16x16): no conflicts.
  static ScratchCheckReport sgemm_16x16(bool print) {
    constexpr int T = 16, n = 64;
    using Tile = SharedArray<float, T * T>;
    Kokkos::View<float**, Kokkos::LayoutRight, MS> A("A", n, n), Bm("B", n, n), C("C", n, n);
    // The twin's inputs (tests/checker_twins.cu).
    auto ha = Kokkos::create_mirror_view(A);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ha(i, j) = float(1 + i + 100 * j);
    Kokkos::deep_copy(A, ha);
    Kokkos::deep_copy(Bm, ha);
    ScratchCheckReport rep;
    launch(Exec(), "checker::sgemm_16x16",
           checked(LaunchParams(Dim3(n / T, n / T), Dim3(T, T)).uses<Tile, Tile>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             Tile As(b), Bs(b);
             PerThread<float, B> acc(b, 0.0f);
             for (int k0 = 0; k0 < n; k0 += T) {
               b.threads([&](const Thread& t) {
                 As[t.y * T + t.x] = A(t.gy, k0 + t.x);
                 Bs[t.y * T + t.x] = Bm(k0 + t.y, t.gx);
               });
               sync_threads(b);
               b.threads([&](const Thread& t) {
                 float s = acc(t);
                 for (int k = 0; k < T; ++k) s += As[t.y * T + k] * Bs[k * T + t.x];
                 acc(t) = s;
               });
               sync_threads(b);
             }
             b.threads([&](const Thread& t) { C(t.gy, t.gx) = acc(t); });
           });
    return rep;
  }
  /// A 32x32 float tile written by rows and read by columns: every column read is 32-way
  /// unpadded (Pad 0), conflict-free with one column of padding (Pad 1).
  template <int Pad>
  static ScratchCheckReport column_read_tile(const char* label, bool print) {
    using S = PaddedTile<float, 32, 32, Pad>;
    Kokkos::View<float*, MS> out("out", 1024);
    ScratchCheckReport rep;
    launch(Exec(), label, checked(LaunchParams(Dim3(1), Dim3(32, 32)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s(t.y, t.x) = float(t.rank); });
             sync_threads(b);
             b.threads([&](const Thread& t) { out(t.rank) = s(t.x, t.y); });
           });
    return rep;
  }
  static ScratchCheckReport column_read(bool print) { return column_read_tile<0>("checker::column_read", print); }
  static ScratchCheckReport column_read_padded(bool print) {
    return column_read_tile<1>("checker::column_read_padded", print);
  }
  /// 64 threads update s[rank * 8]: 8-way. `+=` is a load and a store, as on the GPU.
  static ScratchCheckReport stride8_update(bool print) {
    using S = SharedArray<float, 64 * 8>;
    ScratchCheckReport rep;
    Kokkos::View<float*, MS> out("out", 64);
    launch(Exec(), "checker::stride8_update", checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               for (int i = 0; i < 8; ++i) s[i * 64 + t.rank] = 0.0f;  // contiguous: no conflict
             });
             sync_threads(b);
             b.threads([&](const Thread& t) { s[t.rank * 8] += 1.0f; });
             sync_threads(b);
             b.threads([&](const Thread& t) { out(t.rank) = s[t.rank * 8]; });
           });
    return rep;
  }
  /// Doubles, 32 threads: contiguous (no conflict), stride 2 (2-way per half-warp), a column of a 32x32 tile (16-way per half-warp).
  static ScratchCheckReport doubles(bool print) {
    using S = SharedArray<double, 32 * 32>;
    Kokkos::View<double*, MS> out("out", 32);
    ScratchCheckReport rep;
    launch(Exec(), "checker::doubles", checked(LaunchParams(Dim3(1), Dim3(32)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               for (int r = 0; r < 32; ++r) s[r * 32 + t.rank] = double(r);  // 32 contiguous stores
             });
             sync_threads(b);
             b.threads([&](const Thread& t) {
               out(t.rank) = s[t.rank] + s[2 * t.rank] + s[t.rank * 32];  // contiguous, stride 2, column
             });
           });
    return rep;
  }

  /// Input for the race kernels: random values, or all zero (a race's verdict must not depend on the data).
  template <class T>
  static Kokkos::View<T*, MS> input(int n, bool zero) {
    Kokkos::View<T*, MS> v("in", n);
    auto h = Kokkos::create_mirror_view(v);
    unsigned x = 12345u;
    for (int i = 0; i < n; ++i) {
      x = x * 1664525u + 1013904223u;
      h(i) = zero ? T(0) : T((x >> 8) % 1000) / T(7);
    }
    Kokkos::deep_copy(v, h);
    return v;
  }

  /// 64 threads sum 64 values: one cross-warp step after a barrier, then a warp-synchronous tree
  /// (strides 16 .. 1) with no sync_warp between its steps: a race on s[16 .. 31], s[8 .. 15],
  /// s[4 .. 7], s[2 .. 3] and s[1] (31 elements), on any data.
  static ScratchCheckReport warp_tree(bool zero, bool print) {
    using S = SharedArray<float, 64>;
    auto in = input<float>(64, zero);
    Kokkos::View<float*, MS> out("out", 1);
    ScratchCheckReport rep;
    launch(Exec(), zero ? "checker::warp_tree_zero" : "checker::warp_tree",
           checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &rep, print), KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s[t.rank] = in(t.rank); });
             sync_threads(b);
             b.threads([&](const Thread& t) {
               if (t.rank < 32) s[t.rank] += s[t.rank + 32];
             });
             for (int stride = 16; stride > 0; stride /= 2)  // missing: sync_warp(b) before each step
               b.threads([&](const Thread& t) {
                 if (t.rank < stride) s[t.rank] += s[t.rank + stride];
               });
             sync_threads(b);
             b.once([&]() { out(0) = s[0]; });
           });
    return rep;
  }
  static ScratchCheckReport warp_tree_random(bool print) { return warp_tree(false, print); }
  static ScratchCheckReport warp_tree_zero(bool print) { return warp_tree(true, print); }

  /// A 2-D 5-point stencil on 32 x 32 values, 16 x 16 blocks, an 18 x 18 tile: each thread loads
  /// its element, the threads on the block's edges also a halo element (divergent stores). With
  /// the barrier: clean; without: every element a neighbour reads races (halo included).
  static ScratchCheckReport halo_2d(bool barrier, bool zero, bool print) {
    constexpr int n = 32, T = 16, P = T + 2;
    using S = SharedArray<float, P * P>;
    auto in = input<float>(n * n, zero);
    Kokkos::View<float*, MS> out("out", n * n);
    ScratchCheckReport rep;
    launch(Exec(), barrier ? "checker::halo_2d" : "checker::halo_2d_race",
           checked(LaunchParams(Dim3(n / T, n / T), Dim3(T, T)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             auto at = [&](int y, int x) {  // clamped to the grid
               y = y < 0 ? 0 : y >= n ? n - 1 : y;
               x = x < 0 ? 0 : x >= n ? n - 1 : x;
               return in(y * n + x);
             };
             b.threads([&](const Thread& t) {
               const int x = t.x + 1, y = t.y + 1;
               s[y * P + x] = at(t.gy, t.gx);
               if (t.x == 0) s[y * P + 0] = at(t.gy, t.gx - 1);
               if (t.x == T - 1) s[y * P + T + 1] = at(t.gy, t.gx + 1);
               if (t.y == 0) s[0 * P + x] = at(t.gy - 1, t.gx);
               if (t.y == T - 1) s[(T + 1) * P + x] = at(t.gy + 1, t.gx);
             });
             if (barrier) sync_threads(b);
             b.threads([&](const Thread& t) {
               const int x = t.x + 1, y = t.y + 1;
               out(t.gy * n + t.gx) = 4.0f * s[y * P + x] - s[(y - 1) * P + x] - s[(y + 1) * P + x] -
                                      s[y * P + x - 1] - s[y * P + x + 1];
             });
           });
    return rep;
  }
  static ScratchCheckReport halo_2d_clean(bool print) { return halo_2d(true, false, print); }
  static ScratchCheckReport halo_2d_race(bool print) { return halo_2d(false, false, print); }

  /// A privatised histogram: 256 threads zero 64 bins, count 4 values each with
  /// scratchkit::atomic_inc, then add each bin to global counts: no race, the atomics out of the
  /// bank tables. With `zeroed` false the bins are never stored first: every atomic an uninitialised read.
  static ScratchCheckReport shared_histogram(bool zeroed, bool print) {
    constexpr int bins = 64, per = 4, threads = 256;
    using S = SharedArray<unsigned, bins>;
    auto in = input<float>(threads * per, false);
    Kokkos::View<unsigned*, MS> counts("counts", bins);
    ScratchCheckReport rep;
    launch(Exec(), zeroed ? "checker::shared_histogram" : "checker::shared_histogram_unzeroed",
           checked(LaunchParams(Dim3(1), Dim3(threads)).uses<S>(), &rep, print), KOKKOS_LAMBDA(const B& b) {
             S h(b);
             if (zeroed) {
               b.threads([&](const Thread& t) {
                 if (t.rank < bins) h[t.rank] = 0u;
               });
               sync_threads(b);
             }
             b.threads([&](const Thread& t) {
               for (int i = 0; i < per; ++i) atomic_inc(h[static_cast<int>(in(i * threads + t.rank) * 7.0f) % bins]);
             });
             sync_threads(b);
             b.threads([&](const Thread& t) {
               if (t.rank < bins) Kokkos::atomic_add(&counts(t.rank), static_cast<unsigned>(h[t.rank]));
             });
           });
    return rep;
  }
  static ScratchCheckReport shared_histogram_clean(bool print) { return shared_histogram(true, print); }

  /// 256 threads: each reads s[t] and s[t + 1] and stores s[t], with no barrier: a write-after-read
  /// race on elements 1 .. 255 under independent thread scheduling; racecheck, which sees a warp's
  /// lanes in lockstep, reports only the elements at warp edges (docs/checker.md).
  static ScratchCheckReport warp_war(bool print) {
    using S = SharedArray<float, 256>;
    auto in = input<float>(256, false);
    Kokkos::View<float*, MS> out("out", 256);
    ScratchCheckReport rep;
    launch(Exec(), "checker::warp_war", checked(LaunchParams(Dim3(1), Dim3(256)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s[t.rank] = in(t.rank); });
             sync_threads(b);
             b.threads([&](const Thread& t) {
               const float a = s[t.rank], c = t.rank < 255 ? float(s[t.rank + 1]) : 0.0f;
               s[t.rank] = a + c;  // missing: a barrier between the reads and the store
             });
             sync_threads(b);
             b.threads([&](const Thread& t) { out(t.rank) = s[t.rank]; });
           });
    return rep;
  }
  /// 128 threads update 64 zeroed counters atomically, then read a neighbour's with no barrier:
  /// every counter races (racecheck does not see atomic-then-plain-read hazards).
  static ScratchCheckReport atomic_then_read(bool print) {
    using S = SharedArray<unsigned, 64>;
    Kokkos::View<unsigned*, MS> out("out", 128);
    ScratchCheckReport rep;
    launch(Exec(), "checker::atomic_then_read", checked(LaunchParams(Dim3(1), Dim3(128)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               if (t.rank < 64) s[t.rank] = 0u;
             });
             sync_threads(b);
             b.threads([&](const Thread& t) { atomic_add(s[t.rank % 64], 1u); });
             b.threads([&](const Thread& t) { out(t.rank) = s[(t.rank + 1) % 64]; });  // missing: sync_threads
           });
    return rep;
  }
  /// warp_tree with sync_warp before each step of the tree: no race.
  static ScratchCheckReport warp_tree_synced(bool print) {
    using S = SharedArray<float, 64>;
    auto in = input<float>(64, false);
    Kokkos::View<float*, MS> out("out", 1);
    ScratchCheckReport rep;
    launch(Exec(), "checker::warp_tree_synced", checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) { s[t.rank] = in(t.rank); });
             sync_threads(b);
             b.threads([&](const Thread& t) {
               if (t.rank < 32) s[t.rank] += s[t.rank + 32];
             });
             for (int stride = 16; stride > 0; stride /= 2) {
               sync_warp(b);
               b.threads([&](const Thread& t) {
                 if (t.rank < stride) s[t.rank] += s[t.rank + stride];
               });
             }
             sync_threads(b);
             b.once([&]() { out(0) = s[0]; });
           });
    return rep;
  }
  /// 64 threads store through q = s.data() and read q[63 - t] with no barrier: a race on every
  /// element (racecheck: 0 .. 63); the checker sees them where raw pointers trap (scratch_check_raw_pointers).
  static ScratchCheckReport raw_pointer_race(bool print) {
    using S = SharedArray<float, 64>;
    auto in = input<float>(64, false);
    Kokkos::View<float*, MS> out("out", 64);
    ScratchCheckReport rep;
    launch(Exec(), "checker::raw_pointer_race", checked(LaunchParams(Dim3(1), Dim3(64)).uses<S>(), &rep, print),
           KOKKOS_LAMBDA(const B& b) {
             S s(b);
             b.threads([&](const Thread& t) {
               float* q = s.data();
               q[t.rank] = in(t.rank);
               out(t.rank) = q[63 - t.rank];  // missing: a barrier
             });
           });
    return rep;
  }

  static std::vector<CheckerCase> cases() {
    return {{"missing_barrier", &missing_barrier},   {"with_barrier", &with_barrier},
            {"uninitialised_read", &uninitialised_read}, {"sgemm_16x16", &sgemm_16x16},
            {"column_read", &column_read},           {"column_read_padded", &column_read_padded},
            {"stride8_update", &stride8_update},     {"doubles", &doubles},
            {"warp_tree", &warp_tree_random},        {"warp_tree_zero", &warp_tree_zero},
            {"halo_2d", &halo_2d_clean},             {"halo_2d_race", &halo_2d_race},
            {"shared_histogram", &shared_histogram_clean}, {"warp_war", &warp_war},
            {"atomic_then_read", &atomic_then_read},     {"warp_tree_synced", &warp_tree_synced},
            {"raw_pointer_race", &raw_pointer_race}};
  }
};

}  // namespace test
}  // namespace scratchkit
