# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the install_consumer test: install scratchkit into a
# temporary prefix, then build and run examples/consumer and examples/heat3d
# against it with find_package(scratchkit), as outside projects (as_library).
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
foreach(example consumer heat3d)
  set(args -S "${SOURCE_DIR}/examples/${example}" -B "${WORK_DIR}/${example}"
           -DCMAKE_PREFIX_PATH=${prefix}
           -DKokkos_DIR=${Kokkos_DIR}
           -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
           -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
  if(CUDA_COMPILER)
    list(APPEND args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
  endif()
  run(${CMAKE_COMMAND} ${args})
  run(${CMAKE_COMMAND} --build "${WORK_DIR}/${example}")
endforeach()
run("${WORK_DIR}/consumer/consumer")
run("${WORK_DIR}/heat3d/heat3d" 40 200 0.1)
