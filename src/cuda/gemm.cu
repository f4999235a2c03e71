// SPDX-License-Identifier: BSD-3-Clause
// GEMM by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/gemm.hpp.
// Same variants, same operations in the same order, so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int T = 16;

template <class S>
__global__ void gemm_naive_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                  S beta, S* __restrict__ C) {
  const int r = blockIdx.y * T + threadIdx.y, c = blockIdx.x * T + threadIdx.x;
  if (r < M && c < N) {
    S acc = 0;
    for (int k = 0; k < K; ++k) acc += A[static_cast<long long>(r) * K + k] * B[static_cast<long long>(k) * N + c];
    const long long i = static_cast<long long>(r) * N + c;
    C[i] = beta == S(0) ? alpha * acc : scratchkit::detail::gemm_epilogue(alpha, acc, beta, C[i]);
  }
}

template <class S>
__global__ void gemm_tiled_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                  S beta, S* __restrict__ C) {
  __shared__ S As[T * T];
  __shared__ S Bs[T * T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
  S acc = S(0);
  for (int k0 = 0; k0 < K; k0 += T) {
    const int ar = row0 + ty, ac = k0 + tx;
    As[ty * T + tx] = (ar < M && ac < K) ? A[static_cast<long long>(ar) * K + ac] : S(0);
    const int br = k0 + ty, bc = col0 + tx;
    Bs[ty * T + tx] = (br < K && bc < N) ? B[static_cast<long long>(br) * N + bc] : S(0);
    __syncthreads();
    S s = acc;
    for (int kk = 0; kk < T; ++kk) s += As[ty * T + kk] * Bs[kk * T + tx];
    acc = s;
    __syncthreads();
  }
  const int r = row0 + ty, c = col0 + tx;
  if (r < M && c < N) {
    const long long i = static_cast<long long>(r) * N + c;
    C[i] = beta == S(0) ? alpha * acc : scratchkit::detail::gemm_epilogue(alpha, acc, beta, C[i]);
  }
}

template <class S>
__global__ void gemm_tiled_double_buffered_kernel(int M, int N, int K, S alpha, const S* __restrict__ A,
                                                  const S* __restrict__ B, S beta, S* __restrict__ C) {
  constexpr int TT = T * T;
  __shared__ S As[2 * TT];  // buffers 0 and 1
  __shared__ S Bs[2 * TT];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
  const int nk   = (K + T - 1) / T;
  S acc          = S(0);
  {
    const int ar = row0 + ty, bc = col0 + tx;
    As[ty * T + tx] = (ar < M && tx < K) ? A[static_cast<long long>(ar) * K + tx] : S(0);
    Bs[ty * T + tx] = (ty < K && bc < N) ? B[static_cast<long long>(ty) * N + bc] : S(0);
  }
  __syncthreads();
  for (int kt = 0; kt < nk; ++kt) {
    const int cur   = (kt & 1) * TT, nxt = TT - cur;
    const bool more = kt + 1 < nk;
    // Issue the loads of tile kt+1 first: they are in flight during the math on tile kt.
    S na = S(0), nb = S(0);
    if (more) {
      const int k0 = (kt + 1) * T, ar = row0 + ty, ac = k0 + tx, br = k0 + ty, bc = col0 + tx;
      na = (ar < M && ac < K) ? A[static_cast<long long>(ar) * K + ac] : S(0);
      nb = (br < K && bc < N) ? B[static_cast<long long>(br) * N + bc] : S(0);
    }
    S s = acc;
    for (int kk = 0; kk < T; ++kk) s += As[cur + ty * T + kk] * Bs[cur + kk * T + tx];
    acc = s;
    // The other buffer was last read before the previous barrier: safe to overwrite.
    if (more) {
      As[nxt + ty * T + tx] = na;
      Bs[nxt + ty * T + tx] = nb;
    }
    __syncthreads();  // the only barrier of a k step
  }
  const int r = row0 + ty, c = col0 + tx;
  if (r < M && c < N) {
    const long long i = static_cast<long long>(r) * N + c;
    C[i] = beta == S(0) ? alpha * acc : scratchkit::detail::gemm_epilogue(alpha, acc, beta, C[i]);
  }
}

/// 16 bytes of S: one vector load from shared memory.
template <class S>
struct alignas(16) Pack {
  S v[16 / sizeof(S)];
};

/// Register-blocked GEMM with blocking Blk (scratchkit::detail::GemmBlocking, the same the layer uses):
/// A^T and B slices double-buffered in shared memory, slice kt+1 loaded into registers during the math on
/// slice kt, one barrier per slice. Thread (tx, ty) owns rows g*TY*VW + ty*VW + q and columns
/// g*TX*VW + tx*VW + q of the block tile: each shared load is one 16-byte vector.
template <class S, class Blk>
__global__ void __launch_bounds__(Blk::threads)
    gemm_register_blocked_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                 S beta, S* __restrict__ C) {
  constexpr int BM = Blk::BM, BN = Blk::BN, BK = Blk::BK, TM = Blk::TM, TN = Blk::TN, NT = Blk::threads;
  constexpr int TX = Blk::TX, TY = Blk::TY;
  constexpr int VW = static_cast<int>(16 / sizeof(S)), PA = BM + VW;  // A^T row pitch: no bank conflicts
  constexpr int LA = BM * BK / NT, LB = BK * BN / NT;
  static_assert(TM % VW == 0 && TN % VW == 0, "register_blocked: TM and TN must be multiples of 16 bytes");
  static_assert(LA * NT == BM * BK && LB * NT == BK * BN, "register_blocked: tiles must split evenly over threads");
  __shared__ __align__(16) S As[2 * BK * PA];
  __shared__ __align__(16) S Bs[2 * BK * BN];
  const int tx = threadIdx.x, ty = threadIdx.y, rank = tx + TX * ty;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int nk   = (K + BK - 1) / BK;

  // Slice k0 into registers: element e = rank + p*NT of each tile, k fastest in A, n fastest in B.
  S ra[LA], rb[LB];
  auto load = [&](int k0) {
#pragma unroll
    for (int p = 0; p < LA; ++p) {
      const int e = rank + p * NT, r = row0 + e / BK, c = k0 + e % BK;
      ra[p]       = (r < M && c < K) ? A[static_cast<long long>(r) * K + c] : S(0);
    }
#pragma unroll
    for (int p = 0; p < LB; ++p) {
      const int e = rank + p * NT, r = k0 + e / BN, c = col0 + e % BN;
      rb[p]       = (r < K && c < N) ? B[static_cast<long long>(r) * N + c] : S(0);
    }
  };
  // Registers into buffer `buf`: A transposed (As[k][m]), B as is (Bs[k][n]).
  auto store = [&](int buf) {
#pragma unroll
    for (int p = 0; p < LA; ++p) {
      const int e                                = rank + p * NT;
      As[buf * BK * PA + (e % BK) * PA + e / BK] = ra[p];
    }
#pragma unroll
    for (int p = 0; p < LB; ++p) Bs[buf * BK * BN + rank + p * NT] = rb[p];
  };

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
    const S* as = As + cur * BK * PA;
    const S* bs = Bs + cur * BK * BN;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      S a[TM], b[TN];
#pragma unroll
      for (int g = 0; g < TM / VW; ++g) {
        const Pack<S> v = *reinterpret_cast<const Pack<S>*>(as + kk * PA + g * TY * VW + ty * VW);
#pragma unroll
        for (int q = 0; q < VW; ++q) a[g * VW + q] = v.v[q];
      }
#pragma unroll
      for (int g = 0; g < TN / VW; ++g) {
        const Pack<S> v = *reinterpret_cast<const Pack<S>*>(bs + kk * BN + g * TX * VW + tx * VW);
#pragma unroll
        for (int q = 0; q < VW; ++q) b[g * VW + q] = v.v[q];
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
    const int r = row0 + (i / VW) * TY * VW + ty * VW + i % VW;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + (j / VW) * TX * VW + tx * VW + j % VW;
      if (c < N) {
        const long long idx = static_cast<long long>(r) * N + c;
        C[idx] = beta == S(0) ? alpha * acc[i][j] : scratchkit::detail::gemm_epilogue(alpha, acc[i][j], beta, C[idx]);
      }
    }
  }
}

template <class S>
void gemm_impl(GemmVariant v, int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, void* stream) {
  if (M < 0 || N < 0 || K < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::gemm: negative extent M=" << M << " N=" << N << " K=" << K;
    throw ShapeError(os.str());
  }
  if (M == 0 || N == 0) return;
  const dim3 block(T, T), grid(detail::ceil_div(N, T), detail::ceil_div(M, T));
  const cudaStream_t s = detail::as_stream(stream);
  using Blk            = typename scratchkit::detail::GemmDefaultBlocking<S>::type;
  switch (v) {
    case GemmVariant::naive:
      gemm_naive_kernel<S><<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_naive");
      return;
    case GemmVariant::tiled:
      gemm_tiled_kernel<S><<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_tiled");
      return;
    case GemmVariant::tiled_double_buffered:
      gemm_tiled_double_buffered_kernel<S><<<grid, block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_tiled_double_buffered");
      return;
    case GemmVariant::register_blocked: {
      const dim3 rb_block(Blk::TX, Blk::TY), rb_grid(detail::ceil_div(N, Blk::BN), detail::ceil_div(M, Blk::BM));
      gemm_register_blocked_kernel<S, Blk><<<rb_grid, rb_block, 0, s>>>(M, N, K, alpha, A, B, beta, C);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_register_blocked");
      return;
    }
  }
  throw UnsupportedError(std::string("scratchkit::native::cuda::gemm: variant ") + name(v) + " is not implemented");
}

}  // namespace

void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream);
}
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
