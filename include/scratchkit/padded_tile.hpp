// SPDX-License-Identifier: BSD-3-Clause
/// PaddedTile: a 2-D scratch tile with a padded row pitch against bank conflicts.
#pragma once

#include <scratchkit/shared_array.hpp>

namespace scratchkit {

/// Rows x Cols elements of T in static scratch, stored with row pitch
/// Cols + Pad. With 4-byte elements and Cols a multiple of 32, Pad = 1 puts
/// the elements of a column in 32 different banks, so a warp reading a column
/// (the transpose's second phase) is conflict-free.
/// \code
/// using Tile = scratchkit::PaddedTile<float, 32, 32>;   // 32 x 33 floats
/// Tile t(b); t(ty, tx) = in(...); sync_threads(b); out(...) = t(tx, ty);
/// \endcode
template <class T, int Rows, int Cols, int Pad = 1, std::size_t Align = 0>
class PaddedTile {
  static_assert(Rows > 0 && Cols > 0 && Pad >= 0, "PaddedTile: bad shape");

 public:
  using value_type = T;
  using storage    = SharedArray<T, static_cast<std::size_t>(Rows) * (Cols + Pad), Align>;
  static constexpr int rows  = Rows;
  static constexpr int cols  = Cols;
  static constexpr int pitch = Cols + Pad;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size() { return storage::shmem_size(); }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_align() { return storage::shmem_align(); }

  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit PaddedTile(const BlockT& block) : m_s(block) {
    SCRATCHKIT_SCRATCH_PADDED(T, m_s.impl_data(), Rows, Cols, Pad);
  }

  KOKKOS_INLINE_FUNCTION detail::scratch_ref_t<T> operator()(detail::scratch_int_index ri, int c) const {
    const int r = detail::index_value(ri);
    SCRATCHKIT_BOUNDS_CHECK(r >= 0 && r < Rows && c >= 0 && c < Cols,
                            "scratchkit: PaddedTile index out of bounds");
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    return detail::scratch_element(m_s.impl_data() + r * pitch + c, detail::index_site(ri));
#else
    return m_s.impl_data()[r * pitch + c];
#endif
  }
  KOKKOS_INLINE_FUNCTION T* data() const { return m_s.data(); }

 private:
  storage m_s;
};

}  // namespace scratchkit
