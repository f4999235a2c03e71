# SPDX-License-Identifier: BSD-3-Clause
# ctest lambda_wrapper_linkage: no symbol over an nvcc extended-lambda wrapper
# (__nv_hdl_wrapper_t) is weak in the given objects, so no translation unit
# shares another's instantiation of launch<> or of Kokkos' parallel_for over a
# library kernel's lambda (SCRATCHKIT_KERNEL_LINKAGE, include/scratchkit/launch.hpp).
# With the kernel functions of external linkage, the objects of
# scratchkit_multi_tu held 465 such weak symbols each (nvcc 13.0, Kokkos 4.6.01
# with CUDA); builds without nvcc have no wrappers and pass.
#   cmake -DNM=<nm> -DOBJECTS=<a.o;b.o> -P check_lambda_linkage.cmake
if(NOT NM OR NOT OBJECTS)
  message(FATAL_ERROR "check_lambda_linkage: NM and OBJECTS are required")
endif()
set(_weak 0)
foreach(_o IN LISTS OBJECTS)
  execute_process(COMMAND ${NM} ${_o} OUTPUT_VARIABLE _syms RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "check_lambda_linkage: ${NM} ${_o} failed (${_rc})")
  endif()
  string(REGEX MATCHALL "[^\n]* [WV] [^\n]*18__nv_hdl_wrapper_t[^\n]*" _hits "${_syms}")
  list(LENGTH _hits _n)
  math(EXPR _weak "${_weak} + ${_n}")
  if(_n GREATER 0)
    list(GET _hits 0 _first)
    message("${_o}: ${_n} weak symbols over a lambda wrapper, e.g.\n  ${_first}")
  endif()
endforeach()
if(_weak GREATER 0)
  message(FATAL_ERROR "check_lambda_linkage: ${_weak} weak symbols over nvcc lambda wrappers: a kernel function "
                      "holding a KOKKOS_LAMBDA has external linkage (mark it SCRATCHKIT_KERNEL_LINKAGE)")
endif()
message("check_lambda_linkage: no weak symbol over a lambda wrapper in ${OBJECTS}")
