// SPDX-License-Identifier: BSD-3-Clause
// The RAJA Performance Suite's DIFFUSION3DPA (apps) on the layer: the action of MFEM's 3-D
// diffusion operator by partial assembly, y_e += sum_q grad(phi_d)(q) . D_e(q) grad(x_e)(q), on
// hexahedra of D1^3 = 27 dofs and Q1^3 = 64 quadrature points, D_e(q) a symmetric 3 x 3 matrix (6
// entries per point), by sum factorisation with the 1-D basis B (Q1 x D1) and its gradient G. One
// block of 4 x 4 x 4 threads per element, as the suite's Base_CUDA. Its CUDA twin: diffusion3dpa.cu.
#include "common.hpp"

// [count-begin]
constexpr int D1 = 3, Q1 = 4, NQ = Q1 * Q1 * Q1;   // dofs, quadrature points per direction; points per element
using HalfBG = SharedArray<double, Q1 * D1>;        // half of B and half of G, in one array (half_at)
using Cubes  = SharedArray<double, 3 * NQ>;         // three cubes of up to Q1^3, reused under the phases' shapes

// B is symmetric about its centre, B(q, d) = B(Q1-1-q, D1-1-d), and G antisymmetric: one array holds B's
// entries at (q <= d) and G's, with a sign, at their mirrors. Layout [q][d], or transposed [d][q].
struct Half { int b, g; double s; };
KOKKOS_INLINE_FUNCTION int bg_at(int q, int d, bool tr) { return tr ? d * Q1 + q : q * D1 + d; }
KOKKOS_INLINE_FUNCTION Half half_at(int q, int d, bool tr) {
  const int own = bg_at(q, d, tr), mirror = bg_at(Q1 - 1 - q, D1 - 1 - d, tr);
  return q <= d ? Half{own, mirror, -1.0} : Half{mirror, own, 1.0};
}

using QBlock = scratchkit::Block<Exec, BlockShape<Q1, Q1, Q1>>;  // blockDim (Q1, Q1, Q1), known to the compiler

void diffusion3dpa_layer(const CVec& B, const CVec& G, const CVec& D, const CVec& X, const Vec& Y, int NE) {
  auto p = LaunchParams(NE, QBlock::shape_type()).uses<HalfBG, Cubes, Cubes>();
  launch(Exec(), "rajaperf::diffusion3dpa", p, KOKKOS_LAMBDA(const QBlock& b) {
    HalfBG bg(b);
    Cubes s0(b), s1(b);
    const int e = b.block_idx().x;
    // The c-th cube of s0 or s1 (NQ elements from c * NQ) under each phase's shape, MFEM's names.
    const auto DDD = [&](int c) { return s0.shape<D1, D1, D1>(c * NQ); };
    const auto DDQ = [&](int c) { return s0.shape<D1, D1, Q1>(c * NQ); };
    const auto DQQ = [&](int c) { return s1.shape<D1, Q1, Q1>(c * NQ); };
    const auto QQQ = [&](int c) { return s0.shape<Q1, Q1, Q1>(c * NQ); };
    const auto QQD = [&](int c) { return s1.shape<Q1, Q1, D1>(c * NQ); };
    const auto QDD = [&](int c) { return s0.shape<Q1, D1, D1>(c * NQ); };
    // Thread (q, d) = (x, y) of plane z = 0 stores the pair (q, d), (Q1-1-q, D1-1-d) once: the second of the two.
    const auto load_bg = [&](const Thread& t, bool tr) {
      if (t.z != 0 || t.y >= D1 || t.y * Q1 + t.x < Q1 * D1 / 2) return;
      const Half h = half_at(t.x, t.y, tr);
      bg[h.b] = B(t.x + Q1 * t.y);
      bg[h.g] = G(t.x + Q1 * t.y) * h.s;
    };
    b.threads([&](const Thread& t) {  // x into s0[2] as [dz][dy][dx]; B, G
      const int dof = t.x + D1 * (t.y + D1 * (t.z + D1 * e));
      if (t.x < D1 && t.y < D1 && t.z < D1) DDD(2)(t.z, t.y, t.x) = X(dof);
      load_bg(t, false);
    });
    sync_threads(b);
    b.threads(Box<Q1, D1, D1>(), [&](const Thread& t) {  // over dx: B x, G x
      double u = 0.0, v = 0.0;
      for (int dx = 0; dx < D1; ++dx) {
        const Half h   = half_at(t.x, dx, false);
        const double c = DDD(2)(t.z, t.y, dx);
        u += c * bg[h.b];
        v += c * bg[h.g] * h.s;
      }
      DDQ(0)(t.z, t.y, t.x) = u;
      DDQ(1)(t.z, t.y, t.x) = v;
    });
    sync_threads(b);
    b.threads(Box<Q1, Q1, D1>(), [&](const Thread& t) {  // over dy
      double u = 0.0, v = 0.0, w = 0.0;
      for (int dy = 0; dy < D1; ++dy) {
        const Half h    = half_at(t.y, dy, false);
        const double c0 = DDQ(0)(t.z, dy, t.x), c1 = DDQ(1)(t.z, dy, t.x);
        u += c1 * bg[h.b];
        v += c0 * bg[h.g] * h.s;
        w += c0 * bg[h.b];
      }
      DQQ(0)(t.z, t.y, t.x) = u;
      DQQ(1)(t.z, t.y, t.x) = v;
      DQQ(2)(t.z, t.y, t.x) = w;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {  // over dz: the gradient at q = rank, times D(q)
      double u = 0.0, v = 0.0, w = 0.0;
      for (int dz = 0; dz < D1; ++dz) {
        const Half h = half_at(t.z, dz, false);
        u += DQQ(0)(dz, t.y, t.x) * bg[h.b];
        v += DQQ(1)(dz, t.y, t.x) * bg[h.b];
        w += DQQ(2)(dz, t.y, t.x) * bg[h.g] * h.s;
      }
      const double* o = &D(t.rank + NQ * 6 * e);  // the 6 entries of D(q), NQ apart
      QQQ(0)(t.z, t.y, t.x) = o[0] * u + o[NQ] * v + o[2 * NQ] * w;
      QQQ(1)(t.z, t.y, t.x) = o[NQ] * u + o[3 * NQ] * v + o[4 * NQ] * w;
      QQQ(2)(t.z, t.y, t.x) = o[2 * NQ] * u + o[4 * NQ] * v + o[5 * NQ] * w;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { load_bg(t, true); });  // B, G again, transposed
    sync_threads(b);
    b.threads(Box<D1, Q1, Q1>(), [&](const Thread& t) {  // over qx
      double u = 0.0, v = 0.0, w = 0.0;
      for (int qx = 0; qx < Q1; ++qx) {
        const Half h = half_at(qx, t.x, true);
        u += QQQ(0)(t.z, t.y, qx) * bg[h.g] * h.s;
        v += QQQ(1)(t.z, t.y, qx) * bg[h.b];
        w += QQQ(2)(t.z, t.y, qx) * bg[h.b];
      }
      QQD(0)(t.z, t.y, t.x) = u;
      QQD(1)(t.z, t.y, t.x) = v;
      QQD(2)(t.z, t.y, t.x) = w;
    });
    sync_threads(b);
    b.threads(Box<D1, D1, Q1>(), [&](const Thread& t) {  // over qy
      double u = 0.0, v = 0.0, w = 0.0;
      for (int qy = 0; qy < Q1; ++qy) {
        const Half h = half_at(qy, t.y, true);
        u += QQD(0)(t.z, qy, t.x) * bg[h.b];
        v += QQD(1)(t.z, qy, t.x) * bg[h.g] * h.s;
        w += QQD(2)(t.z, qy, t.x) * bg[h.b];
      }
      QDD(0)(t.z, t.y, t.x) = u;
      QDD(1)(t.z, t.y, t.x) = v;
      QDD(2)(t.z, t.y, t.x) = w;
    });
    sync_threads(b);
    b.threads(Box<D1, D1, D1>(), [&](const Thread& t) {  // over qz: y += the three terms
      double u = 0.0, v = 0.0, w = 0.0;
      for (int qz = 0; qz < Q1; ++qz) {
        const Half h = half_at(qz, t.z, true);
        u += QDD(0)(qz, t.y, t.x) * bg[h.b];
        v += QDD(1)(qz, t.y, t.x) * bg[h.b];
        w += QDD(2)(qz, t.y, t.x) * bg[h.g] * h.s;
      }
      Y(t.x + D1 * (t.y + D1 * (t.z + D1 * e))) += u + v + w;
    });
  });
}
// [count-end]

#if RAJAPERF_CUDA_TWIN
void diffusion3dpa_cuda(const double* B, const double* G, const double* D, const double* X, double* Y, int NE,
                        void* stream);
#endif

namespace {

constexpr const char* KERNEL = "DIFFUSION3DPA";
constexpr int SYM = 6;                         // entries of the symmetric D(q)
constexpr long suite_NE = 15625, suite_reps = 50;
// The suite's setFLOPsPerRep, per element.
constexpr double flops_per_element = Q1 * D1 + 5 * D1 * D1 * Q1 * D1 + 7 * D1 * D1 * Q1 * Q1 + 7 * Q1 * D1 * Q1 * Q1 +
                                     15 * Q1 * Q1 * Q1 + Q1 * D1 + 7 * Q1 * Q1 * D1 * Q1 + 7 * Q1 * Q1 * D1 * D1 +
                                     7 * D1 * Q1 * D1 * D1 + 3 * D1 * D1 * D1;

// The basis the kernel applies. It keeps half of B and G (half_at): of each pair (q, d) and its mirror
// (Q1-1-q, D1-1-d), the entry of the one later in the order q + Q1 d, as the suite's loops leave it
// (each of its threads writes its own entry, the last write stays). So B'(q, d) = B(m) and G'(q, d) = G(q, d)
// if that one is (q, d), else -G(m), m the mirror. For a basis with the symmetries (MFEM's) B' = B, G' = G;
// for the suite's inputs (all ones) G' is not G, and the suite's checksum is that of B', G'.
void stored_basis(const std::vector<double>& B, const std::vector<double>& G, std::vector<double>& Bs,
                  std::vector<double>& Gs) {
  Bs.resize(Q1 * D1), Gs.resize(Q1 * D1);
  for (int d = 0; d < D1; ++d)
    for (int q = 0; q < Q1; ++q) {
      const int own = q + Q1 * d, mirror = (Q1 - 1 - q) + Q1 * (D1 - 1 - d);
      Bs[own] = 2 * own >= Q1 * D1 ? B[own] : B[mirror];
      Gs[own] = 2 * own >= Q1 * D1 ? G[own] : -G[mirror];
    }
}

// The operator straight from its definition, for each element e and dof d = (dx, dy, dz):
//   y(d) += sum_q sum_{i,j} dphi_i(d, q) D_ij(q) g_j(q),  g_j(q) = sum_d' dphi_j(d', q) x(d'),
//   dphi_0(d, q) = G(qx, dx) B(qy, dy) B(qz, dz), dphi_1 = B G B, dphi_2 = B B G,
// with B', G' of stored_basis, and the same on absolute values (abs).
//
// Error bound. In each, every rounded operation of a chain multiplies its value by (1 + delta),
// |delta| <= u, and a chain of n of them is within gamma_n of its exact value (Higham 3.1, 3.4); the
// multiplications by the signs +-1 are exact. The kernel's longest chain: 3 + 3 + 3 (three contractions
// of D1 terms) + 3 (D(q) g, three terms) + 4 + 4 + 4 (three of Q1 terms) + 2 (u + v + w) + 1 (y +=) = 27.
// This reference's: 3 products and 26 additions (g_j, 27 terms) + 3 (D g) + 3 products and 191 additions
// (192 terms q, i) + 1 (y +=) = 227. Both within their gamma of the exact value (whose absolute
// computation is abs, itself rounded by at most gamma_228), so
//   |y - y_ref| <= (gamma_28 + gamma_228) * abs.
void reference(const std::vector<double>& B, const std::vector<double>& G, const std::vector<double>& Dq,
               const std::vector<double>& X, std::vector<double>& Y, std::vector<double>* abs, long NE) {
  std::vector<double> Bs, Gs;
  stored_basis(B, G, Bs, Gs);
  std::vector<double> phi(3 * NQ * 27), phia(phi.size());  // dphi_j(d, q) at [j][q][d], and its absolute value
  for (int j = 0; j < 3; ++j)
    for (int q = 0; q < NQ; ++q)
      for (int d = 0; d < 27; ++d) {
        const int qs[3] = {q % Q1, q / Q1 % Q1, q / (Q1 * Q1)}, ds[3] = {d % D1, d / D1 % D1, d / (D1 * D1)};
        double p = 1.0;
        for (int k = 0; k < 3; ++k) p *= (k == j ? Gs : Bs)[qs[k] + Q1 * ds[k]];
        phi[(j * NQ + q) * 27 + d] = p, phia[(j * NQ + q) * 27 + d] = std::abs(p);
      }
  const auto dphi = [&](int j, int q, int d, bool absolute) { return (absolute ? phia : phi)[(j * NQ + q) * 27 + d]; };
  for (long e = 0; e < NE; ++e) {
    double r[27] = {}, ra[27] = {};
    for (int q = 0; q < NQ; ++q) {
      double g[3] = {}, ga[3] = {};
      for (int j = 0; j < 3; ++j)
        for (int d = 0; d < D1 * D1 * D1; ++d) {
          g[j] += dphi(j, q, d, false) * X[d + 27 * e];
          ga[j] += dphi(j, q, d, true) * std::abs(X[d + 27 * e]);
        }
      const auto o = [&](int i, int j) {  // D_ij(q), symmetric: entries 0 1 2 / 3 4 / 5
        const int s = i <= j ? (i == 0 ? j : i == 1 ? 2 + j : 5) : (j == 0 ? i : j == 1 ? 2 + i : 5);
        return Dq[q + NQ * (s + SYM * e)];
      };
      double f[3], fa[3];
      for (int i = 0; i < 3; ++i) {
        f[i]  = o(i, 0) * g[0] + o(i, 1) * g[1] + o(i, 2) * g[2];
        fa[i] = std::abs(o(i, 0)) * ga[0] + std::abs(o(i, 1)) * ga[1] + std::abs(o(i, 2)) * ga[2];
      }
      for (int d = 0; d < 27; ++d)
        for (int i = 0; i < 3; ++i) {
          r[d] += dphi(i, q, d, false) * f[i];
          ra[d] += dphi(i, q, d, true) * fa[i];
        }
    }
    for (int d = 0; d < 27; ++d) {
      if (abs) (*abs)[d + 27 * e] = std::abs(Y[d + 27 * e]) + ra[d];
      Y[d + 27 * e] += r[d];
    }
  }
}

struct Inputs {
  std::vector<double> B, G, D, X, Y;
};

Inputs random_inputs(long NE, std::uint64_t seed) {
  return {peer::random_values(Q1 * D1, seed), peer::random_values(Q1 * D1, seed + 1),
          peer::random_values(std::size_t(NQ) * SYM * NE, seed + 2), peer::random_values(27 * NE, seed + 3),
          peer::random_values(27 * NE, seed + 4)};
}

Inputs suite_inputs(long NE) {  // the suite's setUp: every input 1, y 0
  const std::vector<double> one(Q1 * D1, 1.0);
  return {one, one, std::vector<double>(std::size_t(NQ) * SYM * NE, 1.0), std::vector<double>(27 * NE, 1.0),
          std::vector<double>(27 * NE, 0.0)};
}

struct Device {
  Vec B, G, D, X, Y;
  explicit Device(const Inputs& in)
      : B(peer::to_device("B", in.B)), G(peer::to_device("G", in.G)), D(peer::to_device("D", in.D)),
        X(peer::to_device("X", in.X)), Y(peer::to_device("Y", in.Y)) {}
};

void run_layer(const Device& v, long NE) { diffusion3dpa_layer(v.B, v.G, v.D, v.X, v.Y, static_cast<int>(NE)); }

#if RAJAPERF_CUDA_TWIN
void run_twin(const Device& v, long NE) {
  diffusion3dpa_cuda(v.B.data(), v.G.data(), v.D.data(), v.X.data(), v.Y.data(), static_cast<int>(NE),
                     peer::stream_of(Exec()));
}
#endif

// Random inputs: layer (and twin) against the reference within the bound; twin bit for bit against the layer.
long random_case(long NE, bool twin) {
  const Inputs in = random_inputs(NE, 7000 + NE);
  std::vector<double> ref = in.Y, abs(in.Y.size());
  reference(in.B, in.G, in.D, in.X, ref, &abs, NE);
  std::vector<double> tol(abs.size());
  for (std::size_t i = 0; i < abs.size(); ++i) tol[i] = (peer::gamma_double(28) + peer::gamma_double(228)) * abs[i];
  std::printf("DIFFUSION3DPA NE = %ld, random inputs\n", NE);
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
  reference(in.B, in.G, in.D, in.X, once, nullptr, NE);  // the inputs do not change between reps
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
    for (long NE : {1L, 37L, 4L}) bad += random_case(NE, o.twin);
    // The suite's inputs, 3 reps accumulated: exact small integers, so the checksums agree exactly.
    const long NE = 37;
    const Inputs in           = suite_inputs(NE);
    const long double want    = reference_checksum(in, NE, 3);
    const long double layer   = device_checksum(in, NE, 3, false);
    std::printf("DIFFUSION3DPA NE = %ld, suite inputs, 3 reps: checksum layer %.21Lg, reference %.21Lg\n", NE,
                layer, want);
    bad += layer != want;
    if (o.twin) {
      const long double tw = device_checksum(in, NE, 3, true);
      std::printf("  twin %.21Lg\n", tw);
      bad += tw != want;
    }
    return static_cast<int>(bad);
  }
  const long NE  = o.size > 0 ? o.size : suite_NE;
  const int reps = o.reps > 0 ? o.reps : static_cast<int>(suite_reps);
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
