// SPDX-License-Identifier: BSD-3-Clause
/// PerThread: per-logical-thread state that lives across sync_threads.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/scratch_ref.hpp>

#include <cstdio>
#include <type_traits>

namespace scratchkit {

namespace detail {
/// PerThread's room: on host backends the array must hold every thread (always
/// checked); GPUs: the register needs no room, the check keeps the kernel portable.
template <int MaxThreads, class BlockT>
KOKKOS_INLINE_FUNCTION void per_thread_fits(const BlockT& block) {
  (void)block;  // no check at all in GPU builds without bounds checks
  if constexpr (BlockT::is_gpu) {
    SCRATCHKIT_BOUNDS_CHECK_V(block.num_threads() <= MaxThreads,
                              "scratchkit: block (%d, %d, %d): PerThread<T, Block, MaxThreads = %d> in a block of "
                              "%d threads: raise MaxThreads or leave it out (the default, 1024, fits every block)",
                              block.block_idx().x, block.block_idx().y, block.block_idx().z, MaxThreads,
                              block.num_threads());
  } else {
    SCRATCHKIT_REQUIRE_V(block.num_threads() <= MaxThreads,
                         "scratchkit: block (%d, %d, %d): PerThread<T, Block, MaxThreads = %d> in a block of %d "
                         "threads: raise MaxThreads or leave it out (the default, 1024, fits every block)",
                         block.block_idx().x, block.block_idx().y, block.block_idx().z, MaxThreads,
                         block.num_threads());
  }
}
/// PerThread's default room: a static-shape block's threads, else the largest block a launch accepts.
template <class BlockT, class = void>
struct per_thread_room : std::integral_constant<int, 1024> {};
template <class BlockT>
struct per_thread_room<BlockT, std::enable_if_t<(BlockT::static_threads > 0)>>
    : std::integral_constant<int, BlockT::static_threads> {};
}  // namespace detail

/// A value of T for each logical thread of the block, kept across barriers:
/// what a local variable of a CUDA kernel is when it lives across
/// `__syncthreads()`.
///
/// On a GPU backend it is one T per hardware thread (a register). On host
/// backends, where a team member runs many logical threads in a loop, it is
/// an array indexed by the thread's rank, of MaxThreads elements. The default
/// MaxThreads is the largest block any launch accepts (1024,
/// BlockLimits::max_threads), so it fits every launch and the type names no
/// block size; in a static-shape block (`Block<Exec, BlockShape<X, Y, Z>>`) it is X * Y * Z:
/// \code
/// scratchkit::PerThread<float, Block> acc(b, 0.0f);   // every thread's acc starts at 0
/// for (...) { ...; sync_threads(b); b.threads([&](const Thread& t) { acc(t) += ...; }); }
/// \endcode
/// A smaller MaxThreads only shrinks the host array (a large T on a host
/// stack); a block larger than it stops the kernel in its first block with
/// both numbers in the message: on host backends always, on GPUs in builds
/// with SCRATCHKIT_ENABLE_BOUNDS_CHECK (printf, then trap), so that a kernel
/// tried on a GPU does not fail later on a host backend. To have it refused
/// before the launch, give the launch the same bound:
/// `launch<LaunchBounds<MaxThreads>>(...)` rejects larger blocks on the host.
template <class T, class BlockT, int MaxThreads = detail::per_thread_room<BlockT>::value>
class PerThread {
 public:
  static constexpr bool in_register = BlockT::is_gpu;
  static_assert(MaxThreads > 0, "PerThread: MaxThreads must be positive");

  /// Contents uninitialised, as a CUDA local.
  KOKKOS_INLINE_FUNCTION explicit PerThread(const BlockT& block) { check(block); }
  /// Every thread's value starts as `init` (CUDA's `T v = init;` before the first barrier).
  KOKKOS_INLINE_FUNCTION PerThread(const BlockT& block, const T& init) {
    check(block);
    if constexpr (in_register) {
      m_v[0] = init;
    } else {
      for (int r = 0; r < block.num_threads(); ++r) m_v[r] = init;
    }
  }

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  // Under the checker: another thread's slot, or a slot used outside threads(), is a misuse
  // (on a GPU the value is the thread's own register).
  T& operator()(const Thread& t, SCRATCHKIT_SITE_DEFAULT) {
    if constexpr (!in_register) detail::scheck::per_thread_fast(t.rank, SCRATCHKIT_SITE_OF(loc));
    return at(t);
  }
  const T& operator()(const Thread& t, SCRATCHKIT_SITE_DEFAULT) const {
    if constexpr (!in_register) detail::scheck::per_thread_fast(t.rank, SCRATCHKIT_SITE_OF(loc));
    return const_cast<PerThread&>(*this).at(t);
  }
#else
  KOKKOS_INLINE_FUNCTION T& operator()(const Thread& t) { return at(t); }
  KOKKOS_INLINE_FUNCTION const T& operator()(const Thread& t) const { return const_cast<PerThread&>(*this).at(t); }
#endif

  /// Host backends: the values of ranks 0, 1, ... one after the other (the
  /// block's collectives loop over them directly; detail::host_direct).
  KOKKOS_INLINE_FUNCTION T* impl_data() { return m_v; }
  KOKKOS_INLINE_FUNCTION const T* impl_data() const { return m_v; }

 private:
  KOKKOS_INLINE_FUNCTION T& at(const Thread& t) {
    if constexpr (in_register) {
      (void)t;
      return m_v[0];
    } else {
      SCRATCHKIT_BOUNDS_CHECK_V(t.rank >= 0 && t.rank < MaxThreads,
                                "scratchkit: PerThread rank %d out of bounds [0, %d)", t.rank, MaxThreads);
      return m_v[t.rank];
    }
  }
  KOKKOS_INLINE_FUNCTION static void check(const BlockT& block) { detail::per_thread_fits<MaxThreads>(block); }

  T m_v[in_register ? 1 : MaxThreads];
};


/// One thread's N items of a `PerThread<T[N], Block>`: `row[k]` is item k, a
/// reference into the PerThread (copies of the row refer to the same items).
/// Stride: the distance between items, 1 on a GPU (the thread's registers) and
/// MaxThreads on host backends.
template <class T, int N, int Stride>
class PerThreadRow {
 public:
  KOKKOS_INLINE_FUNCTION explicit PerThreadRow(T* p) : m_p(p) {}
  KOKKOS_INLINE_FUNCTION T& operator[](int k) const {
    SCRATCHKIT_BOUNDS_CHECK_V(k >= 0 && k < N, "scratchkit: PerThread<T[%d]> item %d out of bounds", N, k);
    return m_p[k * Stride];
  }
  KOKKOS_INLINE_FUNCTION static constexpr int size() { return N; }

 private:
  T* m_p;
};

/// N values of T for each logical thread, kept across barriers: what a local
/// array `T v[N]` of a CUDA kernel is when it lives across `__syncthreads()`
/// (a thread's register tile, its partial sums). `v(t)[k]` is thread t's item k.
///
/// A structure of arrays on host backends: item k of every thread is one
/// array, ranks consecutive, so a phase's loop over consecutive threads
/// reads and writes each item at unit stride and can run in SIMD lanes
/// (`PerThread<Kokkos::Array<T, N>>` stores each thread's N items together,
/// N apart from the next thread's). On a GPU the items are the thread's own,
/// in registers where the indices are known at compile time, as a local array.
/// \code
/// scratchkit::PerThread<float[4], Block> acc(b, 0.0f);  // float acc[4] = {} in each thread
/// b.threads([&](const Thread& t) { for (int k = 0; k < 4; ++k) acc(t)[k] += ...; });
/// \endcode
/// MaxThreads and the block-size check are as for PerThread<T>.
template <class T, int N, class BlockT, int MaxThreads>
class PerThread<T[N], BlockT, MaxThreads> {
 public:
  static constexpr bool in_register = BlockT::is_gpu;
  static constexpr int stride       = in_register ? 1 : MaxThreads;
  using row_type                    = PerThreadRow<T, N, stride>;
  using const_row_type              = PerThreadRow<const T, N, stride>;
  static_assert(N > 0, "PerThread<T[N]>: N must be positive");
  static_assert(MaxThreads > 0, "PerThread: MaxThreads must be positive");

  /// Contents uninitialised, as a CUDA local array.
  KOKKOS_INLINE_FUNCTION explicit PerThread(const BlockT& block) { detail::per_thread_fits<MaxThreads>(block); }
  /// Every item of every thread starts as `init`.
  KOKKOS_INLINE_FUNCTION PerThread(const BlockT& block, const T& init) {
    detail::per_thread_fits<MaxThreads>(block);
    if constexpr (in_register) {
      for (int k = 0; k < N; ++k) m_v[k] = init;
    } else {
      const int n = block.num_threads();
      for (int k = 0; k < N; ++k)
        for (int r = 0; r < n; ++r) m_v[k * MaxThreads + r] = init;
    }
  }

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  row_type operator()(const Thread& t, SCRATCHKIT_SITE_DEFAULT) {
    if constexpr (!in_register) detail::scheck::per_thread_fast(t.rank, SCRATCHKIT_SITE_OF(loc));
    return row_type(at(t));
  }
  const_row_type operator()(const Thread& t, SCRATCHKIT_SITE_DEFAULT) const {
    if constexpr (!in_register) detail::scheck::per_thread_fast(t.rank, SCRATCHKIT_SITE_OF(loc));
    return const_row_type(const_cast<PerThread&>(*this).at(t));
  }
#else
  KOKKOS_INLINE_FUNCTION row_type operator()(const Thread& t) { return row_type(at(t)); }
  KOKKOS_INLINE_FUNCTION const_row_type operator()(const Thread& t) const {
    return const_row_type(const_cast<PerThread&>(*this).at(t));
  }
#endif

 private:
  KOKKOS_INLINE_FUNCTION T* at(const Thread& t) {
    if constexpr (in_register) {
      (void)t;
      return m_v;
    } else {
      SCRATCHKIT_BOUNDS_CHECK_V(t.rank >= 0 && t.rank < MaxThreads,
                                "scratchkit: PerThread rank %d out of bounds [0, %d)", t.rank, MaxThreads);
      return m_v + t.rank;
    }
  }

  T m_v[in_register ? N : N * MaxThreads];
};

}  // namespace scratchkit
