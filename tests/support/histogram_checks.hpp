// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the histogram tests (test_histogram.cpp, test_histogram_blockings.cpp).
#pragma once

#include "test_support.hpp"

#include <scratchkit/kernels/histogram.hpp>

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace scratchkit {
namespace histogram_checks {

inline constexpr std::uint32_t count_poison = 0x5A5A5A5Au;

/// The range each value type is binned over: lo and hi are not representable
/// in float, so the rounding of the bounds is exercised.
template <class T>
struct Range {
  static constexpr double lo = -1.3, hi = 2.7;
};
template <>
struct Range<std::int32_t> {
  static constexpr double lo = -100000.5, hi = 250000.25;
};

/// Random values over a range 10% wider than [lo, hi), plus edge values at
/// fixed positions: the bounds and their neighbours, NaN and infinities (floats).
template <class HostView>
void fill_values(const HostView& h, std::uint64_t seed, double lo, double hi) {
  using T = typename HostView::non_const_value_type;
  const std::size_t n = h.extent(0);
  const double w      = hi - lo;
  std::mt19937_64 gen(seed);
  std::vector<T> edges;
  if constexpr (std::is_floating_point<T>::value) {
    std::uniform_real_distribution<double> d(lo - 0.05 * w, hi + 0.05 * w);
    for (std::size_t i = 0; i < n; ++i) h(i) = static_cast<T>(d(gen));
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T tlo = static_cast<T>(lo), thi = static_cast<T>(hi);
    edges = {tlo, thi, std::nextafter(tlo, -inf), std::nextafter(tlo, inf), std::nextafter(thi, -inf),
             std::nextafter(thi, inf), nan, -inf, inf, nan, T(-0.0), nan};
  } else {
    std::uniform_int_distribution<long long> d(static_cast<long long>(lo - 0.05 * w),
                                               static_cast<long long>(hi + 0.05 * w));
    for (std::size_t i = 0; i < n; ++i) h(i) = static_cast<T>(d(gen));
    const long long l = static_cast<long long>(std::floor(lo)), u = static_cast<long long>(std::floor(hi));
    edges = {T(l), T(l + 1), T(u), T(u + 1), std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0)};
  }
  // Spread the edge values over the array (all of them once n >= edges.size()).
  for (std::size_t e = 0; e < edges.size() && e < n; ++e) h(e * (n / edges.size() + 1) % n) = edges[e];
}

/// Host reference: the kernels' binning, one value at a time.
template <class T>
std::vector<std::uint32_t> reference(const T* v, std::size_t n, double lo, double hi, int bins) {
  const auto hb = detail::histogram_bins<T>(lo, hi, bins, "reference");
  std::vector<std::uint32_t> ref(bins, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int k = detail::histogram_bin<detail::histogram_compute_t<T>>(
        static_cast<detail::histogram_compute_t<T>>(v[i]), hb.lo, hb.hi, hb.scale, bins);
    if (k >= 0) ++ref[k];
  }
  return ref;
}

/// Values with lo <= v < hi, compared in double (exact for float, double, int32).
template <class T>
std::uint64_t in_range(const T* v, std::size_t n, double lo, double hi) {
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < n; ++i) c += (static_cast<double>(v[i]) >= lo && static_cast<double>(v[i]) < hi);
  return c;
}

/// Runs one histogram and checks counts against ref exactly and their total against `total`.
template <class Exec, class ValuesView>
void check_one(HistogramVariant v, Backend backend, const ValuesView& values, double lo, double hi, int bins,
               const std::vector<std::uint32_t>& ref, std::uint64_t total) {
  using Counts = Kokkos::View<std::uint32_t*, typename ValuesView::memory_space>;
  CAPTURE(name(v), name(backend), bins);
  Counts counts("counts", bins);
  Kokkos::deep_copy(counts, count_poison);  // counts is overwritten, never accumulated into
  histogram(Exec(), v, values, lo, hi, counts, backend);
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  std::size_t bad = 0, first_bad = 0;
  std::uint64_t sum = 0;
  for (int k = 0; k < bins; ++k) {
    sum += out(k);
    if (out(k) != ref[k] && bad++ == 0) first_bad = static_cast<std::size_t>(k);
  }
  CAPTURE(first_bad, bad == 0 ? 0u : out(first_bad), bad == 0 ? 0u : ref[first_bad]);
  CHECK(bad == 0);
  CHECK(sum == total);
}

template <class Exec, class T>
void check_type() {
  using View        = Kokkos::View<T*, typename Exec::memory_space>;
  const double lo   = Range<T>::lo, hi = Range<T>::hi;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000), std::size_t(65537),
                        std::size_t(1) << 20}) {
    const auto seed = test::case_seed(n, sizeof(T), std::is_integral<T>::value);
    CAPTURE(n, seed, sizeof(T), std::is_integral<T>::value, Exec::name());
    View values("values", n);
    auto hv = Kokkos::create_mirror(values);  // a copy: on host backends a mirror view would alias
    fill_values(hv, seed, lo, hi);
    Kokkos::deep_copy(values, hv);
    const std::uint64_t total = in_range(hv.data(), n, lo, hi);
    for (int bins : {1, 7, 256, 4099, 65536}) {
      const auto ref = reference(hv.data(), n, lo, hi, bins);
      for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic})
        check_one<Exec>(v, Backend::layer, values, lo, hi, bins, ref, total);
    }
  }
}

/// n values from `seed` placed two ways on Exec's memory: `values()`, the
/// subview [off, off + n) of a View of n + 3 (a start off elements past a
/// 16-byte boundary), and `column()`, column 0 of an n x 2 View (stride 2)
/// holding the same values; `host()` the values on the host.
template <class Exec, class T>
struct PlacedValues {
  using Mem = typename Exec::memory_space;
  std::size_t n, off;
  Kokkos::View<T*, Mem> base;
  typename Kokkos::View<T*, Mem>::host_mirror_type hb;
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> m;

  PlacedValues(std::size_t n_, std::size_t off_, std::uint64_t seed)
      : n(n_), off(off_), base("base", n_ + 3), hb(Kokkos::create_mirror(base)), m("m", n_, 2) {
    fill_values(hb, seed, Range<T>::lo, Range<T>::hi);
    Kokkos::deep_copy(base, hb);
    auto hm = Kokkos::create_mirror(m);
    for (std::size_t i = 0; i < n; ++i) hm(i, 0) = hb(off + i), hm(i, 1) = T(0);
    Kokkos::deep_copy(m, hm);
  }
  auto values() const { return Kokkos::subview(base, std::make_pair(off, off + n)); }
  auto column() const { return Kokkos::subview(m, Kokkos::ALL, 0); }
  const T* host() const { return hb.data() + off; }
};

/// Bins of `counts` (copied to the host) that differ from `ref`.
template <class Counts>
std::size_t count_mismatches(const Counts& counts, const std::vector<std::uint32_t>& ref, int bins) {
  auto out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  std::size_t bad = 0;
  for (int k = 0; k < bins; ++k) bad += out(k) != ref[static_cast<std::size_t>(k)];
  return bad;
}

/// values = subview [off, off + n) of a View of n + 3 (a start off elements
/// past a 16-byte boundary: the vector loop peels a head), and a strided
/// column of a 2-D View holding the same values; both against the reference.
template <class Exec, class T>
void check_misaligned(std::size_t n, std::size_t off) {
  const double lo = Range<T>::lo, hi = Range<T>::hi;
  const auto seed = test::case_seed(n, off, 40 + sizeof(T) + std::is_integral<T>::value);
  CAPTURE(n, off, seed, sizeof(T), std::is_integral<T>::value, Exec::name());
  const PlacedValues<Exec, T> in(n, off, seed);
  const auto values = in.values();
  const auto column = in.column();  // stride 2
  const std::uint64_t total = in_range(in.host(), n, lo, hi);
  for (int bins : {1, 7, 256, 1000, 4099}) {
    const auto ref = reference(in.host(), n, lo, hi, bins);
    for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
      check_one<Exec>(v, Backend::layer, values, lo, hi, bins, ref, total);
      check_one<Exec>(v, Backend::layer, column, lo, hi, bins, ref, total);
    }
  }
}

}  // namespace histogram_checks
}  // namespace scratchkit
