// SPDX-License-Identifier: BSD-3-Clause
// The calls scratchkit_multi_tu makes from each of its translation units
// (multi_tu_a.cpp, multi_tu_b.cpp): one call of each kernel family on the
// default execution space, each checked against a host computation. In an
// unnamed namespace, so that each unit runs its own copy (an inline function
// would be one copy, the first unit's, for both).
#pragma once

#include <scratchkit/scratchkit.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace multi_tu {
namespace {

int report(bool ok, const char* what, int unit) {
  if (!ok) std::printf("scratchkit_multi_tu: %s wrong from unit %d\n", what, unit);
  return ok ? 0 : 1;
}

/// Runs the kernels on n small integers (exact in float and double); returns the number of wrong results.
int run_kernels(int n, int unit) {
  using namespace scratchkit;
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  int bad = 0;
  Kokkos::View<float*, Kokkos::LayoutRight> x("x", n), y("y", n), w("w", 3);
  auto hx = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) hx(i) = static_cast<float>(i % 7);
  Kokkos::deep_copy(x, hx);
  Kokkos::deep_copy(w, 1.0f);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += hx(i);
  for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    bad += report(reduce(exec, v, ReduceOp::sum, x) == static_cast<float>(sum), "reduce", unit);
  for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
    Kokkos::View<std::uint32_t*> counts("counts", 7);
    histogram(exec, v, x, 0.0, 7.0, counts);
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
    std::uint32_t total = 0;
    for (int b = 0; b < 7; ++b) total += hc(b);
    bad += report(total == static_cast<std::uint32_t>(n), "histogram", unit);
  }
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
    stencil_1d(exec, v, x, w, y);
    auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
    bool ok = true;
    for (int i = 1; i + 1 < n; ++i) ok = ok && hy(i) == hx(i - 1) + hx(i) + hx(i + 1);
    bad += report(ok, "stencil_1d", unit);
  }
  {
    const int m = 33;
    Kokkos::View<float**, Kokkos::LayoutRight> a("a", m, m), t("t", m, m), c("c", m, m);
    auto ha = Kokkos::create_mirror_view(a);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) ha(i, j) = static_cast<float>((i + 2 * j) % 5);
    Kokkos::deep_copy(a, ha);
    transpose(exec, TransposeVariant::tiled_padded, a, t);
    gemm(exec, GemmVariant::register_blocked, 1.0f, a, t, 0.0f, c);
    auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), t);
    auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c);
    bool tok = true, gok = true;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j) {
        tok = tok && ht(j, i) == ha(i, j);
        float s = 0;
        for (int k = 0; k < m; ++k) s += ha(i, k) * ha(j, k);
        gok = gok && hc(i, j) == s;
      }
    bad += report(tok, "transpose", unit);
    bad += report(gok, "gemm", unit);
  }
  {
    Kokkos::View<float*, Kokkos::LayoutRight> sums("sums", (n + 1023) / 1024);
    tile_reduce(exec, x, sums, 256, 4);
    auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sums);
    double s = 0;
    for (std::size_t k = 0; k < hs.extent(0); ++k) s += hs(k);
    bad += report(s == sum, "tile_reduce", unit);
  }
  return bad;
}

}  // namespace
}  // namespace multi_tu
