# SPDX-License-Identifier: BSD-3-Clause
# cmake -P script behind the install_consumer test: install scratchkit into a
# temporary prefix, then build and run examples/consumer and examples/heat3d
# against it with find_package(scratchkit), as outside projects (as_library).
include(${CMAKE_CURRENT_LIST_DIR}/common.cmake)
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
# The library installed is the kind the build made (BUILD_SHARED_LIBS).
if(SHARED)
  set(kind "shared")
  file(GLOB_RECURSE lib "${prefix}/*/libscratchkit.so")
else()
  set(kind "static")
  file(GLOB_RECURSE lib "${prefix}/*/libscratchkit.a")
endif()
if(NOT lib)
  message(FATAL_ERROR "no ${kind} libscratchkit installed under ${prefix}")
endif()
message(STATUS "installed ${kind} library: ${lib}")
toolchain_args(tc)
foreach(example consumer heat3d)
  run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/${example}" -B "${WORK_DIR}/${example}"
      -DCMAKE_PREFIX_PATH=${prefix} ${tc})
  run(${CMAKE_COMMAND} --build "${WORK_DIR}/${example}")
endforeach()
run("${WORK_DIR}/consumer/consumer")
if(SHARED)
  # The consumer runs on the installed shared library, not a copy in the build tree.
  execute_process(COMMAND ldd "${WORK_DIR}/consumer/consumer" OUTPUT_VARIABLE ldd_out)
  if(NOT ldd_out MATCHES "libscratchkit[.]so[^\n]*=> ${prefix}/")
    message(FATAL_ERROR "consumer does not load libscratchkit.so from ${prefix}:\n${ldd_out}")
  endif()
endif()
run("${WORK_DIR}/heat3d/heat3d" 40 200 0.1)
