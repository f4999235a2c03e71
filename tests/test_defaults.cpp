// SPDX-License-Identifier: BSD-3-Clause
// Default variants (kernels/defaults.hpp): the GPU choices, the host choices, and each
// variant-less call running exactly its default variant (same bits as the explicit call).
#include "test_support.hpp"

#include <scratchkit/kernels/defaults.hpp>

#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

using namespace scratchkit;

namespace {

using Exec = Kokkos::DefaultExecutionSpace;
using Mem  = Exec::memory_space;

// The GPU defaults are the variants measured fastest on the H100, for every element size.
static_assert(detail::GpuVariantPolicy::gemm(4) == GemmVariant::register_blocked &&
                  detail::GpuVariantPolicy::gemm(8) == GemmVariant::register_blocked, "GPU GEMM default");
static_assert(detail::GpuVariantPolicy::reduce(8) == ReduceVariant::grid_stride_atomic, "GPU reduce default");
static_assert(detail::GpuVariantPolicy::stencil_1d(8) == Stencil1DVariant::vectorized, "GPU 1-D stencil default");
static_assert(detail::GpuVariantPolicy::stencil_3d(8) == Stencil3DVariant::z_streaming, "GPU 3-D stencil default");
static_assert(detail::GpuVariantPolicy::transpose(8) == TransposeVariant::tiled_padded, "GPU transpose default");
static_assert(detail::GpuVariantPolicy::histogram(65536) == HistogramVariant::shared_atomic, "GPU histogram default");
// Host backends: tiled GEMM; halo tiles for the stencils; privatised histogram bins at every bin count.
static_assert(detail::HostVariantPolicy::gemm(4) == GemmVariant::tiled, "host GEMM default");
static_assert(detail::HostVariantPolicy::reduce(4) == ReduceVariant::warp_shuffle &&
                  detail::HostVariantPolicy::reduce(8) == ReduceVariant::warp_shuffle, "host reduce");
static_assert(detail::HostVariantPolicy::stencil_1d(4) == Stencil1DVariant::halo_tile &&
                  detail::HostVariantPolicy::stencil_1d(8) == Stencil1DVariant::halo_tile, "host 1-D stencil");
static_assert(detail::HostVariantPolicy::stencil_3d(4) == Stencil3DVariant::tile_2d_halo &&
                  detail::HostVariantPolicy::stencil_3d(8) == Stencil3DVariant::tile_2d_halo, "host 3-D stencil");
static_assert(detail::HostVariantPolicy::histogram(256) == HistogramVariant::shared_atomic, "host, few bins");
static_assert(detail::HostVariantPolicy::histogram(65536) == HistogramVariant::shared_atomic, "host, many bins");
static_assert(std::is_same<detail::variant_policy_t<Kokkos::DefaultHostExecutionSpace>, detail::HostVariantPolicy>::value,
              "host spaces take the host policy");

template <class V>
V random_view(const char* label, std::size_t n, std::uint64_t seed) {
  V v(std::string(label), n);  // Kokkos 3.4 takes no const char* label
  auto h = Kokkos::create_mirror_view(v);
  test::fill_random(h, seed);
  Kokkos::deep_copy(v, h);
  return v;
}

}  // namespace

TEST_CASE("variant-less calls run the default variant of the space", "[defaults]") {
  const Exec exec;
  const std::size_t n = 10007;
  using V1            = Kokkos::View<float*, Mem>;
  const auto x        = random_view<V1>("x", n, 11);
  const auto w        = random_view<V1>("w", 7, 12);
  SECTION("stencil_1d") {
    V1 a("a", n), b("b", n);
    stencil_1d(exec, x, w, a);
    stencil_1d(exec, default_variant<Stencil1DVariant, float>(exec), x, w, b);
    exec.fence();
    CHECK(test::same_bits(a, b));
  }
  SECTION("reduce") {
    const auto xi = random_view<Kokkos::View<std::int32_t*, Mem>>("xi", n, 13);
    CHECK(reduce(exec, ReduceOp::sum, xi) == reduce(exec, default_variant<ReduceVariant, std::int32_t>(exec), ReduceOp::sum, xi));
  }
  SECTION("histogram") {
    for (const int bins : {256, 65536}) {
      Kokkos::View<std::uint32_t*, Mem> a("a", bins), b("b", bins);
      histogram(exec, x, -1.0, 1.0, a);
      histogram(exec, default_variant<HistogramVariant, float>(exec, bins), x, -1.0, 1.0, b);
      exec.fence();
      CHECK(test::same_bits(a, b));
    }
  }
  SECTION("transpose, gemm, stencil_3d_7pt") {
    const int m = 37;
    Kokkos::View<double**, Mem> A("A", m, m), B("B", m, m), C1("C1", m, m), C2("C2", m, m);
    auto hA = Kokkos::create_mirror_view(A);
    test::fill_random(hA, 14);
    Kokkos::deep_copy(A, hA);
    Kokkos::deep_copy(B, hA);
    transpose(exec, A, C1);
    transpose(exec, default_variant<TransposeVariant, double>(exec), A, C2);
    exec.fence();
    CHECK(test::same_bits(C1, C2));
    gemm(exec, 1.0, A, B, 0.0, C1);
    gemm(exec, default_variant<GemmVariant, double>(exec), 1.0, A, B, 0.0, C2);
    exec.fence();
    CHECK(test::same_bits(C1, C2));
    Kokkos::View<float***, Mem> u("u", 19, 18, 17), o1("o1", 19, 18, 17), o2("o2", 19, 18, 17);
    auto hu = Kokkos::create_mirror_view(u);
    test::fill_random(hu, 15);
    Kokkos::deep_copy(u, hu);
    stencil_3d_7pt(exec, u, o1, 0.4f, 0.1f);
    stencil_3d_7pt(exec, default_variant<Stencil3DVariant, float>(exec), u, o2, 0.4f, 0.1f);
    exec.fence();
    CHECK(test::same_bits(o1, o2));
  }
}

TEST_CASE("Host histogram default: privatised bins at any bin count and concurrency", "[defaults]") {
  using H = Kokkos::DefaultHostExecutionSpace;
  const H exec;
  for (const int bins : {256, 65536}) {
    CAPTURE(bins, exec.concurrency());
    CHECK(default_variant<HistogramVariant, float>(exec, bins) == HistogramVariant::shared_atomic);
    CHECK(default_variant<HistogramVariant, float>(exec, bins) == default_variant_of<HistogramVariant, H, float>(bins));
  }
  // GPU instances keep the policy's choice whatever their concurrency.
  CHECK(default_variant<HistogramVariant, float>(Exec(), 256) ==
        (detail::is_gpu_space<Exec>::value ? HistogramVariant::shared_atomic : default_variant<HistogramVariant, float>(H(), 256)));
}
