// SPDX-License-Identifier: BSD-3-Clause
// Histogram rows: both variants on both backends and CUB DeviceHistogram::HistogramEven,
// for 256 and 65536 bins over [-1, 1). Minimal traffic: the values read once, the bins written once.
#include "harness.hpp"

#include <scratchkit/kernels/histogram.hpp>
#include <scratchkit/native/vendor.hpp>

#include <vector>

namespace scratchkit {
namespace perf {
namespace {

constexpr double lo = -1.0, hi = 1.0;

template <class T>
struct HistogramData {
  Operand1D<T> x;
  Kokkos::View<std::uint32_t*, Mem> counts;
  std::vector<std::uint32_t> ref;
  HistogramData(std::size_t n, int bins)
      : x("histogram::x", n, 7), counts("histogram::counts", bins), ref(static_cast<std::size_t>(bins), 0) {
    const auto hb = detail::histogram_bins<T>(lo, hi, static_cast<std::size_t>(bins), "bench");
    for (std::size_t i = 0; i < n; ++i) {
      const int k = detail::histogram_bin<detail::histogram_compute_t<T>>(
          static_cast<detail::histogram_compute_t<T>>(x.h(i)), hb.lo, hb.hi, hb.scale, hb.bins);
      if (k >= 0) ++ref[static_cast<std::size_t>(k)];
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
    k.check = check;  // CUB bins by its own arithmetic: exact agreement is what we measure
    cases.push_back(k);
  }
#endif
}

}  // namespace

void add_histogram_cases(const Config& c, std::vector<Case>& cases) {
  const std::size_t n = c.full ? (std::size_t(1) << 28) : (std::size_t(1) << 20);
  const std::string size = c.full ? "2^28" : "2^20";
  for (int bins : {256, 65536}) add<float>(c, cases, n, size, bins);
}

}  // namespace perf
}  // namespace scratchkit
