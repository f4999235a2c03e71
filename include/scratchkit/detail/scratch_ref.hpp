// SPDX-License-Identifier: BSD-3-Clause
/// Scratch element access under the checker: an index that carries its source site, and a
/// proxy that records a load on read, a store on write and both on `+=`, whatever the values.
#pragma once

#include <scratchkit/detail/scratch_check.hpp>

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <type_traits>

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS && defined(__cpp_lib_source_location)
#include <source_location>
#elif SCRATCHKIT_SCRATCH_CHECK_HOOKS && __cplusplus >= 202002L && __has_include(<source_location>)
#include <source_location>
#endif

namespace scratchkit {
namespace detail {

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS

#if defined(__cpp_lib_source_location)
#define SCRATCHKIT_SITE_DEFAULT ::std::source_location loc = ::std::source_location::current()
#define SCRATCHKIT_SITE_OF(loc) ::scratchkit::detail::SiteRef{loc}
/// Where an access is, as cheap to carry as the compiler's record of it (one pointer).
struct SiteRef {
  std::source_location loc;
  ScratchSite get() const {
    return ScratchSite{loc.file_name(), static_cast<int>(loc.line()), static_cast<int>(loc.column())};
  }
};
#else
// C++17: GCC, Clang and EDG give the line and file of the call site; two accesses on one line
// are then told apart by their order.
#define SCRATCHKIT_SITE_DEFAULT const char *loc_file = __builtin_FILE(), int loc_line = __builtin_LINE()
#define SCRATCHKIT_SITE_OF(loc) ::scratchkit::detail::SiteRef{loc##_file, loc##_line}
struct SiteRef {
  const char* file;
  int line;
  ScratchSite get() const { return ScratchSite{file, line, 0}; }
};
#endif

#if defined(__GNUC__)
#define SCRATCHKIT_COLD __attribute__((noinline, cold))
#else
#define SCRATCHKIT_COLD
#endif

namespace scheck {
// The recording path, out of line: a build with the checker compiled in pays a thread-local
// pointer test per access when no launch records.
SCRATCHKIT_COLD inline void access_slow(const void* p, std::size_t n, Op op, SiteRef site) {
  active->access(p, n, op, site.get());
}
SCRATCHKIT_COLD inline void touch_slow(const void* p, std::size_t n) { active->touch(p, n); }
SCRATCHKIT_COLD inline void per_thread_slow(int owner, SiteRef site) { active->per_thread(owner, site.get()); }
inline void access_fast(const void* p, std::size_t n, Op op, const SiteRef& site) {
  if (__builtin_expect(active != nullptr, 0)) access_slow(p, n, op, site);
}
inline void touch_fast(const void* p, std::size_t n) {
  if (__builtin_expect(active != nullptr, 0)) touch_slow(p, n);
}
inline void per_thread_fast(int owner, const SiteRef& site) {
  if (__builtin_expect(active != nullptr, 0)) per_thread_slow(owner, site);
}
}  // namespace scheck

/// An index and the source site of the access it is used in: the default argument is
/// evaluated where the user's `s[i]` converts its index, so the site is the user's line.
struct ScratchIndex {
  std::size_t value;
  SiteRef site;
  // NOLINTNEXTLINE(google-explicit-constructor): converts the index of every `s[i]`
  ScratchIndex(std::size_t i, SCRATCHKIT_SITE_DEFAULT) : value(i), site(SCRATCHKIT_SITE_OF(loc)) {}
};
/// The same for int indices (PaddedTile rows, SharedShape's first index).
struct ScratchIntIndex {
  int value;
  SiteRef site;
  // NOLINTNEXTLINE(google-explicit-constructor)
  ScratchIntIndex(int i, SCRATCHKIT_SITE_DEFAULT) : value(i), site(SCRATCHKIT_SITE_OF(loc)) {}
};
using scratch_index     = ScratchIndex;
using scratch_int_index = ScratchIntIndex;
inline std::size_t index_value(const ScratchIndex& i) { return i.value; }
inline int index_value(const ScratchIntIndex& i) { return i.value; }
inline const SiteRef& index_site(const ScratchIndex& i) { return i.site; }
inline const SiteRef& index_site(const ScratchIntIndex& i) { return i.site; }

template <class T>
struct dependent_false : std::false_type {};

/// A scratch element of arithmetic type under the checker. Used as the expression `s[i]`:
/// reading converts it (a load), `=` stores, `+=` and the like load and store, `&s[i]` gives
/// the address (stores through it are found by comparing bytes). A proxy held in a variable
/// (`auto v = s[i];`) would read or write shared memory later than the code says, so every
/// operation on a named proxy is refused at compile time.
template <class T>
class ScratchRef {
  static constexpr std::size_t n = sizeof(T);

 public:
  using value_type = T;
  ScratchRef(T* p, const SiteRef& site) : m_p(p), m_site(site) {}
  ScratchRef(const ScratchRef&) = default;

  operator T() && { return load(); }  // NOLINT(google-explicit-constructor)
  // Only a named proxy reaches this one (an rvalue cannot bind `&`): a template on rvalues would
  // convert to any type and make `s[i] + s[j]` ambiguous beside CUDA's __half operators.
  template <class U = T>
  operator U() & {  // NOLINT(google-explicit-constructor)
    static_assert(dependent_false<U>::value,
                  "scratchkit scratch checker: a scratch element kept in an `auto` variable (or passed as a deduced "
                  "type) reads shared memory later than the code says: name its type, `float v = s[i];`, or "
                  "convert it, `T(s[i])`");
    return U();
  }

  T operator=(const T& v) && { return store(v); }
  T operator=(const ScratchRef& o) && { return store(o.load()); }
  template <class U>
  T operator=(const U&) & {
    return named<U>();
  }

  // A named proxy (`auto v = s[i];`) would update shared memory, not a local copy: refused.
  template <class U>
  T operator+=(const U&) & { return named<U>(); }
  template <class U>
  T operator-=(const U&) & { return named<U>(); }
  template <class U>
  T operator*=(const U&) & { return named<U>(); }
  template <class U>
  T operator/=(const U&) & { return named<U>(); }
  T operator+=(const T& v) && { return rmw([&](T& x) { x += v; }); }
  T operator-=(const T& v) && { return rmw([&](T& x) { x -= v; }); }
  T operator*=(const T& v) && { return rmw([&](T& x) { x *= v; }); }
  T operator/=(const T& v) && { return rmw([&](T& x) { x /= v; }); }
  template <class U>
  T operator%=(const U& v) && { return rmw([&](T& x) { x %= v; }); }
  template <class U>
  T operator&=(const U& v) && { return rmw([&](T& x) { x &= v; }); }
  template <class U>
  T operator|=(const U& v) && { return rmw([&](T& x) { x |= v; }); }
  template <class U>
  T operator^=(const U& v) && { return rmw([&](T& x) { x ^= v; }); }
  template <class U>
  T operator<<=(const U& v) && { return rmw([&](T& x) { x <<= v; }); }
  template <class U>
  T operator>>=(const U& v) && { return rmw([&](T& x) { x >>= v; }); }
  T operator++() && { return rmw([](T& x) { ++x; }); }
  T operator--() && { return rmw([](T& x) { --x; }); }
  T operator++(int) && {
    const T old = *m_p;
    rmw([](T& x) { ++x; });
    return old;
  }
  T operator--(int) && {
    const T old = *m_p;
    rmw([](T& x) { --x; });
    return old;
  }
  /// &s[i]: the raw address; stores through it are seen where they change bytes.
  T* operator&() && {
    scheck::access_fast(m_p, n, scheck::Op::address, m_site);
    return m_p;
  }

  // The library's atomics (scratchkit/atomic.hpp).
  T* impl_atomic_target() const {
    scheck::access_fast(m_p, n, scheck::Op::atomic, m_site);
    return m_p;
  }

 private:
  template <class U>
  static T named() {
    static_assert(dependent_false<U>::value,
                  "scratchkit scratch checker: a scratch element kept in an `auto` variable is updated: name its "
                  "type (`float v = s[i];`) for a local copy, or write `s[i] += ...` to update shared memory");
    return T();
  }
  T load() const {
    scheck::access_fast(m_p, n, scheck::Op::load, m_site);
    return *m_p;
  }
  T store(const T& v) const {
    scheck::access_fast(m_p, n, scheck::Op::store, m_site);
    *m_p = v;
    return v;
  }
  template <class F>
  T rmw(const F& f) const {
    scheck::access_fast(m_p, n, scheck::Op::rmw, m_site);
    f(*m_p);
    return *m_p;
  }
  T* m_p;
  SiteRef m_site;
};

/// What `s[i]` gives: the proxy for arithmetic, enum and pointer elements, `T&` for class types
/// (whose stores the checker tells from loads by comparing bytes).
template <class T>
inline constexpr bool scratch_proxied = std::is_arithmetic<T>::value || std::is_enum<T>::value ||
                                        std::is_pointer<T>::value;
template <class T>
using scratch_ref_t = std::conditional_t<scratch_proxied<T>, ScratchRef<T>, T&>;

/// The element at p, as `s[i]` returns it, recording a `T&` touch for class types.
template <class T>
inline scratch_ref_t<T> scratch_element(T* p, const SiteRef& site) {
  if constexpr (scratch_proxied<T>) {
    return ScratchRef<T>(p, site);
  } else {
    scheck::touch_fast(p, sizeof(T));
    return *p;
  }
}

#else  // no checker hooks: plain indices and references

using scratch_index     = std::size_t;
using scratch_int_index = int;
template <class T>
using scratch_ref_t = T&;
KOKKOS_FORCEINLINE_FUNCTION constexpr std::size_t index_value(std::size_t i) { return i; }
KOKKOS_FORCEINLINE_FUNCTION constexpr int index_value(int i) { return i; }

#endif

}  // namespace detail
}  // namespace scratchkit
