// SPDX-License-Identifier: BSD-3-Clause
/// Launch description (grid, block shape, scratch) and launch() onto a Kokkos TeamPolicy.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/cuda_block_launch.hpp>
#include <scratchkit/detail/measurement.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/scratch_check.hpp>
#include <scratchkit/shared_array.hpp>

#include <climits>
#include <cstdlib>
#include <sstream>
#include <string>

/// Linkage of the library's kernel functions, the header function templates
/// whose bodies are KOKKOS_LAMBDAs (kernels/*.hpp): internal (`static`).
/// nvcc replaces an extended __host__ __device__ lambda with a wrapper type
/// named after its enclosing function, and copies that wrapper through
/// function pointers kept in a helper of the translation unit's anonymous
/// namespace, set when the lambda is constructed. With an enclosing function
/// of external linkage, the wrapper type, and every template instantiated with
/// it (launch, Kokkos' parallel_for), are the same in each translation unit
/// that calls the kernel. The linker keeps one copy, which reads the helper of
/// its own translation unit. A call from another translation unit, before any
/// from that one, then copies the lambda through a null pointer: a host
/// SIGSEGV in launch() (seen on the H100 when a test filter ran the rank-1
/// layouts case alone; docs/user-guide.md, "Kernels in headers"). With internal
/// linkage each translation unit keeps its own wrapper and instantiations.
/// Kernels users write in header templates meet the same limit: see
/// docs/user-guide.md, "Kernels in headers". Defined empty on the command
/// line, it restores external linkage: the ctest lambda_wrapper_linkage then
/// fails (930 weak symbols over lambda wrappers in scratchkit_multi_tu's objects).
#ifndef SCRATCHKIT_KERNEL_LINKAGE
#define SCRATCHKIT_KERNEL_LINKAGE static
#endif

namespace scratchkit {

/// Where a launch's scratch lives when it is over the level-0 limit.
enum class ScratchFallback {
  none,   ///< reject a request over the level-0 limit (default)
  level1  ///< place the whole block scratch in Kokkos level-1 scratch (slower, large)
};

/// Compile-time launch bounds, CUDA's `__launch_bounds__(MaxThreads, MinBlocks)`:
/// `launch<LaunchBounds<256, 2>>(exec, label, params, body)`. They reach the
/// compiler as Kokkos::LaunchBounds on the TeamPolicy (ignored on host
/// backends); a block of more than MaxThreads threads is rejected at launch.
/// The default, LaunchBounds<0, 0>, sets none.
///
/// KokkosDriver (CUDA, only with the optional block driver,
/// SCRATCHKIT_KOKKOS_CUDA_DRIVER): `true` keeps this kernel on Kokkos' generic
/// TeamPolicy driver, whose league loop around the body changes how ptxas
/// treats loops inside it: kernels that loop over planes or chunks inside a
/// block (stencil_3d) may keep their loop invariants in registers there
/// (docs/performance.md, "3-D stencil"). Without the block driver every launch
/// is on Kokkos' driver.
///
/// TeamLoop: a team of Kokkos' generic driver may run several consecutive
/// blocks of the grid, one after another with a barrier between them
/// (LaunchParams::blocks_per_team sets how many; block_rank() and block_idx()
/// are the block's, not the team's). Kokkos' driver starts every team with
/// work a CUDA block does not have (the level-1 scratch test, the league
/// loop, the team handle); in kernels of ~10^6 short blocks (1-D stencils:
/// ~100 instructions a thread) that start is several percent of the time, and
/// a team that runs a few blocks pays it once for all. The kernel must not
/// rely on blocks running concurrently (CUDA does not promise it either).
/// Ignored (one block per team) on the optional CUDA block driver, whose
/// blocks have no such start.
template <unsigned MaxThreads, unsigned MinBlocks = 1, bool KokkosDriver = false, bool TeamLoop = false>
struct LaunchBounds {
  static constexpr unsigned max_threads = MaxThreads;    ///< 0: no bound
  static constexpr unsigned min_blocks  = MinBlocks;     ///< blocks per SM the compiler should fit
  static constexpr bool kokkos_driver   = KokkosDriver;  ///< CUDA block driver builds: use Kokkos' driver
  static constexpr bool team_loop       = TeamLoop;      ///< a team may run several blocks
};
using NoLaunchBounds = LaunchBounds<0, 0>;
/// LaunchBounds with its switches by name: a team may run several blocks.
template <unsigned MaxThreads, unsigned MinBlocks = 1>
using TeamLoopBounds = LaunchBounds<MaxThreads, MinBlocks, false, true>;
/// LaunchBounds with its switches by name: Kokkos' driver in block driver builds (where On).
template <unsigned MaxThreads, unsigned MinBlocks = 1, bool On = true>
using KokkosDriverBounds = LaunchBounds<MaxThreads, MinBlocks, On, false>;

/// CUDA's limits on a block, applied on every backend so that a kernel that
/// runs on the host also runs on a GPU.
struct BlockLimits {
  static constexpr int max_threads = 1024;
  static constexpr int max_x       = 1024;
  static constexpr int max_y       = 1024;
  static constexpr int max_z       = 64;
};

/// A kernel launch: grid, block shape, the static scratch arrays the kernel
/// declares (`uses<...>`), the dynamic pool (`shared_mem_bytes`).
/// \code
/// auto p = scratchkit::LaunchParams({ceil_div(n, 16), ceil_div(m, 16)}, {16, 16})
///              .uses<Tile, Tile>()
///              .shared_mem_bytes(0);
/// \endcode
class LaunchParams {
 public:
  LaunchParams(Dim3 grid, Dim3 block) : m_grid(grid), m_block(block) {}

  /// Plans the static arrays, in the order the kernel constructs them; a
  /// SharedArrays<...> group plans each of its arrays in its order.
  template <class... Arrays>
  LaunchParams& uses() {
    (add_uses(static_cast<Arrays*>(nullptr)), ...);
    return *this;
  }
  // uses<>'s one array, or each array of a SharedArrays group in its order.
 private:
  template <class A>
  void add_uses(A*) {
    add_static(A::shmem_size(), A::shmem_align());
  }
  template <class... Arrays>
  void add_uses(SharedArrays<Arrays...>*) {
    (add_uses(static_cast<Arrays*>(nullptr)), ...);
  }

 public:
  /// Adds `bytes` of static scratch aligned to `align` (for arrays whose type is not at hand).
  LaunchParams& add_static(std::size_t bytes, std::size_t align) {
    if (!detail::is_pow2(align) || align > detail::base_alignment) {
      std::ostringstream os;
      os << "scratchkit::LaunchParams: static alignment " << align << " must be a power of two <= "
         << detail::base_alignment;
      throw LaunchError(os.str());
    }
    m_static = detail::round_up(m_static, align) + bytes;
    return *this;
  }
  /// Size of the dynamic pool in bytes (CUDA's third <<<>>> argument).
  LaunchParams& shared_mem_bytes(std::size_t bytes) {
    m_dynamic = bytes;
    return *this;
  }
  /// Sizes the dynamic pool from a layout of partitions, and checks them
  /// against the pool at launch (as `require(layout)`).
  LaunchParams& shared_mem_bytes(const DynamicLayout& layout) {
    m_dynamic = layout.bytes();
    m_layout  = layout;
    return *this;
  }
  /// Checks (at launch, before it) that the layout's partitions fit in the pool.
  LaunchParams& require(const DynamicLayout& layout) {
    m_layout = layout;
    return *this;
  }
  /// What to do when the scratch request is over the level-0 limit.
  LaunchParams& fallback(ScratchFallback f) {
    m_fallback = f;
    return *this;
  }
  /// With LaunchBounds' TeamLoop: how many consecutive blocks one team runs
  /// (at least 1; the last team runs what is left). Without TeamLoop, or on
  /// the optional CUDA block driver, every team runs one block.
  LaunchParams& blocks_per_team(int n) {
    if (n < 1) throw LaunchError("scratchkit::LaunchParams::blocks_per_team: " + std::to_string(n) + " must be >= 1");
    m_per_team = n;
    return *this;
  }
  /// With LaunchBounds' TeamLoop: a team's successive blocks alternate between
  /// two copies of the scratch (static arrays and dynamic pool), so the team
  /// loop needs no barrier between one block and the next. Only for a body in
  /// which every thread reaches at least one sync_threads in every block: that
  /// barrier, in block r + 1, is what keeps block r + 2 from writing the copy
  /// block r may still be reading. The team's scratch doubles where a team runs
  /// more than one block; where two copies do not fit in level 0 the launch
  /// keeps one copy and the barrier (LaunchPlan::scratch_stride says which).
  /// No effect without TeamLoop or on the optional CUDA block driver.
  LaunchParams& alternate_scratch(bool on = true) {
    m_alternate = on;
    return *this;
  }
  /// Lets a grid with no blocks launch nothing instead of throwing. CUDA
  /// rejects an empty grid, and so does launch() by default: a grid sized
  /// from an empty input is usually a caller's mistake or an unhandled edge
  /// (see docs/user-guide.md, "Edge semantics").
  LaunchParams& allow_empty_grid(bool allow = true) {
    m_allow_empty = allow;
    return *this;
  }
  /// Host backends: team size to use (default: as many as the backend allows,
  /// at most the block's threads). Ignored on GPU backends, where the team is
  /// always the whole block.
  LaunchParams& host_team_size(int n) {
    m_host_team = n;
    return *this;
  }
  /// Runs this launch under the scratch checker (host backends, builds with
  /// SCRATCHKIT_ENABLE_SCRATCH_CHECK; docs/checker.md): races, uninitialised
  /// reads and bank conflicts, reported at the end of the launch. On the
  /// host the launch then runs each block on one team member.
  LaunchParams& check_scratch(const ScratchCheck& c = ScratchCheck()) {
    m_check = c;
    return *this;
  }
  /// A preferred occupancy in percent (1-100; 0: none), handed to Kokkos as
  /// `Kokkos::Experimental::prefer(policy, DesiredOccupancy(percent))`: on
  /// CUDA, Kokkos sets the kernel's shared-memory carveout from it
  /// (occupancy_report shows which). Host backends have nothing to tune.
  LaunchParams& desired_occupancy(int percent) {
    if (percent < 0 || percent > 100)
      throw LaunchError("scratchkit::LaunchParams::desired_occupancy: " + std::to_string(percent) +
                        " is not a percentage in [0, 100]");
    m_occupancy = percent;
    return *this;
  }

  Dim3 grid() const { return m_grid; }
  Dim3 block() const { return m_block; }
  std::size_t static_bytes() const { return m_static; }
  std::size_t dynamic_bytes() const { return m_dynamic; }
  ScratchFallback scratch_fallback() const { return m_fallback; }
  int requested_host_team_size() const { return m_host_team; }
  int requested_blocks_per_team() const { return m_per_team; }
  bool alternates_scratch() const { return m_alternate; }
  bool empty_grid_allowed() const { return m_allow_empty; }
  const DynamicLayout& required_layout() const { return m_layout; }
  bool has_required_layout() const { return m_layout.bytes() > 0; }
  const ScratchCheck& scratch_check() const { return m_check; }
  int desired_occupancy() const { return m_occupancy; }

 private:
  Dim3 m_grid, m_block;
  std::size_t m_static    = 0;
  std::size_t m_dynamic   = 0;
  DynamicLayout m_layout;
  ScratchFallback m_fallback = ScratchFallback::none;
  int m_host_team            = 0;
  int m_per_team             = 1;
  bool m_allow_empty         = false;
  bool m_alternate           = false;
  ScratchCheck m_check{false};
  int m_occupancy = 0;
};

/// How a launch maps onto Kokkos; `plan_launch` computes it without launching.
struct LaunchPlan {
  int league_size       = 0;  ///< number of teams (the grid's blocks, or fewer when a team runs several)
  int blocks            = 0;  ///< number of blocks of the grid
  int blocks_per_team   = 1;  ///< consecutive blocks one team runs (LaunchBounds' TeamLoop)
  int team_size         = 0;  ///< hardware threads per team (chosen by launch(); 0 from plan_launch)
  int logical_threads   = 0;  ///< threads per block
  int scratch_level     = 0;  ///< 0, or 1 under ScratchFallback::level1
  std::size_t scratch_bytes   = 0;  ///< bytes requested per team
  /// Offset of a team's second scratch copy (LaunchParams::alternate_scratch
  /// taken: blocks alternate between the copies, no barrier between blocks);
  /// 0: one copy. launch() still takes one copy where the backend's team
  /// limit with two is below the block (on CUDA: the launch bounds' blocks
  /// per SM times the doubled scratch must fit in one SM).
  std::size_t scratch_stride  = 0;
  std::size_t level0_max      = 0;  ///< the backend's level-0 limit per team
  std::size_t level1_max      = 0;  ///< the backend's level-1 limit per team
  detail::BlockGeometry geometry{};
};

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

/// The block's scratch base as the kernel should see it: the pointer Kokkos
/// hands out, raised to base_alignment. On CUDA level 0 that pointer is
/// generic, and nvcc cannot prove it is in shared memory: every access would
/// be a generic ld/st. Rebuilding it from a `__shared__` symbol plus its
/// offset in the shared window lets every access compile to
/// ld.shared/st.shared, as in a native kernel (docs/performance.md, "Launch and scratch"); the
/// rounding is done on the 32-bit window offset (the window is aligned far
/// beyond 128 bytes), which saves the 64-bit arithmetic in every block.
template <class ExecSpace, int Level, bool Direct>
KOKKOS_INLINE_FUNCTION char* scratch_window(char* p) {
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
  if constexpr (Level == 0 && std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    static_assert(base_alignment == 128, "scratch_window: update the __align__ below");
    extern __shared__ __align__(128) char scratchkit_shared_base[];
    // p rounded up to base_alignment, on its 32-bit offset from the symbol.
    // The symbol is 128-aligned, so rounding the offset is rounding p; and an
    // offset whose low bits are visibly clear lets nvcc prove every tile row's
    // alignment and vectorise row reads (ld.shared.v4) as it does for a
    // `__shared__` array (docs/performance.md, "Launch and scratch").
    constexpr unsigned mask = static_cast<unsigned>(base_alignment) - 1u;
    const unsigned s        = static_cast<unsigned>(__cvta_generic_to_shared(p));
    const unsigned s0       = static_cast<unsigned>(__cvta_generic_to_shared(scratchkit_shared_base));
    if constexpr (Direct) {
      // The layer's CUDA driver (detail/cuda_block_launch.hpp) places the
      // scratch at a 128-aligned offset from the symbol already: the mask
      // only tells nvcc so, the rounding is not needed.
      return assume_aligned<base_alignment>(scratchkit_shared_base + ((s - s0) & ~mask));
    } else {
      return assume_aligned<base_alignment>(scratchkit_shared_base + ((s - s0 + mask) & ~mask));
    }
  }
#endif
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
  return p + (round_up(a, base_alignment) - a);
}

/// Kokkos functor: builds the Block from the team and calls the kernel body.
/// The scratch level is a template parameter so that level-0 scratch is known
/// to be shared memory at compile time; Direct: launched by the layer's CUDA
/// block driver (detail/cuda_block_launch.hpp), which aligns the scratch;
/// Loop: the team runs several blocks (LaunchBounds' TeamLoop), with a
/// barrier between them; Alt: without it, alternating between two scratch
/// copies m_stride bytes apart (LaunchParams::alternate_scratch), or with one
/// copy (m_stride 0) where the launch has no scratch.
template <class ExecSpace, class F, int Level, bool Direct, bool Loop, bool Alt>
struct BlockFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  F m_f;
  BlockGeometry m_geo;
  int m_per_team = 1;
  int m_blocks   = 0;
  bool m_strided = false;  ///< TeamLoop order: strided instead of consecutive blocks
  std::size_t m_stride = 0;  ///< Alt: offset of the second scratch copy (0: no scratch)
#ifdef SCRATCHKIT_ENABLE_SCRATCH_CHECK
  // The launch's scratch checker, or none: a scheck::LaunchCheck on the host. Untyped, and
  // present in device passes too, so the functor has one layout on both sides of nvcc.
  void* m_check = nullptr;
#endif

  KOKKOS_INLINE_FUNCTION void run(const Block<ExecSpace>& b, char* base) const {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    const scheck::BlockRun record(static_cast<scheck::LaunchCheck*>(m_check), base,
                                  m_geo.dynamic_begin + m_geo.dynamic_bytes, b.block_idx().x, b.block_idx().y,
                                  b.block_idx().z, m_geo.block.x, m_geo.block.y);
#endif
    (void)base;
    m_f(b);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    // The start of the team's scratch: the launch reserved plan.scratch_bytes
    // there (set_scratch_size), so no allocation is needed, and a request of
    // 0 bytes lets the compiler drop get_shmem's capacity check and its
    // null-pointer path from every block.
    char* base =
        scratch_window<ExecSpace, Level, Direct>(static_cast<char*>(team.team_scratch(Level).get_shmem(0)));
    if constexpr (Loop) {
      // Consecutive: team t runs blocks t*k ... t*k + k - 1. Strided: team t
      // runs t, t + L, t + 2L, ... (L teams), so the teams resident at one
      // time work on neighbouring blocks, as a CUDA grid's blocks do.
      const int first = m_strided ? team.league_rank() : team.league_rank() * m_per_team;
      const int step  = m_strided ? team.league_size() : 1;
      const int last  = m_strided ? m_blocks : (first + m_per_team < m_blocks ? first + m_per_team : m_blocks);
      if constexpr (Alt) {
        // Block r + 1 writes the copy block r does not read, and a thread
        // reaches block r + 2 (the same copy as r) only past a barrier of
        // block r + 1, which every thread reaches after its part of block r.
        // The stride is a multiple of base_alignment. A separate
        // instantiation, so that the barrier loop below compiles as it did
        // before (the 1-D halo_tile lost 2-5 % when both shared one body;
        // docs/performance.md, "Several blocks per team").
        std::size_t at = 0;
        for (int r = first; r < last; r += step) {
          run(Block<ExecSpace>(team, m_geo, assume_aligned<base_alignment>(base + at), r), base + at);
          at = at == 0 ? m_stride : 0;
        }
      } else {
        for (int r = first; r < last; r += step) {
          // The previous block's last phase may still read the scratch the
          // next one's first phase writes.
          if (r != first) team.team_barrier();
          run(Block<ExecSpace>(team, m_geo, base, r), base);
        }
      }
    } else {
      run(Block<ExecSpace>(team, m_geo, base, team.league_rank()), base);
    }
  }
};

/// The order in which a team of LaunchBounds' TeamLoop runs its blocks:
/// strided (team t runs t, t + L, ..., so the teams resident at one time read
/// neighbouring blocks, as a CUDA grid's do), the faster order on every
/// short-block row measured (docs/performance.md, "Several blocks per team");
/// consecutive (t*k ... t*k + k - 1) only as a measurement override.
inline bool team_loop_strided() { return !measurement_knobs().team_loop_consecutive; }

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

/// Whether launches may take LaunchParams::alternate_scratch: yes, unless a
/// measurement override asks for one scratch copy (to measure the barrier it removes).
inline bool team_loop_alternate_allowed() { return !measurement_knobs().team_loop_single_scratch; }

/// Host backends: team members per block when the launch asks for none. A host team's members
/// share a block by running its warps in turn, with a team barrier at every sync_threads; one
/// member per block has no barrier to wait at and gives every host thread its own blocks. So a
/// league of at least two teams per thread runs one member per block; a smaller one spreads
/// each block over the members the backend allows (team_max), so that a few blocks of uneven
/// cost still keep every thread busy.
inline int host_team_size(int team_max, long long league, int concurrency) {
  const int forced = measurement_knobs().host_team_size;
  if (forced > 0) return forced;
  return league >= 2LL * concurrency ? 1 : team_max;
}

/// The backend's level-0 and level-1 scratch limits per team. They are
/// properties of the device Kokkos was initialised on, and asking Kokkos::Cuda
/// constructs an execution-space instance (a heap allocation) per query, so
/// they are read once per process and space.
template <class ExecSpace>
struct ScratchLimits {
  std::size_t level0, level1;
  static const ScratchLimits& get() {
    using policy_type = Kokkos::TeamPolicy<ExecSpace>;
    static const ScratchLimits limits{static_cast<std::size_t>(policy_type::scratch_size_max(0)),
                                      static_cast<std::size_t>(policy_type::scratch_size_max(1))};
    return limits;
  }
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
/// whole per-block shared memory (227 KB on an H100) less the team space it
/// keeps; elsewhere Kokkos' TeamPolicy::scratch_size_max(0) (Kokkos 4.6 on
/// CUDA: 48 KB less ~8 KB it reserves).
template <class ExecSpace, class Bounds>
std::size_t level0_max(int threads) {
#if SCRATCHKIT_CUDA_BLOCK_DRIVER
  if constexpr (block_driver_launch<ExecSpace, Bounds>) return cuda_block_level0_max(threads);
#endif
  (void)threads;
  return ScratchLimits<ExecSpace>::get().level0;
}

/// Requests above this many bytes (static or dynamic) are beyond any device;
/// refusing them first keeps the sums in scratch_request from overflowing.
constexpr std::size_t absurd_scratch = std::size_t(1) << 48;

/// The scratch a launch requests per team: static arrays, then the dynamic
/// pool at the next 128-byte boundary, plus 128 bytes of slack (the base is
/// raised to 128 bytes inside the kernel), rounded up to 8 bytes.
inline std::size_t scratch_request(const LaunchParams& p) {
  return round_up(round_up(p.static_bytes(), base_alignment) + p.dynamic_bytes() + base_alignment, 8);
}

/// The policy with Kokkos' public occupancy hint.
template <class Policy>
auto with_desired_occupancy(const Policy& policy, int percent) {
  return Kokkos::Experimental::prefer(policy, Kokkos::Experimental::DesiredOccupancy(percent));
}

/// One launch with the functor for scratch level `Level` (Alt: see BlockFunctor).
/// Returns false, launching nothing, where `may_decline` is set and the
/// backend's team limit for this plan is below the block (the caller then
/// tries one scratch copy); throws LaunchError there otherwise.
template <class Bounds, int Level, bool Alt, class ExecSpace, class F>
bool launch_with(const ExecSpace& exec, const char* label, const LaunchParams& p, LaunchPlan plan, const F& body,
                 bool may_decline = false) {
  using policy_type = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<Bounds::max_threads, Bounds::min_blocks>>;
  constexpr bool direct = block_driver_launch<ExecSpace, Bounds> && Level == 0;
  constexpr bool loop = Bounds::team_loop && !direct;
  using functor_type = BlockFunctor<ExecSpace, F, Level, direct, loop, Alt>;
  functor_type functor{body, plan.geometry, plan.blocks_per_team, plan.blocks, team_loop_strided(),
                       Alt ? plan.scratch_stride : 0};
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
  functor.m_check = scheck::launching;
#endif
  // The backend's team limit for this functor and scratch size. On a GPU it
  // depends only on the kernel, the device and the scratch request, and
  // asking Kokkos for it is an occupancy calculation (and two TeamPolicy
  // constructions) on every launch: keep the last answer per kernel and thread.
  struct TeamMaxCache {
    int device = -1;
    std::size_t scratch = 0;
    int threads  = 0;  // the block driver's shared memory depends on it (its team space)
    int team_max = 0;
  };
  static thread_local TeamMaxCache cache;
  const int device = device_key(exec);
  int team_max;
  if (device >= 0 && cache.device == device && cache.scratch == plan.scratch_bytes &&
      cache.threads == plan.logical_threads) {
    team_max = cache.team_max;
  } else {
#if SCRATCHKIT_CUDA_BLOCK_DRIVER
    if constexpr (direct) {
      // The block driver's own answer, which covers scratch above 48 KB
      // (Kokkos' team_size_max answers 0 there): CUDA's occupancy
      // calculator for the kernel with the block's shared memory.
      using driver_type = Kokkos::Impl::ParallelFor<functor_type, policy_type, Kokkos::Cuda>;
      const std::size_t shmem = cuda_block_reserve(plan.logical_threads) + plan.scratch_bytes - base_alignment;
      team_max = driver_type::team_size_max(exec, static_cast<int>(shmem), Bounds::min_blocks);
    } else
#endif
    {
      team_max = policy_type(exec, plan.league_size, 1, 1)
                     .set_scratch_size(Level, Kokkos::PerTeam(static_cast<int>(plan.scratch_bytes)))
                     .team_size_max(functor, Kokkos::ParallelForTag());
    }
    if (device >= 0) cache = TeamMaxCache{device, plan.scratch_bytes, plan.logical_threads, team_max};
  }
  if (is_gpu_space<ExecSpace>::value) {
    if (plan.logical_threads > team_max && may_decline) return false;
    if (plan.logical_threads > team_max) {
      std::ostringstream err;
      err << "scratchkit: cannot launch kernel '" << label << "' on " << space_name<ExecSpace>() << ": block of "
          << plan.logical_threads << " threads " << dim_str(p.block())
          << " is over this kernel's team size limit of " << team_max
          << " (registers and scratch of this kernel on this device";
      if (Bounds::min_blocks > 1)
        err << "; its launch bounds ask for " << Bounds::min_blocks << " blocks per SM, so "
            << Bounds::min_blocks << " times its " << plan.scratch_bytes << " bytes of scratch must fit in one SM";
      err << ")";
      throw LaunchError(err.str());
    }
    plan.team_size = plan.logical_threads;
  } else {
    // Host team members own whole warps: more members than warps would idle.
    const int warps = (plan.logical_threads + plan.geometry.warp - 1) / plan.geometry.warp;
    int t = p.requested_host_team_size() > 0 ? p.requested_host_team_size()
                                               : host_team_size(team_max, plan.league_size, exec.concurrency());
    if (t > team_max) t = team_max;
    if (t > warps) t = warps;
    plan.team_size = t < 1 ? 1 : t;
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    if (scheck::launching) plan.team_size = 1;  // the checker records a block from one host thread
#endif
  }
  const auto policy = policy_type(exec, plan.league_size, plan.team_size, 1)
                          .set_scratch_size(Level, Kokkos::PerTeam(static_cast<int>(plan.scratch_bytes)));
  if constexpr (is_gpu_space<ExecSpace>::value) {
    // A second instantiation only on GPUs: host backends ignore the hint.
    if (p.desired_occupancy() > 0) {
      Kokkos::parallel_for(cached_label<functor_type>(label), with_desired_occupancy(policy, p.desired_occupancy()),
                           functor);
      return true;
    }
  }
  Kokkos::parallel_for(cached_label<functor_type>(label), policy, functor);
  return true;
}

/// Runs one launch with the functor for scratch level `Level`: with
/// LaunchBounds' TeamLoop, the team loop without barriers where the plan has
/// two scratch copies or the launch has no scratch (a team's blocks share
/// nothing else: blocks of a grid are unordered, in CUDA too).
template <class Bounds, int Level, class ExecSpace, class F>
void launch_at_level(const ExecSpace& exec, const char* label, const LaunchParams& p, LaunchPlan plan,
                     const F& body) {
  constexpr bool loop = Bounds::team_loop && !(block_driver_launch<ExecSpace, Bounds> && Level == 0);
  if constexpr (loop) {
    if (plan.blocks_per_team > 1 && team_loop_alternate_allowed()) {
      if (p.static_bytes() + p.dynamic_bytes() == 0) {
        launch_with<Bounds, Level, true>(exec, label, p, plan, body);
        return;
      }
      // Two copies fit level 0 (plan_launch), but the launch bounds' blocks
      // per SM times the doubled scratch may not fit an SM: then one copy.
      if (plan.scratch_stride != 0 && launch_with<Bounds, Level, true>(exec, label, p, plan, body, true)) return;
    }
  }
  plan.scratch_stride = 0;
  plan.scratch_bytes  = scratch_request(p);
  launch_with<Bounds, Level, false>(exec, label, p, plan, body);
}

/// The furthest fallback the library's kernels ask for: level 1 on host
/// backends only (a large blocking may be over their level 0), so that on a
/// GPU they compile the level-0 kernel alone.
template <class ExecSpace>
inline constexpr ScratchFallback kernel_fallback =
    is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1;

/// The error for a level-1 request to a body compiled for level 0 only.
inline LaunchError level0_only_error(const char* label, std::size_t bytes) {
  std::ostringstream err;
  err << "scratchkit: cannot launch kernel '" << label << "' with " << bytes
      << " bytes of level-1 scratch: it is compiled for level-0 scratch only (launch<Bounds, "
         "ScratchFallback::none>)";
  return LaunchError(err.str());
}

/// launch() under the scratch checker: the blocks record their accesses, the
/// report is finished once the launch has run. Host backends only, so a GPU
/// launch compiles none of it.
template <class Bounds, ScratchFallback MaxFallback, class ExecSpace, class F>
void check_scratch_launch(const ExecSpace& exec, const char* label, const LaunchParams& p, const LaunchPlan& plan,
                          const F& body, const ScratchCheck& check) {
  if constexpr (is_gpu_space<ExecSpace>::value) {
    (void)exec, (void)p, (void)plan, (void)body, (void)check;
    throw UnsupportedError(std::string("scratchkit: kernel '") + label + "': the scratch checker runs on host "
                           "backends only, not on " + space_name<ExecSpace>());
  } else {
#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
    scheck::LaunchCheck lc(check, label, space_name<ExecSpace>(), warp_size<ExecSpace>());
    struct Launching {
      explicit Launching(scheck::LaunchCheck* l) { scheck::launching = l; }
      ~Launching() { scheck::launching = nullptr; }
    } launching(&lc);
    if (plan.scratch_level == 0) {
      launch_at_level<Bounds, 0>(exec, label, p, plan, body);
    } else if constexpr (MaxFallback == ScratchFallback::level1) {
      launch_at_level<Bounds, 1>(exec, label, p, plan, body);
    } else {
      throw level0_only_error(label, plan.scratch_bytes);
    }
    exec.fence();
    scheck::launching = nullptr;
    lc.finish();
#else
    (void)exec, (void)p, (void)plan, (void)body, (void)check;
    throw UnsupportedError(std::string("scratchkit: kernel '") + label + "': the scratch checker is not compiled in "
                           "(configure scratchkit with -DSCRATCHKIT_ENABLE_SCRATCH_CHECK=ON)");
#endif
  }
}

}  // namespace detail

/// Validates a launch and computes its mapping onto a Kokkos TeamPolicy.
/// Throws LaunchError (naming the requested and allowed values) for a block
/// shape the backend cannot run, an empty grid (unless allowed) or one too large, scratch over the limit, or
/// dynamic partitions past the pool. Nothing is launched. `Bounds`: the
/// launch bounds launch() will be given (they decide, on CUDA, which driver
/// runs the launch and so its level-0 limit).
/// `label` (optional): the kernel, named in every error (launch() passes its own).
template <class ExecSpace, class Bounds = NoLaunchBounds>
LaunchPlan plan_launch(const LaunchParams& p, const char* label = nullptr) {
  LaunchPlan plan;
  const Dim3 g = p.grid(), b = p.block();
  // The message stream is built only on failure: constructing an ostringstream
  // costs about a microsecond of host time on every launch, before the kernel
  // is enqueued.
  const auto begin_error = [label](std::ostringstream& err) {
    err << "scratchkit: cannot launch ";
    if (label) err << "kernel '" << label << "' ";
    err << "on " << detail::space_name<ExecSpace>() << ": ";
  };

  if (b.x < 1 || b.y < 1 || b.z < 1 || b.x > BlockLimits::max_x || b.y > BlockLimits::max_y ||
      b.z > BlockLimits::max_z || b.count() > BlockLimits::max_threads) {
    std::ostringstream err;
    begin_error(err);
    err << "block shape " << detail::dim_str(b) << " (" << b.count()
        << " threads) is outside the limits: each dimension >= 1, x,y <= " << BlockLimits::max_x
        << ", z <= " << BlockLimits::max_z << ", at most " << BlockLimits::max_threads << " threads";
    throw LaunchError(err.str());
  }
  if (g.x < 0 || g.y < 0 || g.z < 0 || g.count() > INT_MAX) {
    std::ostringstream err;
    begin_error(err);
    err << "grid " << detail::dim_str(g) << " must be non-negative with at most " << INT_MAX << " blocks";
    throw LaunchError(err.str());
  }
  if (g.count() == 0 && !p.empty_grid_allowed()) {
    std::ostringstream err;
    begin_error(err);
    err << "grid " << detail::dim_str(g)
        << " has no blocks; CUDA rejects an empty grid too (cudaErrorInvalidConfiguration). Return before the "
           "launch when the input is empty, or allow it with LaunchParams::allow_empty_grid()";
    throw LaunchError(err.str());
  }
  if (p.has_required_layout()) p.required_layout().require_fits(p.dynamic_bytes(), label);
  if (p.static_bytes() > detail::absurd_scratch || p.dynamic_bytes() > detail::absurd_scratch) {
    std::ostringstream err;
    begin_error(err);
    err << "block scratch request of static " << p.static_bytes() << " + dynamic " << p.dynamic_bytes()
        << " bytes is beyond any device (level-0 scratch has "
        << detail::level0_max<ExecSpace, Bounds>(static_cast<int>(b.count())) << " bytes available per team)";
    throw LaunchError(err.str());
  }

  plan.blocks          = static_cast<int>(g.count());
  plan.blocks_per_team = 1;
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // At most the requested k, and never so many that fewer than four waves
    // of teams are left: a grid of a few thousand blocks keeps every SM busy.
    const long long waves4 = 4 * detail::resident_teams<ExecSpace>(static_cast<int>(b.count()));
    const long long cap    = plan.blocks / waves4 > 1 ? plan.blocks / waves4 : 1;
    const int k            = p.requested_blocks_per_team();
    plan.blocks_per_team   = k < cap ? k : static_cast<int>(cap);
  }
  plan.league_size     = plan.blocks == 0 ? 0 : (plan.blocks - 1) / plan.blocks_per_team + 1;
  plan.logical_threads = static_cast<int>(b.count());
  const std::size_t dyn_begin = detail::round_up(p.static_bytes(), detail::base_alignment);
  plan.scratch_bytes          = detail::scratch_request(p);
  plan.level0_max    = detail::level0_max<ExecSpace, Bounds>(plan.logical_threads);
  plan.level1_max    = detail::ScratchLimits<ExecSpace>::get().level1;
  plan.geometry      = detail::BlockGeometry(g, b, p.static_bytes(), p.dynamic_bytes(), dyn_begin,
                                               warp_size<ExecSpace>());
  if constexpr (Bounds::team_loop && !detail::block_driver_launch<ExecSpace, Bounds>) {
    // A second copy of the block's scratch at the next base_alignment
    // boundary past the first, when the team runs several blocks and both
    // copies fit in level 0 (one copy and the loop's barrier otherwise).
    if (p.alternates_scratch() && plan.blocks_per_team > 1 && detail::team_loop_alternate_allowed()) {
      const std::size_t stride = detail::round_up(dyn_begin + p.dynamic_bytes(), detail::base_alignment);
      const std::size_t two    = detail::round_up(stride + dyn_begin + p.dynamic_bytes() + detail::base_alignment, 8);
      if (two <= plan.level0_max) {
        plan.scratch_bytes  = two;
        plan.scratch_stride = stride;
      }
    }
  }

  if (plan.scratch_bytes <= plan.level0_max) {
    plan.scratch_level = 0;
  } else if (p.scratch_fallback() == ScratchFallback::level1 && plan.scratch_bytes <= plan.level1_max) {
    plan.scratch_level = 1;
  } else {
    std::ostringstream err;
    begin_error(err);
    err << "block scratch of " << plan.scratch_bytes << " bytes requested (static " << p.static_bytes()
        << " + dynamic " << p.dynamic_bytes() << " + " << (plan.scratch_bytes - p.static_bytes() - p.dynamic_bytes())
        << " alignment), but level-0 scratch has " << plan.level0_max << " bytes available per team";
    if (detail::is_gpu_space<ExecSpace>::value && plan.level0_max <= 48 * 1024)
      err << " (Kokkos " << KOKKOS_VERSION / 10000 << "." << KOKKOS_VERSION / 100 % 100 << "." << KOKKOS_VERSION % 100
          << " offers no more than 48 KB of shared memory per team"
#if defined(KOKKOS_ENABLE_CUDA)
          << "; a Kokkos that opts in above 48 KB (kokkos/kokkos pull request #9012), or scratchkit's CUDA"
             " block driver (CMake -DSCRATCHKIT_KOKKOS_CUDA_DRIVER=ON), gives up to the device's opt-in limit"
#endif
          << ")";
    // The library's own kernels (labels "scratchkit::...") choose their
    // scratch themselves: their callers get the kernel's own terms from its
    // entry point, not a LaunchParams setting they cannot reach.
    const bool library_kernel = label != nullptr && std::string(label).rfind("scratchkit::", 0) == 0;
    if (p.scratch_fallback() == ScratchFallback::level1)
      err << " and level-1 scratch " << plan.level1_max << " bytes";
    else if (!library_kernel)
      err << " (a kernel written on the layer may allow level-1 scratch, up to " << plan.level1_max
          << " bytes, with LaunchParams::fallback(ScratchFallback::level1))";
    throw LaunchError(err.str());
  }
  return plan;
}

/// Whether the scratch of a launch with these parameters fits in level 0 on
/// ExecSpace for a launch with these bounds, as plan_launch will count it:
/// what a kernel that picks its tile size at run time asks (as a native one
/// reads cudaDeviceProp::sharedMemPerBlockOptin). Checks nothing else.
template <class ExecSpace, class Bounds = NoLaunchBounds>
bool fits_level0(const LaunchParams& p) {
  if (p.static_bytes() > detail::absurd_scratch || p.dynamic_bytes() > detail::absurd_scratch) return false;
  return detail::scratch_request(p) <= detail::level0_max<ExecSpace, Bounds>(static_cast<int>(p.block().count()));
}

/// Launches `body(const Block<ExecSpace>&)` once per block of the grid on
/// `exec`, as a Kokkos::parallel_for over a TeamPolicy named `label`.
/// Asynchronous like any Kokkos kernel: fence `exec` before reading results.
/// `Bounds` (optional, first template argument) sets launch bounds:
/// `launch<LaunchBounds<256, 2>>(exec, label, params, body)`.
/// `MaxFallback` (optional, second) is the furthest ScratchFallback this call
/// may ask for at run time: the default compiles the body for level-0 and
/// level-1 scratch; ScratchFallback::none compiles the level-0 kernel only
/// (half the device code), and a LaunchParams asking for level 1 is refused.
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = ScratchFallback::level1, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const char* label, const LaunchParams& p, const F& body) {
  LaunchPlan plan = plan_launch<ExecSpace, Bounds>(p, label);
  if (Bounds::max_threads > 0 && plan.logical_threads > static_cast<long long>(Bounds::max_threads)) {
    std::ostringstream err;
    err << "scratchkit: cannot launch kernel '" << label << "': block of " << plan.logical_threads << " threads "
        << detail::dim_str(p.block()) << " is over its launch bounds of " << Bounds::max_threads << " threads";
    throw LaunchError(err.str());
  }
  // Only a launch that allowed it reaches here with an empty grid (plan_launch
  // throws otherwise, as CUDA rejects a zero grid); it has still had every
  // other check, and launches nothing.
  if (plan.league_size == 0) return;
  const ScratchCheck* check = p.scratch_check().enabled ? &p.scratch_check() : detail::scratch_check_scope;
  if (check != nullptr && check->enabled) {
    detail::check_scratch_launch<Bounds, MaxFallback>(exec, label, p, plan, body, *check);
    return;
  }
  if (plan.scratch_level == 0) {
    detail::launch_at_level<Bounds, 0>(exec, label, p, plan, body);
  } else if constexpr (MaxFallback == ScratchFallback::level1) {
    detail::launch_at_level<Bounds, 1>(exec, label, p, plan, body);
  } else {
    throw detail::level0_only_error(label, plan.scratch_bytes);
  }
}

/// launch() with a label built at run time.
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = ScratchFallback::level1, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const std::string& label, const LaunchParams& p, const F& body) {
  launch<Bounds, MaxFallback>(exec, label.c_str(), p, body);
}

/// ceil(a / b) for sizes, as grid arithmetic needs it.
KOKKOS_INLINE_FUNCTION constexpr int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

}  // namespace scratchkit
