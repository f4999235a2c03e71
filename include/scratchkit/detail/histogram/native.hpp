// SPDX-License-Identifier: BSD-3-Clause
/// The native histogram twin running a given plan (internal): what Backend::native calls, apart
/// from native/histogram.hpp so that the public declarations name no detail:: type.
#pragma once

#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/native/histogram.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// native::cuda::histogram with the launch plan chosen by the caller (scratchkit::detail::histogram_plan,
/// the one choice of both twins: the layer's Backend::native passes its own); the public overloads
/// plan with the device's own limits. Throws ShapeError where `plan` is not a plan for v and bins,
/// and LaunchError where its shared memory exceeds the device's. Defined in src/cuda/histogram.cu.
void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream, const scratchkit::detail::HistogramPlan& plan);
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream, const scratchkit::detail::HistogramPlan& plan);
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream, const scratchkit::detail::HistogramPlan& plan);

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
