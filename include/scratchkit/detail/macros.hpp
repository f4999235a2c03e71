// SPDX-License-Identifier: BSD-3-Clause
/// The macros the layer and the native CUDA twins share (no Kokkos here).
#pragma once

/// SCRATCHKIT_HOST_DEVICE: a function both the host and a GPU may call, under
/// nvcc and hipcc; nothing for host compilers.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HOST_DEVICE __host__ __device__
#else
#define SCRATCHKIT_HOST_DEVICE
#endif

/// SCRATCHKIT_FORCEINLINE: CUDA's `__forceinline__` under nvcc; hipcc defines
/// that keyword only in <hip/hip_runtime.h>, which these headers do not
/// include, so clang and GCC get the attribute it stands for.
#if defined(__CUDACC__) && !defined(__HIPCC__)
#define SCRATCHKIT_FORCEINLINE __forceinline__
#elif defined(__GNUC__) || defined(__clang__)
#define SCRATCHKIT_FORCEINLINE inline __attribute__((always_inline))
#else
#define SCRATCHKIT_FORCEINLINE inline
#endif

/// SCRATCHKIT_HD_FORCEINLINE: a host and device function inlined where it is
/// called, under nvcc and hipcc; a plain inline function for host compilers.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HD_FORCEINLINE __host__ __device__ SCRATCHKIT_FORCEINLINE
#else
#define SCRATCHKIT_HD_FORCEINLINE inline
#endif

/// SCRATCHKIT_UNROLL: full unrolling of a fixed-trip loop on GPU compilers, so
/// that the arrays it indexes stay in registers (no local memory); nothing for
/// host compilers.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_UNROLL _Pragma("unroll")
#else
#define SCRATCHKIT_UNROLL
#endif

/// Before a host loop over a phase's logical threads (Block::threads): the
/// iterations may run in SIMD lanes, as a phase's threads run at once on a GPU
/// (a phase whose result depends on its threads' order is a race there too;
/// atomics are never vectorised). Host compilers only: under nvcc or hipcc
/// the host pass gets nothing.
/// SCRATCHKIT_HOST_NO_UNROLL keeps a short fixed-trip host loop rolled, so that
/// the compiler vectorises it instead of unrolling it into the loop around it.
/// SCRATCHKIT_HOST_UNROLL_ROW unrolls the loop over one row of a sub-box
/// (Block::threads(box, f)) by up to 16: a row of a tile load then becomes one
/// load instruction per thread, each with a constant stride from row to row,
/// which the CPU's stride prefetcher follows (a rolled row loop has no such
/// instruction, and a tile walking a large matrix misses in L2 on every row).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HOST_IVDEP
#define SCRATCHKIT_HOST_NO_UNROLL
#define SCRATCHKIT_HOST_UNROLL_ROW
#elif defined(__clang__)
#define SCRATCHKIT_HOST_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#define SCRATCHKIT_HOST_NO_UNROLL _Pragma("clang loop unroll(disable)")
#define SCRATCHKIT_HOST_UNROLL_ROW _Pragma("clang loop unroll_count(16)")
#elif defined(__GNUC__)
#define SCRATCHKIT_HOST_IVDEP _Pragma("GCC ivdep")
#define SCRATCHKIT_HOST_NO_UNROLL _Pragma("GCC unroll 1")
#define SCRATCHKIT_HOST_UNROLL_ROW _Pragma("GCC unroll 16")
#else
#define SCRATCHKIT_HOST_IVDEP
#define SCRATCHKIT_HOST_NO_UNROLL
#define SCRATCHKIT_HOST_UNROLL_ROW
#endif
