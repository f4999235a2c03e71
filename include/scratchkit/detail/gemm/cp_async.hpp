// SPDX-License-Identifier: BSD-3-Clause
/// cp.async global -> shared copies of the GEMM and 3-D stencil pipelines (both twins); plain copies off sm_80+.
#pragma once

#include <scratchkit/detail/macros.hpp>

namespace scratchkit {
namespace detail {

/// Asynchronous global -> shared copies of the GEMM pipelines (both twins): on
/// sm_80+ cp.async (16 bytes: .cg, L2 only; one element: .ca), the bytes past
/// src-size zero-filled, completed by gemm_cp_async_commit / _wait; elsewhere
/// (host backends, older GPUs) a plain copy, complete at once. dst must be in
/// shared memory on the GPU (the layer's level-0 scratch is), src readable
/// even when !valid (it is not read then).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async16(T* dst, const T* src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0) : "memory");
#else
  constexpr int W = static_cast<int>(16 / sizeof(T));
  for (int q = 0; q < W; ++q) dst[q] = valid ? src[q] : T(0);
#endif
}
/// gemm_cp_async16 of 16 bytes known to lie inside the matrix (no source size operand).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async16_inside(T* dst, const T* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
  constexpr int W = static_cast<int>(16 / sizeof(T));
  for (int q = 0; q < W; ++q) dst[q] = src[q];
#endif
}
/// One element, as gemm_cp_async16 (cp.async.ca of 4 or 8 bytes).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async1(T* dst, const T* src, bool valid) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gemm_cp_async1: 4- or 8-byte elements");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (sizeof(T) == 8)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 8 : 0) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 4 : 0) : "memory");
#else
  *dst = valid ? *src : T(0);
#endif
}
/// Closes the group of this thread's copies issued since the last commit.
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/// Waits until at most N of this thread's committed groups are still in flight
/// (then a barrier makes every thread's completed copies visible to the block).
template <int N>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

}  // namespace detail
}  // namespace scratchkit
