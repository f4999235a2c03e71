// SPDX-License-Identifier: BSD-3-Clause
/// Atomic updates of scratch elements (CUDA's atomicAdd on a `__shared__` array), which the scratch checker knows.
#pragma once

#include <scratchkit/detail/scratch_ref.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace detail {

template <class T>
struct atomic_identity {
  using type = T;
};
template <class T>
using atomic_value_t = typename atomic_identity<T>::type;

/// *p += v. On CUDA a shared-memory address gets the shared reduction (red.shared.add, what
/// nvcc emits for atomicAdd on a __shared__ array); Kokkos' atomics only special-case global memory.
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add_impl(T* p, T v) {
#if defined(__CUDA_ARCH__)
  if (__isShared(p)) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if constexpr (std::is_integral<T>::value && sizeof(T) == 4) {
      asm volatile("red.shared.add.u32 [%0], %1;" ::"r"(a), "r"(static_cast<unsigned>(v)) : "memory");
      return;
    } else if constexpr (std::is_integral<T>::value && sizeof(T) == 8) {
      asm volatile("red.shared.add.u64 [%0], %1;" ::"r"(a), "l"(static_cast<unsigned long long>(v)) : "memory");
      return;
    } else if constexpr (std::is_same<T, float>::value) {
      asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
      return;
    } else if constexpr (std::is_same<T, double>::value) {
      asm volatile("red.shared.add.f64 [%0], %1;" ::"r"(a), "d"(v) : "memory");
      return;
    }
  }
#endif
  Kokkos::atomic_add(p, v);
}

}  // namespace detail

/// Atomic updates of one scratch element: `scratchkit::atomic_add(s[i], v)` on an element of
/// SharedArray, SharedSpan (DynamicSharedArray), PaddedTile or SharedShape. On GPUs they are the
/// backend's shared-memory atomics; under the scratch checker they are recorded as atomics: no race
/// among them, a race with a plain load or store of another thread in the same phase, an
/// uninitialised read on bytes no thread stored. (`Kokkos::atomic_add(&s[i], v)` works too, but
/// the checker sees it only as a raw-pointer store, a race when two threads update one element.)
/// \code
/// scratchkit::SharedArray<unsigned, 256> bins(b);
/// b.threads([&](const scratchkit::Thread& t) { bins[t.rank] = 0; });
/// sync_threads(b);
/// b.threads([&](const scratchkit::Thread& t) { scratchkit::atomic_inc(bins[bin_of(in(t.gx))]); });
/// \endcode
/// Each returns nothing, except atomic_fetch_add (the old value), atomic_exchange (the old
/// value) and atomic_compare_exchange (the old value; stored when it equalled `expected`).
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_add(T& x, const detail::atomic_value_t<T>& v) {
  detail::atomic_add_impl(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_sub(T& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_sub(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_inc(T& x) {
  detail::atomic_add_impl(&x, T(1));
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_max(T& x, const detail::atomic_value_t<T>& v) {
  (void)Kokkos::atomic_fetch_max(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_min(T& x, const detail::atomic_value_t<T>& v) {
  (void)Kokkos::atomic_fetch_min(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_or(T& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_or(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION void atomic_and(T& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_and(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_fetch_add(T& x, const detail::atomic_value_t<T>& v) {
  return Kokkos::atomic_fetch_add(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_exchange(T& x, const detail::atomic_value_t<T>& v) {
  return Kokkos::atomic_exchange(&x, v);
}
template <class T>
KOKKOS_INLINE_FUNCTION T atomic_compare_exchange(T& x, const detail::atomic_value_t<T>& expected,
                                                 const detail::atomic_value_t<T>& desired) {
  return Kokkos::atomic_compare_exchange(&x, expected, desired);
}

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
// Under the checker `s[i]` is a proxy: the same calls, recorded as atomics first.
template <class T>
void atomic_add(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  detail::atomic_add_impl(x.impl_atomic_target(), v);
}
template <class T>
void atomic_sub(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_sub(x.impl_atomic_target(), v);
}
template <class T>
void atomic_inc(detail::ScratchRef<T>&& x) {
  detail::atomic_add_impl(x.impl_atomic_target(), T(1));
}
template <class T>
void atomic_max(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  (void)Kokkos::atomic_fetch_max(x.impl_atomic_target(), v);
}
template <class T>
void atomic_min(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  (void)Kokkos::atomic_fetch_min(x.impl_atomic_target(), v);
}
template <class T>
void atomic_or(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_or(x.impl_atomic_target(), v);
}
template <class T>
void atomic_and(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  Kokkos::atomic_and(x.impl_atomic_target(), v);
}
template <class T>
T atomic_fetch_add(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  return Kokkos::atomic_fetch_add(x.impl_atomic_target(), v);
}
template <class T>
T atomic_exchange(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& v) {
  return Kokkos::atomic_exchange(x.impl_atomic_target(), v);
}
template <class T>
T atomic_compare_exchange(detail::ScratchRef<T>&& x, const detail::atomic_value_t<T>& expected,
                          const detail::atomic_value_t<T>& desired) {
  return Kokkos::atomic_compare_exchange(x.impl_atomic_target(), expected, desired);
}
#endif

}  // namespace scratchkit
