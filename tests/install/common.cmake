# SPDX-License-Identifier: BSD-3-Clause
# Shared by the cmake -P scripts of the install tests.

# Runs a command; stops the test with the command line if it fails.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "'${cmd}' failed (${rc})")
  endif()
endfunction()

# Configure arguments that reproduce the build's toolchain and Kokkos.
function(toolchain_args out)
  set(args -DKokkos_DIR=${Kokkos_DIR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
  if(CUDA_COMPILER)
    list(APPEND args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
  endif()
  set(${out} ${args} PARENT_SCOPE)
endfunction()
