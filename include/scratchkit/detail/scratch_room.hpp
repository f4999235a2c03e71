// SPDX-License-Identifier: BSD-3-Clause
/// Level-0 room: the shared-memory bytes a block's own arrays may take, as the pick functions read it.
#pragma once

#include <cstddef>

namespace scratchkit {
namespace detail {

/// The granule and the slack of a layer launch's level-0 request (detail::scratch_request, base_alignment):
/// its static arrays rounded up to 128 bytes, plus 128 bytes of slack.
constexpr std::size_t scratch_room_granule = 128;

/// Bytes a block's shared arrays may take under a level-0 limit `level0` as LaunchPlan::level0_max counts it
/// (the request: the arrays rounded up to the granule, plus the granule): `bytes <= level0_room(level0)`
/// exactly when that request fits.
constexpr std::size_t level0_room(std::size_t level0) {
  return level0 > scratch_room_granule ? (level0 - scratch_room_granule) / scratch_room_granule * scratch_room_granule
                                       : 0;
}

/// `bytes` rounded up to the granule: what a block's arrays of `bytes` take of an SM's shared memory on the layer.
constexpr std::size_t scratch_room_rounded(std::size_t bytes) {
  return (bytes + scratch_room_granule - 1) / scratch_room_granule * scratch_room_granule;
}

}  // namespace detail
}  // namespace scratchkit
