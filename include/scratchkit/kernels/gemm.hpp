// SPDX-License-Identifier: BSD-3-Clause
/// GEMM on the layer: C = alpha*A*B + beta*C (native twin: src/cuda/gemm.cu).
#pragma once

#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/native/gemm.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>

#include <sstream>

namespace scratchkit {
namespace detail {

/// Tile edge of GemmVariant::tiled.
constexpr int gemm_tile = 16;

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
        for (int k = 0; k < K; ++k) acc += A(r, k) * B(k, c);
        C(r, c) = beta == Scalar(0) ? alpha * acc : alpha * acc + beta * C(r, c);
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
        As[t.y * T + t.x] = (ar < M && ac < K) ? A(ar, ac) : Scalar(0);
        const int br = k0 + t.y, bc = col0 + t.x;
        Bs[t.y * T + t.x] = (br < K && bc < N) ? B(br, bc) : Scalar(0);
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
      if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc(t) : alpha * acc(t) + beta * C(r, c);
    });
  });
}

}  // namespace detail

/// C = alpha*A*B + beta*C for M x K A, K x N B, M x N C, on `backend`.
///
/// Backend::layer runs on any Kokkos backend and takes any layout (row-major
/// is the fast one); Backend::native runs the CUDA twin on exec's stream and
/// needs Kokkos::Cuda and row-major contiguous CUDA Views (UnsupportedError
/// otherwise). When beta == 0, C is not read (BLAS semantics: NaN in C does
/// not propagate). Throws ShapeError on mismatched extents, before any launch.
/// Asynchronous: fence exec before reading C.
/// \code
/// scratchkit::gemm(exec, scratchkit::GemmVariant::tiled, 1.0f, A, B, 0.0f, C);
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
    default: break;
  }
  throw UnsupportedError(std::string("scratchkit::gemm: variant ") + name(variant) + " is not implemented on the layer");
}

}  // namespace scratchkit
