// SPDX-License-Identifier: BSD-3-Clause
/// The FP64 tensor-core (mma) body of GEMM register_blocked both twins run: instructions, fragments, slices, stage ring.
#pragma once

#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/detail/gemm/cp_async.hpp>
#include <scratchkit/detail/gemm/tile_copy.hpp>
#include <scratchkit/detail/macros.hpp>

namespace scratchkit {
namespace detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// c += a * b on one 16 x 8 x 8 FP64 tile held by a warp (fragments as in GemmMmaBlocking), IEEE FP64 FMA
/// on the tensor cores. The same instruction sequence in both twins, so they agree bit for bit.
__device__ __forceinline__ void gemm_dmma_16x8x8(double (&c)[4], const double (&a)[4], const double (&b)[2]) {
#if __CUDA_ARCH__ >= 900
  asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
  // sm_80: the same tile as four 8 x 8 x 4 products (rows g / g+8, k = t / t+4), same fragments.
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[0]), "+d"(c[1]) : "d"(a[0]), "d"(b[0]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[0]), "+d"(c[1]) : "d"(a[2]), "d"(b[1]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[2]), "+d"(c[3]) : "d"(a[1]), "d"(b[0]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[2]), "+d"(c[3]) : "d"(a[3]), "d"(b[1]));
#endif
}
/// c += a * b on one 16 x 8 x 16 FP64 tile (k slot t + 4v of lane 4g + t: a[h + 2v] of rows g + 8h, b[v]).
/// sm_90: one m16n8k16 (PTX ISA 7.8+); sm_80: slots 0-7 then 8-15 as two m16n8k8 tiles (same fragments:
/// a[0..3], b[0..1] are an m16n8k8 tile's).
__device__ __forceinline__ void gemm_dmma_16x8x16(double (&c)[4], const double (&a)[8], const double (&b)[4]) {
#if __CUDA_ARCH__ >= 900
  asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
      "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
        "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
  const double a0[4] = {a[0], a[1], a[2], a[3]}, a1[4] = {a[4], a[5], a[6], a[7]};
  const double b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
  gemm_dmma_16x8x8(c, a0, b0);
  gemm_dmma_16x8x8(c, a1, b1);
#endif
}
#define SCRATCHKIT_GEMM_DMMA 1
#else
#define SCRATCHKIT_GEMM_DMMA 0
#endif

/// Swizzled slice indices of the tensor-core path, as functors for gemm_copy_tile.
template <class Blk>
struct GemmMmaAIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int m, int k) const { return gemm_mma_a_at<Blk>(m, k); }
};
template <int BN>
struct GemmMmaBIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int k, int n) const { return gemm_mma_b_index<BN>(k, n); }
};

/// Issues this thread's copies of slice k0 of the tensor-core path (both
/// twins): A(row0 + [0, BM), k0 + [0, BK)) into stage `as`, B(k0 + [0, BK),
/// col0 + [0, BN)) into stage `bs`, swizzled, zeros outside the matrices. A
/// slice wholly inside both matrices with 16-byte rows (every slice of an
/// interior block but the K tail) takes unchecked 16-byte copies.
template <class Blk, bool UA, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma_issue(const GemmMat<const double, UA>& A, const GemmMat<const double, UB>& B,
                                              int M, int N, int K, int row0, int col0, int k0, int rank, bool a_vec,
                                              bool b_vec, double* as, double* bs) {
  using Sh = GemmRbShape<Blk, double>;
  if (a_vec && b_vec && row0 + Blk::BM <= M && col0 + Blk::BN <= N && k0 + Blk::BK <= K) {
    gemm_copy_tile_inside<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, row0, k0, rank, as, GemmMmaAIndex<Blk>());
    gemm_copy_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, bs, GemmMmaBIndex<Sh::BN>());
    return;
  }
  gemm_copy_tile<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, a_vec, as, GemmMmaAIndex<Blk>());
  gemm_copy_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, bs, GemmMmaBIndex<Sh::BN>());
}

#if SCRATCHKIT_GEMM_DMMA
/// The fragments of k-step s of a slice (tensor-core path, MmaK = 8): A of the warp's MT row tiles, B of its NT
/// column tiles.
template <class Blk>
__device__ __forceinline__ void gemm_mma_fragments(double (&af)[Blk::MT][4], double (&bf)[Blk::NT][2],
                                                   const double* as, const double* bs, const GemmMmaLane<Blk>& l,
                                                   int s) {
#pragma unroll
  for (int j = 0; j < Blk::NT; ++j) {
    bf[j][0] = bs[l.b(j, 0, s)];
    bf[j][1] = bs[l.b(j, 1, s)];
  }
#pragma unroll
  for (int i = 0; i < Blk::MT; ++i) {
    af[i][0] = as[l.a(i, 0, 0, s)];
    af[i][1] = as[l.a(i, 1, 0, s)];
    af[i][2] = as[l.a(i, 0, 1, s)];
    af[i][3] = as[l.a(i, 1, 1, s)];
  }
}
#endif

/// MmaK = 16, k-step s: the A fragments of the warp's MT row tiles, a[h + 2v] = A(g + 8h, 16s + t + 4v):
/// those of 8-deep k-steps 2s (v < 2) and 2s + 1 (v >= 2). (Host code too: tests/test_gemm.cpp runs it
/// against the instruction's layout.)
template <class Blk>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma16_a(double (&af)[Blk::MT][8], const double* as, const GemmMmaLane<Blk>& l,
                                            int s) {
  SCRATCHKIT_UNROLL
  for (int i = 0; i < Blk::MT; ++i) {
    SCRATCHKIT_UNROLL
    for (int v = 0; v < 4; ++v) {
      af[i][2 * v]     = as[l.a(i, 0, v & 1, 2 * s + (v >> 1))];
      af[i][2 * v + 1] = as[l.a(i, 1, v & 1, 2 * s + (v >> 1))];
    }
  }
}
/// MmaK = 16, k-step s: the B fragment of mma tile j, b[v] = B(16s + t + 4v, 8j + g).
template <class Blk>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma16_b(double (&bf)[4], const double* bs, const GemmMmaLane<Blk>& l, int j,
                                            int s) {
  SCRATCHKIT_UNROLL
  for (int v = 0; v < 4; ++v) bf[v] = bs[l.b(j, v & 1, 2 * s + (v >> 1))];
}

/// One slice of the tensor-core path (both twins, so the same mma sequence):
/// on CUDA sm_80+, for each k-step in order, one FP64 mma per tile of the
/// warp (MmaK = 8: i outer, j inner; MmaK = 16: j outer, i inner, the B
/// fragment of the next tile read during the current one and the A fragments
/// of the next k-step near the end of this one), fragments read from
/// stages `as`, `bs` at the offsets of `l`; elsewhere each thread sums its own
/// elements over the BK k of the slice in order with scalar multiply-adds
/// (same result up to the order in a k-step). `mid()` (the copies of a later
/// slice) runs after the fragment reads of the first k-step are issued, so
/// their latency hides behind it, and before its mma; later reads are free to
/// overlap earlier mma (no memory clobber between them).
template <class Blk, class Mid>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma_compute(double (&c)[Blk::MT][Blk::NT][4], const double* as, const double* bs,
                                                const GemmMmaLane<Blk>& l, int rank, const Mid& mid) {
  constexpr int MT = Blk::MT, NT = Blk::NT;
#if SCRATCHKIT_GEMM_DMMA
  (void)rank;
  if constexpr (Blk::k16) {
    // Column tiles outer, so that one B fragment (4 doubles) is live per tile, the next one read during the
    // mma of the current one; the A fragments of k-step s+1 are read two column tiles before the end of
    // k-step s. Live: the accumulators, 2 x MT x 8 A and 2 x 4 B doubles (k8: 2 x (MT x 4 + NT x 2)).
    constexpr int AN = NT >= 2 ? NT - 2 : 0;  // column tile at which the next A fragments are read
    double af[2][MT][8], bf[2][4];
    gemm_mma16_a<Blk>(af[0], as, l, 0);
    gemm_mma16_b<Blk>(bf[0], bs, l, 0, 0);
    mid();
#pragma unroll
    for (int s = 0; s < Blk::KS; ++s) {
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const int q = s * NT + j;  // tile counter: B buffer q % 2
        if (j + 1 < NT)
          gemm_mma16_b<Blk>(bf[(q + 1) & 1], bs, l, j + 1, s);
        else if (s + 1 < Blk::KS)
          gemm_mma16_b<Blk>(bf[(q + 1) & 1], bs, l, 0, s + 1);
        if (j == AN && s + 1 < Blk::KS) gemm_mma16_a<Blk>(af[(s + 1) & 1], as, l, s + 1);
#pragma unroll
        for (int i = 0; i < MT; ++i) gemm_dmma_16x8x16(c[i][j], af[s & 1][i], bf[q & 1]);
      }
    }
  } else {
    double af[Blk::KS][MT][4], bf[Blk::KS][NT][2];
    gemm_mma_fragments<Blk>(af[0], bf[0], as, bs, l, 0);
    mid();
#pragma unroll
    for (int s = 0; s < Blk::KS; ++s) {
      if (s + 1 < Blk::KS) gemm_mma_fragments<Blk>(af[s + 1], bf[s + 1], as, bs, l, s + 1);
#pragma unroll
      for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int j = 0; j < NT; ++j) gemm_dmma_16x8x8(c[i][j], af[s][i], bf[s][j]);
      }
    }
  }
#else
  (void)l;
  mid();
  const int warp = rank / 32, g = rank % 32 / 4, t = rank % 4;
  const int wm = (warp / Blk::WX) * Blk::WM + g, wn = (warp % Blk::WX) * Blk::WN;
  for (int i = 0; i < MT; ++i)
    for (int j = 0; j < NT; ++j)
      for (int e = 0; e < 4; ++e) {
        const int m = wm + i * 16 + 8 * (e / 2), n = wn + j * 8 + 2 * t + e % 2;
        double s    = c[i][j][e];
        for (int kk = 0; kk < Blk::BK; ++kk) s += as[gemm_mma_a_at<Blk>(m, kk)] * bs[gemm_mma_b_index<Blk::BN>(kk, n)];
        c[i][j][e] = s;
      }
#endif
}

/// Stage ring of the cp.async pipelines (both twins): slice kt lives in stage
/// kt % S. Prologue: slices 0 .. S-2 issued, one commit group each. Step kt:
/// issue slice kt+S-1 into stage (kt-1) % S (read during step kt-1, before
/// the last barrier), commit (an empty group past the last slice keeps the
/// count), math on stage kt % S, wait until slice kt+1 has landed (at most S-2
/// groups in flight), barrier: one barrier per slice.
template <int S>
struct GemmStageRing {
  int rd = 0;  ///< stage of slice kt
  SCRATCHKIT_HOST_DEVICE int write() const { return rd == 0 ? S - 1 : rd - 1; }  ///< stage of slice kt+S-1
  SCRATCHKIT_HOST_DEVICE void next() { rd = rd == S - 1 ? 0 : rd + 1; }
};

}  // namespace detail
}  // namespace scratchkit
