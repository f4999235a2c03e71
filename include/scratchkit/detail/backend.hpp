// SPDX-License-Identifier: BSD-3-Clause
/// Backend traits and small portable helpers shared by the layer's headers.
#pragma once

#include <scratchkit/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <type_traits>

/// Aborts the program from host or device code with a message.
#define SCRATCHKIT_ABORT(msg) ::Kokkos::abort(msg)

#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
/// Checks cond on every access when bounds checks are on; compiles to nothing otherwise.
#define SCRATCHKIT_BOUNDS_CHECK(cond, msg) \
  do {                                     \
    if (!(cond)) SCRATCHKIT_ABORT(msg);    \
  } while (0)
#else
#define SCRATCHKIT_BOUNDS_CHECK(cond, msg) \
  do {                                     \
  } while (0)
#endif

namespace scratchkit {
namespace detail {

/// True for execution spaces that cannot touch host memory (CUDA, HIP, SYCL):
/// there one logical thread is one hardware thread of the team.
template <class ExecSpace>
struct is_gpu_space
    : std::integral_constant<
          bool, !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible> {};

/// Alignment every block's scratch base is raised to (TMA-style destinations).
constexpr std::size_t base_alignment = 128;

KOKKOS_INLINE_FUNCTION constexpr std::size_t round_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

KOKKOS_INLINE_FUNCTION constexpr bool is_pow2(std::size_t a) { return a != 0 && (a & (a - 1)) == 0; }

}  // namespace detail
}  // namespace scratchkit
