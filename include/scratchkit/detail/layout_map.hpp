// SPDX-License-Identifier: BSD-3-Clause
/// Maps the layouts of a public call's Views onto the row-major kernels (internal).
///
/// Every kernel of scratchkit is written (on the layer and in native CUDA)
/// for row-major arrays: the last index is the contiguous one. A call with
/// other layouts is mapped at its host entry point onto that fast path by
/// viewing the same memory differently (unmanaged Views of the same
/// pointers, nothing is copied):
///   - all Views contiguous row-major (LayoutRight, or any layout whose
///     strides happen to be row-major): LayoutRight Views, same axes;
///   - all Views contiguous column-major (LayoutLeft): LayoutRight Views with
///     the extents reversed, A(i, j) = R(j, i); the kernel's entry point
///     re-states its operation on the reversed axes (docs/layouts.md);
///   - all Views with a unit stride along the last (first) axis, other
///     strides free (a block of a larger matrix, the interior of a halo'd
///     grid): LayoutStride Views with the same (reversed) axes, whose last
///     axis is then the unit-stride one;
///   - anything else (mixed orders, no unit stride): LayoutStride Views of
///     the same axes, the layer's general strided path.
/// The native twins take plain contiguous row-major arrays: they run the
/// first two cases and throw UnsupportedError, naming the Views and their
/// strides, for the others.
#pragma once

#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace scratchkit {
namespace detail {

/// T with R pointer levels: T***, for Kokkos data types of rank R.
template <class T, int R>
struct add_rank {
  using type = typename add_rank<T*, R - 1>::type;
};
template <class T>
struct add_rank<T, 0> {
  using type = T;
};

/// The View type the kernels' entry points take (and the library instantiates, detail/eti.hpp):
/// rank R of T, layout L, in memory space Mem, unmanaged. Every public call maps its Views onto
/// it, so that Views of any traits and device types meet in a few instantiations.
template <class T, int R, class L, class Mem>
using KernelView = Kokkos::View<typename add_rank<T, R>::type, L, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// An unmanaged View of V's elements and memory with layout L.
template <class V, class L>
using MappedView = KernelView<typename V::value_type, static_cast<int>(V::rank), L, typename V::memory_space>;

/// v with const elements: the kernels' entry points take their inputs so.
template <class V>
KernelView<typename V::const_value_type, static_cast<int>(V::rank), typename V::array_layout,
           typename V::memory_space>
const_view(const V& v) {
  return v;
}

/// True when V's strides are those of a contiguous row-major (Reverse: column-major)
/// array of its extents; axes of extent <= 1 impose nothing.
template <bool Reverse, class V>
bool is_dense_order(const V& v) {
  constexpr int R    = static_cast<int>(V::rank);
  std::size_t expect = 1;
  for (int i = 0; i < R; ++i) {
    const int d = Reverse ? i : R - 1 - i;
    if (v.extent(d) > 1 && static_cast<std::size_t>(v.stride(d)) != expect) return false;
    expect *= v.extent(d);
  }
  return true;
}

/// True when axis d of v has unit stride (or extent <= 1).
template <class V>
bool unit_axis(const V& v, int d) {
  return v.extent(d) <= 1 || v.stride(d) == 1;
}

/// The LayoutRight View of the same memory as the contiguous v: same extents,
/// or (Reverse, v column-major) reversed extents.
template <bool Reverse, class V, std::size_t... I>
MappedView<V, Kokkos::LayoutRight> row_major_view(const V& v, std::index_sequence<I...>) {
  constexpr std::size_t R = sizeof...(I);
  return MappedView<V, Kokkos::LayoutRight>(v.data(), v.extent(Reverse ? R - 1 - I : I)...);
}

/// The LayoutStride View of v's elements, axes reversed when Reverse.
template <bool Reverse, class V>
MappedView<V, Kokkos::LayoutStride> strided_view(const V& v) {
  constexpr int R = static_cast<int>(V::rank);
  Kokkos::LayoutStride l;
  for (int i = 0; i < R; ++i) {
    const int d    = Reverse ? R - 1 - i : i;
    l.dimension[i] = v.extent(d);
    l.stride[i]    = v.stride(d);
  }
  return MappedView<V, Kokkos::LayoutStride>(v.data(), l);
}

/// The name of layout L, for messages.
template <class L>
const char* layout_name() {
  if (std::is_same<L, Kokkos::LayoutRight>::value) return "LayoutRight";
  if (std::is_same<L, Kokkos::LayoutLeft>::value) return "LayoutLeft";
  if (std::is_same<L, Kokkos::LayoutStride>::value) return "LayoutStride";
  return "another layout";
}

/// "'name' (label): extents e0 x e1 ..., strides s0, s1 ..." for error messages.
template <class V>
std::string describe_view(const V& v, const char* name) {
  std::ostringstream os;
  os << "'" << name << "' (" << v.label() << ", " << layout_name<typename V::array_layout>() << "): extents ";
  for (int d = 0; d < static_cast<int>(V::rank); ++d) os << (d ? " x " : "") << v.extent(d);
  os << ", strides ";
  for (int d = 0; d < static_cast<int>(V::rank); ++d) os << (d ? ", " : "") << v.stride(d);
  return os.str();
}

/// Throws ShapeError when two different indices of the View v reach the same
/// element (a LayoutStride View with a zero stride, or strides that make rows
/// overlap): an output written through it would race and be silently wrong.
/// LayoutLeft and LayoutRight Views never alias.
template <class V>
void require_distinct_elements(const V& v, const char* kernel, const char* name) {
  if constexpr (std::is_same<typename V::array_layout, Kokkos::LayoutStride>::value) {
    constexpr int R = static_cast<int>(V::rank);
    std::array<int, R> axes{};
    int n = 0;
    for (int d = 0; d < R; ++d)
      if (v.extent(d) > 1) axes[n++] = d;
    std::sort(axes.begin(), axes.begin() + n, [&](int a, int b) { return v.stride(a) < v.stride(b); });
    // Distinct when every stride clears the whole span of the axes with smaller strides.
    std::size_t reach = 0;  // largest offset reached by the axes so far, + 1
    for (int i = 0; i < n; ++i) {
      const int d = axes[i];
      if (static_cast<std::size_t>(v.stride(d)) < (reach == 0 ? 1 : reach)) {
        std::ostringstream os;
        os << "scratchkit::" << kernel << ": the output " << describe_view(v, name)
           << " has overlapping elements (axis " << d << "'s stride does not clear the axes with smaller strides); "
           << "writing through it would race";
        throw ShapeError(os.str());
      }
      reach = (reach == 0 ? 1 : reach) + static_cast<std::size_t>(v.stride(d)) * (v.extent(d) - 1);
    }
  } else {
    (void)v, (void)kernel, (void)name;
  }
}

/// Calls f(reversed, views...) with the Views v... mapped onto the row-major
/// kernels (the cases in this file's comment): `reversed` is
/// std::true_type when the mapped Views have their axes reversed (the
/// operation must be re-stated on them), std::false_type otherwise. For
/// Backend::native, Views that are not all contiguous row-major or all
/// contiguous column-major throw UnsupportedError naming each View's strides
/// (names: the argument names, in the order of v...). The mapped Views are
/// always unmanaged KernelViews (LayoutRight or LayoutStride) of V's memory
/// space, whatever V's traits. Rank-1 Views map onto LayoutRight when every one is contiguous,
/// onto LayoutStride otherwise (the kernels still read a contiguous one through its pointer,
/// vector_load.hpp); `reversed` is then always false.
template <class F, class... V>
void map_layouts(const char* kernel, Backend backend, const std::array<const char*, sizeof...(V)>& names, F&& f,
                 const V&... v) {
  if ((is_dense_order<false>(v) && ...))
    return f(std::false_type{}, row_major_view<false>(v, std::make_index_sequence<V::rank>{})...);
  if ((is_dense_order<true>(v) && ...))
    return f(std::true_type{}, row_major_view<true>(v, std::make_index_sequence<V::rank>{})...);
  if (backend == Backend::native) {
    std::ostringstream os;
    os << "scratchkit::" << kernel
       << ": Backend::native needs the Views all contiguous row-major or all contiguous column-major "
          "(docs/layouts.md); got";
    std::size_t i = 0;
    ((os << (i ? "; " : " ") << describe_view(v, names[i]), ++i), ...);
    throw UnsupportedError(os.str());
  }
  constexpr int last = static_cast<int>(sizeof...(V) > 0 ? std::max({static_cast<int>(V::rank)...}) : 1) - 1;
  if (!(unit_axis(v, last) && ...) && (unit_axis(v, 0) && ...))
    return f(std::true_type{}, strided_view<true>(v)...);
  f(std::false_type{}, strided_view<false>(v)...);
}

}  // namespace detail
}  // namespace scratchkit
