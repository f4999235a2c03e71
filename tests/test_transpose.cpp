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
#include <cstdint>
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
/// in is rows x cols from (2, in_c0) of a rows + 3 x in_pitch View, out cols x rows from
/// (1, out_c0) of a cols + 2 x out_pitch one (pitches of 256 bytes' multiples: tiled_padded
/// shifts its tile grid to the windows' alignment, whose odd column offsets it must cover).
template <class Exec, class Scalar>
void check_transpose_window(TransposeVariant v, int rows, int cols, int in_c0 = 1, int in_pitch = -1, int out_c0 = 3,
                            int out_pitch = -1) {
  using View = Kokkos::View<Scalar**, Kokkos::LayoutRight, typename Exec::memory_space>;
  if (in_pitch < 0) in_pitch = cols + 5;
  if (out_pitch < 0) out_pitch = rows + 4;
  const auto seed = test::case_seed(rows, cols, 100 + static_cast<int>(v) + 7 * (in_pitch + out_pitch));
  CAPTURE(name(v), rows, cols, in_c0, in_pitch, out_c0, out_pitch, seed, sizeof(Scalar), Exec::name());
  View big_in("big_in", rows + 3, in_pitch), big_out("big_out", cols + 2, out_pitch);
  auto hbig_in = Kokkos::create_mirror_view(big_in);
  test::fill_random(hbig_in, seed);
  Kokkos::deep_copy(big_in, hbig_in);
  Kokkos::deep_copy(big_out, test::poison<Scalar>());
  const Kokkos::pair<int, int> in_rows(2, 2 + rows), in_cols(in_c0, in_c0 + cols);
  const Kokkos::pair<int, int> out_rows(1, 1 + cols), out_cols(out_c0, out_c0 + rows);
  const auto in  = Kokkos::subview(big_in, in_rows, in_cols);
  const auto out = Kokkos::subview(big_out, out_rows, out_cols);
  // LayoutStride copies keep the test honest that any layout works, not only row-major windows.
  const Kokkos::View<Scalar**, Kokkos::LayoutStride, typename Exec::memory_space> sin = in, sout = out;
  transpose(Exec(), v, sin, sout);
  Exec().fence();
  auto hbig_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), big_out);
  const auto hin  = Kokkos::subview(hbig_in, in_rows, in_cols);
  const auto hout = Kokkos::subview(hbig_out, out_rows, out_cols);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
  std::size_t touched = 0;  // elements of big_out outside the window that are no longer poison
  for (int i = 0; i < cols + 2; ++i)
    for (int j = 0; j < out_pitch; ++j) {
      const bool inside = i >= 1 && i < 1 + cols && j >= out_c0 && j < out_c0 + rows;
      if (!inside && hbig_out(i, j) == hbig_out(i, j)) ++touched;
    }
  CHECK(touched == 0);
}

/// Elements per 256 bytes (transpose_align_bytes): the period of tiled_padded's tile-grid shifts.
template <class Scalar>
constexpr int align_elems() {
  return static_cast<int>(detail::transpose_align_bytes / sizeof(Scalar));
}

/// Elements from p to the first 256-byte boundary at or after it, plus `off`.
template <class Scalar>
std::size_t lead_elems(const Scalar* p, int off) {
  constexpr std::size_t A = detail::transpose_align_bytes;
  return (A - reinterpret_cast<std::uintptr_t>(p) % A) % A / sizeof(Scalar) + static_cast<std::size_t>(off);
}

/// The shift transpose_tile_shift must find for lines `off` elements past a 256-byte
/// boundary, `line` elements long (their pitch), with tiles of `tile` elements: the tiles
/// after the first then start where the lines cross a boundary.
template <class Scalar>
int expected_shift(int off, int line, int tile) {
  constexpr int A = align_elems<Scalar>();
  if (line % A != 0) return 0;
  const int lead = (A - off % A) % A;
  return (tile - lead % tile) % tile;
}

template <class Scalar, class Mem>
using Placed = Kokkos::View<Scalar**, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// Row-major in (rows x cols) and out (cols x rows) that start in_off and out_off elements past a
/// 256-byte boundary inside larger 1-D buffers (odd offsets too: a View's data need only be element-
/// aligned). Checks the shifts the layer derives, exact results, and that nothing of out's buffer
/// around out was written.
template <class Exec, class Scalar>
void check_transpose_placed(TransposeVariant v, int rows, int cols, int in_off, int out_off) {
  using Mem       = typename Exec::memory_space;
  using Buf       = Kokkos::View<Scalar*, Mem>;
  using Bk        = typename detail::TransposeDefaultBlocking<Scalar>::type;
  constexpr int A = align_elems<Scalar>();
  const auto seed = test::case_seed(rows, cols, 300 + static_cast<int>(v) + 1000 * (in_off * A + out_off));
  const std::size_t n = static_cast<std::size_t>(rows) * cols, len = n + 3 * A;
  Buf bin("bin", len), bout("bout", len);
  const std::size_t li = lead_elems(bin.data(), in_off), lo = lead_elems(bout.data(), out_off);
  const Placed<Scalar, Mem> in(bin.data() + li, rows, cols), out(bout.data() + lo, cols, rows);
  const int shift_c = detail::transpose_view_shift(in, Bk::EC), shift_r = detail::transpose_view_shift(out, Bk::ER);
  CAPTURE(name(v), rows, cols, in_off, out_off, shift_r, shift_c, seed, sizeof(Scalar), Exec::name());
  CHECK(shift_c == expected_shift<Scalar>(in_off, cols, Bk::EC));
  CHECK(shift_r == expected_shift<Scalar>(out_off, rows, Bk::ER));
  auto hbin = Kokkos::create_mirror_view(bin);
  test::fill_random(hbin, seed);
  Kokkos::deep_copy(bin, hbin);
  Kokkos::deep_copy(bout, test::poison<Scalar>());
  const Kokkos::View<const Scalar**, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>> cin = in;
  transpose(Exec(), v, cin, out);
  Exec().fence();
  auto hbout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bout);
  const Placed<Scalar, Kokkos::HostSpace> hin(hbin.data() + li, rows, cols), hout(hbout.data() + lo, cols, rows);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
  std::size_t touched = 0;  // elements of bout before or after out that are no longer poison
  for (std::size_t i = 0; i < len; ++i)
    if ((i < lo || i >= lo + n) && hbout(i) == hbout(i)) ++touched;
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

TEST_CASE("Transpose tile shift follows the data's alignment", "[transpose][layer]") {
  using detail::transpose_tile_shift;
  const auto at = [](std::uintptr_t a) { return reinterpret_cast<const void*>(a); };
  constexpr std::uintptr_t base = 0x7f0000000000;  // 256-byte aligned
  // Aligned, or a pitch that is not a multiple of 256 bytes, or an address that is not element-aligned: plain grid.
  CHECK(transpose_tile_shift(at(base), 16384 * 4, 4, 64) == 0);
  CHECK(transpose_tile_shift(at(base + 128), 1000 * 4, 4, 64) == 0);
  CHECK(transpose_tile_shift(at(base + 130), 16384 * 4, 4, 64) == 0);
  CHECK(transpose_tile_shift(at(base + 128), 16384 * 8, 8, 0) == 0);
  // A Kokkos View's data (128 bytes into a 256-aligned allocation): the first tile is half wide.
  CHECK(transpose_tile_shift(at(base + 128), 16384 * 4, 4, 64) == 32);
  CHECK(transpose_tile_shift(at(base + 128), 16384 * 8, 8, 32) == 16);
  // One element past a boundary: the next boundary is 63 (31) elements on, the first tile 63 (31) wide.
  CHECK(transpose_tile_shift(at(base + 4), 64 * 4, 4, 64) == 1);
  CHECK(transpose_tile_shift(at(base + 8), 32 * 8, 8, 32) == 1);
  CHECK(transpose_tile_shift(at(base + 252), 64 * 4, 4, 64) == 63);
  // 64 bytes past: boundary after 48 floats, tiles start at -16, 48, 112, ...
  CHECK(transpose_tile_shift(at(base + 64), 256, 4, 64) == 16);
  // Tiles shorter than 256 bytes align to their own length: 32 floats, 96 bytes past -> lead 40 -> 8 -> shift 24.
  CHECK(transpose_tile_shift(at(base + 96), 256, 4, 32) == 24);
  // Tiles longer than 256 bytes: 128 floats, lead 32 -> shift 96.
  CHECK(transpose_tile_shift(at(base + 128), 512, 4, 128) == 96);
}

TEMPLATE_LIST_TEST_CASE("Transpose is exact wherever in and out start", "[transpose][layer]", test::Spaces) {
  // tiled_padded shifts its tile grid by the data's offset from 256-byte boundaries (when the pitch
  // keeps every row at the same offset): a partial first tile row and column, interior tiles that
  // start on the boundaries. Offsets in elements past a boundary, in and out separately; sizes in
  // units of A = 256 bytes of elements (both shifts apply), with one of them not (one shift only),
  // neither, and tiny ones where the shifted grid has more tiles than the plain one.
  using Exec = TestType;
  const auto run = [](auto zero) {
    using Scalar    = decltype(zero);
    constexpr int A = align_elems<Scalar>();
    const int sizes[][2] = {{A, A}, {2 * A, 3 * A}, {3 * A, 4 * A}, {A, 1}, {1, A},      {3 * A, 5},
                            {7, 2 * A}, {A + 1, A - 1}, {2, 2}, {A, 2}, {A - 1, 3 * A}};
    const int offsets[][2] = {{0, 0}, {1, 0}, {0, 1}, {A / 2, A / 2}, {A - 1, 3}, {5, A / 2}, {A / 4, A - 1}};
    for (auto v : transpose_variants)
      for (const auto& s : sizes)
        for (const auto& o : offsets) check_transpose_placed<Exec, Scalar>(v, s[0], s[1], o[0], o[1]);
  };
  run(0.0f);
  run(0.0);
}

TEMPLATE_LIST_TEST_CASE("Transpose of subviews at odd offsets", "[transpose][layer]", test::Spaces) {
  // Windows of Views whose pitch is a multiple of 256 bytes, at odd column offsets: every row of the
  // window shares one misalignment, so tiled_padded shifts its grid (the parents' own alignment
  // depends on the allocator: the shifts vary, the result must not).
  using Exec = TestType;
  for (auto v : transpose_variants)
    for (const auto& s : {std::array<int, 2>{1, 1}, {31, 33}, {64, 64}, {96, 200}, {130, 65}}) {
      const int rows = s[0], cols = s[1];
      const int fin = (cols + 1 + 63) / 64 * 64, fout = (rows + 3 + 63) / 64 * 64;    // float: 64 per 256 B
      const int din = (cols + 7 + 31) / 32 * 32, dout = (rows + 9 + 31) / 32 * 32;    // double: 32 per 256 B
      check_transpose_window<Exec, float>(v, rows, cols, 1, fin, 3, fout);
      check_transpose_window<Exec, float>(v, rows, cols, fin - cols, fin, fout - rows, fout);
      check_transpose_window<Exec, double>(v, rows, cols, 7, din, 9, dout);
      check_transpose_window<Exec, double>(v, rows, cols, 1, din, 0, dout);
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

/// v on the GPU three ways: the layer into ol, Backend::native into od, the native function into on.
template <class InView, class OutView>
void transpose_three_ways(TransposeVariant v, int rows, int cols, const InView& in, const OutView& ol,
                          const OutView& od, const OutView& on) {
  const Cuda exec;
  transpose(exec, v, in, ol);
  transpose(exec, v, in, od, Backend::native);
  exec.fence();
  native::cuda::transpose(v, rows, cols, in.data(), on.data(), exec.cuda_stream());
  native::cuda::synchronize(exec.cuda_stream());
}

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
  transpose_three_ways(v, rows, cols, in, ol, od, on);
  CHECK(test::same_bits(ol, on));
  CHECK(test::same_bits(ol, od));
  auto hout = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), on);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
}

/// As transpose_twins, with in and out in_off and out_off elements past a 256-byte boundary inside
/// larger buffers (check_transpose_placed): both twins shift their tile grids the same way; the
/// buffers around out stay poison.
template <class Scalar>
void transpose_twins_placed(TransposeVariant v, int rows, int cols, int in_off, int out_off) {
  using Buf       = Kokkos::View<Scalar*, Kokkos::CudaSpace>;
  using View      = Placed<Scalar, Kokkos::CudaSpace>;
  using Bk        = typename detail::TransposeDefaultBlocking<Scalar>::type;
  constexpr int A = align_elems<Scalar>();
  const auto seed = test::case_seed(rows, cols, 400 + static_cast<int>(v) + 1000 * (in_off * A + out_off));
  const std::size_t n = static_cast<std::size_t>(rows) * cols, len = (n + 3 * A + A - 1) / A * A;
  // One buffer for the three outs (layer, native, Backend::native), len apart (a multiple of 256
  // bytes): each starts out_off past a boundary.
  Buf bin("bin", len), bout("bout", 3 * len);
  const std::size_t li = lead_elems(bin.data(), in_off), lo = lead_elems(bout.data(), out_off);
  const View in(bin.data() + li, rows, cols), ol(bout.data() + lo, cols, rows), on(bout.data() + len + lo, cols, rows),
      od(bout.data() + 2 * len + lo, cols, rows);
  const int shift_c = detail::transpose_view_shift(in, Bk::EC), shift_r = detail::transpose_view_shift(ol, Bk::ER);
  CAPTURE(name(v), rows, cols, in_off, out_off, shift_r, shift_c, seed, sizeof(Scalar));
  CHECK(shift_c == expected_shift<Scalar>(in_off, cols, Bk::EC));
  CHECK(shift_r == expected_shift<Scalar>(out_off, rows, Bk::ER));
  auto hbin = Kokkos::create_mirror_view(bin);
  test::fill_random(hbin, seed);
  Kokkos::deep_copy(bin, hbin);
  Kokkos::deep_copy(bout, test::poison<Scalar>());
  transpose_three_ways(v, rows, cols, in, ol, od, on);
  auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bout);
  // Same bits over the whole of each third: out and the poison around it.
  CHECK(std::memcmp(hb.data(), hb.data() + len, len * sizeof(Scalar)) == 0);
  CHECK(std::memcmp(hb.data(), hb.data() + 2 * len, len * sizeof(Scalar)) == 0);
  const Placed<Scalar, Kokkos::HostSpace> hin(hbin.data() + li, rows, cols), hout(hb.data() + len + lo, cols, rows);
  std::string first;
  const std::size_t bad = transpose_mismatches(hin, hout, first);
  CAPTURE(bad, first);
  CHECK(bad == 0);
  std::size_t touched = 0;  // elements of the native third before or after out that are no longer poison
  for (std::size_t i = 0; i < len; ++i)
    if ((i < lo || i >= lo + n) && hb(len + i) == hb(len + i)) ++touched;
  CHECK(touched == 0);
}

template <class Scalar>
void transpose_twins_placed_all() {
  constexpr int A = align_elems<Scalar>();
  // Big enough for many interior tiles; 2048: both shifts apply, 4099 x 1023: neither, 1024 x 1000 and
  // 1000 x 1024: one each; A x 1 and 2 x 2: shifted grids of tiny matrices.
  const int sizes[][2]   = {{2048, 2048}, {4099, 1023}, {1024, 1000}, {1000, 1024}, {A, 1}, {2, 2}, {3 * A, 5 * A}};
  const int offsets[][2] = {{0, 0}, {A / 2, A / 2}, {1, 0}, {0, 1}, {A - 1, 3}, {A / 4, A - 1}};
  for (auto v : transpose_variants)
    for (const auto& s : sizes)
      for (const auto& o : offsets) transpose_twins_placed<Scalar>(v, s[0], s[1], o[0], o[1]);
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

TEST_CASE("Native CUDA transpose agrees with the layer bit for bit wherever in and out start",
          "[transpose][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  transpose_twins_placed_all<float>();
  transpose_twins_placed_all<double>();
#endif
}
