// SPDX-License-Identifier: BSD-3-Clause
/// 16-byte vector loads of rank-1 Views for the streaming kernels (reduce, histogram), and an execution space's device limits.
#pragma once

#include <scratchkit/detail/grid_stride.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/device_limits.hpp>
#include <scratchkit/detail/load16.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// A contiguous View read through its pointer: vectors are 16-byte loads.
template <class T>
struct ContiguousSource {
  using value_type = T;
  static constexpr int width = vec16<T>::width;
  const T* p;
  KOKKOS_FORCEINLINE_FUNCTION T at(std::size_t i) const { return p[i]; }
  /// The vector starting at element i (p + i is 16-byte aligned).
  KOKKOS_FORCEINLINE_FUNCTION void vec(std::size_t i, T (&v)[width]) const { load16(p + i, v); }
};

/// A strided View: the same vectors, element by element (no alignment to use).
template <class View>
struct StridedSource {
  using value_type = typename View::non_const_value_type;
  static constexpr int width = vec16<value_type>::width;
  View x;
  KOKKOS_FORCEINLINE_FUNCTION value_type at(std::size_t i) const { return x(i); }
  KOKKOS_FORCEINLINE_FUNCTION void vec(std::size_t i, value_type (&v)[width]) const {
    SCRATCHKIT_UNROLL
    for (int j = 0; j < width; ++j) v[j] = x(i + static_cast<std::size_t>(j));
  }
};

/// Calls f(source, head) with the source a streaming kernel reads x through:
/// ContiguousSource (head = elements before the first 16-byte boundary) when
/// x is contiguous, StridedSource (head = 0) otherwise. Layouts that are
/// always contiguous for rank 1 instantiate only the first.
template <class XView, class F>
void with_source(const XView& x, const F& f) {
  using T            = typename XView::non_const_value_type;
  using layout       = typename XView::array_layout;
  constexpr bool dense = std::is_same<layout, Kokkos::LayoutRight>::value || std::is_same<layout, Kokkos::LayoutLeft>::value;
  const std::size_t n = x.extent(0);
  if constexpr (dense) {
    f(ContiguousSource<T>{x.data()}, head_to_16<T>(x.data(), n));
  } else {
    if (x.span_is_contiguous() && (n <= 1 || x.stride(0) == 1))
      f(ContiguousSource<T>{x.data()}, head_to_16<T>(x.data(), n));
    else
      f(StridedSource<XView>{x}, std::size_t(0));
  }
}

/// The DeviceLimits of exec (detail/device_limits.hpp): the CUDA device's (queried once and cached);
/// other GPU backends: their concurrency as the threads of one "SM" of unknown shared memory; host
/// backends: sm_count = 0, max_threads_per_sm = the concurrency.
template <class ExecSpace>
DeviceLimits device_limits(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return cuda_device_limits(exec.cuda_device());
#endif
  DeviceLimits d;
  d.sm_count           = is_gpu_space<ExecSpace>::value ? 1 : 0;
  d.max_threads_per_sm = static_cast<int>(exec.concurrency());
  return d;
}

}  // namespace detail
}  // namespace scratchkit
