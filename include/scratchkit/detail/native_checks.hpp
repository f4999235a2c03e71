// SPDX-License-Identifier: BSD-3-Clause
/// Checks before handing Kokkos Views to a native CUDA kernel, and the native branch every kernel's
/// entry point takes (internal), without any kernel's declarations: a kernel's layer includes these
/// and its own native header only.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/errors.hpp>

#include <array>
#include <cstddef>
#include <sstream>
#include <string>

namespace scratchkit {
namespace detail {

/// True when this build can run native CUDA kernels on ExecSpace.
template <class ExecSpace>
constexpr bool native_available() {
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same<ExecSpace, Kokkos::Cuda>::value;
#else
  return false;
#endif
}

/// The cudaStream_t of exec (as void*), or UnsupportedError saying why the
/// native backend cannot run here.
template <class ExecSpace>
void* native_stream(const ExecSpace& exec, const char* kernel) {
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    return static_cast<void*>(exec.cuda_stream());
  }
#endif
  (void)exec;
  std::ostringstream os;
  os << "scratchkit::" << kernel << ": Backend::native needs ";
#if !SCRATCHKIT_HAS_NATIVE_CUDA
  os << "the native CUDA kernels, which this build does not have (configure with SCRATCHKIT_ENABLE_CUDA=ON)";
#elif !defined(KOKKOS_ENABLE_CUDA)
  os << "a Kokkos built with CUDA (this Kokkos has no CUDA backend)";
#else
  os << "the Kokkos::Cuda execution space, not " << ExecSpace::name();
#endif
  throw UnsupportedError(os.str());
}

/// Native kernels take plain row-major contiguous arrays in CUDA memory (the
/// entry points map contiguous column-major Views onto them first: layout_map.hpp).
template <class View>
void require_native_view(const View& v, const char* kernel, const char* arg) {
  constexpr bool in_cuda_memory =
#if defined(KOKKOS_ENABLE_CUDA)
      Kokkos::SpaceAccessibility<Kokkos::Cuda, typename View::memory_space>::accessible;
#else
      false;
#endif
  bool row_major      = v.span_is_contiguous();
  constexpr int last  = View::rank > 0 ? static_cast<int>(View::rank) - 1 : 0;
  if (View::rank >= 2 && v.span() > 1 && v.extent(last) > 1 && v.stride(last) != 1) row_major = false;
  if (!in_cuda_memory || !row_major) {
    std::ostringstream os;
    os << "scratchkit::" << kernel << ": Backend::native needs " << describe_view(v, arg)
       << " contiguous (row- or column-major, docs/layouts.md) and in CUDA-accessible memory";
    throw UnsupportedError(os.str());
  }
}

/// The Backend::native branch of a kernel's entry point: exec and the Views v... (names: their
/// argument names) checked for the twin, then f(stream) calls it. f takes `auto`, so that builds
/// without the native kernels never instantiate the call.
template <class ExecSpace, class F, class... V>
void native_run(const ExecSpace& exec, const char* kernel, const std::array<const char*, sizeof...(V)>& names,
                const F& f, const V&... v) {
  void* stream  = native_stream(exec, kernel);
  std::size_t i = 0;
  (require_native_view(v, kernel, names[i++]), ...);
#if SCRATCHKIT_HAS_NATIVE_CUDA
  f(stream);
#else
  (void)stream, (void)f;
#endif
}

}  // namespace detail
}  // namespace scratchkit
