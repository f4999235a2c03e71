// SPDX-License-Identifier: BSD-3-Clause
// Helpers of the layout tests (test_layouts*.cpp): Views of every kind in poisoned backing arrays,
// and one call of each kernel on them against the host references.
#pragma once

#include "test_support.hpp"

#include <scratchkit/reference/reference.hpp>
#include <scratchkit/kernels/gemm.hpp>
#include <scratchkit/kernels/histogram.hpp>
#include <scratchkit/kernels/reduce.hpp>
#include <scratchkit/kernels/stencil_1d.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>
#include <scratchkit/kernels/transpose.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace scratchkit {
namespace layout_checks {

/// How a test View lies in its backing array.
enum class Kind {
  right,        ///< LayoutRight, the whole array
  left,         ///< LayoutLeft, the whole array
  sub_right,    ///< Kokkos::subview: a block at (1, 2, 3...) of a row-major array 3 larger per axis (pitched:
                ///< LayoutStride, or for rank 2 a LayoutRight with a row pitch, as Kokkos makes it)
  sub_left,     ///< the same of a column-major array
  every_other,  ///< LayoutStride, row-major with every other element along the last axis (no unit stride)
};
inline constexpr Kind all_kinds[] = {Kind::right, Kind::left, Kind::sub_right, Kind::sub_left, Kind::every_other};

inline const char* kind_name(Kind k) {
  switch (k) {
    case Kind::right: return "LayoutRight";
    case Kind::left: return "LayoutLeft";
    case Kind::sub_right: return "subview (block of a row-major array)";
    case Kind::sub_left: return "subview (block of a column-major array)";
    case Kind::every_other: return "LayoutStride (every other element)";
  }
  return "?";
}

template <class T, int R, class L, class Mem>
using Unmanaged = Kokkos::View<typename detail::add_rank<T, R>::type, L, Mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

/// A View of kind K with extents e in the backing array `buf` (allocated here,
/// poisoned), and its elements' offsets in buf in row-major order of e.
template <class T, int R, class Mem>
struct Placed {
  Kokkos::View<T*, Mem> buf;
  std::vector<std::size_t> at;  // buf offset of logical element i (row-major over e)
  std::array<int, R> e;

  template <Kind K>
  auto view(const std::array<int, R>& ext) {
    e = ext;
    std::size_t big = 1;
    for (int d = 0; d < R; ++d) big *= static_cast<std::size_t>(ext[d] + 3) * (K == Kind::every_other ? 2 : 1);
    buf = Kokkos::View<T*, Mem>("buf", big + 1);
    Kokkos::deep_copy(buf, test::poison<T>());
    const auto v = make<K>(std::make_index_sequence<R>{});
    locate(v);
    return v;
  }

 private:
  template <Kind K, std::size_t... I>
  auto make(std::index_sequence<I...>) {
    if constexpr (K == Kind::right) {
      return Unmanaged<T, R, Kokkos::LayoutRight, Mem>(buf.data(), e[I]...);
    } else if constexpr (K == Kind::left) {
      return Unmanaged<T, R, Kokkos::LayoutLeft, Mem>(buf.data(), e[I]...);
    } else if constexpr (K == Kind::sub_right || K == Kind::sub_left) {
      using L = std::conditional_t<K == Kind::sub_right, Kokkos::LayoutRight, Kokkos::LayoutLeft>;
      const Unmanaged<T, R, L, Mem> whole(buf.data(), (e[I] + 3)...);
      auto s = Kokkos::subview(whole, std::make_pair(static_cast<int>(I) + 1, static_cast<int>(I) + 1 + e[I])...);
      return s;  // LayoutStride; for rank 2 Kokkos keeps the pitched LayoutRight (LayoutLeft) type
    } else {
      Kokkos::LayoutStride l;
      std::size_t s = 2;
      for (int d = R - 1; d >= 0; --d) {
        l.dimension[d] = e[d];
        l.stride[d]    = s;
        s *= static_cast<std::size_t>(e[d] + 1);
      }
      return Unmanaged<T, R, Kokkos::LayoutStride, Mem>(buf.data() + 1, l);
    }
  }

  template <class V>
  void locate(const V& v) {
    std::size_t n = 1;
    for (int d = 0; d < R; ++d) n *= static_cast<std::size_t>(e[d]);
    at.resize(n);
    const std::size_t base = static_cast<std::size_t>(v.data() - buf.data());
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t rest = i, off = base;
      for (int d = R - 1; d >= 0; --d) {
        off += (rest % static_cast<std::size_t>(e[d])) * static_cast<std::size_t>(v.stride(d));
        rest /= static_cast<std::size_t>(e[d]);
      }
      at[i] = off;
    }
  }

 public:
  /// Writes the row-major host values h into the View's elements.
  void put(const std::vector<T>& h) {
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buf);
    for (std::size_t i = 0; i < at.size(); ++i) hb(at[i]) = h[i];
    Kokkos::deep_copy(buf, hb);
  }
  /// The View's elements in row-major order; `outside` counts backing elements that lost their poison.
  std::vector<T> get(std::size_t* outside = nullptr) const {
    auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buf);
    std::vector<T> h(at.size());
    std::vector<char> mine(hb.extent(0), 0);
    for (std::size_t i = 0; i < at.size(); ++i) {
      h[i]         = hb(at[i]);
      mine[at[i]] = 1;
    }
    if (outside) {
      const T p = test::poison<T>();
      *outside  = 0;
      for (std::size_t j = 0; j < hb.extent(0); ++j)
        if (!mine[j] && std::memcmp(&hb(j), &p, sizeof(T)) != 0) ++*outside;
    }
    return h;
  }
};

template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  Kokkos::View<T*, Kokkos::HostSpace> v("v", n);
  test::fill_random(v, seed);
  return std::vector<T>(v.data(), v.data() + n);
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

/// Runs f with Kind k as a compile-time constant.
template <class F>
void with_kind(Kind k, F&& f) {
  switch (k) {
    case Kind::right: return f(std::integral_constant<Kind, Kind::right>{});
    case Kind::left: return f(std::integral_constant<Kind, Kind::left>{});
    case Kind::sub_right: return f(std::integral_constant<Kind, Kind::sub_right>{});
    case Kind::sub_left: return f(std::integral_constant<Kind, Kind::sub_left>{});
    case Kind::every_other: return f(std::integral_constant<Kind, Kind::every_other>{});
  }
}

// ---------------------------------------------------------------- GEMM

inline const GemmVariant gemm_variants[] = {GemmVariant::naive, GemmVariant::tiled, GemmVariant::tiled_double_buffered,
                                     GemmVariant::register_blocked};


/// C = alpha*A*B + beta*C0 with A, B, C of kinds KA, KB, KC on `backend`; returns C row-major, checks the
/// reference bound and that nothing outside the Views changed. The kinds are template arguments so that
/// a unit instantiates only the combinations it runs.
template <class Exec, class T, Kind KA, Kind KB, Kind KC>
std::vector<T> gemm_on(GemmVariant v, int M, int N, int K, Backend backend = Backend::layer) {
  using Mem       = typename Exec::memory_space;
  const auto seed = test::case_seed(M, N, K);
  const T alpha = T(1.25), beta = T(-0.5);
  const auto hA = random_values<T>(static_cast<std::size_t>(M) * K, seed);
  const auto hB = random_values<T>(static_cast<std::size_t>(K) * N, seed + 1);
  const auto hC = random_values<T>(static_cast<std::size_t>(M) * N, seed + 2);
  Placed<T, 2, Mem> pa, pb, pc;
  const auto A = pa.template view<KA>({M, K});
  const auto B = pb.template view<KB>({K, N});
  const auto C = pc.template view<KC>({M, N});
  pa.put(hA);
  pb.put(hB);
  pc.put(hC);
  gemm(Exec(), v, alpha, A, B, beta, C, backend);
  Exec().fence();
  std::size_t outside = 0;
  const std::vector<T> out = pc.get(&outside);
  const auto res = check::gemm<T>(M, N, K, alpha, hA.data(), hB.data(), beta, hC.data(), out.data());
  CAPTURE(res.worst, outside);
  CHECK(res.bad == 0);
  CHECK(outside == 0);
  return out;
}

/// gemm_on with A, B and C all of kind k.
template <class Exec, class T>
std::vector<T> gemm_on(GemmVariant v, Kind k, int M, int N, int K, Backend backend = Backend::layer) {
  std::vector<T> out;
  with_kind(k, [&](auto KK) {
    constexpr Kind S = decltype(KK)::value;
    out = gemm_on<Exec, T, S, S, S>(v, M, N, K, backend);
  });
  return out;
}

// Odd sizes: partial tiles of every blocking (16; 128 x 128 x 8), K and N not multiples of a 16-byte vector,
// and sizes with a unit extent (both orders describe the same memory).
inline const int gemm_sizes[][3] = {{17, 31, 13}, {65, 63, 17}, {1, 129, 3}, {131, 67, 9}, {5, 7, 1}, {33, 1, 35}};

template <class Exec, class T>
void gemm_layouts() {
  for (auto v : gemm_variants)
    for (const auto& s : gemm_sizes) {
      CAPTURE(name(v), s[0], s[1], s[2], sizeof(T), Exec::name());
      const auto ref = gemm_on<Exec, T>(v, Kind::right, s[0], s[1], s[2]);
      for (const Kind k : all_kinds) {
        CAPTURE(kind_name(k));
        const auto got = gemm_on<Exec, T>(v, k, s[0], s[1], s[2]);
        // Each C element is the same k-ordered sum of the same products on every layout (a product's
        // operands only swap places on the reversed axes), except in the FP64 mma's hardware order.
        if (!(v == GemmVariant::register_blocked && detail::gemm_on_fp64_tensor_cores<Exec, T>()))
          CHECK(same_bits(got, ref));
      }
      // Mixed layouts: no mapping, the general strided path.
      gemm_on<Exec, T, Kind::left, Kind::right, Kind::sub_right>(v, s[0], s[1], s[2]);
      gemm_on<Exec, T, Kind::right, Kind::sub_left, Kind::left>(v, s[0], s[1], s[2]);
    }
}

// ---------------------------------------------------------------- 3-D stencil

inline const Stencil3DVariant stencil3d_variants[] = {Stencil3DVariant::tile_2d_halo, Stencil3DVariant::z_streaming};

/// The 7-point stencil with in, out of kinds KI, KO; checks the reference bound and the poison outside
/// the Views; returns out (row-major).
template <class Exec, class T, Kind KI, Kind KO>
std::vector<T> stencil3d_on(Stencil3DVariant v, int nz, int ny, int nx, Backend backend = Backend::layer) {
  using Mem       = typename Exec::memory_space;
  const auto seed = test::case_seed(nz, ny, static_cast<std::uint64_t>(nx) * 2 + sizeof(T));
  const T c0 = T(0.4), c1 = T(-0.1875);
  const auto hin = random_values<T>(static_cast<std::size_t>(nz) * ny * nx, seed);
  Placed<T, 3, Mem> pi, po;
  const auto in = pi.template view<KI>({nz, ny, nx});
  const auto o  = po.template view<KO>({nz, ny, nx});
  pi.put(hin);
  stencil_3d_7pt(Exec(), v, in, o, c0, c1, backend);
  Exec().fence();
  std::size_t outside = 0;
  const std::vector<T> out = po.get(&outside);
  const auto res = check::stencil_3d_7pt<T>(hin.data(), out.data(), nz, ny, nx, c0, c1);
  CAPTURE(res.worst, outside);
  CHECK(res.bad == 0);
  CHECK(outside == 0);
  return out;
}

/// stencil3d_on with in and out both of kind k.
template <class Exec, class T>
std::vector<T> stencil3d_on(Stencil3DVariant v, Kind k, int nz, int ny, int nx, Backend backend = Backend::layer) {
  std::vector<T> out;
  with_kind(k, [&](auto KK) {
    constexpr Kind S = decltype(KK)::value;
    out = stencil3d_on<Exec, T, S, S>(v, nz, ny, nx, backend);
  });
  return out;
}

inline const int stencil3d_sizes[][3] = {{3, 3, 3}, {5, 7, 33}, {33, 9, 5}, {17, 33, 65}, {1, 5, 7}, {7, 5, 1}, {37, 13, 97}};

template <class Exec, class T>
void stencil3d_layouts() {
  for (auto v : stencil3d_variants)
    for (const auto& s : stencil3d_sizes) {
      CAPTURE(name(v), s[0], s[1], s[2], sizeof(T), Exec::name());
      const auto right = stencil3d_on<Exec, T>(v, Kind::right, s[0], s[1], s[2]);
      const auto left  = stencil3d_on<Exec, T>(v, Kind::left, s[0], s[1], s[2]);
      // The neighbours are summed in memory order: a block of a row-major (column-major) array gives the
      // bits of LayoutRight (LayoutLeft), every other element those of LayoutRight.
      CHECK(same_bits(stencil3d_on<Exec, T>(v, Kind::sub_right, s[0], s[1], s[2]), right));
      CHECK(same_bits(stencil3d_on<Exec, T>(v, Kind::sub_left, s[0], s[1], s[2]), left));
      CHECK(same_bits(stencil3d_on<Exec, T>(v, Kind::every_other, s[0], s[1], s[2]), right));
      // Mixed: the general path, the row-major order.
      CHECK(same_bits(stencil3d_on<Exec, T, Kind::left, Kind::right>(v, s[0], s[1], s[2]), right));
      CHECK(same_bits(stencil3d_on<Exec, T, Kind::sub_right, Kind::right>(v, s[0], s[1], s[2]), right));
    }
}

// ---------------------------------------------------------------- transpose

inline const TransposeVariant transpose_variants[] = {TransposeVariant::naive, TransposeVariant::tiled,
                                               TransposeVariant::tiled_padded};

/// Transposes with in, out of kinds KI, KO and checks every element exactly; returns out (row-major).
template <class Exec, class T, Kind KI, Kind KO>
std::vector<T> transpose_on(TransposeVariant v, int rows, int cols, Backend backend = Backend::layer) {
  using Mem       = typename Exec::memory_space;
  const auto hin  = random_values<T>(static_cast<std::size_t>(rows) * cols, test::case_seed(rows, cols, 77));
  Placed<T, 2, Mem> pi, po;
  const auto in = pi.template view<KI>({rows, cols});
  const auto o  = po.template view<KO>({cols, rows});
  pi.put(hin);
  transpose(Exec(), v, in, o, backend);
  Exec().fence();
  std::size_t outside = 0;
  const std::vector<T> out = po.get(&outside);
  std::size_t bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const T a = hin[static_cast<std::size_t>(r) * cols + c], b = out[static_cast<std::size_t>(c) * rows + r];
      if (std::memcmp(&a, &b, sizeof(T)) != 0) ++bad;
    }
  CAPTURE(outside);
  CHECK(bad == 0);
  CHECK(outside == 0);
  return out;
}

/// transpose_on with in and out both of kind k.
template <class Exec, class T>
std::vector<T> transpose_on(TransposeVariant v, Kind k, int rows, int cols, Backend backend = Backend::layer) {
  std::vector<T> out;
  with_kind(k, [&](auto KK) {
    constexpr Kind S = decltype(KK)::value;
    out = transpose_on<Exec, T, S, S>(v, rows, cols, backend);
  });
  return out;
}

inline const int transpose_sizes[][2] = {{1, 1}, {31, 33}, {33, 31}, {257, 65}, {65, 257}, {1, 97}, {97, 1}};

template <class Exec, class T>
void transpose_layouts() {
  for (auto v : transpose_variants)
    for (const auto& s : transpose_sizes) {
      CAPTURE(name(v), s[0], s[1], sizeof(T), Exec::name());
      for (const Kind k : all_kinds) {
        CAPTURE(kind_name(k));
        transpose_on<Exec, T>(v, k, s[0], s[1]);
      }
      transpose_on<Exec, T, Kind::left, Kind::right>(v, s[0], s[1]);
      transpose_on<Exec, T, Kind::sub_right, Kind::sub_left>(v, s[0], s[1]);
    }
}

// ---------------------------------------------------------------- rank 1

/// Rank-1 kinds: LayoutRight, LayoutLeft (contiguous), a subview (contiguous, offset 1), every other element.
inline constexpr Kind rank1_kinds[] = {Kind::right, Kind::left, Kind::sub_right, Kind::every_other};

template <class Exec, class T>
void rank1_layouts() {
  using Mem = typename Exec::memory_space;
  for (const int n : {1, 37, 1000, 4097}) {
    const auto seed = test::case_seed(n, sizeof(T), 5);
    const auto hx   = random_values<T>(static_cast<std::size_t>(n), seed);
    const int R     = 3;
    const auto hw   = random_values<T>(2 * R + 1, seed + 1);
    for (const Kind k : rank1_kinds) {
      CAPTURE(n, kind_name(k), sizeof(T), Exec::name());
      with_kind(k, [&](auto KK) {
        constexpr Kind K = decltype(KK)::value;
        Placed<T, 1, Mem> px, po;
        const auto x = px.template view<K>({n});
        px.put(hx);
        // reduce: every variant and operator against the reference bound of its summation tree
        for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
          for (auto op : {ReduceOp::sum, ReduceOp::min, ReduceOp::max}) {
            CAPTURE(name(v), static_cast<int>(op));
            const T got    = reduce(Exec(), v, op, x);
            const auto res = check::reduce<T>(op, hx.data(), hx.size(), got, reduce_error_depth(Exec(), v, hx.size()));
            CHECK(res.bad == 0);
          }
        // stencil_1d: both variants, in and out of this kind, against the reference
        Kokkos::View<T*, Mem> w("w", 2 * R + 1);
        {
          auto hwv = Kokkos::create_mirror_view(w);
          for (int j = 0; j <= 2 * R; ++j) hwv(j) = hw[j];
          Kokkos::deep_copy(w, hwv);
        }
        for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
          CAPTURE(name(v));
          const auto out = po.template view<K>({n});
          stencil_1d(Exec(), v, x, w, out);
          Exec().fence();
          std::size_t outside = 0;
          const auto got      = po.get(&outside);
          const auto res      = check::stencil_1d<T>(hx.data(), hw.data(), R, got.data(), n);
          CHECK(res.bad == 0);
          CHECK(outside == 0);
        }
        // histogram: exact counts, the same as a host count with the kernel's binning
        const double lo = -0.75, hi = 0.5;
        const int bins  = 37;
        std::vector<std::uint32_t> expect(bins, 0);
        for (const T v : hx) {
          if (!(v >= T(lo) && v < T(hi))) continue;
          int b = static_cast<int>((static_cast<double>(v) - lo) / (hi - lo) * bins);
          expect[std::min(b, bins - 1)]++;
        }
        for (auto v : {HistogramVariant::global_atomic, HistogramVariant::shared_atomic}) {
          CAPTURE(name(v));
          Kokkos::View<std::uint32_t*, Mem> counts("counts", bins);
          histogram(Exec(), v, x, lo, hi, counts);
          auto hc = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
          std::uint32_t total = 0, want = 0;
          for (int b = 0; b < bins; ++b) {
            total += hc(b);
            want += expect[b];
          }
          CHECK(total == want);  // every value in range counted once, whatever the layout
          // and bin for bin equal to the contiguous View's counts
          Kokkos::View<T*, Mem> xc("xc", n);
          auto hxc = Kokkos::create_mirror_view(xc);
          for (int i = 0; i < n; ++i) hxc(i) = hx[i];
          Kokkos::deep_copy(xc, hxc);
          Kokkos::View<std::uint32_t*, Mem> cc("cc", bins);
          histogram(Exec(), v, xc, lo, hi, cc);
          CHECK(test::same_bits(counts, cc));
        }
      });
    }
  }
}

}  // namespace layout_checks
}  // namespace scratchkit
