# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the install_consumer test: install scratchkit into a
# temporary prefix, then build and run examples/consumer and examples/heat3d
# against it with find_package(scratchkit), as outside projects (as_library).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
toolchain_args(tc)
foreach(example consumer heat3d)
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/${example}" -B "${WORK_DIR}/${example}"
      -DCMAKE_PREFIX_PATH=${prefix} ${tc})
  run(${CMAKE_COMMAND} --build "${WORK_DIR}/${example}")
endforeach()
run("${WORK_DIR}/consumer/consumer")
run("${WORK_DIR}/heat3d/heat3d" 40 200 0.1)
