// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA histogram (src/cuda/histogram.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
/// The code both twins run is in scratchkit/detail/histogram/plan.hpp; the overload
/// that runs the layer's plan (Backend::native's) is internal: detail/histogram/native.hpp.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/variants.hpp>

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {

/// Counts n values into `bins` equal bins over [lo, hi): counts[k] = number of
/// values in [lo + k*w, lo + (k+1)*w), w = (hi - lo) / bins (binning as
/// scratchkit::detail::histogram_bin). counts (bins elements) is overwritten;
/// values outside [lo, hi) and NaN are not counted. Throws ShapeError for
/// bins < 1, lo or hi not finite, or !(lo < hi), before anything runs.
void histogram(HistogramVariant v, const float* values, std::size_t n, double lo, double hi, std::uint32_t* counts,
               int bins, void* stream = nullptr);
void histogram(HistogramVariant v, const double* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream = nullptr);
void histogram(HistogramVariant v, const std::int32_t* values, std::size_t n, double lo, double hi,
               std::uint32_t* counts, int bins, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
