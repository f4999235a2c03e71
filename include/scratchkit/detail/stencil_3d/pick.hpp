// SPDX-License-Identifier: BSD-3-Clause
/// Which z_streaming shape a 3-D stencil runs with on CUDA: one pick, both twins.
///
/// stencil3d_zs_pick is the only place the choice is made: the layer calls it
/// with the room its launch path has (detail::stencil3d_zs_layer_pick) and
/// hands the answer to the native twin (native::cuda::detail::stencil_3d_7pt's
/// `pick`, detail/stencil_3d/native.hpp); a direct native call picks with the
/// device's own room. No Kokkos or CUDA header is needed to call it.
#pragma once

#include <scratchkit/detail/scratch_room.hpp>
#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/errors.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The z_streaming shapes a CUDA launch chooses from (both twins): Stencil3DZsDefault<T> (the native
/// twin's Stencil3DZsNativeDefault<T>, the same shape) or the wide ring Stencil3DZsWide<T>.
enum class Stencil3DZsKind : unsigned char { standard, wide };

/// The z_streaming shape one 3-D stencil runs with on CUDA (stencil3d_zs_pick).
struct Stencil3DPick {
  Stencil3DZsKind shape = Stencil3DZsKind::standard;
  friend constexpr bool operator==(const Stencil3DPick& a, const Stencil3DPick& b) { return a.shape == b.shape; }
  friend constexpr bool operator!=(const Stencil3DPick& a, const Stencil3DPick& b) { return !(a == b); }
};

/// Bytes of plane buffers the shape of kind k takes for T (Stencil3DZsShape::smem_bytes: the layer's
/// PaddedTile, the native twin's shared buffers).
template <class T>
constexpr std::size_t stencil3d_zs_bytes(Stencil3DZsKind k) {
  return static_cast<std::size_t>(k == Stencil3DZsKind::wide ? Stencil3DZsWide<T>::template smem_bytes<T>()
                                                             : Stencil3DZsDefault<T>::template smem_bytes<T>());
}
static_assert(stencil3d_zs_bytes<float>(Stencil3DZsKind::standard) < stencil3d_zs_bytes<float>(Stencil3DZsKind::wide) &&
                  stencil3d_zs_bytes<double>(Stencil3DZsKind::standard) <
                      stencil3d_zs_bytes<double>(Stencil3DZsKind::wide),
              "stencil3d_zs_pick: a larger room must never take fewer bytes of plane buffers");

/// The error of a pick where no shape fits.
[[noreturn]] inline void stencil3d_zs_pick_error(std::size_t level0, std::size_t need) {
  throw LaunchError("scratchkit::stencil_3d_7pt: z_streaming has no shape that fits the launch: " +
                    std::to_string(need) + " bytes of plane buffers needed, " + std::to_string(level0) +
                    " bytes of level 0 per block available");
}

/// The z_streaming shape of T for rows of nx points on CUDA with `level0` bytes of room for a block's
/// plane buffers (the layer: detail::level0_room of the wide rings' launch path; the native twin: the
/// device's opt-in shared memory per block): the wide ring on rows of one wide tile and more
/// (stencil3d_zs_wide) where it fits, else the default shape. Throws LaunchError where that does not fit.
/// The rows' count and the planes do not change the choice.
template <class T>
constexpr Stencil3DPick stencil3d_zs_pick(int nx, std::size_t level0) {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value, "stencil3d_zs_pick: float or double");
  if (stencil3d_zs_wide<T>(nx) && stencil3d_zs_bytes<T>(Stencil3DZsKind::wide) <= level0)
    return Stencil3DPick{Stencil3DZsKind::wide};
  if (stencil3d_zs_bytes<T>(Stencil3DZsKind::standard) > level0)
    stencil3d_zs_pick_error(level0, stencil3d_zs_bytes<T>(Stencil3DZsKind::standard));
  return Stencil3DPick{Stencil3DZsKind::standard};
}

}  // namespace detail
}  // namespace scratchkit
