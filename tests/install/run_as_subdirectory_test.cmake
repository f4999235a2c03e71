# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the heat3d_as_subdirectory test.
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE "${WORK_DIR}")

toolchain_args(tc)
# ETI off: this consumer compiles every kernel it calls itself (the installed-package test,
# install_consumer, links the library's instantiations instead).
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/as_subdirectory" -B "${WORK_DIR}"
    -DSCRATCHKIT_SOURCE_DIR=${SOURCE_DIR} -DSCRATCHKIT_ENABLE_ETI=OFF ${tc})
run(${CMAKE_COMMAND} --build "${WORK_DIR}" --target heat3d --parallel)
run("${WORK_DIR}/heat3d/heat3d" 40 200 0.1)
