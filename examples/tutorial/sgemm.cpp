// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 1: the classic 16x16 tiled SGEMM on the layer, C = A B (docs/tutorial.md;
// its CUDA twin: sgemm.cu). Checked against a host reference at sizes that are
// not multiples of the tile; `--twin` compares it with the CUDA twin on a GPU.
#include "common.hpp"

using Matrix = Kokkos::View<float**, Kokkos::LayoutRight>;

// [count-begin]
using Tile = scratchkit::SharedArray<float[16][16]>;  // __shared__ float As[16][16]

void sgemm_layer(const Matrix& A, const Matrix& B, const Matrix& C) {
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  auto p = LaunchParams(scratchkit::Dim3(ceil_div(N, 16), ceil_div(M, 16))).uses<Tile, Tile>();  // block: the body's shape
  launch(Exec(), "tutorial::sgemm", p, KOKKOS_LAMBDA(const ShapedBlock<16, 16>& b) {
    Tile As(b), Bs(b);
    PerThread acc(b, 0.0f);  // a local that lives across __syncthreads()
    for (int k0 = 0; k0 < K; k0 += 16) {
      b.threads([&](const Thread& t) {
        As(t.y, t.x) = t.gy < M && k0 + t.x < K ? A(t.gy, k0 + t.x) : 0.0f;
        Bs(t.y, t.x) = k0 + t.y < K && t.gx < N ? B(k0 + t.y, t.gx) : 0.0f;
      });
      sync_threads(b);
      b.threads([&](const Thread& t) { for (int k = 0; k < 16; ++k) acc(t) += As(t.y, k) * Bs(k, t.x); });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) { if (t.gy < M && t.gx < N) C(t.gy, t.gx) = acc(t); });
  });
}
// [count-end]

namespace {

// C = A B in double, and the bound gamma_K * sum_k |a_ik||b_kj| on each float result.
void reference(int M, int N, int K, const std::vector<float>& A, const std::vector<float>& B,
               std::vector<double>& C, std::vector<double>& bound) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0, a = 0;
      for (int k = 0; k < K; ++k) {
        s += double(A[i * K + k]) * B[k * N + j];
        a += std::fabs(double(A[i * K + k]) * B[k * N + j]);
      }
      C[i * N + j]     = s;
      bound[i * N + j] = tutorial::gamma_float(K + 1) * a;
    }
}

int run(int M, int N, int K, bool twin) {
  const auto a = tutorial::random_values<float>(std::size_t(M) * K, 1000 + M);
  const auto bv = tutorial::random_values<float>(std::size_t(K) * N, 2000 + N);
  Matrix A = tutorial::from_host<Matrix>("A", a, M, K), B = tutorial::from_host<Matrix>("B", bv, K, N);
  Matrix C("C", M, N);
  Kokkos::deep_copy(C, std::numeric_limits<float>::quiet_NaN());  // poisoned: every element must be written
  sgemm_layer(A, B, C);
  const auto c = tutorial::to_host(C);
  std::vector<double> ref(c.size()), bound(c.size());
  reference(M, N, K, a, bv, ref, bound);
  int bad = 0;
  for (std::size_t i = 0; i < c.size(); ++i) bad += !(std::fabs(c[i] - ref[i]) <= bound[i]);
  std::printf("sgemm %4d x %4d x %4d  layer vs host reference: %d of %zu outside the rounding bound\n", M, N, K,
              bad, c.size());
  std::vector<float> ct(c.size());
#if TUTORIAL_CUDA_TWIN
  if (twin) sgemm_cuda_host(M, N, K, a.data(), bv.data(), ct.data());
#endif
  int far = 0, same = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    far += !(std::fabs(ct[i] - ref[i]) <= bound[i]);
    same += std::memcmp(&ct[i], &c[i], sizeof(float)) == 0;
  }
  return bad + tutorial::twin_report(twin, far, same, c.size());
}

}  // namespace

int main(int argc, char** argv) {
  return tutorial::main_of(argc, argv, [](bool twin) {
    int bad = 0;
    for (const auto& s : std::vector<std::array<int, 3>>{{1, 1, 1}, {17, 33, 5}, {100, 37, 129}, {64, 48, 16}, {15, 250, 31}})
      bad += run(s[0], s[1], s[2], twin);
    return bad;
  });
}
