// SPDX-License-Identifier: BSD-3-Clause
// Consumer of an installed scratchkit: a tiled GEMM on the layer, checked.
#include <scratchkit/scratchkit.hpp>

#include <cmath>
#include <cstdio>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int rc = 0;
  {
    using Exec = Kokkos::DefaultExecutionSpace;
    const int n = 37;
    Kokkos::View<double**, Kokkos::LayoutRight, Exec::memory_space> A("A", n, n), B("B", n, n), C("C", n, n);
    // A = I + 0.5 E (E: ones on the superdiagonal), B(i, j) = i - j: C = A B is exact in doubles.
    Kokkos::parallel_for("consumer::init", Kokkos::RangePolicy<Exec>(0, n), KOKKOS_LAMBDA(int i) {
      for (int j = 0; j < n; ++j) {
        A(i, j) = (i == j) ? 1.0 : (j == i + 1 ? 0.5 : 0.0);
        B(i, j) = i - j;
      }
    });
    scratchkit::gemm(Exec(), scratchkit::GemmVariant::tiled, 1.0, A, B, 0.0, C);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double expect = (i - j) + (i + 1 < n ? 0.5 * (i + 1 - j) : 0.0);
        bad += h(i, j) != expect;
      }
    std::printf("%s\nconsumer: tiled GEMM %dx%d on %s: %s\n", scratchkit::build_summary().c_str(), n, n, Exec::name(),
                bad ? "FAILED" : "OK");
    rc = bad ? 1 : 0;
  }
  Kokkos::finalize();
  return rc;
}
