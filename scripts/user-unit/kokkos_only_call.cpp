#include <Kokkos_Core.hpp>
void user_kokkos_only(Kokkos::View<float**> A, Kokkos::View<float**> B, Kokkos::View<float**> C) {
  const int n = C.extent(0), m = C.extent(1), k = A.extent(1);
  Kokkos::parallel_for("plain", Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {n, m}), KOKKOS_LAMBDA(int i, int j) {
    float s = 0;
    for (int l = 0; l < k; ++l) s += A(i, l) * B(l, j);
    C(i, j) = s;
  });
}
