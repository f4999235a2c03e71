// SPDX-License-Identifier: BSD-3-Clause
/// The GPU architecture the tuning policies (scratchkit/tuning/) are chosen for, at compile time.
///
/// Kokkos' architecture option (Kokkos_ARCH_HOPPER90 -> KOKKOS_ARCH_HOPPER90)
/// decides, as CUB's policy hubs decide by __CUDA_ARCH__: config.hpp records
/// it at configure time as a compute capability times ten, so that the native
/// CUDA units, which include no Kokkos header, choose exactly as the layer
/// does (one policy per build: no -D can make two units disagree).
#pragma once

#include <scratchkit/config.hpp>

#ifndef SCRATCHKIT_KOKKOS_CUDA_ARCH
#define SCRATCHKIT_KOKKOS_CUDA_ARCH 0
#endif

// Where Kokkos' own macros are visible, they must name the recorded architecture.
#if (defined(KOKKOS_ARCH_HOPPER90) && SCRATCHKIT_KOKKOS_CUDA_ARCH != 90) ||   \
    (defined(KOKKOS_ARCH_ADA89) && SCRATCHKIT_KOKKOS_CUDA_ARCH != 89) ||      \
    (defined(KOKKOS_ARCH_AMPERE86) && SCRATCHKIT_KOKKOS_CUDA_ARCH != 86) ||   \
    (defined(KOKKOS_ARCH_AMPERE80) && SCRATCHKIT_KOKKOS_CUDA_ARCH != 80)
#error "scratchkit: config.hpp was generated for another Kokkos architecture than the Kokkos included; reconfigure"
#endif

namespace scratchkit {
namespace tuning {

/// Compute capability x 10 of the NVIDIA GPU of Kokkos' configuration
/// (KOKKOS_ARCH_HOPPER90: 90, AMPERE80: 80, AMPERE86: 86, ADA89: 89), 0 where
/// it names none (host-only and AMD builds).
constexpr int cuda_arch = SCRATCHKIT_KOKKOS_CUDA_ARCH;

/// The key of host backends (Serial, OpenMP, Threads) in the policy hubs that
/// have a host entry (GemmPolicy).
constexpr int host_arch = -1;

/// The policy key of a launch: cuda_arch on a GPU execution space, host_arch on a host one.
template <bool OnGpu>
constexpr int arch_key = OnGpu ? cuda_arch : host_arch;

}  // namespace tuning
}  // namespace scratchkit
