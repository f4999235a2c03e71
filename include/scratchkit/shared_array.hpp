// SPDX-License-Identifier: BSD-3-Clause
/// SharedArray: a fixed-size array in the block's level-0 scratch (CUDA's `__shared__ T a[N]`).
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/scratch_ref.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace scratchkit {

/// Tag: the contents of a scratch array start uninitialised, as in CUDA.
struct Uninit {};

template <class Array, int... Extents>
class SharedShape;

/// N elements of T in the block's static scratch region, aligned to Align
/// bytes (any power of two up to 128; 0: 16 when N * sizeof(T) is a multiple
/// of 16, as nvcc aligns a `__shared__` array, else alignof(T)).
///
/// The size is a compile-time constant, so a launch is sized from the types:
/// \code
/// using Tile = scratchkit::SharedArray<float, 16 * 16>;
/// auto params = scratchkit::LaunchParams(grid, {16, 16}).uses<Tile, Tile>();
/// ... KOKKOS_LAMBDA(const Block& b) { Tile As(b), Bs(b); ... }
/// \endcode
/// Arrays are placed in the order they are constructed, which must be the
/// order (and the types) listed in `uses<...>()`; a kernel that takes more
/// than was planned aborts rather than overlapping the dynamic pool.
template <class T, std::size_t N = 0, std::size_t Align = 0>
class SharedArray {
 public:
  using value_type = T;
  /// Default: 16 bytes when the array is a whole number of 16-byte words
  /// (what nvcc gives a `__shared__` array it vectorises), else alignof(T).
  static constexpr std::size_t alignment =
      Align != 0 ? Align : (N * sizeof(T) % 16 == 0 && alignof(T) <= 16 ? 16 : alignof(T));
  static_assert(detail::is_pow2(alignment), "SharedArray: Align must be a power of two");
  static_assert(alignment >= alignof(T), "SharedArray: Align below the element's alignment");
  static_assert(alignment <= detail::base_alignment, "SharedArray: Align above 128 is not supported");
  static_assert(!std::is_array<T>::value, "SharedArray<T[E0][E1]...> takes its extents from T: leave N out");
  static_assert(N > 0, "SharedArray: N must be positive (or T an array type: SharedArray<float[16][16]>)");
  static_assert(std::is_trivially_destructible<T>::value, "SharedArray: T must be trivially destructible");

  static constexpr Uninit UNINIT{};

  /// Bytes this array takes in scratch (excluding alignment padding).
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size() { return N * sizeof(T); }
  /// Alignment of its first element, in bytes.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_align() { return alignment; }
  /// Number of elements.
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t size() { return N; }

  /// Takes the next N elements of the block's static region; contents uninitialised.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit SharedArray(const BlockT& block, Uninit = UNINIT)
      : m_data(detail::assume_aligned<alignment>(static_cast<T*>(block.impl_take_static(shmem_size(), alignment)))) {
    SCRATCHKIT_SCRATCH_STATIC(T, m_data, N, "SharedArray");
  }

  /// The element i: `T&`, or under the scratch checker a proxy that records the access
  /// (docs/checker.md: name the type, `float v = s[i];`, rather than `auto`).
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> operator[](detail::scratch_index ix) const {
    const std::size_t i = detail::index_value(ix);
    SCRATCHKIT_BOUNDS_CHECK_V(i < N, "scratchkit: SharedArray index %lld out of bounds [0, %lld)",
                              static_cast<long long>(i), static_cast<long long>(N));
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    return detail::scratch_element(m_data + i, detail::index_site(ix));
#else
    return m_data[i];
#endif
  }
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  // In a checked block, raw pointers that trap where they are used (detail/scratch_trap.hpp).
  KOKKOS_INLINE_FUNCTION T* data() const { return detail::scheck::raw_view(m_data); }
  KOKKOS_INLINE_FUNCTION T* begin() const { return detail::scheck::raw_view(m_data); }
  KOKKOS_INLINE_FUNCTION T* end() const { return detail::scheck::raw_view(m_data + N); }
#else
  KOKKOS_INLINE_FUNCTION T* data() const { return m_data; }
  KOKKOS_INLINE_FUNCTION T* begin() const { return m_data; }
  KOKKOS_INLINE_FUNCTION T* end() const { return m_data + N; }
#endif
  /// The storage for the layer's own element access (data() under the checker hands out a trapping view).
  KOKKOS_INLINE_FUNCTION T* impl_data() const { return m_data; }

  /// The array's elements [offset, offset + E0 * E1 * ...) seen as a row-major E0 x E1 x ...
  /// array (last index fastest): CUDA's `double (*s)[D][Q] = (double (*)[D][Q]) buf;`, with
  /// which a kernel reuses one `__shared__` buffer under each phase's shape. Accesses go
  /// through operator[] (bounds-checked builds check each index; the scratch checker sees
  /// them). A shape larger than the array does not compile; an offset that runs past it
  /// stops the kernel in bounds-checked builds.
  /// \code
  /// Cube s0(b);                               // SharedArray<double, Q * Q * Q>
  /// auto x = s0.shape<D, D, D>();             // x(dz, dy, dx)
  /// auto u = s0.shape<Q, D, Q>();             // the same storage, a later phase's shape
  /// \endcode
  template <int... E>
  KOKKOS_INLINE_FUNCTION SharedShape<SharedArray, E...> shape(std::size_t offset = 0) const {
    return SharedShape<SharedArray, E...>(*this, offset);
  }

 private:
  T* m_data;
};

/// A multi-dimensional array in static scratch in one line, CUDA's `__shared__ T a[E0][E1]...`:
/// `SharedArray<double[Q][Q][D]> s(b);` then `s(i, j, k)`. Row-major, the last index fastest,
/// exactly as C lays out `T[E0][E1][E2]`: element (i, j, k) at ((i * E1) + j) * E2 + k. Padding
/// against bank conflicts is written as in CUDA, on the extent: `SharedArray<float[32][32 + 1]>`
/// (a 32 x 32 tile read by columns; rows 33 floats apart, so a column's 32 elements fall in 32
/// banks). Everything of SharedArray<T, E0 * E1 * ...> stays: `uses<>()`, `s[i]` over all
/// elements, `data()`, `shape<...>()` to reuse the storage under another shape. Each index is
/// checked in bounds-checked builds, and the scratch checker records every access.
/// \code
/// using Cube = scratchkit::SharedArray<double[Q1][Q1][Q1]>;
/// auto p = LaunchParams(NE, Block::shape_type()).uses<Cube>();
/// ... Cube s(b); s(qz, qy, qx) = ...;
/// \endcode
template <class T, std::size_t E0, std::size_t Align>
class SharedArray<T[E0], 0, Align>
    : public SharedArray<std::remove_all_extents_t<T>, E0 * (sizeof(T) / sizeof(std::remove_all_extents_t<T>)),
                         Align> {
  using elem = std::remove_all_extents_t<T>;
  using base = SharedArray<elem, E0 * (sizeof(T) / sizeof(elem)), Align>;
  static_assert(E0 > 0, "SharedArray<T[E0]...>: extents must be positive");

 public:
  using value_type = elem;
  /// Dimensions: 1 + the array rank of T.
  static constexpr int rank = 1 + static_cast<int>(std::rank<T>::value);
  /// Extent of dimension d (0: E0).
  KOKKOS_INLINE_FUNCTION static constexpr int extent(int d) {
    constexpr int e[] = {static_cast<int>(E0), static_cast<int>(std::extent<T, 0>::value),
                         static_cast<int>(std::extent<T, 1>::value), static_cast<int>(std::extent<T, 2>::value),
                         static_cast<int>(std::extent<T, 3>::value), static_cast<int>(std::extent<T, 4>::value)};
    return e[d];
  }
  static_assert(rank <= 6, "SharedArray<T[E0]...>: at most 6 dimensions");

  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit SharedArray(const BlockT& block, Uninit u = Uninit{}) : base(block, u) {}

  /// The element (i0, i1, ...): one index a dimension (SharedShape's indexing over the whole array).
  template <class... I>
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<elem> operator()(detail::scratch_int_index i0, I... i) const {
    static_assert(sizeof...(I) + 1 == rank, "SharedArray<T[E0]...>: one index per dimension");
    return whole_shape(std::make_index_sequence<rank - 1>())(i0, i...);
  }

 private:
  template <std::size_t... D>
  KOKKOS_INLINE_FUNCTION SharedShape<base, static_cast<int>(E0), static_cast<int>(std::extent<T, D>::value)...>
  whole_shape(std::index_sequence<D...>) const {
    return {static_cast<const base&>(*this), 0};
  }
};

/// A row-major multi-dimensional view of a scratch array's elements (SharedArray::shape).
template <class Array, int... Extents>
class SharedShape {
  static constexpr std::size_t count = (std::size_t(1) * ... * static_cast<std::size_t>(Extents));
  static_assert(sizeof...(Extents) > 0 && ((Extents > 0) && ...), "SharedShape: extents must be positive");
  static_assert(count <= Array::size(), "SharedShape: the shape holds more elements than the array");

 public:
  using value_type = typename Array::value_type;
  static constexpr int rank = static_cast<int>(sizeof...(Extents));

  KOKKOS_INLINE_FUNCTION SharedShape(const Array& a, std::size_t offset) : m_array(a), m_offset(offset) {
    SCRATCHKIT_BOUNDS_CHECK_V(offset + count <= Array::size(),
                              "scratchkit: shape of %lld elements at offset %lld past the array's %lld",
                              static_cast<long long>(count), static_cast<long long>(offset),
                              static_cast<long long>(Array::size()));
  }
  /// Extent of dimension d.
  KOKKOS_INLINE_FUNCTION static constexpr int extent(int d) {
    constexpr int e[] = {Extents...};
    return e[d];
  }
  /// The element (i0, i1, ...), at offset + ((i0 * E1 + i1) * E2 + ...).
  template <class... I>
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<value_type> operator()(detail::scratch_int_index i0, I... i) const {
    static_assert(sizeof...(I) + 1 == sizeof...(Extents), "SharedShape: one index per dimension");
    // In range: the constructor checked offset + count <= size, linear() each index.
    const std::size_t k =
        m_offset + static_cast<std::size_t>(linear<0, Extents...>(0, detail::index_value(i0), static_cast<int>(i)...));
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    return detail::scratch_element(m_array.impl_data() + k, detail::index_site(i0));
#else
    return m_array.impl_data()[k];
#endif
  }

 private:
  // Compile-time extents all the way down: the index arithmetic folds to multiplies by constants.
  template <int D, int E0, int... Er, class... I>
  KOKKOS_INLINE_FUNCTION static int linear(int acc, int i0, I... rest) {
    SCRATCHKIT_BOUNDS_CHECK_V(i0 >= 0 && i0 < E0, "scratchkit: shape index %d out of bounds [0, %d) in dimension %d",
                              i0, E0, D);
    acc = acc * E0 + i0;  // int arithmetic, as CUDA's: a scratch array is far below 2^31 elements
    if constexpr (sizeof...(Er) == 0) {
      return acc;
    } else {
      return linear<D + 1, Er...>(acc, rest...);
    }
  }
  Array m_array;
  std::size_t m_offset;
};

namespace detail {
template <std::size_t I, class A>
struct SharedLeaf {
  A value;
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit SharedLeaf(const BlockT& block) : value(block) {}
};
template <class Seq, class... Arrays>
struct SharedLeaves;
template <std::size_t... Is, class... Arrays>
struct SharedLeaves<std::index_sequence<Is...>, Arrays...> : SharedLeaf<Is, Arrays>... {
  // Base classes are constructed in the order they are listed: the arrays
  // take the static region in the order of Arrays..., the order uses<> plans.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit SharedLeaves(const BlockT& block) : SharedLeaf<Is, Arrays>(block)... {}
};
}  // namespace detail

/// Several static scratch arrays declared once: the same type plans the
/// launch (`LaunchParams::uses<Shared>()`) and constructs them in the kernel,
/// in that order, so an array cannot be missing from the plan or taken in
/// another order.
/// \code
/// using Shared = scratchkit::SharedArrays<scratchkit::SharedArray<float, 256>, scratchkit::SharedArray<int, 32>>;
/// auto params = scratchkit::LaunchParams(grid, 256).uses<Shared>();
/// ... KOKKOS_LAMBDA(const Block& b) {
///   Shared s(b);
///   auto& tile   = s.get<0>();  // in C++20 also: auto& [tile, counts] = s;
///   auto& counts = s.get<1>();  // (C++17 lambdas cannot capture structured bindings)
/// }
/// \endcode
template <class... Arrays>
struct SharedArrays : detail::SharedLeaves<std::index_sequence_for<Arrays...>, Arrays...> {
  static_assert(sizeof...(Arrays) > 0, "SharedArrays: at least one array");
  static constexpr bool is_shared_array_group = true;
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit SharedArrays(const BlockT& block)
      : detail::SharedLeaves<std::index_sequence_for<Arrays...>, Arrays...>(block) {}
  /// The I-th array, in the order listed.
  template <std::size_t I>
  KOKKOS_INLINE_FUNCTION auto& get() {
    return static_cast<detail::SharedLeaf<I, std::tuple_element_t<I, std::tuple<Arrays...>>>&>(*this).value;
  }
  template <std::size_t I>
  KOKKOS_INLINE_FUNCTION const auto& get() const {
    return static_cast<const detail::SharedLeaf<I, std::tuple_element_t<I, std::tuple<Arrays...>>>&>(*this).value;
  }
};

}  // namespace scratchkit

// Structured bindings for SharedArrays (auto& [a, b] = shared;).
template <class... Arrays>
struct std::tuple_size<scratchkit::SharedArrays<Arrays...>> : std::integral_constant<std::size_t, sizeof...(Arrays)> {};
template <std::size_t I, class... Arrays>
struct std::tuple_element<I, scratchkit::SharedArrays<Arrays...>> {
  using type = std::tuple_element_t<I, std::tuple<Arrays...>>;
};
