// SPDX-License-Identifier: BSD-3-Clause
/// 16-byte vector loads, shared by the layer kernels and their native CUDA twins
/// (no Kokkos here, so src/cuda/*.cu include it too): one definition of the
/// read-only (ld.global.nc.v4 / .v2) load every vectorized kernel uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HD_FORCEINLINE __host__ __device__ __forceinline__
#else
#define SCRATCHKIT_HD_FORCEINLINE inline
#endif

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

}  // namespace detail
}  // namespace scratchkit
