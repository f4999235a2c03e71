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
    return p.check_scratch(ScratchCheck().into(rep).quiet(!print));
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
    // Values that differ from tile to tile: a store of the value already in place looks like a load to the checker.
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
  /// 64 threads update s[rank * 8]: 8-way. `+=` is one access to the checker (a store; see docs/checker.md).
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

  static std::vector<CheckerCase> cases() {
    return {{"missing_barrier", &missing_barrier},   {"with_barrier", &with_barrier},
            {"uninitialised_read", &uninitialised_read}, {"sgemm_16x16", &sgemm_16x16},
            {"column_read", &column_read},           {"column_read_padded", &column_read_padded},
            {"stride8_update", &stride8_update},     {"doubles", &doubles}};
  }
};

}  // namespace test
}  // namespace scratchkit
