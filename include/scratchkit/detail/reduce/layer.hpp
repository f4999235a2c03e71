// SPDX-License-Identifier: BSD-3-Clause
/// reduce: the layer implementation behind kernels/reduce.hpp (the public calls and contracts are there).
///
/// Both twins launch every variant alike (same blocks, launch bounds, grid).
/// - ReduceVariant::tree (the seed): blocks of 256 threads, launch bounds
///   <256, 8> (32 registers: 8 blocks resident per SM); each block reduces
///   512 elements (two loads a thread) through a tree in dynamic shared
///   memory; passes repeat over the per-block partials until one is left.
/// - ReduceVariant::grid_stride_atomic and ReduceVariant::warp_shuffle: the
///   shape of ReduceDefaultBlocking (tuning/reduce.hpp: threads, loads,
///   launch bound, load hint; 256 threads, 4 loads, <256, 8>, __ldg). A grid
///   that fills the device once (SMs x blocks resident per SM, at most the
///   blocking's launch bound, from a device query cached per device; the
///   concurrency on host backends), fewer for small n,
///   walks the data grid-stride, each thread issuing the blocking's
///   independent 16-byte loads per step into 4 (or 2, for 8-byte types) lane
///   accumulators; a misaligned head and a tail that is not a whole vector
///   go to thread 0, element by element.
///   grid_stride_atomic then reduces the block in a shared tree and adds it
///   with one atomic; warp_shuffle reduces with warp shuffles and one shared
///   slot per warp, writes one partial per block, and a second launch of
///   one block reduces the partials in index order (deterministic: the
///   layer and native twins agree bit for bit, and runs repeat).
/// The partials live in the layer's workspace (detail/workspace.hpp: no
/// allocation per call); the result is copied to the host once.
#pragma once

#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/detail/reduce/stream.hpp>
#include <scratchkit/detail/vector_load.hpp>
#include <scratchkit/detail/workspace.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/reduce.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/warp.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

namespace scratchkit {
namespace detail {

/// The layer's atomic combine of v into *dst under operator R (a Reducer; the native twin's: atomic_combine).
template <class R>
KOKKOS_INLINE_FUNCTION void reduce_atomic(typename R::value_type* dst, typename R::value_type v) {
  if constexpr (R::op == ReduceOp::sum) {
    Kokkos::atomic_add(dst, v);
  } else if constexpr (R::op == ReduceOp::min) {
    Kokkos::atomic_fetch_min(dst, v);
  } else {
    Kokkos::atomic_fetch_max(dst, v);
  }
}

/// Calls f(Reducer<T, op>{}) with op known at compile time.
template <class T, class F>
void with_reducer(ReduceOp op, const F& f) {
  switch (op) {
    case ReduceOp::sum: f(Reducer<T, ReduceOp::sum>{}); return;
    case ReduceOp::min: f(Reducer<T, ReduceOp::min>{}); return;
    case ReduceOp::max: f(Reducer<T, ReduceOp::max>{}); return;
  }
  throw UnsupportedError("scratchkit::reduce: unknown operator");
}

/// The launch bounds of the tree kernel (native twin: __launch_bounds__(256, 8));
/// on Kokkos' generic driver a team may run several tree blocks (TeamLoop).
using ReduceBounds = TeamLoopBounds<reduce_block, reduce_min_blocks>;

/// Tree blocks one Kokkos team runs on Kokkos' generic driver (strided order):
/// a tree block is two loads and eight barriers a thread, ~5*10^5 blocks at
/// 2^28, and the generic driver's per-team start is several percent of that.
/// The policy's value is the best over the four types (docs/performance.md, "Several blocks per
/// team"). A tuning hook may replace it (tuning::Kernel::reduce_tree).
inline int reduce_tree_blocks_per_team() { return ReducePolicy::tree_blocks_per_team; }
/// The launch bounds of the grid-stride kernels of blocking Bk (native: the same).
template <class Bk>
using ReduceStreamBounds = LaunchBounds<Bk::threads, Bk::min_blocks>;

/// Blocks of Bk that fill exec's device once (reduce_fill over device_limits:
/// capped at Bk::min_blocks per SM on CUDA, whose SM count is known).
template <class Bk, class ExecSpace>
long long reduce_device_fill(const ExecSpace& exec) {
  const DeviceLimits f = device_limits(exec);
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return reduce_fill<Bk>(f.blocks(Bk::threads), f.sm_count);
#endif
  return reduce_fill<Bk>(f.blocks(Bk::threads), 0);
}

/// The source a grid-stride reduction of Bk streams: a contiguous View
/// through Bk's load hint (ReducePtrSource, as the native twin), a strided
/// one element by element.
template <class Bk, class T>
ReducePtrSource<T, Bk::load> reduce_source(const ContiguousSource<T>& s) {
  return ReducePtrSource<T, Bk::load>{s.p};
}
template <class Bk, class View>
const StridedSource<View>& reduce_source(const StridedSource<View>& s) {
  return s;
}

/// One thread's part of a grid-stride reduction of blocking Bk: vectors
/// i = block*BS*U + rank + k*grid*BS*U + u*BS (BS = Bk::threads, u < U =
/// Bk::loads, the U vector loads of a step issued before any is combined) of
/// the 16-byte aligned body [head, head + nv*V), lane j of each vector into
/// accumulator j (reduce_stream); thread 0 also takes the peeled head
/// (before) and tail (after) into lanes 0, 1, ...; the lanes are combined as
/// a tree. The native twin does the same operations in the same order.
template <class R, class Bk, class Src>
KOKKOS_FORCEINLINE_FUNCTION typename Src::value_type reduce_thread(const Src& src, std::size_t n, std::size_t head,
                                                                   int block, int rank, int grid) {
  using T         = typename Src::value_type;
  constexpr int V = Src::width;
  T acc[V];
  SCRATCHKIT_UNROLL
  for (int j = 0; j < V; ++j) acc[j] = R::identity();
  reduce_stream<Bk>(src, n, head, block, rank, grid, [&](int j, T x) { acc[j] = R::apply(acc[j], x); });
  if constexpr (V == 4) {
    return R::apply(R::apply(acc[0], acc[1]), R::apply(acc[2], acc[3]));
  } else {
    static_assert(V == 2, "reduce_thread: 4- or 8-byte elements");
    return R::apply(acc[0], acc[1]);
  }
}

/// Host (one member runs the block, detail::host_direct): put(r, reduce_thread<R, Bk>(src, n, head, block, r, grid))
/// for every thread r of the block, bit for bit: the same values into the same
/// lane accumulators in the same order, each step's vectors walked in memory
/// order across the block's threads (that loop vectorises).
template <class R, class Bk, class B_t, class Src, class Put>
KOKKOS_INLINE_FUNCTION void reduce_threads_host(const Src& src, std::size_t n, std::size_t head, int block, int grid,
                                                const Put& put) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    using T          = typename Src::value_type;
    constexpr int V  = Src::width, BS = Bk::threads, U = Bk::loads;
    T acc[BS * V];  // thread r's lane j at r * V + j
    for (int q = 0; q < BS * V; ++q) acc[q] = R::identity();
    if (block == 0)
      for (std::size_t j = 0; j < head; ++j) acc[j] = R::apply(acc[j], src.at(j));
    const std::size_t nv   = (n - head) / V;
    const std::size_t step = static_cast<std::size_t>(grid) * (BS * U);
    for (std::size_t i0 = static_cast<std::size_t>(block) * (BS * U); i0 < nv; i0 += step)
      for (int u = 0; u < U; ++u) {
        const std::size_t v0 = i0 + static_cast<std::size_t>(u) * BS;  // thread r's vector is v0 + r
        if (v0 >= nv) break;
        const int m          = nv - v0 < static_cast<std::size_t>(BS) ? static_cast<int>(nv - v0) : BS;
        const std::size_t e0 = head + v0 * V;
        for (int q = 0; q < m * V; ++q) acc[q] = R::apply(acc[q], src.at(e0 + static_cast<std::size_t>(q)));
      }
    if (block == 0)
      for (std::size_t j = 0; head + nv * V + j < n; ++j) acc[j] = R::apply(acc[j], src.at(head + nv * V + j));
    for (int r = 0; r < BS; ++r) {
      const T* a = acc + r * V;
      if constexpr (V == 4) {
        put(r, R::apply(R::apply(a[0], a[1]), R::apply(a[2], a[3])));
      } else {
        static_assert(V == 2, "reduce_threads_host: 4- or 8-byte elements");
        put(r, R::apply(a[0], a[1]));
      }
    }
  }
}

/// Shared-memory tree over the block's BS slots (a power of two); the result ends in s[0].
template <class R, int BS, class BlockT, class S>
KOKKOS_INLINE_FUNCTION void block_tree(const BlockT& b, const S& s) {
  if constexpr (!BlockT::is_gpu) if (host_direct(b)) {  // nothing of it in a GPU pass
    // Host: each level over its w active slots only (the loop vectorises).
    for (int w = BS / 2; w > 0; w >>= 1)
      for (int r = 0; r < w; ++r) s[r] = R::apply(s[r], s[r + w]);
    return;
  }
  for (int w = BS / 2; w > 0; w >>= 1) {
    b.threads([&](const Thread& t) {
      if (t.rank < w) s[t.rank] = R::apply(s[t.rank], s[t.rank + w]);
    });
    sync_threads(b);
  }
}

/// tree, one pass: block b reduces in[b*512, b*512+512) into out[b].
template <class R, class ExecSpace, class InView>
SCRATCHKIT_KERNEL_LINKAGE
void reduce_tree_pass(const ExecSpace& exec, const InView& in, std::size_t n,
                      typename InView::non_const_value_type* out) {
  using T   = typename InView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = reduce_block;
  const auto p = LaunchParams(Dim3(ceil_div(static_cast<long long>(n), reduce_per_block)), Dim3(BS))
                     .shared_mem_bytes(BS * sizeof(T))
                     .blocks_per_team(reduce_tree_blocks_per_team())
                     // block_tree's barriers are reached by every thread; two copies are
                     // faster here (docs/performance.md, "Several blocks per team").
                     .alternate_scratch()
                     .host_team_size(1);  // host: one member per block, whose phases are plain loops
  launch_kernel<ReduceBounds, ScratchFallback::none>(exec, "scratchkit::reduce_tree", tuning::Kernel::reduce_tree, p, KOKKOS_LAMBDA(const B_t& b) {
    auto sdata = DynamicSharedArray<T>::get(b);
    const int blk = b.block_rank();  // the block's index (grid is 1-D): no blockIdx decode
    const std::size_t base = static_cast<std::size_t>(blk) * (2 * BS);
    if (!B_t::is_gpu && base + 2 * BS <= n) {
      // Host: a whole block's loads without a test per element (the loop vectorises); the same sums.
      b.threads([&](const Thread& t) {
        sdata[t.rank] = R::apply(read_only(in, base + t.rank), read_only(in, base + t.rank + BS));
      });
    } else {
      b.threads([&](const Thread& t) {
        const std::size_t i = base + t.rank;
        T v = R::identity();
        // read-only path (ld.global.nc), as the native twin's const __restrict__ loads
        if (i < n) v = read_only(in, i);
        if (i + BS < n) v = R::apply(v, read_only(in, i + BS));
        sdata[t.rank] = v;
      });
    }
    sync_threads(b);
    block_tree<R, BS>(b, sdata);
    b.once([&]() { out[blk] = sdata[0]; });
  });
}

/// grid_stride_atomic with blocking Bk: reduce_thread, shared tree, one atomic per block into *result.
template <class R, class Bk, class ExecSpace, class Src>
SCRATCHKIT_KERNEL_LINKAGE
void reduce_atomic_pass(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head, int grid,
                        typename Src::value_type* result) {
  using T     = typename Src::value_type;
  using B_t   = Block<ExecSpace>;
  constexpr int BS = Bk::threads;
  using Slots = SharedArray<T, BS>;
  const auto p = LaunchParams(Dim3(grid), Dim3(BS)).uses<Slots>().host_team_size(1);
  launch<ReduceStreamBounds<Bk>, ScratchFallback::none>(exec, "scratchkit::reduce_grid_stride_atomic", p, KOKKOS_LAMBDA(const B_t& b) {
    Slots s(b);
    if (host_direct(b))  // not `if constexpr`: nvcc refuses an extended lambda's first capture inside one
      reduce_threads_host<R, Bk, B_t>(src, n, head, b.block_idx().x, grid, [&](int r, T v) { s[r] = v; });
    else
      b.threads(
          [&](const Thread& t) { s[t.rank] = reduce_thread<R, Bk>(src, n, head, b.block_idx().x, t.rank, grid); });
    sync_threads(b);
    block_tree<R, BS>(b, s);
    b.once([&]() { reduce_atomic<R>(result, s[0]); });
  });
}

/// warp_shuffle with blocking Bk, one pass: reduce_thread, warp shuffles,
/// one shared slot per warp, a warp reduces the slots; out[b] per block.
/// Slots for warps of 32 lanes, the smallest warp (64-lane warps use half).
template <class R, class Bk, class ExecSpace, class Src>
SCRATCHKIT_KERNEL_LINKAGE
void reduce_warp_pass(const ExecSpace& exec, const Src& src, std::size_t n, std::size_t head, int grid,
                      typename Src::value_type* out) {
  using T     = typename Src::value_type;
  using B_t   = Block<ExecSpace>;
  constexpr int BS = Bk::threads, WMin = B_t::min_warp_size;
  static_assert((BS + WMin - 1) / WMin <= WMin, "reduce_warp_pass: one warp reduces the warps' slots");
  using Slots = SharedArray<T, (BS + WMin - 1) / WMin>;
  const auto p = LaunchParams(Dim3(grid), Dim3(BS)).uses<Slots>().host_team_size(1);
  launch<ReduceStreamBounds<Bk>, ScratchFallback::none>(exec, "scratchkit::reduce_warp_shuffle", p, KOKKOS_LAMBDA(const B_t& b) {
    Slots s(b);
    PerThread<T, B_t, BS> v(b);
    const int W = b.warp_size(), warps = (BS + W - 1) / W;
    if (host_direct(b))  // not `if constexpr`: nvcc refuses an extended lambda's first capture inside one
      reduce_threads_host<R, Bk, B_t>(src, n, head, b.block_idx().x, grid,
                                      [&](int r, T x) { v.impl_data()[r] = x; });
    else
      b.threads(
          [&](const Thread& t) { v(t) = reduce_thread<R, Bk>(src, n, head, b.block_idx().x, t.rank, grid); });
    warp_reduce(b, v, [](T a, T c) { return R::apply(a, c); });
    b.threads([&](const Thread& t) {
      if (t.rank % W == 0) s[t.rank / W] = v(t);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { v(t) = t.rank < warps ? s[t.rank] : R::identity(); });
    warp_reduce(b, v, [](T a, T c) { return R::apply(a, c); });
    b.threads([&](const Thread& t) {
      if (t.rank == 0) out[b.block_idx().x] = v(t);
    });
  });
}

/// The layer reduction of x (n > 0) with the grid-stride variants in
/// blocking Bk and their grid capped at fill_blocks (reduce() passes
/// reduce_device_fill<Bk>: the device once full).
template <class R, class Bk = ReduceDefaultBlocking, class ExecSpace, class XView>
typename XView::non_const_value_type reduce_layer(const ExecSpace& exec, ReduceVariant variant, const XView& x,
                                                  long long fill_blocks) {
  using T       = typename XView::non_const_value_type;
  using Space   = typename ExecSpace::memory_space;
  using Scalar  = Kokkos::View<T, Space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Array   = Kokkos::View<T*, Space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t n = x.extent(0);
  const auto slots    = [](std::size_t count) { return round_up(count * sizeof(T), 16); };
  const long long fill = fill_blocks < 1 ? 1 : fill_blocks;
  std::lock_guard<std::mutex> lock(Workspace<Space>::mutex());
  T* res = nullptr;
  switch (variant) {
    case ReduceVariant::tree: {
      std::size_t m    = (n + reduce_per_block - 1) / reduce_per_block;
      const std::size_t m2 = (m + reduce_per_block - 1) / reduce_per_block;
      char* ws = Workspace<Space>::get(slots(m) + slots(m2));
      T* a     = reinterpret_cast<T*>(ws);
      T* c     = reinterpret_cast<T*>(ws + slots(m));
      reduce_tree_pass<R>(exec, x, n, a);
      while (m > 1) {
        const std::size_t next = (m + reduce_per_block - 1) / reduce_per_block;
        reduce_tree_pass<R>(exec, Array(a, m), m, c);
        std::swap(a, c);
        m = next;
      }
      res = a;
      break;
    }
    case ReduceVariant::grid_stride_atomic: {
      const int grid = reduce_grid<Bk>(n, sizeof(T), fill);
      res            = reinterpret_cast<T*>(Workspace<Space>::get(slots(1)));
      Kokkos::deep_copy(exec, Scalar(res), R::identity());
      with_source(x, [&](const auto& src, std::size_t head) {
        reduce_atomic_pass<R, Bk>(exec, reduce_source<Bk>(src), n, head, grid, res);
      });
      break;
    }
    case ReduceVariant::warp_shuffle: {  // per-block partials, then one block over them
      const int grid = reduce_grid<Bk>(n, sizeof(T), fill);
      char* ws       = Workspace<Space>::get(slots(grid) + slots(1));
      T* part        = reinterpret_cast<T*>(ws);
      res            = reinterpret_cast<T*>(ws + slots(grid));
      with_source(x, [&](const auto& src, std::size_t head) {
        reduce_warp_pass<R, Bk>(exec, reduce_source<Bk>(src), n, head, grid, grid == 1 ? res : part);
      });
      if (grid > 1) {
        const std::size_t g = static_cast<std::size_t>(grid);
        reduce_warp_pass<R, Bk>(exec, ReducePtrSource<T, Bk::load>{part}, g, head_to_16<T>(part, g), 1, res);
      }
      break;
    }
    default: throw UnsupportedError(std::string("scratchkit::reduce: unknown variant ") + name(variant));
  }
  T result;
  const Kokkos::View<T, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host_result(&result);
  Kokkos::deep_copy(exec, host_result, Scalar(res));
  exec.fence();
  return result;
}

/// reduce's entry point (detail/eti.hpp): x mapped by reduce() onto a row-major View, arguments
/// checked there. The native branch is here, compiled once in the library's unit.
template <class ExecSpace, class XView>
typename XView::non_const_value_type reduce_run(const ExecSpace& exec, ReduceVariant variant, ReduceOp op,
                                                const XView& x, Backend backend) {
  using T = typename XView::non_const_value_type;
  T result{};
  if (backend == Backend::native) {
    native_run(exec, "reduce", {"x"}, [&](auto stream) {
      result = native::cuda::reduce(variant, op, x.data(), x.extent(0), stream);
    }, x);
    return result;
  }
  with_reducer<T>(op, [&](auto r) {
    using R = decltype(r);
    result  = x.extent(0) == 0 ? R::identity()
                               : reduce_layer<R>(exec, variant, x, reduce_device_fill<ReduceDefaultBlocking>(exec));
  });
  return result;
}

}  // namespace detail
}  // namespace scratchkit

/// reduce's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_REDUCE(PREFIX, E, T, L)                                                       \
  PREFIX template T scratchkit::detail::reduce_run<E, scratchkit::detail::EtiView<const T, 1, L, E>>(  \
      const E&, scratchkit::ReduceVariant, scratchkit::ReduceOp,                                      \
      const scratchkit::detail::EtiView<const T, 1, L, E>&, scratchkit::Backend);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_REDUCE_EXTERN(E, T, L) SCRATCHKIT_ETI_REDUCE(extern, E, T, L)
#define SCRATCHKIT_ETI_REDUCE_SPACE(E)                                    \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_REDUCE_EXTERN, E, std::int32_t) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_REDUCE_EXTERN, E, std::int64_t) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_REDUCE_EXTERN, E, float)        \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_REDUCE_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_REDUCE_SPACE)
#undef SCRATCHKIT_ETI_REDUCE_SPACE
#undef SCRATCHKIT_ETI_REDUCE_EXTERN
#endif
