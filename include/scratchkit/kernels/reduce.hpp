// SPDX-License-Identifier: BSD-3-Clause
/// Reduction (sum/min/max) on the layer (native twin: src/cuda/reduce.cu).
#pragma once

#include <scratchkit/detail/native_dispatch.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/native/reduce.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/warp.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Threads per block of every reduction variant (a power of two).
constexpr int reduce_block = 256;
/// Elements one block of ReduceVariant::tree consumes per pass.
constexpr int reduce_per_block = 2 * reduce_block;
/// Grid of the grid-stride variants for large n: about one wave of 256-thread
/// blocks on an H100 (132 SMs x 8). A constant, not a device query, so the
/// layer and the native twin split the data identically (bit-equal results).
constexpr int reduce_max_grid = 1024;

/// The operator as a type, so kernels carry no run-time switch.
template <class T, ReduceOp Op>
struct Reducer {
  KOKKOS_INLINE_FUNCTION static T apply(T a, T b) {
    if constexpr (Op == ReduceOp::sum) {
      return a + b;
    } else if constexpr (Op == ReduceOp::min) {
      return b < a ? b : a;
    } else {
      return a < b ? b : a;
    }
  }
  KOKKOS_INLINE_FUNCTION static T identity() {
    if constexpr (Op == ReduceOp::sum) {
      return T(0);
    } else if constexpr (Op == ReduceOp::min) {
      return Kokkos::reduction_identity<T>::min();
    } else {
      return Kokkos::reduction_identity<T>::max();
    }
  }
  KOKKOS_INLINE_FUNCTION static void atomic(T* dst, T v) {
    if constexpr (Op == ReduceOp::sum) {
      Kokkos::atomic_add(dst, v);
    } else if constexpr (Op == ReduceOp::min) {
      Kokkos::atomic_fetch_min(dst, v);
    } else {
      Kokkos::atomic_fetch_max(dst, v);
    }
  }
};

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

/// Shared-memory tree over the block's 256 slots; the result ends in s[0].
template <class R, class BlockT, class S>
KOKKOS_INLINE_FUNCTION void block_tree(const BlockT& b, const S& s) {
  for (int w = reduce_block / 2; w > 0; w >>= 1) {
    b.threads([&](const Thread& t) {
      if (t.rank < w) s[t.rank] = R::apply(s[t.rank], s[t.rank + w]);
    });
    sync_threads(b);
  }
}

/// tree, one pass: block b reduces in[b*512, b*512+512) into out(b).
template <class R, class ExecSpace, class InView, class OutView>
void reduce_tree_pass(const ExecSpace& exec, const InView& in, std::size_t n, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = reduce_block;
  const auto p = LaunchParams(Dim3(ceil_div(static_cast<long long>(n), reduce_per_block)), Dim3(BS))
                     .shared_mem_bytes(BS * sizeof(T));
  launch(exec, "scratchkit::reduce_tree", p, KOKKOS_LAMBDA(const B_t& b) {
    auto sdata = DynamicSharedArray<T>::get(b);
    const std::size_t base = static_cast<std::size_t>(b.block_idx().x) * (2 * BS);
    b.threads([&](const Thread& t) {
      const std::size_t i = base + t.rank;
      T v = R::identity();
      if (i < n) v = in(i);
      if (i + BS < n) v = R::apply(v, in(i + BS));
      sdata[t.rank] = v;
    });
    sync_threads(b);
    block_tree<R>(b, sdata);
    b.once([&]() { out(b.block_idx().x) = sdata[0]; });
  });
}

/// grid_stride_atomic: grid-stride accumulation, shared tree, one atomic per block into result().
template <class R, class ExecSpace, class InView, class ResView>
void reduce_atomic_pass(const ExecSpace& exec, const InView& in, std::size_t n, int grid, const ResView& result) {
  using T   = typename ResView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  using Slots = SharedArray<T, reduce_block>;
  constexpr int BS = reduce_block;
  const auto p = LaunchParams(Dim3(grid), Dim3(BS)).uses<Slots>();
  launch(exec, "scratchkit::reduce_grid_stride_atomic", p, KOKKOS_LAMBDA(const B_t& b) {
    Slots s(b);
    const std::size_t stride = static_cast<std::size_t>(grid) * BS;
    b.threads([&](const Thread& t) {
      T acc = R::identity();
      for (std::size_t i = static_cast<std::size_t>(b.block_idx().x) * BS + t.rank; i < n; i += stride)
        acc = R::apply(acc, in(i));
      s[t.rank] = acc;
    });
    sync_threads(b);
    block_tree<R>(b, s);
    b.once([&]() { R::atomic(&result(), s[0]); });
  });
}

/// warp_shuffle, one pass: grid-stride accumulation, warp shuffles, one
/// shared slot per warp, the first warp reduces the slots; out(b) per block.
template <class R, class ExecSpace, class InView, class OutView>
void reduce_warp_pass(const ExecSpace& exec, const InView& in, std::size_t n, int grid, const OutView& out) {
  using T     = typename OutView::non_const_value_type;
  using B_t   = Block<ExecSpace>;
  constexpr int BS = reduce_block, W = B_t::warp_size;
  using Slots = SharedArray<T, BS / W>;
  const auto p = LaunchParams(Dim3(grid), Dim3(BS)).uses<Slots>();
  launch(exec, "scratchkit::reduce_warp_shuffle", p, KOKKOS_LAMBDA(const B_t& b) {
    Slots s(b);
    PerThread<T, B_t, BS> v(b);
    const std::size_t stride = static_cast<std::size_t>(grid) * BS;
    b.threads([&](const Thread& t) {
      T acc = R::identity();
      for (std::size_t i = static_cast<std::size_t>(b.block_idx().x) * BS + t.rank; i < n; i += stride)
        acc = R::apply(acc, in(i));
      v(t) = acc;
    });
    warp_reduce(b, v, [](T a, T c) { return R::apply(a, c); });
    b.threads([&](const Thread& t) {
      if (t.rank % W == 0) s[t.rank / W] = v(t);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { v(t) = t.rank < BS / W ? s[t.rank] : R::identity(); });
    warp_reduce(b, v, [](T a, T c) { return R::apply(a, c); });
    b.threads([&](const Thread& t) {
      if (t.rank == 0) out(b.block_idx().x) = v(t);
    });
  });
}

/// Grid of the grid-stride variants: reduce_max_grid blocks, fewer when the data needs fewer.
inline int reduce_grid(std::size_t n) {
  const long long need = std::max<long long>(1, ceil_div(static_cast<long long>(n), reduce_block));
  return static_cast<int>(std::min<long long>(need, reduce_max_grid));
}

template <class R, class ExecSpace, class XView>
typename XView::non_const_value_type reduce_layer(const ExecSpace& exec, ReduceVariant variant, const XView& x) {
  using T     = typename XView::non_const_value_type;
  using Space = typename ExecSpace::memory_space;
  const std::size_t n = x.extent(0);
  T result;
  const Kokkos::View<T, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host_result(&result);
  switch (variant) {
    case ReduceVariant::tree: {
      std::size_t m = (n + reduce_per_block - 1) / reduce_per_block;
      Kokkos::View<T*, Space> a(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::a"), m);
      Kokkos::View<T*, Space> c(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::b"),
                                (m + reduce_per_block - 1) / reduce_per_block);
      reduce_tree_pass<R>(exec, x, n, a);
      while (m > 1) {
        const std::size_t next = (m + reduce_per_block - 1) / reduce_per_block;
        reduce_tree_pass<R>(exec, a, m, Kokkos::subview(c, std::make_pair(std::size_t(0), next)));
        std::swap(a, c);
        m = next;
      }
      Kokkos::deep_copy(exec, host_result, Kokkos::subview(a, 0));
      break;
    }
    case ReduceVariant::grid_stride_atomic: {
      Kokkos::View<T, Space> r(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::result"));
      Kokkos::deep_copy(exec, r, R::identity());
      reduce_atomic_pass<R>(exec, x, n, reduce_grid(n), r);
      Kokkos::deep_copy(exec, host_result, r);
      break;
    }
    case ReduceVariant::warp_shuffle: {
      const int grid = reduce_grid(n);
      Kokkos::View<T*, Space> part(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::part"),
                                   grid);
      Kokkos::View<T*, Space> r(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::r"), 1);
      reduce_warp_pass<R>(exec, x, n, grid, part);
      reduce_warp_pass<R>(exec, part, static_cast<std::size_t>(grid), 1, r);
      Kokkos::deep_copy(exec, host_result, Kokkos::subview(r, 0));
      break;
    }
    default: throw UnsupportedError(std::string("scratchkit::reduce: unknown variant ") + name(variant));
  }
  exec.fence();
  return result;
}

}  // namespace detail

/// Number of tree passes ReduceVariant::tree makes over n elements (1 + one per 512x shrink).
inline int reduce_tree_passes(std::size_t n) {
  int passes = 1;
  while (n > static_cast<std::size_t>(detail::reduce_per_block)) {
    n = (n + detail::reduce_per_block - 1) / detail::reduce_per_block;
    ++passes;
  }
  return passes;
}

/// The largest number of additions any element goes through in `variant`'s
/// sum over n elements (the height of its summation tree): the d of
/// the rounding bound |s - s_ref| <= gamma_d sum|x_i| the cross-checks use.
inline long long reduce_error_depth(ReduceVariant variant, std::size_t n) {
  constexpr long long log2_block = 8;  // tree levels over 256 slots
  const auto per_thread = [&](long long grid) {  // sequential grid-stride additions per thread
    return static_cast<long long>(ceil_div(static_cast<long long>(n), grid * detail::reduce_block));
  };
  switch (variant) {
    case ReduceVariant::tree: return reduce_tree_passes(n) * (1 + log2_block);
    case ReduceVariant::grid_stride_atomic: {
      const long long grid = detail::reduce_grid(n);
      return per_thread(grid) + log2_block + grid;  // + the chain of one atomic per block
    }
    case ReduceVariant::warp_shuffle: {
      const long long grid = detail::reduce_grid(n);
      return per_thread(grid) + 5 + 5 + (ceil_div(grid, detail::reduce_block) + 5 + 5);
    }
  }
  return static_cast<long long>(n);
}

/// Reduces the rank-1 View x with op and returns the result on the host
/// (fences exec). The accumulation type is x's value type, as in CUB; an
/// empty x gives op's identity (0; for min the type's largest value, for max
/// its lowest), as Kokkos' reducers and CUB do. Backend::native runs the CUDA
/// twin on exec's stream (Kokkos::Cuda, a contiguous CUDA View).
/// grid_stride_atomic combines blocks with atomics: its float sums are not
/// reproducible bit for bit from run to run; tree and warp_shuffle are.
/// \code
/// double s = scratchkit::reduce(exec, scratchkit::ReduceVariant::warp_shuffle, scratchkit::ReduceOp::sum, x);
/// \endcode
template <class ExecSpace, class XView>
typename XView::non_const_value_type reduce(const ExecSpace& exec, ReduceVariant variant, ReduceOp op,
                                            const XView& x, Backend backend = Backend::layer) {
  static_assert(XView::rank == 1, "scratchkit::reduce: x must be a rank-1 View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "scratchkit::reduce: x must be accessible from the execution space");
  using T = typename XView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value ||
                    std::is_same<T, std::int32_t>::value || std::is_same<T, std::int64_t>::value,
                "scratchkit::reduce: float, double, int32 or int64");
  T result{};
  if (backend == Backend::native) {
    void* stream = detail::native_stream(exec, "reduce");
    detail::require_native_view(x, "reduce", "x");
#if SCRATCHKIT_HAS_NATIVE_CUDA
    result = native::cuda::reduce(variant, op, x.data(), x.extent(0), stream);
#else
    (void)stream;
#endif
    return result;
  }
  detail::with_reducer<T>(op, [&](auto r) {
    using R = decltype(r);
    result  = x.extent(0) == 0 ? R::identity() : detail::reduce_layer<R>(exec, variant, x);
  });
  return result;
}

}  // namespace scratchkit
