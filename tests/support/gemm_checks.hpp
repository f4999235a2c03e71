// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the GEMM tests (test_gemm.cpp and the blocking units test_gemm_mma*.cpp,
// test_gemm_simt*.cpp): each unit instantiates a few blockings, so that none compiles for long.
// Tolerance: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
// (scratchkit/reference/reference.hpp says where it comes from).
#pragma once

#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>

#include <catch2/catch_test_macros.hpp>

#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

namespace scratchkit {
namespace gemm_checks {


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
inline const int gemm_sizes[][3] = {{1, 1, 1},       {16, 16, 16},    {17, 31, 13},   {64, 64, 64},   {127, 129, 65},
                             {3, 4, 0},       {2, 3, 1},       {97, 33, 257},  {5, 7, 1023},   {100, 1, 17},
                             {65, 63, 17},    {128, 128, 128}, {1, 129, 3},    {131, 257, 9},  {257, 130, 33},
                             {129, 255, 260}, {256, 260, 36},  {255, 256, 131}, {260, 132, 8}, {384, 256, 64}};

inline const GemmVariant gemm_variants[] = {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
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

/// True where register_blocked of Scalar on Exec splits an M x N x K product along K (on CUDA the
/// few-tile blocking below a wave, as the layer's pick plans it: detail::gemm_layer_pick).
template <class Exec, class Scalar>
bool split_along_k(int M, int N, int K) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) {
    if (M == 0 || N == 0) return false;
    return detail::gemm_layer_pick<Scalar>(Exec(), M, N, K).split.splits > 1;
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


/// The shapes every tensor-core blocking runs: stage rings of 2, 3 and 4 (nk below, at and above the stage
/// count), square and non-square warp tiles, K tails inside a slice, K = 0.
inline const std::array<int, 3> mma_shapes[] = {{1, 1, 1},     {3, 4, 0},       {2, 3, 1},
                                                {17, 31, 13},  {65, 130, 33},   {129, 255, 260},
                                                {200, 140, 9}, {64, 128, 24},   {130, 66, 17}};

/// The shapes every CUDA-core blocking runs: interior slices (16-byte loads / unchecked cp.async), partial
/// tiles, a K tail, K or N not a multiple of 4.
inline const std::array<int, 3> simt_shapes[] = {{1, 1, 1},       {3, 4, 0},     {17, 31, 13},
                                                 {129, 255, 260}, {256, 256, 64}, {130, 132, 36}};

}  // namespace gemm_checks
}  // namespace scratchkit
