// SPDX-License-Identifier: BSD-3-Clause
/// GEMM register_blocked blockings both twins run (CUDA-core and FP64 tensor-core), the block order and the epilogue.
#pragma once

#include <scratchkit/detail/macros.hpp>

#include <cmath>

namespace scratchkit {
namespace detail {

/// alpha*acc + beta*c_old, written so that every compiler rounds it the same
/// way: the product alpha*acc rounded once, then one fused multiply-add.
/// (Left as an expression, nvcc may contract it either as fma(alpha, acc,
/// beta*c) or as fma(beta, c, alpha*acc) depending on the surrounding code,
/// and the layer and native twins would then differ in the last bit.)
template <class S>
SCRATCHKIT_HOST_DEVICE inline S gemm_epilogue(S alpha, S acc, S beta, S c_old) {
  const S ab = alpha * acc;
#if defined(__CUDA_ARCH__)
  return ::fma(beta, c_old, ab);
#else
  return std::fma(beta, c_old, ab);
#endif
}

/// Block order of GemmVariant::register_blocked (both twins; it changes no
/// result): on C of at least 8 tile rows, grid (8 nbx, ceil(nby / 8)) and
/// block (x, y) computes tile row 8y + x % 8, column x / 8, so that blocks
/// go down groups of 8 tile rows column by column and the blocks resident at
/// one time share panels of A and B in L2; below 8 tile rows, grid (nbx, nby)
/// in the plain order. Shifts only, so the compiler can recompute the tile
/// from the block index instead of keeping it in registers. Blocks of the
/// last group past the last tile row have nothing to do.
struct GemmGrid {
  int gx, gy, lg;  ///< grid, log2 of the group height (3 or 0)
  SCRATCHKIT_HOST_DEVICE GemmGrid(int nbx, int nby) : lg(nby >= 8 ? 3 : 0) {
    gx = nbx << lg;
    gy = (nby + (1 << lg) - 1) >> lg;
  }
};
/// Tile (bx, by) of block (x, y) of a GemmGrid with group height 2^lg.
SCRATCHKIT_HOST_DEVICE inline void gemm_tile_of(int x, int y, int lg, int& bx, int& by) {
  by = (y << lg) + (x & ((1 << lg) - 1));
  bx = x >> lg;
}

/// Blocking of GemmVariant::register_blocked, shared by the layer and the
/// native twin (GemmDefaultBlocking may pick a different lane layout per twin).
///
/// A block of `threads` = 32 * (BM/WM) * (BN/WN) threads computes a BM x BN
/// tile of C, walking K in slices of BK: A^T (padded) and B slices
/// double-buffered in shared memory, slice kt+1 loaded into registers during
/// the math on slice kt. Each warp owns a WM x WN warp tile; its lanes form an
/// LY x LX grid (LY = WM/TM, LX = WN/TN, LY * LX = 32) and each lane holds a
/// TM x TN thread tile in registers, split into 16-byte fragments interleaved
/// with its neighbours' so that every shared-memory read is one conflict-free
/// 16-byte vector. MinBlocks is the __launch_bounds__ occupancy hint (blocks
/// per SM) given on both twins. Stages is there for the shape of the type
/// only: this path double-buffers through registers, so it must be 2 (a
/// cp.async ring measured slower; docs/performance.md, "GEMM").
/// Order picks how gemm_simt_compute writes the multiply-adds of one k (see
/// GemmSimtOrder); it changes no result, only the code nvcc builds from it
/// (which accumulator registers share a register-file bank with which
/// fragment registers: the loop is issue-bound and each such clash costs an
/// issue cycle).
/// BAsync: the B slice goes global -> shared by cp.async (16-byte copies, no
/// registers held by it in flight, no shared store instructions) instead of
/// through registers; A still goes through registers (transposed on store).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MinBlocks_ = 1, int Stages_ = 2,
          int Order_ = 0, bool BAsync_ = false>
struct GemmBlocking {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int stages     = Stages_;         ///< always 2: two shared buffers
  static constexpr int order      = Order_;          ///< a GemmSimtOrder
  static constexpr bool b_async   = BAsync_;         ///< B by cp.async (gemm_simt_issue_b)
  static constexpr int LY = WM / TM, LX = WN / TN;   ///< lanes of a warp along M and N
  static constexpr int WY = BM / WM, WX = BN / WN;   ///< warps of a block along M and N
  static constexpr int threads = 32 * WY * WX;       ///< 1-D block of this many threads
  static constexpr bool tensor_core = false;         ///< FMA on the CUDA cores
  static_assert(BM > 0 && BN > 0 && BK > 0 && TM > 0 && TN > 0 && MinBlocks_ > 0, "GemmBlocking: positive sizes");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % TM == 0 && WN % TN == 0,
                "GemmBlocking: BM, BN multiples of WM, WN; WM, WN multiples of TM, TN");
  static_assert(LY * LX == 32, "GemmBlocking: a warp tile must hold 32 thread tiles");
  static_assert(threads <= 1024, "GemmBlocking: at most 1024 threads per block");
  static_assert(Stages_ == 2, "GemmBlocking: the CUDA-core path double-buffers through registers (2 stages)");
  static_assert(Order_ >= 0 && Order_ <= 4, "GemmBlocking: Order is a GemmSimtOrder");
};

/// The order in which gemm_simt_compute issues the TM x TN multiply-adds of
/// one k (every order adds each element's products in k order: same bits).
enum GemmSimtOrder : int {
  gemm_rows        = 0,  ///< row i outer, column j inner
  gemm_columns     = 1,  ///< column j outer, row i inner
  gemm_serpentine  = 2,  ///< rows, odd rows right to left (the B register of a row's last FMA is its successor's)
  gemm_prefetch    = 3,  ///< rows; the fragments of k+1 read from shared memory before the FMAs of k
  gemm_quads       = 4,  ///< 4 x 4 quadrants of 16-byte fragments, rows inside each
};

/// Blocking of the FP64 tensor-core path of GemmVariant::register_blocked
/// (double, CUDA devices of compute capability 8.0 and above; both twins).
/// GemmDefaultBlocking<double> selects it.
///
/// A block of `threads` = 32 * (BM/WM) * (BN/WN) threads computes a BM x BN
/// tile of C, walking K in slices of BK = MmaK * KSteps held in a ring of
/// Stages shared buffers (swizzled so that fragment reads are conflict-free),
/// one barrier per slice. Each warp owns a WM x WN warp tile of (WM/16) x
/// (WN/8) mma tiles of 16 x 8 doubles, each one FP64 mma per MmaK-deep k-step:
/// KSteps k-steps per barrier.
///
/// MmaK = 8: `mma.sync.m16n8k8.f64` (sm_90; four m8n8k4 on sm_80). Lane
/// l = 4g + t holds elements (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) of
/// each mma tile and reads A(g + 8h, t + 4q), B(t + 4q, g) as 8-byte words.
///
/// MmaK = 16: `mma.sync.m16n8k16.f64` (sm_90 only: SASS DMMA.16x8x16, half the
/// mma instructions; two m16n8k8 elsewhere). Its k slots t + 4v (v < 4) of
/// lane 4g + t are those of two m16n8k8 k-steps (v / 2), so the slices, the
/// lanes' offsets and the fragment reads are the m16n8k8 ones (8-byte reads
/// straight into the instruction's registers; 16-byte reads would put the
/// two k of one row in registers the instruction wants elsewhere, and
/// ptxas then shuffles them: measured in SASS, 2x the IMADs and spills).
///
/// Elsewhere (host backends, other GPUs) the same threads compute the same
/// elements with scalar FMAs in k order. Every blocking of one MmaK runs the
/// same chain of mma per element of C (k-steps in increasing k), so any two
/// give the same bits; MmaK 8 and 16 may round differently (the order of
/// the additions inside one mma is the hardware's).
template <int BM_, int BN_, int WM_, int WN_, int MinBlocks_ = 1, int Stages_ = 2, int KSteps_ = 1, int MmaK_ = 8>
struct GemmMmaBlocking {
  static constexpr int mma_k = MmaK_;               ///< depth of one mma: 8 or 16
  static constexpr bool k16  = MmaK_ == 16;
  static constexpr int KS = KSteps_;                ///< mma k-steps per slice (per barrier)
  static constexpr int BM = BM_, BN = BN_, BK = MmaK_ * KS, WM = WM_, WN = WN_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int stages     = Stages_;        ///< slices in flight in shared memory (cp.async pipeline)
  static constexpr int MT = WM / 16, NT = WN / 8;  ///< mma tiles of a warp along M and N
  static constexpr int WY = BM / WM, WX = BN / WN;  ///< warps of a block along M and N
  static constexpr int threads = 32 * WY * WX;      ///< 1-D block of this many threads
  /// The A slice is BK/8 sub-slices of BM x 8 (one per 8 k, gemm_mma_a_at), 8 doubles apart when there are
  /// several so that the 16-byte copies of one row into consecutive sub-slices hit different banks.
  static constexpr int a_subs  = BK / 8;
  static constexpr int a_sub   = a_subs > 1 ? BM * 8 + 8 : BM * 8;
  static constexpr int a_stage = a_subs * a_sub, b_stage = BK * BN;    ///< doubles of one A, B slice
  static constexpr int smem_bytes = stages * (a_stage + b_stage) * 8;  ///< both twins' shared memory
  static constexpr bool tensor_core = true;
  static_assert(MmaK_ == 8 || MmaK_ == 16, "GemmMmaBlocking: mma depth 8 (m16n8k8) or 16 (m16n8k16)");
  static_assert(BM > 0 && BN > 0 && WM > 0 && WN > 0 && MinBlocks_ > 0 && KS > 0, "GemmMmaBlocking: positive sizes");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0,
                "GemmMmaBlocking: BM, BN multiples of WM, WN; WM and WN multiples of 16");
  static_assert(threads <= 1024, "GemmMmaBlocking: at most 1024 threads per block");
  static_assert(Stages_ >= 2 && Stages_ <= 8, "GemmMmaBlocking: 2 to 8 stages");
  // The native twin takes dynamic shared memory (opt-in above 48 KB, up to 227 KB on sm_90); so does the layer
  // on its CUDA block driver (SCRATCHKIT_KOKKOS_CUDA_DRIVER); on Kokkos' own driver it has ~40 KB of level 0 and its launch
  // throws LaunchError above that (docs/user-guide.md, "Scratch limits").
  static_assert(smem_bytes <= 227 * 1024, "GemmMmaBlocking: at most 227 KB of stages");
};

/// Shared-memory index of A(m, k) in a BM x 8 slice stored by rows: the
/// 16-byte pairs of a row are permuted (k ^ 4 on rows with bit 1 set) so that
/// the 8 x 4 lanes of a fragment read hit distinct banks.
SCRATCHKIT_HOST_DEVICE constexpr int gemm_mma_a_index(int m, int k) { return m * 8 + (k ^ (((m >> 1) & 1) << 2)); }
/// Shared-memory index of A(m, k) in a BM x BK slice of blocking Blk: k / 8 in sub-slice k / 8
/// (Blk::a_sub doubles each), gemm_mma_a_index inside it.
template <class Blk>
SCRATCHKIT_HOST_DEVICE constexpr int gemm_mma_a_at(int m, int k) {
  return (k >> 3) * Blk::a_sub + gemm_mma_a_index(m, k & 7);
}
/// Shared-memory index of B(k, n) in a BK x BN slice stored by rows: n ^ 4(k % 4), for the same reason.
template <int BN>
SCRATCHKIT_HOST_DEVICE constexpr int gemm_mma_b_index(int k, int n) {
  return k * BN + (n ^ ((k & 3) << 2));
}

/// Where thread `rank` of a GemmMmaBlocking block reads its mma fragments in
/// a slice buffer (constant over the slices): A(m + 16i + 8h, 8s + t + 4q) at
/// a(i, h, q, s) and B(8s + t + 4q, n + 8j) at b(j, q, s), for its first row m
/// and column n, s counting 8-deep k-steps (two per m16n8k16 k-step).
template <class Blk>
struct GemmMmaLane {
  int a_lo = 0, a_hi = 0, b_even = 0, b_odd = 0;
  GemmMmaLane() = default;
  SCRATCHKIT_HOST_DEVICE explicit GemmMmaLane(int rank) {
    const int warp = rank / 32, g = rank % 32 / 4, t = rank % 4;
    const int m = (warp / Blk::WX) * Blk::WM + g, wn = (warp % Blk::WX) * Blk::WN;
    // m + 16i + 8h has the row swizzle bit of g; wn is a multiple of 16, untouched by the column swizzle.
    a_lo   = gemm_mma_a_index(m, t);
    a_hi   = gemm_mma_a_index(m, t + 4);
    b_even = gemm_mma_b_index<Blk::BN>(t, wn + g);
    b_odd  = gemm_mma_b_index<Blk::BN>(t, wn + 8 + g);
  }
  /// k-step s of the slice: A in sub-slice s (gemm_mma_a_at), B rows 8s + t + 4q (same column swizzle).
  SCRATCHKIT_HOST_DEVICE int a(int i, int h, int q, int s = 0) const {
    return (q ? a_hi : a_lo) + i * 128 + h * 64 + s * Blk::a_sub;
  }
  SCRATCHKIT_HOST_DEVICE int b(int j, int q, int s = 0) const {
    return (j & 1 ? b_odd : b_even) + (j >> 1) * 16 + (q * 4 + s * 8) * Blk::BN;
  }
};

/// A GemmBlocking spelled by field names: Fields derives from GemmSimtFields
/// and sets block_m, block_n, block_k (the block's tile of C and its slice of
/// K), warp_m, warp_n (a warp's tile), thread_m, thread_n (a thread's tile),
/// and min_blocks, order, b_async where they differ from GemmSimtFields':
///
///   struct Tile : GemmSimtFields {
///     static constexpr int block_m = 128, block_n = 128, block_k = 16, warp_m = 32, warp_n = 64;
///     static constexpr int thread_m = 8, thread_n = 8, min_blocks = 2, order = gemm_serpentine;
///   };
///   using Blk = GemmBlockingOf<Tile>;  // GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, 2, false>
struct GemmSimtFields {
  static constexpr int min_blocks = 1;     ///< __launch_bounds__ blocks per SM
  static constexpr int order      = gemm_rows;  ///< a GemmSimtOrder
  static constexpr bool b_async   = false;  ///< B slices by cp.async instead of through registers
};
template <class F>
using GemmBlockingOf = GemmBlocking<F::block_m, F::block_n, F::block_k, F::warp_m, F::warp_n, F::thread_m,
                                    F::thread_n, F::min_blocks, 2, F::order, F::b_async>;

/// A GemmMmaBlocking spelled by field names: Fields derives from GemmMmaFields
/// and sets block_m, block_n, warp_m, warp_n, and min_blocks, stages (slices in
/// flight), k_steps (mma k-steps per slice), mma_k (8 or 16) where they differ
/// from GemmMmaFields'.
struct GemmMmaFields {
  static constexpr int min_blocks = 1;  ///< __launch_bounds__ blocks per SM
  static constexpr int stages     = 2;  ///< slices in flight in shared memory
  static constexpr int k_steps    = 1;  ///< mma k-steps per slice (per barrier)
  static constexpr int mma_k      = 8;  ///< depth of one mma: 8 (m16n8k8) or 16 (m16n8k16)
};
template <class F>
using GemmMmaBlockingOf = GemmMmaBlocking<F::block_m, F::block_n, F::warp_m, F::warp_n, F::min_blocks, F::stages,
                                          F::k_steps, F::mma_k>;

}  // namespace detail
}  // namespace scratchkit
