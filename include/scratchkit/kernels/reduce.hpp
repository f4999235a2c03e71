// SPDX-License-Identifier: BSD-3-Clause
/// Reduction (sum/min/max) on the layer (native twin: src/cuda/reduce.cu).
#pragma once

#include <scratchkit/detail/reduce/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

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
/// sum over n elements of elem_bytes (4 or 8) bytes when the grid-stride
/// variants may use up to fill_blocks blocks (the height of its summation
/// tree): the d of the rounding bound |s - s_ref| <= gamma_d sum|x_i| the
/// cross-checks use. warp_lanes: the warp size the kernels run with
/// (warp_size<ExecSpace>(): 64 on AMD GPUs), the width of warp_shuffle's trees.
inline long long reduce_error_depth(ReduceVariant variant, std::size_t n, long long fill_blocks,
                                    std::size_t elem_bytes, int warp_lanes = 32) {
  using Bk = detail::ReduceDefaultBlocking;
  constexpr long long log2_block = 8;  // tree levels over the tree variant's 256 slots
  long long warp_tree = 0;             // shuffle levels over a warp's lanes
  while ((1LL << warp_tree) < warp_lanes) ++warp_tree;
  long long log2_threads = 0;          // grid_stride_atomic's block tree over Bk::threads slots
  while ((1LL << log2_threads) < Bk::threads) ++log2_threads;
  const int grid        = detail::reduce_grid<Bk>(n, elem_bytes, fill_blocks);
  const long long lanes = elem_bytes == 4 ? 2 : 1;  // tree levels over a thread's 4 or 2 lanes
  switch (variant) {
    case ReduceVariant::tree: return reduce_tree_passes(n) * (1 + log2_block);
    case ReduceVariant::grid_stride_atomic:  // + the chain of one atomic per block
      return detail::reduce_lane_chain<Bk>(n, elem_bytes, grid) + lanes + log2_threads + grid;
    case ReduceVariant::warp_shuffle: {  // a thread's lanes, its warp, the block's warps; again over the partials
      long long d = detail::reduce_lane_chain<Bk>(n, elem_bytes, grid) + lanes + 2 * warp_tree;
      if (grid > 1)
        d += detail::reduce_lane_chain<Bk>(static_cast<std::size_t>(grid), elem_bytes, 1) + lanes + 2 * warp_tree;
      return d;
    }
  }
  return static_cast<long long>(n);
}

/// reduce_error_depth on exec's device (its grid), for any element type (the larger of 4 and 8 bytes).
template <class ExecSpace>
long long reduce_error_depth(const ExecSpace& exec, ReduceVariant variant, std::size_t n) {
  const long long fill = detail::reduce_device_fill<detail::ReduceDefaultBlocking>(exec);
  const int w = warp_size<ExecSpace>();
  return std::max(reduce_error_depth(variant, n, fill, 4, w), reduce_error_depth(variant, n, fill, 8, w));
}

/// reduce_error_depth on the default execution space's device, for any element type.
inline long long reduce_error_depth(ReduceVariant variant, std::size_t n) {
  return reduce_error_depth(Kokkos::DefaultExecutionSpace(), variant, n);
}

/// Reduces the rank-1 View x with op and returns the result on the host
/// (fences exec). The accumulation type is x's value type, as in CUB; an
/// empty x gives op's identity (0; for min the type's largest value, for max
/// its lowest), as Kokkos' reducers and CUB do. Backend::native runs the CUDA
/// twin on exec's stream (Kokkos::Cuda, a contiguous CUDA View). x may be a
/// subview starting anywhere; strided Views are read element by element in
/// the same order. grid_stride_atomic combines blocks with atomics: its
/// float sums are not reproducible bit for bit from run to run; tree and
/// warp_shuffle are. Throws UnsupportedError for an unknown variant or
/// operator before anything runs. Calls from several host threads take
/// turns on the cached workspace.
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
  if (variant != ReduceVariant::tree && variant != ReduceVariant::grid_stride_atomic &&
      variant != ReduceVariant::warp_shuffle)
    throw UnsupportedError(std::string("scratchkit::reduce: unknown variant ") + name(variant));
  T result{};
  detail::map_layouts("reduce", backend, {"x"}, [&](auto, const auto& xv) {
    result = detail::reduce_run(exec, variant, op, detail::const_view(xv), backend);
  }, x);
  return result;
}

}  // namespace scratchkit
