// SPDX-License-Identifier: BSD-3-Clause
// Warp and block collectives (warp.hpp, block_collectives.hpp) and their tile
// kernels (kernels/collectives.hpp) against host references; native twins
// against the layer, bit for bit.
//
// Two references:
// - a model: plain C++ that does the operations of each collective in the
//   order the documentation gives (Kogge-Stone rounds double-buffered, the
//   shuffle-down tree, the folds of warp totals, the items' chains). Every
//   backend must give the model's bits, floats included.
// - the sequential result (long double): integers exact; floats within
//   gamma_d * sum |x_j| over the elements the result covers, d the height of
//   the collective's summation tree (each element goes through at most d
//   additions): warp scan LW = log2(W) (+1 for exclusive's init), block scan
//   LW + warps (+ 2 (N - 1) for N items, +1 for init), block reduce
//   LW + warps - 1 (+ N - 1 for items).
// W, the warp size, is the backend's (scratchkit::warp_size<Exec>()): on host
// backends the one the test run chose (SCRATCHKIT_TEST_WARP_SIZE, 32 or 64).
// tests/CMakeLists.txt compiles this file once per part (SCRATCHKIT_TEST_PART: 0 the warp
// collectives, 1 blocked items and exchanges, 2 the tile kernels, 3 the one-value block
// collectives), so that no unit instantiates all of them; the model and helpers below are shared.
#include "test_support.hpp"

#include <scratchkit/block_collectives.hpp>
#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/collectives.hpp>
#include <scratchkit/launch.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifndef SCRATCHKIT_TEST_PART
#error "compiled once per part by tests/CMakeLists.txt, with SCRATCHKIT_TEST_PART set"
#endif

using namespace scratchkit;

namespace {

struct Plus {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
/// Associative and not commutative: the latest non-zero value (checks that
/// earlier elements are always the left operand).
struct LatestNonzero {
  template <class T>
  KOKKOS_INLINE_FUNCTION T operator()(const T& a, const T& b) const {
    return b != T(0) ? b : a;
  }
};

constexpr int MAXT = 1024;
/// Blocks of up to 1024 threads on a GPU: at most 64 registers a thread.
using TestBounds = LaunchBounds<MAXT, 1>;
/// Lanes of a warp on the backend under test and log2 of them (use_warp_of);
/// WMAX bounds W on every backend.
int W = 32, LW = 5;
constexpr int WMAX = 64;
template <class Exec>
void use_warp_of() {
  W = warp_size<Exec>();
  REQUIRE(W <= WMAX);
  for (LW = 0; (1 << LW) < W;) ++LW;
}
const int block_sizes[] = {1, 5, 31, 32, 33, 63, 64, 65, 80, 100, 256, 257, 1024};

// ---- the model ----------------------------------------------------------

template <class T, class Op>
void model_warp_inclusive(T* x, int width, Op op) {
  for (int off = 1; off < W; off <<= 1) {
    T old[WMAX];
    for (int l = 0; l < width; ++l) old[l] = x[l];
    for (int l = off; l < width; ++l) x[l] = op(old[l - off], old[l]);
  }
}
template <class T, class Op>
T model_warp_reduce(const T* x, int width, Op op) {
  T v[WMAX];
  for (int l = 0; l < width; ++l) v[l] = x[l];
  for (int off = W / 2; off > 0; off >>= 1) {
    T old[WMAX];
    for (int l = 0; l < width; ++l) old[l] = v[l];
    for (int l = 0; l + off < width; ++l) v[l] = op(old[l], old[l + off]);
  }
  return v[0];
}
template <class T, class Op>
T model_fold(const std::vector<T>& s, int count, Op op) {
  T acc = s[0];
  for (int w = 1; w < count; ++w) acc = op(acc, s[w]);
  return acc;
}
int width_of(int nt, int t) { return nt - (t - t % W) < W ? nt - (t - t % W) : W; }

/// Warp inclusive scans of x (one value a thread, a block of x.size() threads).
template <class T, class Op>
std::vector<T> model_warp_scans(std::vector<T> x, Op op) {
  const int nt = static_cast<int>(x.size());
  for (int b = 0; b < nt; b += W) model_warp_inclusive(x.data() + b, width_of(nt, b), op);
  return x;
}
/// block_exclusive_prefix: op over x of the threads before t (t = 0: x[0], unused).
template <class T, class Op>
std::vector<T> model_block_prefix(const std::vector<T>& x, Op op) {
  const int nt = static_cast<int>(x.size()), warps = (nt + W - 1) / W;
  const std::vector<T> incl = model_warp_scans(x, op);
  std::vector<T> tot(warps), p(nt);
  for (int w = 0; w < warps; ++w) tot[w] = incl[w * W + width_of(nt, w * W) - 1];
  for (int t = 0; t < nt; ++t) {
    const int warp = t / W, lane = t % W;
    const T we     = lane > 0 ? incl[t - 1] : incl[t];
    if (warp == 0) {
      p[t] = we;
    } else {
      const T wp = model_fold(tot, warp, op);
      p[t]       = lane == 0 ? wp : op(wp, we);
    }
  }
  return p;
}
template <class T, class Op>
std::vector<T> model_block_inclusive(const std::vector<T>& x, Op op) {
  const int nt = static_cast<int>(x.size()), warps = (nt + W - 1) / W;
  std::vector<T> incl = model_warp_scans(x, op), tot(warps);
  for (int w = 0; w < warps; ++w) tot[w] = incl[w * W + width_of(nt, w * W) - 1];
  for (int t = W; t < nt; ++t) incl[t] = op(model_fold(tot, t / W, op), incl[t]);
  return incl;
}
template <class T, class Op>
std::vector<T> model_block_exclusive(const std::vector<T>& x, T init, Op op) {
  std::vector<T> p = model_block_prefix(x, op);
  for (std::size_t t = 0; t < p.size(); ++t) p[t] = t == 0 ? init : op(init, p[t]);
  return p;
}
/// BlockScan over nt threads' N blocked items (x: nt * N values, in place).
template <class T, class Op>
void model_block_scan_items(std::vector<T>& x, int nt, int N, bool inclusive, T init, Op op) {
  std::vector<T> tot(nt);
  for (int t = 0; t < nt; ++t) {
    T acc = x[t * N];
    for (int i = 1; i < N; ++i) acc = op(acc, x[t * N + i]);
    tot[t] = acc;
  }
  const std::vector<T> p = model_block_prefix(tot, op);
  for (int t = 0; t < nt; ++t) {
    T* it = x.data() + t * N;
    if (inclusive) {
      T acc = t == 0 ? it[0] : op(p[t], it[0]);
      it[0] = acc;
      for (int i = 1; i < N; ++i) it[i] = acc = op(acc, it[i]);
    } else {
      T acc = t == 0 ? init : op(init, p[t]);
      for (int i = 0; i < N; ++i) {
        const T xi = it[i];
        it[i]      = acc;
        acc        = op(acc, xi);
      }
    }
  }
}
template <class T, class Op>
T model_block_reduce(const std::vector<T>& x, Op op) {
  const int nt = static_cast<int>(x.size()), warps = (nt + W - 1) / W;
  std::vector<T> tot(warps);
  for (int w = 0; w < warps; ++w) tot[w] = model_warp_reduce(x.data() + w * W, width_of(nt, w * W), op);
  return model_fold(tot, warps, op);
}

// ---- sequential references ------------------------------------------------

template <class T>
long double to_ld(T v) {
  return static_cast<long double>(v);
}

/// y == the sequential scan of x (integers) or within gamma_d sum |x_j| (floats).
template <class T>
bool scan_close(const T* x, const T* y, int n, bool inclusive, T init, long long depth, int* first_bad) {
  long double s = inclusive ? 0.0L : to_ld(init), abs = inclusive ? 0.0L : std::fabs(to_ld(init));
  for (int k = 0; k < n; ++k) {
    if (inclusive) {
      s += to_ld(x[k]);
      abs += std::fabs(to_ld(x[k]));
    }
    bool ok;
    if constexpr (std::is_floating_point<T>::value)
      ok = std::fabs(to_ld(y[k]) - s) <= check::gamma<T>(depth) * abs;
    else
      ok = to_ld(y[k]) == s;
    if (!ok) {
      *first_bad = k;
      return false;
    }
    if (!inclusive) {
      s += to_ld(x[k]);
      abs += std::fabs(to_ld(x[k]));
    }
  }
  return true;
}
template <class T>
bool sum_close(const T* x, int n, T got, long long depth) {
  long double s = 0, abs = 0;
  for (int k = 0; k < n; ++k) {
    s += to_ld(x[k]);
    abs += std::fabs(to_ld(x[k]));
  }
  if constexpr (std::is_floating_point<T>::value) return std::fabs(to_ld(got) - s) <= check::gamma<T>(depth) * abs;
  return to_ld(got) == s;
}
template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
/// Index of the first element whose bits differ, or -1.
template <class T>
long long first_diff(const T* a, const T* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!same_bits(a[i], b[i])) return static_cast<long long>(i);
  return -1;
}

template <class T, class Exec>
using DView = Kokkos::View<T*, typename Exec::memory_space>;

template <class T, class Exec>
DView<T, Exec> device_copy(const std::vector<T>& h, const char* label) {
  DView<T, Exec> d(std::string(label), h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}
template <class V>
std::vector<typename V::non_const_value_type> host_copy(const V& d) {
  auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return std::vector<typename V::non_const_value_type>(m.data(), m.data() + m.extent(0));
}
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed, bool with_zeros = false) {
  Kokkos::View<T*, Kokkos::HostSpace> v("v", n);
  test::fill_random(v, seed, with_zeros ? -3 : -1000, with_zeros ? 3 : 1000);
  return std::vector<T>(v.data(), v.data() + n);
}

// ---- layer kernels under test ----------------------------------------------

/// Warp collectives over `blocks` blocks of nt threads; x holds blocks * nt
/// values. incl/excl: warp scans with op; bcast: lane 0's value; shuf: lane
/// / 2's value; red: warp_reduce, one per warp (blocks * warps a block).
template <class Exec, class T, class Op>
void run_warp_ops(int nt, int blocks, const DView<T, Exec>& x, const DView<T, Exec>& incl, const DView<T, Exec>& excl,
                  const DView<T, Exec>& bcast, const DView<T, Exec>& shuf, const DView<T, Exec>& red, T init, Op op) {
  using B = Block<Exec>;
  const int warps = (nt + W - 1) / W;
  launch<TestBounds>(Exec(), "test::warp_ops", LaunchParams(Dim3(blocks), Dim3(nt)), KOKKOS_LAMBDA(const B& b) {
    const int bw = b.warp_size();
    PerThread<T, B, MAXT> v(b);
    const int base = b.block_rank() * nt;
    b.threads([&](const Thread& t) { v(t) = x(base + t.rank); });
    warp_inclusive_scan(b, v, op);
    b.threads([&](const Thread& t) {
      incl(base + t.rank) = v(t);
      v(t)                = x(base + t.rank);
    });
    warp_exclusive_scan(b, v, init, op);
    b.threads([&](const Thread& t) {
      excl(base + t.rank) = v(t);
      v(t)                = x(base + t.rank);
    });
    warp_broadcast(b, v, 0);
    b.threads([&](const Thread& t) {
      bcast(base + t.rank) = v(t);
      v(t)                 = x(base + t.rank);
    });
    warp_shuffle(b, v, [](int lane) { return lane / 2; });
    b.threads([&](const Thread& t) {
      shuf(base + t.rank) = v(t);
      v(t)                = x(base + t.rank);
    });
    warp_reduce(b, v, op);
    b.threads([&](const Thread& t) {
      if (t.rank % bw == 0) red(b.block_rank() * warps + t.rank / bw) = v(t);
    });
  });
  Exec().fence();
}

/// BlockScan (one value a thread) and BlockReduce over blocks of nt threads:
/// incl, excl (from init), red (thread 0 of each block: reduce), all (every
/// thread: all_reduce).
template <class Exec, class T, class Op>
void run_block_ops(int nt, int blocks, const DView<T, Exec>& x, const DView<T, Exec>& incl, const DView<T, Exec>& excl,
                   const DView<T, Exec>& red, const DView<T, Exec>& all, T init, Op op) {
  using B     = Block<Exec>;
  using Scan  = BlockScan<T, MAXT>;
  using Red   = BlockReduce<T, MAXT>;
  const auto p = LaunchParams(Dim3(blocks), Dim3(nt)).uses<Scan, Red>();
  launch<TestBounds>(Exec(), "test::block_ops", p, KOKKOS_LAMBDA(const B& b) {
    Scan scan(b);
    Red reduce(b);
    PerThread<T, B, MAXT> v(b);
    const int base = b.block_rank() * nt;
    b.threads([&](const Thread& t) { v(t) = x(base + t.rank); });
    scan.inclusive_scan(b, v, op);
    b.threads([&](const Thread& t) {
      incl(base + t.rank) = v(t);
      v(t)                = x(base + t.rank);
    });
    sync_threads(b);  // the scan's slots are reused
    scan.exclusive_scan(b, v, init, op);
    b.threads([&](const Thread& t) {
      excl(base + t.rank) = v(t);
      v(t)                = x(base + t.rank);
    });
    reduce.reduce(b, v, op);
    b.threads([&](const Thread& t) {
      if (t.rank == 0) red(b.block_rank()) = v(t);
      v(t) = x(base + t.rank);
    });
    sync_threads(b);
    reduce.all_reduce(b, v, op);
    b.threads([&](const Thread& t) { all(base + t.rank) = v(t); });
  });
  Exec().fence();
}

/// BlockScan and BlockReduce with N blocked items a thread (items read
/// directly: thread t's items are x(base + t*N + i)).
template <class Exec, class T, int N, class Op>
void run_block_items(int nt, int blocks, const DView<T, Exec>& x, const DView<T, Exec>& incl,
                     const DView<T, Exec>& excl, const DView<T, Exec>& red, T init, Op op) {
  using B    = Block<Exec>;
  using Scan = BlockScan<T, MAXT>;
  using Red  = BlockReduce<T, MAXT>;
  const auto p = LaunchParams(Dim3(blocks), Dim3(nt)).uses<Scan, Red>();
  launch<TestBounds>(Exec(), "test::block_items", p, KOKKOS_LAMBDA(const B& b) {
    Scan scan(b);
    Red reduce(b);
    PerThread<Items<T, N>, B, MAXT> it(b);
    PerThread<T, B, MAXT> v(b);
    const int base = b.block_rank() * nt * N;
    auto fill      = [&](const Thread& t) {
      for (int i = 0; i < N; ++i) it(t)[i] = x(base + t.rank * N + i);
    };
    b.threads(fill);
    scan.inclusive_scan(b, it, op);
    b.threads([&](const Thread& t) {
      for (int i = 0; i < N; ++i) incl(base + t.rank * N + i) = it(t)[i];
    });
    b.threads(fill);
    sync_threads(b);
    scan.exclusive_scan(b, it, init, op);
    b.threads([&](const Thread& t) {
      for (int i = 0; i < N; ++i) excl(base + t.rank * N + i) = it(t)[i];
    });
    b.threads(fill);
    reduce.reduce(b, it, v, op);
    b.threads([&](const Thread& t) {
      if (t.rank == 0) red(b.block_rank()) = v(t);
    });
  });
  Exec().fence();
}

/// BlockExchange of variant V, N items, over blocks of nt threads; `which`:
/// 0 load (striped, `valid` of each tile, fill -1) then blocked direct writes;
/// 1 blocked direct reads then store (`valid`); 2 striped direct reads,
/// striped_to_blocked, blocked direct writes; 3 blocked direct reads,
/// blocked_to_striped, striped direct writes. Every case is a copy of x.
template <class Exec, class T, int N, ExchangeVariant V>
void run_exchange(int which, int nt, int blocks, int valid, const DView<T, Exec>& x, const DView<T, Exec>& y) {
  using B  = Block<Exec>;
  using Ex = BlockExchange<T, MAXT, N, V>;
  const auto p = LaunchParams(Dim3(blocks), Dim3(nt)).uses<Ex>();
  launch<TestBounds>(Exec(), "test::exchange", p, KOKKOS_LAMBDA(const B& b) {
    Ex ex(b);
    PerThread<Items<T, N>, B, MAXT> it(b);
    const std::size_t base = static_cast<std::size_t>(b.block_rank()) * nt * N;
    if (which == 0) {
      ex.load(b, it, x, base, valid, T(-1));
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) y(base + t.rank * N + i) = it(t)[i];
      });
    } else if (which == 1) {
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) it(t)[i] = x(base + t.rank * N + i);
      });
      ex.store(b, it, y, base, valid);
    } else if (which == 2) {
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) it(t)[i] = x(base + Ex::striped_index(b, t, i));
      });
      ex.striped_to_blocked(b, it);
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) y(base + t.rank * N + i) = it(t)[i];
      });
    } else {
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) it(t)[i] = x(base + t.rank * N + i);
      });
      ex.blocked_to_striped(b, it);
      b.threads([&](const Thread& t) {
        for (int i = 0; i < N; ++i) y(base + Ex::striped_index(b, t, i)) = it(t)[i];
      });
    }
  });
  Exec().fence();
}

// ---- checks ----------------------------------------------------------------

template <class Exec, class T, class Op>
void check_warp_ops(int nt, Op op, bool with_zeros) {
  use_warp_of<Exec>();
  const int blocks = 3, warps = (nt + W - 1) / W;
  const auto seed  = test::case_seed(nt, sizeof(T), with_zeros);
  CAPTURE(Exec::name(), W, nt, sizeof(T), std::is_floating_point<T>::value, with_zeros, seed);
  const std::vector<T> hx = random_values<T>(static_cast<std::size_t>(blocks) * nt, seed, with_zeros);
  const T init            = std::is_same<Op, Plus>::value ? T(0) : T(2);
  auto x                  = device_copy<T, Exec>(hx, "x");
  DView<T, Exec> incl("incl", hx.size()), excl("excl", hx.size()), bcast("bcast", hx.size()),
      shuf("shuf", hx.size()), red("red", blocks * warps);
  run_warp_ops<Exec>(nt, blocks, x, incl, excl, bcast, shuf, red, init, op);
  const auto gi = host_copy(incl), ge = host_copy(excl), gb = host_copy(bcast), gs = host_copy(shuf),
             gr = host_copy(red);
  for (int blk = 0; blk < blocks; ++blk)
    for (int w0 = 0; w0 < nt; w0 += W) {
      const int width = width_of(nt, w0), o = blk * nt + w0;
      CAPTURE(blk, w0, width);
      std::vector<T> mi(hx.begin() + o, hx.begin() + o + width);
      model_warp_inclusive(mi.data(), width, op);
      CHECK(first_diff(gi.data() + o, mi.data(), width) == -1);
      for (int l = 0; l < width; ++l) {
        CHECK(same_bits(ge[o + l], l == 0 ? init : op(init, mi[l - 1])));
        CHECK(same_bits(gb[o + l], hx[o]));
        CHECK(same_bits(gs[o + l], hx[o + l / 2]));
      }
      CHECK(same_bits(gr[blk * warps + w0 / W], model_warp_reduce(hx.data() + o, width, op)));
      if (std::is_same<Op, Plus>::value) {  // the model itself against the sequential sums
        int bad = -1;
        CHECK(scan_close(hx.data() + o, gi.data() + o, width, true, init, LW, &bad));
        CHECK(scan_close(hx.data() + o, ge.data() + o, width, false, init, LW + 1, &bad));
        CAPTURE(bad);
        CHECK(sum_close(hx.data() + o, width, gr[blk * warps + w0 / W], LW));
      }
    }
}

template <class Exec, class T, class Op>
void check_block_ops(int nt, Op op, bool with_zeros) {
  use_warp_of<Exec>();
  const int blocks = 2, warps = (nt + W - 1) / W;
  const auto seed  = test::case_seed(nt, 10 + sizeof(T), with_zeros);
  CAPTURE(Exec::name(), W, nt, sizeof(T), std::is_floating_point<T>::value, with_zeros, seed);
  const std::vector<T> hx = random_values<T>(static_cast<std::size_t>(blocks) * nt, seed, with_zeros);
  const T init            = std::is_same<Op, Plus>::value ? T(0) : T(2);
  auto x                  = device_copy<T, Exec>(hx, "x");
  DView<T, Exec> incl("incl", hx.size()), excl("excl", hx.size()), red("red", blocks), all("all", hx.size());
  run_block_ops<Exec>(nt, blocks, x, incl, excl, red, all, init, op);
  const auto gi = host_copy(incl), ge = host_copy(excl), gr = host_copy(red), ga = host_copy(all);
  for (int blk = 0; blk < blocks; ++blk) {
    CAPTURE(blk);
    const std::vector<T> xb(hx.begin() + blk * nt, hx.begin() + (blk + 1) * nt);
    const auto mi = model_block_inclusive(xb, op), me = model_block_exclusive(xb, init, op);
    const T mr    = model_block_reduce(xb, op);
    CHECK(first_diff(gi.data() + blk * nt, mi.data(), nt) == -1);
    CHECK(first_diff(ge.data() + blk * nt, me.data(), nt) == -1);
    CHECK(same_bits(gr[blk], mr));
    for (int t = 0; t < nt; ++t) CHECK(same_bits(ga[blk * nt + t], mr));
    if (std::is_same<Op, Plus>::value) {
      int bad = -1;
      CHECK(scan_close(xb.data(), gi.data() + blk * nt, nt, true, init, LW + warps, &bad));
      CHECK(scan_close(xb.data(), ge.data() + blk * nt, nt, false, init, LW + 1 + warps, &bad));
      CAPTURE(bad);
      CHECK(sum_close(xb.data(), nt, gr[blk], LW - 1 + warps));
    } else {  // LatestNonzero (not commutative): the scans give the sequential result exactly
      // (reductions need a commutative operator: warp_reduce's tree pairs lane l with l + W/2 first)
      T s = init, r = xb[0];
      for (int t = 0; t < nt; ++t) {
        CHECK(ge[blk * nt + t] == s);
        s = op(s, xb[t]);
        if (t > 0) r = op(r, xb[t]);
        CHECK(gi[blk * nt + t] == (t == 0 ? xb[0] : r));
      }
    }
  }
}

template <class Exec, class T, int N, class Op>
void check_block_items(int nt, Op op, bool with_zeros) {
  use_warp_of<Exec>();
  const int blocks = 2, warps = (nt + W - 1) / W, tile = nt * N;
  const auto seed  = test::case_seed(nt, 20 + sizeof(T) + N, with_zeros);
  CAPTURE(Exec::name(), W, nt, N, sizeof(T), std::is_floating_point<T>::value, with_zeros, seed);
  const std::vector<T> hx = random_values<T>(static_cast<std::size_t>(blocks) * tile, seed, with_zeros);
  const T init            = std::is_same<Op, Plus>::value ? T(0) : T(2);
  auto x                  = device_copy<T, Exec>(hx, "x");
  DView<T, Exec> incl("incl", hx.size()), excl("excl", hx.size()), red("red", blocks);
  run_block_items<Exec, T, N>(nt, blocks, x, incl, excl, red, init, op);
  const auto gi = host_copy(incl), ge = host_copy(excl), gr = host_copy(red);
  for (int blk = 0; blk < blocks; ++blk) {
    CAPTURE(blk);
    const std::vector<T> xb(hx.begin() + blk * tile, hx.begin() + (blk + 1) * tile);
    std::vector<T> mi = xb, me = xb, tot(nt);
    model_block_scan_items(mi, nt, N, true, init, op);
    model_block_scan_items(me, nt, N, false, init, op);
    for (int t = 0; t < nt; ++t) {
      T acc = xb[t * N];
      for (int i = 1; i < N; ++i) acc = op(acc, xb[t * N + i]);
      tot[t] = acc;
    }
    CHECK(first_diff(gi.data() + blk * tile, mi.data(), tile) == -1);
    CHECK(first_diff(ge.data() + blk * tile, me.data(), tile) == -1);
    CHECK(same_bits(gr[blk], model_block_reduce(tot, op)));
    if (std::is_same<Op, Plus>::value) {
      int bad = -1;
      CHECK(scan_close(xb.data(), gi.data() + blk * tile, tile, true, init, 2 * (N - 1) + LW + 1 + warps, &bad));
      CHECK(scan_close(xb.data(), ge.data() + blk * tile, tile, false, init, 2 * (N - 1) + LW + 2 + warps, &bad));
      CAPTURE(bad);
      CHECK(sum_close(xb.data(), tile, gr[blk], N + LW - 2 + warps));
    }
  }
}

template <class Exec, class T, int N, ExchangeVariant V>
void check_exchange(int nt) {
  use_warp_of<Exec>();
  const int blocks = 3, tile = nt * N;
  for (int which = 0; which < 4; ++which)
    for (int valid : {tile, tile - 1, tile / 2 + 1, 1}) {
      if (which >= 2 && valid != tile) continue;  // the pure exchanges move whole tiles
      const auto seed = test::case_seed(nt, which * 4096 + valid, 30 + sizeof(T) + N);
      CAPTURE(Exec::name(), W, name(V), nt, N, which, valid, sizeof(T));
      const std::vector<T> hx = random_values<T>(static_cast<std::size_t>(blocks) * tile, seed);
      auto x = device_copy<T, Exec>(hx, "x");
      DView<T, Exec> y("y", hx.size());
      Kokkos::deep_copy(y, T(7));
      run_exchange<Exec, T, N, V>(which, nt, blocks, valid, x, y);
      const auto gy = host_copy(y);
      long long bad = -1;
      for (int blk = 0; blk < blocks && bad < 0; ++blk)
        for (int j = 0; j < tile; ++j) {
          const std::size_t k = static_cast<std::size_t>(blk) * tile + j;
          // load: fill (-1) past valid; store: y untouched (7) past valid
          const T want = j < valid ? hx[k] : (which == 0 ? T(-1) : T(7));
          if (!same_bits(gy[k], want)) {
            bad = static_cast<long long>(k);
            break;
          }
        }
      CAPTURE(bad);
      CHECK(bad == -1);
    }
}

// ---- tile kernels ------------------------------------------------------------

/// The tile kernels' results, from the model, for one input.
template <class T>
struct TileModel {
  std::vector<T> incl, excl, red, warp;
};
template <class T>
TileModel<T> tile_model(const std::vector<T>& x, int nt, int N) {
  const std::size_t n = x.size(), tile = static_cast<std::size_t>(nt) * N;
  TileModel<T> m{std::vector<T>(n), std::vector<T>(n), {}, std::vector<T>(n)};
  for (std::size_t base = 0; base < n; base += tile) {
    const std::size_t valid = n - base < tile ? n - base : tile;
    std::vector<T> t(tile, T(0));
    for (std::size_t j = 0; j < valid; ++j) t[j] = x[base + j];
    std::vector<T> a = t, b = t;
    model_block_scan_items(a, nt, N, true, T(0), Plus{});
    model_block_scan_items(b, nt, N, false, T(0), Plus{});
    for (std::size_t j = 0; j < valid; ++j) {
      m.incl[base + j] = a[j];
      m.excl[base + j] = b[j];
    }
    std::vector<T> acc(nt);  // striped: element i*nt + r to thread r, folded in i order
    for (int r = 0; r < nt; ++r) {
      T s = t[r];
      for (int i = 1; i < N; ++i) s = s + t[static_cast<std::size_t>(i) * nt + r];
      acc[r] = s;
    }
    m.red.push_back(model_block_reduce(acc, Plus{}));
  }
  for (std::size_t base = 0; base < n; base += nt) {
    std::vector<T> v(nt, T(0));
    for (std::size_t j = 0; j < static_cast<std::size_t>(nt) && base + j < n; ++j) v[j] = x[base + j];
    v = model_warp_scans(v, Plus{});
    for (std::size_t j = 0; j < static_cast<std::size_t>(nt) && base + j < n; ++j) m.warp[base + j] = v[j];
  }
  return m;
}

template <class Exec, class T>
void check_tile_kernels(std::size_t n, int nt, int N, const TileModel<T>& m, const std::vector<T>& hx,
                        Backend backend) {
  const std::size_t tile = static_cast<std::size_t>(nt) * N, tiles = (n + tile - 1) / tile;
  const int warps        = (nt + W - 1) / W;
  auto x                 = device_copy<T, Exec>(hx, "x");
  DView<T, Exec> y("y", n), r("r", tiles);
  for (auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
    CAPTURE(name(kind));
    tile_scan(Exec(), kind, x, y, nt, N, backend);
    Exec().fence();
    const auto gy = host_copy(y);
    const auto& want = kind == ScanKind::inclusive ? m.incl : m.excl;
    CHECK(first_diff(gy.data(), want.data(), n) == -1);
    for (std::size_t base = 0; base < n; base += tile) {  // and the sequential scan of each tile
      const int len = static_cast<int>(n - base < tile ? n - base : tile);
      int bad       = -1;
      CHECK(scan_close(hx.data() + base, gy.data() + base, len, kind == ScanKind::inclusive, T(0),
                       2 * (N - 1) + LW + 2 + warps, &bad));
    }
  }
  tile_reduce(Exec(), x, r, nt, N, backend);
  Exec().fence();
  const auto gr = host_copy(r);
  CHECK(first_diff(gr.data(), m.red.data(), tiles) == -1);
  for (std::size_t k = 0; k < tiles; ++k) {
    const std::size_t base = k * tile;
    CHECK(sum_close(hx.data() + base, static_cast<int>(n - base < tile ? n - base : tile), gr[k], N + LW - 2 + warps));
  }
  if (N == 3 || N == 4) {  // tile_warp_scan takes the block alone: once per block size
    tile_warp_scan(Exec(), x, y, nt, backend);
    Exec().fence();
    const auto gw = host_copy(y);
    CHECK(first_diff(gw.data(), m.warp.data(), n) == -1);
  }
}

template <class Exec>
void check_tile_exchange(std::size_t n, int nt, int N, Backend backend) {
  for (auto v : {ExchangeVariant::warp_transpose, ExchangeVariant::transpose}) {
    CAPTURE(name(v));
    const auto hi = random_values<std::int32_t>(n, test::case_seed(n, nt * 16 + N, 40));
    const auto hd = random_values<double>(n, test::case_seed(n, nt * 16 + N, 41));
    auto xi       = device_copy<std::int32_t, Exec>(hi, "xi");
    auto xd       = device_copy<double, Exec>(hd, "xd");
    DView<std::int32_t, Exec> yi("yi", n);
    DView<double, Exec> yd("yd", n);
    tile_exchange(Exec(), v, xi, yi, nt, N, backend);
    tile_exchange(Exec(), v, xd, yd, nt, N, backend);
    Exec().fence();
    const auto gi = host_copy(yi);
    const auto gd = host_copy(yd);
    CHECK(first_diff(gi.data(), hi.data(), n) == -1);
    CHECK(first_diff(gd.data(), hd.data(), n) == -1);
  }
}

struct Shape {
  int threads, items;
};
const Shape tile_shapes[] = {{256, 4}, {256, 8}, {80, 3}};
const std::size_t tile_sizes[] = {1, 5, 31, 239, 240, 241, 1023, 1024, 1025, 2047, 2048, 2049, 100003};

template <class Exec, class T>
void check_tiles_on(Backend backend) {
  use_warp_of<Exec>();
  for (const Shape s : tile_shapes)
    for (std::size_t n0 : tile_sizes) {
      const std::size_t n = test::sized(n0);
      const auto seed     = test::case_seed(n, s.threads * 16 + s.items, 50 + sizeof(T));
      CAPTURE(Exec::name(), W, name(backend), s.threads, s.items, n, sizeof(T), std::is_floating_point<T>::value, seed);
      const std::vector<T> hx = random_values<T>(n, seed);
      check_tile_kernels<Exec, T>(n, s.threads, s.items, tile_model(hx, s.threads, s.items), hx, backend);
    }
}

}  // namespace

#if SCRATCHKIT_TEST_PART == 0
TEMPLATE_LIST_TEST_CASE("Warp scans, shuffles and reductions follow the documented order at every block size",
                        "[collectives][warp]", test::Spaces) {
  using Exec = TestType;
  for (int nt : block_sizes) {
    check_warp_ops<Exec, std::int32_t>(nt, Plus{}, false);
    check_warp_ops<Exec, std::int32_t>(nt, LatestNonzero{}, true);
    check_warp_ops<Exec, float>(nt, Plus{}, false);
    check_warp_ops<Exec, double>(nt, Plus{}, false);
  }
}
#endif

#if SCRATCHKIT_TEST_PART == 3
TEMPLATE_LIST_TEST_CASE("Block scans and reductions of one value a thread match the model and the sequential result",
                        "[collectives][block]", test::Spaces) {
  using Exec = TestType;
  for (int nt : block_sizes) {
    check_block_ops<Exec, std::int32_t>(nt, Plus{}, false);
    check_block_ops<Exec, std::int32_t>(nt, LatestNonzero{}, true);
    check_block_ops<Exec, float>(nt, Plus{}, false);
    check_block_ops<Exec, double>(nt, Plus{}, false);
  }
}
#endif

#if SCRATCHKIT_TEST_PART == 1
TEMPLATE_LIST_TEST_CASE("Block scans and reductions of blocked items match the model and the sequential result",
                        "[collectives][block]", test::Spaces) {
  using Exec = TestType;
  for (int nt : block_sizes) {
    check_block_items<Exec, std::int32_t, 3>(nt, Plus{}, false);
    check_block_items<Exec, std::int32_t, 4>(nt, LatestNonzero{}, true);
    check_block_items<Exec, float, 4>(nt, Plus{}, false);
    check_block_items<Exec, double, 3>(nt, Plus{}, false);
  }
}
#endif

#if SCRATCHKIT_TEST_PART == 1
TEMPLATE_LIST_TEST_CASE("BlockExchange loads, stores and exchanges tiles in both arrangements",
                        "[collectives][exchange]", test::Spaces) {
  using Exec = TestType;
  for (int nt : block_sizes) {
    check_exchange<Exec, std::int32_t, 4, ExchangeVariant::warp_transpose>(nt);
    check_exchange<Exec, std::int32_t, 4, ExchangeVariant::transpose>(nt);
    check_exchange<Exec, double, 3, ExchangeVariant::warp_transpose>(nt);
    check_exchange<Exec, double, 3, ExchangeVariant::transpose>(nt);
  }
}
#endif

#if SCRATCHKIT_TEST_PART == 0
TEST_CASE("Block collectives say how much scratch they need at compile time", "[collectives]") {
  STATIC_REQUIRE(BlockScan<float, 256>::shmem_size() == 8 * sizeof(float));
  STATIC_REQUIRE(BlockReduce<double, 80>::shmem_size() == 3 * sizeof(double));
  STATIC_REQUIRE(BlockExchange<int, 256, 4>::shmem_size() == (1024 + 32) * sizeof(int));
  STATIC_REQUIRE(BlockExchange<double, 80, 3, ExchangeVariant::transpose>::shmem_size() == (240 + 7) * sizeof(double));
  STATIC_REQUIRE(BlockExchange<int, 256, 4>::slot(31) == 31);
  STATIC_REQUIRE(BlockExchange<int, 256, 4>::slot(32) == 33);
  // uses<> plans them like SharedArrays: the scan's 8 floats after the exchange's tile.
  const auto p = LaunchParams(Dim3(1), Dim3(256)).uses<BlockExchange<float, 256, 4>, BlockScan<float, 256>>();
  CHECK(p.static_bytes() == (1024 + 32) * sizeof(float) + 8 * sizeof(float));
}
#endif

#if SCRATCHKIT_TEST_PART == 2
TEMPLATE_LIST_TEST_CASE("Tile kernels on the layer match the model bit for bit and the sequential result",
                        "[collectives][tile]", test::Spaces) {
  using Exec = TestType;
  check_tiles_on<Exec, std::int32_t>(Backend::layer);
  check_tiles_on<Exec, float>(Backend::layer);
  check_tiles_on<Exec, double>(Backend::layer);
  for (const Shape s : tile_shapes)
    for (std::size_t n : {std::size_t(1), std::size_t(241), std::size_t(2049), std::size_t(100003)}) {
      CAPTURE(s.threads, s.items, n);
      check_tile_exchange<Exec>(n, s.threads, s.items, Backend::layer);
    }
}
#endif

#if SCRATCHKIT_TEST_PART == 2
TEST_CASE("Tile kernels reject shapes they are not built for and mismatched Views before launch",
          "[collectives][bad-input]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  Kokkos::View<float*, Kokkos::HostSpace> x("x", 1000), y("y", 1000), sums("sums", 1), none("none", 0);
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> xi("xi", 10), yi("yi", 10);
  CHECK_THROWS_AS(tile_scan(Exec(), ScanKind::inclusive, x, y, 128, 4), UnsupportedError);
  CHECK_THROWS_AS(tile_scan(Exec(), ScanKind::inclusive, x, y, 80, 4), UnsupportedError);
  CHECK_THROWS_AS(tile_scan(Exec(), static_cast<ScanKind>(7), x, y, 256, 4), UnsupportedError);
  CHECK_THROWS_AS(tile_scan(Exec(), ScanKind::inclusive, x, sums, 256, 4), ShapeError);
  CHECK_THROWS_AS(tile_reduce(Exec(), x, y, 256, 4), ShapeError);     // 1 tile of 1024: one sum
  CHECK_THROWS_AS(tile_reduce(Exec(), x, sums, 256, 2), UnsupportedError);
  CHECK_THROWS_AS(tile_warp_scan(Exec(), x, y, 96), UnsupportedError);
  CHECK_THROWS_AS(tile_exchange(Exec(), static_cast<ExchangeVariant>(9), xi, yi, 256, 4), UnsupportedError);
  CHECK_THROWS_AS(tile_scan(Exec(), ScanKind::inclusive, x, y, 256, 4, Backend::native), UnsupportedError);
  CHECK_THROWS_AS(tile_reduce(Exec(), x, sums, 256, 4, Backend::native), UnsupportedError);
  CHECK_THROWS_AS(tile_warp_scan(Exec(), x, y, 256, Backend::native), UnsupportedError);
  CHECK_THROWS_AS(tile_exchange(Exec(), ExchangeVariant::transpose, xi, yi, 256, 4, Backend::native),
                  UnsupportedError);
  tile_reduce(Exec(), x, sums, 256, 4);  // the right extent runs
  tile_scan(Exec(), ScanKind::exclusive, none, none, 256, 8);  // empty: nothing to launch
  Exec().fence();
  CHECK(sum_close(x.data(), 1000, sums(0), 1));  // zeros
}
#endif

#if SCRATCHKIT_TEST_PART == 2
TEST_CASE("Native CUDA tile kernels agree with the layer bit for bit", "[collectives][native][cross-check]") {
  test::require_gpu_twins();
#if SCRATCHKIT_TEST_TWINS
  // Both twins against the model (the layer's bits), so they agree with each other.
  check_tiles_on<Kokkos::Cuda, std::int32_t>(Backend::native);
  check_tiles_on<Kokkos::Cuda, float>(Backend::native);
  check_tiles_on<Kokkos::Cuda, double>(Backend::native);
  for (const Shape s : tile_shapes)
    for (std::size_t n : {std::size_t(1), std::size_t(241), std::size_t(2049), std::size_t(100003), test::sized(std::size_t(1) << 22)}) {
      CAPTURE(s.threads, s.items, n);
      check_tile_exchange<Kokkos::Cuda>(n, s.threads, s.items, Backend::native);
    }
  // And directly, layer against native on a large input.
  const std::size_t n = test::sized((std::size_t(1) << 22) + 5);
  const auto hx       = random_values<float>(n, test::case_seed(n, 77));
  auto x              = device_copy<float, Kokkos::Cuda>(hx, "x");
  for (const Shape s : tile_shapes) {
    CAPTURE(s.threads, s.items);
    DView<float, Kokkos::Cuda> a("a", n), b("b", n);
    for (auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
      tile_scan(Kokkos::Cuda(), kind, x, a, s.threads, s.items);
      tile_scan(Kokkos::Cuda(), kind, x, b, s.threads, s.items, Backend::native);
      Kokkos::fence();
      CHECK(test::same_bits(a, b));
    }
    tile_warp_scan(Kokkos::Cuda(), x, a, s.threads == 80 ? 80 : 256);
    tile_warp_scan(Kokkos::Cuda(), x, b, s.threads == 80 ? 80 : 256, Backend::native);
    Kokkos::fence();
    CHECK(test::same_bits(a, b));
    const std::size_t tiles = (n + s.threads * s.items - 1) / (s.threads * s.items);
    DView<float, Kokkos::Cuda> ra("ra", tiles), rb("rb", tiles);
    tile_reduce(Kokkos::Cuda(), x, ra, s.threads, s.items);
    tile_reduce(Kokkos::Cuda(), x, rb, s.threads, s.items, Backend::native);
    Kokkos::fence();
    CHECK(test::same_bits(ra, rb));
  }
#endif
}
#endif
