// SPDX-License-Identifier: BSD-3-Clause
// Version and build summary.
#include <scratchkit/version.hpp>

#include <Kokkos_Core.hpp>

#include <sstream>

namespace scratchkit {

const char* version() { return SCRATCHKIT_VERSION_STRING; }

std::string build_summary() {
  std::ostringstream os;
  os << "scratchkit " << SCRATCHKIT_VERSION_STRING << ", Kokkos " << KOKKOS_VERSION / 10000 << "."
     << KOKKOS_VERSION / 100 % 100 << "." << KOKKOS_VERSION % 100 << " (default execution space "
     << Kokkos::DefaultExecutionSpace::name() << "), native CUDA " << (SCRATCHKIT_HAS_NATIVE_CUDA ? "on" : "off")
     << ", launch path " << (SCRATCHKIT_KOKKOS_CUDA_DRIVER ? "scratchkit CUDA driver (Kokkos internals)" : "Kokkos public API")
     << ", bounds checks "
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
     << "on";
#else
     << "off";
#endif
  return os.str();
}

}  // namespace scratchkit
