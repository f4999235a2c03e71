// SPDX-License-Identifier: BSD-3-Clause
/// The block a kernel runs on: shape, index, logical threads, sync_threads.
#pragma once

#include <scratchkit/detail/backend.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/scratch_check.hpp>
#include <scratchkit/errors.hpp>


#include <atomic>
#include <string>
#include <type_traits>

namespace scratchkit {

namespace detail {
/// Lanes of a hardware warp of GPU execution space ExecSpace: 32 on NVIDIA
/// GPUs; on AMD GPUs the wavefront of the architecture Kokkos was built for
/// (the same choice as Kokkos' HIPTraits::WarpSize): 32 on RDNA, 64 on GCN and
/// CDNA (gfx906 to gfx942: MI50 to MI300).
template <class ExecSpace>
struct gpu_warp_size : std::integral_constant<int, 32> {};
#if defined(KOKKOS_ENABLE_HIP)
#if defined(KOKKOS_ARCH_AMD_GFX1030) || defined(KOKKOS_ARCH_AMD_GFX1100) || defined(KOKKOS_ARCH_AMD_GFX1103) || \
    defined(KOKKOS_ARCH_AMD_GFX1201)
#define SCRATCHKIT_HIP_WARP_SIZE 32
#else
#define SCRATCHKIT_HIP_WARP_SIZE 64
#endif
// The device compiler knows the wavefront it compiles for: a Kokkos arch that disagrees is caught here.
#if defined(__HIP_DEVICE_COMPILE__) && defined(__AMDGCN_WAVEFRONT_SIZE)
static_assert(__AMDGCN_WAVEFRONT_SIZE == SCRATCHKIT_HIP_WARP_SIZE,
              "scratchkit: the wavefront size of the AMD GPU compiled for is not the one of Kokkos' arch");
#endif
template <>
struct gpu_warp_size<Kokkos::HIP> : std::integral_constant<int, SCRATCHKIT_HIP_WARP_SIZE> {};
#endif

inline std::atomic<int>& host_warp_size_setting() {
  static std::atomic<int> lanes{32};
  return lanes;
}
}  // namespace detail

/// Sets the warp size host backends (Serial, OpenMP, Threads) give the blocks
/// of later launches: 32 (an NVIDIA warp; the default) or 64 (an AMD
/// wavefront), so that a kernel's warp collectives and warp-dependent
/// results can be checked for either GPU on a laptop. Process-wide; takes
/// effect at the next launch (a launch keeps the size it started with). GPU
/// backends always run their hardware's warp. Throws UnsupportedError for
/// any other size.
/// \code
/// scratchkit::set_host_warp_size(64);  // host blocks now run 64-lane warps, as on an MI250X
/// \endcode
inline void set_host_warp_size(int lanes) {
  if (lanes != 32 && lanes != 64)
    throw UnsupportedError("scratchkit::set_host_warp_size: " + std::to_string(lanes) +
                           " lanes; host backends run warps of 32 (NVIDIA) or 64 (AMD) lanes");
  detail::host_warp_size_setting().store(lanes, std::memory_order_relaxed);
}
/// The warp size host backends give blocks now (set_host_warp_size; 32 by default).
inline int host_warp_size() { return detail::host_warp_size_setting().load(std::memory_order_relaxed); }

/// The warp size of blocks launched now on execution space ExecSpace: the
/// hardware's on a GPU (32 on NVIDIA, 64 on AMD CDNA), host_warp_size() on a
/// host backend. What Block::warp_size() returns inside those blocks.
/// \code
/// const int w = scratchkit::warp_size<Kokkos::DefaultExecutionSpace>();
/// \endcode
template <class ExecSpace>
int warp_size() {
  if constexpr (!detail::is_gpu_space<ExecSpace>::value) return host_warp_size();
  return detail::gpu_warp_size<ExecSpace>::value;
}

/// A 1-, 2- or 3-D extent, as CUDA's dim3 (unused dimensions are 1).
struct Dim3 {
  int x = 1, y = 1, z = 1;
  constexpr Dim3() = default;  // no __host__ __device__ on a defaulted constructor: nvcc warns (#20012-D)
  KOKKOS_INLINE_FUNCTION constexpr Dim3(int x_, int y_ = 1, int z_ = 1) : x(x_), y(y_), z(z_) {}
  KOKKOS_INLINE_FUNCTION constexpr long long count() const {
    return static_cast<long long>(x) * y * z;
  }
};

/// One logical thread of a block: its coordinates (threadIdx), its linear
/// rank x + bx*(y + by*z), and its coordinates in the grid (CUDA's
/// blockIdx * blockDim + threadIdx, the index most kernels start from).
/// \code
/// b.threads([&](const scratchkit::Thread& t) { if (t.gx < n) out(t.gx) = s[t.rank]; });
/// \endcode
struct Thread {
  int x, y, z;
  int rank;
  int gx = 0, gy = 0, gz = 0;  ///< blockIdx.{x,y,z} * blockDim.{x,y,z} + threadIdx.{x,y,z}
};

/// A 1-, 2- or 3-D extent known at compile time: a box of a phase (`threads(Box<D, Q>(), f)`,
/// `block_stride(Box<BX + 2, BY + 2>(), f)`) or, as BlockShape, a block's shape. Converts to Dim3.
/// \code
/// using Block = scratchkit::Block<Exec, scratchkit::BlockShape<Q, Q>>;  // blockDim known to the compiler
/// \endcode
template <int X, int Y = 1, int Z = 1>
struct Box {
  static_assert(X > 0 && Y > 0 && Z > 0, "scratchkit::Box / BlockShape: extents must be positive");
  static constexpr int x = X, y = Y, z = Z;
  static constexpr int count = X * Y * Z;
  KOKKOS_INLINE_FUNCTION constexpr operator Dim3() const { return Dim3(X, Y, Z); }
};
/// A block shape known at compile time, the second argument of Block: `Block<Exec, BlockShape<256>>`.
/// block_dim(), num_threads(), the threads' coordinates, the host loops' trip counts and the CUDA
/// launch bounds (`__launch_bounds__(X * Y * Z)`) then come from the type; launch() refuses a
/// LaunchParams whose block differs, before launching.
template <int X, int Y = 1, int Z = 1>
using BlockShape = Box<X, Y, Z>;
/// The block shape of `Block<Exec>`: given at launch (LaunchParams' block), read at run time.
struct RuntimeShape {};

namespace detail {
template <class S>
struct is_box : std::false_type {};
template <int X, int Y, int Z>
struct is_box<Box<X, Y, Z>> : std::true_type {};
template <class S>
struct box_count : std::integral_constant<int, 0> {};
template <int X, int Y, int Z>
struct box_count<Box<X, Y, Z>> : std::integral_constant<int, X * Y * Z> {};
template <class S>
KOKKOS_INLINE_FUNCTION constexpr Dim3 box_dim() {
  if constexpr (is_box<S>::value) {
    return Dim3(S::x, S::y, S::z);
  } else {
    return Dim3(0, 0, 0);
  }
}
}  // namespace detail

namespace detail {
/// Division of a non-negative int by a divisor fixed at launch, as a multiply
/// and a shift (Granlund & Montgomery): q = (n * m) >> p with p = 31 + ceil(log2 d)
/// and m = ceil(2^p / d), exact for 0 <= n < 2^31 since n * (m d - 2^p) < 2^31 d <= 2^p.
/// The block and thread coordinates are decoded with it on every launch: a
/// hardware integer division is tens of instructions.
struct FastDiv {
  unsigned d = 1, m = 1u << 31;
  int p = 31;
  FastDiv() = default;
  explicit FastDiv(int divisor) : d(static_cast<unsigned>(divisor)) {
    int l = 0;
    while ((1ull << l) < d) ++l;
    p = 31 + l;
    m = static_cast<unsigned>(((1ull << p) + d - 1) / d);
  }
  KOKKOS_INLINE_FUNCTION int div(int n) const {
    return static_cast<int>((static_cast<unsigned long long>(static_cast<unsigned>(n)) * m) >> p);
  }
  KOKKOS_INLINE_FUNCTION int mod(int n) const { return n - div(n) * static_cast<int>(d); }
};

/// The thread's rank as a value the compiler must take anew in each block. Kokkos' CUDA team
/// driver runs the kernel body inside a loop over league ranks; without this, nvcc hoists every
/// address and index derived from the thread's coordinates out of that loop, keeping them all
/// live across the whole body (a CUDA kernel computes them where they are used).
KOKKOS_INLINE_FUNCTION int per_block_value(int v) {
#if defined(__CUDA_ARCH__) && !defined(SCRATCHKIT_NO_PER_BLOCK_RANK)
  asm volatile("" : "+r"(v));
#endif
  return v;
}

/// What a block needs to know about its launch (copied into the kernel).
struct BlockGeometry {
  Dim3 grid;
  Dim3 block;
  std::size_t static_bytes;   ///< planned static region (SharedArray, PaddedTile)
  std::size_t dynamic_bytes;  ///< the dynamic pool (DynamicSharedArray)
  std::size_t dynamic_begin;  ///< offset of the pool from the 128-aligned base
  FastDiv grid_x, grid_y;     ///< gridDim.x, gridDim.y: league rank -> blockIdx
  FastDiv block_x, block_y;   ///< blockDim.x, blockDim.y: rank -> threadIdx
  int warp = 32;              ///< lanes of a warp (host backends: host_warp_size() at launch)
  bool host_nested_threads_loop = false;  ///< host: threads(f) as the x, y, z loop for every shape (LaunchSettings)
  bool host_per_thread_phases   = false;  ///< host: never detail::host_direct's plain loops (LaunchSettings)
  BlockGeometry() = default;
  BlockGeometry(Dim3 g, Dim3 b, std::size_t s, std::size_t d, std::size_t begin, int warp_lanes = 32)
      : grid(g), block(b), static_bytes(s), dynamic_bytes(d), dynamic_begin(begin),
        grid_x(g.x < 1 ? 1 : g.x), grid_y(g.y < 1 ? 1 : g.y), block_x(b.x), block_y(b.y), warp(warp_lanes) {}
};
}  // namespace detail

/// The block a kernel body runs on; the counterpart of CUDA's implicit
/// blockIdx/blockDim/threadIdx and of the block's shared memory.
///
/// Code in the kernel body runs once per block (per team member on host
/// backends: keep it free of side effects other than declaring scratch);
/// code in `threads(...)` runs once per logical thread. Phases are separated by
/// `sync_threads(block)`, which every thread reaches, as in CUDA.
///
/// \code
/// scratchkit::launch(exec, "my::kernel", params, KOKKOS_LAMBDA(const Block& b) {
///   scratchkit::SharedArray<float, 256> s(b);
///   b.threads([&](const scratchkit::Thread& t) { s[t.rank] = in(t.rank); });
///   scratchkit::sync_threads(b);
///   b.threads([&](const scratchkit::Thread& t) { out(t.rank) = s[255 - t.rank]; });
/// });
/// \endcode
///
/// On a GPU backend one logical thread is one hardware thread of the team
/// (no loop: `threads(f)` calls f once). On host backends (Serial: team size
/// 1; OpenMP: teams of a few threads) each team member runs whole warps of the
/// block's logical threads (warps team_rank, team_rank + team_size, ...) in a
/// loop, one phase at a time, so state that must live across a barrier goes
/// in a `PerThread<T, Block>`. A phase's threads may run in SIMD lanes there
/// (the loop of 1-D blocks on one member is vectorisable, SCRATCHKIT_HOST_IVDEP):
/// as on a GPU, no thread may depend on another's writes within a phase.
template <class ExecSpace, class Shape = RuntimeShape>
class Block {
  static_assert(std::is_same<Shape, RuntimeShape>::value || detail::is_box<Shape>::value,
                "scratchkit::Block<ExecSpace, Shape>: Shape is BlockShape<X, Y, Z> (or left out: a run-time shape)");

 public:
  using execution_space = ExecSpace;
  /// BlockShape<X, Y, Z>, or RuntimeShape.
  using shape_type = Shape;
  /// True when the block's shape is a compile-time BlockShape.
  static constexpr bool static_shape = detail::is_box<Shape>::value;
  /// X * Y * Z for a static shape, 0 for a run-time one.
  static constexpr int static_threads = static_shape ? detail::box_count<Shape>::value : 0;
  using member_type     = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  /// True when one logical thread is one hardware thread.
  static constexpr bool is_gpu = detail::is_gpu_space<ExecSpace>::value;
  /// Bounds of warp_size() known at compile time (sizes of per-warp arrays):
  /// on a GPU both are the hardware's warp; host backends run 32 or 64.
  static constexpr int max_warp_size = is_gpu ? detail::gpu_warp_size<ExecSpace>::value : 64;
  static constexpr int min_warp_size = is_gpu ? detail::gpu_warp_size<ExecSpace>::value : 32;

  /// The block of linear index `rank` (x + gx*(y + gy*z)) on `team`: the
  /// team's league rank, or one of the consecutive blocks a team runs when
  /// the launch gives a team several (LaunchBounds' TeamLoop). launch() constructs it; a
  /// kernel receives it as `const Block& b`.
  KOKKOS_INLINE_FUNCTION Block(const member_type& team, const detail::BlockGeometry& geo, char* base, int rank)
      : m_team(team), m_geo(geo), m_base(base), m_rank(rank), m_cursor(0), m_in_threads(false) {
    const int lx = geo.grid_x.div(rank);
    m_idx = Dim3(rank - lx * geo.grid.x, geo.grid_y.mod(lx), geo.grid_y.div(lx));
    if constexpr (!static_shape) m_nthreads = geo.block.x * geo.block.y * geo.block.z;
    if (is_gpu) m_self = thread_of(detail::per_block_value(team.team_rank()));
  }

  /// `Dim3 block_dim() const`: blockDim.
  KOKKOS_INLINE_FUNCTION constexpr Dim3 block_dim() const {
    if constexpr (static_shape) {
      return detail::box_dim<Shape>();
    } else {
      return m_geo.block;
    }
  }
  /// `Dim3 grid_dim() const`: gridDim.
  KOKKOS_INLINE_FUNCTION Dim3 grid_dim() const { return m_geo.grid; }
  /// `Dim3 block_idx() const`: blockIdx.
  KOKKOS_INLINE_FUNCTION Dim3 block_idx() const { return m_idx; }
  /// `int block_rank() const`: the block's linear index, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z):
  /// what a kernel on a 1-D grid uses as its block number. Not the team's
  /// league rank when a team runs several blocks (LaunchBounds' TeamLoop).
  KOKKOS_INLINE_FUNCTION int block_rank() const { return m_rank; }
  /// `int num_threads() const`: blockDim.x * blockDim.y * blockDim.z (a constant for a static shape).
  KOKKOS_INLINE_FUNCTION constexpr int num_threads() const {
    if constexpr (static_shape) {
      return static_threads;
    } else {
      return m_nthreads;
    }
  }
  /// `int warp_size() const`: logical threads per warp: consecutive ranks [w * warp_size(), (w + 1) * warp_size())
  /// form warp w, as on a GPU. The hardware's on a GPU (a compile-time
  /// constant: 32 on NVIDIA, 64 on AMD CDNA); on host backends the
  /// host_warp_size() of the launch (32 unless set_host_warp_size(64)).
  KOKKOS_INLINE_FUNCTION int warp_size() const {
    if constexpr (is_gpu) return max_warp_size;
    return m_geo.warp;
  }
  /// `std::size_t dynamic_shared_bytes() const`: bytes of the dynamic pool (LaunchParams::shared_mem_bytes).
  KOKKOS_INLINE_FUNCTION std::size_t dynamic_shared_bytes() const { return m_geo.dynamic_bytes; }
  /// `const member_type& team() const`: the Kokkos team this block runs on. Its league_rank() is the block's
  /// linear index only when each team runs one block: use block_rank(). On CUDA, Kokkos team collectives that use its
  /// per-team shared space (team_broadcast, team_scan) need that space, which
  /// a tuning hook may drop on the block driver (tuning::LaunchTuning::cuda_team_space).
  KOKKOS_INLINE_FUNCTION const member_type& team() const { return m_team; }

  /// `void threads(const F& f) const`, f callable as `f(const scratchkit::Thread& t)` (its
  /// result ignored): runs f once for every logical thread of the block, t its coordinates.
  /// Called from the kernel body, never inside another threads(...) or once(...).
  /// \code
  /// b.threads([&](const scratchkit::Thread& t) { s[t.rank] = in(t.gx); });
  /// \endcode
  template <class F>
  KOKKOS_INLINE_FUNCTION void threads(const F& f) const {
    enter_threads();
    if constexpr (is_gpu) {
      // The team is exactly the block's threads (launch() sets team size =
      // block threads, vector length 1): every hardware thread is a logical one.
      SCRATCHKIT_BOUNDS_CHECK(m_self.rank < num_threads(), "scratchkit: GPU team larger than the block");
      f(m_self);
    } else {
      const int ts = m_team.team_size();
      if (ts == 1 && block_dim().y == 1 && block_dim().z == 1 && !host_nested_threads_loop()) {
        // 1-D blocks: a counted loop with a fresh Thread per iteration, which the
        // compiler can vectorise across logical threads.
        const Dim3 g0 = grid_origin();
        const int n   = block_dim().x;
        SCRATCHKIT_SCRATCH_VERSIONED({
          SCRATCHKIT_HOST_IVDEP
          for (int r = 0; r < n; ++r) {
            const Thread t{r, 0, 0, r, g0.x + r, g0.y, g0.z};
            SCRATCHKIT_SCRATCH_BEGIN_THREAD(r);
            f(t);
            SCRATCHKIT_SCRATCH_END_THREAD();
          }
        })
      } else if (ts == 1 && !host_nested_threads_loop()) {
        // 2-D and 3-D blocks: one counted loop per x row (unit stride, a fresh Thread per
        // iteration), vectorisable across x as the 1-D loop, for any kernel's phases.
        if constexpr (static_shape) {
          SCRATCHKIT_SCRATCH_VERSIONED(host_rows(Shape(), f);)  // constant trip counts
        } else {
          SCRATCHKIT_SCRATCH_VERSIONED(host_rows(block_dim(), f);)
        }
      } else if (ts == 1) {
        const Dim3 g0 = grid_origin();
        Thread t{0, 0, 0, 0};
        for (t.z = 0; t.z < block_dim().z; ++t.z)
          for (t.y = 0; t.y < block_dim().y; ++t.y)
            for (t.x = 0; t.x < block_dim().x; ++t.x, ++t.rank) {
              t.gx = g0.x + t.x, t.gy = g0.y + t.y, t.gz = g0.z + t.z;
              SCRATCHKIT_SCRATCH_BEGIN_THREAD(t.rank);  // the checker runs blocks on one member
              f(t);
              SCRATCHKIT_SCRATCH_END_THREAD();
            }
      } else {
        host_member_ranks([&](int r) { f(thread_of(r)); });
      }
    }
    leave_threads();
  }

  /// `void threads(Dim3 box, const F& f) const`, f callable as `f(const scratchkit::Thread& t)`:
  /// runs f only for the logical threads inside `box` (x < box.x, y < box.y, z < box.z), t
  /// their coordinates in the whole block. CUDA's `if (threadIdx.x < nx && threadIdx.y < ny)`
  /// around a phase (RAJA's `loop` over a range narrower than the block): the phases of a
  /// finite-element kernel work on D x D or D x Q sub-boxes of a Q x Q block. On a GPU the
  /// threads outside the box idle; on host backends the loop runs over the box alone, with the
  /// box's extents as its trip counts (constants when the box is). A box larger than the block
  /// stops the kernel with both shapes in the message (GPUs: in bounds-checked builds).
  /// \code
  /// b.threads({D1, D1}, [&](const scratchkit::Thread& t) { s(t.y, t.x) = x(e, t.y, t.x); });
  /// \endcode
  template <class F>
  KOKKOS_INLINE_FUNCTION void threads(const Dim3& box, const F& f) const {
    threads_in(box, f);
  }
  /// `void threads(Box<X, Y, Z>, const F& f) const`: threads(box, f) over a compile-time box, so
  /// the host loops' trip counts are constants (and, in a static-shape block whose box is the
  /// block, a GPU thread tests nothing); a box larger than a static shape does not compile.
  /// \code
  /// b.threads(scratchkit::Box<D1, Q1>(), [&](const scratchkit::Thread& t) { ... });
  /// \endcode
  template <int X, int Y, int Z, class F>
  KOKKOS_INLINE_FUNCTION void threads(Box<X, Y, Z> box, const F& f) const {
    if constexpr (static_shape) {
      static_assert(X <= detail::box_dim<Shape>().x && Y <= detail::box_dim<Shape>().y &&
                        Z <= detail::box_dim<Shape>().z,
                    "scratchkit: Block::threads(Box<X, Y, Z>) with a box larger than the block's BlockShape");
    }
    threads_in(box, f);
  }

  /// `void block_stride(Dim3 extent, const F& f) const`, f callable as `f(int x, int y, int z)`:
  /// the block's threads cover the points of an extent.x x extent.y x extent.z box, each point
  /// once (CUDA's block-stride loop `for (int i = threadIdx.x; i < n; i += blockDim.x)`, Kokkos'
  /// TeamThreadMDRange): point i = x + extent.x * (y + extent.y * z) goes to logical thread
  /// i % num_threads(), so the box may be larger or smaller than the block (a halo tile's load).
  /// A phase, as threads(f): no point may depend on another's writes in it, and it is called
  /// from the kernel body. On host backends with one team member per block the points run x
  /// row by x row, a unit-stride loop the compiler can vectorise; under the scratch checker,
  /// each point is recorded as the logical thread a GPU runs it on.
  /// \code
  /// b.block_stride(Dim3(BX + 2, BY + 2), [&](int x, int y, int) { tile(y, x) = in(y0 + y, x0 + x); });
  /// \endcode
  template <class F>
  KOKKOS_INLINE_FUNCTION void block_stride(const Dim3& extent, const F& f) const {
    const Dim3 e(extent.x < 0 ? 0 : extent.x, extent.y < 0 ? 0 : extent.y, extent.z < 0 ? 0 : extent.z);
    block_stride_in(e, f);
  }
  /// `void block_stride(Box<X, Y, Z>, const F& f) const`: block_stride over a compile-time box:
  /// in a static-shape block each GPU thread's points are a constant count, unrolled (CUDA's
  /// `for (int i = threadIdx.x; i < N; i += NT)` with N and NT constants); on host backends the
  /// row loops have constant trip counts.
  /// \code
  /// b.block_stride(scratchkit::Box<BX + 2, BY + 2>(), [&](int x, int y, int) { tile(y, x) = in(y0 + y, x0 + x); });
  /// \endcode
  template <int X, int Y, int Z, class F>
  KOKKOS_INLINE_FUNCTION void block_stride(Box<X, Y, Z> box, const F& f) const {
    block_stride_in(box, f);
  }
  /// `void block_stride(int n, const F& f) const`, f callable as `f(int i)`: the 1-D form, i in
  /// [0, n), point i on logical thread i % num_threads().
  /// \code
  /// b.block_stride(TILE, [&](int i) { s[i] = in(base + i); });
  /// \endcode
  template <class F>
  KOKKOS_INLINE_FUNCTION void block_stride(int n, const F& f) const {
    block_stride(Dim3(n, 1, 1), [&](int x, int, int) { f(x); });
  }

  /// `void once(const F& f) const`, f callable as `f()`, with no argument (its result
  /// ignored): runs f once per block, as logical thread 0 (CUDA's `if (threadIdx.x == 0)`).
  /// Unlike threads(f), f takes no Thread (a callable that takes one is refused by a
  /// static_assert); for the thread's coordinates use threads(f) and test `t.rank == 0`.
  /// Called from the kernel body, never inside threads(...).
  /// \code
  /// b.once([&]() { out(b.block_rank()) = s[0]; });
  /// \endcode
  template <class F>
  KOKKOS_INLINE_FUNCTION void once(const F& f) const {
    static_assert(std::is_invocable_v<const F&>,
                  "scratchkit: Block::once(f) calls f() with no argument (it runs as logical thread 0): "
                  "write b.once([&]() { ... }), not b.once([&](const Thread&) { ... }); for a thread's "
                  "coordinates write b.threads([&](const scratchkit::Thread& t) { if (t.rank == 0) { ... } })");
    if constexpr (std::is_invocable_v<const F&>) {
      if constexpr (!is_gpu) {
        if (impl_host_direct()) {  // no loop to rank 0
          enter_threads();
          f();
          leave_threads();
          return;
        }
      }
      threads([&](const Thread& t) {
        if (t.rank == 0) f();
      });
    }
  }

  /// `void sync() const`: block-wide barrier (__syncthreads), as sync_threads(b). Every logical thread reaches it:
  /// call it from the kernel body, never from inside threads(...).
  KOKKOS_INLINE_FUNCTION void sync() const {
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
    if (m_in_threads && !SCRATCHKIT_SCRATCH_RECORDING())  // the scratch checker names it as a finding instead
      SCRATCHKIT_ABORT("scratchkit: sync_threads() called inside Block::threads(...); "
                       "a barrier must be reached by every thread, call it from the kernel body");
#endif
#if defined(KOKKOS_ENABLE_CUDA) && defined(__CUDA_ARCH__)
    // The team is the whole CUDA block (vector length 1): a plain __syncthreads,
    // without the branch and membar.cta of the generic team_barrier.
    if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
      __syncthreads();
      return;
    }
#endif
    SCRATCHKIT_SCRATCH_SYNC();
    m_team.team_barrier();
  }

  /// `Thread thread_of(int rank) const`: the logical thread of linear rank `rank`: its
  /// (x, y, z) and grid coordinates.
  KOKKOS_INLINE_FUNCTION Thread thread_of(int rank) const {
    Thread t{0, 0, 0, rank};
    if constexpr (static_shape) {  // divisions by constants
      const int rx = rank / Shape::x;
      t.x = rank - rx * Shape::x, t.y = rx % Shape::y, t.z = rx / Shape::y;
    } else {
      const int rx = m_geo.block_x.div(rank);
      t.x = rank - rx * m_geo.block.x, t.y = m_geo.block_y.mod(rx), t.z = m_geo.block_y.div(rx);
    }
    const Dim3 g0 = grid_origin();
    t.gx = g0.x + t.x, t.gy = g0.y + t.y, t.gz = g0.z + t.z;
    return t;
  }
  /// `Dim3 grid_origin() const`: blockIdx * blockDim, the grid coordinates of the block's
  /// thread (0, 0, 0).
  KOKKOS_INLINE_FUNCTION Dim3 grid_origin() const {
    return Dim3(m_idx.x * block_dim().x, m_idx.y * block_dim().y, m_idx.z * block_dim().z);
  }

  // -- implementation: used by SharedArray / DynamicSharedArray ----------
  /// Takes the next `bytes` of the static region, aligned to `align`.
  /// Aborts (traps in GPU release builds) if the kernel declares more static
  /// scratch than the launch planned.
  KOKKOS_INLINE_FUNCTION void* impl_take_static(std::size_t bytes, std::size_t align) const {
    const std::size_t off = detail::round_up(m_cursor, align);
    SCRATCHKIT_REQUIRE_V(off + bytes <= m_geo.static_bytes,
                         "scratchkit: block (%d, %d, %d) declares a static scratch array (SharedArray/PaddedTile) "
                         "of %lld bytes at offset %lld, past the %lld bytes its LaunchParams planned: list every "
                         "array in LaunchParams::uses<...>() in the order the kernel constructs them, or declare "
                         "them once as SharedArrays<...>",
                         m_idx.x, m_idx.y, m_idx.z, static_cast<long long>(bytes), static_cast<long long>(off),
                         static_cast<long long>(m_geo.static_bytes));
    m_cursor = off + bytes;
    return m_base + off;
  }
  KOKKOS_INLINE_FUNCTION char* impl_dynamic_base() const { return m_base + m_geo.dynamic_begin; }
  /// detail::host_direct: one member runs the block, no checker records it (host backends).
  KOKKOS_INLINE_FUNCTION bool impl_host_direct() const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return false;
#else
    if constexpr (is_gpu) {
      return false;
    } else {
      return m_team.team_size() == 1 && !SCRATCHKIT_SCRATCH_RECORDING() && !m_geo.host_per_thread_phases;
    }
#endif
  }

 private:
  // The launch's host loop setting (a GPU pass never reaches the host loop).
  KOKKOS_INLINE_FUNCTION bool host_nested_threads_loop() const {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return false;
#else
    return m_geo.host_nested_threads_loop;
#endif
  }
  // threads(box, f) for a Dim3 or a Box (whose x, y, z are constants).
  template <class BoxT, class F>
  KOKKOS_INLINE_FUNCTION void threads_in(const BoxT& box, const F& f) const {
    enter_threads();
    if constexpr (is_gpu) {
      SCRATCHKIT_BOUNDS_CHECK_V(box.x <= block_dim().x && box.y <= block_dim().y && box.z <= block_dim().z,
                                "scratchkit: threads(box (%d, %d, %d)) in a block of (%d, %d, %d)", box.x, box.y,
                                box.z, block_dim().x, block_dim().y, block_dim().z);
      if ((covers<BoxT>(0) || m_self.x < box.x) && (covers<BoxT>(1) || m_self.y < box.y) &&
          (covers<BoxT>(2) || m_self.z < box.z))
        f(m_self);
    } else {
      SCRATCHKIT_REQUIRE_V(box.x <= block_dim().x && box.y <= block_dim().y && box.z <= block_dim().z,
                           "scratchkit: threads(box (%d, %d, %d)) in a block of (%d, %d, %d): the box must fit "
                           "the block",
                           box.x, box.y, box.z, block_dim().x, block_dim().y, block_dim().z);
      if (m_team.team_size() == 1) {
        SCRATCHKIT_SCRATCH_VERSIONED(host_rows(box, f);)
      } else {
        host_member_ranks([&](int r) {
          const Thread t = thread_of(r);
          if (t.x < box.x && t.y < box.y && t.z < box.z) f(t);
        });
      }
    }
    leave_threads();
  }
  // Whether a box's extent in dimension d (0: x, 1: y, 2: z) is known at compile time to cover a
  // static block's.
  template <class BoxT>
  KOKKOS_INLINE_FUNCTION static constexpr bool covers(int d) {
    if constexpr (static_shape && detail::is_box<BoxT>::value) {
      constexpr Dim3 box = detail::box_dim<BoxT>(), blk = detail::box_dim<Shape>();
      return d == 0 ? box.x >= blk.x : d == 1 ? box.y >= blk.y : box.z >= blk.z;
    } else {
      return false;
    }
  }
  // block_stride over a Dim3 (non-negative extents) or a Box.
  template <class BoxT, class F>
  KOKKOS_INLINE_FUNCTION void block_stride_in(const BoxT& e, const F& f) const {
    enter_threads();
    if constexpr (is_gpu) {
      if constexpr (static_shape && detail::is_box<BoxT>::value) {
        stride_points_static<BoxT>(m_self.rank, f);
      } else {
        stride_points(m_self.rank, e.x, e.y, e.z, f);
      }
    } else {
      if (m_team.team_size() == 1 && !SCRATCHKIT_SCRATCH_RECORDING()) {
        for (int z = 0; z < e.z; ++z)
          for (int y = 0; y < e.y; ++y) {
            SCRATCHKIT_HOST_IVDEP
            for (int x = 0; x < e.x; ++x) f(x, y, z);
          }
      } else {
        // Each point on the logical thread a GPU runs it on (the checker sees the GPU's accesses).
        host_member_ranks([&](int r) {
          SCRATCHKIT_SCRATCH_BEGIN_THREAD(r);
          stride_points(r, e.x, e.y, e.z, f);
          SCRATCHKIT_SCRATCH_END_THREAD();
        });
      }
    }
    leave_threads();
  }
  /// A static box in a static block: thread r's points r, r + T, ... (T threads) as a constant
  /// count of unrolled steps, each point's coordinates by divisions by constants.
  template <class BoxT, class F>
  KOKKOS_INLINE_FUNCTION void stride_points_static(int r, const F& f) const {
    constexpr int ex = BoxT::x, exy = BoxT::x * BoxT::y, n = BoxT::count, nt = static_threads;
    constexpr int full = n / nt, rest = n - full * nt;
    const auto point = [&](int i) {
      const int z = exy == n ? 0 : i / exy, rem = i - z * exy, y = ex == exy ? 0 : rem / ex;
      f(rem - y * ex, y, z);
    };
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#pragma unroll
#endif
    for (int k = 0; k < full; ++k) point(r + k * nt);
    if constexpr (rest > 0) {
      if (r < rest) point(r + full * nt);
    }
  }
  /// Host backends, several members: g(rank) for the ranks this member runs. Members own whole
  /// warps (member m runs warps m, m + team size, ...), so warp collectives stay within one member.
  template <class G>
  KOKKOS_INLINE_FUNCTION void host_member_ranks(const G& g) const {
    const int ws = m_geo.warp, ts = m_team.team_size();
    for (int w0 = m_team.team_rank() * ws; w0 < num_threads(); w0 += ts * ws) {
      const int w1 = w0 + ws < num_threads() ? w0 + ws : num_threads();
      for (int r = w0; r < w1; ++r) g(r);
    }
  }
  /// The points of an ex x ey x ez box that block_stride gives logical thread r: i = r, r + threads, ...
  template <class F>
  KOKKOS_INLINE_FUNCTION void stride_points(int r, int ex, int ey, int ez, const F& f) const {
    const int n = ex * ey * ez, exy = ex * ey;
    for (int i = r; i < n; i += num_threads()) {
      const int z = i / exy, rem = i - z * exy, y = rem / ex;
      f(rem - y * ex, y, z);
    }
  }
  /// Host backends, one member: f for every thread of `box`, x row by x row.
  template <class BoxT, class F>
  KOKKOS_FORCEINLINE_FUNCTION void host_rows(const BoxT& box, const F& f) const {
    const Dim3 g0 = grid_origin();
    const int bx = block_dim().x, by = block_dim().y;
    for (int z = 0; z < box.z; ++z)
      for (int y = 0; y < box.y; ++y) {
        const int row = bx * (y + by * z);
        // One row: consecutive logical threads, vectorisable as the 1-D loop, unrolled so that
        // each thread's load has a constant stride the prefetcher follows.
        SCRATCHKIT_HOST_IVDEP
        SCRATCHKIT_HOST_UNROLL_ROW
        for (int x = 0; x < box.x; ++x) {
          const Thread t{x, y, z, row + x, g0.x + x, g0.y + y, g0.z + z};
          SCRATCHKIT_SCRATCH_BEGIN_THREAD(row + x);
          f(t);
          SCRATCHKIT_SCRATCH_END_THREAD();
        }
      }
  }
  KOKKOS_INLINE_FUNCTION void enter_threads() const {
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
    m_in_threads = true;
#endif
  }
  KOKKOS_INLINE_FUNCTION void leave_threads() const {
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
    m_in_threads = false;
#endif
  }

  const member_type& m_team;
  detail::BlockGeometry m_geo;
  char* m_base;
  int m_rank;
  Dim3 m_idx;
  int m_nthreads = 0;  ///< run-time shapes only
  Thread m_self{0, 0, 0, 0};
  mutable std::size_t m_cursor;
  mutable bool m_in_threads;
};

/// Block-wide barrier: CUDA's __syncthreads(), Kokkos' team_barrier().
template <class ExecSpace, class Shape>
KOKKOS_INLINE_FUNCTION void sync_threads(const Block<ExecSpace, Shape>& block) {
  block.sync();
}

namespace detail {
/// Host backends: whether a block's phases may run as plain loops over its
/// PerThread arrays and scratch, in place of one call per logical thread (the
/// block collectives and some kernels' host paths do): one team member runs
/// every logical thread, so its barriers order nothing, and no scratch checker
/// records the block (the checker is shown the GPU's scratch accesses). Those
/// loops run the same operations in the same order as the per-thread phases.
/// A tuning hook's host_per_thread_phases turns them off, for comparison (tuning/hook.hpp).
template <class BlockT>
KOKKOS_INLINE_FUNCTION bool host_direct(const BlockT& b) {
  if constexpr (BlockT::is_gpu) {
    (void)b;
    return false;
  } else {
    return b.impl_host_direct();
  }
}
}  // namespace detail

/// Runs f(Thread) for every logical thread of the block (same as block.threads(f)).
template <class ExecSpace, class Shape, class F>
KOKKOS_INLINE_FUNCTION void for_each_thread(const Block<ExecSpace, Shape>& block, const F& f) {
  block.threads(f);
}

}  // namespace scratchkit
