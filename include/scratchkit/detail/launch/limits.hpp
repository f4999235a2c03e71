// SPDX-License-Identifier: BSD-3-Clause
/// The launch path's limits and caches: scratch limits per backend, resident teams, host team size, labels.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/cuda_block_launch.hpp>
#include <scratchkit/errors.hpp>

#include <atomic>
#include <cstddef>
#include <sstream>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

inline std::string dim_str(const Dim3& d) {
  std::ostringstream os;
  os << "(" << d.x << ", " << d.y << ", " << d.z << ")";
  return os.str();
}

template <class ExecSpace>
std::string space_name() {
  return ExecSpace::name();
}

/// Teams the default instance of ExecSpace runs at once for blocks of
/// `threads` threads when threads are the only limit (concurrency() over the
/// block size; at least 1). Read once per process and execution space.
template <class ExecSpace>
long long resident_teams(int threads) {
  static const long long conc = static_cast<long long>(ExecSpace().concurrency());
  const long long t = conc / (threads > 0 ? threads : 1);
  return t > 0 ? t : 1;
}

/// The CUDA device exec runs on, as a key for per-device caches; -1 where
/// the layer does not know how to ask (those launches query every time).
template <class ExecSpace>
int device_key(const ExecSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return exec.cuda_device();
#endif
  (void)exec;
  return -1;
}

/// The label as the std::string Kokkos::parallel_for takes, built once per
/// kernel and thread rather than on every launch: a label longer than the
/// small-string buffer (most are) is a heap allocation per call otherwise.
template <class Tag>
const std::string& cached_label(const char* label) {
  static thread_local std::string s;
  if (s.compare(label) != 0) s.assign(label);
  return s;
}

/// Host backends: team members per block when the launch asks for none. A host team's members
/// share a block by running its warps in turn, with a team barrier at every sync_threads; one
/// member per block has no barrier to wait at and gives every host thread its own blocks. So a
/// league of at least two teams per thread runs one member per block; a smaller one spreads
/// each block over the members the backend allows (team_max), so that a few blocks of uneven
/// cost still keep every thread busy.
inline int host_team_size(int team_max, long long league, int concurrency) {
  return league >= 2LL * concurrency ? 1 : team_max;
}

/// The backend's level-0 and level-1 scratch limits per team. They are
/// properties of the device Kokkos was initialised on, and asking Kokkos::Cuda
/// constructs an execution-space instance (a heap allocation) per query, so
/// they are read once per process and space; a ScopedScratchLimits replaces
/// them while it lives.
template <class ExecSpace>
struct ScratchLimits {
  std::size_t level0, level1;
  static const ScratchLimits& get() {
    if (const ScratchLimits* o = override_slot().load(std::memory_order_acquire)) return *o;
    using policy_type = Kokkos::TeamPolicy<ExecSpace>;
    static const ScratchLimits limits{static_cast<std::size_t>(policy_type::scratch_size_max(0)),
                                      static_cast<std::size_t>(policy_type::scratch_size_max(1))};
    return limits;
  }
  /// The limits a ScopedScratchLimits put in place (null: Kokkos').
  static std::atomic<const ScratchLimits*>& override_slot() {
    static std::atomic<const ScratchLimits*> slot{nullptr};
    return slot;
  }
};

/// A test seam: ScratchLimits<ExecSpace>::get() answers `level0` and `level1` while this lives, so
/// that a test checks a launch plan's choice of level and its errors at limits the machine does not
/// have. Scopes nest; launches on other threads meanwhile see the same limits.
/// \code
/// scratchkit::detail::ScopedScratchLimits<Kokkos::Serial> small(4096, 65536);
/// CHECK(scratchkit::plan_launch<Kokkos::Serial>(p).scratch_level == 1);
/// \endcode
template <class ExecSpace>
class ScopedScratchLimits {
 public:
  ScopedScratchLimits(std::size_t level0, std::size_t level1)
      : m_limits{level0, level1}, m_prev(ScratchLimits<ExecSpace>::override_slot().exchange(&m_limits)) {}
  ~ScopedScratchLimits() { ScratchLimits<ExecSpace>::override_slot().store(m_prev); }
  ScopedScratchLimits(const ScopedScratchLimits&)            = delete;
  ScopedScratchLimits& operator=(const ScopedScratchLimits&) = delete;

 private:
  ScratchLimits<ExecSpace> m_limits;
  const ScratchLimits<ExecSpace>* m_prev;
};

/// Whether a level-0 launch on ExecSpace with these bounds runs on the
/// layer's CUDA block driver (detail/cuda_block_launch.hpp).
template <class ExecSpace, class Bounds>
constexpr bool block_driver_launch =
#if SCRATCHKIT_CUDA_BLOCK_DRIVER
    std::is_same<ExecSpace, Kokkos::Cuda>::value && !Bounds::kokkos_driver;
#else
    false;
#endif

/// The level-0 limit of a launch (as LaunchPlan::scratch_bytes counts it) for
/// blocks of `threads` threads: the block driver opts in to the device's
/// whole per-block shared memory less the team space it keeps; elsewhere
/// Kokkos' TeamPolicy::scratch_size_max(0) (on CUDA: under 48 KB). `team_space`: the block
/// driver keeps Kokkos' team-collective space (LaunchSettings::cuda_team_space).
template <class ExecSpace, class Bounds>
std::size_t level0_max(int threads, bool team_space = true) {
#if SCRATCHKIT_CUDA_BLOCK_DRIVER
  if constexpr (block_driver_launch<ExecSpace, Bounds>) return cuda_block_level0_max(threads, team_space);
#endif
  (void)threads, (void)team_space;
  return ScratchLimits<ExecSpace>::get().level0;
}

/// Requests above this many bytes (static or dynamic) are beyond any device;
/// refusing them first keeps the sums in scratch_request from overflowing.
constexpr std::size_t absurd_scratch = std::size_t(1) << 48;

/// The policy with Kokkos' public occupancy hint.
template <class Policy>
auto with_desired_occupancy(const Policy& policy, int percent) {
  return Kokkos::Experimental::prefer(policy, Kokkos::Experimental::DesiredOccupancy(percent));
}

/// The error for a level-1 request to a body compiled for level 0 only.
inline LaunchError level0_only_error(const char* label, std::size_t bytes, bool static_shape = false) {
  std::ostringstream err;
  err << "scratchkit: cannot launch kernel '" << label << "' with " << bytes
      << " bytes of level-1 scratch: it is compiled for level-0 scratch only ("
      << (static_shape ? "a body on a static BlockShape is, unless launched as launch<Bounds, ScratchFallback::level1>"
                       : "launch<Bounds, ScratchFallback::none>")
      << ")";
  return LaunchError(err.str());
}

}  // namespace detail
}  // namespace scratchkit
