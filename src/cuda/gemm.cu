// SPDX-License-Identifier: BSD-3-Clause
// GEMM by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/gemm.hpp.
// Same variants, same operations in the same order (the same split-K plan too), so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "gemm_register_blocked.cuh"
#include "vector_load.cuh"

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

template <class S>
void gemm_impl(GemmVariant v, int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, void* stream,
               std::size_t shared_limit) {
  if (M < 0 || N < 0 || K < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::gemm: negative extent M=" << M << " N=" << N << " K=" << K;
    throw ShapeError(os.str());
  }
  if (M == 0 || N == 0) return;
  const dim3 block(T, T), grid(detail::ceil_div(N, T), detail::ceil_div(M, T));
  const cudaStream_t s = detail::as_stream(stream);
  using Blk            = typename scratchkit::detail::GemmDefaultBlocking<S>::native_type;
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
    case GemmVariant::register_blocked:
      if constexpr (std::is_same<S, double>::value) {
        // The layer's choice (detail::gemm_register_blocked_default): by the product's size, and the
        // fallback blocking on a device, or under a caller's shared_limit, where the chosen one's
        // stages do not fit; the few-tile blocking split along K as on the layer.
        using D   = scratchkit::detail::GemmDefaultBlocking<double>;
        using Few = typename D::few_type;
        const bool few_fits = detail::gemm_mma_fits<Few>(shared_limit);
        const auto run_few  = [&] {
          detail::gemm_register_blocked_split<S, Few>(
              M, N, K, alpha, A, B, beta, C, s, scratchkit::detail::gemm_split_plan<Few>(M, N, K, detail::device_fill().sms));
        };
        if (scratchkit::detail::gemm_pick_tiny(M, N) && detail::gemm_mma_fits<typename D::tiny_type>(shared_limit)) {
          detail::gemm_register_blocked<S, typename D::tiny_type>(M, N, K, alpha, A, B, beta, C, s);  // never split
          return;
        }
        if (scratchkit::detail::gemm_pick_few<double>(M, N) && few_fits) {
          run_few();
          return;
        }
        if (scratchkit::detail::gemm_mma_pick_small(M, N)) {
          if (detail::gemm_mma_fits<typename D::small_type>(shared_limit)) {
            detail::gemm_register_blocked<S, typename D::small_type>(M, N, K, alpha, A, B, beta, C, s);
            return;
          }
        } else if (detail::gemm_mma_fits<typename D::large_type>(shared_limit)) {
          detail::gemm_register_blocked<S, typename D::large_type>(M, N, K, alpha, A, B, beta, C, s);
          return;
        }
        if (scratchkit::detail::gemm_pick_fallback_few(M, N) && few_fits) {  // where small / large do not fit
          run_few();
          return;
        }
        detail::gemm_register_blocked<S, typename D::type>(M, N, K, alpha, A, B, beta, C, s);
        return;
      }
      // The layer's choice for float: the few-tile blocking under 200 tiles of 128 x 128, split along K
      // where its tiles leave SMs idle (scratchkit::detail::gemm_split_plan), as on the layer.
      if (scratchkit::detail::gemm_pick_few<S>(M, N)) {
        using Few = typename scratchkit::detail::GemmDefaultBlocking<S>::few_type;
        detail::gemm_register_blocked_split<S, Few>(
            M, N, K, alpha, A, B, beta, C, s, scratchkit::detail::gemm_split_plan<Few>(M, N, K, detail::device_fill().sms));
      } else {
        detail::gemm_register_blocked<S, Blk>(M, N, K, alpha, A, B, beta, C, s);
      }
      return;
  }
  throw UnsupportedError(std::string("scratchkit::native::cuda::gemm: variant ") + name(v) + " is not implemented");
}

}  // namespace

void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream, std::size_t shared_limit) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, shared_limit);
}
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream, std::size_t shared_limit) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, shared_limit);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
