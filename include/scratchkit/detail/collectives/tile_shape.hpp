// SPDX-License-Identifier: BSD-3-Clause
/// Tile-kernel code both twins of the block collectives share (internal):
/// the tile shapes they are built for and the dispatch onto them, so that the
/// layer and the native kernels split the data alike.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Calls f(std::integral_constant<int, Threads>, std::integral_constant<int, Items>)
/// for the tile shapes both twins are built for: 256 x 4 and 256 x 8 (the
/// benchmarked ones), and 80 x 3 (a block that is not a whole number of
/// warps, odd items); UnsupportedError for any other.
template <class F>
void with_tile_shape(int threads, int items, const char* kernel, const F& f) {
  using std::integral_constant;
  if (threads == 256 && items == 4) return f(integral_constant<int, 256>{}, integral_constant<int, 4>{});
  if (threads == 256 && items == 8) return f(integral_constant<int, 256>{}, integral_constant<int, 8>{});
  if (threads == 80 && items == 3) return f(integral_constant<int, 80>{}, integral_constant<int, 3>{});
  throw UnsupportedError(std::string("scratchkit::") + kernel + ": tile shape " + std::to_string(threads) +
                         " threads x " + std::to_string(items) +
                         " items is not built (shapes: 256 x 4, 256 x 8, 80 x 3)");
}

/// Calls f(std::integral_constant<int, Threads>) for the blocks of
/// tile_warp_scan: 256 threads, and 80 (a partial last warp of 16 lanes).
template <class F>
void with_warp_block(int threads, const char* kernel, const F& f) {
  if (threads == 256) return f(std::integral_constant<int, 256>{});
  if (threads == 80) return f(std::integral_constant<int, 80>{});
  throw UnsupportedError(std::string("scratchkit::") + kernel + ": blocks of " + std::to_string(threads) +
                         " threads are not built (256, 80)");
}

/// Tiles of `tile` elements covering n (the grid of every tile kernel).
inline long long tile_count(std::size_t n, long long tile) {
  return static_cast<long long>((n + static_cast<std::size_t>(tile) - 1) / static_cast<std::size_t>(tile));
}

}  // namespace detail
}  // namespace scratchkit
