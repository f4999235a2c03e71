// SPDX-License-Identifier: BSD-3-Clause
/// PerThread: per-logical-thread state that lives across sync_threads.
#pragma once

#include <scratchkit/block.hpp>

#include <cstdio>

namespace scratchkit {

/// A value of T for each logical thread of the block, kept across barriers.
///
/// On a GPU backend it is one T per hardware thread (a register); on host
/// backends, where a team member runs many logical threads in a loop, it is
/// an array indexed by the thread's rank, sized MaxThreads (checked against
/// the block when constructed: set it to the block's thread count to keep
/// host stacks small).
/// \code
/// scratchkit::PerThread<float, Block, 256> acc(b);
/// b.threads([&](const Thread& t) { acc(t) = 0; });
/// for (...) { ...; sync_threads(b); b.threads([&](const Thread& t) { acc(t) += ...; }); }
/// \endcode
template <class T, class BlockT, int MaxThreads = 1024>
class PerThread {
 public:
  static constexpr bool in_register = BlockT::is_gpu;
  static_assert(MaxThreads > 0, "PerThread: MaxThreads must be positive");

  KOKKOS_INLINE_FUNCTION explicit PerThread(const BlockT& block) {
    if constexpr (!in_register) {
      if (block.num_threads() > MaxThreads) {
#if !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
        // Host backends only (in_register is false): name the numbers.
        char msg[160];
        std::snprintf(msg, sizeof msg,
                      "scratchkit: PerThread<T, Block, MaxThreads = %d> in a block of %d threads: raise MaxThreads "
                      "(or leave it at its default, 1024)",
                      MaxThreads, block.num_threads());
        SCRATCHKIT_ABORT(msg);
#else
        SCRATCHKIT_ABORT("scratchkit: PerThread<T, Block, MaxThreads>: the block has more threads than MaxThreads");
#endif
      }
    } else {
      (void)block;
    }
  }

  KOKKOS_INLINE_FUNCTION T& operator()(const Thread& t) {
    if constexpr (in_register) {
      (void)t;
      return m_v[0];
    } else {
      SCRATCHKIT_BOUNDS_CHECK(t.rank >= 0 && t.rank < MaxThreads, "scratchkit: PerThread rank out of bounds");
      return m_v[t.rank];
    }
  }
  KOKKOS_INLINE_FUNCTION const T& operator()(const Thread& t) const {
    return const_cast<PerThread&>(*this)(t);
  }

 private:
  T m_v[in_register ? 1 : MaxThreads];
};

}  // namespace scratchkit
