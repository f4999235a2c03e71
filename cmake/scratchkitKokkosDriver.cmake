# SPDX-License-Identifier: BSD-3-Clause
#
# scratchkit_check_kokkos_cuda_driver()
#   Decides the layer's launch path on CUDA. With SCRATCHKIT_KOKKOS_CUDA_DRIVER
#   off (the default) every launch goes through Kokkos' public TeamPolicy
#   API. With it on, the Kokkos found must have CUDA, and a probe
#   (cmake/probe/kokkos_cuda_driver.cpp) that instantiates scratchkit's
#   driver on Kokkos internals must compile and link against it: the driver is
#   accepted by what the Kokkos in use provides, whatever its version. A Kokkos
#   whose internals changed fails the probe, and configuration stops with the
#   probe's compiler output rather than failing later in a user's build.
#   Sets scratchkit_LAUNCH_PATH ("Kokkos public API" or "scratchkit driver on
#   Kokkos internals") and SCRATCHKIT_KOKKOS_CUDA_DRIVER_VALUE (0 or 1, for
#   config.hpp).

include_guard(GLOBAL)

function(scratchkit_check_kokkos_cuda_driver)
  set(scratchkit_LAUNCH_PATH "Kokkos public API (TeamPolicy)" PARENT_SCOPE)
  set(SCRATCHKIT_KOKKOS_CUDA_DRIVER_VALUE 0 PARENT_SCOPE)
  if(NOT SCRATCHKIT_KOKKOS_CUDA_DRIVER)
    return()
  endif()
  if(NOT "CUDA" IN_LIST scratchkit_KOKKOS_BACKENDS)
    message(FATAL_ERROR "SCRATCHKIT_KOKKOS_CUDA_DRIVER=ON needs a Kokkos with CUDA; the Kokkos found "
                        "(${Kokkos_VERSION}) has ${scratchkit_KOKKOS_BACKENDS}. Turn the option off.")
  endif()
  set(_src ${PROJECT_SOURCE_DIR}/cmake/probe/kokkos_cuda_driver.cpp)
  set(_dir ${PROJECT_BINARY_DIR}/probe-kokkos-cuda-driver)
  if(scratchkit_KOKKOS_LANGUAGE STREQUAL "CUDA")
    # A Kokkos compiled as CMake's CUDA language: the probe must be CUDA too.
    # Kokkos::kokkos also carries C++ compile features, which need CXX enabled
    # in the probe's project: a second, empty C++ source does that.
    configure_file(${_src} ${_dir}/kokkos_cuda_driver.cu COPYONLY)
    file(WRITE ${_dir}/cxx.cpp "// enables CXX in the probe project\n")
    set(_src ${_dir}/kokkos_cuda_driver.cu ${_dir}/cxx.cpp)
  endif()
  # The probe sees the layer's headers and a config.hpp of its own that turns
  # the driver on.
  file(WRITE ${_dir}/include/scratchkit/config.hpp
       "#pragma once\n#define SCRATCHKIT_HAS_NATIVE_CUDA 0\n#define SCRATCHKIT_KOKKOS_CUDA_DRIVER 1\n")
  message(STATUS "scratchkit: probing Kokkos ${Kokkos_VERSION} for the internals the CUDA block driver uses")
  try_compile(_ok ${_dir}/build
    SOURCES ${_src}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${_dir}/include;${PROJECT_SOURCE_DIR}/include"
                "-DCMAKE_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}"
    LINK_LIBRARIES Kokkos::kokkos
    CXX_STANDARD ${CMAKE_CXX_STANDARD}
    CUDA_STANDARD ${CMAKE_CXX_STANDARD}
    OUTPUT_VARIABLE _out)
  if(NOT _ok)
    file(WRITE ${_dir}/probe.log "${_out}")
    message(FATAL_ERROR "SCRATCHKIT_KOKKOS_CUDA_DRIVER=ON, but scratchkit's CUDA block driver does not compile "
                        "against Kokkos ${Kokkos_VERSION}: the Kokkos internals it uses differ there (compiler "
                        "output: ${_dir}/probe.log). Configure with -DSCRATCHKIT_KOKKOS_CUDA_DRIVER=OFF: the layer "
                        "then runs on Kokkos' public API.")
  endif()
  set(scratchkit_LAUNCH_PATH "scratchkit driver on Kokkos internals (probe passed)" PARENT_SCOPE)
  set(SCRATCHKIT_KOKKOS_CUDA_DRIVER_VALUE 1 PARENT_SCOPE)
endfunction()
