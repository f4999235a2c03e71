// SPDX-License-Identifier: BSD-3-Clause
/// Default variants of the public kernels, chosen by execution space at compile time.
///
/// A GPU and a CPU want different variants of the same kernel: on a GPU the
/// shared-memory variants win (register-blocked GEMM, privatised histogram
/// bins); on a host backend (Serial, OpenMP, Threads) a block's logical threads
/// are loops and scratch is ordinary cache, so the variants with the least
/// per-block work and the fewest barriers win. Each kernel's choice is one
/// policy type (`detail::GpuVariantPolicy`, `detail::HostVariantPolicy`), the way
/// the blockings are chosen per architecture; the measurements behind the host
/// choices are in docs/performance.md ("On a CPU").
///
/// \code
/// scratchkit::gemm(exec, 1.0f, A, B, 0.0f, C);  // register_blocked on a GPU, tiled on a host backend
/// auto v = scratchkit::default_variant<scratchkit::HistogramVariant, float>(exec, bins);
/// \endcode
#pragma once

#include <scratchkit/detail/backend.hpp>
#include <scratchkit/kernels/gemm.hpp>
#include <scratchkit/kernels/histogram.hpp>
#include <scratchkit/kernels/reduce.hpp>
#include <scratchkit/kernels/stencil_1d.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>
#include <scratchkit/kernels/transpose.hpp>
#include <scratchkit/variants.hpp>

#include <type_traits>

namespace scratchkit {
namespace detail {

/// GPU backends: the variants measured fastest on the H100 (perf/results/h100/summary.md).
struct GpuVariantPolicy {
  static constexpr GemmVariant gemm(int /*elem_bytes*/) { return GemmVariant::register_blocked; }
  static constexpr ReduceVariant reduce(int /*elem_bytes*/) { return ReduceVariant::grid_stride_atomic; }
  static constexpr Stencil1DVariant stencil_1d(int /*elem_bytes*/) { return Stencil1DVariant::vectorized; }
  static constexpr Stencil3DVariant stencil_3d(int /*elem_bytes*/) { return Stencil3DVariant::z_streaming; }
  static constexpr TransposeVariant transpose(int /*elem_bytes*/) { return TransposeVariant::tiled_padded; }
  static constexpr HistogramVariant histogram(int /*bins*/) { return HistogramVariant::shared_atomic; }
};

/// Host backends: the variants measured fastest on OpenMP with 2 and 1 threads
/// (perf/results/cpu-2core/). register_blocked GEMM keeps a block of accumulators per
/// logical thread in PerThread arrays across every barrier; tiled keeps one and is
/// several times faster there. Sums take warp_shuffle: on one member per block its threads'
/// grid-stride streams run as one pass over each step's vectors in memory order (a vectorised
/// loop into the threads' lane accumulators, the same sums in the same order), two launches in
/// all against the tree's one per level, and the result is reproducible bit for bit, unlike
/// grid_stride_atomic's (docs/performance.md, "On a CPU"). The 1-D and 3-D stencils' halo tiles have
/// host paths over whole rows (detail::host_direct) that the vectorised 1-D tile and the
/// 3-D register ring, built around one thread's outputs, do not. The histogram takes privatised
/// bins at every bin count: on a host backend a block's bins take plain increments and one block
/// runs per thread, so the zeroing and merge of each block's bins cost less than an atomic per value.
struct HostVariantPolicy {
  static constexpr GemmVariant gemm(int /*elem_bytes*/) { return GemmVariant::tiled; }
  static constexpr ReduceVariant reduce(int /*elem_bytes*/) { return ReduceVariant::warp_shuffle; }
  static constexpr Stencil1DVariant stencil_1d(int /*elem_bytes*/) { return Stencil1DVariant::halo_tile; }
  static constexpr Stencil3DVariant stencil_3d(int /*elem_bytes*/) { return Stencil3DVariant::tile_2d_halo; }
  static constexpr TransposeVariant transpose(int /*elem_bytes*/) { return TransposeVariant::tiled_padded; }
  static constexpr HistogramVariant histogram(int /*bins*/) { return HistogramVariant::shared_atomic; }
};

/// The variant policy of ExecSpace.
template <class ExecSpace>
using variant_policy_t =
    std::conditional_t<is_gpu_space<ExecSpace>::value, GpuVariantPolicy, HostVariantPolicy>;

}  // namespace detail

/// The default variant of a kernel on ExecSpace for elements of type Value (the histogram's
/// depends on its bin count), at compile time: default_variant_of<GemmVariant, Kokkos::OpenMP, float>().
template <class Variant, class ExecSpace, class Value = float>
constexpr Variant default_variant_of(int bins = 0) {
  using P         = detail::variant_policy_t<ExecSpace>;
  constexpr int e = static_cast<int>(sizeof(Value));
  if constexpr (std::is_same<Variant, GemmVariant>::value) return (void)bins, P::gemm(e);
  else if constexpr (std::is_same<Variant, ReduceVariant>::value) return (void)bins, P::reduce(e);
  else if constexpr (std::is_same<Variant, Stencil1DVariant>::value) return (void)bins, P::stencil_1d(e);
  else if constexpr (std::is_same<Variant, Stencil3DVariant>::value) return (void)bins, P::stencil_3d(e);
  else if constexpr (std::is_same<Variant, TransposeVariant>::value) return (void)bins, P::transpose(e);
  else {
    static_assert(std::is_same<Variant, HistogramVariant>::value, "scratchkit::default_variant: not a kernel variant");
    return P::histogram(bins);
  }
}

/// The default variant of a kernel on exec's space for elements of type Value (default_variant_of).
template <class Variant, class Value = float, class ExecSpace>
Variant default_variant(const ExecSpace& exec, int bins = 0) {
  (void)exec;
  return default_variant_of<Variant, ExecSpace, Value>(bins);
}

/// gemm with the default variant of ExecSpace (default_variant).
template <class ExecSpace, class AV, class BV, class CV>
void gemm(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
          typename CV::non_const_value_type beta, const CV& C) {
  gemm(exec, default_variant<GemmVariant, typename CV::non_const_value_type>(exec), alpha, A, B, beta, C);
}

/// reduce with the default variant of ExecSpace (default_variant).
template <class ExecSpace, class XView>
typename XView::non_const_value_type reduce(const ExecSpace& exec, ReduceOp op, const XView& x) {
  return reduce(exec, default_variant<ReduceVariant, typename XView::non_const_value_type>(exec), op, x);
}

/// stencil_1d with the default variant of ExecSpace (default_variant).
template <class ExecSpace, class InView, class WView, class OutView>
void stencil_1d(const ExecSpace& exec, const InView& in, const WView& w, const OutView& out) {
  stencil_1d(exec, default_variant<Stencil1DVariant, typename OutView::non_const_value_type>(exec), in, w, out);
}

/// stencil_3d_7pt with the default variant of ExecSpace (default_variant).
template <class ExecSpace, class InView, class OutView>
void stencil_3d_7pt(const ExecSpace& exec, const InView& in, const OutView& out,
                    typename OutView::non_const_value_type c0, typename OutView::non_const_value_type c1) {
  stencil_3d_7pt(exec, default_variant<Stencil3DVariant, typename OutView::non_const_value_type>(exec), in, out, c0, c1);
}

/// transpose with the default variant of ExecSpace (default_variant).
template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, const InView& in, const OutView& out) {
  transpose(exec, default_variant<TransposeVariant, typename OutView::non_const_value_type>(exec), in, out);
}

/// histogram with the default variant of ExecSpace for counts.extent(0) bins (default_variant).
template <class ExecSpace, class ValuesView, class CountsView>
void histogram(const ExecSpace& exec, const ValuesView& values, double lo, double hi, const CountsView& counts) {
  histogram(exec, default_variant<HistogramVariant, typename ValuesView::non_const_value_type>(exec, static_cast<int>(counts.extent(0))), values, lo, hi,
            counts);
}

}  // namespace scratchkit
