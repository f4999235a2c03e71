// SPDX-License-Identifier: BSD-3-Clause
/// Tile kernels of the block collectives on the layer (native twin: src/cuda/collectives.cu).
#pragma once

#include <scratchkit/detail/collectives/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// Scans (sums) each tile of threads*items consecutive elements of in into
/// out, inclusive or exclusive (from 0), on its own; out has in's extent.
/// Shapes: 256 x 4, 256 x 8, 80 x 3 (UnsupportedError otherwise). Integers
/// exact; floats in the order of BlockScan (the same bits on every backend
/// and in the native twin). Asynchronous.
/// \code
/// scratchkit::tile_scan(exec, scratchkit::ScanKind::inclusive, in, out, 256, 8);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void tile_scan(const ExecSpace& exec, ScanKind kind, const InView& in, const OutView& out, int threads, int items,
               Backend backend = Backend::layer) {
  detail::require_tile_views(in, out, in.extent(0), "tile_scan");
  if (kind != ScanKind::inclusive && kind != ScanKind::exclusive)
    throw UnsupportedError("scratchkit::tile_scan: unknown scan kind");
  detail::with_tile_shape(threads, items, "tile_scan", [](auto, auto) {});
  detail::map_layouts("tile_scan", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::tile_scan_run(exec, kind, detail::const_view(i), o, threads, items, backend);
  }, in, out);
}

/// out(k) = the sum of tile k of in (threads*items elements; the last tile
/// may be partial); out has ceil(n / (threads*items)) elements. Asynchronous.
/// \code
/// Kokkos::View<float*> sums("sums", (n + 1023) / 1024);
/// scratchkit::tile_reduce(exec, in, sums, 256, 4);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void tile_reduce(const ExecSpace& exec, const InView& in, const OutView& out, int threads, int items,
                 Backend backend = Backend::layer) {
  long long tile = 0;
  detail::with_tile_shape(threads, items, "tile_reduce", [&](auto bs, auto it) {
    tile = decltype(bs)::value * decltype(it)::value;
  });
  detail::require_tile_views(in, out, static_cast<std::size_t>(detail::tile_count(in.extent(0), tile)),
                             "tile_reduce");
  detail::map_layouts("tile_reduce", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::tile_reduce_run(exec, detail::const_view(i), o, threads, items, backend);
  }, in, out);
}

/// Inclusive sum over each warp of blocks of `threads` threads (256, or 80:
/// warps of 32, 32 and 16 lanes; of 64 and 16 where warp_size<ExecSpace>()
/// is 64, as on AMD GPUs), one element a lane: out has in's extent.
/// Asynchronous.
/// \code
/// scratchkit::tile_warp_scan(exec, in, out, 256);  // each run of warp_size<ExecSpace>() elements scanned
/// \endcode
template <class ExecSpace, class InView, class OutView>
void tile_warp_scan(const ExecSpace& exec, const InView& in, const OutView& out, int threads,
                    Backend backend = Backend::layer) {
  detail::require_tile_views(in, out, in.extent(0), "tile_warp_scan");
  detail::with_warp_block(threads, "tile_warp_scan", [](auto) {});
  detail::map_layouts("tile_warp_scan", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::tile_warp_scan_run(exec, detail::const_view(i), o, threads, backend);
  }, in, out);
}

/// out = in through BlockExchange's load (striped -> blocked) and store
/// (blocked -> striped) of variant v, tile by tile: the round trip of
/// BlockLoad/BlockStore (int32 or double: 4- and 8-byte elements). Asynchronous.
/// \code
/// scratchkit::tile_exchange(exec, scratchkit::ExchangeVariant::transpose, in, out, 256, 4);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void tile_exchange(const ExecSpace& exec, ExchangeVariant v, const InView& in, const OutView& out, int threads,
                   int items, Backend backend = Backend::layer) {
  using T = typename OutView::non_const_value_type;
  static_assert(!std::is_same<T, float>::value, "scratchkit::tile_exchange: int32 or double");
  detail::require_tile_views(in, out, in.extent(0), "tile_exchange");
  if (v != ExchangeVariant::warp_transpose && v != ExchangeVariant::transpose)
    throw UnsupportedError("scratchkit::tile_exchange: unknown exchange variant");
  detail::with_tile_shape(threads, items, "tile_exchange", [](auto, auto) {});
  detail::map_layouts("tile_exchange", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::tile_exchange_run(exec, v, detail::const_view(i), o, threads, items, backend);
  }, in, out);
}

}  // namespace scratchkit
