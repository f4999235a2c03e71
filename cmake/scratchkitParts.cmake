# SPDX-License-Identifier: BSD-3-Clause
#
#  scratchkit_source_parts(<out> <source> <n> <macro>)
#    A source compiled once per part (<macro> = 0 .. n-1 in each generated unit under the build
#    tree), each instantiating its share, so that no translation unit compiles for long.

include_guard(GLOBAL)

function(scratchkit_source_parts out source n macro)
  get_filename_component(_stem ${source} NAME_WE)
  math(EXPR _last "${n} - 1")
  set(_files)
  foreach(_p RANGE ${_last})
    set(_f ${CMAKE_CURRENT_BINARY_DIR}/parts/${_stem}_${_p}.cpp)
    file(CONFIGURE OUTPUT ${_f} CONTENT "#define ${macro} ${_p}\n#include \"${CMAKE_CURRENT_SOURCE_DIR}/${source}\"\n")
    list(APPEND _files ${_f})
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
endfunction()
