// SPDX-License-Identifier: BSD-3-Clause
// Edge semantics of the ready kernels (docs/user-guide.md, "Edge semantics"):
// empty inputs launch nothing and give what the operation gives on nothing;
// inputs of one element or all boundary take the ordinary path.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <vector>

using namespace scratchkit;

namespace {

constexpr GemmVariant gemm_variants[] = {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                                         GemmVariant::register_blocked};
constexpr ReduceVariant reduce_variants[] = {ReduceVariant::tree, ReduceVariant::grid_stride_atomic,
                                             ReduceVariant::warp_shuffle};
constexpr Stencil1DVariant stencil1d_variants[] = {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized};
constexpr Stencil3DVariant stencil3d_variants[] = {Stencil3DVariant::tile_2d_halo, Stencil3DVariant::z_streaming};
constexpr TransposeVariant transpose_variants[] = {TransposeVariant::naive, TransposeVariant::tiled,
                                                   TransposeVariant::tiled_padded};
constexpr HistogramVariant histogram_variants[] = {HistogramVariant::global_atomic, HistogramVariant::shared_atomic};

// The backends to run: the layer everywhere, the native twin where it can run.
std::vector<Backend> backends_here() {
  std::vector<Backend> b{Backend::layer};
#if SCRATCHKIT_TEST_TWINS
  if (native::cuda::device_available()) b.push_back(Backend::native);
#endif
  return b;
}

template <class Exec>
bool backend_runs(Backend b) {
  return b == Backend::layer || std::is_same<Exec, test::DeviceSpace>::value && detail::is_gpu_space<Exec>::value;
}

template <class View>
auto host_copy(const View& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("reduce of nothing is the operator's identity", "[reduce][edge]", test::Spaces) {
  using Exec = TestType;
  const auto check_type = [](auto zero) {
    using T = decltype(zero);
    Kokkos::View<T*, typename Exec::memory_space> none("none", 0);
    for (Backend be : backends_here()) {
      if (!backend_runs<Exec>(be)) continue;
      for (ReduceVariant v : reduce_variants) {
        CAPTURE(name(v), name(be));
        CHECK(reduce(Exec(), v, ReduceOp::sum, none, be) == T(0));
        CHECK(reduce(Exec(), v, ReduceOp::min, none, be) == std::numeric_limits<T>::max());
        CHECK(reduce(Exec(), v, ReduceOp::max, none, be) == std::numeric_limits<T>::lowest());
      }
    }
  };
  check_type(std::int32_t(0));
  check_type(std::int64_t(0));
  check_type(0.0f);
  check_type(0.0);
}

TEMPLATE_LIST_TEST_CASE("gemm with a zero extent: nothing to write, or C = beta C when K = 0", "[gemm][edge]",
                        test::Spaces) {
  using Exec = TestType;
  using M    = Kokkos::View<float**, Kokkos::LayoutRight, typename Exec::memory_space>;
  for (Backend be : backends_here()) {
    if (!backend_runs<Exec>(be)) continue;
    for (GemmVariant v : gemm_variants) {
      CAPTURE(name(v), name(be));
      // M = 0 or N = 0: C has no elements; nothing runs, nothing throws.
      for (auto mnk : {std::array<int, 3>{0, 5, 7}, std::array<int, 3>{5, 0, 7}, std::array<int, 3>{0, 0, 0}}) {
        M A("A", mnk[0], mnk[2]), B("B", mnk[2], mnk[1]), C("C", mnk[0], mnk[1]);
        CHECK_NOTHROW(gemm(Exec(), v, 1.0f, A, B, 0.0f, C, be));
      }
      // K = 0: the sum over k is empty, C = beta C (alpha does not matter); with beta = 0, C is not read.
      const int m = 19, n = 37;
      M A("A", m, 0), B("B", 0, n), C("C", m, n);
      auto hc = Kokkos::create_mirror(C);  // a copy even where C is host memory: the values before the call
      test::fill_random(hc, test::case_seed(19, 37));
      Kokkos::deep_copy(C, hc);
      const float beta = 0.75f;
      gemm(Exec(), v, 3.0f, A, B, beta, C, be);
      Exec().fence();
      auto out = host_copy(C);
      int bad = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) bad += out(i, j) != beta * hc(i, j);
      CHECK(bad == 0);
      Kokkos::deep_copy(C, test::poison<float>());
      gemm(Exec(), v, 3.0f, A, B, 0.0f, C, be);
      Exec().fence();
      out = host_copy(C);
      bad = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) bad += !(out(i, j) == 0.0f);
      CHECK(bad == 0);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("histogram of nothing is all zero counts", "[histogram][edge]", test::Spaces) {
  using Exec = TestType;
  Kokkos::View<float*, typename Exec::memory_space> none("none", 0);
  Kokkos::View<std::uint32_t*, typename Exec::memory_space> counts("counts", 37);
  for (Backend be : backends_here()) {
    if (!backend_runs<Exec>(be)) continue;
    for (HistogramVariant v : histogram_variants) {
      CAPTURE(name(v), name(be));
      Kokkos::deep_copy(counts, test::poison<std::uint32_t>());
      histogram(Exec(), v, none, -1.0, 1.0, counts, be);
      Exec().fence();
      auto h  = host_copy(counts);
      int bad = 0;
      for (std::size_t i = 0; i < h.extent(0); ++i) bad += h(i) != 0;
      CHECK(bad == 0);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("transpose of 0 x n and n x 0 does nothing", "[transpose][edge]", test::Spaces) {
  using Exec = TestType;
  using M    = Kokkos::View<double**, Kokkos::LayoutRight, typename Exec::memory_space>;
  for (Backend be : backends_here()) {
    if (!backend_runs<Exec>(be)) continue;
    for (TransposeVariant v : transpose_variants)
      for (auto rc : {std::array<int, 2>{0, 40}, std::array<int, 2>{40, 0}, std::array<int, 2>{0, 0}}) {
        CAPTURE(name(v), name(be), rc[0], rc[1]);
        M in("in", rc[0], rc[1]), out("out", rc[1], rc[0]);
        CHECK_NOTHROW(transpose(Exec(), v, in, out, be));
      }
  }
}

TEMPLATE_LIST_TEST_CASE("stencil_1d of size 0 does nothing; of size 1 sees only zeros around it", "[stencil_1d][edge]",
                        test::Spaces) {
  using Exec = TestType;
  using V    = Kokkos::View<float*, typename Exec::memory_space>;
  for (Backend be : backends_here()) {
    if (!backend_runs<Exec>(be)) continue;
    for (Stencil1DVariant v : stencil1d_variants)
      for (int R : {1, 4}) {
        CAPTURE(name(v), name(be), R);
        V w("w", 2 * R + 1), none_in("in", 0), none_out("out", 0);
        auto hw = Kokkos::create_mirror_view(w);
        test::fill_random(hw, test::case_seed(R));
        Kokkos::deep_copy(w, hw);
        CHECK_NOTHROW(stencil_1d(Exec(), v, none_in, w, none_out, be));
        V in("in", 1), out("out", 1);
        Kokkos::deep_copy(in, 1.5f);
        Kokkos::deep_copy(out, test::poison<float>());
        stencil_1d(Exec(), v, in, w, out, be);
        Exec().fence();
        CHECK(host_copy(out)(0) == hw(R) * 1.5f);  // out(0) = w(R) in(0): every other tap is outside [0, 1)
      }
  }
}

TEMPLATE_LIST_TEST_CASE("stencil_3d of size 0 does nothing; an all-boundary grid is copied", "[stencil_3d][edge]",
                        test::Spaces) {
  using Exec = TestType;
  using V    = Kokkos::View<float***, Kokkos::LayoutRight, typename Exec::memory_space>;
  for (Backend be : backends_here()) {
    if (!backend_runs<Exec>(be)) continue;
    for (Stencil3DVariant v : stencil3d_variants) {
      CAPTURE(name(v), name(be));
      for (auto e : {std::array<int, 3>{0, 4, 4}, std::array<int, 3>{4, 0, 4}, std::array<int, 3>{4, 4, 0}}) {
        V in("in", e[0], e[1], e[2]), out("out", e[0], e[1], e[2]);
        CHECK_NOTHROW(stencil_3d_7pt(Exec(), v, in, out, 0.4f, 0.1f, be));
      }
      // Every point of these grids has an index 0 or n - 1 in some dimension: out = in.
      for (auto e : {std::array<int, 3>{1, 1, 1}, std::array<int, 3>{2, 3, 1}, std::array<int, 3>{2, 2, 40}}) {
        CAPTURE(e[0], e[1], e[2]);
        V in("in", e[0], e[1], e[2]), out("out", e[0], e[1], e[2]);
        auto hi = Kokkos::create_mirror_view(in);
        test::fill_random(hi, test::case_seed(e[0], e[1], e[2]));
        Kokkos::deep_copy(in, hi);
        Kokkos::deep_copy(out, test::poison<float>());
        stencil_3d_7pt(Exec(), v, in, out, 0.4f, 0.1f, be);
        Exec().fence();
        auto ho = host_copy(out);
        int bad = 0;
        for (int z = 0; z < e[0]; ++z)
          for (int y = 0; y < e[1]; ++y)
            for (int x = 0; x < e[2]; ++x) bad += ho(z, y, x) != hi(z, y, x);
        CHECK(bad == 0);
      }
    }
  }
}
