// SPDX-License-Identifier: BSD-3-Clause
// The host paths that run a block's phases as plain loops (detail::host_direct:
// one team member per block, no scratch checker recording) give the same bits
// as the per-thread phases. The per-thread phases run under the scratch
// checker (which always takes them) and, on backends with teams of several
// threads, with two team members per block. Sizes leave partial tiles, blocks
// and warps; both View layouts where the kernel takes them.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

using namespace scratchkit;

namespace {
using Exec = test::HostSpace;
using MS   = Exec::memory_space;

using test::TeamSize;

template <class V>
V random_view(const char* name, std::size_t n0, std::size_t n1 = 1, std::size_t n2 = 1) {
  const std::string label(name);  // Kokkos 3.4 takes a std::string label, not a const char* variable
  V v;
  if constexpr (V::rank == 1) v = V(label, n0);
  else if constexpr (V::rank == 2) v = V(label, n0, n1);
  else v = V(label, n0, n1, n2);
  auto h = Kokkos::create_mirror_view(v);
  test::fill_random(h, test::case_seed(std::string(name).size(), n0, n1 * 1000 + n2));
  Kokkos::deep_copy(v, h);
  return v;
}

/// run(out) once on the plain loops (one member per block), then on the per-thread
/// phases (under the checker; with two members where the backend has them): same bits.
template <class V, class F>
void same_bits_both_paths(const V& like, const F& run) {
  V direct("direct", like.layout()), phased("phased", like.layout());
  Kokkos::deep_copy(direct, like);
  Kokkos::deep_copy(phased, like);
  {
    TeamSize one(1);
    run(direct);
    Exec().fence();
  }
  int compared = 0;
  if (scratch_check_compiled) {
    ScratchCheckScope scope(ScratchCheck().quiet());
    run(phased);
    Exec().fence();
    CHECK(test::same_bits(direct, phased));
    ++compared;
    Kokkos::deep_copy(phased, like);
  }
  if (Exec().concurrency() >= 2) {
    TeamSize two(2);
    run(phased);
    Exec().fence();
    CHECK(test::same_bits(direct, phased));
    ++compared;
  }
  if (compared == 0) SKIP("no per-thread path to compare with: no scratch checker, and teams of one thread");
}
}  // namespace

TEST_CASE("Host loops: tile collectives give the per-thread phases' bits", "[host_direct][collectives]") {
  for (std::size_t n : {std::size_t(3000), std::size_t(4096), std::size_t(70001)}) {
    CAPTURE(n);
    auto xi = random_view<Kokkos::View<int*, MS>>("xi", n);
    auto xf = random_view<Kokkos::View<float*, MS>>("xf", n);
    auto xd = random_view<Kokkos::View<double*, MS>>("xd", n);
    for (int items : {4, 8}) {
      CAPTURE(items);
      for (auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
        same_bits_both_paths(Kokkos::View<int*, MS>("o", n), [&](const auto& o) { tile_scan(Exec(), kind, xi, o, 256, items); });
        same_bits_both_paths(Kokkos::View<float*, MS>("o", n), [&](const auto& o) { tile_scan(Exec(), kind, xf, o, 256, items); });
        same_bits_both_paths(Kokkos::View<double*, MS>("o", n), [&](const auto& o) { tile_scan(Exec(), kind, xd, o, 256, items); });
      }
      const std::size_t tiles = (n + 256 * items - 1) / (256 * items);
      same_bits_both_paths(Kokkos::View<int*, MS>("r", tiles), [&](const auto& o) { tile_reduce(Exec(), xi, o, 256, items); });
      same_bits_both_paths(Kokkos::View<float*, MS>("r", tiles), [&](const auto& o) { tile_reduce(Exec(), xf, o, 256, items); });
      for (auto v : {ExchangeVariant::warp_transpose, ExchangeVariant::transpose}) {
        same_bits_both_paths(Kokkos::View<int*, MS>("o", n), [&](const auto& o) { tile_exchange(Exec(), v, xi, o, 256, items); });
        same_bits_both_paths(Kokkos::View<double*, MS>("o", n), [&](const auto& o) { tile_exchange(Exec(), v, xd, o, 256, items); });
      }
    }
    same_bits_both_paths(Kokkos::View<float*, MS>("o", n), [&](const auto& o) { tile_warp_scan(Exec(), xf, o, 256); });
    same_bits_both_paths(Kokkos::View<int*, MS>("o", n), [&](const auto& o) { tile_warp_scan(Exec(), xi, o, 256); });
  }
}

TEST_CASE("Host loops: the tree reduction gives the per-thread phases' bits", "[host_direct][reduce]") {
  for (std::size_t n : {std::size_t(1), std::size_t(511), std::size_t(4096), std::size_t(100003)}) {
    CAPTURE(n);
    auto xf = random_view<Kokkos::View<float*, MS>>("xf", n);
    auto xd = random_view<Kokkos::View<double*, MS>>("xd", n);
    auto xl = random_view<Kokkos::View<std::int64_t*, MS>>("xl", n);
    Kokkos::View<double*, MS> like("r", 3);
    same_bits_both_paths(like, [&](const auto& r) {
      const float f    = reduce(Exec(), ReduceVariant::tree, ReduceOp::sum, xf);
      const double d   = reduce(Exec(), ReduceVariant::tree, ReduceOp::sum, xd);
      const double mx  = reduce(Exec(), ReduceVariant::tree, ReduceOp::max, xd);
      auto h           = Kokkos::create_mirror_view(r);
      h(0)             = f;
      h(1)             = d;
      h(2)             = mx + static_cast<double>(reduce(Exec(), ReduceVariant::tree, ReduceOp::sum, xl));
      Kokkos::deep_copy(r, h);
    });
  }
}

TEST_CASE("Host loops: the grid-stride reductions give the per-thread phases' bits", "[host_direct][reduce]") {
  for (std::size_t n : {std::size_t(1), std::size_t(1027), std::size_t(100003), std::size_t(1) << 20}) {
    CAPTURE(n);
    auto xf = random_view<Kokkos::View<float*, MS>>("xf", n);
    auto xd = random_view<Kokkos::View<double*, MS>>("xd", n);
    auto xl = random_view<Kokkos::View<std::int64_t*, MS>>("xl", n);
    auto xi = random_view<Kokkos::View<std::int32_t*, MS>>("xi", n);
    const auto xs = Kokkos::subview(xf, std::make_pair(std::size_t(n > 1 ? 1 : 0), n));  // misaligned head
    Kokkos::View<double*, MS> like("r", 4);
    same_bits_both_paths(like, [&](const auto& r) {
      auto h = Kokkos::create_mirror_view(r);
      h(0)   = reduce(Exec(), ReduceVariant::warp_shuffle, ReduceOp::sum, xf) +
             static_cast<double>(reduce(Exec(), ReduceVariant::warp_shuffle, ReduceOp::sum, xs));
      h(1) = reduce(Exec(), ReduceVariant::warp_shuffle, ReduceOp::sum, xd) +
             reduce(Exec(), ReduceVariant::warp_shuffle, ReduceOp::min, xd);
      h(2) = static_cast<double>(reduce(Exec(), ReduceVariant::warp_shuffle, ReduceOp::sum, xl) +
                                 reduce(Exec(), ReduceVariant::grid_stride_atomic, ReduceOp::sum, xl));
      h(3) = static_cast<double>(reduce(Exec(), ReduceVariant::grid_stride_atomic, ReduceOp::sum, xi)) +
             static_cast<double>(reduce(Exec(), ReduceVariant::grid_stride_atomic, ReduceOp::max, xf));
      Kokkos::deep_copy(r, h);
    });
  }
}

TEST_CASE("Host loops: the histogram gives the per-thread phases' counts", "[host_direct][histogram]") {
  for (std::size_t n : {std::size_t(5), std::size_t(100003)}) {
    CAPTURE(n);
    auto xf = random_view<Kokkos::View<float*, MS>>("xf", n);
    const auto xs = Kokkos::subview(xf, std::make_pair(std::size_t(1), n));  // misaligned head
    for (int bins : {256, 65536})
      for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
        CAPTURE(bins, name(v));
        same_bits_both_paths(Kokkos::View<std::uint32_t*, MS>("c", 2 * bins), [&](const auto& c) {
          histogram(Exec(), v, xf, -1.0, 1.0, Kokkos::subview(c, std::make_pair(0, bins)));
          histogram(Exec(), v, xs, -0.5, 1.0, Kokkos::subview(c, std::make_pair(bins, 2 * bins)));
        });
      }
  }
}

TEST_CASE("Host loops: the halo-tile 1-D stencil gives the per-thread phases' bits", "[host_direct][stencil]") {
  for (std::size_t n : {std::size_t(5), std::size_t(256), std::size_t(100003)}) {
    for (std::size_t taps : {std::size_t(1), std::size_t(7), std::size_t(17)}) {
      CAPTURE(n, taps);
      auto xf = random_view<Kokkos::View<float*, MS>>("xf", n);
      auto xd = random_view<Kokkos::View<double*, MS>>("xd", n);
      auto wf = random_view<Kokkos::View<float*, MS>>("wf", taps);
      auto wd = random_view<Kokkos::View<double*, MS>>("wd", taps);
      same_bits_both_paths(Kokkos::View<float*, MS>("o", n), [&](const auto& o) { stencil_1d(Exec(), Stencil1DVariant::halo_tile, xf, wf, o); });
      same_bits_both_paths(Kokkos::View<double*, MS>("o", n), [&](const auto& o) { stencil_1d(Exec(), Stencil1DVariant::halo_tile, xd, wd, o); });
    }
  }
}

namespace {
template <class T, class L>
void stencil_3d_case(int nz, int ny, int nx) {
  auto u = random_view<Kokkos::View<T***, L, MS>>("u", nz, ny, nx);
  same_bits_both_paths(Kokkos::View<T***, L, MS>("o", nz, ny, nx), [&](const auto& o) {
    stencil_3d_7pt(Exec(), Stencil3DVariant::tile_2d_halo, u, o, T(0.4), T(0.1));
  });
}
template <class T, class L>
void gemm_case(int m, int n, int k, T beta) {
  auto A = random_view<Kokkos::View<T**, L, MS>>("A", m, k);
  auto B = random_view<Kokkos::View<T**, L, MS>>("B", k, n);
  auto C = random_view<Kokkos::View<T**, L, MS>>("C", m, n);
  same_bits_both_paths(C, [&](const auto& c) { gemm(Exec(), GemmVariant::tiled, T(1.25), A, B, beta, c); });
}
}  // namespace

TEST_CASE("Host loops: the 3-D halo tile gives the per-thread phases' bits", "[host_direct][stencil]") {
  for (auto s : {std::vector<int>{1, 1, 1}, std::vector<int>{3, 9, 33}, std::vector<int>{17, 19, 70}, std::vector<int>{20, 16, 64}}) {
    CAPTURE(s[0], s[1], s[2]);
    stencil_3d_case<float, Kokkos::LayoutRight>(s[0], s[1], s[2]);
    stencil_3d_case<double, Kokkos::LayoutRight>(s[0], s[1], s[2]);
    stencil_3d_case<float, Kokkos::LayoutLeft>(s[0], s[1], s[2]);
    stencil_3d_case<double, Kokkos::LayoutLeft>(s[0], s[1], s[2]);
  }
}

TEST_CASE("Host loops: tiled GEMM gives the per-thread phases' bits", "[host_direct][gemm]") {
  for (auto s : {std::vector<int>{1, 1, 1}, std::vector<int>{16, 16, 16}, std::vector<int>{37, 50, 19}, std::vector<int>{64, 48, 80}}) {
    CAPTURE(s[0], s[1], s[2]);
    gemm_case<float, Kokkos::LayoutRight>(s[0], s[1], s[2], 0.0f);
    gemm_case<float, Kokkos::LayoutLeft>(s[0], s[1], s[2], 0.5f);
    gemm_case<double, Kokkos::LayoutRight>(s[0], s[1], s[2], -1.0);
    gemm_case<double, Kokkos::LayoutLeft>(s[0], s[1], s[2], 0.0);
  }
}
