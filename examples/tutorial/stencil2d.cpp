// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 2: a 2-D 5-point stencil on the layer (docs/tutorial.md; its CUDA
// twin: stencil2d.cu). out = w0 c + w1 west + w2 east + w3 north + w4 south on
// an ny x nx grid, zero outside it; the block's halo tile is a HaloTile loaded
// in one call, the weights a SharedArray; the block shape is a compile-time
// one of three (the CUDA twin takes any at run time).
#include "common.hpp"

using Grid    = Kokkos::View<float**, Kokkos::LayoutRight>;
using Weights = Kokkos::View<float*>;

// [count-begin]
template <int BX, int BY>
void stencil2d_layer(const Grid& in, const Weights& w5, const Grid& out) {
  using Tile = scratchkit::HaloTile2d<float, BX, BY>;  // __shared__ float tile[BY + 2][BX + 2]
  using W    = scratchkit::SharedArray<float, 5>;      // __shared__ float w[5]
  const int ny = in.extent(0), nx = in.extent(1);
  auto p = LaunchParams({ceil_div(nx, BX), ceil_div(ny, BY)}, {BX, BY}).uses<Tile, W>();
  launch(Exec(), "tutorial::stencil2d", p, KOKKOS_LAMBDA(const Block& b) {
    Tile tile(b);
    W w(b);
    b.block_stride(5, [&](int i) { w[i] = w5(i); });  // the block's threads share the loads
    tile.load(b, in, scratchkit::Boundary::zero);      // the block's points and their halo, zero outside the grid
    sync_threads(b);
    tile.clipped(b, [&](const Thread& t) {  // the threads on grid points
      out(t.gy, t.gx) = w[0] * tile(t.y, t.x) + w[1] * tile(t.y, t.x - 1) + w[2] * tile(t.y, t.x + 1) +
                        w[3] * tile(t.y - 1, t.x) + w[4] * tile(t.y + 1, t.x);
    });
  });
}
// [count-end]

/// The block shapes this file compiles (HaloTile's extents are compile-time constants).
void stencil2d_layer(const Grid& in, const Weights& w5, const Grid& out, int bx, int by) {
  if (bx == 32 && by == 8) return stencil2d_layer<32, 8>(in, w5, out);
  if (bx == 16 && by == 16) return stencil2d_layer<16, 16>(in, w5, out);
  if (bx == 64 && by == 4) return stencil2d_layer<64, 4>(in, w5, out);
  throw scratchkit::UnsupportedError("tutorial::stencil2d: block " + std::to_string(bx) + " x " + std::to_string(by) +
                                     " not compiled (32 x 8, 16 x 16, 64 x 4)");
}

namespace {

int run(int ny, int nx, int bx, int by, bool twin) {
  const auto x  = tutorial::random_values<float>(std::size_t(ny) * nx, 3000 + ny * 7 + nx);
  const auto wv = tutorial::random_values<float>(5, 4000);
  Grid in = tutorial::from_host<Grid>("in", x, ny, nx), out("out", ny, nx);
  Weights w5 = tutorial::from_host<Weights>("w5", wv, 5);
  Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());  // poisoned: every point must be written
  stencil2d_layer(in, w5, out, bx, by);
  const auto o = tutorial::to_host(out);
  // Reference in double; the float result is 5 products summed in order: within gamma_6 sum |w_j x_j|.
  const auto at = [&](int y, int xx) { return y < 0 || y >= ny || xx < 0 || xx >= nx ? 0.0 : double(x[y * nx + xx]); };
  int bad = 0, far = 0, same = 0;
  std::vector<float> ot(o.size());
#if TUTORIAL_CUDA_TWIN
  if (twin) stencil2d_cuda_host(ny, nx, x.data(), wv.data(), ot.data(), bx, by);
#else
  (void)twin;
#endif
  for (int y = 0; y < ny; ++y)
    for (int xx = 0; xx < nx; ++xx) {
      const double v[5] = {at(y, xx), at(y, xx - 1), at(y, xx + 1), at(y - 1, xx), at(y + 1, xx)};
      double s = 0, a = 0;
      for (int j = 0; j < 5; ++j) s += wv[j] * v[j], a += std::fabs(wv[j] * v[j]);
      const std::size_t i = std::size_t(y) * nx + xx;
      bad += !(std::fabs(o[i] - s) <= tutorial::gamma_float(6) * a);
      far += !(std::fabs(ot[i] - s) <= tutorial::gamma_float(6) * a);
      same += std::memcmp(&ot[i], &o[i], sizeof(float)) == 0;
    }
  std::printf("stencil2d %4d x %4d, block %2d x %2d  layer vs host reference: %d of %zu outside the rounding bound\n",
              ny, nx, bx, by, bad, o.size());
  return bad + tutorial::twin_report(twin, far, same, o.size());
}

}  // namespace

int main(int argc, char** argv) {
  return tutorial::main_of(argc, argv, [](bool twin) {
    int bad = 0;
    for (const auto& s : std::vector<std::array<int, 4>>{
             {1, 1, 32, 8}, {17, 45, 32, 8}, {100, 33, 16, 16}, {64, 64, 32, 8}, {7, 300, 64, 4}})
      bad += run(s[0], s[1], s[2], s[3], twin);
    return bad;
  });
}
