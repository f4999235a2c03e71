// SPDX-License-Identifier: BSD-3-Clause
/// PerThread: per-logical-thread state that lives across sync_threads.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/scratch_ref.hpp>

#include <cstdio>

namespace scratchkit {

/// A value of T for each logical thread of the block, kept across barriers:
/// what a local variable of a CUDA kernel is when it lives across
/// `__syncthreads()`.
///
/// On a GPU backend it is one T per hardware thread (a register). On host
/// backends, where a team member runs many logical threads in a loop, it is
/// an array indexed by the thread's rank, of MaxThreads elements. The default
/// MaxThreads is the largest block any launch accepts (1024,
/// BlockLimits::max_threads), so it fits every launch and the type names no
/// block size:
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
template <class T, class BlockT, int MaxThreads = 1024>
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
  // Host backends: the array must hold every thread (always checked). GPUs:
  // the register needs no room, the check keeps the kernel portable.
  KOKKOS_INLINE_FUNCTION static void check(const BlockT& block) {
    (void)block;  // no check at all in GPU builds without bounds checks
    if constexpr (in_register) {
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

  T m_v[in_register ? 1 : MaxThreads];
};

}  // namespace scratchkit
