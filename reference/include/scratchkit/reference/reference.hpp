// SPDX-License-Identifier: BSD-3-Clause
/// Host references for the kernels, in wider precision, with the error bounds the cross-checks use.
///
/// Bounds (rounding class, u = eps/2 of the element type, gamma_k = k u / (1 - k u),
/// Higham, "Accuracy and Stability of Numerical Algorithms", 3.1 and 4.2):
///  - GEMM: |C - C_ref| <= gamma_{K+2} (|alpha| (|A||B|)_ij + |beta| |C0_ij|)
///  - sum over a tree of height d: |s - s_ref| <= gamma_d sum |x_i|
///  - 1-D stencil of 2R+1 weights: |out_i - ref_i| <= gamma_{2R+1} sum_j |w_j||in_{i+j-R}|
/// Integer results, min and max are exact. NaN never passes.
#pragma once

#include <scratchkit/reference/parallel.hpp>
#include <scratchkit/variants.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

namespace scratchkit {
namespace check {

/// Outcome of one comparison: elements outside the bound and the worst
/// error / bound ratio seen (<= 1 when everything passes).
struct Result {
  std::size_t bad   = 0;
  double worst      = 0;
  bool passed() const { return bad == 0; }
};

/// gamma_k for element type T.
template <class T>
double gamma(long long k) {
  if constexpr (!std::is_floating_point<T>::value) {
    (void)k;
    return 0.0;
  } else {
    const double ku = static_cast<double>(k) * std::numeric_limits<T>::epsilon() / 2;
    // The bound holds only for k u < 1; past that there is no bound at all.
    return ku < 1.0 ? ku / (1.0 - ku) : std::numeric_limits<double>::infinity();
  }
}

namespace detail {
inline void account(Result& r, double err, double bound) {
  if (!(err <= bound)) ++r.bad;  // NaN fails
  if (bound > 0)
    r.worst = std::max(r.worst, err / bound);
  else if (err > 0 || err != err)
    r.worst = std::numeric_limits<double>::infinity();
}
/// a and b together (the two halves of one comparison).
inline void merge(Result& a, const Result& b) {
  a.bad += b.bad;
  a.worst = std::max(a.worst, b.worst);
}
/// Elements per chunk of a threaded comparison (for_chunks).
constexpr std::size_t check_chunk = std::size_t(1) << 18;
/// Runs account-style comparisons over [0, n) on host threads: f(begin, end,
/// Result&) per chunk; the chunks' Results merged.
template <class F>
Result compare_chunks(std::size_t n, std::size_t chunk, const F& f) {
  std::vector<Result> part((n + chunk - 1) / chunk);
  for_chunks(n, chunk, [&](std::size_t b, std::size_t e, std::size_t c) { f(b, e, part[c]); });
  Result r;
  for (const Result& q : part) merge(r, q);
  return r;
}
}  // namespace detail

/// The reference alpha*A*B + beta*C0 (M x N, row-major) and each element's
/// bound, computed once, to compare several results against (the perf
/// harness checks every GEMM variant and backend against one reference).
/// When beta == 0, C0 is not read (it may hold NaN, or be null).
template <class T>
class GemmReference {
 public:
  GemmReference(int M, int N, int K, T alpha, const T* A, const T* B, T beta, const T* C0)
      : m_ref(static_cast<std::size_t>(M) * N), m_bound(m_ref.size()) {
    const double g = gamma<T>(K + 2);
    // Rows in chunks of at least ~2^16 multiply-adds (a small GEMM stays on one thread).
    const std::size_t per_row = static_cast<std::size_t>(N > 0 ? N : 1) * static_cast<std::size_t>(K > 0 ? K : 1);
    const std::size_t rows    = per_row >= (std::size_t(1) << 16) ? 1 : (std::size_t(1) << 16) / per_row;
    detail::for_chunks(static_cast<std::size_t>(M < 0 ? 0 : M), rows, [&](std::size_t i0, std::size_t i1, std::size_t) {
      for (int i = static_cast<int>(i0); i < static_cast<int>(i1); ++i) {
        for (int j = 0; j < N; ++j) {
        long double ref = 0, abs = 0;
        for (int k = 0; k < K; ++k) {
          const long double p = static_cast<long double>(A[static_cast<std::size_t>(i) * K + k]) *
                                B[static_cast<std::size_t>(k) * N + j];
          ref += p;
          abs += std::fabs(p);
        }
        const std::size_t ij = static_cast<std::size_t>(i) * N + j;
        const long double c0 = beta == T(0) ? 0 : static_cast<long double>(C0[ij]);
        m_ref[ij]   = static_cast<long double>(alpha) * ref + static_cast<long double>(beta) * c0;
        m_bound[ij] = g * static_cast<double>(std::fabs(static_cast<long double>(alpha)) * abs +
                                              std::fabs(static_cast<long double>(beta)) * std::fabs(c0));
        }
      }
    });
  }
  /// Checks C (same shape, row-major) against the reference.
  Result compare(const T* C) const {
    return detail::compare_chunks(m_ref.size(), detail::check_chunk, [&](std::size_t b, std::size_t e, Result& r) {
      for (std::size_t ij = b; ij < e; ++ij)
        detail::account(r, std::fabs(static_cast<double>(static_cast<long double>(C[ij]) - m_ref[ij])), m_bound[ij]);
    });
  }

 private:
  std::vector<long double> m_ref;
  std::vector<double> m_bound;
};

/// Checks C (M x N, row-major, leading dimension N) against alpha*A*B + beta*C0.
/// When beta == 0, C0 is not read (it may hold NaN).
template <class T>
Result gemm(int M, int N, int K, T alpha, const T* A, const T* B, T beta, const T* C0, const T* C) {
  return GemmReference<T>(M, N, K, alpha, A, B, beta, C0).compare(C);
}

/// The exact min/max, or the sum in long double with its bound for a tree of height `depth`.
template <class T>
Result reduce(ReduceOp op, const T* x, std::size_t n, T got, long long depth) {
  Result r;
  if (op == ReduceOp::sum) {
    // Chunk sums in long double, added in chunk order: the reference's own
    // error stays ~n 2^-64 sum|x|, far below any bound below.
    const std::size_t nc = (n + detail::check_chunk - 1) / detail::check_chunk;
    std::vector<long double> part_ref(nc, 0), part_abs(nc, 0);
    detail::for_chunks(n, detail::check_chunk, [&](std::size_t b, std::size_t e, std::size_t c) {
      long double s = 0, a = 0;
      for (std::size_t i = b; i < e; ++i) {
        s += x[i];
        a += std::fabs(static_cast<long double>(x[i]));
      }
      part_ref[c] = s;
      part_abs[c] = a;
    });
    long double ref = 0, abs = 0;
    for (std::size_t c = 0; c < nc; ++c) {
      ref += part_ref[c];
      abs += part_abs[c];
    }
    const double bound = gamma<T>(depth) * static_cast<double>(abs);
    detail::account(r, std::fabs(static_cast<double>(static_cast<long double>(got) - ref)), bound);
  } else {
    T ref = op == ReduceOp::min ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
    for (std::size_t i = 0; i < n; ++i) ref = op == ReduceOp::min ? std::min(ref, x[i]) : std::max(ref, x[i]);
    detail::account(r, got == ref ? 0.0 : std::numeric_limits<double>::infinity(), 0.0);
  }
  return r;
}

/// out[i] against sum_j w[j] in[i+j-R], zero outside [0, n).
template <class T>
Result stencil_1d(const T* in, const T* w, int R, const T* out, int n) {
  const double g = gamma<T>(2 * R + 1);
  const auto part = [&](std::size_t b, std::size_t e, Result& r) {
    for (int i = static_cast<int>(b); i < static_cast<int>(e); ++i) {
      long double ref = 0, abs = 0;
      for (int j = 0; j <= 2 * R; ++j) {
        const int k = i + j - R;
        if (k < 0 || k >= n) continue;
        const long double p = static_cast<long double>(w[j]) * in[k];
        ref += p;
        abs += std::fabs(p);
      }
      detail::account(r, std::fabs(static_cast<double>(static_cast<long double>(out[i]) - ref)),
                      g * static_cast<double>(abs));
    }
  };
  return detail::compare_chunks(static_cast<std::size_t>(n < 0 ? 0 : n), detail::check_chunk, part);
}

}  // namespace check
}  // namespace scratchkit

// ---------------------------------------------------------------------------
// 3-D 7-point stencil (appended with the kernel).
#include <cstring>

namespace scratchkit {
namespace check {

/// Checks one 7-point stencil step (Jacobi/heat) on nz x ny x nx arrays
/// indexed (z*ny + y)*nx + x, x fastest.
///
/// Interior points are computed as
///   s = n_1; s += n_2; ... s += n_6;   (5 additions: each n_k sees at most 5 roundings)
///   out = c0*u + c1*s                  (2 products, 1 addition)
/// so, with fl(a op b) = (a op b)(1 + d), |d| <= u, each neighbour term
/// carries a factor (1 + theta_7) and the centre term (1 + theta_2), |theta_k| <= gamma_k
/// (Higham 3.1). An FMA only removes roundings. Hence
///   |out - ref| <= gamma_7 (|c0||u| + |c1| sum_k |n_k|);
/// the check uses gamma_8, the one spare unit covering the long double
/// reference's own rounding. Boundary points (an index 0 or n-1 in any
/// dimension) are copies and must equal `in` bit for bit.
template <class T>
Result stencil_3d_7pt(const T* in, const T* out, int nz, int ny, int nx, T c0, T c1) {
  const double g = gamma<T>(8);
  const auto at  = [&](const T* a, int z, int y, int x) {
    return a[(static_cast<std::size_t>(z) * ny + y) * nx + x];
  };
  const auto planes = [&](std::size_t z0, std::size_t z1, Result& r) {
    for (int z = static_cast<int>(z0); z < static_cast<int>(z1); ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const T u   = at(in, z, y, x);
        const T got = at(out, z, y, x);
        if (z == 0 || y == 0 || x == 0 || z == nz - 1 || y == ny - 1 || x == nx - 1) {
          const bool same = std::memcmp(&u, &got, sizeof(T)) == 0;
          detail::account(r, same ? 0.0 : std::numeric_limits<double>::infinity(), 0.0);
          continue;
        }
        const T nb[6] = {at(in, z, y, x - 1), at(in, z, y, x + 1), at(in, z, y - 1, x),
                         at(in, z, y + 1, x), at(in, z - 1, y, x), at(in, z + 1, y, x)};
        long double s = 0, abs = 0;
        for (const T v : nb) {
          s += v;
          abs += std::fabs(static_cast<long double>(v));
        }
        const long double c0l = c0, c1l = c1, ul = u;
        const long double ref = c0l * ul + c1l * s;
        const double bound    = g * static_cast<double>(std::fabs(c0l) * std::fabs(ul) + std::fabs(c1l) * abs);
        detail::account(r, std::fabs(static_cast<double>(static_cast<long double>(got) - ref)), bound);
      }
  };
  // Whole z planes per chunk, at least ~2^16 points each.
  const std::size_t plane = static_cast<std::size_t>(ny > 0 ? ny : 1) * static_cast<std::size_t>(nx > 0 ? nx : 1);
  const std::size_t per   = plane >= (std::size_t(1) << 16) ? 1 : (std::size_t(1) << 16) / plane;
  return detail::compare_chunks(static_cast<std::size_t>(nz < 0 ? 0 : nz), per, planes);
}

}  // namespace check
}  // namespace scratchkit
