// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's MASS3DPA (apps) on the layer: the action of MFEM's 3-D mass operator by
// partial assembly, y_e += Bt (x) Bt (x) Bt diag(D_e) B (x) B (x) B x_e, on hexahedra of D1^3 = 64 dofs and
// Q1^3 = 125 quadrature points, by sum factorisation with the 1-D basis B (Q1 x D1) and Bt (D1 x Q1): six
// contractions, one index at a time. One block of Q1 x Q1 threads per element, as the suite's Base_CUDA.
// Its CUDA twin: mass3dpa.cu.
#include "common.hpp"

// [count-begin]
constexpr int D1 = 4, Q1 = 5;                         // dofs, quadrature points per direction
using QBlock = scratchkit::Block<Exec, BlockShape<Q1, Q1>>;  // blockDim (Q1, Q1), known to the compiler
using Basis  = SharedArray<double, Q1 * D1>;          // B as [q][d], Bt as [d][q]
using Cube   = SharedArray<double, Q1 * Q1 * Q1>;     // reused under the phases' shapes

void mass3dpa_layer(const CVec& B, const CVec& Bt, const CVec& D, const CVec& X, const Vec& Y, int NE) {
  auto p = LaunchParams(NE, QBlock::shape_type()).uses<Basis, Basis, Cube, Cube>();
  launch(Exec(), "rajaperf::mass3dpa", p, KOKKOS_LAMBDA(const QBlock& b) {
    Basis bq(b), bt(b);
    Cube s0(b), s1(b);
    const auto Bq  = bq.shape<Q1, D1>();  // the cubes under each phase's shape, MFEM's names
    const auto Bt_ = bt.shape<D1, Q1>();
    const auto Xs  = s0.shape<D1, D1, D1>();
    const auto DDQ = s1.shape<D1, D1, Q1>();
    const auto DQQ = s0.shape<D1, Q1, Q1>();
    const auto QQQ = s1.shape<Q1, Q1, Q1>();
    const auto QQD = s0.shape<Q1, Q1, D1>();
    const auto QDD = s1.shape<Q1, D1, D1>();
    const int e = b.block_idx().x;
    b.block_stride(Box<D1 * D1 * D1>(), [&](int i, int, int) { s0[i] = X(i + D1 * D1 * D1 * e); });  // x as [dz][dy][dx]
    b.threads(Box<Q1, D1>(), [&](const Thread& t) {
      Bq(t.x, t.y)  = B(t.x + Q1 * t.y);   // B(q, d), q = x, d = y
      Bt_(t.y, t.x) = Bt(t.x + D1 * t.y);  // Bt(d, q), read where the suite reads it
    });
    sync_threads(b);
    b.threads(Box<Q1, D1>(), [&](const Thread& t) {  // over dx
      double u[D1] = {};
      for (int dx = 0; dx < D1; ++dx)
        for (int dz = 0; dz < D1; ++dz) u[dz] += Xs(dz, t.y, dx) * Bq(t.x, dx);
      for (int dz = 0; dz < D1; ++dz) DDQ(dz, t.y, t.x) = u[dz];
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // over dy
      double u[D1] = {};
      for (int dy = 0; dy < D1; ++dy)
        for (int dz = 0; dz < D1; ++dz) u[dz] += DDQ(dz, dy, t.x) * Bq(t.y, dy);
      for (int dz = 0; dz < D1; ++dz) DQQ(dz, t.y, t.x) = u[dz];
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // over dz, times D
      double u[Q1] = {};
      for (int dz = 0; dz < D1; ++dz)
        for (int qz = 0; qz < Q1; ++qz) u[qz] += DQQ(dz, t.y, t.x) * Bq(qz, dz);
      for (int qz = 0; qz < Q1; ++qz) QQQ(qz, t.y, t.x) = u[qz] * D(t.x + Q1 * (t.y + Q1 * (qz + Q1 * e)));
    });
    sync_threads(b);
    b.threads(Box<D1, Q1>(), [&](const Thread& t) {  // over qx
      double u[Q1] = {};
      for (int qx = 0; qx < Q1; ++qx)
        for (int qz = 0; qz < Q1; ++qz) u[qz] += QQQ(qz, t.y, qx) * Bt_(t.x, qx);
      for (int qz = 0; qz < Q1; ++qz) QQD(qz, t.y, t.x) = u[qz];
    });
    sync_threads(b);
    b.threads(Box<D1, D1>(), [&](const Thread& t) {  // over qy
      double u[Q1] = {};
      for (int qy = 0; qy < Q1; ++qy)
        for (int qz = 0; qz < Q1; ++qz) u[qz] += QQD(qz, qy, t.x) * Bt_(t.y, qy);
      for (int qz = 0; qz < Q1; ++qz) QDD(qz, t.y, t.x) = u[qz];
    });
    sync_threads(b);
    b.threads(Box<D1, D1>(), [&](const Thread& t) {  // over qz: y +=
      double u[D1] = {};
      for (int qz = 0; qz < Q1; ++qz)
        for (int dz = 0; dz < D1; ++dz) u[dz] += QDD(qz, t.y, t.x) * Bt_(dz, qz);
      for (int dz = 0; dz < D1; ++dz) Y(t.x + D1 * (t.y + D1 * (dz + D1 * e))) += u[dz];
    });
  });
}
// [count-end]

#if RAJAPERF_CUDA_TWIN
void mass3dpa_cuda(const double* B, const double* Bt, const double* D, const double* X, double* Y, int NE,
                   void* stream);
#endif

namespace {

constexpr const char* KERNEL = "MASS3DPA";
constexpr int ND = D1 * D1 * D1, NQ = Q1 * Q1 * Q1;  // dofs, quadrature points per element
constexpr long suite_NE = 8000, suite_reps = 50;
// The suite's setFLOPsPerRep, per element.
constexpr double flops_per_element = 2 * D1 * D1 * D1 * Q1 + 2 * D1 * D1 * Q1 * Q1 + 2 * D1 * Q1 * Q1 * Q1 +
                                     Q1 * Q1 * Q1 + 2 * Q1 * Q1 * Q1 * D1 + 2 * Q1 * Q1 * D1 * D1 +
                                     2 * Q1 * D1 * D1 * D1 + D1 * D1 * D1;

// The operator straight from its definition, for each element e, dof d = (dx, dy, dz), point q = (qx, qy, qz):
//   g(q)  = D_e(q) sum_d' B(qx, dx') B(qy, dy') B(qz, dz') x_e(d'),
//   y(d) += sum_q Bt(dx, qx) Bt(dy, qy) Bt(dz, qz) g(q),
// with B(q, d) = B[q + Q1 d] and Bt(d, q) = Bt[q + D1 d]: where the suite reads them (its B_ and Bt_; MFEM's
// own Bt would be at d + D1 q; for the suite's inputs, all ones, the two agree). `abs`: the same computation on
// absolute values, plus |y| before.
//
// Error bound. Every rounded operation multiplies its value by (1 + delta), |delta| <= u; a term whose chain
// passes through n of them is within gamma_n of its exact value (Higham 3.1, 3.4), so a result is within
// gamma_n * abs, n the longest chain. The kernel: 4 + 4 + 4 (three contractions of D1 terms: a product and
// D1 - 1 additions, the first addition to 0 exact) + 1 (times D) + 5 + 5 + 5 (three of Q1 terms) + 1 (y +=)
// = 29 (an FMA only removes roundings). This reference: 3 (the product of three B and x) + 63 (64 terms)
// + 1 (times D) + 3 (three Bt and g) + 124 (125 terms) + 1 (y +=) = 195. Both within their gamma of the exact
// value, so |y - y_ref| <= (gamma_29 + gamma_195) * abs_exact; abs as computed here is within gamma_195 of
// abs_exact, which the tolerance's (gamma_30 + gamma_200) * abs covers with room to spare.
void reference(const std::vector<double>& B, const std::vector<double>& Bt, const std::vector<double>& Dq,
               const std::vector<double>& X, std::vector<double>& Y, std::vector<double>* abs, long NE) {
  std::vector<double> phi(NQ * ND), phit(ND * NQ);  // B B B at [q][d], Bt Bt Bt at [d][q]
  for (int q = 0; q < NQ; ++q)
    for (int d = 0; d < ND; ++d) {
      const int qx = q % Q1, qy = q / Q1 % Q1, qz = q / (Q1 * Q1), dx = d % D1, dy = d / D1 % D1, dz = d / (D1 * D1);
      phi[q * ND + d]  = B[qx + Q1 * dx] * B[qy + Q1 * dy] * B[qz + Q1 * dz];
      phit[d * NQ + q] = Bt[qx + D1 * dx] * Bt[qy + D1 * dy] * Bt[qz + D1 * dz];
    }
  for (long e = 0; e < NE; ++e) {
    const double* x = &X[ND * e];
    double g[NQ], ga[NQ];
    for (int q = 0; q < NQ; ++q) {
      double s = 0.0, a = 0.0;
      for (int d = 0; d < ND; ++d) {
        s += phi[q * ND + d] * x[d];
        a += std::abs(phi[q * ND + d]) * std::abs(x[d]);
      }
      g[q]  = Dq[q + NQ * e] * s;
      ga[q] = std::abs(Dq[q + NQ * e]) * a;
    }
    for (int d = 0; d < ND; ++d) {
      double s = 0.0, a = 0.0;
      for (int q = 0; q < NQ; ++q) {
        s += phit[d * NQ + q] * g[q];
        a += std::abs(phit[d * NQ + q]) * ga[q];
      }
      if (abs) (*abs)[d + ND * e] = std::abs(Y[d + ND * e]) + a;
      Y[d + ND * e] += s;
    }
  }
}

struct Inputs {
  std::vector<double> B, Bt, D, X, Y;
};

Inputs random_inputs(long NE, std::uint64_t seed) {
  return {peer::random_values(Q1 * D1, seed), peer::random_values(Q1 * D1, seed + 1),
          peer::random_values(std::size_t(NQ) * NE, seed + 2), peer::random_values(std::size_t(ND) * NE, seed + 3),
          peer::random_values(std::size_t(ND) * NE, seed + 4)};
}

Inputs suite_inputs(long NE) {  // the suite's setUp: B, Bt, D, x all 1, y 0
  const std::vector<double> one(Q1 * D1, 1.0);
  return {one, one, std::vector<double>(std::size_t(NQ) * NE, 1.0), std::vector<double>(std::size_t(ND) * NE, 1.0),
          std::vector<double>(std::size_t(ND) * NE, 0.0)};
}

struct Device {
  Vec B, Bt, D, X, Y;
  explicit Device(const Inputs& in)
      : B(peer::to_device("B", in.B)), Bt(peer::to_device("Bt", in.Bt)), D(peer::to_device("D", in.D)),
        X(peer::to_device("X", in.X)), Y(peer::to_device("Y", in.Y)) {}
};

void run_layer(const Device& v, long NE) { mass3dpa_layer(v.B, v.Bt, v.D, v.X, v.Y, static_cast<int>(NE)); }

#if RAJAPERF_CUDA_TWIN
void run_twin(const Device& v, long NE) {
  mass3dpa_cuda(v.B.data(), v.Bt.data(), v.D.data(), v.X.data(), v.Y.data(), static_cast<int>(NE),
                peer::stream_of(Exec()));
}
#endif

// Random inputs: layer (and twin) against the reference within the bound; twin bit for bit against the layer.
long random_case(long NE, bool twin) {
  const Inputs in = random_inputs(NE, 5000 + NE);
  std::vector<double> ref = in.Y, abs(in.Y.size());
  reference(in.B, in.Bt, in.D, in.X, ref, &abs, NE);
  std::vector<double> tol(abs.size());
  for (std::size_t i = 0; i < abs.size(); ++i) tol[i] = (peer::gamma_double(30) + peer::gamma_double(200)) * abs[i];
  std::printf("MASS3DPA NE = %ld, random inputs\n", NE);
  const Device v(in);
  run_layer(v, NE);
  Kokkos::fence();
  const auto y = peer::to_host(v.Y);
  long bad = peer::compare("layer", y, ref, tol);
#if RAJAPERF_CUDA_TWIN
  if (twin) {
    const Device w(in);
    run_twin(w, NE);
    Kokkos::fence();
    const auto yt = peer::to_host(w.Y);
    bad += peer::compare("twin", yt, ref, tol);
    const long long same = peer::same_bits(y, yt);
    std::printf("  twin: %lld of %zu bit-identical to the layer\n", same, y.size());
    bad += static_cast<long>(y.size() - same);
  }
#else
  (void)twin;
#endif
  return bad;
}

long double reference_checksum(const Inputs& in, long NE, int reps) {
  std::vector<double> once(in.Y.size(), 0.0), y = in.Y;
  reference(in.B, in.Bt, in.D, in.X, once, nullptr, NE);  // the inputs do not change between reps
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < y.size(); ++i) y[i] += once[i];
  return peer::suite_checksum(y);
}

long double device_checksum(const Inputs& in, long NE, int reps, bool twin) {
  const Device v(in);
  for (int r = 0; r < reps; ++r) {
#if RAJAPERF_CUDA_TWIN
    if (twin) {
      run_twin(v, NE);
      continue;
    }
#endif
    (void)twin;
    run_layer(v, NE);
  }
  Kokkos::fence();
  return peer::suite_checksum(peer::to_host(v.Y));
}

int run(const peer::Options& o) {
  if (!o.suite) {
    long bad = 0;
    for (long NE : {1L, 37L, 2L}) bad += random_case(NE, o.twin);
    // The suite's inputs, 3 reps accumulated: exact small integers, so the checksums agree exactly.
    const long NE           = 37;
    const Inputs in         = suite_inputs(NE);
    const long double want  = reference_checksum(in, NE, 3);
    const long double layer = device_checksum(in, NE, 3, false);
    std::printf("MASS3DPA NE = %ld, suite inputs, 3 reps: checksum layer %.21Lg, reference %.21Lg\n", NE, layer,
                want);
    bad += layer != want;
    if (o.twin) {
      const long double tw = device_checksum(in, NE, 3, true);
      std::printf("  twin %.21Lg\n", tw);
      bad += tw != want;
    }
    return static_cast<int>(bad);
  }
  const long NE   = o.size > 0 ? o.size : suite_NE;
  const int reps  = o.reps > 0 ? o.reps : static_cast<int>(suite_reps);
  const Inputs in = suite_inputs(NE);
  peer::print_checksum(KERNEL, "scratchkit_layer", device_checksum(in, NE, reps, false));
  if (o.twin) peer::print_checksum(KERNEL, "scratchkit_twin", device_checksum(in, NE, reps, true));
  peer::print_checksum(KERNEL, "reference", reference_checksum(in, NE, reps));
  if (o.bench) {
    const Device v(in);
    const double flops = flops_per_element * NE;
    const double t     = peer::seconds_per_rep(Exec(), reps, o.samples, [&] { run_layer(v, NE); });
    peer::print_row(KERNEL, "scratchkit_layer", NE, reps, t, flops);
#if RAJAPERF_CUDA_TWIN
    if (o.twin) {
      const double tt = peer::seconds_per_rep(Exec(), reps, o.samples, [&] { run_twin(v, NE); });
      peer::print_row(KERNEL, "scratchkit_twin", NE, reps, tt, flops);
    }
#endif
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return peer::main_of(argc, argv, run); }
