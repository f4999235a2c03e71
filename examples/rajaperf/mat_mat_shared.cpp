// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's MAT_MAT_SHARED (basic) on the layer: C = A B for row-major N x N
// matrices of doubles, one block of TL_SZ x TL_SZ threads per TL_SZ x TL_SZ tile of C, the tiles of A
// and B staged through shared memory, zero-padded past the edge. C is overwritten (no accumulation
// across reps). As the suite's Base_CUDA, less its shared Cs[ty][tx]: each thread only ever touches
// its own element of it, so it is the register-like per-thread accumulator here (and in the twin).
// Its CUDA twin: mat_mat_shared.cu.
#include "common.hpp"

// [count-begin]
constexpr int TL_SZ = 16;                                      // the suite's tile edge
using Tile   = SharedArray<double[TL_SZ][TL_SZ]>;                  // __shared__ double As[TL_SZ][TL_SZ]
using TBlock = scratchkit::Block<Exec, BlockShape<TL_SZ, TL_SZ>>;  // blockDim (TL_SZ, TL_SZ) at compile time

void mat_mat_shared_layer(int N, const CVec& A, const CVec& B, const Vec& C) {
  auto p = LaunchParams({ceil_div(N, TL_SZ), ceil_div(N, TL_SZ)}, TBlock::shape_type()).uses<Tile, Tile>();
  launch(Exec(), "rajaperf::mat_mat_shared", p, KOKKOS_LAMBDA(const TBlock& b) {
    Tile As(b), Bs(b);
    PerThread<double, TBlock> acc(b, 0.0);  // the suite's Cs[ty][tx]: a local that lives across barriers
    for (int k0 = 0; k0 < N; k0 += TL_SZ) {
      b.threads([&](const Thread& t) {
        As(t.y, t.x) = t.gy < N && k0 + t.x < N ? A(t.gy * N + k0 + t.x) : 0.0;
        Bs(t.y, t.x) = k0 + t.y < N && t.gx < N ? B((k0 + t.y) * N + t.gx) : 0.0;
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        double a = acc(t);  // a register for the loop, as in CUDA (on a host, acc is memory)
        for (int n = 0; n < TL_SZ; ++n) a += As(t.y, n) * Bs(n, t.x);
        acc(t) = a;
      });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) { if (t.gy < N && t.gx < N) C(t.gy * N + t.gx) = acc(t); });
  });
}
// [count-end]

#if RAJAPERF_CUDA_TWIN
void mat_mat_shared_cuda(int N, const double* A, const double* B, double* C, void* stream);
#endif

namespace {

constexpr const char* KERNEL = "MAT_MAT_SHARED";
constexpr long default_n     = 1000;  // the suite: N = sqrt(10^6) + sqrt(2) - 1, truncated
constexpr int default_reps   = 5;

// The host reference, straight from the math: c_ij = sum_k a_ik b_kj in double, k ascending (loops
// i, k, j: every c_ij still sums its k in order), and abs_ij = sum_k |a_ik| |b_kj|.
//
// Bound: c_ij is a chain of N rounded products and sums (the zero padding adds exact zeros), in the
// layer (with or without FMA contraction) and in the reference alike, so each is within
// gamma_N * sum_k |a_ik b_kj| of the exact value (Higham 3.1); so |c - c_ref| <= 2 gamma_N abs_ij.
// abs_ij itself is rounded (at most a factor 1 - gamma_N low): tol = 2 gamma_{N+1} abs_ij covers it.
void reference(int N, const std::vector<double>& A, const std::vector<double>& B, std::vector<double>& C,
               std::vector<double>* abs = nullptr) {
  std::fill(C.begin(), C.end(), 0.0);
  if (abs) abs->assign(C.size(), 0.0);
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < N; ++k) {
      const double a = A[std::size_t(i) * N + k];
      double* c      = &C[std::size_t(i) * N];
      const double* b = &B[std::size_t(k) * N];
      for (int j = 0; j < N; ++j) c[j] += a * b[j];
      if (abs)
        for (int j = 0; j < N; ++j) (*abs)[std::size_t(i) * N + j] += std::abs(a) * std::abs(b[j]);
    }
}

// The suite's checksum scale: 1e-6 * default problem size / actual problem size (sizes N * N).
long double scale_of(long N) {
  return 1e-6L * (static_cast<long double>(default_n * default_n) / static_cast<long double>(N * N));
}

// The suite's FLOPs per rep: 2 TL_SZ^3 per tile product, (N / TL_SZ)^3 of them, rounded up.
double flops_of(long N) {
  const double t = static_cast<double>((N + TL_SZ - 1) / TL_SZ);
  return 2.0 * TL_SZ * TL_SZ * TL_SZ * t * t * t;
}

// Random inputs at size N: the layer (and the twin) against the reference within the bound,
// the twin bit for bit against the layer.
long random_case(int N, bool twin) {
  const std::size_t NN = std::size_t(N) * N;
  const auto a = peer::random_values(NN, 100 + N), bv = peer::random_values(NN, 200 + N);
  const Vec A = peer::to_device("A", a), B = peer::to_device("B", bv);
  const Vec C = peer::constant("C", NN, std::numeric_limits<double>::quiet_NaN());  // every element must be written
  mat_mat_shared_layer(N, A, B, C);
  const auto c = peer::to_host(C);
  std::vector<double> ref(NN), tol;
  reference(N, a, bv, ref, &tol);
  for (auto& x : tol) x *= 2 * peer::gamma_double(N + 1);
  std::printf("N = %d (random inputs)\n", N);
  long bad = peer::compare("layer", c, ref, tol);
#if RAJAPERF_CUDA_TWIN
  if (twin) {
    const Vec Ct = peer::constant("C twin", NN, std::numeric_limits<double>::quiet_NaN());
    mat_mat_shared_cuda(N, A.data(), B.data(), Ct.data(), peer::stream_of(Exec()));
    Exec().fence();
    const auto ct = peer::to_host(Ct);
    bad += peer::compare("twin", ct, ref, tol);
    const long long same = peer::same_bits(ct, c);
    std::printf("  twin: %lld of %zu bit-identical to the layer\n", same, NN);
    bad += static_cast<long>(NN - same);
  }
#else
  (void)twin;
#endif
  return bad;
}

// The suite's inputs (A = B = 1, C = 0) at size N, reps run as the suite runs them; the checksums.
// Where the reference runs, the layer's (and the twin's) checksum must equal its checksum exactly (every
// c_ij = N, exact).
long suite_case(const peer::Options& o, long N, int reps) {
  const std::size_t NN = std::size_t(N) * N;
  const Vec A = peer::constant("A", NN, 1.0), B = peer::constant("B", NN, 1.0), C = peer::constant("C", NN, 0.0);
  for (int r = 0; r < reps; ++r) mat_mat_shared_layer(int(N), A, B, C);
  const long double layer = peer::suite_checksum(peer::to_host(C), scale_of(N));
  peer::print_checksum(KERNEL, "scratchkit_layer", layer);
  long bad = 0;
  std::optional<long double> twin;
#if RAJAPERF_CUDA_TWIN
  const Vec Ct = peer::constant("C twin", NN, 0.0);
  if (o.twin) {
    for (int r = 0; r < reps; ++r) mat_mat_shared_cuda(int(N), A.data(), B.data(), Ct.data(), peer::stream_of(Exec()));
    Exec().fence();
    twin = peer::suite_checksum(peer::to_host(Ct), scale_of(N));
    peer::print_checksum(KERNEL, "scratchkit_twin", *twin);
  }
#endif
  if (static_cast<double>(N) * N * N * reps <= 1e10) {  // the reference in seconds
    const std::vector<double> ones(NN, 1.0);
    std::vector<double> ref(NN);
    for (int r = 0; r < reps; ++r) reference(int(N), ones, ones, ref);  // overwrites C, as the kernel
    const long double want = peer::suite_checksum(ref, scale_of(N));
    peer::print_checksum(KERNEL, "reference", want);
    bad += layer != want;
    if (twin) bad += *twin != want;
    std::printf("  suite inputs, N = %ld, %d reps: checksums %s the reference's\n", N, reps,
                bad ? "DIFFER from" : "equal");
  }
  if (o.bench) {
    const Exec exec;
    const double s = peer::seconds_per_rep(exec, reps, o.samples, [&] { mat_mat_shared_layer(int(N), A, B, C); });
    peer::print_row(KERNEL, "scratchkit_layer", N, reps, s, flops_of(N));
#if RAJAPERF_CUDA_TWIN
    if (o.twin) {
      const double st = peer::seconds_per_rep(exec, reps, o.samples, [&] {
        mat_mat_shared_cuda(int(N), A.data(), B.data(), Ct.data(), peer::stream_of(exec));
      });
      peer::print_row(KERNEL, "scratchkit_twin", N, reps, st, flops_of(N));
    }
#endif
  }
  return bad;
}

long run(const peer::Options& o) {
  if (o.suite) return suite_case(o, o.size > 0 ? o.size : default_n, o.reps > 0 ? o.reps : default_reps);
  long bad = 0;
  for (int N : {1, 15, 17, 100}) bad += random_case(N, o.twin);  // N < TL_SZ, and not multiples of it
  bad += suite_case(o, 37, 3);
  return bad;
}

}  // namespace

int main(int argc, char** argv) { return peer::main_of(argc, argv, run); }
