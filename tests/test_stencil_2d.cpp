// SPDX-License-Identifier: BSD-3-Clause
// 2-D stencil on the layer against the host reference: every shape (star, box), radius (1, 2),
// boundary (zero, clamp, periodic), element type and layout (LayoutRight, LayoutLeft, a padded
// LayoutStride and a LayoutStride with no unit stride), at sizes that are not multiples of the
// 32 x 32 tile; the layouts against each other and the layer against its native twin, bit for bit.
//
// Tolerance (rounding class): each output is a sum of m = 4R + 1 (star) or (2R + 1)^2 (box)
// products added in order, so |out - ref| <= gamma_m * sum |w(a, b)| |in(...)|
// (reference/stencil_2d.hpp). Every layout and both twins add the same products in the same
// order, so their results are the same bits.
#include "test_support.hpp"

#include <scratchkit/kernels/stencil_2d.hpp>
#include <scratchkit/reference/stencil_2d.hpp>
#include <scratchkit/scratch_check.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <array>
#include <cstring>
#include <string>
#include <vector>

using namespace scratchkit;

namespace {

enum class Kind { right, left, stride_padded, stride_general };
const char* kind_name(Kind k) {
  return k == Kind::right ? "LayoutRight" : k == Kind::left ? "LayoutLeft" : k == Kind::stride_padded ? "LayoutStride padded" : "LayoutStride general";
}

/// A rank-2 View of `kind` (as a LayoutStride View, so that one type holds them all).
template <class T, class Mem>
Kokkos::View<T**, Kokkos::LayoutStride, Mem> make_view(const std::string& label, Kind kind, int n0, int n1) {
  switch (kind) {
    case Kind::right: return Kokkos::View<T**, Kokkos::LayoutRight, Mem>(label, n0, n1);
    case Kind::left: return Kokkos::View<T**, Kokkos::LayoutLeft, Mem>(label, n0, n1);
    case Kind::stride_padded: {  // rows of n1 + 3: a block of a larger row-major array
      Kokkos::View<T**, Kokkos::LayoutRight, Mem> big(label, n0, n1 + 3);
      return Kokkos::subview(big, Kokkos::ALL, std::make_pair(0, n1));
    }
    case Kind::stride_general: break;
  }
  // No unit stride: every other element of a column-major array (strides 2 and 2 n0).
  Kokkos::View<T***, Kokkos::LayoutLeft, Mem> big(label, 2, n0, n1);
  return Kokkos::subview(big, 0, Kokkos::ALL, Kokkos::ALL);
}

/// Host row-major values into v (any layout), and v back into row-major values, through a contiguous
/// View in v's memory space: Kokkos copies between spaces only between contiguous Views of one layout.
template <class V>
using Dense = Kokkos::View<typename V::non_const_value_type**, Kokkos::LayoutRight, typename V::memory_space>;
template <class V, class T>
void put(const V& v, const std::vector<T>& h) {
  Dense<V> d("dense", v.extent(0), v.extent(1));
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j) m(i, j) = h[i * v.extent(1) + j];
  Kokkos::deep_copy(d, m);
  Kokkos::deep_copy(v, d);  // one space: Kokkos' copy kernel takes any pair of layouts
}
template <class V>
std::vector<typename V::non_const_value_type> get(const V& v) {
  Dense<V> d("dense", v.extent(0), v.extent(1));
  Kokkos::deep_copy(d, v);
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  std::vector<typename V::non_const_value_type> h(v.extent(0) * v.extent(1));
  for (std::size_t i = 0; i < v.extent(0); ++i)
    for (std::size_t j = 0; j < v.extent(1); ++j) h[i * v.extent(1) + j] = m(i, j);
  return h;
}

/// Random inputs and weights; under `star` the weights it must not read are NaN.
template <class T>
void inputs(Stencil2DShape shape, int R, int n0, int n1, std::uint64_t seed, std::vector<T>& x, std::vector<T>& w) {
  const int K = 2 * R + 1;
  x.assign(std::size_t(n0) * n1, T(0));
  w.assign(std::size_t(K) * K, T(0));
  Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> xv(x.data(), x.size()), wv(w.data(), w.size());
  test::fill_random(xv, seed);
  test::fill_random(wv, seed + 1);
  if (shape == Stencil2DShape::star)
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b)
        if (a != R && b != R) w[a * K + b] = test::poison<T>();
}

/// One call on the layer with Views of `kind` (in, w and out alike), the result row-major.
template <class Exec, class T>
std::vector<T> run_layer(Kind kind, Stencil2DShape shape, Boundary bc, int R, int n0, int n1, const std::vector<T>& x,
                         const std::vector<T>& w) {
  using Mem = typename Exec::memory_space;
  auto in = make_view<T, Mem>("in", kind, n0, n1), out = make_view<T, Mem>("out", kind, n0, n1);
  auto wv = make_view<T, Mem>("w", kind, 2 * R + 1, 2 * R + 1);
  put(in, x);
  put(wv, w);
  Kokkos::deep_copy(out, test::poison<T>());
  stencil_2d(Exec(), shape, in, wv, out, bc);
  return get(out);
}

template <class Exec, class T>
void every_case(int n0, int n1) {
  for (auto shape : {Stencil2DShape::star, Stencil2DShape::box})
    for (int R : {1, 2})
      for (auto bc : {Boundary::zero, Boundary::clamp, Boundary::periodic}) {
        const auto seed = test::case_seed(n0 * 7919 + n1, R * 10 + static_cast<int>(bc), sizeof(T) * 2 + (shape == Stencil2DShape::box));
        std::vector<T> x, w;
        inputs(shape, R, n0, n1, seed, x, w);
        std::vector<T> first;
        for (auto kind : {Kind::right, Kind::left, Kind::stride_padded, Kind::stride_general}) {
          CAPTURE(Exec::name(), sizeof(T), n0, n1, name(shape), R, name(bc), kind_name(kind), seed);
          const auto got = run_layer<Exec, T>(kind, shape, bc, R, n0, n1, x, w);
          const auto res = check::stencil_2d<T>(shape, bc, R, x.data(), w.data(), got.data(), n0, n1);
          CAPTURE(res.worst);
          CHECK(res.bad == 0);
          if (kind == Kind::right)
            first = got;
          else
            CHECK(std::memcmp(first.data(), got.data(), got.size() * sizeof(T)) == 0);  // same order on every layout
        }
      }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("2-D stencil on the layer matches the host reference, every shape, radius, boundary and layout",
                        "[stencil_2d][layer]", test::Spaces) {
  using Exec = TestType;
  // Odd sizes: partial blocks on both axes, grids narrower than the halo (periodic wraps more than once).
  for (const auto& s : std::vector<std::array<int, 2>>{{1, 1}, {2, 3}, {7, 45}, {33, 9}, {70, 100}}) {
    every_case<Exec, float>(s[0], s[1]);
    every_case<Exec, double>(s[0], s[1]);
  }
}

TEMPLATE_LIST_TEST_CASE("2-D stencil with blocks of several host members loads the tile the GPU's way",
                        "[stencil_2d][layer]", test::Spaces) {
  using Exec = TestType;
  test::TeamSize ts(4);  // host blocks of 4 members: HaloTile's block-stride load, not its row copies
  every_case<Exec, double>(19, 37);
}

TEST_CASE("2-D stencil of an empty grid launches nothing", "[stencil_2d][edge]") {
  using Exec = Kokkos::DefaultExecutionSpace;
  Kokkos::View<float**, Exec::memory_space> in("in", 0, 5), out("out", 0, 5), w("w", 3, 3);
  CHECK_NOTHROW(stencil_2d(Exec(), Stencil2DShape::box, in, w, out));
}

TEST_CASE("2-D stencil rejects bad shapes, radii, boundaries and aliasing with a clear error", "[stencil_2d][bad-input]") {
  using Exec = Kokkos::DefaultExecutionSpace;
  using V    = Kokkos::View<float**, Exec::memory_space>;
  using Catch::Matchers::ContainsSubstring;
  V in("in", 10, 12), out("out", 10, 12), w("w", 3, 3);
  CHECK_THROWS_WITH(stencil_2d(Exec(), Stencil2DShape::star, in, w, V("o", 10, 11)),
                    ContainsSubstring("in is 10 x 12, out 10 x 11, w 3 x 3"));
  CHECK_THROWS_AS(stencil_2d(Exec(), Stencil2DShape::star, in, V("w", 3, 5), out), ShapeError);
  CHECK_THROWS_WITH(stencil_2d(Exec(), Stencil2DShape::box, in, V("w", 7, 7), out),
                    ContainsSubstring("3 x 3 or 5 x 5 weights (radius 1 or 2)"));
  CHECK_THROWS_AS(stencil_2d(Exec(), Stencil2DShape::box, in, V("w", 4, 4), out), ShapeError);
  CHECK_THROWS_WITH(stencil_2d(Exec(), Stencil2DShape::box, in, w, out, Boundary::leave),
                    ContainsSubstring("Boundary::leave"));
  CHECK_THROWS_AS(stencil_2d(Exec(), Stencil2DShape::box, in, w, out, Boundary::leave), UnsupportedError);
  CHECK_THROWS_WITH(stencil_2d(Exec(), Stencil2DShape::star, in, w, in), ContainsSubstring("same array"));
  Kokkos::View<float*, Exec::memory_space> mem("mem", 12);
  Kokkos::View<float**, Kokkos::LayoutStride, Exec::memory_space> overlapping(mem.data(), Kokkos::LayoutStride(10, 0, 12, 1));
  CHECK_THROWS_WITH(stencil_2d(Exec(), Stencil2DShape::star, in, w, overlapping), ContainsSubstring("overlapping"));
#if !SCRATCHKIT_TEST_TWINS
  CHECK_THROWS_AS(stencil_2d(Exec(), Stencil2DShape::star, in, w, out, Boundary::zero, Backend::native),
                  UnsupportedError);
#endif
}

namespace {
#if SCRATCHKIT_TEST_TWINS
/// The layer, the native backend through the public call and the twin called directly, bit for bit.
template <class T, class Layout>
void twins(Stencil2DShape shape, Boundary bc, int R, int n0, int n1) {
  const auto seed = test::case_seed(n0 * 7919 + n1, R * 10 + static_cast<int>(bc), sizeof(T) + 300);
  CAPTURE(name(shape), name(bc), R, n0, n1, sizeof(T), seed);
  using V = Kokkos::View<T**, Layout, Kokkos::CudaSpace>;
  std::vector<T> x, w;
  inputs(shape, R, n0, n1, seed, x, w);
  V in("in", n0, n1), wv("w", 2 * R + 1, 2 * R + 1), ol("ol", n0, n1), on("on", n0, n1);
  put(in, x);
  put(wv, w);
  Kokkos::deep_copy(ol, test::poison<T>());
  Kokkos::deep_copy(on, test::poison<T>());
  const Kokkos::Cuda exec;
  stencil_2d(exec, shape, in, wv, ol, bc);
  stencil_2d(exec, shape, in, wv, on, bc, Backend::native);
  exec.fence();
  const auto res = check::stencil_2d<T>(shape, bc, R, x.data(), w.data(), get(ol).data(), n0, n1);
  CHECK(res.bad == 0);
  CHECK(test::same_bits(ol, on));
  if (std::is_same<Layout, Kokkos::LayoutRight>::value) {
    V od("od", n0, n1);
    Kokkos::deep_copy(od, test::poison<T>());
    native::cuda::stencil_2d(shape, bc, R, in.data(), wv.data(), od.data(), n0, n1, false, exec.cuda_stream());
    exec.fence();
    CHECK(test::same_bits(ol, od));
  }
}
#endif
}  // namespace

TEST_CASE("Native CUDA 2-D stencil agrees with the layer bit for bit", "[stencil_2d][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (auto shape : {Stencil2DShape::star, Stencil2DShape::box})
    for (int R : {1, 2})
      for (auto bc : {Boundary::zero, Boundary::clamp, Boundary::periodic})
        for (const auto& s : std::vector<std::array<int, 2>>{{1, 1}, {7, 45}, {257, 1023}, {1031, 2053}}) {
          twins<float, Kokkos::LayoutRight>(shape, bc, R, s[0], s[1]);
          twins<double, Kokkos::LayoutRight>(shape, bc, R, s[0], s[1]);
          twins<float, Kokkos::LayoutLeft>(shape, bc, R, s[0], s[1]);
          twins<double, Kokkos::LayoutLeft>(shape, bc, R, s[0], s[1]);
        }
#endif
}

TEST_CASE("2-D stencil under the scratch checker: no race, no uninitialised read, no bank conflict",
          "[stencil_2d][checker]") {
  if (!scratch_check_compiled) SKIP("scratch checker not compiled in (SCRATCHKIT_ENABLE_SCRATCH_CHECK=OFF)");
  using Exec = test::HostSpace;
  using V    = Kokkos::View<float**, Exec::memory_space>;
  V in("in", 37, 70), out("out", 37, 70), w3("w3", 3, 3), w5("w5", 5, 5);
  Kokkos::deep_copy(in, 1.5f), Kokkos::deep_copy(w3, 0.25f), Kokkos::deep_copy(w5, 0.125f);
  for (auto shape : {Stencil2DShape::star, Stencil2DShape::box})
    for (const V& w : {w3, w5})
      for (auto bc : {Boundary::zero, Boundary::periodic}) {
        CAPTURE(name(shape), w.extent(0), name(bc));
        ScratchCheckScope scope(ScratchCheck().quiet());
        stencil_2d(Exec(), shape, in, w, out, bc);
        const auto reports = scope.reports();
        REQUIRE(reports.size() == 1);
        const auto& r = reports[0];
        CAPTURE(r.str());
        CHECK(r.blocks == 3 * 2);  // ceil(70 / 32) x ceil(37 / 32): tiles of 32 x 32 points
        CHECK(r.races == 0);
        CHECK(r.uninitialised_reads == 0);
        // A warp reads 32 consecutive floats of one tile row; the load stores consecutive points.
        CHECK(r.conflicts(ScratchOp::load) == 0);
        CHECK(r.conflicts(ScratchOp::store) == 0);
      }
}
