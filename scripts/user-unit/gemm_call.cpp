#include <scratchkit/scratchkit.hpp>
void user_gemm(Kokkos::View<float**> A, Kokkos::View<float**> B, Kokkos::View<float**> C) {
  scratchkit::gemm(Kokkos::DefaultExecutionSpace(), scratchkit::GemmVariant::register_blocked, 1.0f, A, B, 0.0f, C);
}
