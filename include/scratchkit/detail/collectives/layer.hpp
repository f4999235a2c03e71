// SPDX-License-Identifier: BSD-3-Clause
/// collectives: the layer implementation behind kernels/collectives.hpp (the public calls and contracts are there).
///
/// Small kernels that run one collective over a whole array in tiles, so
/// that the layer's collectives (block_collectives.hpp, warp.hpp) can be
/// cross-checked against their native CUDA twins and benchmarked against
/// CUB and Kokkos' team_scan / team_reduce. Every kernel sums (int32, float,
/// double); a tile is `threads` x `items` consecutive elements (shapes:
/// detail::with_tile_shape), the last one may be partial. Both twins launch
/// alike: one block per tile, blocks of `threads`; launch bounds <threads, 1>, on the layer with
/// more blocks per SM for the 256 x 4 shapes (detail::TileBounds says why).
/// - tile_scan: BlockExchange<warp_transpose>::load, BlockScan (items), store.
/// - tile_reduce: items loaded striped (element i*threads + r of the tile to
///   thread r), folded, BlockReduce; out[k] per tile.
/// - tile_warp_scan: one element a thread, warp_inclusive_scan per warp (its
///   result depends on the warp size: 32 lanes on NVIDIA, 64 on AMD CDNA).
/// - tile_exchange: BlockExchange load + store of the variant: out = in.
/// All are asynchronous: fence exec before reading out. Inputs are read
/// through the read-only path (read_only(), the native twin's __ldg): in and
/// out must not overlap.
///
/// One tile per team except the warp scan, which runs 8 per team
/// (LaunchBounds' TeamLoop; detail::tile_launch says why).
#pragma once

#include <scratchkit/block_collectives.hpp>
#include <scratchkit/detail/collectives/tile_shape.hpp>
#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/collectives.hpp>

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Launch bounds of the tile kernels (native: __launch_bounds__(BS, 1)). MinB:
/// the blocks per SM the native twin gets from its own register count, asked
/// of the layer's body where the layer's count would give fewer (register
/// counts: docs/performance.md, "Tile kernels"). They apply
/// where the GPU the Kokkos build targets runs 2048 threads per SM (Pascal
/// 60, Volta, Ampere 80, Hopper):
/// elsewhere (1536 on sm_86/89, 1024 on sm_75) Kokkos refuses a block whose
/// launch bounds ask for more blocks per SM than fit, so MinB is 1 there.
#if defined(KOKKOS_ARCH_HOPPER90) || defined(KOKKOS_ARCH_AMPERE80) || defined(KOKKOS_ARCH_VOLTA70) || \
    defined(KOKKOS_ARCH_VOLTA72) || defined(KOKKOS_ARCH_PASCAL60)
constexpr bool tile_sm_2048 = true;
#else
constexpr bool tile_sm_2048 = false;
#endif
/// MinB for a 256 x 4 tile kernel asking for `blocks` per SM (1 elsewhere).
template <int BS, int I>
constexpr int tile_min_blocks(int blocks) {
  return tile_sm_2048 && BS == 256 && I == 4 ? blocks : 1;
}
template <int BS, int MinB = 1>
using TileBounds = LaunchBounds<BS, MinB>;
/// The same with LaunchBounds' TeamLoop (several tiles per Kokkos team).
template <int BS, int MinB = 1>
using TileLoopBounds = TeamLoopBounds<BS, MinB>;

/// Tiles one Kokkos team runs (LaunchBounds' TeamLoop); 0: one tile per team,
/// without the team loop. The loop saves Kokkos' per-team start, but nvcc
/// holds more of the body's values in registers across it, which only the
/// warp scan (few registers, no scratch) repays (docs/performance.md, "Tile kernels").
/// `k` is the kernel's value; a tuning hook may replace it (tuning::Kernel::tile, 0 included).
/// The hook is asked here, once: its answer picks the bounds and goes on to the launch.
template <int BS, int MinB, class ExecSpace, class F>
void tile_launch(const ExecSpace& exec, const char* label, LaunchParams p, int k, bool block_barrier,
                 const F& body) {
  using Loop             = TileLoopBounds<BS, MinB>;
  tuning::LaunchTuning t = ask_tuning_hook([&] {
    constexpr bool driver = block_driver_launch<ExecSpace, Loop>;
    return tuning_request<ExecSpace>(label, tuning::Kernel::tile, LaunchParams(p).alternate_scratch(k > 0 && block_barrier),
                                     !driver, driver, k);
  });
  const int tiles = t.blocks_per_team.value_or(k);
  if (tiles < 0)
    throw LaunchError(std::string("scratchkit: cannot launch kernel '") + label + "': the tuning hook's blocks_per_team " +
                      std::to_string(tiles) + " is not >= 0");
  t.blocks_per_team.reset();  // taken here: the launch's own value is `tiles`
  if (tiles == 0)
    launch_tuned<TileBounds<BS, MinB>, ScratchFallback::none>(exec, label, p, body, t);
  else
    launch_tuned<Loop, ScratchFallback::none>(exec, label, p.blocks_per_team(tiles).alternate_scratch(block_barrier), body, t);
}

/// in(i) through the read-only path, as the native twin's __ldg loads.
template <class View>
struct ReadOnlySource {
  View v;
  KOKKOS_INLINE_FUNCTION typename View::non_const_value_type operator()(std::size_t i) const {
    return read_only(v, i);
  }
};

/// The sum every tile kernel computes (the native twins' `a + b`).
struct TileSum {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
/// A sum: integer block reductions may fold it in rank order on the host.
template <>
struct integer_fold_ok<TileSum> : std::true_type {};

template <class InView, class OutView>
void require_tile_views(const InView& in, const OutView& out, std::size_t out_extent, const char* kernel) {
  static_assert(InView::rank == 1 && OutView::rank == 1, "scratchkit tile kernels: rank-1 Views");
  using T = typename OutView::non_const_value_type;
  static_assert(std::is_same<typename InView::non_const_value_type, T>::value,
                "scratchkit tile kernels: in and out of the same value type");
  static_assert(std::is_same<T, std::int32_t>::value || std::is_same<T, float>::value ||
                    std::is_same<T, double>::value,
                "scratchkit tile kernels: int32, float or double");
  if (out.extent(0) != out_extent) {
    std::ostringstream os;
    os << "scratchkit::" << kernel << ": out has " << out.extent(0) << " elements, " << out_extent
       << " expected (in has " << in.extent(0) << ")";
    throw ShapeError(os.str());
  }
  if (in.extent(0) > static_cast<std::size_t>(INT32_MAX) * 64) {
    std::ostringstream os;
    os << "scratchkit::" << kernel << ": " << in.extent(0) << " elements: more tiles than a grid holds";
    throw ShapeError(os.str());
  }
}

template <int BS, int I, bool Inclusive, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void tile_scan_layer(const ExecSpace& exec, const InView& in, const OutView& out) {
  using T     = typename OutView::non_const_value_type;
  using B_t   = Block<ExecSpace>;
  using Ex    = BlockExchange<T, BS, I, ExchangeVariant::warp_transpose>;
  using Scan  = BlockScan<T, BS>;
  const std::size_t n = in.extent(0);
  const auto p = LaunchParams(Dim3(static_cast<int>(tile_count(n, BS * I))), Dim3(BS)).uses<Ex, Scan>();
  // BlockScan's barrier is reached by every thread.
  tile_launch<BS, tile_min_blocks<BS, I>(6)>(
      exec, Inclusive ? "scratchkit::tile_scan_inclusive" : "scratchkit::tile_scan_exclusive",
                              p, 0, true, KOKKOS_LAMBDA(const B_t& b) {
                                Ex ex(b);
                                Scan scan(b);
                                PerThread<Items<T, I>, B_t, BS> items(b);
                                const std::size_t base = static_cast<std::size_t>(b.block_rank()) * (BS * I);
                                const int valid = n - base < static_cast<std::size_t>(BS * I)
                                                      ? static_cast<int>(n - base)
                                                      : BS * I;
                                ex.load(b, items, ReadOnlySource<InView>{in}, base, valid, T(0));
                                if constexpr (Inclusive) {
                                  scan.inclusive_scan(b, items, TileSum{});
                                } else {
                                  scan.exclusive_scan(b, items, T(0), TileSum{});
                                }
                                ex.store(b, items, out, base, valid);
                              });
}

template <int BS, int I, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void tile_reduce_layer(const ExecSpace& exec, const InView& in, const OutView& out) {
  using T      = typename OutView::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  using Reduce = BlockReduce<T, BS>;
  const std::size_t n = in.extent(0);
  const auto p = LaunchParams(Dim3(static_cast<int>(tile_count(n, BS * I))), Dim3(BS)).uses<Reduce>();
  // BlockReduce's barrier is reached by every thread.
  tile_launch<BS, tile_min_blocks<BS, I>(8)>(exec, "scratchkit::tile_reduce", p, 0, true,
                                               KOKKOS_LAMBDA(const B_t& b) {
    Reduce red(b);
    PerThread<T, B_t, BS> v(b);
    const std::size_t base = static_cast<std::size_t>(b.block_rank()) * (BS * I);
    const std::size_t valid = n - base < static_cast<std::size_t>(BS * I) ? n - base : BS * I;
    // Host: a whole tile's loads without a test per element (the loop vectorises); the same sums.
    const bool whole = !B_t::is_gpu && valid == static_cast<std::size_t>(BS * I);
    if (whole)
      b.threads([&](const Thread& t) {
        T acc = read_only(in, base + t.rank);
        for (int i = 1; i < I; ++i) acc = acc + read_only(in, base + static_cast<std::size_t>(i) * BS + t.rank);
        v(t) = acc;
      });
    else
      b.threads([&](const Thread& t) {
        // Striped (coalesced), as the native twin: element i*BS + r to thread r, folded in i order.
        T acc = t.rank < static_cast<int>(valid) ? read_only(in, base + t.rank) : T(0);
        SCRATCHKIT_UNROLL
        for (int i = 1; i < I; ++i) {
          const std::size_t j = static_cast<std::size_t>(i) * BS + t.rank;
          acc                 = acc + (j < valid ? read_only(in, base + j) : T(0));
        }
        v(t) = acc;
      });
    red.reduce(b, v, TileSum{});
    b.threads([&](const Thread& t) {
      if (t.rank == 0) out(b.block_rank()) = v(t);
    });
  });
}

template <int BS, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void tile_warp_scan_layer(const ExecSpace& exec, const InView& in, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  const std::size_t n = in.extent(0);
  const auto p = LaunchParams(Dim3(static_cast<int>(tile_count(n, BS))), Dim3(BS));
  // No scratch: the team loop needs no barrier.
  tile_launch<BS, 1>(exec, "scratchkit::tile_warp_scan", p, 8, false, KOKKOS_LAMBDA(const B_t& b) {
    PerThread<T, B_t, BS> v(b);
    const std::size_t base = static_cast<std::size_t>(b.block_rank()) * BS;
    // Host: a whole tile is loaded and stored without a test per element (the loops vectorise).
    const bool whole = !B_t::is_gpu && n - base >= static_cast<std::size_t>(BS);
    if (whole)
      b.threads([&](const Thread& t) { v(t) = read_only(in, base + t.rank); });
    else
      b.threads([&](const Thread& t) {
        const std::size_t i = base + t.rank;
        v(t)                = i < n ? read_only(in, i) : T(0);
      });
    warp_inclusive_scan(b, v, TileSum{});
    if (whole)
      b.threads([&](const Thread& t) { out(base + t.rank) = v(t); });
    else
      b.threads([&](const Thread& t) {
        const std::size_t i = base + t.rank;
        if (i < n) out(i) = v(t);
      });
  });
}

template <int BS, int I, ExchangeVariant V, class ExecSpace, class InView, class OutView>
SCRATCHKIT_KERNEL_LINKAGE
void tile_exchange_layer(const ExecSpace& exec, const InView& in, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  using Ex  = BlockExchange<T, BS, I, V>;
  const std::size_t n = in.extent(0);
  const auto p = LaunchParams(Dim3(static_cast<int>(tile_count(n, BS * I))), Dim3(BS)).uses<Ex>();
  // transpose: a sync_threads in every tile; warp_transpose's warps sync only
  // themselves, so it keeps one copy and the loop's barrier.
  tile_launch<BS, tile_min_blocks<BS, I>(8)>(exec, "scratchkit::tile_exchange", p, 0, V == ExchangeVariant::transpose,
                  KOKKOS_LAMBDA(const B_t& b) {
    Ex ex(b);
    PerThread<Items<T, I>, B_t, BS> items(b);
    const std::size_t base = static_cast<std::size_t>(b.block_rank()) * (BS * I);
    const int valid =
        n - base < static_cast<std::size_t>(BS * I) ? static_cast<int>(n - base) : BS * I;
    ex.load(b, items, ReadOnlySource<InView>{in}, base, valid, T(0));
    // The second half reuses the scratch the first half read: every thread
    // (every lane, for warp_transpose) must be past its reads.
    if constexpr (V == ExchangeVariant::transpose) {
      sync_threads(b);
    } else {
      sync_warp(b);
    }
    ex.store(b, items, out, base, valid);
  });
}

/// The tile kernels' entry points (detail/eti.hpp): the Views mapped by the public calls onto
/// row-major ones, arguments (the shapes too) checked there; the native branch is here, compiled
/// once in the library's units.
template <class ExecSpace, class InView, class OutView>
void tile_scan_run(const ExecSpace& exec, ScanKind kind, const InView& in, const OutView& out, int threads,
                   int items, Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "tile_scan", {"in", "out"}, [&](auto stream) {
      native::cuda::tile_scan(kind, in.data(), out.data(), in.extent(0), threads, items, stream);
    }, in, out);
  with_tile_shape(threads, items, "tile_scan", [&](auto bs, auto it) {
    if (in.extent(0) == 0) return;
    if (kind == ScanKind::inclusive)
      tile_scan_layer<decltype(bs)::value, decltype(it)::value, true>(exec, in, out);
    else
      tile_scan_layer<decltype(bs)::value, decltype(it)::value, false>(exec, in, out);
  });
}
template <class ExecSpace, class InView, class OutView>
void tile_reduce_run(const ExecSpace& exec, const InView& in, const OutView& out, int threads, int items,
                     Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "tile_reduce", {"in", "out"}, [&](auto stream) {
      native::cuda::tile_reduce(in.data(), out.data(), in.extent(0), threads, items, stream);
    }, in, out);
  with_tile_shape(threads, items, "tile_reduce", [&](auto bs, auto it) {
    if (in.extent(0) == 0) return;
    tile_reduce_layer<decltype(bs)::value, decltype(it)::value>(exec, in, out);
  });
}
template <class ExecSpace, class InView, class OutView>
void tile_warp_scan_run(const ExecSpace& exec, const InView& in, const OutView& out, int threads, Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "tile_warp_scan", {"in", "out"}, [&](auto stream) {
      native::cuda::tile_warp_scan(in.data(), out.data(), in.extent(0), threads, stream);
    }, in, out);
  with_warp_block(threads, "tile_warp_scan", [&](auto bs) {
    if (in.extent(0) == 0) return;
    tile_warp_scan_layer<decltype(bs)::value>(exec, in, out);
  });
}
template <class ExecSpace, class InView, class OutView>
void tile_exchange_run(const ExecSpace& exec, ExchangeVariant v, const InView& in, const OutView& out, int threads,
                       int items, Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "tile_exchange", {"in", "out"}, [&](auto stream) {
      native::cuda::tile_exchange(v, in.data(), out.data(), in.extent(0), threads, items, stream);
    }, in, out);
  with_tile_shape(threads, items, "tile_exchange", [&](auto bs, auto it) {
    if (in.extent(0) == 0) return;
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (v == ExchangeVariant::warp_transpose)
      tile_exchange_layer<BS, I, ExchangeVariant::warp_transpose>(exec, in, out);
    else
      tile_exchange_layer<BS, I, ExchangeVariant::transpose>(exec, in, out);
  });
}

}  // namespace detail
}  // namespace scratchkit

/// The tile kernels' entry points for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_TILE_VIEWS(T, L, E) \
  const scratchkit::detail::EtiView<const T, 1, L, E>&, const scratchkit::detail::EtiView<T, 1, L, E>&
#define SCRATCHKIT_ETI_TILE_ARGS(T, L, E) \
  E, scratchkit::detail::EtiView<const T, 1, L, E>, scratchkit::detail::EtiView<T, 1, L, E>
/// The scans and the reduction are instantiated in separate units (cmake/scratchkitEti.cmake), each under a minute.
#define SCRATCHKIT_ETI_TILE_SCAN(PREFIX, E, T, L)                                                                \
  PREFIX template void scratchkit::detail::tile_scan_run<SCRATCHKIT_ETI_TILE_ARGS(T, L, E)>(                    \
      const E&, scratchkit::ScanKind, SCRATCHKIT_ETI_TILE_VIEWS(T, L, E), int, int, scratchkit::Backend);       \
  PREFIX template void scratchkit::detail::tile_warp_scan_run<SCRATCHKIT_ETI_TILE_ARGS(T, L, E)>(               \
      const E&, SCRATCHKIT_ETI_TILE_VIEWS(T, L, E), int, scratchkit::Backend);
#define SCRATCHKIT_ETI_TILE_REDUCE(PREFIX, E, T, L)                                                              \
  PREFIX template void scratchkit::detail::tile_reduce_run<SCRATCHKIT_ETI_TILE_ARGS(T, L, E)>(                  \
      const E&, SCRATCHKIT_ETI_TILE_VIEWS(T, L, E), int, int, scratchkit::Backend);
#define SCRATCHKIT_ETI_TILES(PREFIX, E, T, L) \
  SCRATCHKIT_ETI_TILE_SCAN(PREFIX, E, T, L)   \
  SCRATCHKIT_ETI_TILE_REDUCE(PREFIX, E, T, L)
/// tile_exchange takes int32 and double only.
#define SCRATCHKIT_ETI_TILE_EXCHANGE(PREFIX, E, T, L)                                                            \
  PREFIX template void scratchkit::detail::tile_exchange_run<SCRATCHKIT_ETI_TILE_ARGS(T, L, E)>(                \
      const E&, scratchkit::ExchangeVariant, SCRATCHKIT_ETI_TILE_VIEWS(T, L, E), int, int, scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_TILES_EXTERN(E, T, L) SCRATCHKIT_ETI_TILES(extern, E, T, L)
#define SCRATCHKIT_ETI_TILE_EXCHANGE_EXTERN(E, T, L) SCRATCHKIT_ETI_TILE_EXCHANGE(extern, E, T, L)
#define SCRATCHKIT_ETI_TILES_SPACE(E)                                          \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TILES_EXTERN, E, std::int32_t)         \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TILES_EXTERN, E, float)                \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TILES_EXTERN, E, double)               \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TILE_EXCHANGE_EXTERN, E, std::int32_t) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_TILE_EXCHANGE_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_TILES_SPACE)
#undef SCRATCHKIT_ETI_TILES_SPACE
#undef SCRATCHKIT_ETI_TILE_EXCHANGE_EXTERN
#undef SCRATCHKIT_ETI_TILES_EXTERN
#endif
