// SPDX-License-Identifier: BSD-3-Clause
// The native CUDA (__shared__) twins: against the layer, bit for bit, where
// both do the same operations in the same order (every GEMM variant, the tree
// reduction, the halo-tile stencil: no atomics, same thread-to-data mapping,
// same summation order). These need a GPU, native CUDA and a Kokkos built
// with CUDA; elsewhere they report SKIPPED.
#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>
#include <scratchkit/kernels/reduce.hpp>
#include <scratchkit/kernels/stencil_1d.hpp>
#include <scratchkit/native/cuda.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <string>

using namespace scratchkit;

namespace {

#if SCRATCHKIT_TEST_TWINS
using Cuda = Kokkos::Cuda;

template <class Scalar>
void gemm_twins(GemmVariant v, int M, int N, int K) {
  using View      = Kokkos::View<Scalar**, Kokkos::LayoutRight, Kokkos::CudaSpace>;
  const auto seed = test::case_seed(M, N, K);
  CAPTURE(name(v), M, N, K, seed, sizeof(Scalar));
  View A("A", M, K), B("B", K, N), C0("C0", M, N), Cl("Cl", M, N), Cn("Cn", M, N);
  auto hA = Kokkos::create_mirror_view(A);
  auto hB = Kokkos::create_mirror_view(B);
  auto hC = Kokkos::create_mirror_view(C0);
  test::fill_random(hA, seed);
  test::fill_random(hB, seed + 1);
  test::fill_random(hC, seed + 2);
  Kokkos::deep_copy(A, hA);
  Kokkos::deep_copy(B, hB);
  Kokkos::deep_copy(Cl, hC);
  Kokkos::deep_copy(Cn, hC);
  const Scalar alpha = Scalar(1.25), beta = Scalar(-0.5);
  gemm(Cuda(), v, alpha, A, B, beta, Cl);
  Cuda().fence();
  // The layer's blocking (double register_blocked depends on the launch path's scratch limit).
  native::cuda::detail::gemm(v, M, N, K, alpha, A.data(), B.data(), beta, Cn.data(), nullptr,
                             scratchkit::detail::gemm_layer_pick<Scalar>(Cuda(), M, N, K));
  native::cuda::synchronize();
  CHECK(test::same_bits(Cl, Cn));
}

template <class T>
void reduce_twins(ReduceVariant v, ReduceOp op, std::size_t n) {
  const auto seed = test::case_seed(n, static_cast<int>(op));
  CAPTURE(name(v), name(op), n, seed, sizeof(T));
  Kokkos::View<T*, Kokkos::CudaSpace> x("x", n);
  auto hx = Kokkos::create_mirror_view(x);
  test::fill_random(hx, seed);
  Kokkos::deep_copy(x, hx);
  const T layer = reduce(Cuda(), v, op, x);
  const T nat   = reduce(Cuda(), v, op, x, Backend::native);
  if (v == ReduceVariant::grid_stride_atomic && op == ReduceOp::sum && std::is_floating_point<T>::value) {
    // Blocks combine through atomics in the order they finish: not reproducible
    // bit for bit. Both must still be within the rounding bound of the sum.
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    const long long d = reduce_error_depth(v, n);
    CHECK(check::reduce<T>(op, hx.data(), n, layer, d).passed());
    CHECK(check::reduce<T>(op, hx.data(), n, nat, d).passed());
  } else {
    CHECK(std::memcmp(&layer, &nat, sizeof(T)) == 0);
  }
}

template <class T>
void stencil_twins(int n, int R) {
  const auto seed = test::case_seed(n, R);
  CAPTURE(n, R, seed, sizeof(T));
  using View = Kokkos::View<T*, Kokkos::CudaSpace>;
  View in("in", n), w("w", 2 * R + 1), ol("ol", n), on("on", n);
  auto hin = Kokkos::create_mirror_view(in);
  auto hw  = Kokkos::create_mirror_view(w);
  test::fill_random(hin, seed);
  test::fill_random(hw, seed + 1);
  Kokkos::deep_copy(in, hin);
  Kokkos::deep_copy(w, hw);
  Kokkos::deep_copy(ol, test::poison<T>());
  Kokkos::deep_copy(on, test::poison<T>());
  stencil_1d(Cuda(), Stencil1DVariant::halo_tile, in, w, ol);
  Cuda().fence();
  native::cuda::stencil_1d(Stencil1DVariant::halo_tile, in.data(), w.data(), R, on.data(), n);
  native::cuda::synchronize();
  CHECK(test::same_bits(ol, on));
}
#endif

}  // namespace

TEST_CASE("Native CUDA GEMM agrees with the layer bit for bit", "[gemm][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (auto v : {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                 GemmVariant::register_blocked})
    for (const auto& s : {std::array<int, 3>{1, 1, 1}, {16, 16, 16}, {17, 31, 13}, {127, 129, 65}, {256, 256, 256},
                          {513, 255, 1025}, {65, 63, 17}, {1, 129, 3}, {129, 1, 0}, {1031, 1029, 257}}) {
      gemm_twins<float>(v, s[0], s[1], s[2]);
      gemm_twins<double>(v, s[0], s[1], s[2]);
    }
#endif
}

TEST_CASE("Native CUDA reduction agrees with the layer bit for bit", "[reduce][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    for (auto op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max})
      for (std::size_t n0 : {1, 257, 512, 513, 1000003, 1 << 24}) {
        const std::size_t n = test::sized(n0);
        reduce_twins<std::int32_t>(v, op, n);
        reduce_twins<std::int64_t>(v, op, n);
        reduce_twins<float>(v, op, n);
        reduce_twins<double>(v, op, n);
      }
#endif
}

TEST_CASE("Native CUDA 1-D stencil agrees with the layer bit for bit", "[stencil_1d][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  for (int R : {0, 1, 3, 8, 300})
    for (int n0 : {1, 255, 257, 4099, 1 << 20}) {
      const int n = static_cast<int>(test::sized(n0));
      stencil_twins<float>(n, R);
      stencil_twins<double>(n, R);
    }
#endif
}

TEST_CASE("Native CUDA device query", "[native]") {
#if SCRATCHKIT_HAS_NATIVE_CUDA
  if (!native::cuda::device_available()) SKIP("no CUDA device on this machine");
  const std::string d = native::cuda::device_description();
  INFO(d);
  CHECK(d.find("sm_") != std::string::npos);
#else
  SKIP("native CUDA kernels not built (SCRATCHKIT_ENABLE_CUDA=OFF)");
#endif
}
