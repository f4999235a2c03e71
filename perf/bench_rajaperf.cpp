// SPDX-License-Identifier: BSD-3-Clause
// Rows of the RAJA Performance Suite's ports (examples/rajaperf, their kernels as they are) beside
// plain Kokkos versions a CPU Kokkos user writes (no scratch, no barriers), random inputs, both checked
// against the ports' own host references within their bounds:
//   MAT_MAT_SHARED  N x N doubles: plain::gemm (a RangePolicy over rows, i-k-j)
//   MASS3DPA        a RangePolicy over elements, each element's six contractions in local arrays
//   DIFFUSION3DPA   the same, its gradient contractions
#include "harness.hpp"
#include "plain_kokkos.hpp"
#include "plain_pair.hpp"

#include "../examples/rajaperf/common.hpp"

// The ports' files, each in a namespace of its own (their helpers share names), main renamed.
#define main rajaperf_main
namespace rp_mm {
#include "../examples/rajaperf/mat_mat_shared.cpp"
}
namespace rp_mass {
#include "../examples/rajaperf/mass3dpa.cpp"
}
namespace rp_diff {
#include "../examples/rajaperf/diffusion3dpa.cpp"
}
#undef main

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

// ---------------------------------------------------------------- MAT_MAT_SHARED
void add_mat_mat(std::vector<Case>& cases, int N) {
  struct Data {
    Vec A, B, C;
    std::vector<double> a, b;
    explicit Data(int n)
        : A(peer::to_device("A", peer::random_values(std::size_t(n) * n, 11))),
          B(peer::to_device("B", peer::random_values(std::size_t(n) * n, 12))), C("C", std::size_t(n) * n),
          a(peer::to_host(A)), b(peer::to_host(B)) {}
  };
  const std::string size = std::to_string(N) + "^2";
  auto data = [size, N] { return data_cache().get<Data>("rp_mm/" + size, [N] { return Data(N); }); };
  // 16 rows spread over C against c_ij in double within the port's 2 gamma_{N+1} sum_k |a_ik b_kj|.
  auto check = [data, N] {
    auto d = data();
    const auto c = peer::to_host(d->C);
    for (int r = 0; r < 16; ++r) {
      const int i = static_cast<int>(static_cast<long long>(r) * (N - 1) / 15);
      for (int j = 0; j < N; ++j) {
        double s = 0, a = 0;
        for (int k = 0; k < N; ++k) {
          const double p = d->a[std::size_t(i) * N + k] * d->b[std::size_t(k) * N + j];
          s += p, a += std::fabs(p);
        }
        if (!(std::fabs(c[std::size_t(i) * N + j] - s) <= 2 * peer::gamma_double(N + 1) * a)) return false;
      }
    }
    return true;
  };
  auto poison = [data] { Kokkos::deep_copy(data()->C, std::numeric_limits<double>::quiet_NaN()); };
  Case k{"rajaperf_MAT_MAT_SHARED", "port", "layer", "double", size};
  k.bytes   = 3.0 * N * N * sizeof(double);
  k.flops   = 2.0 * N * N * N;
  k.prepare = poison;
  k.run     = [data, N] {
    auto d = data();
    rp_mm::mat_mat_shared_layer(N, d->A, d->B, d->C);
  };
  k.check = check;
  add_with_plain(cases, k, "range_ikj", [data, N] {
    auto d = data();
    using M2 = Kokkos::View<double**, Kokkos::LayoutRight, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    plain::gemm(Exec(), 1.0, M2(d->A.data(), N, N), M2(d->B.data(), N, N), 0.0, M2(d->C.data(), N, N));
  });
}

// ---------------------------------------------------------------- MASS3DPA
/// MASS3DPA as a CPU Kokkos user writes it: one iteration per element, the six contractions of the
/// port (and the suite's Base_Seq) in local arrays, in the port's order of operations.
void plain_mass3dpa(const CVec& B, const CVec& Bt, const CVec& D, const CVec& X, const Vec& Y, int NE) {
  using namespace rp_mass;
  Kokkos::parallel_for("bench::plain_mass3dpa", Kokkos::RangePolicy<Exec>(0, NE), KOKKOS_LAMBDA(int e) {
    double Bq[Q1][D1], Btd[D1][Q1];
    for (int d = 0; d < D1; ++d)
      for (int q = 0; q < Q1; ++q) Bq[q][d] = B(q + Q1 * d), Btd[d][q] = Bt(q + D1 * d);
    double xs[D1][D1][D1], ddq[D1][D1][Q1], dqq[D1][Q1][Q1], qqq[Q1][Q1][Q1], qqd[Q1][Q1][D1], qdd[Q1][D1][D1];
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) xs[dz][dy][dx] = X(dx + D1 * (dy + D1 * (dz + D1 * e)));
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0;
          for (int dx = 0; dx < D1; ++dx) u += xs[dz][dy][dx] * Bq[qx][dx];
          ddq[dz][dy][qx] = u;
        }
    for (int dz = 0; dz < D1; ++dz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0;
          for (int dy = 0; dy < D1; ++dy) u += ddq[dz][dy][qx] * Bq[qy][dy];
          dqq[dz][qy][qx] = u;
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0;
          for (int dz = 0; dz < D1; ++dz) u += dqq[dz][qy][qx] * Bq[qz][dz];
          qqq[qz][qy][qx] = u * D(qx + Q1 * (qy + Q1 * (qz + Q1 * e)));
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0;
          for (int qx = 0; qx < Q1; ++qx) u += qqq[qz][qy][qx] * Btd[dx][qx];
          qqd[qz][qy][dx] = u;
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0;
          for (int qy = 0; qy < Q1; ++qy) u += qqd[qz][qy][dx] * Btd[dy][qy];
          qdd[qz][dy][dx] = u;
        }
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0;
          for (int qz = 0; qz < Q1; ++qz) u += qdd[qz][dy][dx] * Btd[dz][qz];
          Y(dx + D1 * (dy + D1 * (dz + D1 * e))) += u;
        }
  });
}

/// Rows of a partial-assembly port (MASS3DPA, DIFFUSION3DPA): its random inputs, y checked after one
/// run from the initial y against the port's reference within tol_gamma(abs) (the port's bound).
template <class Inputs, class Device, class MakeInputs, class Reference, class RunLayer, class RunPlain>
void add_pa(std::vector<Case>& cases, const char* kernel, long NE, double bytes, double flops,
            const MakeInputs& make, const Reference& reference, double tol_gamma, const RunLayer& run_layer,
            const RunPlain& run_plain) {
  struct Data {
    Inputs in;
    Device dev;
    std::vector<double> ref, tol;
    Data(Inputs i, const Reference& r, double g, long ne) : in(std::move(i)), dev(in), ref(in.Y), tol(in.Y.size()) {
      std::vector<double> abs(in.Y.size());
      r(in, ref, abs, ne);
      for (std::size_t k = 0; k < abs.size(); ++k) tol[k] = g * abs[k];
    }
  };
  const std::string size = "NE" + std::to_string(NE);
  auto data = [key = std::string(kernel) + "/" + size, NE, make, reference, tol_gamma] {
    return data_cache().get<Data>(key, [&] { return Data(make(NE), reference, tol_gamma, NE); });
  };
  Case k{std::string("rajaperf_") + kernel, "port", "layer", "double", size};
  k.bytes   = bytes;
  k.flops   = flops;
  k.prepare = [data] {
    auto d = data();
    auto h = Kokkos::create_mirror_view(d->dev.Y);
    for (std::size_t i = 0; i < d->in.Y.size(); ++i) h(i) = d->in.Y[i];
    Kokkos::deep_copy(d->dev.Y, h);
  };
  k.run   = [data, run_layer, NE] { run_layer(data()->dev, NE); };
  k.check = [data] {
    auto d       = data();
    const auto y = peer::to_host(d->dev.Y);
    for (std::size_t i = 0; i < y.size(); ++i)
      if (!(std::fabs(y[i] - d->ref[i]) <= d->tol[i])) return false;
    return true;
  };
  add_with_plain(cases, k, "range_elements", [data, run_plain, NE] { run_plain(data()->dev, NE); });
}

void add_mass3dpa(std::vector<Case>& cases, long NE) {
  using namespace rp_mass;
  add_pa<Inputs, Device>(
      cases, KERNEL, NE, NE * (2.0 * ND + NQ + ND) * sizeof(double), flops_per_element * NE,
      [](long ne) { return random_inputs(ne, 77); },
      [](const Inputs& in, std::vector<double>& ref, std::vector<double>& abs, long ne) {
        reference(in.B, in.Bt, in.D, in.X, ref, &abs, ne);
      },
      peer::gamma_double(30) + peer::gamma_double(200), [](const Device& v, long ne) { run_layer(v, ne); },
      [](const Device& v, long ne) { plain_mass3dpa(v.B, v.Bt, v.D, v.X, v.Y, static_cast<int>(ne)); });
}

// ---------------------------------------------------------------- DIFFUSION3DPA
/// DIFFUSION3DPA as a CPU Kokkos user writes it: one iteration per element, the port's contractions
/// (B x, G x; the gradient times D(q); back through G and B) in local arrays, in the port's order. The
/// basis as the port stores it (half of B and G and their mirrors: rp_diff::stored_basis).
void plain_diffusion3dpa(const CVec& B, const CVec& G, const CVec& D, const CVec& X, const Vec& Y, int NE) {
  using namespace rp_diff;
  Kokkos::parallel_for("bench::plain_diffusion3dpa", Kokkos::RangePolicy<Exec>(0, NE), KOKKOS_LAMBDA(int e) {
    double b[Q1][D1], g[Q1][D1];
    for (int d = 0; d < D1; ++d)
      for (int q = 0; q < Q1; ++q) {
        const int own = q + Q1 * d, mirror = (Q1 - 1 - q) + Q1 * (D1 - 1 - d);
        b[q][d] = 2 * own >= Q1 * D1 ? B(own) : B(mirror);
        g[q][d] = 2 * own >= Q1 * D1 ? G(own) : -G(mirror);
      }
    double xs[D1][D1][D1], ddq[2][D1][D1][Q1], dqq[3][D1][Q1][Q1], qqq[3][Q1][Q1][Q1], qqd[3][Q1][Q1][D1],
        qdd[3][Q1][D1][D1];
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) xs[dz][dy][dx] = X(dx + D1 * (dy + D1 * (dz + D1 * e)));
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0.0, v = 0.0;
          for (int dx = 0; dx < D1; ++dx) u += xs[dz][dy][dx] * b[qx][dx], v += xs[dz][dy][dx] * g[qx][dx];
          ddq[0][dz][dy][qx] = u, ddq[1][dz][dy][qx] = v;
        }
    for (int dz = 0; dz < D1; ++dz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0.0, v = 0.0, w = 0.0;
          for (int dy = 0; dy < D1; ++dy) {
            u += ddq[1][dz][dy][qx] * b[qy][dy];
            v += ddq[0][dz][dy][qx] * g[qy][dy];
            w += ddq[0][dz][dy][qx] * b[qy][dy];
          }
          dqq[0][dz][qy][qx] = u, dqq[1][dz][qy][qx] = v, dqq[2][dz][qy][qx] = w;
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int qx = 0; qx < Q1; ++qx) {
          double u = 0.0, v = 0.0, w = 0.0;
          for (int dz = 0; dz < D1; ++dz) {
            u += dqq[0][dz][qy][qx] * b[qz][dz];
            v += dqq[1][dz][qy][qx] * b[qz][dz];
            w += dqq[2][dz][qy][qx] * g[qz][dz];
          }
          const double* o = &D(qx + Q1 * (qy + Q1 * qz) + NQ * 6 * e);  // D(q)'s 6 entries, NQ apart
          qqq[0][qz][qy][qx] = o[0] * u + o[NQ] * v + o[2 * NQ] * w;
          qqq[1][qz][qy][qx] = o[NQ] * u + o[3 * NQ] * v + o[4 * NQ] * w;
          qqq[2][qz][qy][qx] = o[2 * NQ] * u + o[4 * NQ] * v + o[5 * NQ] * w;
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int qy = 0; qy < Q1; ++qy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0.0, v = 0.0, w = 0.0;
          for (int qx = 0; qx < Q1; ++qx) {
            u += qqq[0][qz][qy][qx] * g[qx][dx];
            v += qqq[1][qz][qy][qx] * b[qx][dx];
            w += qqq[2][qz][qy][qx] * b[qx][dx];
          }
          qqd[0][qz][qy][dx] = u, qqd[1][qz][qy][dx] = v, qqd[2][qz][qy][dx] = w;
        }
    for (int qz = 0; qz < Q1; ++qz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0.0, v = 0.0, w = 0.0;
          for (int qy = 0; qy < Q1; ++qy) {
            u += qqd[0][qz][qy][dx] * b[qy][dy];
            v += qqd[1][qz][qy][dx] * g[qy][dy];
            w += qqd[2][qz][qy][dx] * b[qy][dy];
          }
          qdd[0][qz][dy][dx] = u, qdd[1][qz][dy][dx] = v, qdd[2][qz][dy][dx] = w;
        }
    for (int dz = 0; dz < D1; ++dz)
      for (int dy = 0; dy < D1; ++dy)
        for (int dx = 0; dx < D1; ++dx) {
          double u = 0.0, v = 0.0, w = 0.0;
          for (int qz = 0; qz < Q1; ++qz) {
            u += qdd[0][qz][dy][dx] * b[qz][dz];
            v += qdd[1][qz][dy][dx] * b[qz][dz];
            w += qdd[2][qz][dy][dx] * g[qz][dz];
          }
          Y(dx + D1 * (dy + D1 * (dz + D1 * e))) += u + v + w;
        }
  });
}

void add_diffusion3dpa(std::vector<Case>& cases, long NE) {
  using namespace rp_diff;
  add_pa<Inputs, Device>(
      cases, KERNEL, NE, NE * (27.0 * 2 + NQ * SYM + 27.0) * sizeof(double), flops_per_element * NE,
      [](long ne) { return random_inputs(ne, 78); },
      [](const Inputs& in, std::vector<double>& ref, std::vector<double>& abs, long ne) {
        reference(in.B, in.G, in.D, in.X, ref, &abs, ne);
      },
      peer::gamma_double(28) + peer::gamma_double(228), [](const Device& v, long ne) { run_layer(v, ne); },
      [](const Device& v, long ne) { plain_diffusion3dpa(v.B, v.G, v.D, v.X, v.Y, static_cast<int>(ne)); });
}

}  // namespace

void add_rajaperf_cases(const Config& c, std::vector<Case>& cases) {
  add_mat_mat(cases, host_full(c) ? 2000 : c.full ? 4000 : 1000);
  add_mass3dpa(cases, host_full(c) ? 64000 : c.full ? 512000 : rp_mass::suite_NE);
  add_diffusion3dpa(cases, host_full(c) ? 125000 : c.full ? 1000000 : rp_diff::suite_NE);
}

}  // namespace perf
}  // namespace scratchkit
