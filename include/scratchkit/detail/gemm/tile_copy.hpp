// SPDX-License-Identifier: BSD-3-Clause
/// GEMM operands as raw pointers and the copies of their slices into shared stages or registers (both twins).
#pragma once

#include <scratchkit/detail/gemm/cp_async.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/macros.hpp>

namespace scratchkit {
namespace detail {

/// A row-major-ish matrix operand as a raw pointer: element (r, c) at
/// p[r * ld + c * cs], cs = 1 when Unit (row-major; the layer's LayoutRight
/// Views and every native matrix). Strides in elements. The layer hands the
/// kernels this instead of its Views, so that the hot loop keeps one pointer
/// and one stride live, as the native twin does.
template <class T, bool Unit>
struct GemmMat {
  T* p;
  int ld, cs;
  SCRATCHKIT_HOST_DEVICE long long at(int r, int c) const {
    return static_cast<long long>(r) * ld + (Unit ? static_cast<long long>(c) : static_cast<long long>(c) * cs);
  }
};

/// Issues this thread's copies of one tile of a slice into a shared stage:
/// vector v = rank + p*NT of the tile's Total vectors is tile row v / PerRow,
/// columns (v % PerRow)*VW + [0, VW), i.e. matrix row r0 + v / PerRow, column
/// c0 + ...; it lands at dst[index(row, col)] (index maps 16-byte vectors to
/// 16-byte vectors). Outside the rows x cols matrix: zeros. With `vec` (rows
/// of 16-byte vectors, cols a multiple of VW) one 16-byte copy per vector,
/// otherwise one per element.
template <int L, int Total, int PerRow, int NT, class T, bool Unit, class Index>
SCRATCHKIT_HD_FORCEINLINE void gemm_copy_tile(const GemmMat<const T, Unit>& X, int rows, int cols, int r0, int c0,
                                              int rank, bool vec, T* dst, Index index) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int tr = v / PerRow, tc = (v % PerRow) * VW;
    const int r = r0 + tr, c = c0 + tc;
    T* d        = dst + index(tr, tc);
    if (vec) {
      const bool ok = r < rows && c < cols;
      gemm_cp_async16(d, ok ? X.p + X.at(r, c) : X.p, ok);
    } else {
  SCRATCHKIT_UNROLL
      for (int q = 0; q < VW; ++q) {
        const bool ok = r < rows && c + q < cols;
        gemm_cp_async1(d + q, ok ? X.p + X.at(r, c + q) : X.p, ok);
      }
    }
  }
}

/// gemm_copy_tile for a tile wholly inside X with 16-byte rows (vec): no
/// tests, and when NT is a multiple of PerRow (every blocking in use) the
/// copies of one thread are one column of the tile NT / PerRow rows apart:
/// one source address and a constant stride instead of one 64-bit index
/// product per copy (the tensor-core loop spent ~20 instructions per copy on
/// the checked path, ~130 per slice).
template <int L, int Total, int PerRow, int NT, class T, bool Unit, class Index>
SCRATCHKIT_HD_FORCEINLINE void gemm_copy_tile_inside(const GemmMat<const T, Unit>& X, int r0, int c0, int rank,
                                                     T* dst, Index index) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  if constexpr (NT % PerRow == 0) {
    constexpr int RS = NT / PerRow;
    const int tr = rank / PerRow, tc = (rank % PerRow) * VW;
    const T* src         = X.p + X.at(r0 + tr, c0 + tc);
    const long long step = static_cast<long long>(RS) * X.ld;
    SCRATCHKIT_UNROLL
    for (int p = 0; p < L; ++p) {
      if (L * NT != Total && rank + p * NT >= Total) break;
      gemm_cp_async16_inside(dst + index(tr + p * RS, tc), src + p * step);
    }
  } else {
    SCRATCHKIT_UNROLL
    for (int p = 0; p < L; ++p) {
      const int v = rank + p * NT;
      if (L * NT != Total && v >= Total) break;
      const int tr = v / PerRow, tc = (v % PerRow) * VW;
      gemm_cp_async16_inside(dst + index(tr, tc), X.p + X.at(r0 + tr, c0 + tc));
    }
  }
}

/// Derived sizes of GemmVariant::register_blocked for blocking Blk and element
/// type Scalar (both twins use it).
template <class Blk, class Scalar>
struct GemmRbShape {
  static constexpr int VW = static_cast<int>(16 / sizeof(Scalar));  ///< elements per 16-byte vector
  static constexpr int NT = Blk::threads, BM = Blk::BM, BN = Blk::BN, BK = Blk::BK;
  static constexpr int KV = BK / VW, NV = BN / VW;           ///< 16-byte vectors per row of an A, B slice
  static constexpr int AV = BM * KV, BV = BK * NV;           ///< vectors per A, B slice
  static constexpr int LA = (AV + NT - 1) / NT, LB = (BV + NT - 1) / NT;  ///< vectors per thread
  static constexpr int PA = BM + VW;  ///< A^T row pitch of the CUDA-core path: the transposing stores hit distinct banks
  static constexpr int a_size = 2 * BK * PA, b_size = 2 * BK * BN;  ///< CUDA-core path: A^T, B, two buffers each
  static_assert(BK % VW == 0 && BN % VW == 0, "register_blocked: BK and BN must be multiples of 16 bytes");
};

/// 16 bytes of T, for one vector access to shared memory.
template <class T>
struct alignas(16) GemmVec16 {
  T v[16 / sizeof(T)];
};
/// dst[0..VW) = p[0..VW), p 16-byte aligned: one 16-byte load on the GPU.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_ld16(const T* p, T* dst) {
  constexpr int W = static_cast<int>(16 / sizeof(T));
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  const GemmVec16<T> q = *reinterpret_cast<const GemmVec16<T>*>(p);
#pragma unroll
  for (int j = 0; j < W; ++j) dst[j] = q.v[j];
#else
  for (int j = 0; j < W; ++j) dst[j] = p[j];
#endif
}

/// One tile of a slice of the CUDA-core path into registers: vector v = rank
/// + p*NT of the tile's Total vectors is row r0 + v / PerRow, columns c0 + (v %
/// PerRow)*VW + [0, VW) of the rows x cols matrix X. Outside X: zero. With
/// `vec` (rows of 16-byte vectors, cols a multiple of VW) a vector inside X is
/// one 16-byte read-only load, otherwise element by element.
template <int L, int Total, int PerRow, int NT, class T, bool Unit>
SCRATCHKIT_HD_FORCEINLINE void gemm_load_tile(const GemmMat<const T, Unit>& X, int rows, int cols, int r0, int c0,
                                              int rank, bool vec, GemmVec16<T> (&regs)[L]) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int r = r0 + v / PerRow, c = c0 + (v % PerRow) * VW;
    if (vec) {
      if (r < rows && c < cols) {
        load16(X.p + X.at(r, c), regs[p].v);
      } else {
  SCRATCHKIT_UNROLL
        for (int q = 0; q < VW; ++q) regs[p].v[q] = T(0);
      }
    } else {
  SCRATCHKIT_UNROLL
      for (int q = 0; q < VW; ++q) regs[p].v[q] = (r < rows && c + q < cols) ? X.p[X.at(r, c + q)] : T(0);
    }
  }
}

/// gemm_load_tile for a tile wholly inside X with 16-byte rows: no tests.
template <int L, int Total, int PerRow, int NT, class T, bool Unit>
SCRATCHKIT_HD_FORCEINLINE void gemm_load_tile_inside(const GemmMat<const T, Unit>& X, int r0, int c0, int rank,
                                                     GemmVec16<T> (&regs)[L]) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    load16(X.p + X.at(r0 + v / PerRow, c0 + (v % PerRow) * VW), regs[p].v);
  }
}

}  // namespace detail
}  // namespace scratchkit
