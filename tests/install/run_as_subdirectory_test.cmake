# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the heat3d_as_subdirectory test.
file(REMOVE_RECURSE "${WORK_DIR}")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "as_subdirectory test: '${cmd}' failed (${rc})")
  endif()
endfunction()

set(args -S "${SOURCE_DIR}/tests/install/as_subdirectory" -B "${WORK_DIR}"
         -DSCRATCHKIT_SOURCE_DIR=${SOURCE_DIR}
         -DKokkos_DIR=${Kokkos_DIR}
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(CUDA_COMPILER)
  list(APPEND args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
endif()
run(${CMAKE_COMMAND} ${args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}" --target heat3d)
run("${WORK_DIR}/heat3d/heat3d" 40 200 0.1)
