// SPDX-License-Identifier: BSD-3-Clause
// Histogram rows: both variants on both backends and CUB DeviceHistogram::HistogramEven,
// for 256 and 65536 bins over [-1, 1). Minimal traffic: the values read once, the bins written once.
#include "harness.hpp"
#include "plain_kokkos.hpp"

#include <Kokkos_ScatterView.hpp>

#include <scratchkit/kernels/histogram.hpp>
#include "vendor/vendor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

constexpr double lo = -1.0, hi = 1.0;

/// The histogram as a CPU Kokkos user writes it: Kokkos::Experimental::ScatterView over the counts
/// (on OpenMP a private copy of the bins per thread, summed at the end; on Serial the counts
/// themselves), the same binning expression. `sv` is the caller's, made once for these counts
/// (as an application keeps it between calls): the counts zeroed, the other copies reset, filled,
/// contributed.
template <class ExecSpace, class ValuesView, class CountsView, class Scatter>
void histogram_scatter(const ExecSpace& exec, const ValuesView& values, double lo, double hi, const CountsView& counts,
                       Scatter& sv) {
  using T = typename ValuesView::non_const_value_type;
  using C = detail::histogram_compute_t<T>;
  const auto hb = detail::histogram_bins<T>(lo, hi, counts.extent(0), "bench::plain_histogram_scatter");
  const C l = hb.lo, h = hb.hi, scale = hb.scale;
  const int nb = hb.bins;
  Kokkos::deep_copy(exec, counts, std::uint32_t(0));
  sv.reset_except(exec, counts);  // on Serial the ScatterView is the counts themselves
  Kokkos::parallel_for(
      "scratchkit::bench::plain_histogram_scatter", Kokkos::RangePolicy<ExecSpace>(exec, 0, values.extent(0)),
      KOKKOS_LAMBDA(std::size_t i) {
        const int k = detail::histogram_bin<C>(static_cast<C>(values(i)), l, h, scale, nb);
        if (k >= 0) sv.access()(k) += 1;
      });
  CountsView dest = counts;  // Kokkos 3.4 contributes into a non-const View handle
  Kokkos::Experimental::contribute(exec, dest, sv);
}

template <class T>
struct HistogramData {
  Operand1D<T> x;
  using Counts = Kokkos::View<std::uint32_t*, Mem>;
  Counts counts;
  std::vector<std::uint32_t> ref;    ///< scratchkit's binning (detail::histogram_bin): layer and native exactly
  std::vector<std::uint32_t> exact;  ///< binning in exact arithmetic (floor((v - lo) B / (hi - lo)) in double)
  std::vector<std::uint32_t> edge;   ///< values within 2 ulps (of T, at the magnitude of v - lo) of a bin k edge
  HistogramData(std::size_t n, int bins)
      : x("histogram::x", n, 7), counts("histogram::counts", bins), ref(static_cast<std::size_t>(bins), 0),
        exact(ref), edge(ref) {
    const auto hb = detail::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "bench");
    for (std::size_t i = 0; i < n; ++i) {
      const T v   = x.h(i);
      const int k = detail::histogram_bin<detail::histogram_compute_t<T>>(
          static_cast<detail::histogram_compute_t<T>>(v), hb.lo, hb.hi, hb.scale, hb.bins);
      if (k >= 0) ++ref[static_cast<std::size_t>(k)];
      // (v - lo) * B / (hi - lo) is exact in double for float v and these lo, hi, B (powers of two).
      const double t = (static_cast<double>(v) - lo) * bins / (hi - lo);
      if (t >= 0 && t < bins) ++exact[static_cast<std::size_t>(t)];
      // CUB's (v - lo) * scale rounds in T at the magnitude of v - lo (up to |hi - lo|).
      const T m         = static_cast<T>(std::max({std::fabs(static_cast<double>(v)), std::fabs(lo), std::fabs(hi),
                                                    static_cast<double>(v) - lo}));
      const double ulp2 = 2.0 * (static_cast<double>(std::nextafter(m, std::numeric_limits<T>::max())) - m);
      const double tu   = ulp2 * bins / (hi - lo);  // 2 ulps in bin units
      const double f  = std::floor(t);
      if (t - f < tu && f - 1 >= 0 && f - 1 < bins) ++edge[static_cast<std::size_t>(f - 1)];
      if (t - f < tu && f >= 0 && f < bins) ++edge[static_cast<std::size_t>(f)];
      if (f + 1 - t < tu && f >= 0 && f < bins) ++edge[static_cast<std::size_t>(f)];
      if (f + 1 - t < tu && f + 1 < bins) ++edge[static_cast<std::size_t>(f + 1)];
    }
  }
};

template <class T>
void add(const Config& c, std::vector<Case>& cases, std::size_t n, const std::string& size, int bins) {
  const std::string key = std::string("histogram/") + type_name<T>() + "/" + size + "/" + std::to_string(bins);
  auto data = [key, n, bins] {
    return data_cache().get<HistogramData<T>>(key, [n, bins] { return HistogramData<T>(n, bins); });
  };
  const std::string label = size + "_" + std::to_string(bins) + "bins";
  auto check = [data] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->counts);
    for (std::size_t k = 0; k < d->ref.size(); ++k)
      if (h(k) != d->ref[k]) return false;
    return true;
  };
  auto poison = [data] { Kokkos::deep_copy(data()->counts, 0xDEADBEEFu); };
  const double bytes = static_cast<double>(n) * sizeof(T) + static_cast<double>(bins) * sizeof(std::uint32_t);
  for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic})
    for (auto b : backends(c)) {
      Case k{"histogram", name(v), backend_name(b), type_name<T>(), label};
      k.bytes   = bytes;
      k.prepare = poison;
      k.run     = [data, v, b] {
        auto d = data();
        histogram(Exec(), v, d->x.d, lo, hi, d->counts, b);
      };
      k.check = check;
      cases.push_back(k);
    }
  if (plain_rows()) {
    Case k{"histogram", "range_atomic", "plain-kokkos", type_name<T>(), label};
    k.bytes   = bytes;
    k.prepare = poison;
    k.run     = [data] {
      auto d = data();
      plain::histogram(Exec(), d->x.d, lo, hi, d->counts);
    };
    k.check = check;
    cases.push_back(k);
    // ScatterView, what a CPU Kokkos user picks: made once per data set, as an application keeps it.
    using SV   = Kokkos::Experimental::ScatterView<std::uint32_t*, typename HistogramData<T>::Counts::array_layout, Exec>;
    auto held  = std::make_shared<std::pair<const void*, SV>>();
    Case s{"histogram", "scatter_view", "plain-kokkos", type_name<T>(), label};
    s.bytes   = bytes;
    s.prepare = poison;
    s.run     = [data, held] {
      auto d = data();
      if (held->first != d->counts.data()) *held = {d->counts.data(), SV(d->counts)};
      histogram_scatter(Exec(), d->x.d, lo, hi, d->counts, held->second);
    };
    s.check = check;
    cases.push_back(s);
  }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  if (c.vendor) {
    Case k{"histogram", "cub_histogram_even", "vendor", type_name<T>(), label};
    k.bytes   = bytes;
    k.prepare = poison;
    k.run     = [data, bins] {
      auto d = data();
      native::cuda::vendor::histogram_even(d->x.d.data(), d->x.d.size(), bins, lo, hi, d->counts.data(),
                                           Exec().cuda_stream());
    };
    // CUB bins with its own floating-point arithmetic: a value within 2 ulps
    // of a bin edge may land on either side. Counts must match the exact
    // binning up to those values, and so must the totals.
    k.check = [data] {
      auto d = data();
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->counts);
      long long total = 0, exact_total = 0;
      for (std::size_t b = 0; b < d->exact.size(); ++b) {
        const long long diff = static_cast<long long>(h(b)) - static_cast<long long>(d->exact[b]);
        if (diff > static_cast<long long>(d->edge[b]) || -diff > static_cast<long long>(d->edge[b])) return false;
        total += h(b);
        exact_total += d->exact[b];
      }
      // Values within 2 ulps of lo or hi may fall out of range on CUB's side
      // (it drops a sample whose (v - lo) * scale rounds up to B, where
      // scratchkit clamps to B - 1): the totals agree up to those.
      const long long slack = static_cast<long long>(d->edge.front()) + static_cast<long long>(d->edge.back());
      return total - exact_total <= slack && exact_total - total <= slack;
    };
    cases.push_back(k);
  }
#endif
}

}  // namespace

void add_histogram_cases(const Config& c, std::vector<Case>& cases) {
  for (const int e : sweep_exponents(c, host_full(c) ? 24 : c.full ? 28 : 20)) {
    const std::size_t n = std::size_t(1) << e;
    const std::string size = "2^" + std::to_string(e);
    for (int bins : {256, 65536}) add<float>(c, cases, n, size, bins);
  }
}

}  // namespace perf
}  // namespace scratchkit
