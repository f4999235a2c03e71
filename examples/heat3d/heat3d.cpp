// SPDX-License-Identifier: BSD-3-Clause
// heat3d: explicit heat equation u_t = D (u_xx + u_yy + u_zz) on the unit
// cube, n^3 grid points, u = 0 on the boundary, forward Euler steps through
// scratchkit::stencil_3d_7pt (c0 = 1 - 6 alpha, c1 = alpha, alpha = D dt / h^2).
//
// Check: u0 = sin(pi x) sin(pi y) sin(pi z) is an eigenvector of the discrete
// step, which multiplies it by g = 1 - 6 alpha (1 - cos(pi h)) exactly. After
// N steps u_N = g^N u0 up to rounding: each step adds at most
// gamma_8 (|c0| + 6|c1|) max|u| (the 3-D stencil's bound) and, for
// alpha <= 1/6, the step does not amplify earlier errors (|c0| + 6|c1| = 1),
// so max|u_N - g^N u0| <= N gamma_8 max|u0| (plus the rounding of g^N itself,
// (N + 4) eps max|u0|).
//
//   heat3d [n=64] [steps=300] [alpha=0.1] [variant=z_streaming|tile_2d_halo|halo_tile]
#include <scratchkit/kernels/stencil_3d.hpp>
#include <scratchkit/scratchkit.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

/// One step v = c0 u + c1 (sum of the 6 neighbours) inside the grid, v = u on its faces, with a
/// 32 x 4 x 4 HaloTile3d a block. x is the grid's unit-stride index (HaloAxes::reversed for a
/// LayoutLeft u(z, y, x)), so the load and the stores are coalesced in either layout.
template <class Grid>
void step_halo_tile(const Grid& u, const Grid& v, double c0, double c1) {
  using Exec  = typename Grid::execution_space;
  using Block = scratchkit::Block<Exec>;
  using Tile  = scratchkit::HaloTile3d<double, 32, 4, 4>;
  constexpr bool right = std::is_same<typename Grid::array_layout, Kokkos::LayoutRight>::value;
  const auto axes = right ? scratchkit::HaloAxes::as_indexed : scratchkit::HaloAxes::reversed;
  const int n     = static_cast<int>(u.extent(0));
  const auto p = scratchkit::LaunchParams({scratchkit::ceil_div(n, 32), scratchkit::ceil_div(n, 4), scratchkit::ceil_div(n, 4)},
                                          {32, 4, 4}).uses<Tile>();
  scratchkit::launch(Exec(), "heat3d::step_halo_tile", p, KOKKOS_LAMBDA(const Block& b) {
    Tile s(b);
    s.load(b, u, scratchkit::Boundary::leave, axes);  // the halo outside the grid is never read
    scratchkit::sync_threads(b);
    s.clipped(b, [&](const scratchkit::Thread& t) {
      const bool face = t.gx == 0 || t.gy == 0 || t.gz == 0 || t.gx == n - 1 || t.gy == n - 1 || t.gz == n - 1;
      const double c  = s(t.z, t.y, t.x);
      const double r  = face ? c
                             : c0 * c + c1 * (s(t.z, t.y, t.x - 1) + s(t.z, t.y, t.x + 1) + s(t.z, t.y - 1, t.x) +
                                              s(t.z, t.y + 1, t.x) + s(t.z - 1, t.y, t.x) + s(t.z + 1, t.y, t.x));
      if constexpr (right)
        v(t.gz, t.gy, t.gx) = r;
      else
        v(t.gx, t.gy, t.gz) = r;
    });
  });
}

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    const int n        = argc > 1 ? std::atoi(argv[1]) : 64;
    const int steps    = argc > 2 ? std::atoi(argv[2]) : 300;
    const double alpha = argc > 3 ? std::atof(argv[3]) : 0.1;
    const std::string vname = argc > 4 ? argv[4] : "z_streaming";
    if (n < 3 || steps < 0 || !(alpha > 0 && alpha <= 1.0 / 6) ||
        (vname != "z_streaming" && vname != "tile_2d_halo" && vname != "halo_tile")) {
      std::fprintf(stderr, "heat3d: need n >= 3, steps >= 0, 0 < alpha <= 1/6 (stability), variant "
                           "z_streaming|tile_2d_halo|halo_tile\n");
      Kokkos::finalize();
      return 2;
    }
    const auto variant = vname == "z_streaming" ? scratchkit::Stencil3DVariant::z_streaming
                                                : scratchkit::Stencil3DVariant::tile_2d_halo;
    using Exec = Kokkos::DefaultExecutionSpace;
    // The default layout of the execution space, as a simulation code holds its fields: LayoutLeft on
    // CUDA (u(z, y, x) with z contiguous), LayoutRight on host backends. scratchkit maps either onto its
    // fast path (docs/layouts.md).
    using Grid = Kokkos::View<double***>;
    Grid u("u", n, n, n), v("v", n, n, n);
    const double pi = 3.14159265358979323846, h = 1.0 / (n - 1);
    Kokkos::parallel_for(
        "heat3d::init", Kokkos::MDRangePolicy<Exec, Kokkos::Rank<3>>({0, 0, 0}, {n, n, n}),
        KOKKOS_LAMBDA(int z, int y, int x) {
          const bool boundary = x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1;
          u(z, y, x)          = boundary ? 0.0 : sin(pi * x * h) * sin(pi * y * h) * sin(pi * z * h);
        });
    auto u0 = Kokkos::create_mirror(u);  // a copy: on a host backend a mirror *view* would alias u
    Kokkos::deep_copy(u0, u);

    for (int s = 0; s < steps; ++s) {
      if (vname == "halo_tile")
        step_halo_tile(u, v, 1.0 - 6.0 * alpha, alpha);
      else
        scratchkit::stencil_3d_7pt(Exec(), variant, u, v, 1.0 - 6.0 * alpha, alpha);
      std::swap(u, v);
    }
    auto uN = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), u);

    const double g = 1.0 - 6.0 * alpha * (1.0 - std::cos(pi * h));
    const double gN = std::pow(g, steps);
    double err = 0, max0 = 0, amp = 0;
    for (int z = 0; z < n; ++z)
      for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
          err  = std::fmax(err, std::fabs(uN(z, y, x) - gN * u0(z, y, x)));
          max0 = std::fmax(max0, std::fabs(u0(z, y, x)));
          amp  = std::fmax(amp, std::fabs(uN(z, y, x)));
        }
    // gamma_8 = 8u / (1 - 8u), u = eps/2 (Higham 3.1): the rounding bound of one 7-point update.
    const double u8     = 8 * std::numeric_limits<double>::epsilon() / 2;
    const double gamma8 = u8 / (1 - u8);
    const double bound  = (steps * gamma8 + (steps + 4) * std::numeric_limits<double>::epsilon()) * max0;
    const bool ok      = err <= bound;  // NaN fails
    std::printf("heat3d: n=%d steps=%d alpha=%g variant=%s on %s: amplitude %.12f, expected g^N = %.12f, "
                "max error %.3e (bound %.3e) %s\n",
                n, steps, alpha, vname.c_str(), Exec::name(), amp / max0, gN, err, bound, ok ? "OK" : "FAILED");
    rc = ok ? 0 : 1;
  }
  Kokkos::finalize();
  return rc;
}
