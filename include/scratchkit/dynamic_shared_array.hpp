// SPDX-License-Identifier: BSD-3-Clause
/// DynamicSharedArray: the block's launch-sized scratch pool (CUDA's `extern __shared__`).
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/scratch_ref.hpp>
#include <scratchkit/errors.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace scratchkit {

/// A view of `size()` elements of T in scratch; indexing is checked when
/// SCRATCHKIT_ENABLE_BOUNDS_CHECK is defined.
template <class T>
class SharedSpan {
 public:
  using value_type = T;
  KOKKOS_INLINE_FUNCTION SharedSpan(T* p, std::size_t n) : m_data(p), m_size(n) {}
  /// The element i: `T&`, or under the scratch checker a proxy that records the access.
  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> operator[](detail::scratch_index ix) const {
    const std::size_t i = detail::index_value(ix);
    SCRATCHKIT_BOUNDS_CHECK_V(i < m_size, "scratchkit: dynamic shared index %lld out of bounds [0, %lld)",
                              static_cast<long long>(i), static_cast<long long>(m_size));
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    return detail::scratch_element(m_data + i, detail::index_site(ix));
#else
    return m_data[i];
#endif
  }
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  KOKKOS_INLINE_FUNCTION T* data() const { return detail::scheck::raw_view(m_data); }  // traps where used in a checked block
#else
  KOKKOS_INLINE_FUNCTION T* data() const { return m_data; }
#endif
  KOKKOS_INLINE_FUNCTION std::size_t size() const { return m_size; }

 private:
  T* m_data;
  std::size_t m_size;
};

/// The block's dynamic pool, `LaunchParams::shared_mem_bytes(n)` bytes, whose
/// start is aligned to at least 128 bytes. `Align` is the alignment promised
/// for every partition taken with `offset` (16 by default: float4/double2
/// loads).
///
/// \code
/// scratchkit::DynamicLayout layout;
/// const auto tile_off = layout.add<float>(block_threads + 2 * R);
/// const auto w_off    = layout.add<float>(2 * R + 1);
/// auto params = scratchkit::LaunchParams(grid, block_threads).shared_mem_bytes(layout);
/// ... KOKKOS_LAMBDA(const Block& b) {
///   auto tile = scratchkit::DynamicSharedArray<float>::offset(b, tile_off, block_threads + 2 * R);
///   auto w    = scratchkit::DynamicSharedArray<float>::offset(b, w_off, 2 * R + 1);
/// }
/// \endcode
/// A partition that runs past the pool is rejected on the host before the
/// launch (`LaunchParams::shared_mem_bytes(layout)` / `require`); `offset`
/// checks it again on host backends and, on GPUs, in builds with
/// SCRATCHKIT_ENABLE_BOUNDS_CHECK.
template <class T, std::size_t Align = 16>
struct DynamicSharedArray {
  static_assert(detail::is_pow2(Align), "DynamicSharedArray: Align must be a power of two");
  static_assert(Align >= alignof(T), "DynamicSharedArray: Align below the element's alignment");
  static_assert(Align <= detail::base_alignment, "DynamicSharedArray: Align above 128 is not supported");

  /// The whole pool as elements of T.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION static SharedSpan<T> get(const BlockT& block) {
    SCRATCHKIT_SCRATCH_DYNAMIC(T, reinterpret_cast<T*>(block.impl_dynamic_base()), 0,
                               block.dynamic_shared_bytes() / sizeof(T), true);
    return SharedSpan<T>(detail::assume_aligned<detail::base_alignment>(reinterpret_cast<T*>(block.impl_dynamic_base())),
                         block.dynamic_shared_bytes() / sizeof(T));
  }

  /// `count` elements starting `byte_offset` bytes into the pool.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION static SharedSpan<T> offset(const BlockT& block, std::size_t byte_offset,
                                                     std::size_t count) {
    // Checked on the host before the launch (LaunchParams::require /
    // shared_mem_bytes(layout)); again here on host backends and in
    // bounds-checked builds, not in every GPU block.
    SCRATCHKIT_HOST_CHECK_V(byte_offset % Align == 0,
                            "scratchkit: dynamic shared partition at byte offset %lld is not a multiple of its "
                            "alignment %lld",
                            static_cast<long long>(byte_offset), static_cast<long long>(Align));
    SCRATCHKIT_HOST_CHECK_V(byte_offset + count * sizeof(T) <= block.dynamic_shared_bytes(),
                            "scratchkit: block (%d, %d, %d): dynamic shared partition [%lld, %lld) (%lld elements "
                            "of %lld bytes) runs past the dynamic pool of %lld bytes: size the pool from the layout, "
                            "LaunchParams::shared_mem_bytes(layout), and the launch checks it before it starts",
                            block.block_idx().x, block.block_idx().y, block.block_idx().z,
                            static_cast<long long>(byte_offset),
                            static_cast<long long>(byte_offset + count * sizeof(T)), static_cast<long long>(count),
                            static_cast<long long>(sizeof(T)), static_cast<long long>(block.dynamic_shared_bytes()));
    SCRATCHKIT_SCRATCH_DYNAMIC(T, reinterpret_cast<T*>(block.impl_dynamic_base() + byte_offset), byte_offset, count,
                               false);
    // The pool starts base_alignment-aligned and byte_offset is a multiple of Align.
    return SharedSpan<T>(detail::assume_aligned<Align>(reinterpret_cast<T*>(block.impl_dynamic_base() + byte_offset)),
                         count);
  }

  /// From `byte_offset` to the end of the pool.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION static SharedSpan<T> offset(const BlockT& block, std::size_t byte_offset) {
    const std::size_t pool = block.dynamic_shared_bytes();
    const std::size_t n    = byte_offset <= pool ? (pool - byte_offset) / sizeof(T) : 0;
    return offset(block, byte_offset, n);
  }
};

/// A typed partition of the dynamic pool, from DynamicLayout::partition<T>(count):
/// one handle carries the partition's offset, element type and count, so the
/// kernel takes it with `part.get(b)` instead of repeating them.
/// \code
/// scratchkit::DynamicLayout layout;
/// const auto tile = layout.partition<float>(block_threads + 2 * R);
/// const auto w    = layout.partition<float>(2 * R + 1);
/// auto params = scratchkit::LaunchParams(grid, block_threads).shared_mem_bytes(layout);  // sized and checked
/// ... KOKKOS_LAMBDA(const Block& b) {
///   auto t  = tile.get(b);   // SharedSpan<float> of block_threads + 2R elements
///   auto ws = w.get(b);
/// }
/// \endcode
template <class T, std::size_t Align = 16>
struct SharedPartition {
  std::size_t offset = 0;  ///< bytes from the start of the pool (a multiple of Align)
  std::size_t count  = 0;  ///< elements of T
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION SharedSpan<T> get(const BlockT& block) const {
    return DynamicSharedArray<T, Align>::offset(block, offset, count);
  }
};

/// Host-side plan of the partitions of a dynamic pool: each `add` returns the
/// partition's byte offset (aligned to `align`), `partition` a typed handle,
/// `bytes()` the pool size. LaunchParams::shared_mem_bytes(layout) sizes the
/// pool from it and checks every partition before the launch.
class DynamicLayout {
 public:
  /// Appends `count` elements of T aligned to 16 bytes; returns the typed handle.
  template <class T>
  SharedPartition<T> partition(std::size_t count) {
    return SharedPartition<T>{add<T>(count, 16), count};
  }
  /// Appends `count` elements of T aligned to `align` bytes; returns their byte offset.
  template <class T>
  std::size_t add(std::size_t count, std::size_t align = 16) {
    if (!detail::is_pow2(align) || align < alignof(T) || align > detail::base_alignment) {
      std::ostringstream os;
      os << "scratchkit::DynamicLayout::add: alignment " << align << " must be a power of two in ["
         << alignof(T) << ", " << detail::base_alignment << "]";
      throw LaunchError(os.str());
    }
    const std::size_t off = detail::round_up(m_bytes, align);
    const Part part{off, count * sizeof(T)};
    if (m_count < inline_parts)
      m_inline[m_count] = part;
    else
      m_more.push_back(part);
    ++m_count;
    m_bytes = off + count * sizeof(T);
    return off;
  }
  /// Total bytes the partitions need.
  std::size_t bytes() const { return m_bytes; }
  /// Throws LaunchError naming the partition (and `kernel`, if given) if any
  /// runs past `pool_bytes`.
  void require_fits(std::size_t pool_bytes, const char* kernel = nullptr) const {
    for (std::size_t i = 0; i < m_count; ++i) {
      const Part& p = i < inline_parts ? m_inline[i] : m_more[i - inline_parts];
      if (p.offset + p.bytes > pool_bytes) {
        std::ostringstream os;
        os << "scratchkit: ";
        if (kernel) os << "kernel '" << kernel << "': ";
        os << "dynamic shared partition " << i << " [" << p.offset << ", "
           << p.offset + p.bytes << ") runs past the dynamic pool of " << pool_bytes << " bytes";
        throw LaunchError(os.str());
      }
    }
  }

 private:
  struct Part {
    std::size_t offset, bytes;
  };
  // The first partitions live in the object: a layout is built (and copied
  // into LaunchParams) on every launch of a kernel that uses one, and a vector
  // would make that a heap allocation per launch.
  static constexpr std::size_t inline_parts = 8;
  Part m_inline[inline_parts] = {};
  std::vector<Part> m_more;  ///< partitions past the first inline_parts
  std::size_t m_count = 0;
  std::size_t m_bytes = 0;
};

}  // namespace scratchkit
