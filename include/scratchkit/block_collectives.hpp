// SPDX-License-Identifier: BSD-3-Clause
/// Block collectives on the layer: reduce, scan, and the striped <-> blocked exchange of a tile.
///
/// Each collective is a type that owns its static scratch, as CUB's
/// TempStorage: its size is a compile-time constant (`shmem_size()`), so the
/// launch is sized from the types (`LaunchParams::uses<BlockScan<float, 256>>()`)
/// and the kernel constructs it from the block in the same order. Calls are
/// made from the kernel body, like sync_threads: every thread takes part.
/// Values a thread keeps across the collective's barriers live in PerThread
/// (one value a thread) or PerThread<Items<T, N>> (N consecutive items a
/// thread, CUB's blocked arrangement). A block may have fewer threads than
/// the type's MaxThreads, and any number of them (the last warp may be
/// partial). Reusing one collective's scratch for a second call needs a
/// sync_threads between the two (a sync_warp for warp_transpose exchanges), as
/// in CUB.
///
/// Host backends run the same operations in the same order as a GPU (the warp
/// scans' Kogge-Stone rounds, the warp reductions' shuffle tree, the folds of
/// the warps' totals), so every result, floats included, has the same bits
/// on every backend and in the native CUDA twins (src/cuda/collectives.cu).
/// One exception, with the same bits: on one member per block
/// (detail::host_direct) an integer scan of items, and an integer block
/// reduction under the library's sum (detail::integer_fold_ok), are one pass
/// in element order (integer operators do not round, so the bracketing
/// changes nothing).
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/warp.hpp>

#include <cstddef>
#include <type_traits>

namespace scratchkit {

/// N values of T held by one thread: its items (CUB's `T items[ITEMS_PER_THREAD]`).
/// Kept across barriers as `PerThread<Items<T, N>, Block, MaxThreads>`
/// (registers on a GPU when every index is a compile-time constant).
/// \code
/// scratchkit::PerThread<scratchkit::Items<int, 4>, Block, 256> items(b);
/// b.threads([&](const Thread& t) { for (int i = 0; i < 4; ++i) items(t)[i] = x(4 * t.rank + i); });
/// \endcode
template <class T, int N>
struct Items {
  static_assert(N > 0, "Items: N must be positive");
  static constexpr int size = N;
  T v[N];
  KOKKOS_INLINE_FUNCTION T& operator[](int i) { return v[i]; }
  KOKKOS_INLINE_FUNCTION const T& operator[](int i) const { return v[i]; }
};

namespace detail {

/// Checks, inside the kernel, that the block fits the collective's MaxThreads.
template <int MaxThreads, class BlockT>
KOKKOS_INLINE_FUNCTION void require_block_within(const BlockT& b) {
  SCRATCHKIT_REQUIRE(b.num_threads() <= MaxThreads,
                     "scratchkit: a block collective (BlockReduce, BlockScan, BlockExchange) in a block of more "
                     "threads than its MaxThreads");
}

/// Operators a block reduction on integers may fold in rank order instead of
/// the tree: commutative ones (the library's sums specialise it); any other
/// operator keeps the tree's order, which the model tests pin.
template <class Op>
struct integer_fold_ok : std::false_type {};

/// op over s[0 .. count), left to right (count >= 1): the warps' totals folded
/// in rank order. MaxCount bounds count at compile time, so GPU compilers
/// unroll the loop into predicated steps.
template <int MaxCount, class T, class S, class Op>
KOKKOS_INLINE_FUNCTION T fold_slots(const S& s, int count, const Op& op) {
  T acc = s[0];
  SCRATCHKIT_UNROLL
  for (int w = 1; w < MaxCount; ++w)
    if (w < count) acc = op(acc, static_cast<T>(s[w]));
  return acc;
}

/// v(t) = op over v of ranks 0 .. t.rank - 1 (rank 0: unspecified), through
/// the warp scan, one slot per warp in s and one barrier: warp w > 0 starts
/// from the fold of the totals of warps 0 .. w - 1, lane l > 0 adds the
/// inclusive scan of its warp's lanes 0 .. l - 1 on the right.
template <int MaxWarps, class T, class BlockT, int M, class S, class Op>
KOKKOS_INLINE_FUNCTION void block_exclusive_prefix(const BlockT& b, PerThread<T, BlockT, M>& v, const S& s,
                                                   const Op& op) {
  const int W = b.warp_size();
  if constexpr (!BlockT::is_gpu) if (host_direct(b)) {  // nothing of it in a GPU pass
    // The steps below, warp after warp: each warp's scan, its total, the shift
    // by one lane, and its prefix, the fold of the earlier totals (kept running:
    // the same left-to-right fold fold_slots repeats for each warp).
    T* x = v.impl_data();
    const int n = b.num_threads();
    T wp{}, total{};
    for (int base = 0; base < n; base += W) {
      const int width = n - base < W ? n - base : W;
      host_warp_scan_lanes(x + base, width, op);
      const T last = x[base + width - 1];
      for (int lane = width - 1; lane > 0; --lane) x[base + lane] = x[base + lane - 1];
      if (base > 0) {
        wp = base == W ? total : op(wp, total);
        x[base] = wp;
        for (int lane = 1; lane < width; ++lane) x[base + lane] = op(wp, x[base + lane]);
      }
      total = last;
    }
    return;
  }
  warp_inclusive_scan(b, v, op);
  b.threads([&](const Thread& t) {
    const WarpOf w = warp_of(b, t);
    if (w.lane == w.width - 1) s[t.rank / W] = v(t);
  });
  warp_shuffle(b, v, [](int lane) { return lane > 0 ? lane - 1 : 0; });
  sync_threads(b);
  b.threads([&](const Thread& t) {
    const int warp = t.rank / W, lane = t.rank % W;
    if (warp > 0) {
      const T wp = fold_slots<MaxWarps, T>(s, warp, op);
      v(t)       = lane == 0 ? wp : op(wp, v(t));
    }
  });
}

/// op over a thread's N items, left to right.
template <class T, int N, class Op>
KOKKOS_INLINE_FUNCTION T fold_items(const Items<T, N>& x, const Op& op) {
  T acc = x[0];
  SCRATCHKIT_UNROLL
  for (int i = 1; i < N; ++i) acc = op(acc, x[i]);
  return acc;
}

/// The scratch of BlockReduce and BlockScan: one T per warp of a block of
/// up to MaxThreads threads, sized at compile time for the smallest warp any
/// backend runs (32 lanes), so one type fits every backend and host warp size.
template <class T, int MaxThreads>
class WarpSlots {
 public:
  static_assert(MaxThreads >= 1 && MaxThreads <= 1024, "BlockReduce, BlockScan: MaxThreads from 1 to 1024");
  static constexpr int max_warps = (MaxThreads + 31) / 32;
  using storage_type             = SharedArray<T, max_warps>;

  /// Scratch bytes and alignment (LaunchParams::uses<BlockScan<...>>()).
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size() { return storage_type::shmem_size(); }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_align() { return storage_type::shmem_align(); }

 protected:
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit WarpSlots(const BlockT& b) : m_s(b) {
    require_block_within<MaxThreads>(b);
  }
  storage_type m_s;
};

}  // namespace detail

/// Reduction over a block with an associative and commutative operator
/// (warp_reduce's shuffle tree pairs lane l with lane l + W/2 first): a
/// warp_reduce per warp, one slot per warp in scratch, one barrier, then the
/// warps' totals folded in rank order.
/// \code
/// using Reduce = scratchkit::BlockReduce<float, 256>;
/// auto p = scratchkit::LaunchParams(grid, 256).uses<Reduce>();
/// ... KOKKOS_LAMBDA(const Block& b) {
///   Reduce red(b);
///   scratchkit::PerThread<float, Block, 256> v(b);
///   b.threads([&](const Thread& t) { v(t) = x(b.block_rank() * 256 + t.rank); });
///   red.reduce(b, v, [](float a, float c) { return a + c; });
///   b.once([&] { /* v of thread 0 */ });
/// }
/// \endcode
template <class T, int MaxThreads>
class BlockReduce : public detail::WarpSlots<T, MaxThreads> {
  using base_type = detail::WarpSlots<T, MaxThreads>;
  using base_type::m_s;

 public:
  using base_type::max_warps;
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit BlockReduce(const BlockT& b) : base_type(b) {}

  /// op over v of every thread, in rank order of the tree, into v of thread 0
  /// (other threads keep partial values).
  template <class BlockT, int M, class Op>
  KOKKOS_INLINE_FUNCTION void reduce(const BlockT& b, PerThread<T, BlockT, M>& v, const Op& op) const {
    reduce_to(b, v, op, false);
  }
  /// The same result in v of every thread (each thread folds the warps' totals: no second barrier).
  template <class BlockT, int M, class Op>
  KOKKOS_INLINE_FUNCTION void all_reduce(const BlockT& b, PerThread<T, BlockT, M>& v, const Op& op) const {
    reduce_to(b, v, op, true);
  }
  /// Each thread's N items folded left to right into v, then reduce (to thread 0) or all_reduce.
  template <class BlockT, int M, int N, class Op>
  KOKKOS_INLINE_FUNCTION void reduce(const BlockT& b, const PerThread<Items<T, N>, BlockT, M>& items,
                                     PerThread<T, BlockT, M>& v, const Op& op, bool to_all = false) const {
    b.threads([&](const Thread& t) { v(t) = detail::fold_items(items(t), op); });
    reduce_to(b, v, op, to_all);
  }

 private:
  template <class BlockT, int M, class Op>
  KOKKOS_INLINE_FUNCTION void reduce_to(const BlockT& b, PerThread<T, BlockT, M>& v, const Op& op,
                                        bool to_all) const {
    const int W = b.warp_size();
    if constexpr (!BlockT::is_gpu) if (detail::host_direct(b)) {  // nothing of it in a GPU pass
      // Each warp's tree, then its total folded in rank order (detail::host_direct);
      // integers under a commutative operator: one fold in rank order (no rounding:
      // the tree's bracketing and order change no bit).
      T* x        = v.impl_data();
      const int n = b.num_threads();
      T acc{};
      if constexpr (std::is_integral<T>::value && detail::integer_fold_ok<Op>::value) {
        acc = x[0];
        for (int r = 1; r < n; ++r) acc = op(acc, x[r]);
      } else {
        for (int base = 0; base < n; base += W) {
          detail::host_warp_reduce_lanes(x + base, W, n - base < W ? n - base : W, op);
          acc = base == 0 ? x[0] : op(acc, x[base]);
        }
      }
      if (to_all)
        for (int r = 0; r < n; ++r) x[r] = acc;
      else
        x[0] = acc;
      return;
    }
    warp_reduce(b, v, op);
    b.threads([&](const Thread& t) {
      if (t.rank % W == 0) m_s[t.rank / W] = v(t);
    });
    sync_threads(b);
    const int warps = (b.num_threads() + W - 1) / W;
    b.threads([&](const Thread& t) {
      if (to_all || t.rank == 0) v(t) = detail::fold_slots<max_warps, T>(m_s, warps, op);
    });
  }
};

/// Inclusive and exclusive scans over a block, in rank order (blocked items:
/// thread r's items follow thread r - 1's), with any associative operator:
/// warp scans, one slot per warp in scratch, one barrier; warp w starts from
/// the fold of warps 0 .. w - 1's totals. With items, each thread first folds
/// its items, the block scans those totals, and each thread scans its items
/// from its prefix.
/// \code
/// using Scan = scratchkit::BlockScan<int, 256>;
/// auto p = scratchkit::LaunchParams(grid, 256).uses<Scan>();
/// ... KOKKOS_LAMBDA(const Block& b) {
///   Scan scan(b);
///   scratchkit::PerThread<scratchkit::Items<int, 4>, Block, 256> items(b);
///   ...  // items(t)[i] = element 4 * t.rank + i of the block's tile
///   scan.exclusive_scan(b, items, 0, [](int a, int c) { return a + c; });  // offsets
/// }
/// \endcode
template <class T, int MaxThreads>
class BlockScan : public detail::WarpSlots<T, MaxThreads> {
  using base_type = detail::WarpSlots<T, MaxThreads>;
  using base_type::m_s;

 public:
  using base_type::max_warps;
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit BlockScan(const BlockT& b) : base_type(b) {}

  /// v(t) = op over v of ranks 0 .. t.rank.
  template <class BlockT, int M, class Op>
  KOKKOS_INLINE_FUNCTION void inclusive_scan(const BlockT& b, PerThread<T, BlockT, M>& v, const Op& op) const {
    const int W = b.warp_size();
    if constexpr (!BlockT::is_gpu) if (detail::host_direct(b)) {  // nothing of it in a GPU pass
      // Each warp's scan, then its lanes joined to the fold of the earlier warps' totals.
      T* x        = v.impl_data();
      const int n = b.num_threads();
      T wp{}, total{};
      for (int base = 0; base < n; base += W) {
        const int width = n - base < W ? n - base : W;
        detail::host_warp_scan_lanes(x + base, width, op);
        const T last = x[base + width - 1];
        if (base > 0) {
          wp = base == W ? total : op(wp, total);
          for (int lane = 0; lane < width; ++lane) x[base + lane] = op(wp, x[base + lane]);
        }
        total = last;
      }
      return;
    }
    warp_inclusive_scan(b, v, op);
    b.threads([&](const Thread& t) {
      const detail::WarpOf w = detail::warp_of(b, t);
      if (w.lane == w.width - 1) m_s[t.rank / W] = v(t);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int warp = t.rank / W;
      if (warp > 0) v(t) = op(detail::fold_slots<max_warps, T>(m_s, warp, op), v(t));
    });
  }
  /// v(t) = op(init, op over v of ranks 0 .. t.rank - 1); thread 0: init.
  template <class BlockT, int M, class Op>
  KOKKOS_INLINE_FUNCTION void exclusive_scan(const BlockT& b, PerThread<T, BlockT, M>& v, const T& init,
                                             const Op& op) const {
    detail::block_exclusive_prefix<max_warps>(b, v, m_s, op);
    b.threads([&](const Thread& t) { v(t) = t.rank == 0 ? init : op(init, v(t)); });
  }
  /// Items in the blocked arrangement: item i of thread r is element r*N + i;
  /// each becomes op over elements 0 .. r*N + i.
  template <class BlockT, int M, int N, class Op>
  KOKKOS_INLINE_FUNCTION void inclusive_scan(const BlockT& b, PerThread<Items<T, N>, BlockT, M>& items,
                                             const Op& op) const {
    if constexpr (!BlockT::is_gpu && std::is_integral<T>::value) if (detail::host_direct(b)) {
      // Integers: one pass over the tile in element order. Any bracketing of an
      // associative operator on integers gives the same bits (no rounding), and
      // the earlier elements stay the left operand.
      Items<T, N>* it = items.impl_data();
      const int n     = b.num_threads();
      T acc           = it[0][0];
      for (int r = 0; r < n; ++r)
        for (int i = (r == 0 ? 1 : 0); i < N; ++i) {
          acc      = op(acc, it[r][i]);
          it[r][i] = acc;
        }
      return;
    }
    PerThread<T, BlockT, M> p(b);
    thread_totals(b, items, p, op);
    detail::block_exclusive_prefix<max_warps>(b, p, m_s, op);
    b.threads([&](const Thread& t) {
      Items<T, N>& x = items(t);
      T acc          = t.rank == 0 ? x[0] : op(p(t), x[0]);
      x[0]           = acc;
      SCRATCHKIT_UNROLL
      for (int i = 1; i < N; ++i) {
        acc  = op(acc, x[i]);
        x[i] = acc;
      }
    });
  }
  /// Items in the blocked arrangement; element k becomes op(init, op over
  /// elements 0 .. k - 1), element 0 init.
  template <class BlockT, int M, int N, class Op>
  KOKKOS_INLINE_FUNCTION void exclusive_scan(const BlockT& b, PerThread<Items<T, N>, BlockT, M>& items,
                                             const T& init, const Op& op) const {
    if constexpr (!BlockT::is_gpu && std::is_integral<T>::value) if (detail::host_direct(b)) {
      // Integers: one pass in element order, as inclusive_scan.
      Items<T, N>* it = items.impl_data();
      const int n     = b.num_threads();
      T acc           = init;
      for (int r = 0; r < n; ++r)
        for (int i = 0; i < N; ++i) {
          const T x = it[r][i];
          it[r][i]  = acc;
          acc       = op(acc, x);
        }
      return;
    }
    PerThread<T, BlockT, M> p(b);
    thread_totals(b, items, p, op);
    detail::block_exclusive_prefix<max_warps>(b, p, m_s, op);
    b.threads([&](const Thread& t) {
      Items<T, N>& x = items(t);
      T acc          = t.rank == 0 ? init : op(init, p(t));
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) {
        const T xi = x[i];
        x[i]       = acc;
        acc        = op(acc, xi);
      }
    });
  }

 private:
  template <class BlockT, int M, int N, class Op>
  KOKKOS_INLINE_FUNCTION static void thread_totals(const BlockT& b, const PerThread<Items<T, N>, BlockT, M>& items,
                                                   PerThread<T, BlockT, M>& p, const Op& op) {
    b.threads([&](const Thread& t) { p(t) = detail::fold_items(items(t), op); });
  }
};

/// Moves a tile of MaxThreads x N items (or of the block's threads x N)
/// between the striped arrangement (coalesced in global memory) and the
/// blocked one (thread r holds elements r*N .. r*N + N - 1) through scratch,
/// as CUB's BlockLoad/BlockStore/BlockExchange:
/// - ExchangeVariant::warp_transpose: warp w (of W = b.warp_size() lanes)
///   owns the segment of its lanes' items, [W*N*w, W*N*w + width*N); striped
///   within it, item i of lane l is element i*width + l of the segment; only
///   sync_warp between the halves.
/// - ExchangeVariant::transpose: striped over the whole block, item i of
///   thread r is element i*threads + r; sync_threads between the halves.
/// The scratch holds the tile with one padding slot after every 32 elements,
/// so that the blocked side's accesses (stride N) fall in different banks
/// (32 banks of 4 bytes on NVIDIA shared memory and on AMD CDNA LDS alike).
/// \code
/// using Ex = scratchkit::BlockExchange<float, 256, 4>;  // warp_transpose
/// auto p = scratchkit::LaunchParams(tiles, 256).uses<Ex>();
/// ... KOKKOS_LAMBDA(const Block& b) {
///   Ex ex(b);
///   scratchkit::PerThread<scratchkit::Items<float, 4>, Block, 256> items(b);
///   const std::size_t base = std::size_t(b.block_rank()) * 1024;
///   const int valid = n - base < 1024 ? int(n - base) : 1024;
///   ex.load(b, items, in, base, valid, 0.0f);   // items(t)[i] = in(base + 4*t.rank + i)
///   ...
///   ex.store(b, items, out, base, valid);
/// }
/// \endcode
template <class T, int MaxThreads, int N, ExchangeVariant V = ExchangeVariant::warp_transpose>
class BlockExchange {
 public:
  static_assert(MaxThreads >= 1 && MaxThreads <= 1024, "BlockExchange: MaxThreads from 1 to 1024");
  static_assert(N >= 1, "BlockExchange: N must be positive");
  static constexpr int tile_items = MaxThreads * N;
  using storage_type              = SharedArray<T, static_cast<std::size_t>(tile_items + tile_items / 32)>;

  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_size() { return storage_type::shmem_size(); }
  KOKKOS_INLINE_FUNCTION static constexpr std::size_t shmem_align() { return storage_type::shmem_align(); }
  /// The slot of tile element i: one padding slot after every 32.
  KOKKOS_INLINE_FUNCTION static constexpr int slot(int i) { return i + (i >> 5); }

  template <class BlockT>
  KOKKOS_INLINE_FUNCTION explicit BlockExchange(const BlockT& b) : m_s(b) {
    detail::require_block_within<MaxThreads>(b);
  }

  /// The tile element item i of thread t holds in the striped arrangement.
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION static int striped_index(const BlockT& b, const Thread& t, int i) {
    if constexpr (V == ExchangeVariant::transpose) {
      return i * b.num_threads() + t.rank;
    } else {
      const detail::WarpOf w = detail::warp_of(b, t);
      return w.base * N + i * w.width + w.lane;
    }
  }

  /// Striped items -> blocked items.
  template <class BlockT, int M>
  KOKKOS_INLINE_FUNCTION void striped_to_blocked(const BlockT& b, PerThread<Items<T, N>, BlockT, M>& items) const {
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) m_s[slot(striped_index(b, t, i))] = items(t)[i];
    });
    half_barrier(b);
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) items(t)[i] = m_s[slot(t.rank * N + i)];
    });
  }
  /// Blocked items -> striped items.
  template <class BlockT, int M>
  KOKKOS_INLINE_FUNCTION void blocked_to_striped(const BlockT& b, PerThread<Items<T, N>, BlockT, M>& items) const {
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) m_s[slot(t.rank * N + i)] = items(t)[i];
    });
    half_barrier(b);
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) items(t)[i] = m_s[slot(striped_index(b, t, i))];
    });
  }

  /// Loads elements base + j, j < valid, of src (a View or anything with
  /// operator()(index)) striped (coalesced), `fill` for j >= valid, and
  /// leaves them blocked: items(t)[i] = element base + t.rank*N + i.
  template <class BlockT, int M, class Src>
  KOKKOS_INLINE_FUNCTION void load(const BlockT& b, PerThread<Items<T, N>, BlockT, M>& items, const Src& src,
                                   std::size_t base, int valid, const T& fill) const {
    if constexpr (!BlockT::is_gpu) if (detail::host_direct(b)) {  // nothing of it in a GPU pass
      // Blocked items straight from src (CUB's direct load): the exchange
      // through scratch only serves a GPU's coalescing (detail::host_direct).
      Items<T, N>* it = items.impl_data();
      const int n     = b.num_threads();
      if (valid >= n * N) {  // a whole tile: no per-item test
        for (int r = 0; r < n; ++r) {
          SCRATCHKIT_UNROLL
          for (int i = 0; i < N; ++i) it[r][i] = static_cast<T>(src(base + static_cast<std::size_t>(r * N + i)));
        }
        return;
      }
      for (int r = 0; r < n; ++r) {
        SCRATCHKIT_UNROLL
        for (int i = 0; i < N; ++i) {
          const int j = r * N + i;
          it[r][i]    = j < valid ? static_cast<T>(src(base + static_cast<std::size_t>(j))) : fill;
        }
      }
      return;
    }
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) {
        const int j = striped_index(b, t, i);
        m_s[slot(j)] = j < valid ? static_cast<T>(src(base + static_cast<std::size_t>(j))) : fill;
      }
    });
    half_barrier(b);
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) items(t)[i] = m_s[slot(t.rank * N + i)];
    });
  }
  /// Stores blocked items to dst(base + j) for j < valid, striped (coalesced).
  template <class BlockT, int M, class Dst>
  KOKKOS_INLINE_FUNCTION void store(const BlockT& b, const PerThread<Items<T, N>, BlockT, M>& items, const Dst& dst,
                                    std::size_t base, int valid) const {
    if constexpr (!BlockT::is_gpu) if (detail::host_direct(b)) {  // nothing of it in a GPU pass
      const Items<T, N>* it = items.impl_data();
      const int n           = b.num_threads();
      if (valid >= n * N) {
        for (int r = 0; r < n; ++r) {
          SCRATCHKIT_UNROLL
          for (int i = 0; i < N; ++i) dst(base + static_cast<std::size_t>(r * N + i)) = it[r][i];
        }
        return;
      }
      for (int r = 0; r < n; ++r) {
        SCRATCHKIT_UNROLL
        for (int i = 0; i < N; ++i) {
          const int j = r * N + i;
          if (j < valid) dst(base + static_cast<std::size_t>(j)) = it[r][i];
        }
      }
      return;
    }
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) m_s[slot(t.rank * N + i)] = items(t)[i];
    });
    half_barrier(b);
    b.threads([&](const Thread& t) {
      SCRATCHKIT_UNROLL
      for (int i = 0; i < N; ++i) {
        const int j = striped_index(b, t, i);
        if (j < valid) dst(base + static_cast<std::size_t>(j)) = m_s[slot(j)];
      }
    });
  }

 private:
  template <class BlockT>
  KOKKOS_INLINE_FUNCTION static void half_barrier(const BlockT& b) {
    if constexpr (V == ExchangeVariant::transpose) {
      sync_threads(b);
    } else {
      sync_warp(b);
    }
  }

  storage_type m_s;
};

}  // namespace scratchkit
