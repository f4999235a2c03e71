// SPDX-License-Identifier: BSD-3-Clause
// GEMM by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/gemm.hpp.
// Same variants, same operations in the same order (the same split-K plan too), so results agree bit for bit.
#include <scratchkit/detail/gemm/native.hpp>
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

/// The room of the current device for a direct call's pick: its opt-in shared memory per block (the
/// native kernels take theirs as dynamic shared memory) and per SM, its SMs.
scratchkit::detail::GemmRoom device_room() {
  const scratchkit::detail::DeviceLimits f = detail::device_limits();
  scratchkit::detail::GemmRoom r;
  r.level0 = f.shared_per_block_optin;
  r.per_sm = f.shared_per_sm;
  r.sms    = f.sm_count;
  return r;
}

/// register_blocked with the blocking and split of `pick` (scratchkit::detail::gemm_pick's answer).
template <class S>
void gemm_register_blocked_pick(const scratchkit::detail::GemmPick& pick, int M, int N, int K, S alpha, const S* A,
                                const S* B, S beta, S* C, cudaStream_t s) {
  using Kind = scratchkit::detail::GemmBlockingKind;
  if (pick.blocking != Kind::few && pick.split.splits > 1)
    throw Error("scratchkit::native::cuda::gemm: a split-K plan is for the few-tile blocking only");
  scratchkit::detail::gemm_visit_blocking<S>(pick.blocking, [&](auto tag) {
    using Tag = decltype(tag);
    if constexpr (Tag::kind == Kind::few) {
      detail::gemm_register_blocked_split<S, typename Tag::type>(M, N, K, alpha, A, B, beta, C, s, pick.split);
    } else if constexpr (Tag::kind == Kind::fallback && !std::is_same<S, double>::value) {
      // The layer's `type` in the native twin's lane order: the same tiles, the same bits.
      detail::gemm_register_blocked<S, typename scratchkit::detail::GemmDefaultBlocking<S>::native_type>(
          M, N, K, alpha, A, B, beta, C, s);
    } else {
      detail::gemm_register_blocked<S, typename Tag::type>(M, N, K, alpha, A, B, beta, C, s);
    }
  }, [] { throw Error("scratchkit::native::cuda::gemm: register_blocked has no such blocking for this type"); });
}

template <class S>
void gemm_impl(GemmVariant v, int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, void* stream,
               const scratchkit::detail::GemmPick* pick) {
  if (M < 0 || N < 0 || K < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::gemm: negative extent M=" << M << " N=" << N << " K=" << K;
    throw ShapeError(os.str());
  }
  if (M == 0 || N == 0) return;
  const dim3 block(T, T), grid(detail::ceil_div(N, T), detail::ceil_div(M, T));
  const cudaStream_t s = detail::as_stream(stream);
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
      // The blocking is chosen in one place (scratchkit::detail::gemm_pick): by the caller, or here with
      // the device's room for a direct call.
      gemm_register_blocked_pick(pick ? *pick : scratchkit::detail::gemm_pick<S>(M, N, K, device_room()), M, N, K,
                                 alpha, A, B, beta, C, s);
      return;
  }
  throw UnsupportedError(std::string("scratchkit::native::cuda::gemm: variant ") + name(v) + " is not implemented");
}

}  // namespace

void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, nullptr);
}
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, nullptr);
}

namespace detail {

void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream, const scratchkit::detail::GemmPick& pick) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, &pick);
}
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream, const scratchkit::detail::GemmPick& pick) {
  gemm_impl(v, M, N, K, alpha, A, B, beta, C, stream, &pick);
}

}  // namespace detail

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
