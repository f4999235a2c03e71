// SPDX-License-Identifier: BSD-3-Clause
/// 16-byte vector loads, shared by the layer kernels and their native CUDA twins
/// (no Kokkos here, so src/cuda/*.cu include it too): one definition of the
/// read-only (ld.global.nc.v4 / .v2) load every vectorized kernel uses, and
/// its variants with PTX cache hints (a streaming kernel's tuning choice).
#pragma once

#include <scratchkit/detail/macros.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Elements of T in one 16-byte vector (4 for 4-byte types, 2 for 8-byte ones).
template <class T>
struct vec16 {
  static_assert(16 % sizeof(T) == 0 && sizeof(T) <= 16, "vec16: element size must divide 16");
  static constexpr int width = static_cast<int>(16 / sizeof(T));
};

/// Elements of T before the first 16-byte boundary at or after p (at most n):
/// the scalar head a vector loop must peel off. T-aligned p gives 0 .. width-1.
template <class T>
std::size_t head_to_16(const T* p, std::size_t n) {
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  const std::size_t h    = static_cast<std::size_t>((16 - a % 16) % 16) / sizeof(T);
  return h < n ? h : n;
}

/// v[0..W) = p[0..W), p 16-byte aligned: one 16-byte load through the read-only
/// path on CUDA (ld.global.nc.v4 / .v2), element loads elsewhere. Only for data
/// no thread of the launch writes.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void load16(const T* p, T (&v)[vec16<T>::width]) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<T, float>::value) {
    const float4 q = __ldg(reinterpret_cast<const float4*>(p));
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (std::is_same<T, double>::value) {
    const double2 q = __ldg(reinterpret_cast<const double2*>(p));
    v[0] = q.x, v[1] = q.y;
  } else if constexpr (sizeof(T) == 4) {
    const int4 q = __ldg(reinterpret_cast<const int4*>(p));
    v[0] = static_cast<T>(q.x), v[1] = static_cast<T>(q.y), v[2] = static_cast<T>(q.z), v[3] = static_cast<T>(q.w);
  } else {
    const longlong2 q = __ldg(reinterpret_cast<const longlong2*>(p));
    v[0] = static_cast<T>(q.x), v[1] = static_cast<T>(q.y);
  }
#else
  for (int j = 0; j < vec16<T>::width; ++j) v[j] = p[j];
#endif
}

/// v[0..W) = p[0..W), p 16-byte aligned: one 16-byte load through the ordinary (coherent) path
/// on CUDA (ld.global.v4 / .v2), element loads elsewhere: for data the launch may also write
/// (HaloTile's rows).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void load16_plain(const T* p, T (&v)[vec16<T>::width]) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<T, float>::value) {
    const float4 q = *reinterpret_cast<const float4*>(p);
    v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
  } else if constexpr (std::is_same<T, double>::value) {
    const double2 q = *reinterpret_cast<const double2*>(p);
    v[0] = q.x, v[1] = q.y;
  } else if constexpr (sizeof(T) == 4) {
    const int4 q = *reinterpret_cast<const int4*>(p);
    const int r[4] = {q.x, q.y, q.z, q.w};
    for (int j = 0; j < 4; ++j) std::memcpy(&v[j], &r[j], 4);
  } else {
    const longlong2 q = *reinterpret_cast<const longlong2*>(p);
    const long long r[2] = {q.x, q.y};
    for (int j = 0; j < 2; ++j) std::memcpy(&v[j], &r[j], 8);
  }
#else
  for (int j = 0; j < vec16<T>::width; ++j) v[j] = p[j];
#endif
}

/// How a streaming kernel loads its 16-byte vectors (CUDA only, host backends
/// load plainly): the read-only path with the L1 and L2 hints of PTX
/// ld.global.nc. A tuning choice of the shared_atomic histogram and the
/// grid-stride reductions; the results do not depend on it.
enum class LoadHint {
  nc,              ///< ld.global.nc (what __ldg gives)
  no_allocate,     ///< ld.global.nc.L1::no_allocate: streamed data does not take L1 lines
  l2_256,          ///< ld.global.nc.L2::256B: the L2 fetches 256-byte blocks from DRAM
  no_allocate_256, ///< both of the above
  evict_first      ///< ld.global.nc.L1::evict_first
};

/// v[0..W) = p[0..W), p 16-byte aligned, with load hint L on CUDA (plain loads
/// elsewhere). Only for data no thread of the launch writes.
template <LoadHint L, class T>
SCRATCHKIT_HD_FORCEINLINE void load16_hint(const T* p, T (&v)[vec16<T>::width]) {
#if defined(__CUDA_ARCH__)
  if constexpr (L == LoadHint::nc) {
    load16(p, v);
  } else if constexpr (sizeof(T) == 4) {
    unsigned r0, r1, r2, r3;
    if constexpr (L == LoadHint::no_allocate)
      asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "l"(p));
    else if constexpr (L == LoadHint::l2_256)
      asm("ld.global.nc.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "l"(p));
    else if constexpr (L == LoadHint::no_allocate_256)
      asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "l"(p));
    else
      asm("ld.global.nc.L1::evict_first.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "l"(p));
    const unsigned r[4] = {r0, r1, r2, r3};
    for (int j = 0; j < 4; ++j) std::memcpy(&v[j], &r[j], 4);
  } else {
    unsigned long long r0, r1;
    if constexpr (L == LoadHint::no_allocate)
      asm("ld.global.nc.L1::no_allocate.v2.u64 {%0, %1}, [%2];" : "=l"(r0), "=l"(r1) : "l"(p));
    else if constexpr (L == LoadHint::l2_256)
      asm("ld.global.nc.L2::256B.v2.u64 {%0, %1}, [%2];" : "=l"(r0), "=l"(r1) : "l"(p));
    else if constexpr (L == LoadHint::no_allocate_256)
      asm("ld.global.nc.L1::no_allocate.L2::256B.v2.u64 {%0, %1}, [%2];" : "=l"(r0), "=l"(r1) : "l"(p));
    else
      asm("ld.global.nc.L1::evict_first.v2.u64 {%0, %1}, [%2];" : "=l"(r0), "=l"(r1) : "l"(p));
    std::memcpy(&v[0], &r0, 8);
    std::memcpy(&v[1], &r1, 8);
  }
#else
  load16(p, v);
#endif
}

/// p, a global-memory address, with its origin hidden from the optimiser (an
/// empty asm on the 64-bit value): computed once where it is written, then kept
/// in registers, instead of re-derived from the kernel's parameters at each
/// predicated use (the 3-D ring's plane copies; docs/performance.md, "3-D stencil"). The
/// shared-memory counterpart, for the layer only, is opaque_shared (backend.hpp).
template <class T>
SCRATCHKIT_HD_FORCEINLINE const T* opaque_global(const T* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+l"(p));
#endif
  return p;
}

}  // namespace detail
}  // namespace scratchkit
