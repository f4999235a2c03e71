// SPDX-License-Identifier: BSD-3-Clause
/// The CUDA-core (SIMT) body of GEMM register_blocked both twins run: slice loads, stores and the multiply-adds.
#pragma once

#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/detail/gemm/cp_async.hpp>
#include <scratchkit/detail/gemm/tile_copy.hpp>
#include <scratchkit/detail/macros.hpp>

namespace scratchkit {
namespace detail {

/// Slice k0 of the CUDA-core path into registers (both twins): the A tile
/// (BM x BK, k fastest, so that a warp reads whole 32-byte sectors) and the B
/// tile (BK x BN, n fastest).
template <class Blk, class T, bool UA, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_load(const GemmMat<const T, UA>& A, const GemmMat<const T, UB>& B, int M,
                                              int N, int K, int row0, int col0, int k0, int rank, bool a_vec,
                                              bool b_vec, GemmVec16<T> (&ra)[GemmRbShape<Blk, T>::LA],
                                              GemmVec16<T> (&rb)[GemmRbShape<Blk, T>::LB]) {
  using Sh = GemmRbShape<Blk, T>;
  // Both tiles whole and vectorizable (every slice of an interior block of an aligned C but the K tail):
  // 16-byte loads with no bounds tests, so that the slice costs ~2 instructions per load instead of ~10
  // (the CUDA-core loop is issue-bound: each instruction here takes an FFMA's slot).
  // With Blk::b_async only A (B: gemm_simt_issue_b).
  if (a_vec && b_vec && row0 + Blk::BM <= M && col0 + Blk::BN <= N && k0 + Blk::BK <= K) {
    gemm_load_tile_inside<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, row0, k0, rank, ra);
    if constexpr (!Blk::b_async) gemm_load_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, rb);
    return;
  }
  gemm_load_tile<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, a_vec, ra);
  if constexpr (!Blk::b_async) gemm_load_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, rb);
}

/// Row-major index of B(k, n) in a BK x BN slice buffer, as a functor for gemm_copy_tile.
template <int BN>
struct GemmSimtBIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int k, int n) const { return k * BN + n; }
};

/// Blk::b_async: issues this thread's cp.async copies of the B slice k0 into
/// the buffer bs (bs[k * BN + n], zeros outside B) and commits them as one
/// group (both twins; gemm_cp_async_wait<0> and a barrier before it is read).
/// Unchecked 16-byte copies when the slice of B lies inside B (a_vec is
/// tested too, so that this path and gemm_simt_load's agree on which slices
/// are interior; it changes no value).
template <class Blk, class T, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_issue_b(const GemmMat<const T, UB>& B, int N, int K, int col0, int k0,
                                                 int rank, bool b_vec, T* bs) {
  using Sh = GemmRbShape<Blk, T>;
  if (b_vec && col0 + Blk::BN <= N && k0 + Blk::BK <= K)
    gemm_copy_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, bs, GemmSimtBIndex<Sh::BN>());
  else
    gemm_copy_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, bs, GemmSimtBIndex<Sh::BN>());
  gemm_cp_async_commit();
}

/// Stores the registers of gemm_simt_load into one buffer (both twins): A
/// transposed (as[k * PA + m]), B as is (bs[k * BN + n], one 16-byte store per
/// vector on the GPU).
template <class Blk, class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_store(T* as, T* bs, int rank, const GemmVec16<T> (&ra)[GemmRbShape<Blk, T>::LA],
                                               const GemmVec16<T> (&rb)[GemmRbShape<Blk, T>::LB]) {
  using Sh         = GemmRbShape<Blk, T>;
  constexpr int VW = Sh::VW, NT = Sh::NT, KV = Sh::KV, PA = Sh::PA;
  SCRATCHKIT_UNROLL
  for (int p = 0; p < Sh::LA; ++p) {
    const int v = rank + p * NT;
    if (Sh::LA * NT != Sh::AV && v >= Sh::AV) break;
    const int m = v / KV, k = (v % KV) * VW;
  SCRATCHKIT_UNROLL
    for (int q = 0; q < VW; ++q) as[(k + q) * PA + m] = ra[p].v[q];
  }
  if constexpr (!Blk::b_async) {  // (with b_async B went by cp.async)
  SCRATCHKIT_UNROLL
    for (int p = 0; p < Sh::LB; ++p) {
      const int v = rank + p * NT;
      if (Sh::LB * NT != Sh::BV && v >= Sh::BV) break;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
      *reinterpret_cast<GemmVec16<T>*>(bs + v * VW) = rb[p];
#else
      for (int q = 0; q < VW; ++q) bs[v * VW + q] = rb[p].v[q];
#endif
    }
  } else {
    (void)bs;
    (void)rb;
  }
}

/// rank, with its range [0, NT) told to nvcc. The layer's thread rank comes
/// from Kokkos' team rank, whose range nvcc cannot see; without it the signed
/// divisions of the tile indices in gemm_simt_load / _store keep more values
/// live (float default on the layer: 24 B of spills, none with it).
template <int NT>
SCRATCHKIT_HD_FORCEINLINE int gemm_thread_rank(int rank) {
#if defined(__CUDA_ARCH__)
  __builtin_assume(rank >= 0);
  __builtin_assume(rank < NT);
#endif
  return rank;
}

/// Where thread `rank` of a GemmBlocking block sits in the block tile: its
/// rows are m0 + g*LY*VW + q and its columns n0 + h*LX*VW + q (g < TM/VW,
/// h < TN/VW, q < VW): the lanes of a warp read LY (A^T) and LX (B) adjacent
/// 16-byte vectors per shared load, no bank conflicts.
template <class Blk, class T>
SCRATCHKIT_HOST_DEVICE inline void gemm_simt_place(int rank, int& m0, int& n0) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  const int warp = rank / 32, lane = rank % 32;
  m0 = (warp / Blk::WX) * Blk::WM + (lane / Blk::LX) * VW;
  n0 = (warp % Blk::WX) * Blk::WN + (lane % Blk::LX) * VW;
}

/// One slice of the CUDA-core path (both twins) on the buffer at as (A^T),
/// bs (B): c[i][j] += A(m_i, kk) B(kk, n_j) for kk = 0..BK-1 in order (one
/// multiply-add each, as every other variant); per kk TM/VW 16-byte reads of
/// A^T and TN/VW of B.
template <class Blk, class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_compute(T (&c)[Blk::TM][Blk::TN], const T* as, const T* bs, int m0, int n0) {
  using Sh         = GemmRbShape<Blk, T>;
  constexpr int VW = Sh::VW, BK = Sh::BK, BN = Sh::BN, PA = Sh::PA;
  constexpr int TM = Blk::TM, TN = Blk::TN, LY = Blk::LY, LX = Blk::LX;
  static_assert(TM % VW == 0 && TN % VW == 0, "register_blocked: TM and TN must be multiples of 16 bytes");
  as += m0;
  bs += n0;
  auto fragments = [&](int kk, T(&a)[TM], T(&b)[TN]) {
  SCRATCHKIT_UNROLL
    for (int g = 0; g < TM / VW; ++g) gemm_ld16(as + kk * PA + g * LY * VW, a + g * VW);
  SCRATCHKIT_UNROLL
    for (int h = 0; h < TN / VW; ++h) gemm_ld16(bs + kk * BN + h * LX * VW, b + h * VW);
  };
  if constexpr (Blk::order == gemm_prefetch) {
    T a[2][TM], b[2][TN];
    fragments(0, a[0], b[0]);
  SCRATCHKIT_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      if (kk + 1 < BK) fragments(kk + 1, a[(kk + 1) & 1], b[(kk + 1) & 1]);
  SCRATCHKIT_UNROLL
      for (int i = 0; i < TM; ++i) {
  SCRATCHKIT_UNROLL
        for (int j = 0; j < TN; ++j) c[i][j] += a[kk & 1][i] * b[kk & 1][j];
      }
    }
  } else {
  SCRATCHKIT_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      T a[TM], b[TN];
      fragments(kk, a, b);
      if constexpr (Blk::order == gemm_columns) {
  SCRATCHKIT_UNROLL
        for (int j = 0; j < TN; ++j) {
  SCRATCHKIT_UNROLL
          for (int i = 0; i < TM; ++i) c[i][j] += a[i] * b[j];
        }
      } else if constexpr (Blk::order == gemm_quads) {
  SCRATCHKIT_UNROLL
        for (int g = 0; g < TM / VW; ++g) {
  SCRATCHKIT_UNROLL
          for (int h = 0; h < TN / VW; ++h) {
  SCRATCHKIT_UNROLL
            for (int i = g * VW; i < (g + 1) * VW; ++i) {
  SCRATCHKIT_UNROLL
              for (int j = h * VW; j < (h + 1) * VW; ++j) c[i][j] += a[i] * b[j];
            }
          }
        }
      } else {  // gemm_rows, gemm_serpentine
  SCRATCHKIT_UNROLL
        for (int i = 0; i < TM; ++i) {
  SCRATCHKIT_UNROLL
          for (int jj = 0; jj < TN; ++jj) {
            const int j = Blk::order == gemm_serpentine && (i & 1) ? TN - 1 - jj : jj;
            c[i][j] += a[i] * b[j];
          }
        }
      }
    }
  }
}

}  // namespace detail
}  // namespace scratchkit
