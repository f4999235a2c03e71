// SPDX-License-Identifier: BSD-3-Clause
/// Version and build configuration of the scratchkit library in use.
#pragma once

#include <scratchkit/config.hpp>

#include <string>

namespace scratchkit {

/// "0.1.0"
const char* version();
/// One line: version, Kokkos version and backends, native CUDA on/off, launch path, bounds checks on/off.
std::string build_summary();

}  // namespace scratchkit
