// SPDX-License-Identifier: BSD-3-Clause
/// gemm: the layer implementation behind kernels/gemm.hpp (the public calls and contracts are there).
#pragma once

#include <scratchkit/detail/eti.hpp>
#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/detail/gemm/cp_async.hpp>
#include <scratchkit/detail/gemm/mma.hpp>
#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/detail/gemm/simt.hpp>
#include <scratchkit/detail/gemm/split_k.hpp>
#include <scratchkit/detail/gemm/tile_copy.hpp>
#include <scratchkit/detail/layout_map.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/gemm/native.hpp>
#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/detail/vector_load.hpp>
#include <scratchkit/detail/read_only.hpp>
#include <scratchkit/detail/scratch_room.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/tuning/gemm.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <sstream>
#include <type_traits>
#include <utility>

namespace scratchkit {
namespace detail {

/// Tile edge of GemmVariant::tiled and GemmVariant::tiled_double_buffered.
constexpr int gemm_tile = 16;

/// Elements of Scalar in one 16-byte vector.
template <class Scalar>
constexpr int gemm_vector_width = static_cast<int>(16 / sizeof(Scalar));

/// True when rows of the rank-2 View v can be read as 16-byte vectors: unit
/// stride along a row, row stride a multiple of 16 bytes, 16-byte aligned data.
template <class View>
bool gemm_rows_vectorizable(const View& v) {
  using Scalar     = typename View::non_const_value_type;
  constexpr int VW = gemm_vector_width<Scalar>;
  return v.stride(1) == 1 && v.stride(0) % VW == 0 && reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
}

/// The TM x TN block of C one thread of GemmVariant::register_blocked accumulates.
template <class Scalar, int TM, int TN>
struct GemmFragment {
  Scalar c[TM][TN];
};

template <class ExecSpace, class AV, class BV, class CV>
SCRATCHKIT_KERNEL_LINKAGE
void gemm_naive(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  constexpr int T = gemm_tile;
  const LaunchParams p(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T));
  launch<NoLaunchBounds, ScratchFallback::none>(exec, "scratchkit::gemm_naive", p, KOKKOS_LAMBDA(const B_t& b) {
    b.threads([&](const Thread& t) {
      const int r = b.block_idx().y * T + t.y, c = b.block_idx().x * T + t.x;
      if (r < M && c < N) {
        Scalar acc = 0;
        // read-only path (ld.global.nc), as the native twin's const __restrict__ loads. k is 64-bit: with an
        // int k, nvcc 13.0 sign-extends each unrolled k + j and recomputes A(r, k + j)'s address from r
        // (docs/performance.md, "GEMM").
        for (long long k = 0; k < K; ++k) acc += read_only(A, r, k) * read_only(B, k, c);
        C(r, c) = beta == Scalar(0) ? alpha * acc : gemm_epilogue(alpha, acc, beta, C(r, c));
      }
    });
  });
}

/// GemmVariant::tiled's block on a host backend where one team member runs it
/// (detail::host_direct): the same tiles (zero-padded at the edges) and the same
/// sums, each output over kk in order, with the output column innermost so that
/// the loop vectorises. acc: the block's T x T accumulators, rank = ty * T + tx.
template <int T, class B_t, class Scalar, class AV, class BV, class CV>
KOKKOS_INLINE_FUNCTION void gemm_tiled_host(const B_t& b, Scalar* as, Scalar* bs, Scalar* acc, int row0, int col0,
                                            int M, int N, int K, Scalar alpha, const AV& A, const BV& B, Scalar beta,
                                            const CV& C) {
  if constexpr (!B_t::is_gpu) {  // never called on a GPU (host_direct): nothing compiled for the device
    const int mr = M - row0 < T ? M - row0 : T, nc = N - col0 < T ? N - col0 : T;
    for (int i = 0; i < T * T; ++i) acc[i] = Scalar(0);
    for (int k0 = 0; k0 < K; k0 += T) {
      const int kc = K - k0 < T ? K - k0 : T;
      if (mr == T && kc == T && nc == T) {  // whole tiles: no test per element
        for (int ty = 0; ty < T; ++ty)
          for (int tx = 0; tx < T; ++tx) {
            as[ty * T + tx] = read_only(A, row0 + ty, k0 + tx);
            bs[ty * T + tx] = read_only(B, k0 + ty, col0 + tx);
          }
      } else {
        for (int ty = 0; ty < T; ++ty)
          for (int tx = 0; tx < T; ++tx) {
            as[ty * T + tx] = (ty < mr && tx < kc) ? read_only(A, row0 + ty, k0 + tx) : Scalar(0);
            bs[ty * T + tx] = (ty < kc && tx < nc) ? read_only(B, k0 + ty, col0 + tx) : Scalar(0);
          }
      }
      sync_threads(b);
      for (int ty = 0; ty < T; ++ty)
        for (int kk = 0; kk < T; ++kk) {
          const Scalar a = as[ty * T + kk];
          SCRATCHKIT_HOST_IVDEP
          SCRATCHKIT_HOST_NO_UNROLL
          for (int tx = 0; tx < T; ++tx) acc[ty * T + tx] += a * bs[kk * T + tx];
        }
      sync_threads(b);
    }
    for (int ty = 0; ty < mr; ++ty)
      for (int tx = 0; tx < nc; ++tx) {
        const int r = row0 + ty, c = col0 + tx;
        C(r, c) = beta == Scalar(0) ? alpha * acc[ty * T + tx] : gemm_epilogue(alpha, acc[ty * T + tx], beta, C(r, c));
      }
  } else {
    (void)b;
  }
}

template <class ExecSpace, class AV, class BV, class CV>
SCRATCHKIT_KERNEL_LINKAGE
void gemm_tiled(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  constexpr int T = gemm_tile;
  using Tile      = SharedArray<Scalar, T * T>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const auto p = LaunchParams(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T)).uses<Tile, Tile>();
  launch<NoLaunchBounds, ScratchFallback::none>(exec, "scratchkit::gemm_tiled", p, KOKKOS_LAMBDA(const B_t& b) {
    Tile As(b), Bs(b);
    PerThread<Scalar, B_t, T * T> acc(b);
    const int row0 = b.block_idx().y * T, col0 = b.block_idx().x * T;
    // Not `if constexpr`: nvcc refuses an extended lambda's first capture inside one.
    if (host_direct(b)) {
      gemm_tiled_host<T>(b, As.data(), Bs.data(), acc.impl_data(), row0, col0, M, N, K, alpha, A, B, beta, C);
      return;
    }
    b.threads([&](const Thread& t) { acc(t) = Scalar(0); });
    for (int k0 = 0; k0 < K; k0 += T) {
      b.threads([&](const Thread& t) {
        const int ar = row0 + t.y, ac = k0 + t.x;
        As[t.y * T + t.x] = (ar < M && ac < K) ? read_only(A, ar, ac) : Scalar(0);
        const int br = k0 + t.y, bc = col0 + t.x;
        Bs[t.y * T + t.x] = (br < K && bc < N) ? read_only(B, br, bc) : Scalar(0);
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        Scalar s = acc(t);
        for (int kk = 0; kk < T; ++kk) s += As[t.y * T + kk] * Bs[kk * T + t.x];
        acc(t) = s;
      });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) {
      const int r = row0 + t.y, c = col0 + t.x;
      if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc(t) : gemm_epilogue(alpha, acc(t), beta, C(r, c));
    });
  });
}

template <class ExecSpace, class AV, class BV, class CV>
SCRATCHKIT_KERNEL_LINKAGE
void gemm_tiled_double_buffered(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                                const BV& B, typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  constexpr int T  = gemm_tile;
  constexpr int TT = T * T;
  using Tiles      = SharedArray<Scalar, 2 * TT>;  // buffers 0 and 1 of one operand
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk = ceil_div(K, T);
  const auto p = LaunchParams(Dim3(ceil_div(N, T), ceil_div(M, T)), Dim3(T, T)).uses<Tiles, Tiles>();
  launch<NoLaunchBounds, ScratchFallback::none>(exec, "scratchkit::gemm_tiled_double_buffered", p, KOKKOS_LAMBDA(const B_t& b) {
    Tiles As(b), Bs(b);
    PerThread<Scalar, B_t, TT> acc(b);
    const int row0 = b.block_idx().y * T, col0 = b.block_idx().x * T;
    b.threads([&](const Thread& t) {
      acc(t)       = Scalar(0);
      const int ar = row0 + t.y, bc = col0 + t.x;
      As[t.y * T + t.x] = (ar < M && t.x < K) ? read_only(A, ar, t.x) : Scalar(0);
      Bs[t.y * T + t.x] = (t.y < K && bc < N) ? read_only(B, t.y, bc) : Scalar(0);
    });
    sync_threads(b);
    for (int kt = 0; kt < nk; ++kt) {
      const int cur   = (kt & 1) * TT, nxt = TT - cur;
      const bool more = kt + 1 < nk;
      b.threads([&](const Thread& t) {
        // Issue the loads of tile kt+1 first: they are in flight during the math on tile kt.
        Scalar na = Scalar(0), nb = Scalar(0);
        if (more) {
          const int k0 = (kt + 1) * T, ar = row0 + t.y, ac = k0 + t.x, br = k0 + t.y, bc = col0 + t.x;
          na = (ar < M && ac < K) ? read_only(A, ar, ac) : Scalar(0);
          nb = (br < K && bc < N) ? read_only(B, br, bc) : Scalar(0);
        }
        Scalar s = acc(t);
        for (int kk = 0; kk < T; ++kk) s += As[cur + t.y * T + kk] * Bs[cur + kk * T + t.x];
        acc(t) = s;
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (more) {
          As[nxt + t.y * T + t.x] = na;
          Bs[nxt + t.y * T + t.x] = nb;
        }
      });
      sync_threads(b);  // the only barrier of a k step
    }
    b.threads([&](const Thread& t) {
      const int r = row0 + t.y, c = col0 + t.x;
      if (r < M && c < N) C(r, c) = beta == Scalar(0) ? alpha * acc(t) : gemm_epilogue(alpha, acc(t), beta, C(r, c));
    });
  });
}

/// A rank-2 View as a raw pointer and strides (GemmMat): element (r, c) at
/// data + r*stride(0) + c*stride(1), the column stride 1 at compile time for
/// LayoutRight; T is the View's element type with or without const. Throws
/// ShapeError for strides above INT_MAX.
template <class T, class View>
GemmMat<T, std::is_same<typename View::array_layout, Kokkos::LayoutRight>::value> gemm_mat(const View& v,
                                                                                          const char* what) {
  if (v.stride(0) > static_cast<std::size_t>(INT_MAX) || v.stride(1) > static_cast<std::size_t>(INT_MAX)) {
    std::ostringstream os;
    os << "scratchkit::gemm: strides of " << what << " (" << v.stride(0) << ", " << v.stride(1)
       << ") above INT_MAX are not supported";
    throw ShapeError(os.str());
  }
  return {v.data(), static_cast<int>(v.stride(0)), static_cast<int>(v.stride(1))};
}

/// The end of a split block (after the barrier of its last slice; the native
/// twin's is gemm_split_finish in src/cuda/gemm_register_blocked.cuh): every
/// thread's E partial sums (acc_of(t)) to sp.work, a barrier, then thread 0
/// fences (release, for every thread's stores, which the barrier ordered
/// before its fence) and counts the block in the tile's counter. Returns false
/// in every block but the tile's last, which puts the counter back to zero,
/// fences (acquire) and gets the sums of all splits in split order
/// (gemm_split_sum: the same bits whichever block is last). `flag` is a word
/// of scratch no thread reads any more; it is read into a register and a
/// barrier passed before the next team on this CUDA block (Kokkos' league
/// loop) can write that word again.
template <int E, int NTH, class B_t, class S, class AccOf, class F>
KOKKOS_INLINE_FUNCTION bool gemm_split_finish(const B_t& blk, const GemmSplitK<S>& sp, int bx, int by, int nbx,
                                              const AccOf& acc_of, F* flag) {
  const int tile = gemm_split_tile(bx, by, nbx);
  S* const w     = sp.work + static_cast<std::size_t>(tile) * sp.plan.splits * (E * NTH);
  S* const wz    = w + static_cast<std::size_t>(blk.block_idx().z) * (E * NTH);
  blk.threads([&](const Thread& t) { gemm_split_put<E, NTH>(wz, t.rank, acc_of(t)); });
  sync_threads(blk);
  blk.threads([&](const Thread& t) {
    if (t.rank == 0) {
      Kokkos::memory_fence();  // the block's partial sums before the counter
      const bool last = Kokkos::atomic_fetch_add(sp.count + tile, 1u) == static_cast<unsigned>(sp.plan.splits - 1);
      if (last) {
        sp.count[tile] = 0u;     // for the next launch on this workspace (stream order)
        Kokkos::memory_fence();  // the other blocks' sums before this block's loads
      }
      *flag = last ? F(1) : F(0);
    }
  });
  sync_threads(blk);
  const bool last = *flag != F(0);
  sync_threads(blk);  // every thread has read the flag
  if (!last) return false;
  blk.threads([&](const Thread& t) { gemm_split_sum<E, NTH>(w, sp.plan.splits, t.rank, acc_of(t)); });
  return true;
}

/// The launch of a register_blocked block of blocking Blk over `grid` (GemmGrid),
/// `splits` blocks per tile along z, with the A and B slices ATiles, BTiles:
/// level 0 on a GPU; host backends (Kokkos 3.4 Serial: 32 KB of level 0) may
/// use level 1 for large blockings.
template <class Blk, class ExecSpace, class ATiles, class BTiles>
LaunchParams gemm_rb_params(const GemmGrid& grid, int splits) {
  LaunchParams p(Dim3(grid.gx, grid.gy, splits), Dim3(Blk::threads));
  p.uses<ATiles, BTiles>().fallback(is_gpu_space<ExecSpace>::value ? ScratchFallback::none : ScratchFallback::level1);
  return p;
}

/// Whether the SIMT register-blocked GEMM launches on Kokkos' generic TeamPolicy
/// driver rather than the layer's block driver (the GPU policy's choice,
/// tuning::GemmSm90<float>::simt_kokkos_driver); a tuner passes the other
/// value as gemm_register_blocked_simt's KokkosDriver argument.
constexpr bool gemm_simt_kokkos_driver = GemmDefaultBlocking<float>::simt_kokkos_driver;

/// The launch bounds register_blocked runs blocking Blk with (NT threads, MinB blocks per SM), which its
/// launches and the pick's room (gemm_layer_room) share: the tensor-core blockings on the layer's path
/// (the block driver where built), the CUDA-core ones on the driver KokkosDriver names.
template <class Blk, unsigned NT, unsigned MinB, bool KokkosDriver = gemm_simt_kokkos_driver>
using GemmRbBounds = KokkosDriverBounds<NT, MinB, !Blk::tensor_core && KokkosDriver>;

/// GemmVariant::register_blocked with blocking Blk (GemmBlocking): A^T and B
/// slices double-buffered in shared memory, slice kt+1 loaded into registers
/// (16-byte loads where the matrices allow) during the math on slice kt, one
/// barrier per slice, launch bounds (Blk::threads, Blk::min_blocks). The
/// matrices reach the kernel as raw pointers and strides (GemmMat); loads,
/// stores and math are the native twin's functions (gemm_simt_load,
/// gemm_simt_store, gemm_simt_compute). Split: sp.plan.splits blocks per tile,
/// block z on split z's slices, the tile's last block adding the partial sums
/// (gemm_split_finish); without it the kernel is the same as before the split.
template <class Blk, bool Split, bool KokkosDriver = gemm_simt_kokkos_driver, class ExecSpace, class AV, class BV,
          class CV>
SCRATCHKIT_KERNEL_LINKAGE
void gemm_register_blocked_simt(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                                const BV& B, typename CV::non_const_value_type beta, const CV& C,
                                const GemmSplitK<typename CV::non_const_value_type>& sp) {
  using Scalar = typename CV::non_const_value_type;
  using B_t    = Block<ExecSpace>;
  using Sh     = GemmRbShape<Blk, Scalar>;
  constexpr int BK = Blk::BK, TM = Blk::TM, TN = Blk::TN, NT = Blk::threads, VW = Sh::VW;
  constexpr int HA = Sh::a_size / 2, HB = Sh::b_size / 2;  // one buffer
  using ATiles = SharedArray<Scalar, Sh::a_size, 16>;     // A^T, buffers 0 and 1
  using BTiles = SharedArray<Scalar, Sh::b_size, 16>;     // B, buffers 0 and 1
  using Frag   = GemmFragment<Scalar, TM, TN>;
  using Pack   = GemmVec16<Scalar>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk_all = ceil_div(K, BK);
  // 16-byte loads need every vector of a row inside or outside the matrix: K (N) a multiple of VW.
  const bool a_vec = K % VW == 0 && gemm_rows_vectorizable(A);
  const bool b_vec = N % VW == 0 && gemm_rows_vectorizable(B);
  const auto a  = gemm_mat<const Scalar>(A, "A");
  const auto b_ = gemm_mat<const Scalar>(B, "B");
  const auto c  = gemm_mat<Scalar>(C, "C");
  const GemmGrid grid(ceil_div(N, Blk::BN), ceil_div(M, Blk::BM));
  const int lg = grid.lg, nbx = ceil_div(N, Blk::BN);
  const GemmSplitK<Scalar> spk = sp;
  const LaunchParams p = gemm_rb_params<Blk, ExecSpace, ATiles, BTiles>(grid, Split ? sp.plan.splits : 1);
  launch<GemmRbBounds<Blk, NT, Blk::min_blocks, KokkosDriver>, kernel_fallback<ExecSpace>>(exec, "scratchkit::gemm_register_blocked", p,
                                            KOKKOS_LAMBDA(const B_t& blk) {
    ATiles As(blk);
    BTiles Bs(blk);
    PerThread<Frag, B_t, NT> acc(blk);
    int bx, by;
    gemm_tile_of(blk.block_idx().x, blk.block_idx().y, lg, bx, by);
    const int row0 = by * Blk::BM, col0 = bx * Blk::BN;
    if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
    const int k0 = Split ? blk.block_idx().z * spk.plan.per : 0;   // first slice of this block
    const int nk = Split ? (nk_all - k0 < spk.plan.per ? nk_all - k0 : spk.plan.per) : nk_all;  // its slices
    Scalar* const as = As.data();
    Scalar* const bs = Bs.data();
    blk.threads([&](const Thread& t) {
      const int rank = gemm_thread_rank<NT>(t.rank);
      Frag& f        = acc(t);
      SCRATCHKIT_UNROLL
      for (int i = 0; i < TM; ++i) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < TN; ++j) f.c[i][j] = Scalar(0);
      }
      Pack ra[Sh::LA], rb[Sh::LB];
      // (plain ifs on the constant Blk::b_async: nvcc's extended lambdas cannot first-capture in if constexpr)
      if (Blk::b_async) gemm_simt_issue_b<Blk>(b_, N, K, col0, k0 * BK, rank, b_vec, bs);
      gemm_simt_load<Blk>(a, b_, M, N, K, row0, col0, k0 * BK, rank, a_vec, b_vec, ra, rb);
      gemm_simt_store<Blk>(as, bs, rank, ra, rb);
      if (Blk::b_async) gemm_cp_async_wait<0>();
    });
    sync_threads(blk);
    for (int kt = 0; kt < nk; ++kt) {
      const int cur   = kt & 1;
      const bool more = kt + 1 < nk;
      blk.threads([&](const Thread& t) {
        const int rank = gemm_thread_rank<NT>(t.rank);
        // Slice kt+1 goes to registers (B with Blk::b_async: to the other buffer by cp.async) first, so its
        // loads are in flight during the math on slice kt. The other buffer was last read before the previous
        // barrier: safe to overwrite.
        Pack ra[Sh::LA], rb[Sh::LB];
        if (Blk::b_async && more)
          gemm_simt_issue_b<Blk>(b_, N, K, col0, (k0 + kt + 1) * BK, rank, b_vec, bs + (1 - cur) * HB);
        if (more) gemm_simt_load<Blk>(a, b_, M, N, K, row0, col0, (k0 + kt + 1) * BK, rank, a_vec, b_vec, ra, rb);
        int m0, n0;
        gemm_simt_place<Blk, Scalar>(rank, m0, n0);
        gemm_simt_compute<Blk>(acc(t).c, as + cur * HA, bs + cur * HB, m0, n0);
        if (more) gemm_simt_store<Blk>(as + (1 - cur) * HA, bs + (1 - cur) * HB, rank, ra, rb);
        if (Blk::b_async) gemm_cp_async_wait<0>();
      });
      sync_threads(blk);  // the only barrier of a slice
    }
    if (Split && !gemm_split_finish<TM * TN, NT>(blk, spk, bx, by, nbx, [&](const Thread& t) { return &acc(t).c[0][0]; }, as))
      return;
    blk.threads([&](const Thread& t) {
      const Frag& f = acc(t);
      int m0, n0;
      gemm_simt_place<Blk, Scalar>(gemm_thread_rank<NT>(t.rank), m0, n0);
      SCRATCHKIT_UNROLL
      for (int i = 0; i < TM; ++i) {
        const int r = row0 + m0 + (i / VW) * Blk::LY * VW + i % VW;
        if (r >= M) continue;
        SCRATCHKIT_UNROLL
        for (int j = 0; j < TN; ++j) {
          const int cc = col0 + n0 + (j / VW) * Blk::LX * VW + j % VW;
          if (cc < N) {
            Scalar& out = c.p[c.at(r, cc)];
            out = beta == Scalar(0) ? alpha * f.c[i][j] : gemm_epilogue(alpha, f.c[i][j], beta, out);
          }
        }
      }
    });
  });
}

/// The accumulators of one thread of the tensor-core path: elements (g, 2t),
/// (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of each of its warp's MT x NT mma tiles.
template <int MT, int NT>
struct GemmMmaFragment {
  double c[MT][NT][4];
};

/// GemmVariant::register_blocked for double with a GemmMmaBlocking: Blk::stages
/// slices of BK = Blk::mma_k * Blk::KS in shared memory filled by cp.async (a ring,
/// GemmStageRing: one barrier per slice) while the FP64 tensor cores work on
/// an older one (Blk::KS m16n8k8 or m16n8k16 k-steps per slice). The
/// matrices reach the kernel as raw pointers and strides (GemmMat), not Views,
/// so that it keeps what the native twin keeps in registers; copies and math
/// are the native twin's functions (gemm_mma_issue, gemm_mma_compute).
template <class Blk, bool Split, class ExecSpace, class AV, class BV, class CV>
SCRATCHKIT_KERNEL_LINKAGE
void gemm_register_blocked_mma(const ExecSpace& exec, double alpha, const AV& A, const BV& B, double beta,
                               const CV& C, const GemmSplitK<double>& sp) {
  using B_t    = Block<ExecSpace>;
  constexpr int S = Blk::stages, SA = Blk::a_stage, SB = Blk::b_stage, BK = Blk::BK, NT = Blk::threads;
  constexpr int VW = gemm_vector_width<double>;
  using ATiles = SharedArray<double, S * SA, 16>;  // A by rows, stages 0 .. S-1
  using BTiles = SharedArray<double, S * SB, 16>;  // B by rows, stages 0 .. S-1
  using Frag   = GemmMmaFragment<Blk::MT, Blk::NT>;
  const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
            K = static_cast<int>(A.extent(1));
  const int nk_all = ceil_div(K, BK);
  const bool a_vec = K % VW == 0 && gemm_rows_vectorizable(A);
  const bool b_vec = N % VW == 0 && gemm_rows_vectorizable(B);
  const auto a = gemm_mat<const double>(A, "A");
  const auto b_ = gemm_mat<const double>(B, "B");
  const auto c  = gemm_mat<double>(C, "C");
  // Blk::smem_bytes of level 0: up to the opt-in maximum on the CUDA block driver, ~40 KB on Kokkos' own
  // driver (gemm_register_blocked_default checks before choosing).
  const GemmGrid grid(ceil_div(N, Blk::BN), ceil_div(M, Blk::BM));
  const int lg = grid.lg, nbx = ceil_div(N, Blk::BN);
  const GemmSplitK<double> spk = sp;
  const LaunchParams p = gemm_rb_params<Blk, ExecSpace, ATiles, BTiles>(grid, Split ? sp.plan.splits : 1);
  launch<GemmRbBounds<Blk, NT, Blk::min_blocks>, kernel_fallback<ExecSpace>>(exec, "scratchkit::gemm_register_blocked", p,
                                            KOKKOS_LAMBDA(const B_t& blk) {
    ATiles As(blk);
    BTiles Bs(blk);
    PerThread<Frag, B_t, NT> acc(blk);
    PerThread<GemmMmaLane<Blk>, B_t, NT> lane(blk);  // fragment offsets, computed once
    int bx, by;
    gemm_tile_of(blk.block_idx().x, blk.block_idx().y, lg, bx, by);
    const int row0 = by * Blk::BM, col0 = bx * Blk::BN;
    if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
    const int k0 = Split ? blk.block_idx().z * spk.plan.per : 0;   // first slice of this block
    const int nk = Split ? (nk_all - k0 < spk.plan.per ? nk_all - k0 : spk.plan.per) : nk_all;  // its slices
    double* const as = As.data();
    double* const bs = Bs.data();
    blk.threads([&](const Thread& t) {
      lane(t) = GemmMmaLane<Blk>(t.rank);
      Frag& f = acc(t);
      SCRATCHKIT_UNROLL
      for (int i = 0; i < Blk::MT; ++i) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < Blk::NT; ++j) {
          SCRATCHKIT_UNROLL
          for (int e = 0; e < 4; ++e) f.c[i][j][e] = 0.0;
        }
      }
      SCRATCHKIT_UNROLL
      for (int s = 0; s < S - 1; ++s) {
        if (s < nk)
          gemm_mma_issue<Blk>(a, b_, M, N, K, row0, col0, (k0 + s) * BK, t.rank, a_vec, b_vec, as + s * SA, bs + s * SB);
        gemm_cp_async_commit();
      }
      gemm_cp_async_wait<S - 2>();
    });
    sync_threads(blk);
    GemmStageRing<S> ring;
    for (int kt = 0; kt < nk; ++kt) {
      const int wr = ring.write(), rd = ring.rd;
      blk.threads([&](const Thread& t) {
        // The copies of slice kt+S-1 go between the first fragment reads of slice kt and its mma (native too).
        gemm_mma_compute<Blk>(acc(t).c, as + rd * SA, bs + rd * SB, lane(t), t.rank, [&] {
          if (kt + S - 1 < nk)
            gemm_mma_issue<Blk>(a, b_, M, N, K, row0, col0, (k0 + kt + S - 1) * BK, t.rank, a_vec, b_vec,
                                as + wr * SA, bs + wr * SB);
          gemm_cp_async_commit();
        });
        gemm_cp_async_wait<S - 2>();
      });
      sync_threads(blk);  // the only barrier of a slice
      ring.next();
    }
    if (Split && !gemm_split_finish<Blk::MT * Blk::NT * 4, NT>(blk, spk, bx, by, nbx,
                                                               [&](const Thread& t) { return &acc(t).c[0][0][0]; }, as))
      return;
    blk.threads([&](const Thread& t) {
      const Frag& f = acc(t);
      const int warp = t.rank / 32, ln = t.rank % 32;
      const int m0 = row0 + (warp / Blk::WX) * Blk::WM + ln / 4;
      const int n0 = col0 + (warp % Blk::WX) * Blk::WN + 2 * (ln % 4);
      SCRATCHKIT_UNROLL
      for (int i = 0; i < Blk::MT; ++i) {
        SCRATCHKIT_UNROLL
        for (int j = 0; j < Blk::NT; ++j) {
          SCRATCHKIT_UNROLL
          for (int e = 0; e < 4; ++e) {
            const int r = m0 + i * 16 + 8 * (e / 2), cc = n0 + j * 8 + e % 2;
            if (r < M && cc < N) {
              double& out = c.p[c.at(r, cc)];
              out = beta == 0.0 ? alpha * f.c[i][j][e] : gemm_epilogue(alpha, f.c[i][j][e], beta, out);
            }
          }
        }
      }
    });
  });
}

/// GemmVariant::register_blocked with blocking Blk: a GemmBlocking runs on the
/// CUDA cores (any type), a GemmMmaBlocking on the FP64 tensor cores (double).
/// Split along K where sp.plan.splits > 1 (sp.count and sp.work: the
/// workspace; gemm_split_workspace on CUDA, any zeroed device buffers of the
/// sizes GemmSplitK states elsewhere).
template <class Blk, class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                           const BV& B, typename CV::non_const_value_type beta, const CV& C,
                           const GemmSplitK<typename CV::non_const_value_type>& sp = {}) {
  using Scalar = typename CV::non_const_value_type;
  if (sp.plan.splits > 1) gemm_split_require<Blk>(sp.plan, static_cast<int>(A.extent(1)));
  if constexpr (Blk::tensor_core) {
    static_assert(std::is_same<Scalar, double>::value, "register_blocked: the tensor-core blocking is for double");
    if (sp.plan.splits > 1)
      gemm_register_blocked_mma<Blk, true>(exec, alpha, A, B, beta, C, sp);
    else
      gemm_register_blocked_mma<Blk, false>(exec, alpha, A, B, beta, C, sp);
  } else {
    if (sp.plan.splits > 1)
      gemm_register_blocked_simt<Blk, true>(exec, alpha, A, B, beta, C, sp);
    else
      gemm_register_blocked_simt<Blk, false>(exec, alpha, A, B, beta, C, sp);
  }
}

static_assert(scratch_room_granule == base_alignment, "detail::level0_room counts the layer's level-0 request");

/// The room a register_blocked launch of Scalar has on exec (detail/gemm/pick.hpp): the level 0 of the
/// launch path its blockings take (double: the CUDA block driver where built, which opts in above 48 KB;
/// float: the path of tuning::GemmSm90<float>::simt_kokkos_driver; elsewhere Kokkos'
/// TeamPolicy::scratch_size_max(0)) for the policy's largest team, less the layer's slack; the device's
/// shared memory per SM; its SMs on Kokkos::Cuda, where few_type is split along K.
template <class Scalar, class ExecSpace>
GemmRoom gemm_layer_room(const ExecSpace& exec) {
  constexpr int NT = gemm_pick_threads<Scalar>();
  using Bounds     = GemmRbBounds<typename GemmDefaultBlocking<Scalar>::type, NT, 1>;
  static_assert(GemmDefaultBlocking<Scalar>::type::tensor_core == GemmDefaultBlocking<Scalar>::few_type::tensor_core,
                "gemm_layer_room: one launch path for all of a type's blockings");
  const DeviceLimits f = device_limits(exec);
  GemmRoom r;
  r.level0 = level0_room(level0_max<ExecSpace, Bounds>(NT));
  r.per_sm = f.shared_per_sm;
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) r.sms = f.sm_count;
#endif
  return r;
}

/// The blocking register_blocked runs for an M x N x K product of Scalar on GPU exec: gemm_pick with
/// exec's room (gemm_layer_room). Backend::native hands the same value to the native twin.
template <class Scalar, class ExecSpace>
GemmPick gemm_layer_pick(const ExecSpace& exec, int M, int N, int K) {
  return gemm_pick<Scalar>(M, N, K, gemm_layer_room<Scalar>(exec));
}

#if defined(KOKKOS_ENABLE_CUDA)
/// The layer's split-K workspaces, one per (device, stream), freed at Kokkos::finalize.
struct GemmSplitBuffers {
  struct Buffer {
    Kokkos::View<unsigned char*, Kokkos::CudaSpace> v;
    std::size_t count_size = 0, work_size = 0;  ///< bytes: counters (a multiple of 256), partial sums
  };
  std::mutex m;
  std::map<std::pair<int, cudaStream_t>, Buffer> buffers;
};
inline GemmSplitBuffers& gemm_split_buffers() {
  static GemmSplitBuffers* const b = [] {
    auto* p = new GemmSplitBuffers;
    Kokkos::push_finalize_hook([p] {
      std::lock_guard<std::mutex> lock(p->m);
      Kokkos::fence();  // launches still using them
      p->buffers.clear();
    });
    return p;
  }();
  return *b;
}

/// The split-K workspace of exec's stream, of at least `need` bytes
/// (gemm_split_bytes), handed to launch(sp) under the workspaces' lock (the native
/// twin's is gemm_split_workspace in src/cuda/gemm_register_blocked.cuh; the
/// same reasons): grown when a launch needs more and kept, its counters zeroed
/// on exec when allocated. One per stream because a launch's last blocks put
/// its counters back to zero only by the launch's end: the next launch on the
/// same stream may reuse them, a concurrent one on another stream may not. The
/// lock is held until the kernel is queued, so that no other host thread can
/// grow (free) the buffer between this launch's pointers and its launch.
template <class S, class Launch>
void gemm_split_workspace(const Kokkos::Cuda& exec, const GemmSplit& plan, const GemmSplitBytes& need,
                          const Launch& launch) {
  GemmSplitBuffers& all = gemm_split_buffers();
  std::lock_guard<std::mutex> lock(all.m);
  auto& b = all.buffers[{exec.cuda_device(), exec.cuda_stream()}];
  if (b.v.data() == nullptr || b.count_size < need.count || b.work_size < need.work) {
    if (b.v.data() != nullptr) {
      exec.fence();  // launches still using the old buffer
      b.v = {};
    }
    b.count_size = need.count > b.count_size ? need.count : b.count_size;
    b.work_size  = need.work > b.work_size ? need.work : b.work_size;
    b.v = Kokkos::View<unsigned char*, Kokkos::CudaSpace>(Kokkos::view_alloc(exec, "scratchkit::gemm_split_k"),
                                                          b.count_size + b.work_size);  // zeroed on exec
  }
  GemmSplitK<S> sp;
  sp.plan  = plan;
  sp.count = reinterpret_cast<unsigned*>(b.v.data());
  sp.work  = reinterpret_cast<S*>(b.v.data() + b.count_size);
  launch(sp);
}
#endif

/// register_blocked with a few-tile blocking Blk split along K as `plan` says (gemm_pick's: on
/// Kokkos::Cuda where its tiles leave SMs idle, gemm_split_plan; the native twin receives the same plan,
/// so the twins still give the same bits); plan.splits == 1: not split.
template <class Blk, class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked_few(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                               const BV& B, typename CV::non_const_value_type beta, const CV& C,
                               const GemmSplit& plan) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) {
    using Scalar = typename CV::non_const_value_type;
    if (plan.splits > 1) {
      const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1));
      gemm_split_workspace<Scalar>(exec, plan, gemm_split_bytes<Blk, Scalar>(M, N, plan), [&](const GemmSplitK<Scalar>& sp) {
        gemm_register_blocked<Blk>(exec, alpha, A, B, beta, C, sp);
      });
      return;
    }
  }
#endif
  if (plan.splits > 1) throw Error("scratchkit::gemm: a split-K plan outside Kokkos::Cuda");
  gemm_register_blocked<Blk>(exec, alpha, A, B, beta, C);
}

/// Whether kind K is one of the FP64 tensor-core blockings compiled apart (tiny_type, small_type, large_type).
template <GemmBlockingKind K>
constexpr bool gemm_mma_pick_kind = K == GemmBlockingKind::tiny || K == GemmBlockingKind::small ||
                                    K == GemmBlockingKind::large;

/// The FP64 tensor-core blockings (tiny_type, small_type, large_type) of double on a GPU, apart from
/// gemm_register_blocked_default so that the library compiles them in a unit of their own (gemm_rb_mma,
/// cmake/scratchkitEti.cmake). False where `kind` is none of them or the call is not double on a GPU.
template <class ExecSpace, class AV, class BV, class CV>
bool gemm_register_blocked_mma_pick(const ExecSpace& exec, GemmBlockingKind kind,
                                    typename CV::non_const_value_type alpha, const AV& A, const BV& B,
                                    typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  if constexpr (is_gpu_space<ExecSpace>::value && std::is_same<Scalar, double>::value) {
    return gemm_visit_blocking<Scalar>(kind, [&](auto tag) {
      using Tag = decltype(tag);
      if constexpr (gemm_mma_pick_kind<Tag::kind>) {
        gemm_register_blocked<typename Tag::type>(exec, alpha, A, B, beta, C);
        return true;
      } else {
        return false;
      }
    }, [] { return false; });
  } else {
    (void)exec, (void)kind, (void)alpha, (void)A, (void)B, (void)beta, (void)C;
    return false;
  }
}

/// GemmVariant::register_blocked with the default blocking of the type. On a GPU the blocking gemm_pick
/// chooses for C's shape and the room of the launch path (gemm_layer_pick: few_type, split along K on
/// CUDA, for products of few tiles; for double the FP64 tensor-core blockings tiny_type, small_type or
/// large_type where the launch has room for them, else few_type or `type`); the native twin receives
/// the same pick, so the twins run the same blocking and give the same bits. Host backends run the host
/// policy's blocking (tuning::GemmHost) at every size.
template <class ExecSpace, class AV, class BV, class CV>
void gemm_register_blocked_default(const ExecSpace& exec, typename CV::non_const_value_type alpha, const AV& A,
                                   const BV& B, typename CV::non_const_value_type beta, const CV& C) {
  using Scalar = typename CV::non_const_value_type;
  if constexpr (is_gpu_space<ExecSpace>::value) {
    const GemmPick pick = gemm_layer_pick<Scalar>(exec, static_cast<int>(C.extent(0)), static_cast<int>(C.extent(1)),
                                                  static_cast<int>(A.extent(1)));
    if (gemm_register_blocked_mma_pick(exec, pick.blocking, alpha, A, B, beta, C)) return;
    gemm_visit_blocking<Scalar>(pick.blocking, [&](auto tag) {
      using Tag = decltype(tag);
      if constexpr (Tag::kind == GemmBlockingKind::few)
        gemm_register_blocked_few<typename Tag::type>(exec, alpha, A, B, beta, C, pick.split);
      else if constexpr (!gemm_mma_pick_kind<Tag::kind>)
        gemm_register_blocked<typename Tag::type>(exec, alpha, A, B, beta, C);
    }, [] { throw Error("scratchkit::gemm: register_blocked has no such blocking for this type"); });
  } else {
    gemm_register_blocked<typename tuning::GemmPolicy<tuning::host_arch, Scalar>::type>(exec, alpha, A, B, beta, C);
  }
}

/// True when GemmVariant::register_blocked of Scalar on ExecSpace runs on the FP64
/// tensor cores (double, Kokkos::Cuda, a GemmMmaBlocking default): the order of the
/// additions inside one mma is the hardware's there, equal to the other variants'
/// sums up to rounding only.
template <class ExecSpace, class Scalar>
constexpr bool gemm_on_fp64_tensor_cores() {
#ifdef KOKKOS_ENABLE_CUDA
  return std::is_same<ExecSpace, Kokkos::Cuda>::value && std::is_same<Scalar, double>::value &&
         GemmDefaultBlocking<double>::type::tensor_core;
#else
  return false;
#endif
}

/// The row-major GEMM on `backend` (after the checks and the layout mapping of scratchkit::gemm).
template <class ExecSpace, class AV, class BV, class CV>
void gemm_run(const ExecSpace& exec, GemmVariant variant, typename CV::non_const_value_type alpha, const AV& A,
              const BV& B, typename CV::non_const_value_type beta, const CV& C, Backend backend) {
  if (backend == Backend::native)
    return native_run(exec, "gemm", {"A", "B", "C"}, [&](auto stream) {
      // The blocking the layer would run on exec, so that both backends run the
      // same one on any launch path.
      const int M = static_cast<int>(C.extent(0)), N = static_cast<int>(C.extent(1)),
                K = static_cast<int>(A.extent(1));
      const GemmPick pick = variant == GemmVariant::register_blocked && M > 0 && N > 0
                                ? gemm_layer_pick<typename CV::non_const_value_type>(exec, M, N, K)
                                : GemmPick{};
      native::cuda::detail::gemm(variant, M, N, K, alpha, A.data(), B.data(), beta, C.data(), stream, pick);
    }, A, B, C);
  if (C.extent(0) == 0 || C.extent(1) == 0) return;
  switch (variant) {
    case GemmVariant::naive: detail::gemm_naive(exec, alpha, A, B, beta, C); return;
    case GemmVariant::tiled: detail::gemm_tiled(exec, alpha, A, B, beta, C); return;
    case GemmVariant::tiled_double_buffered:
      detail::gemm_tiled_double_buffered(exec, alpha, A, B, beta, C);
      return;
    case GemmVariant::register_blocked:
      detail::gemm_register_blocked_default(exec, alpha, A, B, beta, C);
      return;
  }
  throw UnsupportedError(std::string("scratchkit::gemm: variant ") + name(variant) + " is not implemented on the layer");
}

}  // namespace detail
}  // namespace scratchkit

/// gemm's entry point for execution space E, element type T, layout L (detail/eti.hpp).
#define SCRATCHKIT_ETI_GEMM(PREFIX, E, T, L)                                                                     \
  PREFIX template void scratchkit::detail::gemm_run<E, scratchkit::detail::EtiView<const T, 2, L, E>,           \
                                                     scratchkit::detail::EtiView<const T, 2, L, E>,             \
                                                     scratchkit::detail::EtiView<T, 2, L, E>>(                   \
      const E&, scratchkit::GemmVariant, T, const scratchkit::detail::EtiView<const T, 2, L, E>&,                \
      const scratchkit::detail::EtiView<const T, 2, L, E>&, T, const scratchkit::detail::EtiView<T, 2, L, E>&,   \
      scratchkit::Backend);
/// The register-blocked default, instantiated in its own unit (cmake/scratchkitEti.cmake): gemm's under a minute.
#define SCRATCHKIT_ETI_GEMM_RB(PREFIX, E, T, L)                                                                     \
  PREFIX template void                                                                                             \
  scratchkit::detail::gemm_register_blocked_default<E, scratchkit::detail::EtiView<const T, 2, L, E>,              \
                                                    scratchkit::detail::EtiView<const T, 2, L, E>,                 \
                                                    scratchkit::detail::EtiView<T, 2, L, E>>(                      \
      const E&, T, const scratchkit::detail::EtiView<const T, 2, L, E>&,                                           \
      const scratchkit::detail::EtiView<const T, 2, L, E>&, T, const scratchkit::detail::EtiView<T, 2, L, E>&);
/// The FP64 tensor-core blockings, in a unit of their own (double only).
#define SCRATCHKIT_ETI_GEMM_RB_MMA(PREFIX, E, T, L)                                                                 \
  PREFIX template bool                                                                                             \
  scratchkit::detail::gemm_register_blocked_mma_pick<E, scratchkit::detail::EtiView<const T, 2, L, E>,             \
                                                     scratchkit::detail::EtiView<const T, 2, L, E>,                \
                                                     scratchkit::detail::EtiView<T, 2, L, E>>(                     \
      const E&, scratchkit::detail::GemmBlockingKind, T, const scratchkit::detail::EtiView<const T, 2, L, E>&,      \
      const scratchkit::detail::EtiView<const T, 2, L, E>&, T, const scratchkit::detail::EtiView<T, 2, L, E>&);
#if SCRATCHKIT_ETI
#define SCRATCHKIT_ETI_GEMM_EXTERN(E, T, L) \
  SCRATCHKIT_ETI_GEMM_RB(extern, E, T, L)   \
  SCRATCHKIT_ETI_GEMM(extern, E, T, L)
#define SCRATCHKIT_ETI_GEMM_MMA_EXTERN(E, T, L) SCRATCHKIT_ETI_GEMM_RB_MMA(extern, E, T, L)
#define SCRATCHKIT_ETI_GEMM_SPACE(E)                       \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_GEMM_EXTERN, E, float) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_GEMM_EXTERN, E, double) \
  SCRATCHKIT_ETI_LAYOUTS(SCRATCHKIT_ETI_GEMM_MMA_EXTERN, E, double)
SCRATCHKIT_ETI_SPACES(SCRATCHKIT_ETI_GEMM_SPACE)
#undef SCRATCHKIT_ETI_GEMM_SPACE
#undef SCRATCHKIT_ETI_GEMM_MMA_EXTERN
#undef SCRATCHKIT_ETI_GEMM_EXTERN
#endif
