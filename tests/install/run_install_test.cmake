# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the install_consumer test.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "install test: '${cmd}' failed (${rc})")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
set(args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/consumer"
         -DCMAKE_PREFIX_PATH=${prefix}
         -DKokkos_DIR=${Kokkos_DIR}
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
         -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(CUDA_COMPILER)
  list(APPEND args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
endif()
run(${CMAKE_COMMAND} ${args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer")
run("${WORK_DIR}/consumer/consumer")
