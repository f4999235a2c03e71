// SPDX-License-Identifier: BSD-3-Clause
/// The Kokkos functor that runs a launch's blocks (the team loop) and the block's scratch window.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/scratch_check.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The block shape a kernel body takes: S where the body's call operator takes `const Block<E, S>&`
/// (a lambda or functor with one, non-template operator()), RuntimeShape otherwise (a generic
/// lambda). Kokkos deduces a reducer's value type from `&F::operator()` the same way.
template <class M>
struct body_argument {
  using type = void;
};
template <class C, class R, class A>
struct body_argument<R (C::*)(A) const> {
  using type = A;
};
template <class C, class R, class A>
struct body_argument<R (C::*)(A)> {
  using type = A;
};
template <class C, class R, class A>
struct body_argument<R (C::*)(A) const noexcept> {
  using type = A;
};
template <class C, class R, class A>
struct body_argument<R (C::*)(A) noexcept> {
  using type = A;
};
template <class A>
struct block_shape_of_arg {
  using type = RuntimeShape;
};
template <class E, class S>
struct block_shape_of_arg<Block<E, S>> {
  using type = S;
};
template <class F, class = void>
struct body_shape {
  using type = RuntimeShape;
};
template <class F>
struct body_shape<F, std::void_t<decltype(&F::operator())>> {
  using type = typename block_shape_of_arg<std::remove_cv_t<std::remove_reference_t<
      typename body_argument<decltype(&F::operator())>::type>>>::type;
};
template <class F>
using body_shape_t = typename body_shape<F>::type;

/// The block's scratch base as the kernel should see it: the pointer Kokkos
/// hands out, raised to base_alignment. On CUDA level 0 that pointer is
/// generic, and nvcc cannot prove it is in shared memory: every access would
/// be a generic ld/st. Rebuilding it from a `__shared__` symbol plus its
/// offset in the shared window lets every access compile to
/// ld.shared/st.shared, as in a native kernel (docs/performance.md, "Launch and scratch"); the
/// rounding is done on the 32-bit window offset (the window is aligned far
/// beyond 128 bytes), which saves the 64-bit arithmetic in every block.
template <class ExecSpace, int Level, bool Direct>
KOKKOS_INLINE_FUNCTION char* scratch_window(char* p) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  if constexpr (Level == 0 && std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    static_assert(base_alignment == 128, "scratch_window: update the __align__ below");
    extern __shared__ __align__(128) char scratchkit_shared_base[];
    // p rounded up to base_alignment, on its 32-bit offset from the symbol.
    // The symbol is 128-aligned, so rounding the offset is rounding p; and an
    // offset whose low bits are visibly clear lets nvcc prove every tile row's
    // alignment and vectorise row reads (ld.shared.v4) as it does for a
    // `__shared__` array (docs/performance.md, "Launch and scratch").
    constexpr unsigned mask = static_cast<unsigned>(base_alignment) - 1u;
    const unsigned s        = static_cast<unsigned>(__cvta_generic_to_shared(p));
    const unsigned s0       = static_cast<unsigned>(__cvta_generic_to_shared(scratchkit_shared_base));
    if constexpr (Direct) {
      // The layer's CUDA driver (detail/cuda_block_launch.hpp) places the
      // scratch at a 128-aligned offset from the symbol already: the mask
      // only tells nvcc so, the rounding is not needed.
      return assume_aligned<base_alignment>(scratchkit_shared_base + ((s - s0) & ~mask));
    } else {
      return assume_aligned<base_alignment>(scratchkit_shared_base + ((s - s0 + mask) & ~mask));
    }
  }
#endif
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  return p + (round_up(a, base_alignment) - a);
}

/// Host backends: the kernel body as a call of its own. Inlined into the
/// backend's team loop (OpenMP's exec_team), the port of DIFFUSION3DPA ran
/// 12-19 % slower (perf/NOTES.md, 2026-11-28 and 2026-11-29). The body runs
/// on a local copy of the closure: the compiler may then keep its captures
/// (View pointers, strides, sizes) in registers across the phases' loops,
/// which it cannot do for loads behind a branch through a reference
/// (perf/NOTES.md, 2026-11-29). Views in a Kokkos closure are untracked
/// copies, so a View costs its bytes; a capture with a copy constructor of
/// its own (std::vector, std::shared_ptr in a host-only lambda) is copied once
/// a block. Closures over 1 KiB are not copied.
template <class F, class B>
#if defined(__GNUC__)
__attribute__((noinline))
#endif
KOKKOS_FUNCTION void host_block_body(const F& f, const B& b) {
  if constexpr (sizeof(F) <= 1024 && std::is_copy_constructible<F>::value) {
    const F local(f);
    local(b);
  } else {
    f(b);
  }
}

/// Kokkos functor: builds the Block from the team and calls the kernel body.
/// The scratch level is a template parameter so that level-0 scratch is known
/// to be shared memory at compile time; Direct: launched by the layer's CUDA
/// block driver (detail/cuda_block_launch.hpp), which aligns the scratch;
/// Loop: the team runs several blocks (LaunchBounds' TeamLoop), with a
/// barrier between them; Alt: without it, alternating between two scratch
/// copies m_stride bytes apart (LaunchParams::alternate_scratch), or with one
/// copy (m_stride 0) where the launch has no scratch.
template <class ExecSpace, class F, int Level, bool Direct, bool Loop, bool Alt>
struct BlockFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using block_type  = Block<ExecSpace, body_shape_t<F>>;
  F m_f;
  BlockGeometry m_geo;
  int m_per_team = 1;
  int m_blocks   = 0;
  bool m_strided = false;  ///< TeamLoop order: strided instead of consecutive blocks
  std::size_t m_stride = 0;  ///< Alt: offset of the second scratch copy (0: no scratch)
  bool m_team_space    = true;  ///< Direct: the CUDA block driver keeps Kokkos' team-collective space
  const char* m_label  = nullptr;  ///< host: the kernel a failed check names (detail::FailSite)
#ifdef SCRATCHKIT_ENABLE_SCRATCH_CHECK
  // The launch's scratch checker, or none: a scheck::LaunchCheck on the host. Untyped, and
  // present in device passes too, so the functor has one layout on both sides of nvcc.
  void* m_check = nullptr;
#endif

  /// Block `r` on `team` with its scratch at `base`.
  KOKKOS_INLINE_FUNCTION void run(const member_type& team, char* base, int r) const {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    if (m_check) {
      // A checked block runs on the scratch the checker gives it, where raw pointers are seen.
      const block_type at(team, m_geo, base, r);
      const scheck::BlockRun record(static_cast<scheck::LaunchCheck*>(m_check), base,
                                    m_geo.dynamic_begin + m_geo.dynamic_bytes, at.block_idx().x, at.block_idx().y,
                                    at.block_idx().z, m_geo.block.x, m_geo.block.y);
      run_block(block_type(team, m_geo, record.scratch(), r));
      return;
    }
#endif
    run_block(block_type(team, m_geo, base, r));
  }
  KOKKOS_INLINE_FUNCTION void run_block(const block_type& b) const {
    if constexpr (block_type::is_gpu) {
      m_f(b);
    } else {
#if !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__))
      const FailSiteScope site(m_label, b.block_idx().x, b.block_idx().y, b.block_idx().z);
#endif
      host_block_body(m_f, b);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    // The start of the team's scratch: the launch reserved plan.scratch_bytes
    // there (set_scratch_size), so no allocation is needed, and a request of
    // 0 bytes lets the compiler drop get_shmem's capacity check and its
    // null-pointer path from every block.
    char* base =
        scratch_window<ExecSpace, Level, Direct>(static_cast<char*>(team.team_scratch(Level).get_shmem(0)));
    if constexpr (Loop) {
      // Consecutive: team t runs blocks t*k ... t*k + k - 1. Strided: team t
      // runs t, t + L, t + 2L, ... (L teams), so the teams resident at one
      // time work on neighbouring blocks, as a CUDA grid's blocks do.
      const int first = m_strided ? team.league_rank() : team.league_rank() * m_per_team;
      const int step  = m_strided ? team.league_size() : 1;
      const int last  = m_strided ? m_blocks : (first + m_per_team < m_blocks ? first + m_per_team : m_blocks);
      if constexpr (Alt) {
        // Block r + 1 writes the copy block r does not read, and a thread
        // reaches block r + 2 (the same copy as r) only past a barrier of
        // block r + 1, which every thread reaches after its part of block r.
        // The stride is a multiple of base_alignment. A separate
        // instantiation, so that the barrier loop below compiles on its own
        // (docs/performance.md, "Several blocks per team").
        std::size_t at = 0;
        for (int r = first; r < last; r += step) {
          run(team, assume_aligned<base_alignment>(base + at), r);
          at = at == 0 ? m_stride : 0;
        }
      } else {
        for (int r = first; r < last; r += step) {
          // The previous block's last phase may still read the scratch the
          // next one's first phase writes.
          if (r != first) team.team_barrier();
          run(team, base, r);
        }
      }
    } else {
      run(team, base, team.league_rank());
    }
  }
};

}  // namespace detail
}  // namespace scratchkit
