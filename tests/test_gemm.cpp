// SPDX-License-Identifier: BSD-3-Clause
// GEMM on the layer against a host reference in long double, and its variants
// against each other (bit for bit: they all sum over k in the same order, but
// register_blocked on the FP64 tensor cores and split along K, both checked
// against the reference there).
// Tolerance: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
// (scratchkit/check/reference.hpp says where it comes from).
#include "test_support.hpp"

#include <scratchkit/check/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace scratchkit;

namespace {

template <class Exec, class Scalar>
void check_gemm(GemmVariant v, int M, int N, int K, Scalar alpha, Scalar beta) {
  using View = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(name(v), M, N, K, alpha, beta, seed, Exec::name());
  View A("A", M, K), B("B", K, N), C("C", M, N);
  auto hA = Kokkos::create_mirror_view(A);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror(C);  // a copy: on host backends a mirror view would alias C
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  if (beta == Scalar(0)) {
    Kokkos::deep_copy(hC, test::poison<Scalar>());  // beta == 0: C must not be read
  } else {
    test::fill_random(hC, seed + 2);
  }
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C, hC);
  gemm(Exec(), v, alpha, A, B, beta, C);
  auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  const auto res = check::gemm<Scalar>(M, N, K, alpha, hA.data(), hB.data(), beta, hC.data(), out.data());
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

// 0, 1, primes, 2^k +- 1 and non-multiples of every tile (16; 128 x 128 x 8 for register_blocked, floats
// and doubles). The last rows take register_blocked's 16-byte load path (K or N a multiple of 16
// bytes) with partial tiles and slices as well as its element path (K or N not a multiple of 16 bytes).
const int gemm_sizes[][3] = {{1, 1, 1},       {16, 16, 16},    {17, 31, 13},   {64, 64, 64},   {127, 129, 65},
                             {3, 4, 0},       {2, 3, 1},       {97, 33, 257},  {5, 7, 1023},   {100, 1, 17},
                             {65, 63, 17},    {128, 128, 128}, {1, 129, 3},    {131, 257, 9},  {257, 130, 33},
                             {129, 255, 260}, {256, 260, 36},  {255, 256, 131}, {260, 132, 8}, {384, 256, 64}};

const GemmVariant gemm_variants[] = {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                                     GemmVariant::register_blocked};

/// True when register_blocked runs on the FP64 tensor cores (double, Kokkos::Cuda, a GemmMmaBlocking default).
template <class Exec, class Scalar>
constexpr bool on_fp64_tensor_cores() {
  return detail::gemm_on_fp64_tensor_cores<Exec, Scalar>();
}

/// Random A (M x K), B (K x N) and C0 (M x N), row-major in memory space Mem,
/// with host copies hA, hB, hC (seeds seed, seed + 1, seed + 2).
template <class Scalar, class Mem>
struct GemmInputs {
  using View = Kokkos::View<Scalar**, Kokkos::LayoutRight, Mem>;
  View A, B, C0;
  typename View::host_mirror_type hA, hB, hC;
  GemmInputs(int M, int N, int K, std::uint64_t seed)
      : A("A", M, K), B("B", K, N), C0("C0", M, N), hA(Kokkos::create_mirror(A)), hB(Kokkos::create_mirror(B)),
        hC(Kokkos::create_mirror(C0)) {
    test::fill_random(hA, seed);
    test::fill_random(hB, seed + 1);
    test::fill_random(hC, seed + 2);
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hB);
    Kokkos::deep_copy(C0, hC);
  }
};

/// True where register_blocked of Scalar on Exec splits an M x N x K product along K (on CUDA below a
/// wave of the few-tile blocking, detail::gemm_split_plan with the device's SM count).
template <class Exec, class Scalar>
bool split_along_k(int M, int N, int K) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) {
    if (!detail::gemm_pick_few<Scalar>(M, N)) return false;
    if (std::is_same<Scalar, double>::value && detail::gemm_pick_tiny(M, N)) return false;  // tiny_type: unsplit
    using Few = typename detail::GemmDefaultBlocking<Scalar>::few_type;
    return detail::gemm_split_plan<Few>(M, N, K, detail::device_fill(Exec()).sms).splits > 1;
  }
#endif
  (void)M, (void)N, (void)K;
  return false;
}

/// Runs every variant on the same inputs (beta != 0) and requires identical
/// bits: each sums C(i, j) over k = 0..K-1 in increasing order with the same
/// operations (the tiled ones add zero products past K, which changes nothing
/// for sums that are not exactly -0, impossible with these random inputs),
/// except register_blocked for double on the FP64 tensor cores and
/// register_blocked split along K (both checked against the reference bound
/// instead).
template <class Exec, class Scalar>
void check_same_bits_across_variants(int M, int N, int K) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(M, N, K, seed, Exec::name(), sizeof(Scalar));
  const GemmInputs<Scalar, typename Exec::memory_space> in(M, N, K, seed);
  const auto &A = in.A, &B = in.B, &C0 = in.C0;
  const auto &hA = in.hA, &hB = in.hB, &hC = in.hC;
  View Cref("Cref", M, N), C("C", M, N);
  const Scalar alpha = Scalar(1.25), beta = Scalar(-0.5);
  Kokkos::deep_copy(Cref, C0);
  gemm(Exec(), GemmVariant::naive, alpha, A, B, beta, Cref);
  for (auto v : gemm_variants) {
    CAPTURE(name(v));
    Kokkos::deep_copy(C, C0);
    gemm(Exec(), v, alpha, A, B, beta, C);
    Exec().fence();
    if (v == GemmVariant::register_blocked && (on_fp64_tensor_cores<Exec, Scalar>() || split_along_k<Exec, Scalar>(M, N, K))) {
      // The additions inside one mma are in the hardware's order, a split's partial sums are added at the
      // end: equal to the others up to rounding only.
      auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
      const auto res = check::gemm<Scalar>(M, N, K, alpha, hA.data(), hB.data(), beta, hC.data(), out.data());
      CAPTURE(res.worst);
      CHECK(res.bad == 0);
    } else {
      CHECK(test::same_bits(C, Cref));
    }
  }
}

/// register_blocked with tensor-core blocking Blk (any stage count) on the
/// layer: on host backends the scalar path sums in k order, so the bits of
/// the naive variant; on the FP64 tensor cores the reference bound (the
/// additions inside one mma are in the hardware's order).
template <class Exec, class Blk>
void check_mma_blocking(int M, int N, int K) {
  using View      = Kokkos::View<double**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(M, N, K, seed, Exec::name(), Blk::BM, Blk::BN, Blk::WM, Blk::WN, Blk::stages, Blk::KS);
  const GemmInputs<double, typename Exec::memory_space> in(M, N, K, seed);
  const auto &A = in.A, &B = in.B, &C0 = in.C0;
  const auto &hA = in.hA, &hB = in.hB, &hC = in.hC;
  View Cref("Cref", M, N), C("C", M, N);
  Kokkos::deep_copy(Cref, C0);
  Kokkos::deep_copy(C, C0);
  const double alpha = -0.75, beta = 1.5;
  gemm(Exec(), GemmVariant::naive, alpha, A, B, beta, Cref);
  if (M > 0 && N > 0) detail::gemm_register_blocked<Blk>(Exec(), alpha, A, B, beta, C);
  Exec().fence();
  if (on_fp64_tensor_cores<Exec, double>()) {
    auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
    const auto res = check::gemm<double>(M, N, K, alpha, hA.data(), hB.data(), beta, hC.data(), out.data());
    CAPTURE(res.worst);
    CHECK(res.bad == 0);
  } else {
    CHECK(test::same_bits(C, Cref));
  }
}

template <class Exec, class... Blks>
void check_mma_blockings(int M, int N, int K) {
  (check_mma_blocking<Exec, Blks>(M, N, K), ...);
}

/// register_blocked with blocking Blk split along K into `splits` blocks per
/// tile (forced here; on a GPU the library picks by detail::gemm_split_plan),
/// against the reference bound (the splits change the order of the additions;
/// the bound does not depend on it). A second launch on the same workspace
/// must give the same bits (the partial sums are added in split order,
/// whichever block finishes last) and leave every counter at zero again.
template <class Exec, class Scalar, class Blk>
void check_split_k(int M, int N, int K, int splits) {
  using Mem       = typename Exec::memory_space;
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, Mem>;
  const auto seed = test::case_seed(M, N, K + 31 * splits);
  const int nk    = (K + Blk::BK - 1) / Blk::BK;
  detail::GemmSplit plan;
  plan.per    = (nk + splits - 1) / splits;
  plan.splits = (nk + plan.per - 1) / plan.per;
  CAPTURE(M, N, K, splits, plan.splits, plan.per, seed, Exec::name(), sizeof(Scalar), Blk::BM, Blk::BN);
  REQUIRE(plan.splits > 1);
  const long long tiles = static_cast<long long>((M + Blk::BM - 1) / Blk::BM) * ((N + Blk::BN - 1) / Blk::BN);
  Kokkos::View<unsigned*, Mem> count("count", tiles);
  Kokkos::View<Scalar*, Mem> work("work", static_cast<std::size_t>(tiles) * plan.splits * Blk::BM * Blk::BN);
  detail::GemmSplitK<Scalar> sp;
  sp.plan = plan, sp.count = count.data(), sp.work = work.data();
  const GemmInputs<Scalar, Mem> in(M, N, K, seed);
  View C("C", M, N), C2("C2", M, N);
  Kokkos::deep_copy(C, in.C0);
  Kokkos::deep_copy(C2, in.C0);
  const Scalar alpha = Scalar(1.5), beta = Scalar(-0.25);
  detail::gemm_register_blocked<Blk>(Exec(), alpha, in.A, in.B, beta, C, sp);
  detail::gemm_register_blocked<Blk>(Exec(), alpha, in.A, in.B, beta, C2, sp);
  Exec().fence();
  auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  const auto res = check::gemm<Scalar>(M, N, K, alpha, in.hA.data(), in.hB.data(), beta, in.hC.data(), out.data());
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
  CHECK(test::same_bits(C, C2));
  auto hcount     = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), count);
  long long dirty = 0;
  for (long long t = 0; t < tiles; ++t) dirty += hcount(t) != 0u;
  CHECK(dirty == 0);
}


/// Row-major copy of the rank-2 host View v (any layout).
template <class HostView>
std::vector<typename HostView::non_const_value_type> row_major(const HostView& v) {
  std::vector<typename HostView::non_const_value_type> out(v.extent(0) * v.extent(1));
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j) out[i * v.extent(1) + j] = v(i, j);
  return out;
}

/// GEMM on windows of larger row-major matrices: A, B, C are columns
/// [off, off + cols) of matrices `pad` columns wider (LayoutStride Views).
/// Row strides that are not a multiple of 16 bytes, or an offset that is not,
/// force register_blocked onto its element-by-element path; others keep the
/// 16-byte path on strided Views. Elements of C outside the window must keep
/// their bits (the kernel may not write past its View).
template <class Exec, class Scalar>
void check_gemm_strided(GemmVariant v, int M, int N, int K, int pad, int off, Scalar alpha, Scalar beta) {
  using Big       = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K + 1000 * pad + 100000 * off);
  CAPTURE(name(v), M, N, K, pad, off, alpha, beta, seed, Exec::name(), sizeof(Scalar));
  Big Ab("A", M, K + pad), Bb("B", K, N + pad), Cb("C", M, N + pad);
  auto hA = Kokkos::create_mirror_view(Ab);
  auto hB = Kokkos::create_mirror_view(Bb);
  auto hC = Kokkos::create_mirror(Cb);
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  test::fill_random(hC, seed + 2);
  if (beta == Scalar(0)) {  // C is not read: poison the window
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) hC(i, off + j) = test::poison<Scalar>();
  }
  Kokkos::deep_copy(Ab, hA);
  Kokkos::deep_copy(Bb, hB);
  Kokkos::deep_copy(Cb, hC);
  const auto cols = [off](int n) { return Kokkos::make_pair(off, off + n); };
  gemm(Exec(), v, alpha, Kokkos::subview(Ab, Kokkos::ALL, cols(K)), Kokkos::subview(Bb, Kokkos::ALL, cols(N)), beta,
       Kokkos::subview(Cb, Kokkos::ALL, cols(N)));
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Cb);
  const auto a  = row_major(Kokkos::subview(hA, Kokkos::ALL, cols(K)));
  const auto b  = row_major(Kokkos::subview(hB, Kokkos::ALL, cols(N)));
  const auto c0 = row_major(Kokkos::subview(hC, Kokkos::ALL, cols(N)));
  const auto c  = row_major(Kokkos::subview(out, Kokkos::ALL, cols(N)));
  const auto res = check::gemm<Scalar>(M, N, K, alpha, a.data(), b.data(), beta, c0.data(), c.data());
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
  std::size_t touched = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N + pad; ++j)
      if ((j < off || j >= off + N) && std::memcmp(&out(i, j), &hC(i, j), sizeof(Scalar)) != 0) ++touched;
  CHECK(touched == 0);
}

/// GEMM on LayoutLeft Views (column-major: no 16-byte row loads) against the host reference.
template <class Exec, class Scalar>
void check_gemm_layout_left(GemmVariant v, int M, int N, int K) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutLeft, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K + 7);
  CAPTURE(name(v), M, N, K, seed, Exec::name(), sizeof(Scalar));
  View A("A", M, K), B("B", K, N), C("C", M, N);
  auto hA = Kokkos::create_mirror_view(A);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror(C);
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  test::fill_random(hC, seed + 2);
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(C, hC);
  const Scalar alpha = Scalar(0.75), beta = Scalar(-1.5);
  gemm(Exec(), v, alpha, A, B, beta, C);
  auto out       = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
  const auto a   = row_major(hA), b = row_major(hB), c0 = row_major(hC), c = row_major(out);
  const auto res = check::gemm<Scalar>(M, N, K, alpha, a.data(), b.data(), beta, c0.data(), c.data());
  CAPTURE(res.worst);
  CHECK(res.bad == 0);
}

#if SCRATCHKIT_TEST_TWINS
/// register_blocked on the layer and natively (Backend::native) on the same
/// inputs: every element is the same chain of multiply-adds in k order (whatever the lane layout), so the same bits.
template <class Scalar>
void register_blocked_twins(int M, int N, int K) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(M, N, K, seed, sizeof(Scalar));
  const GemmInputs<Scalar, Kokkos::CudaSpace> in(M, N, K, seed);
  const auto &A = in.A, &B = in.B;
  View Cl("Cl", M, N), Cn("Cn", M, N);
  Kokkos::deep_copy(Cl, in.hC);
  Kokkos::deep_copy(Cn, in.hC);
  const Scalar alpha = Scalar(-1.25), beta = Scalar(0.5);
  gemm(Kokkos::Cuda(), GemmVariant::register_blocked, alpha, A, B, beta, Cl);
  gemm(Kokkos::Cuda(), GemmVariant::register_blocked, alpha, A, B, beta, Cn, Backend::native);
  Kokkos::Cuda().fence();
  CHECK(test::same_bits(Cl, Cn));
}
#endif
}  // namespace

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

TEMPLATE_LIST_TEST_CASE("GEMM tensor-core path: every stage count of the cp.async ring, k-steps per slice, tails, K = 0",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  // Stage rings of 2, 3 and 4 (nk below, at and above the stage count), square and non-square warp tiles,
  // slices of 8, 16 and 32 (1, 2, 4 mma k-steps per barrier; K tails inside a slice); all under the layer's
  // ~40 KB of level-0 scratch on a GPU.
  for (const auto& s : {std::array<int, 3>{1, 1, 1}, {3, 4, 0}, {2, 3, 1}, {17, 31, 13}, {65, 130, 33},
                        {129, 255, 260}, {200, 140, 9}, {64, 128, 24}, {130, 66, 17}}) {
    check_mma_blockings<Exec, detail::GemmMmaBlocking<64, 128, 32, 64, 2, 2>,
                        detail::GemmMmaBlocking<64, 128, 32, 64, 2, 3>, detail::GemmMmaBlocking<64, 64, 32, 32, 3, 4>,
                        detail::GemmMmaBlocking<128, 64, 64, 32, 2, 3>, detail::GemmMmaBlocking<128, 128, 64, 32, 1, 2>,
                        detail::GemmMmaBlocking<64, 64, 32, 32, 3, 2, 2>, detail::GemmMmaBlocking<32, 32, 16, 16, 1, 2, 4>>(
        s[0], s[1], s[2]);
    // m16n8k16 (slices of 16 and 32, 2 and 3 stages, one or several pairs of column tiles per warp).
    check_mma_blockings<Exec, detail::GemmMmaBlocking<64, 64, 32, 32, 2, 2, 1, 16>,
                        detail::GemmMmaBlocking<32, 32, 16, 16, 1, 2, 2, 16>,
                        detail::GemmMmaBlocking<64, 32, 32, 16, 1, 3, 1, 16>,
                        detail::GemmDefaultBlocking<double>::few_type,
                        detail::GemmDefaultBlocking<double>::tiny_type>(s[0], s[1], s[2]);
  }
}

TEMPLATE_LIST_TEST_CASE("GEMM split along K: partial tiles, uneven splits, a K tail, both few-tile blockings",
                        "[gemm][layer]", test::Spaces) {
  using Exec  = TestType;
  using Few_f = detail::GemmDefaultBlocking<float>::few_type;
  using Few_d = detail::GemmDefaultBlocking<double>::few_type;
  // (M, N, K, splits): whole and partial tiles, K a multiple of the slice or not, splits that divide the
  // slices or leave a shorter last split, up to gemm_split_max.
  for (const auto& s : {std::array<int, 4>{64, 64, 64, 2}, {17, 31, 200, 3}, {130, 65, 333, 5}, {1, 1, 100, 7},
                        {70, 129, 1024, 16}, {128, 64, 48, 3}}) {
    check_split_k<Exec, float, Few_f>(s[0], s[1], s[2], s[3]);
    check_split_k<Exec, double, Few_d>(s[0], s[1], s[2], s[3]);
  }
  // A plan that skips or repeats slices, or leaves a block empty, is refused before the launch.
  using View = Kokkos::View<float**, Kokkos::LayoutRight, typename Exec::memory_space>;
  View A("A", 64, 160), B("B", 160, 64), C("C", 64, 64);  // 10 slices of 16
  Kokkos::View<unsigned*, typename Exec::memory_space> count("count", 1);
  Kokkos::View<float*, typename Exec::memory_space> work("work", 4 * 64 * 64);
  for (const auto& bad : {std::array<int, 2>{2, 4}, {4, 4}, {3, 5}, {0, 10}, {2, 0}}) {  // {splits, per}
    CAPTURE(bad[0], bad[1]);
    detail::GemmSplitK<float> sp;
    sp.plan.splits = bad[0], sp.plan.per = bad[1], sp.count = count.data(), sp.work = work.data();
    if (bad[0] > 1) CHECK_THROWS_AS(detail::gemm_register_blocked<Few_f>(Exec(), 1.0f, A, B, 0.0f, C, sp), Error);
    else CHECK_THROWS_AS(detail::gemm_split_require<Few_f>(sp.plan, 160), Error);
  }
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
  // 1024 tiles (2048^3: 256; 4096^3: 1024), else `type`; the native twin tells them apart by their stage
  // bytes (detail::gemm_native_shared_limit), so `type` must be the smaller.
  STATIC_REQUIRE(detail::gemm_pick_fallback_few(2048, 2048));
  STATIC_REQUIRE(detail::gemm_pick_fallback_few(3968, 3968));  // 31 x 31 tiles
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(3969, 3969));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(4096, 4096));
  STATIC_REQUIRE_FALSE(detail::gemm_pick_fallback_few(INT_MAX, INT_MAX));
  STATIC_REQUIRE(detail::GemmDefaultBlocking<double>::type::smem_bytes <
                 detail::GemmDefaultBlocking<double>::few_type::smem_bytes);
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

namespace {

/// register_blocked with CUDA-core blocking Blk (the SIMT tuner candidates:
/// lane layouts, FMA orders, B by cp.async) on the layer: every element is the
/// same chain of multiply-adds in k order as the naive variant's, so the bits
/// of the naive variant on every backend.
template <class Exec, class Blk>
void check_simt_blocking(int M, int N, int K) {
  using View      = Kokkos::View<float**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(M, N, K, seed, Exec::name(), Blk::WM, Blk::WN, Blk::order, Blk::b_async);
  const GemmInputs<float, typename Exec::memory_space> in(M, N, K, seed);
  View Cref("Cref", M, N), C("C", M, N);
  Kokkos::deep_copy(Cref, in.C0);
  Kokkos::deep_copy(C, in.C0);
  const float alpha = -0.75f, beta = 1.5f;
  gemm(Exec(), GemmVariant::naive, alpha, in.A, in.B, beta, Cref);
  if (M > 0 && N > 0) detail::gemm_register_blocked<Blk>(Exec(), alpha, in.A, in.B, beta, C);
  Exec().fence();
  CHECK(test::same_bits(C, Cref));
}

template <class Exec, class... Blks>
void check_simt_blockings(int M, int N, int K) {
  (check_simt_blocking<Exec, Blks>(M, N, K), ...);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("GEMM CUDA-core path: every FMA order, lane layout and B copy of the tuner's candidates",
                        "[gemm][layer]", test::Spaces) {
  using Exec = TestType;
  using detail::GemmBlocking;
  // Interior slices (16-byte loads / unchecked cp.async), partial tiles, a K tail, K or N not a multiple of 4.
  for (const auto& s : {std::array<int, 3>{1, 1, 1}, {3, 4, 0}, {17, 31, 13}, {129, 255, 260}, {256, 256, 64},
                        {130, 132, 36}}) {
    check_simt_blockings<Exec, GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_columns>,
                         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_serpentine>,
                         GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, detail::gemm_prefetch>,
                         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_quads>,
                         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, detail::gemm_serpentine, true>,
                         GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, detail::gemm_prefetch, true>,
                         detail::GemmDefaultBlocking<float>::few_type>(s[0], s[1], s[2]);
  }
}
