// SPDX-License-Identifier: BSD-3-Clause
// Every public kernel, instantiated and run as C++20 (tests/CMakeLists.txt:
// cxx20_build, cxx20_smoke), on odd sizes, each checked against the host
// reference (reference/include/scratchkit/reference/reference.hpp) or exactly.
#include <scratchkit/scratchkit.hpp>
#include <scratchkit/reference/reference.hpp>

#include <cstdio>
#include <vector>

#if __cplusplus < 202002L
#error "cxx20_smoke must be compiled as C++20"
#endif

namespace sk = scratchkit;

int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  int failed = 0;
  {
    using Exec = Kokkos::DefaultExecutionSpace;
    using Host = Kokkos::HostSpace;
    const Exec exec;
    const auto fill = [](auto& v, double scale) {
      auto h = Kokkos::create_mirror_view(v);
      for (std::size_t i = 0; i < h.span(); ++i) h.data()[i] = static_cast<typename std::decay_t<decltype(h)>::value_type>(scale * ((i * 7919) % 101) / 101.0 - 0.25);
      Kokkos::deep_copy(v, h);
    };
    const auto report = [&](const char* what, bool ok) {
      std::printf("%-24s %s\n", what, ok ? "ok" : "FAILED");
      failed += ok ? 0 : 1;
    };
    {  // gemm, register_blocked
      const int M = 37, N = 29, K = 41;
      Kokkos::View<double**, Kokkos::LayoutRight> A("A", M, K), B("B", K, N), C("C", M, N), C0("C0", M, N);
      fill(A, 1.0);
      fill(B, 2.0);
      sk::gemm(exec, sk::GemmVariant::register_blocked, 1.0, A, B, 0.0, C);
      exec.fence();
      auto hA = Kokkos::create_mirror_view_and_copy(Host(), A), hB = Kokkos::create_mirror_view_and_copy(Host(), B);
      auto hC = Kokkos::create_mirror_view_and_copy(Host(), C), h0 = Kokkos::create_mirror_view_and_copy(Host(), C0);
      report("gemm", sk::check::gemm<double>(M, N, K, 1.0, hA.data(), hB.data(), 0.0, h0.data(), hC.data()).bad == 0);
    }
    {  // stencil_3d_7pt, z_streaming
      const int nz = 9, ny = 11, nx = 70;
      Kokkos::View<float***, Kokkos::LayoutRight> in("in", nz, ny, nx), out("out", nz, ny, nx);
      fill(in, 1.0);
      sk::stencil_3d_7pt(exec, sk::Stencil3DVariant::z_streaming, in, out, 0.4f, 0.1f);
      exec.fence();
      auto hi = Kokkos::create_mirror_view_and_copy(Host(), in), ho = Kokkos::create_mirror_view_and_copy(Host(), out);
      report("stencil_3d_7pt", sk::check::stencil_3d_7pt<float>(hi.data(), ho.data(), nz, ny, nx, 0.4f, 0.1f).bad == 0);
    }
    {  // stencil_1d, radius 3
      const int n = 1001, R = 3;
      Kokkos::View<float*> in("in", n), w("w", 2 * R + 1), out("out", n);
      fill(in, 1.0);
      fill(w, 0.5);
      sk::stencil_1d(exec, sk::Stencil1DVariant::halo_tile, in, w, out);
      exec.fence();
      auto hi = Kokkos::create_mirror_view_and_copy(Host(), in), hw = Kokkos::create_mirror_view_and_copy(Host(), w);
      auto ho = Kokkos::create_mirror_view_and_copy(Host(), out);
      report("stencil_1d", sk::check::stencil_1d<float>(hi.data(), hw.data(), R, ho.data(), n).bad == 0);
    }
    {  // transpose: exact
      const int rows = 45, cols = 67;
      Kokkos::View<double**, Kokkos::LayoutRight> in("in", rows, cols), out("out", cols, rows);
      fill(in, 3.0);
      sk::transpose(exec, sk::TransposeVariant::tiled_padded, in, out);
      exec.fence();
      auto hi = Kokkos::create_mirror_view_and_copy(Host(), in), ho = Kokkos::create_mirror_view_and_copy(Host(), out);
      bool ok = true;
      for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) ok = ok && hi(r, c) == ho(c, r);
      report("transpose", ok);
    }
    {  // reduce: exact for integers
      const int n = 100003;
      Kokkos::View<int*> x("x", n);
      Kokkos::deep_copy(x, 3);
      report("reduce", sk::reduce(exec, sk::ReduceVariant::warp_shuffle, sk::ReduceOp::sum, x) == 3 * n);
    }
    {  // histogram: every value in one bin
      const int n = 5003;
      Kokkos::View<float*> x("x", n);
      Kokkos::View<unsigned*> counts("counts", 16);
      Kokkos::deep_copy(x, 0.51f);
      sk::histogram(exec, sk::HistogramVariant::shared_atomic, x, 0.0, 1.0, counts);
      exec.fence();
      auto hc = Kokkos::create_mirror_view_and_copy(Host(), counts);
      bool ok = true;
      for (int b = 0; b < 16; ++b) ok = ok && hc(b) == (b == 8 ? unsigned(n) : 0u);
      report("histogram", ok);
    }
    {  // tile_scan: ones, tiles of 256 x 4 (exact)
      const int n = 5003;
      Kokkos::View<int*> x("x", n), y("y", n);
      Kokkos::deep_copy(x, 1);
      sk::tile_scan(exec, sk::ScanKind::inclusive, x, y, 256, 4);
      exec.fence();
      auto hy = Kokkos::create_mirror_view_and_copy(Host(), y);
      bool ok = true;
      for (int i = 0; i < n; ++i) ok = ok && hy(i) == i % 1024 + 1;
      report("tile_scan", ok);
    }
  }
  Kokkos::finalize();
  std::printf("%s\n", failed ? "cxx20_smoke: FAILED" : "cxx20_smoke: all ok");
  return failed ? 1 : 0;
}
