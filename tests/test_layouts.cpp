// SPDX-License-Identifier: BSD-3-Clause
// Every kernel x variant x View layout (docs/layouts.md, detail/layout_map.hpp):
// LayoutRight, LayoutLeft, a block of a larger row-major array, a block of a
// larger column-major array (both LayoutStride subviews, pitched), every other
// element (LayoutStride without a unit stride: the general path) and mixed
// layouts, at odd sizes, against the host references of
// scratchkit/reference/reference.hpp with their stated bounds (gemm: gamma_{K+2};
// stencil_3d: gamma_8; reduce: gamma_depth; transpose and histogram: exact),
// plus the layouts against each other bit for bit where the mapped kernel
// does the same operations in the same order. On a GPU the native twins
// against the layer bit for bit on every layout they take. Elements of the
// backing arrays outside a View must keep their poison. The kernels run in test_layouts_*.cpp;
// this unit has the mapping and the refusals.
#include "layout_checks.hpp"

#include <scratchkit/kernels/collectives.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace scratchkit;
using namespace scratchkit::layout_checks;
using Catch::Matchers::ContainsSubstring;

TEST_CASE("Layouts: the mapping picks the row-major Views of the same memory", "[layouts]") {
  using H = Kokkos::HostSpace;
  Kokkos::View<double**, Kokkos::LayoutLeft, H> a("a", 3, 5);
  CHECK(detail::is_dense_order<true>(a));
  CHECK_FALSE(detail::is_dense_order<false>(a));
  int calls = 0;
  detail::map_layouts("test", Backend::layer, {"a"}, [&](auto reversed, const auto& r) {
    ++calls;
    CHECK(decltype(reversed)::value);
    CHECK(std::is_same<typename std::decay_t<decltype(r)>::array_layout, Kokkos::LayoutRight>::value);
    CHECK(r.extent(0) == 5);
    CHECK(r.extent(1) == 3);
    CHECK(r.data() == a.data());
    CHECK(&r(4, 2) == &a(2, 4));
  }, a);
  // A block of a column-major array: LayoutStride with the axes reversed, the unit stride last.
  const auto b = Kokkos::subview(a, std::make_pair(1, 3), std::make_pair(1, 4));
  detail::map_layouts("test", Backend::layer, {"b"}, [&](auto reversed, const auto& r) {
    ++calls;
    CHECK(decltype(reversed)::value);
    CHECK(r.stride(1) == 1);
    CHECK(&r(2, 1) == &b(1, 2));
  }, b);
  CHECK(calls == 2);
}

TEST_CASE("Layouts: outputs whose elements overlap and native strided Views are refused", "[layouts][bad-input]") {
  using H      = Kokkos::HostSpace;
  using Stride = Kokkos::View<double**, Kokkos::LayoutStride, H, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<double*, H> buf("buf", 1000);
  Kokkos::View<double**, Kokkos::LayoutRight, H> A("A", 4, 6), B("B", 6, 5), in("in", 5, 4);
  // Rows 3 apart but 5 long: C(0, 3) and C(1, 0) are the same element.
  const Stride C(buf.data(), Kokkos::LayoutStride(4, 3, 5, 1));
  CHECK_THROWS_WITH(gemm(Kokkos::DefaultHostExecutionSpace(), GemmVariant::tiled, 1.0, A, B, 0.0, C),
                    ContainsSubstring("overlapping elements") && ContainsSubstring("strides 3, 1"));
  const Stride Z(buf.data(), Kokkos::LayoutStride(4, 0, 5, 1));  // a zero stride: every row the same
  CHECK_THROWS_AS(transpose(Kokkos::DefaultHostExecutionSpace(), TransposeVariant::tiled, in, Z), ShapeError);
  Kokkos::View<double***, Kokkos::LayoutStride, H, Kokkos::MemoryTraits<Kokkos::Unmanaged>> s3(
      buf.data(), Kokkos::LayoutStride(3, 16, 3, 4, 3, 2));  // x stride 2, rows 4 apart: x = 2 meets y + 1
  Kokkos::View<double***, Kokkos::LayoutRight, H> u("u", 3, 3, 3);
  CHECK_THROWS_AS(stencil_3d_7pt(Kokkos::DefaultHostExecutionSpace(), Stencil3DVariant::z_streaming, u, s3, 1.0, 0.0),
                  ShapeError);
  Kokkos::View<std::uint32_t*, Kokkos::LayoutStride, H, Kokkos::MemoryTraits<Kokkos::Unmanaged>> c0(
      reinterpret_cast<std::uint32_t*>(buf.data()), Kokkos::LayoutStride(8, 0));
  Kokkos::View<double*, H> x("x", 10);
  CHECK_THROWS_AS(histogram(Kokkos::DefaultHostExecutionSpace(), HistogramVariant::shared_atomic, x, 0.0, 1.0, c0),
                  ShapeError);
  // Distinct elements pass: a pitched block, rows 7 apart and 5 long.
  const Stride ok(buf.data(), Kokkos::LayoutStride(4, 7, 5, 1));
  CHECK_NOTHROW(gemm(Kokkos::DefaultHostExecutionSpace(), GemmVariant::tiled, 1.0, A, B, 0.0, ok));
}

TEST_CASE("Layouts: Backend::native refuses rank-1 Views a twin cannot take, in the mapping every kernel shares",
          "[layouts][bad-input]") {
  using H = Kokkos::HostSpace;
  using E = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<float**, Kokkos::LayoutRight, H> m("m", 50, 2);
  const auto every_other = Kokkos::subview(m, Kokkos::ALL, 0);  // stride 2
  Kokkos::View<float*, H> y("y", 50), w("w", 3), sums("sums", 1);
  Kokkos::View<std::uint32_t*, H> counts("counts", 8);
  const std::vector<std::pair<const char*, std::function<void()>>> calls = {
      {"reduce", [&] { reduce(E(), ReduceVariant::tree, ReduceOp::sum, every_other, Backend::native); }},
      {"stencil_1d", [&] { stencil_1d(E(), Stencil1DVariant::halo_tile, every_other, w, y, Backend::native); }},
      {"histogram",
       [&] { histogram(E(), HistogramVariant::global_atomic, every_other, 0.0, 1.0, counts, Backend::native); }},
      {"tile_reduce", [&] { tile_reduce(E(), every_other, sums, 256, 4, Backend::native); }}};
  for (const auto& c : calls) {
    CAPTURE(c.first);
    std::string msg;
    try {
      c.second();
    } catch (const UnsupportedError& e) {
      msg = e.what();
    }
    CHECK_THAT(msg, ContainsSubstring(std::string("scratchkit::") + c.first +
                                      ": Backend::native needs the Views all contiguous") &&
                        ContainsSubstring("(m, LayoutStride)") && ContainsSubstring("strides 2"));
  }
  // Contiguous Views reach the entry point's native branch, which refuses a host space.
  CHECK_THROWS_WITH(reduce(E(), ReduceVariant::tree, ReduceOp::sum, y, Backend::native),
                    ContainsSubstring("scratchkit::reduce: Backend::native needs"));
}

// ---------------------------------------------------------------- native twins (GPU)


TEST_CASE("Layouts: native CUDA rank-1 twins on LayoutLeft and unit-stride LayoutStride Views",
          "[layouts][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  using E = Kokkos::Cuda;
  using M = Kokkos::CudaSpace;
  const int n = 100003;
  Kokkos::View<float*, Kokkos::LayoutLeft, M> x("x", n);
  {
    auto h = Kokkos::create_mirror_view(x);
    test::fill_random(h, test::case_seed(n, 11));
    Kokkos::deep_copy(x, h);
  }
  const Kokkos::View<float*, Kokkos::LayoutStride, M> xs = Kokkos::subview(x, std::make_pair(1, n));
  for (auto v : {ReduceVariant::tree, ReduceVariant::warp_shuffle}) {
    CHECK(reduce(E(), v, ReduceOp::sum, x) == reduce(E(), v, ReduceOp::sum, x, Backend::native));
    CHECK(reduce(E(), v, ReduceOp::sum, xs) == reduce(E(), v, ReduceOp::sum, xs, Backend::native));
  }
  Kokkos::View<float*, Kokkos::LayoutLeft, M> w("w", 7), ol("ol", n), on("on", n);
  Kokkos::deep_copy(w, 0.125f);
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
    stencil_1d(E(), v, x, w, ol);
    stencil_1d(E(), v, x, w, on, Backend::native);
    E().fence();
    CHECK(test::same_bits(ol, on));
  }
  Kokkos::View<std::uint32_t*, Kokkos::LayoutLeft, M> cl("cl", 256), cn("cn", 256);
  for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
    histogram(E(), v, xs, -1.0, 1.0, cl);
    histogram(E(), v, xs, -1.0, 1.0, cn, Backend::native);
    E().fence();
    CHECK(test::same_bits(cl, cn));
  }
  // every other element: no native twin, a clear error
  const auto x2 = Kokkos::subview(Kokkos::View<float**, Kokkos::LayoutRight, M>(x.data(), n / 2, 2), Kokkos::ALL, 0);
  CHECK_THROWS_WITH(reduce(E(), ReduceVariant::tree, ReduceOp::sum, x2, Backend::native), ContainsSubstring("strides 2"));
#endif
}
