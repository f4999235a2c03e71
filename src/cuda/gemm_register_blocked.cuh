// SPDX-License-Identifier: BSD-3-Clause
/// GemmVariant::register_blocked in CUDA with __shared__ (internal): the twin of
/// detail::gemm_register_blocked in include/scratchkit/kernels/gemm.hpp, same
/// tiles and operation order. A template on the blocking, so that
/// perf/gemm_tune.cu can time several; src/cuda/gemm.cu runs the default one.
#pragma once

#include <scratchkit/detail/load16.hpp>
#include <scratchkit/native/gemm.hpp>

#include "check.cuh"

#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// 16 bytes of S: one vector access.
template <class S>
struct alignas(16) RbVec {
  S v[16 / sizeof(S)];
};

/// Derived sizes: the layer's (scratchkit::detail::GemmRbShape in native/gemm.hpp).
template <class S, class Blk>
using RbShape = scratchkit::detail::GemmRbShape<Blk, S>;

/// One tile of a slice into registers: vector v = rank + p*NT of the tile's
/// Total vectors is row r0 + v / PerRow, columns c0 + (v % PerRow)*VW + [0, VW)
/// of the rows x cols row-major matrix X. Outside X: zero. With `vec` a vector
/// inside X is one 16-byte load, otherwise element by element.
template <class S, int L, int Total, int PerRow, int NT>
__device__ __forceinline__ void rb_load_tile(const S* __restrict__ X, int rows, int cols, int r0, int c0, int rank,
                                             bool vec, RbVec<S> (&regs)[L]) {
  constexpr int VW = static_cast<int>(16 / sizeof(S));
#pragma unroll
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int r = r0 + v / PerRow, c = c0 + (v % PerRow) * VW;
    if (vec) {
      if (r < rows && c < cols) {
        scratchkit::detail::load16(X + static_cast<long long>(r) * cols + c, regs[p].v);
      } else {
#pragma unroll
        for (int q = 0; q < VW; ++q) regs[p].v[q] = S(0);
      }
    } else {
#pragma unroll
      for (int q = 0; q < VW; ++q)
        regs[p].v[q] = (r < rows && c + q < cols) ? X[static_cast<long long>(r) * cols + c + q] : S(0);
    }
  }
}

/// Slice k0 into registers: the A tile (BM x BK, k fastest) and the B tile (BK x BN, n fastest).
template <class S, class Blk>
__device__ __forceinline__ void rb_load(int M, int N, int K, const S* __restrict__ A, const S* __restrict__ B,
                                        int row0, int col0, int k0, int rank, bool a_vec, bool b_vec,
                                        RbVec<S> (&ra)[RbShape<S, Blk>::LA], RbVec<S> (&rb)[RbShape<S, Blk>::LB]) {
  using Sh = RbShape<S, Blk>;
  rb_load_tile<S, Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, a_vec, ra);
  rb_load_tile<S, Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, rb);
}

/// A^T and B slices double-buffered in shared memory, slice kt+1 loaded into
/// registers (16-byte loads when a_vec / b_vec) during the math on slice kt,
/// one barrier per slice. 1-D block of Blk::threads; thread rank's rows are
/// m0 + g*LY*VW + q and columns n0 + h*LX*VW + q of the block tile (warp tile
/// WM x WN, lanes LY x LX): every shared read is a conflict-free 16-byte vector.
template <class S, class Blk>
__global__ void __launch_bounds__(Blk::threads, Blk::min_blocks)
    gemm_register_blocked_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                 S beta, S* __restrict__ C, bool a_vec, bool b_vec, int lg) {
  using Sh         = RbShape<S, Blk>;
  using Vec        = RbVec<S>;
  constexpr int VW = Sh::VW, NT = Sh::NT, BM = Sh::BM, BN = Sh::BN, BK = Sh::BK, PA = Sh::PA;
  constexpr int KV = Sh::KV, AV = Sh::AV, BV = Sh::BV, LA = Sh::LA, LB = Sh::LB;
  constexpr int TM = Blk::TM, TN = Blk::TN, LY = Blk::LY, LX = Blk::LX;
  static_assert(TM % VW == 0 && TN % VW == 0, "register_blocked: TM and TN must be multiples of 16 bytes");
  __shared__ __align__(16) S As[Sh::a_size];  // A^T, buffers 0 and 1
  __shared__ __align__(16) S Bs[Sh::b_size];  // B, buffers 0 and 1
  const int rank = threadIdx.x;
  int bx, by;  // grouped block order, as on the layer (scratchkit::detail::GemmGrid)
  scratchkit::detail::gemm_tile_of(blockIdx.x, blockIdx.y, lg, bx, by);
  const int row0 = by * BM, col0 = bx * BN;
  if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
  const int nk   = (K + BK - 1) / BK;

  Vec ra[LA], rb[LB];
  auto load = [&](int k0) { rb_load<S, Blk>(M, N, K, A, B, row0, col0, k0, rank, a_vec, b_vec, ra, rb); };
  // Registers into buffer `buf`: A transposed (As[k][m]), B as is (Bs[k][n], one 16-byte store per vector).
  auto store = [&](int buf) {
#pragma unroll
    for (int p = 0; p < LA; ++p) {
      const int v = rank + p * NT;
      if (LA * NT != AV && v >= AV) break;
      const int m = v / KV, k = (v % KV) * VW;
#pragma unroll
      for (int q = 0; q < VW; ++q) As[buf * BK * PA + (k + q) * PA + m] = ra[p].v[q];
    }
#pragma unroll
    for (int p = 0; p < LB; ++p) {
      const int v = rank + p * NT;
      if (LB * NT != BV && v >= BV) break;
      *reinterpret_cast<Vec*>(Bs + buf * BK * BN + v * VW) = rb[p];
    }
  };

  const int warp = rank / 32, lane = rank % 32;
  const int m0 = (warp / Blk::WX) * Blk::WM + (lane / LX) * VW;
  const int n0 = (warp % Blk::WX) * Blk::WN + (lane % LX) * VW;

  S acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = S(0);
  }
  load(0);
  store(0);
  __syncthreads();
  for (int kt = 0; kt < nk; ++kt) {
    const int cur   = kt & 1;
    const bool more = kt + 1 < nk;
    if (more) load((kt + 1) * BK);
    const S* as = As + cur * BK * PA + m0;
    const S* bs = Bs + cur * BK * BN + n0;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      S a[TM], b[TN];
#pragma unroll
      for (int g = 0; g < TM / VW; ++g) {
        const Vec v = *reinterpret_cast<const Vec*>(as + kk * PA + g * LY * VW);
#pragma unroll
        for (int q = 0; q < VW; ++q) a[g * VW + q] = v.v[q];
      }
#pragma unroll
      for (int h = 0; h < TN / VW; ++h) {
        const Vec v = *reinterpret_cast<const Vec*>(bs + kk * BN + h * LX * VW);
#pragma unroll
        for (int q = 0; q < VW; ++q) b[h * VW + q] = v.v[q];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i) {
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    // The other buffer was last read before the previous barrier: safe to overwrite.
    if (more) store(1 - cur);
    __syncthreads();  // the only barrier of a slice
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + m0 + (i / VW) * LY * VW + i % VW;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + n0 + (j / VW) * LX * VW + j % VW;
      if (c < N) {
        const long long idx = static_cast<long long>(r) * N + c;
        C[idx] = beta == S(0) ? alpha * acc[i][j] : scratchkit::detail::gemm_epilogue(alpha, acc[i][j], beta, C[idx]);
      }
    }
  }
}

/// The double path with a GemmMmaBlocking (the twin of detail::gemm_register_blocked_mma on the layer): the
/// SIMT kernel's loads and double buffering, A and B by rows in swizzled shared memory, and per slice one
/// m16n8k8 FP64 mma per tile of the warp (sm_80+; scalar FMAs in k order below that, as on the layer).
template <class Blk>
__global__ void __launch_bounds__(Blk::threads, Blk::min_blocks)
    gemm_register_blocked_mma_kernel(int M, int N, int K, double alpha, const double* __restrict__ A,
                                     const double* __restrict__ B, double beta, double* __restrict__ C, bool a_vec,
                                     bool b_vec, int lg) {
  using Sh         = RbShape<double, Blk>;
  using Vec        = RbVec<double>;
  constexpr int VW = Sh::VW, NT = Sh::NT, BM = Sh::BM, BN = Sh::BN, BK = Sh::BK;
  constexpr int KV = Sh::KV, NV = Sh::NV, AV = Sh::AV, BV = Sh::BV, LA = Sh::LA, LB = Sh::LB;
  constexpr int MT = Blk::MT, NTL = Blk::NT;
  using scratchkit::detail::gemm_mma_a_index;
  using scratchkit::detail::gemm_mma_b_index;
  __shared__ __align__(16) double As[2 * BM * BK];  // A by rows, buffers 0 and 1
  __shared__ __align__(16) double Bs[2 * BK * BN];  // B by rows, buffers 0 and 1
  const int rank = threadIdx.x;
  int bx, by;  // grouped block order, as on the layer (scratchkit::detail::GemmGrid)
  scratchkit::detail::gemm_tile_of(blockIdx.x, blockIdx.y, lg, bx, by);
  const int row0 = by * BM, col0 = bx * BN;
  if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
  const int nk   = (K + BK - 1) / BK;

  Vec ra[LA], rb[LB];
  auto load = [&](int k0) { rb_load<double, Blk>(M, N, K, A, B, row0, col0, k0, rank, a_vec, b_vec, ra, rb); };
  // Registers into buffer `buf`, swizzled, one 16-byte store per vector.
  auto store = [&](int buf) {
#pragma unroll
    for (int p = 0; p < LA; ++p) {
      const int v = rank + p * NT;
      if (LA * NT != AV && v >= AV) break;
      *reinterpret_cast<Vec*>(As + buf * BM * BK + gemm_mma_a_index(v / KV, (v % KV) * VW)) = ra[p];
    }
#pragma unroll
    for (int p = 0; p < LB; ++p) {
      const int v = rank + p * NT;
      if (LB * NT != BV && v >= BV) break;
      *reinterpret_cast<Vec*>(Bs + buf * BK * BN + gemm_mma_b_index<BN>(v / NV, (v % NV) * VW)) = rb[p];
    }
  };

  const int warp = rank / 32, lane = rank % 32, g = lane / 4, t = lane % 4;
  const int wm = (warp / Blk::WX) * Blk::WM + g, wn = (warp % Blk::WX) * Blk::WN;
  const scratchkit::detail::GemmMmaLane<Blk> lo(rank);  // fragment offsets in a slice buffer

  double acc[MT][NTL][4];
#pragma unroll
  for (int i = 0; i < MT; ++i) {
#pragma unroll
    for (int j = 0; j < NTL; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0;
    }
  }
  load(0);
  store(0);
  __syncthreads();
  for (int kt = 0; kt < nk; ++kt) {
    const int cur   = kt & 1;
    const bool more = kt + 1 < nk;
    if (more) load((kt + 1) * BK);
    const double* as = As + cur * BM * BK;
    const double* bs = Bs + cur * BK * BN;
#if SCRATCHKIT_GEMM_DMMA
    double bf[NTL][2];
#pragma unroll
    for (int j = 0; j < NTL; ++j) {
      bf[j][0] = bs[lo.b(j, 0)];
      bf[j][1] = bs[lo.b(j, 1)];
    }
#pragma unroll
    for (int i = 0; i < MT; ++i) {
      const double af[4] = {as[lo.a(i, 0, 0)], as[lo.a(i, 1, 0)], as[lo.a(i, 0, 1)], as[lo.a(i, 1, 1)]};
#pragma unroll
      for (int j = 0; j < NTL; ++j) scratchkit::detail::gemm_dmma_16x8x8(acc[i][j], af, bf[j]);
    }
#else
    for (int i = 0; i < MT; ++i)
      for (int j = 0; j < NTL; ++j)
        for (int e = 0; e < 4; ++e) {
          const int m = wm + i * 16 + 8 * (e / 2), n = wn + j * 8 + 2 * t + e % 2;
          double s    = acc[i][j][e];
          for (int kk = 0; kk < 8; ++kk) s += as[gemm_mma_a_index(m, kk)] * bs[gemm_mma_b_index<BN>(kk, n)];
          acc[i][j][e] = s;
        }
#endif
    // The other buffer was last read before the previous barrier: safe to overwrite.
    if (more) store(1 - cur);
    __syncthreads();  // the only barrier of a slice
  }
  const int m0 = row0 + wm, n0 = col0 + wn + 2 * t;
#pragma unroll
  for (int i = 0; i < MT; ++i) {
#pragma unroll
    for (int j = 0; j < NTL; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int r = m0 + i * 16 + 8 * (e / 2), c = n0 + j * 8 + e % 2;
        if (r < M && c < N) {
          const long long idx = static_cast<long long>(r) * N + c;
          C[idx] = beta == 0.0 ? alpha * acc[i][j][e]
                               : scratchkit::detail::gemm_epilogue(alpha, acc[i][j][e], beta, C[idx]);
        }
      }
    }
  }
}

/// The kernel of blocking Blk: a GemmBlocking runs on the CUDA cores, a GemmMmaBlocking on the FP64 tensor cores.
template <class S, class Blk>
constexpr auto rb_kernel() {
  if constexpr (Blk::tensor_core) {
    static_assert(std::is_same<S, double>::value, "register_blocked: the tensor-core blocking is for double");
    return gemm_register_blocked_mma_kernel<Blk>;
  } else {
    return gemm_register_blocked_kernel<S, Blk>;
  }
}

/// Launches the register_blocked kernel of blocking Blk on stream s (M, N, K >= 0 checked by the caller).
template <class S, class Blk>
void gemm_register_blocked(int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, cudaStream_t s) {
  if (M == 0 || N == 0) return;
  constexpr int VW = RbShape<S, Blk>::VW;
  // 16-byte loads need every vector of a row inside or outside the matrix: K (N) a multiple of VW.
  const bool a_vec = K % VW == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
  const bool b_vec = N % VW == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
  const scratchkit::detail::GemmGrid g(ceil_div(N, Blk::BN), ceil_div(M, Blk::BM));
  const dim3 block(Blk::threads), grid(g.gx, g.gy);
  rb_kernel<S, Blk>()<<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C, a_vec, b_vec, g.lg);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_register_blocked");
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
