// SPDX-License-Identifier: BSD-3-Clause
/// Scratch element access under the checker: an index that carries its source site, and a
/// proxy that records a load on read, a store on write and both on `+=`, whatever the values.
#pragma once

#include <scratchkit/detail/scratch_check.hpp>

#include <Kokkos_Macros.hpp>

#include <cstddef>
#include <type_traits>

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
#include <algorithm>
#include <cstdio>
#include <utility>
#endif

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
// C++17: GCC, Clang and EDG give the line and file of the call site, Clang its column too;
// elsewhere two accesses on one line are told apart by their order.
#if defined(__clang__)
#define SCRATCHKIT_SITE_DEFAULT \
  const char *loc_file = __builtin_FILE(), int loc_line = __builtin_LINE(), int loc_column = __builtin_COLUMN()
#define SCRATCHKIT_SITE_OF(loc) ::scratchkit::detail::SiteRef{loc##_file, loc##_line, loc##_column}
#else
#define SCRATCHKIT_SITE_DEFAULT const char *loc_file = __builtin_FILE(), int loc_line = __builtin_LINE()
#define SCRATCHKIT_SITE_OF(loc) ::scratchkit::detail::SiteRef{loc##_file, loc##_line, 0}
#endif
struct SiteRef {
  const char* file;
  int line, column;
  ScratchSite get() const { return ScratchSite{file, line, column}; }
};
#endif

#if defined(__GNUC__)
#define SCRATCHKIT_COLD __attribute__((noinline, cold))
#else
#define SCRATCHKIT_COLD
#endif

namespace scheck {
// The recording path, out of line; the test before it, scheck::recording(), is one the compiler
// may hoist out of a loop of logical threads.
SCRATCHKIT_COLD inline void access_slow(const void* p, std::size_t n, Op op, SiteRef site) {
  active->access(p, n, op, site.get());
}
SCRATCHKIT_COLD inline void open_slow(const void* p, std::size_t n, SiteRef site) { active->open(p, n, site.get()); }
SCRATCHKIT_COLD inline void per_thread_slow(int owner, SiteRef site) { active->per_thread(owner, site.get()); }
inline void access_fast(const void* p, std::size_t n, Op op, const SiteRef& site) {
  if (__builtin_expect(recording(), 0)) access_slow(p, n, op, site);
}
inline void open_fast(const void* p, std::size_t n, const SiteRef& site) {
  if (__builtin_expect(recording(), 0)) open_slow(p, n, site);
}
inline void per_thread_fast(int owner, const SiteRef& site) {
  if (__builtin_expect(recording(), 0)) per_thread_slow(owner, site);
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

/// A scratch element of arithmetic type under the checker: what `s[i]` is. Its construction
/// is the access (a load, or a store where the element's bytes change before the thread's next
/// access), `=` a store, `+=` and the like a load and a store, `&s[i]` the address. Used as
/// the expression `s[i]` it is the element itself (`T&`); a named one (`auto v = s[i];`,
/// `const auto& c = s[i];`, a `const T&` parameter of `std::max`) holds the value read where
/// it was declared, as CUDA's `auto` copy does, and refuses updates at compile time (an
/// update would be to shared memory with `auto&&`, to a copy with `auto`).
template <class T>
class ScratchRef {
  static constexpr std::size_t n = sizeof(T);

 public:
  using value_type = T;
  ScratchRef(T* p, const SiteRef& site) : ScratchRef(p, site, scheck::recording()) {}
  /// `on`: whether the block is recorded (scheck::recording(), which a loop tests once).
  ScratchRef(T* p, const SiteRef& site, bool on) : m_p(p), m_site(site), m_v(*p), m_on(on) {
    if (__builtin_expect(on, 0)) scheck::open_slow(p, n, site);
  }
  // Not trivially copyable: a proxy passed through `...` is refused (Clang; GCC with the
  // -Wconditionally-supported error set below); printf and Kokkos::printf take it by value.
  ScratchRef(const ScratchRef& o) : m_p(o.m_p), m_site(o.m_site), m_v(o.m_v), m_on(o.m_on) {}

  /// The expression `s[i]`: the element, read or bound to a `T&` / `const T&` parameter.
  operator T&() && noexcept { return *m_p; }  // NOLINT(google-explicit-constructor)
  /// A named proxy: the value read at its declaration.
  operator T() const& noexcept { return m_v; }  // NOLINT(google-explicit-constructor)
  /// The value read at the declaration (printf's argument).
  T impl_value() const noexcept { return m_v; }

  T operator=(const T& v) && { return store(v); }
  T operator=(const ScratchRef& o) && { return store(*o.m_p); }
  template <class U>
  T operator=(const U&) & {
    return named<U>();
  }

  template <class U>
  T operator+=(const U&) & { return named<U>(); }
  template <class U>
  T operator-=(const U&) & { return named<U>(); }
  template <class U>
  T operator*=(const U&) & { return named<U>(); }
  template <class U>
  T operator/=(const U&) & { return named<U>(); }
  template <class U>
  T operator%=(const U&) & { return named<U>(); }
  template <class U>
  T operator&=(const U&) & { return named<U>(); }
  template <class U>
  T operator|=(const U&) & { return named<U>(); }
  template <class U>
  T operator^=(const U&) & { return named<U>(); }
  template <class U>
  T operator<<=(const U&) & { return named<U>(); }
  template <class U>
  T operator>>=(const U&) & { return named<U>(); }
  template <class U = T>
  T operator++() & { return named<U>(); }
  template <class U = T>
  T operator--() & { return named<U>(); }
  template <class U = T>
  T operator++(int) & { return named<U>(); }
  template <class U = T>
  T operator--(int) & { return named<U>(); }

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
  /// &s[i]: the raw address; in a recorded block, where accesses through it trap (scratch_trap.hpp),
  /// or else are stores seen where they change bytes; both named after this site.
  T* operator&() && {
    if (__builtin_expect(m_on, 0)) {
      scheck::access_slow(m_p, n, scheck::Op::address, m_site);
      return scheck::raw_view_slow(m_p);
    }
    return m_p;
  }

  // The library's atomics (scratchkit/atomic.hpp).
  T* impl_atomic_target() const {
    hook(m_p, scheck::Op::atomic, m_site);
    return m_p;
  }
  // std::swap of two elements: both loaded, both stored.
  void impl_swap(ScratchRef& o) {
    const T a = *m_p, b = *o.m_p;
    hook(m_p, scheck::Op::load_kept, m_site);
    hook(o.m_p, scheck::Op::load_kept, o.m_site);
    store(b);
    o.store(a);
  }

 private:
  template <class U>
  static T named() {
    static_assert(dependent_false<U>::value,
                  "scratchkit scratch checker: a scratch element kept in an `auto` variable is updated: name its "
                  "type (`float v = s[i];`) for a local copy, or write `s[i] += ...` to update shared memory");
    return T();
  }
  T store(const T& v) const {
    hook(m_p, scheck::Op::store, m_site);
    *m_p = v;
    return v;
  }
  template <class F>
  T rmw(const F& f) const {
    hook(m_p, scheck::Op::rmw, m_site);
    f(*m_p);
    return *m_p;
  }
  void hook(T* p, scheck::Op op, const SiteRef& site) const {
    if (__builtin_expect(m_on, 0)) scheck::access_slow(p, n, op, site);
  }
  T* m_p;
  SiteRef m_site;
  T m_v;
  bool m_on;
};

template <class T>
struct is_scratch_ref : std::false_type {};
template <class T>
struct is_scratch_ref<ScratchRef<T>> : std::true_type {};
template <class... A>
inline constexpr bool any_scratch_ref = (is_scratch_ref<A>::value || ...);
/// A printf argument: a proxy's value, anything else as it is.
template <class A>
inline decltype(auto) vararg(const A& a) {
  if constexpr (is_scratch_ref<A>::value) {
    return a.impl_value();
  } else {
    return (a);
  }
}

/// What `s[i]` gives: the proxy for arithmetic, enum and pointer elements, `T&` for class types
/// (whose stores the checker tells from loads by comparing bytes).
template <class T>
inline constexpr bool scratch_proxied = std::is_arithmetic<T>::value || std::is_enum<T>::value ||
                                        std::is_pointer<T>::value;
template <class T>
using scratch_ref_t = std::conditional_t<scratch_proxied<T>, ScratchRef<T>, T&>;

/// The element at p, as `s[i]` returns it, recording a `T&` access for class types.
template <class T>
inline scratch_ref_t<T> scratch_element(T* p, const SiteRef& site) {
  if constexpr (scratch_proxied<T>) {
    return ScratchRef<T>(p, site);
  } else {
    scheck::open_fast(p, sizeof(T), site);
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

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
// Idioms on `s[i]` that deduce one type from two arguments or pass it through `...`: without the
// checker `s[i]` is a `T&`, so they compile there; these overloads make them compile, and give the
// same result, with the proxy (docs/checker.md, "Idioms").
#define SCRATCHKIT_DETAIL_MIXED(NS, F)                                                               \
  namespace NS {                                                                                     \
  template <class T>                                                                                 \
  inline T F(const ::scratchkit::detail::ScratchRef<T>& a, const T& b) {                             \
    return F<T>(a.impl_value(), b);                                                                  \
  }                                                                                                  \
  template <class T>                                                                                 \
  inline T F(const T& a, const ::scratchkit::detail::ScratchRef<T>& b) {                             \
    return F<T>(a, b.impl_value());                                                                  \
  }                                                                                                  \
  }
SCRATCHKIT_DETAIL_MIXED(std, min)
SCRATCHKIT_DETAIL_MIXED(std, max)
// Kokkos::min/max exist from Kokkos 3.7 on; earlier, these would be the only Kokkos::min/max.
#if defined(KOKKOS_VERSION) && KOKKOS_VERSION >= 30700
namespace Kokkos {
template <class T>
inline T min(const ::scratchkit::detail::ScratchRef<T>& a, const T& b) {
  return b < a.impl_value() ? b : a.impl_value();
}
template <class T>
inline T min(const T& a, const ::scratchkit::detail::ScratchRef<T>& b) {
  return b.impl_value() < a ? b.impl_value() : a;
}
template <class T>
inline T max(const ::scratchkit::detail::ScratchRef<T>& a, const T& b) {
  return a.impl_value() < b ? b : a.impl_value();
}
template <class T>
inline T max(const T& a, const ::scratchkit::detail::ScratchRef<T>& b) {
  return a < b.impl_value() ? b.impl_value() : a;
}
}  // namespace Kokkos
#endif
#undef SCRATCHKIT_DETAIL_MIXED

namespace std {
/// std::swap(s[i], s[j]), as vector<bool>'s references have it.
template <class T>
inline void swap(::scratchkit::detail::ScratchRef<T>&& a, ::scratchkit::detail::ScratchRef<T>&& b) {
  a.impl_swap(b);
}
}  // namespace std

// printf("%f", s[i]): the element's value, not the proxy's bytes.
#define SCRATCHKIT_DETAIL_PRINTF                                                                       \
  template <class... A, std::enable_if_t<::scratchkit::detail::any_scratch_ref<A...>, int> = 0>        \
  inline int printf(const char* format, const A&... a) {                                              \
    return ::std::printf(format, ::scratchkit::detail::vararg(a)...);                                  \
  }                                                                                                    \
  template <class... A, std::enable_if_t<::scratchkit::detail::any_scratch_ref<A...>, int> = 0>        \
  inline int fprintf(::std::FILE* f, const char* format, const A&... a) {                              \
    return ::std::fprintf(f, format, ::scratchkit::detail::vararg(a)...);                              \
  }
SCRATCHKIT_DETAIL_PRINTF
namespace std {
SCRATCHKIT_DETAIL_PRINTF
}  // namespace std
#undef SCRATCHKIT_DETAIL_PRINTF

// Kokkos::printf(format, args...) takes its arguments by value and passes them through `...`:
// an overload for each position of the first proxy argument (up to the fifth), more specialised than Kokkos'.
namespace scratchkit {
namespace detail {
template <class... A>
inline void kokkos_printf(const char* format, const A&... a) {
  ::std::printf(format, vararg(a)...);
}
template <class... B>
inline constexpr bool no_scratch_ref = !any_scratch_ref<B...>;
}  // namespace detail
}  // namespace scratchkit
// Kokkos has printf from 4.2 on; before, a Kokkos::printf would hide ::printf from Kokkos' own calls.
#if defined(KOKKOS_VERSION) && KOKKOS_VERSION >= 40200
namespace Kokkos {
template <class T, class... A>
inline void printf(const char* f, ::scratchkit::detail::ScratchRef<T> x, A... a) {
  ::scratchkit::detail::kokkos_printf(f, x, a...);
}
template <class B0, class T, class... A>
inline std::enable_if_t<::scratchkit::detail::no_scratch_ref<B0>> printf(const char* f, B0 b0,
                                                                        ::scratchkit::detail::ScratchRef<T> x, A... a) {
  ::scratchkit::detail::kokkos_printf(f, b0, x, a...);
}
template <class B0, class B1, class T, class... A>
inline std::enable_if_t<::scratchkit::detail::no_scratch_ref<B0, B1>> printf(
    const char* f, B0 b0, B1 b1, ::scratchkit::detail::ScratchRef<T> x, A... a) {
  ::scratchkit::detail::kokkos_printf(f, b0, b1, x, a...);
}
template <class B0, class B1, class B2, class T, class... A>
inline std::enable_if_t<::scratchkit::detail::no_scratch_ref<B0, B1, B2>> printf(
    const char* f, B0 b0, B1 b1, B2 b2, ::scratchkit::detail::ScratchRef<T> x, A... a) {
  ::scratchkit::detail::kokkos_printf(f, b0, b1, b2, x, a...);
}
template <class B0, class B1, class B2, class B3, class T, class... A>
inline std::enable_if_t<::scratchkit::detail::no_scratch_ref<B0, B1, B2, B3>> printf(
    const char* f, B0 b0, B1 b1, B2 b2, B3 b3, ::scratchkit::detail::ScratchRef<T> x, A... a) {
  ::scratchkit::detail::kokkos_printf(f, b0, b1, b2, b3, x, a...);
}
}  // namespace Kokkos
#endif

// A proxy through any other `...` (a user's variadic function): GCC passes its bytes silently
// (-Wconditionally-supported), Clang refuses it; make GCC refuse it too, from here on.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic error "-Wconditionally-supported"
#endif
#endif
