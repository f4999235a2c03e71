// SPDX-License-Identifier: BSD-3-Clause
/// Histogram of equal bins over [lo, hi) on the layer (native twin: src/cuda/histogram.cu).
#pragma once

#include <scratchkit/detail/histogram/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// Counts the values of `values` into counts.extent(0) equal bins over
/// [lo, hi) on `backend`: counts(k) = how many values lie in
/// [lo + k*w, lo + (k+1)*w), w = (hi - lo) / bins, as detail::histogram_bin
/// computes it (in the value type, double for int32, with lo and hi rounded
/// up to that type, so exactly the values with lo <= v < hi are counted).
/// Values outside [lo, hi) and NaN are not counted (as CUB). counts is
/// overwritten.
///
/// values: rank-1 View of float, double or std::int32_t; counts: rank-1 View
/// of std::uint32_t. Backend::native runs the CUDA twin on exec's stream and
/// needs Kokkos::Cuda and contiguous CUDA Views (UnsupportedError otherwise).
/// Throws ShapeError, before any launch, for zero bins, lo or hi not finite,
/// or !(lo < hi). detail/histogram/layer.hpp opens with what each variant does.
/// Asynchronous: fence exec before reading counts.
/// \code
/// Kokkos::View<std::uint32_t*> counts("counts", 256);
/// scratchkit::histogram(exec, scratchkit::HistogramVariant::shared_atomic, x, 0.0, 1.0, counts);
/// \endcode
template <class ExecSpace, class ValuesView, class CountsView>
void histogram(const ExecSpace& exec, HistogramVariant variant, const ValuesView& values, double lo, double hi,
               const CountsView& counts, Backend backend = Backend::layer) {
  static_assert(ValuesView::rank == 1 && CountsView::rank == 1,
                "scratchkit::histogram: values and counts must be rank-1 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename ValuesView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename CountsView::memory_space>::accessible,
                "scratchkit::histogram: the Views must be accessible from the execution space");
  using T = typename ValuesView::non_const_value_type;
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value ||
                    std::is_same<T, std::int32_t>::value,
                "scratchkit::histogram: values must be float, double or std::int32_t");
  static_assert(std::is_same<typename CountsView::value_type, std::uint32_t>::value,
                "scratchkit::histogram: counts must be a View of (non-const) std::uint32_t");
  const auto hb = detail::histogram_bins<T>(lo, hi, counts.extent(0), "scratchkit::histogram");
  detail::require_distinct_elements(counts, "histogram", "counts");
  detail::map_layouts("histogram", backend, {"values", "counts"}, [&](auto, const auto& v, const auto& c) {
    detail::histogram_run(exec, variant, detail::const_view(v), lo, hi, hb, c, backend);
  }, values, counts);
}

}  // namespace scratchkit
