// SPDX-License-Identifier: BSD-3-Clause
/// Reduction (sum/min/max) on the layer (native twin: src/cuda/reduce.cu).
#pragma once

#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/kernels/variants.hpp>
#include <scratchkit/launch.hpp>

#include <limits>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// Threads per block of ReduceVariant::tree (a power of two).
constexpr int reduce_block = 256;
/// Elements one block of ReduceVariant::tree consumes per pass.
constexpr int reduce_per_block = 2 * reduce_block;

template <class T>
struct ReduceFn {
  ReduceOp op;
  KOKKOS_INLINE_FUNCTION T operator()(T a, T b) const {
    switch (op) {
      case ReduceOp::sum: return a + b;
      case ReduceOp::min: return b < a ? b : a;
      case ReduceOp::max: return a < b ? b : a;
    }
    return a;
  }
  KOKKOS_INLINE_FUNCTION T identity() const {
    switch (op) {
      case ReduceOp::sum: return T(0);
      case ReduceOp::min: return Kokkos::reduction_identity<T>::min();
      case ReduceOp::max: return Kokkos::reduction_identity<T>::max();
    }
    return T(0);
  }
};

/// One pass: block b reduces in[b*512, b*512+512) into out(b).
template <class ExecSpace, class InView, class OutView>
void reduce_tree_pass(const ExecSpace& exec, ReduceOp op, const InView& in, std::size_t n, const OutView& out) {
  using T   = typename OutView::non_const_value_type;
  using B_t = Block<ExecSpace>;
  constexpr int BS = reduce_block;
  const ReduceFn<T> fn{op};
  const auto p = LaunchParams(Dim3(ceil_div(static_cast<long long>(n), reduce_per_block)), Dim3(BS))
                     .shared_mem_bytes(BS * sizeof(T));
  launch(exec, "scratchkit::reduce_tree", p, KOKKOS_LAMBDA(const B_t& b) {
    auto sdata = DynamicSharedArray<T>::get(b);
    const std::size_t base = static_cast<std::size_t>(b.block_idx().x) * (2 * BS);
    b.threads([&](const Thread& t) {
      const std::size_t i = base + t.rank;
      T v = fn.identity();
      if (i < n) v = in(i);
      if (i + BS < n) v = fn(v, in(i + BS));
      sdata[t.rank] = v;
    });
    sync_threads(b);
    for (int s = BS / 2; s > 0; s >>= 1) {
      b.threads([&](const Thread& t) {
        if (t.rank < s) sdata[t.rank] = fn(sdata[t.rank], sdata[t.rank + s]);
      });
      sync_threads(b);
    }
    b.once([&]() { out(b.block_idx().x) = sdata[0]; });
  });
}

}  // namespace detail

/// Number of tree passes reduce() makes over n elements (1 + one per 512x shrink).
inline int reduce_tree_passes(std::size_t n) {
  int passes = 1;
  while (n > static_cast<std::size_t>(detail::reduce_per_block)) {
    n = (n + detail::reduce_per_block - 1) / detail::reduce_per_block;
    ++passes;
  }
  return passes;
}

/// Reduces the rank-1 View x with op on the layer and returns the result on
/// the host (fences exec). The accumulation type is x's value type, as in CUB.
/// An empty x gives op's identity (0; for min the type's largest value, for
/// max its lowest), as Kokkos' reducers and CUB do.
/// \code
/// double s = scratchkit::reduce(exec, scratchkit::ReduceVariant::tree, scratchkit::ReduceOp::sum, x);
/// \endcode
template <class ExecSpace, class XView>
typename XView::non_const_value_type reduce(const ExecSpace& exec, ReduceVariant variant, ReduceOp op,
                                            const XView& x) {
  static_assert(XView::rank == 1, "scratchkit::reduce: x must be a rank-1 View");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "scratchkit::reduce: x must be accessible from the execution space");
  using T     = typename XView::non_const_value_type;
  using Space = typename ExecSpace::memory_space;
  if (variant != ReduceVariant::tree) throw UnsupportedError("scratchkit::reduce: unknown variant");
  const std::size_t n = x.extent(0);
  if (n == 0) return detail::ReduceFn<T>{op}.identity();

  std::size_t m = (n + detail::reduce_per_block - 1) / detail::reduce_per_block;
  Kokkos::View<T*, Space> a(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::partial_a"), m);
  detail::reduce_tree_pass(exec, op, x, n, a);
  if (m > 1) {
    Kokkos::View<T*, Space> bbuf(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, "scratchkit::reduce::partial_b"),
        (m + detail::reduce_per_block - 1) / detail::reduce_per_block);
    while (m > 1) {
      const std::size_t next = (m + detail::reduce_per_block - 1) / detail::reduce_per_block;
      auto dst = Kokkos::subview(bbuf, std::make_pair(std::size_t(0), next));
      detail::reduce_tree_pass(exec, op, a, m, dst);
      std::swap(a, bbuf);
      m = next;
    }
  }
  T result;
  Kokkos::deep_copy(exec, Kokkos::View<T, Kokkos::HostSpace>(&result), Kokkos::subview(a, 0));
  exec.fence();
  return result;
}

}  // namespace scratchkit
