// SPDX-License-Identifier: BSD-3-Clause
/// GEMM on the layer: C = alpha*A*B + beta*C (native twin: src/cuda/gemm.cu).
#pragma once

#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/native/gemm.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>

#include <cstdint>
#include <sstream>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Tile edge of GemmVariant::tiled and GemmVariant::tiled_double_buffered.
constexpr int gemm_tile = 16;

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_GEMM_UNROLL _Pragma("unroll")
#else
#define SCRATCHKIT_GEMM_UNROLL
#endif

/// Elements of Scalar in one 16-byte vector.
template <class Scalar>
constexpr int gemm_vector_width = static_cast<int>(16 / sizeof(Scalar));

/// 16 bytes of Scalar, aligned so that a copy is one 16-byte access on the GPU.
template <class Scalar>
struct alignas(16) GemmPack {
  Scalar v[gemm_vector_width<Scalar>];
};

/// dst[0..VW) = s[i..i+VW) for a 16-byte aligned s[i] in scratch: one vector
/// load on the GPU (the compiler cannot prove the scratch base aligned), plain
/// (bounds-checked) loads on the host, where there is no type punning.
template <class Array>
KOKKOS_FORCEINLINE_FUNCTION void gemm_load_pack(typename Array::value_type* dst, const Array& s, int i) {
  using Scalar     = typename Array::value_type;
  constexpr int VW = gemm_vector_width<Scalar>;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  SCRATCHKIT_BOUNDS_CHECK(static_cast<std::size_t>(i) + VW <= Array::size(),
                          "scratchkit: gemm vector load out of bounds");
  const GemmPack<Scalar> p = *reinterpret_cast<const GemmPack<Scalar>*>(&s[i]);
  SCRATCHKIT_GEMM_UNROLL
  for (int q = 0; q < VW; ++q) dst[q] = p.v[q];
#else
  for (int q = 0; q < VW; ++q) dst[q] = s[i + q];
#endif
}

/// s[i..i+VW) = src for a 16-byte aligned s[i] in scratch: one vector store on the GPU.
template <class Array>
KOKKOS_FORCEINLINE_FUNCTION void gemm_store_pack(const Array& s, int i,
                                                 const GemmPack<typename Array::value_type>& src) {
  using Scalar = typename Array::value_type;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  SCRATCHKIT_BOUNDS_CHECK(static_cast<std::size_t>(i) + gemm_vector_width<Scalar> <= Array::size(),
                          "scratchkit: gemm vector store out of bounds");
  *reinterpret_cast<GemmPack<Scalar>*>(&s[i]) = src;
#else
  for (int q = 0; q < gemm_vector_width<Scalar>; ++q) s[i + q] = src.v[q];
#endif
}

/// d = p[0..VW) for a 16-byte aligned p in global memory: one vector load on the GPU.
template <class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void gemm_load_global(GemmPack<Scalar>& d, const Scalar* p) {
#if defined(__CUDA_ARCH__)
  load16(p, d.v);
#elif defined(__HIP_DEVICE_COMPILE__)
  d = *reinterpret_cast<const GemmPack<Scalar>*>(p);
#else
  for (int q = 0; q < gemm_vector_width<Scalar>; ++q) d.v[q] = p[q];
#endif
}

/// True when rows of the rank-2 View v can be read as 16-byte vectors: unit
/// stride along a row, row stride a multiple of 16 bytes, 16-byte aligned data.
template <class View>
bool gemm_rows_vectorizable(const View& v) {
  using Scalar     = typename View::non_const_value_type;
  constexpr int VW = gemm_vector_width<Scalar>;
  return v.stride(1) == 1 && v.stride(0) % VW == 0 && reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
}

/// The TM x TN block of C one thread of GemmVariant::register_blocked accumulates.
template <class Scalar, int TM, int TN>
struct GemmFragment {
  Scalar c[TM][TN];
};

template <class ExecSpace, class AV, class BV, class CV>
void gemm_naive(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  constexpr int T = gemm_tile;
  const LaunchParams p(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T));
  launch(exec, "scratchkit::gemm_naive", p, KOKKOS_LAMBDA(const B_t& b) {
    b.threads([&](const Thread& t) {
      const int r = b.block_idx().y * T + t.y, c = b.block_idx().x * T + t.x;
      if (r < M && c < N) {
        Scalar acc = 0;
        for (int k = 0; k < K; ++k) acc += read_only(A, r, k) * read_only(B, k, c);
        C(r, c) = beta == Scalar(0) ? alpha * acc : gemm_epilogue(alpha, acc, beta, C(r, c));
      }
    });
  });
}

template <class ExecSpace, class AV, class BV, class CV>
void gemm_tiled(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  constexpr int T = gemm_tile;
  using Tile      = SharedArray<Scalar, T * T>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const auto p = LaunchParams(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T)).uses<Tile, Tile>();
  launch(exec, "scratchkit::gemm_tiled", p, KOKKOS_LAMBDA(const B_t& b) {
    Tile As(b), Bs(b);
    PerThread<Scalar, B_t, T * T> acc(b);
    const int row0 = b.block_idx().y * T, col0 = b.block_idx().x * T;
    b.threads([&](const Thread& t) { acc(t) = Scalar(0); });
    for (int k0 = 0; k0 < K; k0 += T) {
      b.threads([&](const Thread& t) {
        const int ar = row0 + t.y, ac = k0 + t.x;
        As[t.y * T + t.x] = (ar < M && ac < K) ? read_only(A, ar, ac) : Scalar(0);
        const int br = k0 + t.y, bc = col0 + t.x;
        Bs[t.y * T + t.x] = (br < K && bc < N) ? read_only(B, br, bc) : Scalar(0);
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        Scalar s = acc(t);
        for (int kk = 0; kk < T; ++kk) s += As[t.y * T + kk] * Bs[kk * T + t.x];
        acc(t) = s;
      });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) {
      const int r = row0 + t.y, c = col0 + t.x;
      if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc(t) : gemm_epilogue(alpha, acc(t), beta, C(r, c));
    });
  });
}

template <class ExecSpace, class AV, class BV, class CV>
void gemm_tiled_double_buffered(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                                const BV& B, typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  constexpr int T  = gemm_tile;
  constexpr int TT = T * T;
  using Tiles      = SharedArray<Scalar, 2 * TT>;  // buffers 0 and 1 of one operand
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk = ceil_div(K, T);
  const auto p = LaunchParams(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T)).uses<Tiles, Tiles>();
  launch(exec, "scratchkit::gemm_tiled_double_buffered", p, KOKKOS_LAMBDA(const B_t& b) {
    Tiles As(b), Bs(b);
    PerThread<Scalar, B_t, TT> acc(b);
    const int row0 = b.block_idx().y * T, col0 = b.block_idx().x * T;
    b.threads([&](const Thread& t) {
      acc(t)       = Scalar(0);
      const int ar = row0 + t.y, bc = col0 + t.x;
      As[t.y * T + t.x] = (ar < M && t.x < K) ? read_only(A, ar, t.x) : Scalar(0);
      Bs[t.y * T + t.x] = (t.y < K && bc < N) ? read_only(B, t.y, bc) : Scalar(0);
    });
    sync_threads(b);
    for (int kt = 0; kt < nk; ++kt) {
      const int cur   = (kt & 1) * TT, nxt = TT - cur;
      const bool more = kt + 1 < nk;
      b.threads([&](const Thread& t) {
        // Issue the loads of tile kt+1 first: they are in flight during the math on tile kt.
        Scalar na = Scalar(0), nb = Scalar(0);
        if (more) {
          const int k0 = (kt + 1) * T, ar = row0 + t.y, ac = k0 + t.x, br = k0 + t.y, bc = col0 + t.x;
          na = (ar < M && ac < K) ? read_only(A, ar, ac) : Scalar(0);
          nb = (br < K && bc < N) ? read_only(B, br, bc) : Scalar(0);
        }
        Scalar s = acc(t);
        for (int kk = 0; kk < T; ++kk) s += As[cur + t.y * T + kk] * Bs[cur + kk * T + t.x];
        acc(t) = s;
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (more) {
          As[nxt + t.y * T + t.x] = na;
          Bs[nxt + t.y * T + t.x] = nb;
        }
      });
      sync_threads(b);  // the only barrier of a k step
    }
    b.threads([&](const Thread& t) {
      const int r = row0 + t.y, c = col0 + t.x;
      if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc(t) : gemm_epilogue(alpha, acc(t), beta, C(r, c));
    });
  });
}

/// Loads one tile of slice k0 into registers: vector v = rank + p*NT of the
/// tile's Total vectors is row r0 + v / PerRow, columns c0 + (v % PerRow)*VW +
/// [0, VW) of the rows x cols matrix X. Outside X: zero. With `vec` (rows
/// readable as 16-byte vectors, cols a multiple of VW) a vector inside X is one
/// 16-byte load, otherwise element by element.
template <int L, int Total, int PerRow, int NT, class Scalar, class XV>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_load_tile(const XV& X, int rows, int cols, int r0, int c0, int rank,
                                                   bool vec, GemmPack<Scalar> (&regs)[L]) {
  constexpr int VW = gemm_vector_width<Scalar>;
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int r = r0 + v / PerRow, c = c0 + (v % PerRow) * VW;
    if (vec) {
      if (r < rows && c < cols) {
        gemm_load_global(regs[p], &X(r, c));
      } else {
        SCRATCHKIT_GEMM_UNROLL
        for (int q = 0; q < VW; ++q) regs[p].v[q] = Scalar(0);
      }
    } else {
      SCRATCHKIT_GEMM_UNROLL
      for (int q = 0; q < VW; ++q) regs[p].v[q] = (r < rows && c + q < cols) ? X(r, c + q) : Scalar(0);
    }
  }
}

/// Slice k0 of the block's A tile (BM x BK, k fastest, so that a warp reads
/// whole 32-byte sectors) into registers.
template <class Blk, class Scalar, class AV>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_load_a(const AV& A, int M, int K, int row0, int k0, int rank, bool vec,
                                                GemmPack<Scalar> (&ra)[GemmRbShape<Blk, Scalar>::LA]) {
  using Sh = GemmRbShape<Blk, Scalar>;
  gemm_rb_load_tile<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, vec, ra);
}

/// Slice k0 of the block's B tile (BK x BN, n fastest) into registers.
template <class Blk, class Scalar, class BV>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_load_b(const BV& B, int N, int K, int col0, int k0, int rank, bool vec,
                                                GemmPack<Scalar> (&rb)[GemmRbShape<Blk, Scalar>::LB]) {
  using Sh = GemmRbShape<Blk, Scalar>;
  gemm_rb_load_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, vec, rb);
}

/// Stores the registers of gemm_rb_load_a/_b into buffer `buf`: A transposed
/// (As[k][m], pitch PA), B as is (Bs[k][n], one 16-byte store per vector).
template <class Blk, class AArray, class BArray, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_store(const AArray& As, const BArray& Bs, int buf, int rank,
                                               const GemmPack<Scalar> (&ra)[GemmRbShape<Blk, Scalar>::LA],
                                               const GemmPack<Scalar> (&rb)[GemmRbShape<Blk, Scalar>::LB]) {
  using Sh     = GemmRbShape<Blk, Scalar>;
  const int a0 = buf * Sh::BK * Sh::PA, b0 = buf * Sh::BK * Sh::BN;
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < Sh::LA; ++p) {
    const int v = rank + p * Sh::NT;
    if (Sh::LA * Sh::NT != Sh::AV && v >= Sh::AV) break;
    const int m = v / Sh::KV, k = (v % Sh::KV) * Sh::VW;
    SCRATCHKIT_GEMM_UNROLL
    for (int q = 0; q < Sh::VW; ++q) As[a0 + (k + q) * Sh::PA + m] = ra[p].v[q];
  }
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < Sh::LB; ++p) {
    const int v = rank + p * Sh::NT;
    if (Sh::LB * Sh::NT != Sh::BV && v >= Sh::BV) break;
    gemm_store_pack(Bs, b0 + v * Sh::VW, rb[p]);  // row v / NV, column (v % NV)*VW
  }
}

/// Where thread `rank` sits in the block tile: its warp's tile (wy, wx) and its
/// lane (ly, lx) within the warp tile, as offsets of its first row and column.
/// Its rows are m0 + g*LY*VW + q, its columns n0 + h*LX*VW + q (g < TM/VW,
/// h < TN/VW, q < VW): the lanes of a warp read LY (A) and LX (B) adjacent
/// 16-byte vectors per shared load, no bank conflicts.
template <class Blk, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_place(int rank, int& m0, int& n0) {
  constexpr int VW = gemm_vector_width<Scalar>;
  const int warp = rank / 32, lane = rank % 32;
  m0 = (warp / Blk::WX) * Blk::WM + (lane / Blk::LX) * VW;
  n0 = (warp % Blk::WX) * Blk::WN + (lane % Blk::LX) * VW;
}

/// One BK slice: f += As^T(:, kk) * Bs(kk, :) for kk = 0..BK-1 in order.
template <class Blk, class AArray, class BArray, class Scalar>
KOKKOS_FORCEINLINE_FUNCTION void gemm_rb_slice(GemmFragment<Scalar, Blk::TM, Blk::TN>& f, const AArray& As,
                                               const BArray& Bs, int buf, int m0, int n0) {
  using Sh         = GemmRbShape<Blk, Scalar>;
  constexpr int VW = Sh::VW, TM = Blk::TM, TN = Blk::TN;
  const int a0 = buf * Sh::BK * Sh::PA + m0, b0 = buf * Sh::BK * Sh::BN + n0;
  SCRATCHKIT_GEMM_UNROLL
  for (int kk = 0; kk < Sh::BK; ++kk) {
    Scalar a[TM], bv[TN];
    SCRATCHKIT_GEMM_UNROLL
    for (int g = 0; g < TM / VW; ++g) gemm_load_pack(a + g * VW, As, a0 + kk * Sh::PA + g * Blk::LY * VW);
    SCRATCHKIT_GEMM_UNROLL
    for (int h = 0; h < TN / VW; ++h) gemm_load_pack(bv + h * VW, Bs, b0 + kk * Sh::BN + h * Blk::LX * VW);
    SCRATCHKIT_GEMM_UNROLL
    for (int i = 0; i < TM; ++i) {
      SCRATCHKIT_GEMM_UNROLL
      for (int j = 0; j < TN; ++j) f.c[i][j] += a[i] * bv[j];
    }
  }
}

/// GemmVariant::register_blocked with blocking Blk (GemmBlocking): A^T and B
/// slices double-buffered in shared memory, slice kt+1 loaded into registers
/// (16-byte loads where the matrices allow) during the math on slice kt, one
/// barrier per slice, launch bounds (Blk::threads, Blk::min_blocks).
template <class Blk, class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked_simt(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                                const BV& B, typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  using Sh     = GemmRbShape<Blk, Scalar>;
  constexpr int BM = Blk::BM, BN = Blk::BN, BK = Blk::BK, TM = Blk::TM, TN = Blk::TN, NT = Blk::threads;
  constexpr int VW = Sh::VW, LA = Sh::LA, LB = Sh::LB;
  static_assert(TM % VW == 0 && TN % VW == 0, "register_blocked: TM and TN must be multiples of 16 bytes");
  using ATiles = SharedArray<Scalar, Sh::a_size, 16>;  // A^T, buffers 0 and 1
  using BTiles = SharedArray<Scalar, Sh::b_size, 16>;  // B, buffers 0 and 1
  using Frag   = GemmFragment<Scalar, TM, TN>;
  using Pack   = GemmPack<Scalar>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk = ceil_div(K, BK);
  // 16-byte loads need every vector of a row inside or outside the matrix: K (N) a multiple of VW.
  const bool a_vec = K % VW == 0 && gemm_rows_vectorizable(A);
  const bool b_vec = N % VW == 0 && gemm_rows_vectorizable(B);
  // Level 0 on a GPU; host backends (Kokkos 3.4 Serial: 32 KB of level 0) may use level 1 for large blockings.
  const GemmGrid grid(ceil_div(N, BN), ceil_div(M, BM));
  const int lg = grid.lg;
  const auto p = LaunchParams(Dim3(grid.gx, grid.gy), Dim3(NT))
                     .uses<ATiles, BTiles>()
                     .fallback(is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1);
  launch<LaunchBounds<NT, Blk::min_blocks>>(exec, "scratchkit::gemm_register_blocked", p,
                                            KOKKOS_LAMBDA(const B_t& b) {
    ATiles As(b);
    BTiles Bs(b);
    PerThread<Frag, B_t, NT> acc(b);
    int bx, by;
    gemm_tile_of(b.block_idx().x, b.block_idx().y, lg, bx, by);
    const int row0 = by * BM, col0 = bx * BN;
    if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
    b.threads([&](const Thread& t) {
      Frag& f = acc(t);
      SCRATCHKIT_GEMM_UNROLL
      for (int i = 0; i < TM; ++i) {
        SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < TN; ++j) f.c[i][j] = Scalar(0);
      }
      Pack ra[LA], rb[LB];
      gemm_rb_load_a<Blk>(A, M, K, row0, 0, t.rank, a_vec, ra);
      gemm_rb_load_b<Blk>(B, N, K, col0, 0, t.rank, b_vec, rb);
      gemm_rb_store<Blk>(As, Bs, 0, t.rank, ra, rb);
    });
    sync_threads(b);
    for (int kt = 0; kt < nk; ++kt) {
      const int cur   = kt & 1;
      const bool more = kt + 1 < nk;
      b.threads([&](const Thread& t) {
        // Slice kt+1 goes to registers first, so its loads are in flight during the math on slice kt.
        Pack ra[LA], rb[LB];
        if (more) {
          gemm_rb_load_a<Blk>(A, M, K, row0, (kt + 1) * BK, t.rank, a_vec, ra);
          gemm_rb_load_b<Blk>(B, N, K, col0, (kt + 1) * BK, t.rank, b_vec, rb);
        }
        int m0, n0;
        gemm_rb_place<Blk, Scalar>(t.rank, m0, n0);
        gemm_rb_slice<Blk>(acc(t), As, Bs, cur, m0, n0);
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (more) gemm_rb_store<Blk>(As, Bs, 1 - cur, t.rank, ra, rb);
      });
      sync_threads(b);  // the only barrier of a slice
    }
    b.threads([&](const Thread& t) {
      const Frag& f = acc(t);
      int m0, n0;
      gemm_rb_place<Blk, Scalar>(t.rank, m0, n0);
      SCRATCHKIT_GEMM_UNROLL
      for (int i = 0; i < TM; ++i) {
        const int r = row0 + m0 + (i / VW) * Blk::LY * VW + i % VW;
        if (r >= M) continue;
        SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < TN; ++j) {
          const int c = col0 + n0 + (j / VW) * Blk::LX * VW + j % VW;
          if (c < N) C(r, c) = beta == Scalar(0) ? alpha * f.c[i][j] : gemm_epilogue(alpha, f.c[i][j], beta, C(r, c));
        }
      }
    });
  });
}

/// The accumulators of one thread of the tensor-core path: elements (g, 2t),
/// (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of each of its warp's MT x NT mma tiles.
template <int MT, int NT>
struct GemmMmaFragment {
  double c[MT][NT][4];
};

/// Stores the registers of gemm_rb_load_a/_b into buffer `buf` of the
/// tensor-core path: A and B by rows, swizzled (gemm_mma_a_index, _b_index),
/// one 16-byte store per vector.
template <class Blk, class AArray, class BArray>
KOKKOS_FORCEINLINE_FUNCTION void gemm_mma_store(const AArray& As, const BArray& Bs, int buf, int rank,
                                                const GemmPack<double> (&ra)[GemmRbShape<Blk, double>::LA],
                                                const GemmPack<double> (&rb)[GemmRbShape<Blk, double>::LB]) {
  using Sh     = GemmRbShape<Blk, double>;
  const int a0 = buf * Sh::BM * Sh::BK, b0 = buf * Sh::BK * Sh::BN;
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < Sh::LA; ++p) {
    const int v = rank + p * Sh::NT;
    if (Sh::LA * Sh::NT != Sh::AV && v >= Sh::AV) break;
    gemm_store_pack(As, a0 + gemm_mma_a_index(v / Sh::KV, (v % Sh::KV) * Sh::VW), ra[p]);
  }
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < Sh::LB; ++p) {
    const int v = rank + p * Sh::NT;
    if (Sh::LB * Sh::NT != Sh::BV && v >= Sh::BV) break;
    gemm_store_pack(Bs, b0 + gemm_mma_b_index<Sh::BN>(v / Sh::NV, (v % Sh::NV) * Sh::VW), rb[p]);
  }
}

/// One slice of the tensor-core path: on CUDA sm_80+ one m16n8k8 FP64 mma per
/// tile of the warp, fragments read at the offsets of `l`; elsewhere each
/// thread sums its own elements over the 8 k of the slice in order with
/// scalar multiply-adds (same result up to the summation order in a slice).
template <class Blk, class AArray, class BArray>
KOKKOS_FORCEINLINE_FUNCTION void gemm_mma_slice(GemmMmaFragment<Blk::MT, Blk::NT>& f, const AArray& As,
                                                const BArray& Bs, int buf, int rank, const GemmMmaLane<Blk>& l) {
  constexpr int BM = Blk::BM, BN = Blk::BN, MT = Blk::MT, NT = Blk::NT;
  const int a0 = buf * BM * 8, b0 = buf * 8 * BN;
#if SCRATCHKIT_GEMM_DMMA
  (void)rank;
  double bf[NT][2];
  SCRATCHKIT_GEMM_UNROLL
  for (int j = 0; j < NT; ++j) {
    bf[j][0] = Bs[b0 + l.b(j, 0)];
    bf[j][1] = Bs[b0 + l.b(j, 1)];
  }
  SCRATCHKIT_GEMM_UNROLL
  for (int i = 0; i < MT; ++i) {
    const double af[4] = {As[a0 + l.a(i, 0, 0)], As[a0 + l.a(i, 1, 0)], As[a0 + l.a(i, 0, 1)], As[a0 + l.a(i, 1, 1)]};
    SCRATCHKIT_GEMM_UNROLL
    for (int j = 0; j < NT; ++j) gemm_dmma_16x8x8(f.c[i][j], af, bf[j]);
  }
#else
  (void)l;
  const int warp = rank / 32, g = rank % 32 / 4, t = rank % 4;
  const int wm = (warp / Blk::WX) * Blk::WM + g, wn = (warp % Blk::WX) * Blk::WN;
  for (int i = 0; i < MT; ++i)
    for (int j = 0; j < NT; ++j)
      for (int e = 0; e < 4; ++e) {
        const int m = wm + i * 16 + 8 * (e / 2), n = wn + j * 8 + 2 * t + e % 2;
        double s    = f.c[i][j][e];
        for (int kk = 0; kk < 8; ++kk) s += As[a0 + gemm_mma_a_index(m, kk)] * Bs[b0 + gemm_mma_b_index<BN>(kk, n)];
        f.c[i][j][e] = s;
      }
#endif
}

/// GemmVariant::register_blocked for double with a GemmMmaBlocking: the
/// structure of the SIMT path (slices of 8 double-buffered in shared memory,
/// slice kt+1 loaded into registers during the math on slice kt, one barrier
/// per slice), with the math on the FP64 tensor cores.
template <class Blk, class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked_mma(const ExecSpace& exec, double alpha, const AV& A, const BV& B, double beta,
                               const CV& C) {
  using B_t    = Block<ExecSpace>;
  using Sh     = GemmRbShape<Blk, double>;
  constexpr int BM = Blk::BM, BN = Blk::BN, BK = Blk::BK, NT = Blk::threads, VW = Sh::VW;
  constexpr int LA = Sh::LA, LB = Sh::LB;
  using ATiles = SharedArray<double, 2 * BM * BK, 16>;  // A by rows, buffers 0 and 1
  using BTiles = SharedArray<double, 2 * BK * BN, 16>;  // B by rows, buffers 0 and 1
  using Frag   = GemmMmaFragment<Blk::MT, Blk::NT>;
  using Pack   = GemmPack<double>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk     = ceil_div(K, BK);
  const bool a_vec = K % VW == 0 && gemm_rows_vectorizable(A);
  const bool b_vec = N % VW == 0 && gemm_rows_vectorizable(B);
  // 32 KB of tiles: level 0 on a GPU; host backends (Kokkos 3.4 Serial: 32 KB of level 0) may use level 1.
  const GemmGrid grid(ceil_div(N, BN), ceil_div(M, BM));
  const int lg = grid.lg;
  const auto p = LaunchParams(Dim3(grid.gx, grid.gy), Dim3(NT))
                     .uses<ATiles, BTiles>()
                     .fallback(is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1);
  launch<LaunchBounds<NT, Blk::min_blocks>>(exec, "scratchkit::gemm_register_blocked", p,
                                            KOKKOS_LAMBDA(const B_t& b) {
    ATiles As(b);
    BTiles Bs(b);
    PerThread<Frag, B_t, NT> acc(b);
    PerThread<GemmMmaLane<Blk>, B_t, NT> lane(b);  // fragment offsets, computed once
    int bx, by;
    gemm_tile_of(b.block_idx().x, b.block_idx().y, lg, bx, by);
    const int row0 = by * BM, col0 = bx * BN;
    if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
    b.threads([&](const Thread& t) {
      lane(t) = GemmMmaLane<Blk>(t.rank);
      Frag& f = acc(t);
      SCRATCHKIT_GEMM_UNROLL
      for (int i = 0; i < Blk::MT; ++i) {
        SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < Blk::NT; ++j) {
          SCRATCHKIT_GEMM_UNROLL
          for (int e = 0; e < 4; ++e) f.c[i][j][e] = 0.0;
        }
      }
      Pack ra[LA], rb[LB];
      gemm_rb_load_a<Blk>(A, M, K, row0, 0, t.rank, a_vec, ra);
      gemm_rb_load_b<Blk>(B, N, K, col0, 0, t.rank, b_vec, rb);
      gemm_mma_store<Blk>(As, Bs, 0, t.rank, ra, rb);
    });
    sync_threads(b);
    for (int kt = 0; kt < nk; ++kt) {
      const int cur   = kt & 1;
      const bool more = kt + 1 < nk;
      b.threads([&](const Thread& t) {
        Pack ra[LA], rb[LB];
        if (more) {
          gemm_rb_load_a<Blk>(A, M, K, row0, (kt + 1) * BK, t.rank, a_vec, ra);
          gemm_rb_load_b<Blk>(B, N, K, col0, (kt + 1) * BK, t.rank, b_vec, rb);
        }
        gemm_mma_slice<Blk>(acc(t), As, Bs, cur, t.rank, lane(t));
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (more) gemm_mma_store<Blk>(As, Bs, 1 - cur, t.rank, ra, rb);
      });
      sync_threads(b);  // the only barrier of a slice
    }
    b.threads([&](const Thread& t) {
      const Frag& f = acc(t);
      const int warp = t.rank / 32, lane = t.rank % 32;
      const int m0 = row0 + (warp / Blk::WX) * Blk::WM + lane / 4;
      const int n0 = col0 + (warp % Blk::WX) * Blk::WN + 2 * (lane % 4);
      SCRATCHKIT_GEMM_UNROLL
      for (int i = 0; i < Blk::MT; ++i) {
        SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < Blk::NT; ++j) {
          SCRATCHKIT_GEMM_UNROLL
          for (int e = 0; e < 4; ++e) {
            const int r = m0 + i * 16 + 8 * (e / 2), c = n0 + j * 8 + e % 2;
            if (r < M && c < N)
              C(r, c) = beta == 0.0 ? alpha * f.c[i][j][e] : gemm_epilogue(alpha, f.c[i][j][e], beta, C(r, c));
          }
        }
      }
    });
  });
}

/// GemmVariant::register_blocked with blocking Blk: a GemmBlocking runs on the
/// CUDA cores (any type), a GemmMmaBlocking on the FP64 tensor cores (double).
template <class Blk, class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                           const BV& B, typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  if constexpr (Blk::tensor_core) {
    static_assert(std::is_same<Scalar, double>::value, "register_blocked: the tensor-core blocking is for double");
    gemm_register_blocked_mma<Blk>(exec, alpha, A, B, beta, C);
  } else {
    gemm_register_blocked_simt<Blk>(exec, alpha, A, B, beta, C);
  }
}

}  // namespace detail

/// C = alpha*A*B + beta*C for M x K A, K x N B, M x N C, on `backend`.
///
/// Backend::layer runs on any Kokkos backend and takes any layout (row-major
/// is the fast one); Backend::native runs the CUDA twin on exec's stream and
/// needs Kokkos::Cuda and row-major contiguous CUDA Views (UnsupportedError
/// otherwise). When beta == 0, C is not read (BLAS semantics: NaN in C does
/// not propagate). Throws ShapeError on mismatched extents, before any launch.
/// Asynchronous: fence exec before reading C. Every variant sums each C
/// element over k = 0..K-1 in increasing order, so they agree with each other
/// bit for bit, and with their native twins. register_blocked is the fast one;
/// for double on CUDA (compute capability 8.0+) it runs on the FP64 tensor
/// cores, whose order of the additions inside one 8-deep mma is the
/// hardware's: there it agrees with the other variants to rounding (and with
/// its native twin bit for bit).
/// \code
/// scratchkit::gemm(exec, scratchkit::GemmVariant::register_blocked, 1.0f, A, B, 0.0f, C);
/// \endcode
template <class ExecSpace, class AV, class BV, class CV>
void gemm(const ExecSpace& exec, GemmVariant variant, typename CV::non_const_value_type alpha, const AV& A,
          const BV& B, typename CV::non_const_value_type beta, const CV& C, Backend backend = Backend::layer) {
  static_assert(AV::rank == 2 && BV::rank == 2 && CV::rank == 2, "scratchkit::gemm: A, B, C must be rank-2 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename AV::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename BV::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename CV::memory_space>::accessible,
                "scratchkit::gemm: the Views must be accessible from the execution space");
  using Scalar = typename CV::non_const_value_type;
  static_assert(std::is_same<Scalar, float>::value || std::is_same<Scalar, double>::value,
                "scratchkit::gemm: float or double");
  if (A.extent(1) != B.extent(0) || C.extent(0) != A.extent(0) || C.extent(1) != B.extent(1)) {
    std::ostringstream os;
    os << "scratchkit::gemm: shapes do not fit C(M x N) = A(M x K) * B(K x N): A is " << A.extent(0) << " x "
       << A.extent(1) << ", B is " << B.extent(0) << " x " << B.extent(1) << ", C is " << C.extent(0) << " x "
       << C.extent(1);
    throw ShapeError(os.str());
  }
  if (A.extent(0) > static_cast<std::size_t>(INT_MAX / 2) || A.extent(1) > static_cast<std::size_t>(INT_MAX / 2) ||
      B.extent(1) > static_cast<std::size_t>(INT_MAX / 2)) {
    throw ShapeError("scratchkit::gemm: extents above INT_MAX/2 are not supported");
  }
  if (backend == Backend::native) {
    void* stream = detail::native_stream(exec, "gemm");
    detail::require_native_view(A, "gemm", "A");
    detail::require_native_view(B, "gemm", "B");
    detail::require_native_view(C, "gemm", "C");
#if SCRATCHKIT_HAS_NATIVE_CUDA
    native::cuda::gemm(variant, static_cast<int>(C.extent(0)), static_cast<int>(C.extent(1)),
                       static_cast<int>(A.extent(1)), alpha, A.data(), B.data(), beta, C.data(), stream);
#else
    (void)stream;
#endif
    return;
  }
  if (C.extent(0) == 0 || C.extent(1) == 0) return;
  switch (variant) {
    case GemmVariant::naive: detail::gemm_naive(exec, alpha, A, B, beta, C); return;
    case GemmVariant::tiled: detail::gemm_tiled(exec, alpha, A, B, beta, C); return;
    case GemmVariant::tiled_double_buffered:
      detail::gemm_tiled_double_buffered(exec, alpha, A, B, beta, C);
      return;
    case GemmVariant::register_blocked:
      detail::gemm_register_blocked<typename detail::GemmDefaultBlocking<Scalar>::type>(exec, alpha, A, B, beta, C);
      return;
  }
  throw UnsupportedError(std::string("scratchkit::gemm: variant ") + name(variant) + " is not implemented on the layer");
}

}  // namespace scratchkit
