// SPDX-License-Identifier: BSD-3-Clause
/// Read-only loads for kernels that never write their input during a launch.
#pragma once

#include <scratchkit/detail/backend.hpp>

#include <type_traits>

namespace scratchkit {
namespace detail {

/// True for the element types CUDA's __ldg takes as scalars.
template <class T>
constexpr bool ldg_scalar = std::is_same<T, float>::value || std::is_same<T, double>::value ||
                            std::is_same<T, int>::value || std::is_same<T, unsigned>::value ||
                            std::is_same<T, long long>::value || std::is_same<T, unsigned long long>::value;

/// *p, on CUDA through the read-only (non-coherent) data path, as a native
/// kernel's `const T* __restrict__` loads compile (ld.global.nc). Only for
/// data no thread of the launch writes.
template <class T>
KOKKOS_INLINE_FUNCTION T load_read_only(const T* p) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  if constexpr (ldg_scalar<T>) {
    return __ldg(p);
  } else {
    return *p;
  }
#else
  return *p;
#endif
}

/// view(i...) as load_read_only does it, for Views whose operator() returns
/// a reference (plain Views of any layout); other Views (atomic, random
/// access traits) are read as they are.
template <class View, class... I>
KOKKOS_INLINE_FUNCTION typename View::non_const_value_type read_only(const View& view, I... i) {
  using T = typename View::non_const_value_type;
  if constexpr (std::is_lvalue_reference<decltype(view(i...))>::value && ldg_scalar<T>) {
    return load_read_only<T>(&view(i...));
  } else {
    return view(i...);
  }
}

}  // namespace detail
}  // namespace scratchkit
