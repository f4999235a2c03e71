// SPDX-License-Identifier: BSD-3-Clause
/// Explicit instantiation (ETI) of the public kernels: which instantiations the
/// library holds, so that a caller's translation unit compiles the call only.
///
/// Each public kernel checks its arguments in its header, maps its Views onto
/// KernelViews (detail/layout_map.hpp: unmanaged, LayoutRight or LayoutStride,
/// inputs const) and calls one entry point, a function template over the
/// execution space and those View types. config.hpp says (SCRATCHKIT_ETI) whether
/// the library was built with those entry points instantiated for the Kokkos
/// build's default execution space and default host execution space
/// (SCRATCHKIT_ETI_SPACES), the element types each kernel takes and both
/// layouts; the kernel headers then declare them `extern template`. Any other
/// combination (another memory space, an execution space instance of a third
/// backend, mixed layouts of rank-1 Views) is instantiated in the caller as
/// before. A translation unit that defines SCRATCHKIT_ETI to 0 before including
/// scratchkit instantiates everything itself.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/detail/layout_map.hpp>

#ifndef SCRATCHKIT_ETI
#define SCRATCHKIT_ETI 0
#endif
#ifndef SCRATCHKIT_ETI_SPACES
#define SCRATCHKIT_ETI_SPACES(M)
#endif

namespace scratchkit {
namespace detail {
/// The View an ETI entry point takes: rank R of T, layout L, in E's memory space.
template <class T, int R, class L, class E>
using EtiView = KernelView<T, R, L, typename E::memory_space>;
}  // namespace detail
}  // namespace scratchkit

/// Applies M(E, T, L) for both layouts: one line of a kernel's instantiation list.
#define SCRATCHKIT_ETI_LAYOUTS(M, E, T) \
  M(E, T, Kokkos::LayoutRight)          \
  M(E, T, Kokkos::LayoutStride)
