// SPDX-License-Identifier: BSD-3-Clause
// histogram: layer against a host reference (exact), native twin against the layer (exact).
// Counts are integers, so there is no tolerance: the reference bins every
// value with the same detail::histogram_bin the kernels use, and the total is
// checked independently against a plain lo <= v < hi count in double. The forced plans run in
// test_histogram_plan.cpp, the tuner's blockings in test_histogram_blockings.cpp.
#include "histogram_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace scratchkit;
using namespace scratchkit::histogram_checks;



TEMPLATE_LIST_TEST_CASE("Histogram of misaligned subviews and strided Views matches the reference exactly",
                        "[histogram][layer]", test::Spaces) {
  using Exec = TestType;
  for (std::size_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 1023, 1025, 4097, 65537})
    for (std::size_t off : {1, 2, 3}) {
      check_misaligned<Exec, float>(n, off);
      check_misaligned<Exec, double>(n, off);
      check_misaligned<Exec, std::int32_t>(n, off);
    }
}

TEMPLATE_LIST_TEST_CASE("Histogram on the layer matches the host reference exactly", "[histogram][layer]",
                        test::Spaces) {
  using Exec = TestType;
  check_type<Exec, float>();
  check_type<Exec, double>();
  check_type<Exec, std::int32_t>();
}

TEMPLATE_LIST_TEST_CASE("Histogram binning at the edges, checked by hand", "[histogram][layer]", test::Spaces) {
  using Exec = TestType;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  // [0, 4) in 4 bins: -0 counts in bin 0, 4 and everything not finite is out.
  const std::vector<double> d = {0.0, 0.5, -0.0, 1.0, std::nextafter(4.0, 0.0), 4.0, -1e-300, nan, inf, -inf, 2.0};
  const std::vector<std::uint32_t> d_expect = {3, 1, 1, 1};
  // [0, 1) in 3 bins: (1 - 2^-53) * 3 rounds to 3.0 in double and is clamped to the last bin.
  const std::vector<double> c = {std::nextafter(1.0, 0.0), 0.0, 1.0 / 3.0};
  const std::vector<std::uint32_t> c_expect = {1, 1, 1};
  // Integers over [-2.5, 3) in 2 bins of width 2.75.
  const std::vector<std::int32_t> i = {-3, -2, -1, 0, 1, 2, 3};
  const std::vector<std::uint32_t> i_expect = {3, 2};
  for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
    const auto run = [&](const auto& vals, double lo, double hi, const std::vector<std::uint32_t>& expect) {
      using T = typename std::decay_t<decltype(vals)>::value_type;
      Kokkos::View<T*, typename Exec::memory_space> values("values", vals.size());
      auto hv = Kokkos::create_mirror(values);
      for (std::size_t k = 0; k < vals.size(); ++k) hv(k) = vals[k];
      Kokkos::deep_copy(values, hv);
      CHECK(reference(vals.data(), vals.size(), lo, hi, static_cast<int>(expect.size())) == expect);
      check_one<Exec>(v, Backend::layer, values, lo, hi, static_cast<int>(expect.size()), expect,
                      in_range(vals.data(), vals.size(), lo, hi));
    };
    run(d, 0.0, 4.0, d_expect);
    run(c, 0.0, 1.0, c_expect);
    run(i, -2.5, 3.0, i_expect);
  }
}

TEMPLATE_LIST_TEST_CASE("Histogram splits bins that do not fit in shared memory into chunks", "[histogram][layer]",
                        test::Spaces) {
  using Exec = TestType;
  // 65536 bins are 256 KB of counters: over the level-0 limit on every backend. Host
  // backends give a block's bins level-1 scratch (20 MB on Serial and OpenMP): 2^23 bins are over it.
  constexpr bool gpu = detail::is_gpu_space<Exec>::value;
  const int bins     = gpu ? 65536 : 1 << 23;
  const auto max     = detail::histogram_layer_device(Exec()).max_block_bytes;
  const auto p = detail::histogram_layer_plan(Exec(), HistogramVariant::shared_atomic, 1 << 20, bins);
  CAPTURE(p.chunks, p.chunk_bins, p.blocks, p.shared_bytes, detail::histogram_layer_shared_max<Exec>(), max);
  CHECK(p.chunks > 1);
  CHECK(static_cast<long long>(p.chunks) * p.chunk_bins >= bins);
  CHECK(static_cast<long long>(p.chunks - 1) * p.chunk_bins < bins);
  CHECK(p.shared_bytes <= max);
  if (gpu) CHECK(max == detail::histogram_layer_shared_max<Exec>());
  CHECK_NOTHROW(plan_launch<Exec>(LaunchParams(Dim3(p.blocks * p.chunks), Dim3(p.shape.threads))
                                      .shared_mem_bytes(p.shared_bytes)
                                      .fallback(detail::kernel_fallback<Exec>)));
  if (!gpu) CHECK(detail::histogram_layer_plan(Exec(), HistogramVariant::shared_atomic, 1 << 20, 65536).chunks == 1);
  const auto q = detail::histogram_layer_plan(Exec(), HistogramVariant::shared_atomic, 1 << 20, 256);
  using Small   = detail::HistogramDefaultBlocking;
  CHECK(q.chunks == 1);
  CHECK(q.chunk_bins == 256);
  CHECK(q.small);
  CHECK(q.shape.threads == Small::threads);
  CHECK(q.copies == Small::copies);  // interleaved sub-histograms of the default blocking
  CHECK(q.shared_bytes == 256 * Small::copies * sizeof(std::uint32_t));
  CHECK_FALSE(p.small);
  CHECK(p.shape.threads == detail::HistogramLargeBlocking::threads);
}

TEST_CASE("Histogram plans one wave of resident blocks", "[histogram]") {
  // An H100 as both twins see it on Kokkos 4: 132 SMs x 2048 threads, 228 KB
  // of shared memory per SM, 40808 bytes of counters per block.
  detail::HistogramDevice h100;
  h100.sms             = 132;
  h100.threads_per_sm  = 2048;
  h100.shared_per_sm   = 233472;
  h100.max_block_bytes = detail::histogram_native_shared_max(49152);
  CHECK(h100.max_block_bytes == 40808);
  const std::size_t n = std::size_t(1) << 28;
  // 256 bins, the shape before 7f86b46 (256 threads, 8 blocks per SM, 8 copies: 8 KB +
  // overhead: threads, not memory, limit to 8 blocks per SM).
  const detail::HistogramShape s4{256, 2, 8, 8};
  const auto a = detail::histogram_plan(HistogramVariant::shared_atomic, n, 256, h100, s4);
  CHECK(a.copies == 8);
  CHECK(a.chunks == 1);
  CHECK(a.blocks == 1056);
  // 512 threads, 32 copies (32 KB: 6 blocks by memory, 4 by threads, 2 by the bound).
  const auto a2 = detail::histogram_plan(HistogramVariant::shared_atomic, n, 256, h100, {512, 4, 2, 32});
  CHECK(a2.copies == 32);
  CHECK(a2.shared_bytes == 32768);
  CHECK(a2.blocks == 264);
  // 32 copies of 256 threads: memory allows 233472 / (32768 + 3216) = 6 blocks per SM.
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, n, 256, h100, {256, 2, 8, 32}).blocks == 132 * 6);
  // The default blocking: its copies, its blocks per SM.
  using Small    = detail::HistogramDefaultBlocking;
  const auto ad  = detail::histogram_plan(HistogramVariant::shared_atomic, n, 256, h100);
  const long long by_mem = 233472 / (256 * Small::copies * 4 + detail::histogram_block_overhead(Small::threads));
  CHECK(ad.copies == Small::copies);
  CHECK(ad.blocks == 132 * std::min<long long>({by_mem, 2048 / Small::threads, Small::min_blocks}));
  // 65536 bins: 7 chunks of 9363 bins (37452 bytes); blocks per SM: the least of what memory allows
  // (233472 / (37452 + overhead)), the threads (2048 / threads) and the large blocking's bound; one
  // wave of resident blocks shared among the 7 chunks.
  using Large    = detail::HistogramLargeBlocking;
  const auto b   = detail::histogram_plan(HistogramVariant::shared_atomic, n, 65536, h100);
  const long long large_mem = 233472 / (37452 + detail::histogram_block_overhead(Large::threads));
  CHECK(b.copies == 1);
  CHECK(b.chunks == 7);
  CHECK(b.chunk_bins == 9363);
  CHECK(b.shared_bytes == 37452);
  CHECK(b.blocks == 132 * std::min<long long>({large_mem, 2048 / Large::threads, Large::min_blocks}) / 7);
  // 8 copies at 256 bins: 1024 bins 2 copies; 1025: 1 copy.
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, n, 1024, h100, s4).copies == 2);
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, n, 1025, h100, s4).copies == 1);
  CHECK(detail::histogram_copies(256, 32) == 32);
  CHECK(detail::histogram_copies(257, 32) == 16);
  CHECK(detail::histogram_copies(8192, 32) == 1);
  CHECK(detail::histogram_copies(7, 1) == 1);
  // global_atomic: the device once full; few values, few blocks.
  CHECK(detail::histogram_plan(HistogramVariant::global_atomic, n, 65536, h100).blocks == 1056);
  CHECK(detail::histogram_plan(HistogramVariant::global_atomic, 1025, 65536, h100).blocks == 2);
  // Few values: a block gets at least as many values as it has counters to zero and merge.
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, 4096, 256, h100, s4).blocks == 2);
  // A host backend (no SMs): its concurrency.
  detail::HistogramDevice host;
  host.fill_blocks     = 4;
  host.max_block_bytes = 32640;
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, n, 256, host).blocks == 4);
  CHECK(detail::histogram_plan(HistogramVariant::shared_atomic, n, 65536, host).chunks == 9);
}

TEST_CASE("Histogram rejects bad input before launch", "[histogram][bad-input]") {
  using Exec   = test::DeviceSpace;
  using Values = Kokkos::View<float*, Exec::memory_space>;
  using Counts = Kokkos::View<std::uint32_t*, Exec::memory_space>;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  Values values("values", 100);
  Counts counts("counts", 8), none("none", 0);
  Kokkos::deep_copy(values, 0.5f);
  Kokkos::deep_copy(counts, count_poison);
  for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
    CAPTURE(name(v));
    CHECK_THROWS_WITH(histogram(Exec(), v, values, 0.0, 1.0, none),
                      Catch::Matchers::ContainsSubstring("got 0") && Catch::Matchers::ContainsSubstring("bins"));
    CHECK_THROWS_AS(histogram(Exec(), v, values, 0.0, 1.0, none), ShapeError);
    CHECK_THROWS_WITH(histogram(Exec(), v, values, 2.0, 1.0, counts),
                      Catch::Matchers::ContainsSubstring("lo=2, hi=1"));
    CHECK_THROWS_AS(histogram(Exec(), v, values, 1.0, 1.0, counts), ShapeError);
    CHECK_THROWS_WITH(histogram(Exec(), v, values, nan, 1.0, counts), Catch::Matchers::ContainsSubstring("lo=nan"));
    CHECK_THROWS_WITH(histogram(Exec(), v, values, 0.0, inf, counts), Catch::Matchers::ContainsSubstring("hi=inf"));
    CHECK_THROWS_AS(histogram(Exec(), v, values, -inf, 0.0, counts), ShapeError);
    CHECK_THROWS_AS(histogram(Exec(), v, values, -1e308, 1e308, counts), ShapeError);  // hi - lo overflows
    // A bin width float cannot hold: 8 bins per 1e-40 is 8e40 per unit.
    CHECK_THROWS_WITH(histogram(Exec(), v, values, 0.0, 1e-40, counts),
                      Catch::Matchers::ContainsSubstring("not representable"));
  }
  CHECK_THROWS_AS(histogram(Exec(), static_cast<HistogramVariant>(42), values, 0.0, 1.0, counts), UnsupportedError);
  if (!detail::native_available<Exec>())
    CHECK_THROWS_AS(histogram(Exec(), HistogramVariant::global_atomic, values, 0.0, 1.0, counts, Backend::native),
                    UnsupportedError);
  // Nothing ran: counts still holds the poison.
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  for (int k = 0; k < 8; ++k) CHECK(h(k) == count_poison);
  // The same checks guard the native entry point.
#if SCRATCHKIT_HAS_NATIVE_CUDA
  CHECK_THROWS_AS(native::cuda::histogram(HistogramVariant::global_atomic, static_cast<const float*>(nullptr), 0,
                                          0.0, 1.0, nullptr, 0),
                  ShapeError);
  CHECK_THROWS_AS(native::cuda::histogram(HistogramVariant::shared_atomic, static_cast<const double*>(nullptr), 0,
                                          1.0, 0.0, nullptr, 4),
                  ShapeError);
  // A plan that is not one of shared_atomic over 300 bins (its chunks hold 256), before any device call.
  detail::HistogramPlan short_plan;
  short_plan.blocks = 4, short_plan.chunks = 1, short_plan.chunk_bins = 256, short_plan.shared_bytes = 1024;
  CHECK_THROWS_AS(native::cuda::detail::histogram(HistogramVariant::shared_atomic, static_cast<const float*>(nullptr), 0,
                                                  0.0, 1.0, nullptr, 300, nullptr, short_plan),
                  ShapeError);
#endif
}

namespace {

#if SCRATCHKIT_TEST_TWINS
/// Layer and native on values = subview [off, off + n) of a View of n + 3.
template <class T>
void histogram_twins(std::size_t n, std::size_t off) {
  using Cuda      = Kokkos::Cuda;
  using View      = Kokkos::View<T*, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  using Counts    = Kokkos::View<std::uint32_t*, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  const double lo = Range<T>::lo, hi = Range<T>::hi;
  const auto seed = test::case_seed(n, sizeof(T) + 10 * off, 100 + std::is_integral<T>::value);
  CAPTURE(n, off, seed, sizeof(T), std::is_integral<T>::value);
  View base("base", n + 3);
  auto hb = Kokkos::create_mirror_view(base);
  fill_values(hb, seed, lo, hi);
  Kokkos::deep_copy(base, hb);
  const auto values = Kokkos::subview(base, std::make_pair(off, off + n));
  const T* hv       = hb.data() + off;
  const std::uint64_t total = in_range(hv, n, lo, hi);
  // 65536 bins: several chunks on the layer (40 KB), two natively (227 KB on
  // an H100); 300007 bins: several chunks on both.
  for (int bins : {1, 7, 256, 4099, 65536, 300007}) {
    const auto ref = reference(hv, n, lo, hi, bins);
    for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
      CAPTURE(name(v), bins);
      Counts cl("cl", bins), cn("cn", bins);
      Kokkos::deep_copy(cl, count_poison);
      Kokkos::deep_copy(cn, count_poison);
      histogram(Cuda(), v, values, lo, hi, cl);
      Cuda().fence();
      native::cuda::histogram(v, values.data(), n, lo, hi, cn.data(), bins);
      native::cuda::synchronize();
      CHECK(test::same_bits(cl, cn));
      // Each against the reference too, the native one through the public API.
      check_one<Cuda>(v, Backend::layer, values, lo, hi, bins, ref, total);
      check_one<Cuda>(v, Backend::native, values, lo, hi, bins, ref, total);
    }
  }
}
#endif

}  // namespace

TEST_CASE("Native CUDA histogram agrees with the layer exactly", "[histogram][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (std::size_t n0 : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(5), std::size_t(1000),
                         std::size_t(65537), std::size_t(1) << 20, std::size_t(1) << 24})
    for (std::size_t off : {0, 1, 3}) {
      const std::size_t n = test::sized(n0);
      histogram_twins<float>(n, off);
      histogram_twins<double>(n, off);
      histogram_twins<std::int32_t>(n, off);
    }
#endif
}
