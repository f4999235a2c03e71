// SPDX-License-Identifier: BSD-3-Clause
/// GEMM on the layer: C = alpha*A*B + beta*C (native twin: src/cuda/gemm.cu).
#pragma once

#include <scratchkit/detail/gemm/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// C = alpha*A*B + beta*C for M x K A, K x N B, M x N C, on `backend`.
///
/// Backend::layer runs on any Kokkos backend and takes any layout: all three
/// Views column-major (LayoutLeft) run as the row-major C^T = B^T * A^T on
/// the same memory, at LayoutRight speed; LayoutStride Views with a unit stride
/// along rows (or all along columns) keep the strided fast path; mixed
/// orders run a correct general path (docs/layouts.md). Backend::native runs
/// the CUDA twin on exec's stream and needs Kokkos::Cuda and CUDA Views all
/// contiguous row-major or all contiguous column-major (UnsupportedError,
/// naming the strides, otherwise). A C whose elements overlap (LayoutStride)
/// throws ShapeError. When beta == 0, C is not read (BLAS semantics: NaN in C does
/// not propagate). Throws ShapeError on mismatched extents, before any launch.
/// Asynchronous: fence exec before reading C. Every variant sums each C
/// element over k = 0..K-1 in increasing order, so they agree with each other
/// bit for bit, and with their native twins. register_blocked is the fast one;
/// for double on CUDA (compute capability 8.0+) it runs on the FP64 tensor
/// cores, whose order of the additions inside one 8-deep mma is the
/// hardware's: there it agrees with the other variants to rounding (and with
/// its native twin bit for bit). On CUDA, a float register_blocked product too
/// small to fill the GPU is split along K (detail::gemm_split_plan; double runs
/// small tiles there, unsplit): each split's partial sums are added in split
/// order, so it agrees with its native twin bit for bit and with the other variants to rounding, and its bits depend on the device's SM count.
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
  detail::require_distinct_elements(C, "gemm", "C");
  // A column-major C = A*B is the row-major C^T = B^T * A^T on the same memory (layout_map.hpp).
  detail::map_layouts("gemm", backend, {"A", "B", "C"}, [&](auto reversed, const auto& a, const auto& b, const auto& c) {
    if constexpr (decltype(reversed)::value)
      detail::gemm_run(exec, variant, alpha, detail::const_view(b), detail::const_view(a), beta, c, backend);
    else
      detail::gemm_run(exec, variant, alpha, detail::const_view(a), detail::const_view(b), beta, c, backend);
  }, A, B, C);
}

}  // namespace scratchkit
