// SPDX-License-Identifier: BSD-3-Clause
// Every kernel shipped on the layer, run by the host scratch checker: no race,
// no uninitialised read, and no bank conflict except where one is intended
// (docs/checker.md lists them with their counts).
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <string>
#include <vector>

using namespace scratchkit;

namespace {
using Exec = test::HostSpace;
using MS   = Exec::memory_space;

template <class V>
void fill(const V& v) {
  auto h          = Kokkos::create_mirror_view(v);
  const auto n    = h.span();
  auto* p         = h.data();
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<typename V::value_type>((i * 37 % 101) * 0.25 + 1);
  Kokkos::deep_copy(v, h);
}

// Runs f under a quiet ScratchCheckScope and returns every launch's report.
template <class F>
std::vector<ScratchCheckReport> checked(const F& f) {
  ScratchCheckScope scope(ScratchCheck().quiet());
  f();
  return scope.reports();
}

struct Expect {
  long long ld = 0, st = 0;  ///< bank conflicts expected (summed over the launches)
  bool per_block = false;    ///< ld and st are per block (the grid follows the backend's concurrency)
};

void check_reports(const std::vector<ScratchCheckReport>& reps, Expect e = {}) {
  REQUIRE_FALSE(reps.empty());
  long long ld = 0, st = 0, blocks = 0;
  for (const auto& r : reps) {
    CAPTURE(r.str());
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    CHECK(r.blocks > 0);
    blocks += r.blocks;
    ld += r.conflicts(ScratchOp::load);
    st += r.conflicts(ScratchOp::store);
  }
  std::string all;
  for (const auto& r : reps) all += r.str();
  CAPTURE(all);
  CHECK(ld == e.ld * (e.per_block ? blocks : 1));
  CHECK(st == e.st * (e.per_block ? blocks : 1));
}

#define SCRATCHKIT_REQUIRE_CHECKER() \
  if (!scratch_check_compiled) SKIP("scratch checker not compiled in (SCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF)")
}  // namespace

TEST_CASE("Checker: the GEMM variants run clean", "[checker][gemm]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  const int M = 70, N = 45, K = 37;
  Kokkos::View<float**, Kokkos::LayoutRight, MS> A("A", M, K), B("B", K, N), C("C", M, N);
  fill(A), fill(B);
  for (auto v : {GemmVariant::tiled, GemmVariant::tiled_double_buffered, GemmVariant::register_blocked}) {
    CAPTURE(name(v));
    check_reports(checked([&] { gemm(Exec(), v, 1.0f, A, B, 0.0f, C); }));
  }
}

TEST_CASE("Checker: the reductions run clean", "[checker][reduce]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  Kokkos::View<double*, MS> x("x", 100003);
  fill(x);
  for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle}) {
    CAPTURE(name(v));
    check_reports(checked([&] { (void)reduce(Exec(), v, ReduceOp::sum, x); }));
  }
}

TEST_CASE("Checker: the stencils run clean", "[checker][stencil]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  Kokkos::View<float*, MS> in("in", 5000), out("out", 5000), w("w", 7);
  fill(in), fill(w);
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
    CAPTURE(name(v));
    check_reports(checked([&] { stencil_1d(Exec(), v, in, w, out); }));
  }
  Kokkos::View<float***, MS> u("u", 20, 33, 9), o("o", 20, 33, 9);
  fill(u);
  for (auto v : {Stencil3DVariant::tile_2d_halo, Stencil3DVariant::z_streaming}) {
    CAPTURE(name(v));
    const auto reps = checked([&] { stencil_3d_7pt(Exec(), v, u, o, 0.4f, 0.1f); });
    if (v == Stencil3DVariant::z_streaming && scratch_check_raw_pointers) {
      // Its loads go through raw pointers, so the checker sees them: every point reads its six
      // neighbours and keeps only an interior point's sum (stencil3d_ring_point), so cells beyond
      // the grid's edge, which no thread loads, are read and dropped. The NaN poison in them
      // reaches no result: the output equals an unchecked run's.
      Kokkos::View<float***, MS> plain("plain", 20, 33, 9);
      stencil_3d_7pt(Exec(), v, u, plain, 0.4f, 0.1f);
      auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), plain);
      auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), o);
      long long differ = 0;
      for (std::size_t i = 0; i < hp.size(); ++i) differ += hp.data()[i] != ho.data()[i];
      CHECK(differ == 0);
      for (const auto& r : reps) {
        CHECK(r.races == 0);
        CHECK(r.uninitialised_reads > 0);
        CHECK(r.raw_accesses > 0);
      }
      continue;
    }
    check_reports(reps);
  }
}

TEST_CASE("Checker: transpose, with the tiled variant's intended conflicts", "[checker][transpose]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  // Whole tiles: a partial tile's threads skip accesses, and the k-th access of one lane then meets
  // another's (k+1)-th, which the GPU issues as different instructions (docs/checker.md). tiled_padded
  // shifts its tiles by the rows' alignment: page-aligned rows keep them whole.
  std::vector<float> mem(2 * 64 * 128 + 2048);
  float* const base = reinterpret_cast<float*>((reinterpret_cast<std::uintptr_t>(mem.data()) + 4095) / 4096 * 4096);
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> in(base, 64, 128),
      out(base + 64 * 128, 128, 64);
  fill(in);
  check_reports(checked([&] { transpose(Exec(), TransposeVariant::tiled_padded, in, out); }));
  // tiled: the unpadded 32 x 32 tile, kept to show what the padding saves: each of the 8 tiles' 32 column
  // reads is 32-way.
  check_reports(checked([&] { transpose(Exec(), TransposeVariant::tiled, in, out); }), Expect{8 * 32 * 31, 0});
}

TEST_CASE("Checker: the histograms run clean", "[checker][histogram]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  Kokkos::View<float*, MS> x("x", 20000);
  Kokkos::View<unsigned*, MS> counts("counts", 64);
  fill(x);
  // The merge reads bin j's `copies` interleaved counters (h[j * copies + q]): with 64 bins and 8 copies,
  // 2 warps x 8 reads a block, each 8-way. Intended: the interleave spreads the atomics of the counting phase.
  check_reports(checked([&] { histogram(Exec(), HistogramVariant::shared_atomic, x, 0.0, 30.0, counts); }),
                Expect{2 * 8 * 7, 0, true});
}

TEST_CASE("Checker: the tile collectives run clean", "[checker][collectives]") {
  SCRATCHKIT_REQUIRE_CHECKER();
  Kokkos::View<int*, MS> x("x", 3000), y("y", 3000), r("r", 3);
  fill(x);
  check_reports(checked([&] { tile_scan(Exec(), ScanKind::inclusive, x, y, 256, 4); }));
  check_reports(checked([&] { tile_reduce(Exec(), x, r, 256, 4); }));
  check_reports(checked([&] { tile_warp_scan(Exec(), x, y, 256); }));
  for (auto v : {ExchangeVariant::warp_transpose, ExchangeVariant::transpose}) {
    CAPTURE(int(v));
    check_reports(checked([&] { tile_exchange(Exec(), v, x, y, 256, 4); }));
  }
}
