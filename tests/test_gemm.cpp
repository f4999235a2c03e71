// SPDX-License-Identifier: BSD-3-Clause
// GEMM on the layer against a host reference in long double, and its variants
// against each other (bit for bit: they all sum over k in the same order, but
// register_blocked on the FP64 tensor cores and split along K, both checked
// against the reference there); the plans and fragment layouts on the host.
// The internal blockings run in test_gemm_mma*.cpp, test_gemm_simt*.cpp and test_gemm_split_k.cpp.
// Tolerance: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
// (scratchkit/reference/reference.hpp says where it comes from).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <vector>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM on the layer matches the host reference", "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : gemm_variants) {
    for (const auto& s : gemm_sizes) {
      check_gemm<Exec, float>(v, s[0], s[1], s[2], 1.0f, 0.0f);
      check_gemm<Exec, double>(v, s[0], s[1], s[2], 1.0, 0.0);
    }
    check_gemm<Exec, float>(v, 33, 17, 45, -1.5f, 0.75f);
    check_gemm<Exec, double>(v, 33, 17, 45, 2.0, -0.5);
    check_gemm<Exec, float>(v, 129, 65, 31, 0.5f, 1.0f);
    check_gemm<Exec, double>(v, 129, 65, 31, -1.0, 0.25);
    check_gemm<Exec, float>(v, 7, 3, 0, 1.0f, -2.0f);  // K = 0: C = beta * C
  }
}

TEMPLATE_LIST_TEST_CASE("GEMM variants agree with each other bit for bit", "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  // 127 x 129 x 300 is split along K on a GPU (19 slices of 16): register_blocked is checked against the bound.
  for (const auto& s : {std::array<int, 3>{1, 1, 1}, {17, 31, 13}, {65, 63, 17}, {127, 129, 65}, {3, 4, 0},
                        {1, 129, 3}, {131, 257, 9}, {127, 129, 300}}) {
    check_same_bits_across_variants<Exec, float>(s[0], s[1], s[2]);
    check_same_bits_across_variants<Exec, double>(s[0], s[1], s[2]);
  }
}

TEMPLATE_LIST_TEST_CASE("GEMM on strided and LayoutLeft Views (16-byte and element paths)", "[gemm][layer]",
                        test::Spaces) {
  using Exec = TestType;
  for (auto v : gemm_variants) {
    // (pad, off): stride K+1 and odd offsets take the element path; pad 4 / off 4 (floats) and
    // pad 2 / off 2 (doubles) keep 16-byte rows on a strided View.
    for (const auto& s : {std::array<int, 3>{129, 132, 40}, {130, 67, 33}, {1, 8, 8}, {200, 260, 24}}) {
      for (const auto& po : {std::array<int, 2>{1, 0}, {3, 1}, {4, 4}, {2, 2}, {8, 0}}) {
        check_gemm_strided<Exec, float>(v, s[0], s[1], s[2], po[0], po[1], 1.0f, 0.0f);
        check_gemm_strided<Exec, double>(v, s[0], s[1], s[2], po[0], po[1], -0.5, 2.0);
      }
    }
    check_gemm_strided<Exec, float>(v, 131, 129, 12, 4, 4, 1.5f, -1.0f);
    check_gemm_layout_left<Exec, float>(v, 130, 129, 37);
    check_gemm_layout_left<Exec, double>(v, 67, 140, 16);
  }
}

TEST_CASE("Native register_blocked GEMM agrees with the layer bit for bit on every load path",
          "[gemm][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  // Interior tiles with 16-byte loads, partial tiles and slices on both paths, K or N not a multiple of 16 bytes.
  // Below 200 tiles of 128 x 128 both twins run the few-tile blockings (detail::gemm_pick_few); the last
  // four sizes have 15 x 14 = 210, 16 x 16 = 256, 1 x 200 and 33 x 32 = 1056 tiles and run the default ones
  // (double where small_type and large_type do not fit: few_type below 1024 tiles,
  // detail::gemm_pick_fallback_few, `type` at 1056). Double below
  // 64 tiles (up to 512^3 here) runs tiny_type (detail::gemm_pick_tiny). On an H100 (132 SMs) float splits
  // along K (detail::gemm_split_plan): 128^3 (2 splits), 129 x 255 x 260 (5, 5, 5 and 2 slices: a short
  // last split), 255 x 256 x 131, 512^3 (2 of 16), 1024^3 and 1000 x 1001 x 1003 (2 splits, 32 and 31
  // slices), 300 x 200 x 1000 (6 of 11, the last 8), 4 x 4 x 4096 (16 splits).
  for (const auto& s : {std::array<int, 3>{128, 128, 128}, {129, 255, 260}, {256, 260, 36}, {255, 256, 131},
                        {260, 132, 8}, {384, 256, 64}, {512, 512, 512}, {1024, 1024, 1024}, {1000, 1001, 1003},
                        {300, 200, 1000}, {4, 4, 4096}, {1920, 1700, 40}, {2048, 2048, 72}, {100, 25600, 24},
                        {4100, 4000, 24}}) {
    CAPTURE(detail::gemm_pick_few<float>(s[0], s[1]));
    register_blocked_twins<float>(s[0], s[1], s[2]);
    register_blocked_twins<double>(s[0], s[1], s[2]);
  }
#endif
}

TEST_CASE("GEMM split-K plan: the modelled best count, 4 or more slices per split but the last, at most 16", "[gemm]") {
  using Few_f = detail::GemmDefaultBlocking<float>::few_type;   // 64 x 64 tiles, slices of 16, 4 blocks per SM
  using Few_d = detail::GemmDefaultBlocking<double>::few_type;  // 32 x 64 tiles, slices of 16, 4 blocks per SM
  STATIC_REQUIRE(Few_f::BM == 64 && Few_f::BN == 64 && Few_f::BK == 16 && Few_f::min_blocks == 4);
  STATIC_REQUIRE(Few_d::BM == 32 && Few_d::BN == 64 && Few_d::BK == 16 && Few_d::min_blocks == 4);
  constexpr int sms = 132;  // an H100
  // The cost model by hand (gemm_split_cost: busiest SM's blocks b x (slices + 10) / efficiency 1, 0.7 or 0.6).
  // 512^3 float: 64 tiles, 32 slices. 1 split: b = 1, 42 / 0.6 = 70; 2: b = 1, 26 / 0.6 = 43.3; 4: b = 2,
  // 36 / 0.6 = 60; 8: b = 4, 56. So 2 splits of 16 (the tuner's best; 8 measured 0.84-0.89x cuBLAS against 1.01x).
  STATIC_REQUIRE(detail::gemm_split_cost(64, 2, 16, sms, 4) < detail::gemm_split_cost(64, 8, 4, sms, 4));
  STATIC_REQUIRE(detail::gemm_split_cost(64, 2, 16, sms, 4) < detail::gemm_split_cost(64, 4, 8, sms, 4));
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(512, 512, 512, sms).splits == 2);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(512, 512, 512, sms).per == 16);
  // 576^3: 81 tiles, 36 slices: 6 splits (486 blocks, 4 on the busiest SM at full efficiency) beat 3 (2 per SM).
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(576, 576, 576, sms).splits == 6);
  // 256^3: 16 slices allow 4 splits (4 slices each); 128^3: 8 slices, 2 splits.
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(256, 256, 256, sms).splits == 4);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(128, 128, 128, sms).splits == 2);
  // 1024^3: 256 tiles, 2 splits of 32 slices; 1536^3 (576 tiles, more than a wave): 2 even out the SMs' blocks.
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(1024, 1024, 1024, sms).splits == 2);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(1024, 1024, 1024, sms).per == 32);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(1536, 1536, 1536, sms).splits == 2);
  // Double (the few-tile range starts at 1024^3: tiny_type below it): 512 tiles at 1024^3 -> none.
  STATIC_REQUIRE(detail::gemm_split_plan<Few_d>(1024, 1024, 1024, sms).splits == 1);
  // One tile, 50 slices: 12 allowed, 5 slices each, so 10 splits (none empty); deep K stops at 16.
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 800, sms).splits == 10);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 800, sms).per == 5);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 16000, sms).splits == 16);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(1, 1, INT_MAX, sms).splits == 16);
  // No split: fewer than 8 slices, K = 0, empty C, no SM count (host backends), more than 4 waves of tiles, huge C.
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 112, sms).splits == 1);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 0, sms).splits == 1);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(0, 64, 4096, sms).splits == 1);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(64, 64, 4096, 0).splits == 1);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(4096, 4096, 4096, sms).splits == 1);
  STATIC_REQUIRE(detail::gemm_split_plan<Few_f>(INT_MAX, INT_MAX, 4096, sms).splits == 1);
  // Every split has at least one slice: (splits - 1) * per < slices <= splits * per.
  for (int K = 0; K <= 4096; K += 7) {
    for (int mn : {1, 64, 200, 700}) {
      const auto p  = detail::gemm_split_plan<Few_f>(mn, mn, K, sms);
      const int nk  = (K + 15) / 16;
      CAPTURE(K, mn, p.splits, p.per);
      CHECK(p.splits >= 1);
      CHECK(p.splits <= detail::gemm_split_max);
      CHECK(static_cast<long long>(p.splits - 1) * p.per < (nk > 0 ? nk : 1));
      CHECK(static_cast<long long>(p.splits) * p.per >= nk);
      CHECK((p.splits == 1 || p.per >= detail::gemm_split_min_slices));
      // Split blocks fit gemm_split_max_waves waves of resident blocks (so the workspace is bounded).
      if (p.splits > 1)
        CHECK(static_cast<long long>(p.splits) * ((mn + 63) / 64) * ((mn + 63) / 64) <=
              static_cast<long long>(detail::gemm_split_max_waves) * sms * 4);
    }
  }
}

TEST_CASE("GEMM default blockings: the few-tile pick counts 128 x 128 tiles of C", "[gemm]") {
  // 1536^3 has 144 tiles, 2048^3 256: the switch lies between the tuner's measured sizes.
  STATIC_REQUIRE(detail::gemm_tiles_128(1536, 1536) == 144);
  STATIC_REQUIRE(detail::gemm_pick_few<float>(1536, 1536));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_few<float>(2048, 2048));
  STATIC_REQUIRE(detail::gemm_pick_few<double>(1, 1));
  // 199 tiles run few_type, 200 do not; a partial tile counts as a tile.
  STATIC_REQUIRE(detail::gemm_pick_few<double>(128, 199 * 128));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_few<double>(128, 199 * 128 + 1));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_few<float>(25600, 1));
  // Extents near INT_MAX count without overflow (2^24 tiles along M, one along N).
  STATIC_REQUIRE(detail::gemm_tiles_128(2147483647, 1) == 16777216);
  // Double below 64 tiles (under 1024^3) runs tiny_type, 32 x 32 tiles, unsplit.
  STATIC_REQUIRE(detail::gemm_pick_tiny(1, 1));
  STATIC_REQUIRE(detail::gemm_pick_tiny(896, 896));  // 49 tiles; 1024^3 has 64
  STATIC_REQUIRE_FALSE(detail::gemm_pick_tiny(1024, 1024));
  STATIC_REQUIRE(detail::gemm_pick_tiny(128, 63 * 128));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_tiny(128, 63 * 128 + 1));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_tiny(INT_MAX, INT_MAX));
  STATIC_REQUIRE(detail::GemmDefaultBlocking<double>::tiny_type::smem_bytes <= 40 * 1024);
  // The few-tile blockings fit every launch path: within Kokkos' own ~40 KB of level 0.
  STATIC_REQUIRE(detail::GemmDefaultBlocking<double>::few_type::smem_bytes <= 40 * 1024);
  // Where small_type and large_type do not fit (Kokkos 4.6's public path), double runs few_type again below
  // 1024 tiles (2048^3: 256; 4096^3: 1024), else `type` (detail::gemm_pick; tests/test_pick.cpp).
  STATIC_REQUIRE(detail::gemm_pick_fallback_few(2048, 2048));
  STATIC_REQUIRE(detail::gemm_pick_fallback_few(3968, 3968));  // 31 x 31 tiles
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(3969, 3969));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(4096, 4096));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(INT_MAX, INT_MAX));
}

TEST_CASE("GEMM register_blocked block order covers every tile once", "[gemm]") {
  for (int nbx : {1, 2, 7, 8, 9, 32, 65})
    for (int nby : {1, 3, 7, 8, 9, 16, 17, 33}) {
      CAPTURE(nbx, nby);
      const detail::GemmGrid grid(nbx, nby);
      std::vector<int> seen(static_cast<std::size_t>(nbx) * nby, 0);
      int outside = 0, idle = 0;
      for (int y = 0; y < grid.gy; ++y)
        for (int x = 0; x < grid.gx; ++x) {
          int bx = -1, by = -1;
          detail::gemm_tile_of(x, y, grid.lg, bx, by);
          if (by >= nby && bx >= 0 && bx < nbx)
            ++idle;  // the kernel returns at once
          else if (bx < 0 || bx >= nbx || by < 0 || by >= nby)
            ++outside;
          else
            ++seen[static_cast<std::size_t>(by) * nbx + bx];
        }
      CHECK(outside == 0);
      CHECK(idle < 8 * nbx);  // at most the last group's missing rows
      CHECK(std::count(seen.begin(), seen.end(), 1) == nbx * nby);
    }
}

/// GemmMmaLane of blocking Blk against the index of each element it reads, for every lane and k-step; the
/// slice indices a permutation of the stage; fragment reads (per half-warp, 8-byte words mod 16) and the
/// 16-byte copies into the stage (per quarter-warp, 16-byte slots mod 8) free of bank conflicts.
template <class Blk>
void check_mma_offsets() {
  CAPTURE(Blk::BM, Blk::BN, Blk::WM, Blk::WN, Blk::KS);
  constexpr int BK = Blk::BK;
  std::vector<int> seen_a(Blk::a_stage, 0), seen_b(Blk::b_stage, 0);
  for (int m = 0; m < Blk::BM; ++m)
    for (int k = 0; k < BK; ++k) ++seen_a.at(static_cast<std::size_t>(detail::gemm_mma_a_at<Blk>(m, k)));
  for (int k = 0; k < BK; ++k)
    for (int n = 0; n < Blk::BN; ++n) ++seen_b.at(static_cast<std::size_t>(detail::gemm_mma_b_index<Blk::BN>(k, n)));
  CHECK(std::count(seen_a.begin(), seen_a.end(), 1) == Blk::BM * BK);  // padding between sub-slices stays 0
  CHECK(std::count(seen_b.begin(), seen_b.end(), 1) == BK * Blk::BN);
  int wrong = 0, conflicts = 0;
  auto distinct = [](std::vector<int> v) {
    std::sort(v.begin(), v.end());
    return std::unique(v.begin(), v.end()) == v.end();
  };
  for (int warp = 0; warp < Blk::threads / 32; ++warp) {
    const int wm = (warp / Blk::WX) * Blk::WM, wn = (warp % Blk::WX) * Blk::WN;
    for (int s = 0; s < BK / 8; ++s) {  // 8-deep k-steps (two per m16n8k16 k-step)
      for (int i = 0; i < Blk::MT; ++i)
        for (int h = 0; h < 2; ++h)
          for (int q = 0; q < 2; ++q)
            for (int half = 0; half < 2; ++half) {
              std::vector<int> banks;  // 8-byte words mod 16: one 128-byte wavefront per half-warp
              for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
                const detail::GemmMmaLane<Blk> l(32 * warp + lane);
                const int g = lane / 4, t = lane % 4, off = l.a(i, h, q, s);
                wrong += off != detail::gemm_mma_a_at<Blk>(wm + 16 * i + 8 * h + g, 8 * s + t + 4 * q);
                banks.push_back(off % 16);
              }
              conflicts += !distinct(banks);
            }
      for (int j = 0; j < Blk::NT; ++j)
        for (int q = 0; q < 2; ++q)
          for (int half = 0; half < 2; ++half) {
            std::vector<int> banks;
            for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
              const detail::GemmMmaLane<Blk> l(32 * warp + lane);
              const int g = lane / 4, t = lane % 4, off = l.b(j, q, s);
              wrong += off != detail::gemm_mma_b_index<Blk::BN>(8 * s + t + 4 * q, wn + 8 * j + g);
              banks.push_back(off % 16);
            }
            conflicts += !distinct(banks);
          }
    }
  }
  // 16-byte copies (gemm_copy_tile): vector v is row v / PerRow, columns 2 (v % PerRow) + {0, 1}.
  int copy_conflicts = 0;
  for (int v0 = 0; v0 < Blk::BM * BK / 2; v0 += 8) {
    std::vector<int> slots;
    for (int v = v0; v < v0 + 8; ++v) slots.push_back(detail::gemm_mma_a_at<Blk>(v / (BK / 2), 2 * (v % (BK / 2))) / 2 % 8);
    copy_conflicts += !distinct(slots);
  }
  for (int v0 = 0; v0 < BK * Blk::BN / 2; v0 += 8) {
    std::vector<int> slots;
    for (int v = v0; v < v0 + 8; ++v)
      slots.push_back(detail::gemm_mma_b_index<Blk::BN>(v / (Blk::BN / 2), 2 * (v % (Blk::BN / 2))) / 2 % 8);
    copy_conflicts += !distinct(slots);
  }
  CHECK(wrong == 0);
  CHECK(conflicts == 0);
  CHECK(copy_conflicts == 0);
}

TEST_CASE("GEMM tensor-core fragment offsets: the documented mma layout, a permutation, conflict-free", "[gemm]") {
  // mma.m16n8k8.f64: lane 4g + t holds A(g + 8h, t + 4q) as a[h + 2q], B(t + 4q, g) as b[q]. GemmMmaLane
  // splits the swizzled index into per-lane bases; check it against the index of each element, for every lane.
  check_mma_offsets<detail::GemmMmaBlocking<128, 128, 64, 32, 1>>();
  check_mma_offsets<detail::GemmMmaBlocking<64, 128, 32, 64, 2, 3>>();
  check_mma_offsets<detail::GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2>>();
  check_mma_offsets<detail::GemmMmaBlocking<128, 128, 32, 64, 1, 3, 4>>();
  check_mma_offsets<detail::GemmMmaBlocking<64, 64, 32, 32, 3, 2, 2>>();
}

/// MmaK = 16: the fragments gemm_mma16_a / _b gather (the device code, run on the host) for every lane of
/// every warp, multiplied as mma.m16n8k16.f64 defines its fragments (lane 4g + t holds A(g + 8h, slot
/// t + 4v) as a[h + 2v], B(slot t + 4v, g) as b[v], D(g + 8(e/2), 2t + e%2) as d[e]), summed over the
/// k-steps of a slice, must give each element of the warp tile exactly (small integers). The reads are
/// those of the m16n8k8 k-steps (check_mma_offsets: conflict-free).
template <class Blk>
void check_mma16_fragments() {
  static_assert(Blk::k16, "m16n8k16 blockings only");
  CAPTURE(Blk::BM, Blk::BN, Blk::WM, Blk::WN, Blk::KS);
  constexpr int BK = Blk::BK, MT = Blk::MT, NT = Blk::NT;
  auto a_val = [](int m, int k) { return static_cast<double>((m * 7 + k * 3) % 11 - 5); };
  auto b_val = [](int k, int n) { return static_cast<double>((k * 5 + n * 2) % 13 - 6); };
  std::vector<double> as(Blk::a_stage, test::poison<double>()), bs(Blk::b_stage, test::poison<double>());
  for (int m = 0; m < Blk::BM; ++m)
    for (int k = 0; k < BK; ++k) as[static_cast<std::size_t>(detail::gemm_mma_a_at<Blk>(m, k))] = a_val(m, k);
  for (int k = 0; k < BK; ++k)
    for (int n = 0; n < Blk::BN; ++n) bs[static_cast<std::size_t>(detail::gemm_mma_b_index<Blk::BN>(k, n))] = b_val(k, n);
  int wrong = 0;
  for (int warp = 0; warp < Blk::threads / 32; ++warp) {
    const int wm = (warp / Blk::WX) * Blk::WM, wn = (warp % Blk::WX) * Blk::WN;
    std::vector<std::array<double, 4>> d(32 * MT * NT, std::array<double, 4>{0, 0, 0, 0});
    for (int s = 0; s < Blk::KS; ++s) {
      std::vector<std::array<double, 8>> af(32 * MT);
      std::vector<std::array<double, 4>> bf(32 * NT);
      for (int lane = 0; lane < 32; ++lane) {
        const detail::GemmMmaLane<Blk> l(32 * warp + lane);
        double a[MT][8], b[4];
        detail::gemm_mma16_a<Blk>(a, as.data(), l, s);
        for (int i = 0; i < MT; ++i) std::copy(a[i], a[i] + 8, af[lane * MT + i].begin());
        for (int j = 0; j < NT; ++j) {
          detail::gemm_mma16_b<Blk>(b, bs.data(), l, j, s);
          std::copy(b, b + 4, bf[lane * NT + j].begin());
        }
      }
      // The warp's mma on tile (i, j), element by element of D as the instruction defines it.
      for (int i = 0; i < MT; ++i)
        for (int j = 0; j < NT; ++j)
          for (int lane = 0; lane < 32; ++lane)
            for (int e = 0; e < 4; ++e) {
              const int row = lane / 4 + 8 * (e / 2), col = 2 * (lane % 4) + e % 2;
              double sum = 0;
              for (int slot = 0; slot < 16; ++slot)
                sum += af[(4 * (row % 8) + slot % 4) * MT + i][row / 8 + 2 * (slot / 4)] *
                       bf[(4 * col + slot % 4) * NT + j][slot / 4];
              d[(lane * MT + i) * NT + j][e] += sum;
            }
    }
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < MT; ++i)
        for (int j = 0; j < NT; ++j)
          for (int e = 0; e < 4; ++e) {
            const int m = wm + 16 * i + 8 * (e / 2) + lane / 4, n = wn + 8 * j + 2 * (lane % 4) + e % 2;
            double want = 0;
            for (int k = 0; k < BK; ++k) want += a_val(m, k) * b_val(k, n);
            wrong += d[(lane * MT + i) * NT + j][e] != want;
          }
  }
  CHECK(wrong == 0);
}

TEST_CASE("GEMM tensor-core m16n8k16 fragments: the instruction's layout, conflict-free reads", "[gemm]") {
  check_mma16_fragments<detail::GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>>();
  check_mma16_fragments<detail::GemmMmaBlocking<128, 128, 64, 32, 1, 2, 2, 16>>();
  check_mma16_fragments<detail::GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>>();
  check_mma16_fragments<detail::GemmMmaBlocking<64, 64, 32, 32, 2, 2, 1, 16>>();
  check_mma16_fragments<detail::GemmMmaBlocking<64, 32, 32, 16, 1, 3, 1, 16>>();
  check_mma16_fragments<detail::GemmMmaBlocking<32, 32, 16, 16, 1, 2, 2, 16>>();
  check_mma_offsets<detail::GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>>();
  check_mma_offsets<detail::GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>>();
  check_mma_offsets<detail::GemmMmaBlocking<128, 128, 64, 32, 1, 2, 2, 16>>();
}

TEST_CASE("GEMM rejects mismatched shapes before launch", "[gemm][bad-input]") {
  using Exec = test::DeviceSpace;
  using View = Kokkos::View<float**, Exec::memory_space>;
  View A("A", 4, 5), B("B", 6, 3), C("C", 4, 3), Cbad("C", 3, 3);
  CHECK_THROWS_WITH(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B, 0.0f, C),
                    Catch::Matchers::ContainsSubstring("A is 4 x 5, B is 6 x 3"));
  View B2("B", 5, 3);
  CHECK_THROWS_AS(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B2, 0.0f, Cbad), ShapeError);
  CHECK_NOTHROW(gemm(Exec(), GemmVariant::tiled, 1.0f, A, B2, 0.0f, C));
  View E("E", 0, 3), Ea("Ea", 0, 5);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    CHECK_THROWS_AS(gemm(Exec(), v, 1.0f, A, B, 0.0f, C), ShapeError);
    CHECK_NOTHROW(gemm(Exec(), v, 1.0f, Ea, B2, 0.0f, E));  // M = 0
  }
}

TEST_CASE("GEMM Backend::native on a Serial execution space throws UnsupportedError", "[gemm][native][bad-input]") {
#ifdef KOKKOS_ENABLE_SERIAL
  using View = Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace>;
  View A("A", 4, 5), B("B", 5, 3), C("C", 4, 3);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    CHECK_THROWS_AS(gemm(Kokkos::Serial(), v, 1.0, A, B, 0.0, C, Backend::native), UnsupportedError);
    CHECK_THROWS_WITH(gemm(Kokkos::Serial(), v, 1.0, A, B, 0.0, C, Backend::native),
                      Catch::Matchers::ContainsSubstring("Backend::native"));
  }
#else
  SKIP("Kokkos was built without the Serial backend");
#endif
}
