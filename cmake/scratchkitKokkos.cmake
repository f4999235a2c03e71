# SPDX-License-Identifier: BSD-3-Clause
#
# Finding Kokkos for scratchkit and for projects that use the installed
# scratchkit (this file is installed beside scratchkitConfig.cmake).
#
#  scratchkit_find_kokkos([FIND_DEPENDENCY])
#    find_package(Kokkos) (find_dependency from a package config) and repair
#    what some installs get wrong; sets, in the caller's scope:
#      scratchkit_KOKKOS_BACKENDS   e.g. "SERIAL;CUDA"
#      scratchkit_KOKKOS_LANGUAGE   CXX, or CUDA/HIP when Kokkos was built with
#                                   Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE
#      scratchkit_KOKKOS_INCLUDE_FIX  the include dir added, or "no"
#
#  scratchkit_find_cuda_toolkit([<find_package args>...])
#    find_package(CUDAToolkit ...) that also works with CMake 3.25 (Debian
#    12's 3.25.1) and CUDA 13 (see _scratchkit_cuda13_nvtx_begin).
#
#  scratchkit_kokkos_sources(<src>...)
#    Marks sources that include Kokkos so that they compile with the language
#    Kokkos needs (CUDA for a Kokkos compiled as CMake's CUDA language). That
#    language must be enabled at file scope of the project's top directory
#    (CMake's rule for enable_language): the global property
#    SCRATCHKIT_KOKKOS_LANGUAGE says which.

include_guard(GLOBAL)

# CMake 3.25's FindCUDAToolkit (Debian 12's stock 3.25.1-1 at least) marks
# CUDA::nvToolsExt deprecated, for projects that require CMake >= 3.25,
# without checking that the target exists; CUDA 13 ships no nvToolsExt
# library, so find_package(CUDAToolkit) stops with "set_property could not
# find TARGET CUDA::nvToolsExt" (later CMake checks first). A CUDA Kokkos' package
# config calls it too. Around those calls the minimum version that module
# reads is lowered to 3.24: its only effect there is that deprecation mark
# (scratchkit uses neither nvToolsExt nor nvtx3); policies are not touched.
macro(_scratchkit_cuda13_nvtx_begin)
  set(_scratchkit_saved_min_required "${CMAKE_MINIMUM_REQUIRED_VERSION}")
  if(CMAKE_VERSION VERSION_LESS 3.26 AND CMAKE_MINIMUM_REQUIRED_VERSION VERSION_GREATER_EQUAL 3.25
     AND NOT TARGET CUDA::nvToolsExt)
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
  endif()
endmacro()
macro(_scratchkit_cuda13_nvtx_end)
  set(CMAKE_MINIMUM_REQUIRED_VERSION "${_scratchkit_saved_min_required}")
  unset(_scratchkit_saved_min_required)
endmacro()

macro(scratchkit_find_cuda_toolkit)
  _scratchkit_cuda13_nvtx_begin()
  find_package(CUDAToolkit ${ARGN})
  _scratchkit_cuda13_nvtx_end()
endmacro()

macro(scratchkit_find_kokkos)
  if(NOT TARGET Kokkos::kokkos)
    # Kokkos supports no C++ extensions; its package config warns and forces
    # CMAKE_CXX_EXTENSIONS off unless the project says so first. Say so for a
    # project that has no opinion (one that asks for extensions still gets
    # Kokkos' warning).
    if(NOT DEFINED CMAKE_CXX_EXTENSIONS)
      set(CMAKE_CXX_EXTENSIONS OFF)
    endif()
    _scratchkit_cuda13_nvtx_begin()
    if("${ARGN}" STREQUAL "FIND_DEPENDENCY")
      find_dependency(Kokkos)
    else()
      find_package(Kokkos REQUIRED)
    endif()
    _scratchkit_cuda13_nvtx_end()
  endif()
  _scratchkit_fix_kokkos_includes()

  if(DEFINED Kokkos_DEVICES)
    set(scratchkit_KOKKOS_BACKENDS "${Kokkos_DEVICES}")
  else()
    set(scratchkit_KOKKOS_BACKENDS "unknown")
  endif()
  if(DEFINED Kokkos_COMPILE_LANGUAGE AND NOT Kokkos_COMPILE_LANGUAGE STREQUAL "")
    set(scratchkit_KOKKOS_LANGUAGE "${Kokkos_COMPILE_LANGUAGE}")
  else()
    set(scratchkit_KOKKOS_LANGUAGE CXX)
  endif()
  # Global, so that scratchkit_kokkos_sources works in any directory (a
  # project that add_subdirectory()s scratchkit, its examples).
  set_property(GLOBAL PROPERTY SCRATCHKIT_KOKKOS_LANGUAGE "${scratchkit_KOKKOS_LANGUAGE}")
endmacro()

# Debian's libtrilinos-kokkos-dev (Kokkos 3.4.01, a TriBITS export) gives
# Kokkos::kokkos the include dir <prefix>/include, while the headers live in
# <prefix>/include/trilinos (and, computed from the config's location, the
# dir it names does not even exist). The TriBITS config does set
# Kokkos_INCLUDE_DIRS correctly, so use that (or <prefix>/include/trilinos) to the target when the
# target's own dirs do not hold Kokkos_Core.hpp. The system files are not touched.
function(_scratchkit_fix_kokkos_includes)
  set(scratchkit_KOKKOS_INCLUDE_FIX "no" PARENT_SCOPE)
  get_target_property(_dirs Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _dirs)
    set(_dirs "")
  endif()
  foreach(_d IN LISTS _dirs)
    if(EXISTS "${_d}/Kokkos_Core.hpp")
      return()
    endif()
  endforeach()
  # Targets that Kokkos::kokkos links may carry the right dirs (Kokkos 4 does).
  get_target_property(_links Kokkos::kokkos INTERFACE_LINK_LIBRARIES)
  foreach(_l IN LISTS _links)
    if(TARGET ${_l})
      get_target_property(_ldirs ${_l} INTERFACE_INCLUDE_DIRECTORIES)
      foreach(_d IN LISTS _ldirs)
        if(EXISTS "${_d}/Kokkos_Core.hpp")
          return()
        endif()
      endforeach()
    endif()
  endforeach()
  set(_candidates ${Kokkos_INCLUDE_DIRS})
  foreach(_d IN LISTS _dirs)
    list(APPEND _candidates "${_d}/trilinos")
  endforeach()
  if(DEFINED Kokkos_INSTALL_DIR)
    list(APPEND _candidates "${Kokkos_INSTALL_DIR}/include/trilinos")
  endif()
  # Kokkos' own dirs that do not exist (Debian: <libdir>/../include) would make
  # CMake reject every target that links Kokkos::kokkos: drop them.
  set(_kept "")
  foreach(_d IN LISTS _dirs)
    if(EXISTS "${_d}" OR _d MATCHES "^\\$<")
      list(APPEND _kept "${_d}")
    endif()
  endforeach()
  foreach(_c IN LISTS _candidates)
    get_filename_component(_c "${_c}" ABSOLUTE)
    if(EXISTS "${_c}/Kokkos_Core.hpp")
      set_property(TARGET Kokkos::kokkos PROPERTY INTERFACE_INCLUDE_DIRECTORIES ${_kept} "${_c}")
      set(scratchkit_KOKKOS_INCLUDE_FIX "${_c}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "scratchkit: found Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR}, but none of its "
                      "include dirs (${_dirs}; ${Kokkos_INCLUDE_DIRS}) holds Kokkos_Core.hpp")
endfunction()

function(scratchkit_kokkos_sources)
  get_property(_lang GLOBAL PROPERTY SCRATCHKIT_KOKKOS_LANGUAGE)
  if(NOT _lang OR _lang STREQUAL "CXX")
    return()
  endif()
  set_source_files_properties(${ARGN} PROPERTIES LANGUAGE ${_lang})
endfunction()
