// SPDX-License-Identifier: BSD-3-Clause
/// The native gemm twin running a given pick (internal): what Backend::native calls, apart from
/// native/gemm.hpp so that the public declarations name no detail:: type.
#pragma once

#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/native/gemm.hpp>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// native::cuda::gemm with register_blocked running `pick` (the other variants ignore it):
/// scratchkit::gemm passes the layer's pick (scratchkit::detail::gemm_layer_pick), so that
/// Backend::native runs the layer's blocking and split and the twins agree bit for bit on any
/// launch path. Throws Error for a pick the type has no blocking for, or a split plan that does
/// not cover K. Defined in src/cuda/gemm.cu.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream, const scratchkit::detail::GemmPick& pick);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream, const scratchkit::detail::GemmPick& pick);

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
