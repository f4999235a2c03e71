// SPDX-License-Identifier: BSD-3-Clause
// Transpose: the layer against the host, exactly (a transpose only moves values, so every
// element must equal its source bit for bit; the NaN poison in out must all be overwritten),
// and the native CUDA twin against the layer, bit for bit.
#include "test_support.hpp"

#include <scratchkit/kernels/transpose.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

using namespace scratchkit;

namespace {

// 4097 x 65 and 65 x 4097: more tile rows than one raster group of tiled_padded (G <= 32
// tile rows of ER <= 64), with a partial last group, and tiles cut at both edges.
const int transpose_sizes[][2] = {{0, 5},     {5, 0},      {1, 1},    {31, 33},  {32, 32},  {33, 31},
                                  {1000, 7},  {257, 1025}, {1, 4097}, {4097, 1}, {4097, 65}, {65, 4097}};

const TransposeVariant transpose_variants[] = {TransposeVariant::naive, TransposeVariant::tiled,
                                               TransposeVariant::tiled_padded};

template <class Layout>
const char* layout_name() {
  return std::is_same<Layout, Kokkos::LayoutLeft>::value ? "LayoutLeft" : "LayoutRight";
}

/// Host Views (any layouts): elements where out(c, r) and in(r, c) differ in bits; `first` describes the first one.
template <class HIn, class HOut>
std::size_t transpose_mismatches(const HIn& in, const HOut& out, std::string& first) {
  using T         = typename HOut::non_const_value_type;
  std::size_t bad = 0;
  for (std::size_t r = 0; r < in.extent(0); ++r)
    for (std::size_t c = 0; c < in.extent(1); ++c) {
      const T a = in(r, c), b = out(c, r);
      if (std::memcmp(&a, &b, sizeof(T)) != 0 && bad++ == 0) {
        std::ostringstream os;
        os << "out(" << c << ", " << r << ") = " << b << ", in(" << r << ", " << c << ") = " << a;
        first = os.str();
      }
    }
  return bad;
}

template <class Exec, class Scalar, class InLayout = Kokkos::LayoutRight, class OutLayout = Kokkos::LayoutRight>
void check_transpose(TransposeVariant v, int rows, int cols) {
  using InView    = Kokkos::View<Scalar**, InLayout, typename Exec::memory_space>;
  using OutView   = Kokkos::View<Scalar**, OutLayout, typename Exec::memory_space>;
  const auto seed = test::case_seed(rows, cols, static_cast<int>(v));
  CAPTURE(name(v), rows, cols, seed, sizeof(Scalar), Exec::name(), layout_name<InLayout>(), layout_name<OutLayout>());
  InView in("in", rows, cols);
  OutView out("out", cols, rows);
  auto hin = Kokkos::create_mirror_view(in);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(out, test::poison<Scalar>());
  const Kokkos::View<const Scalar**, InLayout, typename Exec::memory_space> cin = in;
  transpose(Exec(), v, cin, out);
  Exec().fence();
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
}

/// Strided (LayoutStride) windows of larger Views: the transpose touches the window only.
template <class Exec, class Scalar>
void check_transpose_window(TransposeVariant v, int rows, int cols) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  const auto seed = test::case_seed(rows, cols, 100 + static_cast<int>(v));
  CAPTURE(name(v), rows, cols, seed, sizeof(Scalar), Exec::name());
  View big_in("big_in", rows + 3, cols + 5), big_out("big_out", cols + 2, rows + 4);
  auto hbig_in = Kokkos::create_mirror_view(big_in);
  test::fill_random(hbig_in, seed);
  Kokkos::deep_copy(big_in, hbig_in);
  Kokkos::deep_copy(big_out, test::poison<Scalar>());
  const auto in  = Kokkos::subview(big_in, Kokkos::pair<int, int>(2, 2 + rows), Kokkos::pair<int, int>(1, 1 + cols));
  const auto out = Kokkos::subview(big_out, Kokkos::pair<int, int>(1, 1 + cols), Kokkos::pair<int, int>(3, 3 + rows));
  // LayoutStride copies keep the test honest that any layout works, not only row-major windows.
  const Kokkos::View<Scalar**, Kokkos::LayoutStride, typename Exec::memory_space> sin = in, sout = out;
  transpose(Exec(), v, sin, sout);
  Exec().fence();
  auto hbig_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), big_out);
  const auto hin  = Kokkos::subview(hbig_in, Kokkos::pair<int, int>(2, 2 + rows), Kokkos::pair<int, int>(1, 1 + cols));
  const auto hout = Kokkos::subview(hbig_out, Kokkos::pair<int, int>(1, 1 + cols), Kokkos::pair<int, int>(3, 3 + rows));
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
  std::size_t touched = 0;  // elements of big_out outside the window that are no longer poison
  for (int i = 0; i < cols + 2; ++i)
    for (int j = 0; j < rows + 4; ++j) {
      const bool inside = i >= 1 && i < 1 + cols && j >= 3 && j < 3 + rows;
      if (!inside && hbig_out(i, j) == hbig_out(i, j)) ++touched;
    }
  CHECK(touched == 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("Transpose on the layer matches the host exactly", "[transpose][layer]", test::Spaces) {
  using Exec = TestType;
  for (auto v : transpose_variants)
    for (const auto& s : transpose_sizes) {
      check_transpose<Exec, float>(v, s[0], s[1]);
      check_transpose<Exec, double>(v, s[0], s[1]);
    }
}

TEMPLATE_LIST_TEST_CASE("Transpose on the layer takes any layout", "[transpose][layer]", test::Spaces) {
  using Exec  = TestType;
  using Left  = Kokkos::LayoutLeft;
  using Right = Kokkos::LayoutRight;
  for (auto v : transpose_variants)
    for (const auto& s : {std::array<int, 2>{1, 1}, {31, 33}, {33, 31}, {1000, 7}, {1, 4097}, {65, 129}}) {
      check_transpose<Exec, float, Left, Right>(v, s[0], s[1]);
      check_transpose<Exec, double, Right, Left>(v, s[0], s[1]);
      check_transpose<Exec, float, Left, Left>(v, s[0], s[1]);
      check_transpose_window<Exec, float>(v, s[0], s[1]);
      check_transpose_window<Exec, double>(v, s[0], s[1]);
    }
}

TEST_CASE("Transpose tile order visits every tile once", "[transpose][layer]") {
  // transpose_tile_of (grouped raster of tiled_padded): a bijection from block numbers onto the
  // nby x nbx tiles, for full and partial last groups, single rows and columns, G = 1 (row-major).
  for (const int G : {1, 2, 8, 16, 32})
    for (const auto& g : {std::array<int, 2>{1, 1}, {1, 7}, {7, 1}, {5, 3}, {32, 5}, {33, 5}, {70, 9}, {100, 1}}) {
      const int nby = g[0], nbx = g[1];
      CAPTURE(G, nby, nbx);
      std::vector<int> seen(static_cast<std::size_t>(nbx) * nby, 0);
      bool in_range = true;
      for (int blk = 0; blk < nbx * nby; ++blk) {
        int tr = -1, tc = -1;
        detail::transpose_tile_of(blk, nbx, nby, G, tr, tc);
        if (tr < 0 || tr >= nby || tc < 0 || tc >= nbx) {
          in_range = false;
          continue;
        }
        ++seen[static_cast<std::size_t>(tr) * nbx + tc];
        // Inside a group the tile row runs fastest: the tile rows blk visits are those of its group.
        if (tr / G != blk / (G * nbx)) in_range = false;
      }
      CHECK(in_range);
      CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(seen.size()));
    }
}

TEST_CASE("Transpose rejects bad shapes and overlap before launch", "[transpose][bad-input]") {
  using Exec = test::DeviceSpace;
  using View = Kokkos::View<float**, Kokkos::LayoutRight, Exec::memory_space>;
  View in("in", 4, 5), same("same", 4, 5), narrow("narrow", 5, 3), ok("ok", 5, 4);
  for (auto v : transpose_variants) {
    CHECK_THROWS_WITH(transpose(Exec(), v, in, same),
                      Catch::Matchers::ContainsSubstring("in is 4 x 5, out is 4 x 5 (expected 5 x 4)"));
    CHECK_THROWS_AS(transpose(Exec(), v, in, narrow), ShapeError);
    CHECK_THROWS_WITH(transpose(Exec(), v, in, narrow),
                      Catch::Matchers::ContainsSubstring("in is 4 x 5, out is 5 x 3"));
    CHECK_NOTHROW(transpose(Exec(), v, in, ok));
    // Empty is fine, but the extents must still match.
    View e05("e05", 0, 5), e50("e50", 5, 0);
    CHECK_NOTHROW(transpose(Exec(), v, e05, e50));
    CHECK_THROWS_AS(transpose(Exec(), v, e05, e05), ShapeError);
    // In place (square, same storage) or any overlap: refused.
    View sq("sq", 6, 6);
    CHECK_THROWS_AS(transpose(Exec(), v, sq, sq), UnsupportedError);
    const auto top = Kokkos::subview(sq, Kokkos::pair<int, int>(0, 3), Kokkos::ALL);  // 3 x 6
    const auto bot = Kokkos::subview(sq, Kokkos::ALL, Kokkos::pair<int, int>(0, 3));  // 6 x 3, overlaps top
    CHECK_THROWS_AS(transpose(Exec(), v, top, bot), UnsupportedError);
  }
  Exec().fence();
  CHECK_THROWS_AS(transpose(Exec(), static_cast<TransposeVariant>(42), in, ok), UnsupportedError);
}

TEST_CASE("Transpose with Backend::native on a host execution space throws UnsupportedError",
          "[transpose][native][bad-input]") {
#if defined(KOKKOS_ENABLE_SERIAL)
  using Host = Kokkos::Serial;
#else
  using Host = Kokkos::DefaultHostExecutionSpace;
#endif
  Kokkos::View<float**, Kokkos::LayoutRight, Kokkos::HostSpace> fin("fin", 3, 4), fout("fout", 4, 3);
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> din("din", 3, 4), dout("dout", 4, 3);
  Kokkos::deep_copy(fout, test::poison<float>());
  for (auto v : transpose_variants) {
    CHECK_THROWS_AS(transpose(Host(), v, fin, fout, Backend::native), UnsupportedError);
    CHECK_THROWS_WITH(transpose(Host(), v, din, dout, Backend::native),
                      Catch::Matchers::ContainsSubstring("scratchkit::transpose: Backend::native needs"));
  }
  CHECK(fout(2, 1) != fout(2, 1));  // still poison: nothing ran
  // Shapes are checked first, whatever the backend.
  CHECK_THROWS_AS(transpose(Host(), TransposeVariant::tiled, fin, fin, Backend::native), ShapeError);
}

TEST_CASE("Native CUDA transpose rejects bad sizes", "[transpose][native][bad-input]") {
#if SCRATCHKIT_HAS_NATIVE_CUDA
  // Checked on the host before any CUDA call: no device needed.
  float* none = nullptr;
  CHECK_THROWS_WITH(native::cuda::transpose(TransposeVariant::tiled, -1, 4, none, none),
                    Catch::Matchers::ContainsSubstring("rows=-1 cols=4"));
  CHECK_THROWS_AS(native::cuda::transpose(TransposeVariant::naive, 3, -2, none, none), ShapeError);
  CHECK_THROWS_AS(native::cuda::transpose(static_cast<TransposeVariant>(42), 0, 0, none, none), UnsupportedError);
  CHECK_NOTHROW(native::cuda::transpose(TransposeVariant::tiled_padded, 0, 7, none, none));
#else
  SKIP("native CUDA kernels not built (SCRATCHKIT_ENABLE_CUDA=OFF)");
#endif
}

namespace {

#if SCRATCHKIT_TEST_TWINS
using Cuda = Kokkos::Cuda;

/// Layer, native (direct and through Backend::native): same bits, and exact against the host.
template <class Scalar>
void transpose_twins(TransposeVariant v, int rows, int cols) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  const auto seed = test::case_seed(rows, cols, 200 + static_cast<int>(v));
  CAPTURE(name(v), rows, cols, seed, sizeof(Scalar));
  View in("in", rows, cols), ol("ol", cols, rows), on("on", cols, rows), od("od", cols, rows);
  auto hin = Kokkos::create_mirror_view(in);
  test::fill_random(hin, seed);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(ol, test::poison<Scalar>());
  Kokkos::deep_copy(on, test::poison<Scalar>());
  Kokkos::deep_copy(od, test::poison<Scalar>());
  const Cuda exec;
  transpose(exec, v, in, ol);
  transpose(exec, v, in, od, Backend::native);
  exec.fence();
  native::cuda::transpose(v, rows, cols, in.data(), on.data(), exec.cuda_stream());
  native::cuda::synchronize(exec.cuda_stream());
  CHECK(test::same_bits(ol, on));
  CHECK(test::same_bits(ol, od));
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), on);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
}
#endif

}  // namespace

TEST_CASE("Native CUDA transpose agrees with the layer bit for bit", "[transpose][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (auto v : transpose_variants) {
    for (const auto& s : transpose_sizes) {
      transpose_twins<float>(v, s[0], s[1]);
      transpose_twins<double>(v, s[0], s[1]);
    }
    for (const auto& s : {std::array<int, 2>{2048, 2048}, {4099, 1023}, {1, 1 << 20}, {(1 << 20) + 1, 3}}) {
      transpose_twins<float>(v, s[0], s[1]);
      transpose_twins<double>(v, s[0], s[1]);
    }
  }
#endif
}
