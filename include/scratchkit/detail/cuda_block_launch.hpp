// SPDX-License-Identifier: BSD-3-Clause
/// A leaner Kokkos::Cuda TeamPolicy driver for the layer's level-0 block kernels.
#pragma once

#include <type_traits>

#include <scratchkit/detail/backend.hpp>

// Kokkos' generic ParallelFor<TeamPolicy> on CUDA starts every block with a
// run-time test for level-1 scratch (a global lock taken per block when it is
// used, whose 64-bit division code stays in the kernel and costs registers) and
// a loop over league ranks (blockIdx.x, blockIdx.x + gridDim.x, ...). A layer
// launch at scratch level 0 never uses level-1 scratch and always launches
// one CUDA block per league rank, so neither is needed: in kernels of many
// short blocks (tree reduction, halo tiles: ~10^6 blocks of ~100
// instructions) they are a measurable share of each block's work and of the
// latency before its first load (docs/performance.md, "Launch and scratch").
//
// This partial specialisation of Kokkos::Impl::ParallelFor (more specialised
// than Kokkos' own for TeamPolicy on Cuda) drives only
// BlockFunctor<Kokkos::Cuda, F, 0, true> (level 0, unless the launch bounds
// ask for Kokkos' driver: LaunchBounds<..., ..., true>), through Kokkos' own launch machinery
// (CudaParallelLaunch: launch mechanism, launch bounds, Tools hooks around it
// in Kokkos::parallel_for stay as they are). Per block it builds the same
// CudaTeamMember Kokkos would (team-collective space of (team_size + 2)
// doubles first, then the level-0 scratch) with league rank blockIdx.x.
//
// It uses Kokkos internals (CudaParallelLaunch, the CudaTeamMember
// constructor, the TeamPolicy accessors), so it is an option, off by default:
// CMake's SCRATCHKIT_KOKKOS_CUDA_DRIVER, which a configure-time probe
// (cmake/scratchkitKokkosDriver.cmake) accepts only where this file compiles
// and links against the Kokkos found. Without it every launch goes through
// Kokkos' public TeamPolicy API (launch.hpp).
#if defined(KOKKOS_ENABLE_CUDA) && SCRATCHKIT_KOKKOS_CUDA_DRIVER && !defined(KOKKOS_IMPL_DEBUG_CUDA_SERIAL_EXECUTION)
#define SCRATCHKIT_CUDA_BLOCK_DRIVER 1
#else
#define SCRATCHKIT_CUDA_BLOCK_DRIVER 0
#endif

namespace scratchkit {
namespace detail {
template <class ExecSpace, class F, int Level, bool Direct, bool Loop = false, bool Alt = false>
struct BlockFunctor;
}  // namespace detail
}  // namespace scratchkit

#if SCRATCHKIT_CUDA_BLOCK_DRIVER
#include <algorithm>
#include <map>
#include <mutex>
#include <string>

namespace scratchkit {
namespace detail {
/// Shared memory the block driver places before a block's scratch: Kokkos' team-collective
/// space ((team size + 2) doubles, used by team_broadcast and team_scan on Block::team()),
/// kept unless the launch's settings drop it (LaunchSettings::cuda_team_space), rounded up to
/// the layer's base alignment so that the scratch after it starts aligned.
inline int cuda_block_reserve(int team_size, bool team_space) {
  constexpr int align = static_cast<int>(base_alignment);
  const int reserve   = team_space ? static_cast<int>(sizeof(double)) * (team_size + 2) : 0;
  return (reserve + align - 1) / align * align;
}

/// The most shared memory a block may have on the device Kokkos runs on,
/// with CUDA's opt-in (cudaDevAttrMaxSharedMemoryPerBlockOptin: 227 KB on an
/// H100, 48 KB without the opt-in). Read once per process.
inline int cuda_block_shmem_optin() {
  static const int bytes = static_cast<int>(Kokkos::Cuda().cuda_device_prop().sharedMemPerBlockOptin);
  return bytes;
}

/// The level-0 request (LaunchPlan::scratch_bytes, which includes
/// base_alignment bytes of slack the driver does not need) that a block of
/// `team_size` threads can have on the block driver.
inline std::size_t cuda_block_level0_max(int team_size, bool team_space) {
  const long long m =
      static_cast<long long>(cuda_block_shmem_optin()) - cuda_block_reserve(team_size, team_space) + base_alignment;
  return m > 0 ? static_cast<std::size_t>(m) : 0;
}
}  // namespace detail
}  // namespace scratchkit

namespace Kokkos {
namespace Impl {

template <class F, class... Properties>
class ParallelFor<scratchkit::detail::BlockFunctor<Kokkos::Cuda, F, 0, true>, Kokkos::TeamPolicy<Properties...>,
                  Kokkos::Cuda> {
 public:
  using Policy       = TeamPolicy<Properties...>;
  using functor_type = scratchkit::detail::BlockFunctor<Kokkos::Cuda, F, 0, true>;
  using size_type    = Cuda::size_type;

 private:
  using Member       = typename Policy::member_type;
  using LaunchBounds = typename Policy::launch_bounds;
  /// Kokkos' kernel invoker for this driver and the launch mechanism Kokkos
  /// deduces for it (a template so that ParallelFor is complete where used).
  template <class Self = ParallelFor>
  using invoker =
      CudaParallelLaunchKernelInvoker<Self, LaunchBounds, DeduceCudaLaunchMechanism<Self>::launch_mechanism>;

  const functor_type m_functor;
  const Policy m_policy;
  int m_league_size;
  int m_team_size;
  int m_shmem_begin;  ///< Kokkos' team-collective space (team_broadcast, team_scan), rounded up to 128
  int m_shmem_size;   ///< the level-0 scratch the launch requested

 public:
  Policy const& get_policy() const { return m_policy; }

  __device__ inline void operator()() const {
    // The start of the dynamic shared memory (no static __shared__ precedes
    // it in these kernels' driver), 128-aligned as the layer's scratch base.
    extern __shared__ __align__(128) char scratchkit_shared_base[];
    const Member team(scratchkit_shared_base, m_shmem_begin, m_shmem_size, nullptr, 0,
                      static_cast<int>(blockIdx.x), m_league_size);
    m_functor(team);
  }

  inline void execute() const {
    if (m_league_size == 0) return;
    const dim3 grid(static_cast<unsigned>(m_league_size), 1, 1);
    const dim3 block(1, static_cast<unsigned>(m_team_size), 1);  // vector length 1: team rank = threadIdx.y
    const int shmem           = m_shmem_begin + m_shmem_size;
    const CudaInternal* space = m_policy.space().impl_internal_space_instance();
    if (shmem <= static_cast<int>(space->m_deviceProp.sharedMemPerBlock)) {
      CudaParallelLaunch<ParallelFor, LaunchBounds>(*this, grid, block, shmem, space);
      return;
    }
    // Above 48 KB: CUDA's opt-in, which Kokkos' launch does not take (it
    // rejects any request over sharedMemPerBlock). The same kernel function
    // and launch mechanism Kokkos would use, after raising the function's
    // dynamic shared memory limit, as a native kernel does.
    static std::mutex mutex;  // one attribute update and launch of this kernel at a time, as in Kokkos
    std::lock_guard<std::mutex> lock(mutex);
    allow_shmem(space, shmem);
    desul::ensure_cuda_lock_arrays_on_device();
    invoker<>::invoke_kernel(*this, grid, block, shmem, space);
  }

  /// The largest block (threads, a multiple of 32 unless the kernel's own
  /// limit is not) of this kernel that fits `min_blocks` times on an SM with
  /// `shmem` bytes of dynamic shared memory; 0 if none does. launch() asks it
  /// before every new scratch size (cached there); Kokkos' team_size_max
  /// would answer 0 above 48 KB.
  static int team_size_max(const Kokkos::Cuda& exec, int shmem, int min_blocks) {
    const CudaInternal* space = exec.impl_internal_space_instance();
    if (shmem > detail_optin(space)) return 0;
    if (shmem > static_cast<int>(space->m_deviceProp.sharedMemPerBlock)) allow_shmem(space, shmem);
    const cudaFuncAttributes attr = func_attributes<CudaParallelLaunch<ParallelFor, LaunchBounds>>(space);
    KOKKOS_IMPL_CUDA_SAFE_CALL(cudaSetDevice(space->m_cudaDev));
    const int need = min_blocks > 1 ? min_blocks : 1;
    for (int t = attr.maxThreadsPerBlock; t > 0; t = (t % 32) ? t / 32 * 32 : t - 32) {
      int blocks = 0;
      if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, invoker<>::get_kernel_func(), t,
                                                        static_cast<std::size_t>(shmem)) != cudaSuccess) {
        (void)cudaGetLastError();  // not sticky: clear it, report "does not fit"
        return 0;
      }
      if (blocks >= need) return t;
    }
    return 0;
  }

 private:
  /// Kokkos 4.7 and later take the instance, earlier releases its device id.
  template <class Launch>
  static cudaFuncAttributes func_attributes(const CudaInternal* space) {
    if constexpr (std::is_invocable_v<decltype(&Launch::get_cuda_func_attributes), const CudaInternal*>)
      return Launch::get_cuda_func_attributes(space);
    else
      return Launch::get_cuda_func_attributes(space->m_cudaDev);
  }
  static int detail_optin(const CudaInternal* space) {
    return static_cast<int>(space->m_deviceProp.sharedMemPerBlockOptin);
  }

  /// Raises this kernel's dynamic shared memory limit to `shmem` bytes on
  /// the instance's device (cudaFuncAttributeMaxDynamicSharedMemorySize),
  /// once per larger value.
  static void allow_shmem(const CudaInternal* space, int shmem) {
    static std::mutex mutex;
    static std::map<int, int> allowed;  // device -> bytes set
    std::lock_guard<std::mutex> lock(mutex);
    int& a = allowed[space->m_cudaDev];
    if (a >= shmem) return;
    const cudaError_t e = space->cuda_func_set_attribute_wrapper(
        invoker<>::get_kernel_func(), cudaFuncAttributeMaxDynamicSharedMemorySize, shmem);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      Kokkos::Impl::throw_runtime_exception(std::string("scratchkit: cannot allow ") + std::to_string(shmem) +
                                            " bytes of shared memory per block: " + cudaGetErrorString(e));
    }
    a = shmem;
  }

 public:

  ParallelFor(const functor_type& f, const Policy& p)
      : m_functor(f),
        m_policy(p),
        m_league_size(p.league_size()),
        m_team_size(p.team_size()),
        m_shmem_begin(0),
        m_shmem_size(0) {
    // launch() always sets the team size (the block's thread count) and vector length 1.
    if (m_team_size <= 0 || p.impl_vector_length() != 1)
      Kokkos::Impl::throw_runtime_exception(
          "scratchkit: the CUDA block driver needs an explicit team size and vector length 1");
    // The collective space (if the launch keeps it: the functor's m_team_space) is rounded up to
    // the layer's base alignment, so that the scratch after it starts aligned
    // and the kernel need not round its base; the plan's slack for that
    // rounding (base_alignment bytes at the end of the request) is then not
    // needed, and the total stays below what Kokkos' own driver asks for.
    constexpr int align = static_cast<int>(scratchkit::detail::base_alignment);
    const int requested = static_cast<int>(p.scratch_size(0, m_team_size));
    m_shmem_begin       = scratchkit::detail::cuda_block_reserve(m_team_size, f.m_team_space);
    m_shmem_size        = requested > align ? requested - align : 0;
    // Up to the opt-in limit (execute() raises the kernel's limit above 48 KB).
    const int max_shmem = detail_optin(m_policy.space().impl_internal_space_instance());
    if (m_shmem_begin + m_shmem_size > max_shmem)
      Kokkos::Impl::throw_runtime_exception(
          std::string("scratchkit: block scratch of ") + std::to_string(m_shmem_size) + " + " +
          std::to_string(m_shmem_begin) + " bytes is over the device's " + std::to_string(max_shmem) +
          " bytes of shared memory per block (with the opt-in)");
    // The team size was checked against this kernel's limit by launch()
    // (launch_at_level, cached per kernel): Kokkos' driver repeats that
    // occupancy calculation on every launch, this one does not.
  }
};

}  // namespace Impl
}  // namespace Kokkos
#endif
