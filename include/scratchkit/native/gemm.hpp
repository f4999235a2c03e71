// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA gemm (src/cuda/gemm.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace scratchkit {
namespace detail {

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HOST_DEVICE __host__ __device__
#define SCRATCHKIT_GEMM_UNROLL _Pragma("unroll")
#else
#define SCRATCHKIT_HOST_DEVICE
#define SCRATCHKIT_GEMM_UNROLL
#endif

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

}  // namespace detail
}  // namespace scratchkit

namespace scratchkit {
namespace detail {

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

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// c += a * b on one 16 x 8 x 8 FP64 tile held by a warp (fragments as in GemmMmaBlocking), IEEE FP64 FMA
/// on the tensor cores. The same instruction sequence in both twins, so they agree bit for bit.
__device__ __forceinline__ void gemm_dmma_16x8x8(double (&c)[4], const double (&a)[4], const double (&b)[2]) {
#if __CUDA_ARCH__ >= 900
  asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
#else
  // sm_80: the same tile as four 8 x 8 x 4 products (rows g / g+8, k = t / t+4), same fragments.
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[0]), "+d"(c[1]) : "d"(a[0]), "d"(b[0]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[0]), "+d"(c[1]) : "d"(a[2]), "d"(b[1]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[2]), "+d"(c[3]) : "d"(a[1]), "d"(b[0]));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(c[2]), "+d"(c[3]) : "d"(a[3]), "d"(b[1]));
#endif
}
/// c += a * b on one 16 x 8 x 16 FP64 tile (k slot t + 4v of lane 4g + t: a[h + 2v] of rows g + 8h, b[v]).
/// sm_90: one m16n8k16 (PTX ISA 7.8+); sm_80: slots 0-7 then 8-15 as two m16n8k8 tiles (same fragments:
/// a[0..3], b[0..1] are an m16n8k8 tile's).
__device__ __forceinline__ void gemm_dmma_16x8x16(double (&c)[4], const double (&a)[8], const double (&b)[4]) {
#if __CUDA_ARCH__ >= 900
  asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "
      "{%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
      : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
        "d"(b[1]), "d"(b[2]), "d"(b[3]));
#else
  const double a0[4] = {a[0], a[1], a[2], a[3]}, a1[4] = {a[4], a[5], a[6], a[7]};
  const double b0[2] = {b[0], b[1]}, b1[2] = {b[2], b[3]};
  gemm_dmma_16x8x8(c, a0, b0);
  gemm_dmma_16x8x8(c, a1, b1);
#endif
}
#define SCRATCHKIT_GEMM_DMMA 1
#else
#define SCRATCHKIT_GEMM_DMMA 0
#endif

/// Asynchronous global -> shared copies of the GEMM pipelines (both twins): on
/// sm_80+ cp.async (16 bytes: .cg, L2 only; one element: .ca), the bytes past
/// src-size zero-filled, completed by gemm_cp_async_commit / _wait; elsewhere
/// (host backends, older GPUs) a plain copy, complete at once. dst must be in
/// shared memory on the GPU (the layer's level-0 scratch is), src readable
/// even when !valid (it is not read then).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async16(T* dst, const T* src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 16 : 0) : "memory");
#else
  constexpr int W = static_cast<int>(16 / sizeof(T));
  for (int q = 0; q < W; ++q) dst[q] = valid ? src[q] : T(0);
#endif
}
/// gemm_cp_async16 of 16 bytes known to lie inside the matrix (no source size operand).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async16_inside(T* dst, const T* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(d), "l"(src) : "memory");
#else
  constexpr int W = static_cast<int>(16 / sizeof(T));
  for (int q = 0; q < W; ++q) dst[q] = src[q];
#endif
}
/// One element, as gemm_cp_async16 (cp.async.ca of 4 or 8 bytes).
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async1(T* dst, const T* src, bool valid) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "gemm_cp_async1: 4- or 8-byte elements");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (sizeof(T) == 8)
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 8 : 0) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 4 : 0) : "memory");
#else
  *dst = valid ? *src : T(0);
#endif
}
/// Closes the group of this thread's copies issued since the last commit.
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/// Waits until at most N of this thread's committed groups are still in flight
/// (then a barrier makes every thread's completed copies visible to the block).
template <int N>
SCRATCHKIT_HD_FORCEINLINE void gemm_cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

/// A row-major-ish matrix operand as a raw pointer: element (r, c) at
/// p[r * ld + c * cs], cs = 1 when Unit (row-major; the layer's LayoutRight
/// Views and every native matrix). Strides in elements. The layer hands the
/// kernels this instead of its Views, so that the hot loop keeps one pointer
/// and one stride live, as the native twin does.
template <class T, bool Unit>
struct GemmMat {
  T* p;
  int ld, cs;
  SCRATCHKIT_HOST_DEVICE long long at(int r, int c) const {
    return static_cast<long long>(r) * ld + (Unit ? static_cast<long long>(c) : static_cast<long long>(c) * cs);
  }
};

/// Issues this thread's copies of one tile of a slice into a shared stage:
/// vector v = rank + p*NT of the tile's Total vectors is tile row v / PerRow,
/// columns (v % PerRow)*VW + [0, VW), i.e. matrix row r0 + v / PerRow, column
/// c0 + ...; it lands at dst[index(row, col)] (index maps 16-byte vectors to
/// 16-byte vectors). Outside the rows x cols matrix: zeros. With `vec` (rows
/// of 16-byte vectors, cols a multiple of VW) one 16-byte copy per vector,
/// otherwise one per element.
template <int L, int Total, int PerRow, int NT, class T, bool Unit, class Index>
SCRATCHKIT_HD_FORCEINLINE void gemm_copy_tile(const GemmMat<const T, Unit>& X, int rows, int cols, int r0, int c0,
                                              int rank, bool vec, T* dst, Index index) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int tr = v / PerRow, tc = (v % PerRow) * VW;
    const int r = r0 + tr, c = c0 + tc;
    T* d        = dst + index(tr, tc);
    if (vec) {
      const bool ok = r < rows && c < cols;
      gemm_cp_async16(d, ok ? X.p + X.at(r, c) : X.p, ok);
    } else {
  SCRATCHKIT_GEMM_UNROLL
      for (int q = 0; q < VW; ++q) {
        const bool ok = r < rows && c + q < cols;
        gemm_cp_async1(d + q, ok ? X.p + X.at(r, c + q) : X.p, ok);
      }
    }
  }
}

/// gemm_copy_tile for a tile wholly inside X with 16-byte rows (vec): no
/// tests, and when NT is a multiple of PerRow (every blocking in use) the
/// copies of one thread are one column of the tile NT / PerRow rows apart:
/// one source address and a constant stride instead of one 64-bit index
/// product per copy (the tensor-core loop spent ~20 instructions per copy on
/// the checked path, ~130 per slice).
template <int L, int Total, int PerRow, int NT, class T, bool Unit, class Index>
SCRATCHKIT_HD_FORCEINLINE void gemm_copy_tile_inside(const GemmMat<const T, Unit>& X, int r0, int c0, int rank,
                                                     T* dst, Index index) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  if constexpr (NT % PerRow == 0) {
    constexpr int RS = NT / PerRow;
    const int tr = rank / PerRow, tc = (rank % PerRow) * VW;
    const T* src         = X.p + X.at(r0 + tr, c0 + tc);
    const long long step = static_cast<long long>(RS) * X.ld;
    SCRATCHKIT_GEMM_UNROLL
    for (int p = 0; p < L; ++p) {
      if (L * NT != Total && rank + p * NT >= Total) break;
      gemm_cp_async16_inside(dst + index(tr + p * RS, tc), src + p * step);
    }
  } else {
    SCRATCHKIT_GEMM_UNROLL
    for (int p = 0; p < L; ++p) {
      const int v = rank + p * NT;
      if (L * NT != Total && v >= Total) break;
      const int tr = v / PerRow, tc = (v % PerRow) * VW;
      gemm_cp_async16_inside(dst + index(tr, tc), X.p + X.at(r0 + tr, c0 + tc));
    }
  }
}

/// Derived sizes of GemmVariant::register_blocked for blocking Blk and element
/// type Scalar (both twins use it).
template <class Blk, class Scalar>
struct GemmRbShape {
  static constexpr int VW = static_cast<int>(16 / sizeof(Scalar));  ///< elements per 16-byte vector
  static constexpr int NT = Blk::threads, BM = Blk::BM, BN = Blk::BN, BK = Blk::BK;
  static constexpr int KV = BK / VW, NV = BN / VW;           ///< 16-byte vectors per row of an A, B slice
  static constexpr int AV = BM * KV, BV = BK * NV;           ///< vectors per A, B slice
  static constexpr int LA = (AV + NT - 1) / NT, LB = (BV + NT - 1) / NT;  ///< vectors per thread
  static constexpr int PA = BM + VW;  ///< A^T row pitch of the CUDA-core path: the transposing stores hit distinct banks
  static constexpr int a_size = 2 * BK * PA, b_size = 2 * BK * BN;  ///< CUDA-core path: A^T, B, two buffers each
  static_assert(BK % VW == 0 && BN % VW == 0, "register_blocked: BK and BN must be multiples of 16 bytes");
};

/// 16 bytes of T, for one vector access to shared memory.
template <class T>
struct alignas(16) GemmVec16 {
  T v[16 / sizeof(T)];
};
/// dst[0..VW) = p[0..VW), p 16-byte aligned: one 16-byte load on the GPU.
template <class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_ld16(const T* p, T* dst) {
  constexpr int W = static_cast<int>(16 / sizeof(T));
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  const GemmVec16<T> q = *reinterpret_cast<const GemmVec16<T>*>(p);
#pragma unroll
  for (int j = 0; j < W; ++j) dst[j] = q.v[j];
#else
  for (int j = 0; j < W; ++j) dst[j] = p[j];
#endif
}

/// One tile of a slice of the CUDA-core path into registers: vector v = rank
/// + p*NT of the tile's Total vectors is row r0 + v / PerRow, columns c0 + (v %
/// PerRow)*VW + [0, VW) of the rows x cols matrix X. Outside X: zero. With
/// `vec` (rows of 16-byte vectors, cols a multiple of VW) a vector inside X is
/// one 16-byte read-only load, otherwise element by element.
template <int L, int Total, int PerRow, int NT, class T, bool Unit>
SCRATCHKIT_HD_FORCEINLINE void gemm_load_tile(const GemmMat<const T, Unit>& X, int rows, int cols, int r0, int c0,
                                              int rank, bool vec, GemmVec16<T> (&regs)[L]) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    const int r = r0 + v / PerRow, c = c0 + (v % PerRow) * VW;
    if (vec) {
      if (r < rows && c < cols) {
        load16(X.p + X.at(r, c), regs[p].v);
      } else {
  SCRATCHKIT_GEMM_UNROLL
        for (int q = 0; q < VW; ++q) regs[p].v[q] = T(0);
      }
    } else {
  SCRATCHKIT_GEMM_UNROLL
      for (int q = 0; q < VW; ++q) regs[p].v[q] = (r < rows && c + q < cols) ? X.p[X.at(r, c + q)] : T(0);
    }
  }
}

/// gemm_load_tile for a tile wholly inside X with 16-byte rows: no tests.
template <int L, int Total, int PerRow, int NT, class T, bool Unit>
SCRATCHKIT_HD_FORCEINLINE void gemm_load_tile_inside(const GemmMat<const T, Unit>& X, int r0, int c0, int rank,
                                                     GemmVec16<T> (&regs)[L]) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < L; ++p) {
    const int v = rank + p * NT;
    if (L * NT != Total && v >= Total) break;
    load16(X.p + X.at(r0 + v / PerRow, c0 + (v % PerRow) * VW), regs[p].v);
  }
}

/// Slice k0 of the CUDA-core path into registers (both twins): the A tile
/// (BM x BK, k fastest, so that a warp reads whole 32-byte sectors) and the B
/// tile (BK x BN, n fastest).
template <class Blk, class T, bool UA, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_load(const GemmMat<const T, UA>& A, const GemmMat<const T, UB>& B, int M,
                                              int N, int K, int row0, int col0, int k0, int rank, bool a_vec,
                                              bool b_vec, GemmVec16<T> (&ra)[GemmRbShape<Blk, T>::LA],
                                              GemmVec16<T> (&rb)[GemmRbShape<Blk, T>::LB]) {
  using Sh = GemmRbShape<Blk, T>;
  // Both tiles whole and vectorizable (every slice of an interior block of an aligned C but the K tail):
  // 16-byte loads with no bounds tests, so that the slice costs ~2 instructions per load instead of ~10
  // (the CUDA-core loop is issue-bound: each instruction here takes an FFMA's slot).
  // With Blk::b_async only A (B: gemm_simt_issue_b).
  if (a_vec && b_vec && row0 + Blk::BM <= M && col0 + Blk::BN <= N && k0 + Blk::BK <= K) {
    gemm_load_tile_inside<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, row0, k0, rank, ra);
    if constexpr (!Blk::b_async) gemm_load_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, rb);
    return;
  }
  gemm_load_tile<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, a_vec, ra);
  if constexpr (!Blk::b_async) gemm_load_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, rb);
}

/// Row-major index of B(k, n) in a BK x BN slice buffer, as a functor for gemm_copy_tile.
template <int BN>
struct GemmSimtBIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int k, int n) const { return k * BN + n; }
};

/// Blk::b_async: issues this thread's cp.async copies of the B slice k0 into
/// the buffer bs (bs[k * BN + n], zeros outside B) and commits them as one
/// group (both twins; gemm_cp_async_wait<0> and a barrier before it is read).
/// Unchecked 16-byte copies when the slice of B lies inside B (a_vec is
/// tested too, so that this path and gemm_simt_load's agree on which slices
/// are interior; it changes no value).
template <class Blk, class T, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_issue_b(const GemmMat<const T, UB>& B, int N, int K, int col0, int k0,
                                                 int rank, bool b_vec, T* bs) {
  using Sh = GemmRbShape<Blk, T>;
  if (b_vec && col0 + Blk::BN <= N && k0 + Blk::BK <= K)
    gemm_copy_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, bs, GemmSimtBIndex<Sh::BN>());
  else
    gemm_copy_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, bs, GemmSimtBIndex<Sh::BN>());
  gemm_cp_async_commit();
}

/// Stores the registers of gemm_simt_load into one buffer (both twins): A
/// transposed (as[k * PA + m]), B as is (bs[k * BN + n], one 16-byte store per
/// vector on the GPU).
template <class Blk, class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_store(T* as, T* bs, int rank, const GemmVec16<T> (&ra)[GemmRbShape<Blk, T>::LA],
                                               const GemmVec16<T> (&rb)[GemmRbShape<Blk, T>::LB]) {
  using Sh         = GemmRbShape<Blk, T>;
  constexpr int VW = Sh::VW, NT = Sh::NT, KV = Sh::KV, PA = Sh::PA;
  SCRATCHKIT_GEMM_UNROLL
  for (int p = 0; p < Sh::LA; ++p) {
    const int v = rank + p * NT;
    if (Sh::LA * NT != Sh::AV && v >= Sh::AV) break;
    const int m = v / KV, k = (v % KV) * VW;
  SCRATCHKIT_GEMM_UNROLL
    for (int q = 0; q < VW; ++q) as[(k + q) * PA + m] = ra[p].v[q];
  }
  if constexpr (!Blk::b_async) {  // (with b_async B went by cp.async)
  SCRATCHKIT_GEMM_UNROLL
    for (int p = 0; p < Sh::LB; ++p) {
      const int v = rank + p * NT;
      if (Sh::LB * NT != Sh::BV && v >= Sh::BV) break;
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
      *reinterpret_cast<GemmVec16<T>*>(bs + v * VW) = rb[p];
#else
      for (int q = 0; q < VW; ++q) bs[v * VW + q] = rb[p].v[q];
#endif
    }
  } else {
    (void)bs;
    (void)rb;
  }
}

/// rank, with its range [0, NT) told to nvcc. The layer's thread rank comes
/// from Kokkos' team rank, whose range nvcc cannot see; without it the signed
/// divisions of the tile indices in gemm_simt_load / _store keep more values
/// live (float default on the layer: 24 B of spills, none with it).
template <int NT>
SCRATCHKIT_HD_FORCEINLINE int gemm_thread_rank(int rank) {
#if defined(__CUDA_ARCH__)
  __builtin_assume(rank >= 0);
  __builtin_assume(rank < NT);
#endif
  return rank;
}

/// Where thread `rank` of a GemmBlocking block sits in the block tile: its
/// rows are m0 + g*LY*VW + q and its columns n0 + h*LX*VW + q (g < TM/VW,
/// h < TN/VW, q < VW): the lanes of a warp read LY (A^T) and LX (B) adjacent
/// 16-byte vectors per shared load, no bank conflicts.
template <class Blk, class T>
SCRATCHKIT_HOST_DEVICE inline void gemm_simt_place(int rank, int& m0, int& n0) {
  constexpr int VW = static_cast<int>(16 / sizeof(T));
  const int warp = rank / 32, lane = rank % 32;
  m0 = (warp / Blk::WX) * Blk::WM + (lane / Blk::LX) * VW;
  n0 = (warp % Blk::WX) * Blk::WN + (lane % Blk::LX) * VW;
}

/// One slice of the CUDA-core path (both twins) on the buffer at as (A^T),
/// bs (B): c[i][j] += A(m_i, kk) B(kk, n_j) for kk = 0..BK-1 in order (one
/// multiply-add each, as every other variant); per kk TM/VW 16-byte reads of
/// A^T and TN/VW of B.
template <class Blk, class T>
SCRATCHKIT_HD_FORCEINLINE void gemm_simt_compute(T (&c)[Blk::TM][Blk::TN], const T* as, const T* bs, int m0, int n0) {
  using Sh         = GemmRbShape<Blk, T>;
  constexpr int VW = Sh::VW, BK = Sh::BK, BN = Sh::BN, PA = Sh::PA;
  constexpr int TM = Blk::TM, TN = Blk::TN, LY = Blk::LY, LX = Blk::LX;
  static_assert(TM % VW == 0 && TN % VW == 0, "register_blocked: TM and TN must be multiples of 16 bytes");
  as += m0;
  bs += n0;
  auto fragments = [&](int kk, T(&a)[TM], T(&b)[TN]) {
  SCRATCHKIT_GEMM_UNROLL
    for (int g = 0; g < TM / VW; ++g) gemm_ld16(as + kk * PA + g * LY * VW, a + g * VW);
  SCRATCHKIT_GEMM_UNROLL
    for (int h = 0; h < TN / VW; ++h) gemm_ld16(bs + kk * BN + h * LX * VW, b + h * VW);
  };
  if constexpr (Blk::order == gemm_prefetch) {
    T a[2][TM], b[2][TN];
    fragments(0, a[0], b[0]);
  SCRATCHKIT_GEMM_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      if (kk + 1 < BK) fragments(kk + 1, a[(kk + 1) & 1], b[(kk + 1) & 1]);
  SCRATCHKIT_GEMM_UNROLL
      for (int i = 0; i < TM; ++i) {
  SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < TN; ++j) c[i][j] += a[kk & 1][i] * b[kk & 1][j];
      }
    }
  } else {
  SCRATCHKIT_GEMM_UNROLL
    for (int kk = 0; kk < BK; ++kk) {
      T a[TM], b[TN];
      fragments(kk, a, b);
      if constexpr (Blk::order == gemm_columns) {
  SCRATCHKIT_GEMM_UNROLL
        for (int j = 0; j < TN; ++j) {
  SCRATCHKIT_GEMM_UNROLL
          for (int i = 0; i < TM; ++i) c[i][j] += a[i] * b[j];
        }
      } else if constexpr (Blk::order == gemm_quads) {
  SCRATCHKIT_GEMM_UNROLL
        for (int g = 0; g < TM / VW; ++g) {
  SCRATCHKIT_GEMM_UNROLL
          for (int h = 0; h < TN / VW; ++h) {
  SCRATCHKIT_GEMM_UNROLL
            for (int i = g * VW; i < (g + 1) * VW; ++i) {
  SCRATCHKIT_GEMM_UNROLL
              for (int j = h * VW; j < (h + 1) * VW; ++j) c[i][j] += a[i] * b[j];
            }
          }
        }
      } else {  // gemm_rows, gemm_serpentine
  SCRATCHKIT_GEMM_UNROLL
        for (int i = 0; i < TM; ++i) {
  SCRATCHKIT_GEMM_UNROLL
          for (int jj = 0; jj < TN; ++jj) {
            const int j = Blk::order == gemm_serpentine && (i & 1) ? TN - 1 - jj : jj;
            c[i][j] += a[i] * b[j];
          }
        }
      }
    }
  }
}

/// Swizzled slice indices of the tensor-core path, as functors for gemm_copy_tile.
template <class Blk>
struct GemmMmaAIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int m, int k) const { return gemm_mma_a_at<Blk>(m, k); }
};
template <int BN>
struct GemmMmaBIndex {
  SCRATCHKIT_HOST_DEVICE int operator()(int k, int n) const { return gemm_mma_b_index<BN>(k, n); }
};

/// Issues this thread's copies of slice k0 of the tensor-core path (both
/// twins): A(row0 + [0, BM), k0 + [0, BK)) into stage `as`, B(k0 + [0, BK),
/// col0 + [0, BN)) into stage `bs`, swizzled, zeros outside the matrices. A
/// slice wholly inside both matrices with 16-byte rows (every slice of an
/// interior block but the K tail) takes unchecked 16-byte copies.
template <class Blk, bool UA, bool UB>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma_issue(const GemmMat<const double, UA>& A, const GemmMat<const double, UB>& B,
                                              int M, int N, int K, int row0, int col0, int k0, int rank, bool a_vec,
                                              bool b_vec, double* as, double* bs) {
  using Sh = GemmRbShape<Blk, double>;
  if (a_vec && b_vec && row0 + Blk::BM <= M && col0 + Blk::BN <= N && k0 + Blk::BK <= K) {
    gemm_copy_tile_inside<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, row0, k0, rank, as, GemmMmaAIndex<Blk>());
    gemm_copy_tile_inside<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, k0, col0, rank, bs, GemmMmaBIndex<Sh::BN>());
    return;
  }
  gemm_copy_tile<Sh::LA, Sh::AV, Sh::KV, Sh::NT>(A, M, K, row0, k0, rank, a_vec, as, GemmMmaAIndex<Blk>());
  gemm_copy_tile<Sh::LB, Sh::BV, Sh::NV, Sh::NT>(B, K, N, k0, col0, rank, b_vec, bs, GemmMmaBIndex<Sh::BN>());
}

#if SCRATCHKIT_GEMM_DMMA
/// The fragments of k-step s of a slice (tensor-core path, MmaK = 8): A of the warp's MT row tiles, B of its NT
/// column tiles.
template <class Blk>
__device__ __forceinline__ void gemm_mma_fragments(double (&af)[Blk::MT][4], double (&bf)[Blk::NT][2],
                                                   const double* as, const double* bs, const GemmMmaLane<Blk>& l,
                                                   int s) {
#pragma unroll
  for (int j = 0; j < Blk::NT; ++j) {
    bf[j][0] = bs[l.b(j, 0, s)];
    bf[j][1] = bs[l.b(j, 1, s)];
  }
#pragma unroll
  for (int i = 0; i < Blk::MT; ++i) {
    af[i][0] = as[l.a(i, 0, 0, s)];
    af[i][1] = as[l.a(i, 1, 0, s)];
    af[i][2] = as[l.a(i, 0, 1, s)];
    af[i][3] = as[l.a(i, 1, 1, s)];
  }
}
#endif

/// MmaK = 16, k-step s: the A fragments of the warp's MT row tiles, a[h + 2v] = A(g + 8h, 16s + t + 4v):
/// those of 8-deep k-steps 2s (v < 2) and 2s + 1 (v >= 2). (Host code too: tests/test_gemm.cpp runs it
/// against the instruction's layout.)
template <class Blk>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma16_a(double (&af)[Blk::MT][8], const double* as, const GemmMmaLane<Blk>& l,
                                            int s) {
  SCRATCHKIT_GEMM_UNROLL
  for (int i = 0; i < Blk::MT; ++i) {
    SCRATCHKIT_GEMM_UNROLL
    for (int v = 0; v < 4; ++v) {
      af[i][2 * v]     = as[l.a(i, 0, v & 1, 2 * s + (v >> 1))];
      af[i][2 * v + 1] = as[l.a(i, 1, v & 1, 2 * s + (v >> 1))];
    }
  }
}
/// MmaK = 16, k-step s: the B fragment of mma tile j, b[v] = B(16s + t + 4v, 8j + g).
template <class Blk>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma16_b(double (&bf)[4], const double* bs, const GemmMmaLane<Blk>& l, int j,
                                            int s) {
  SCRATCHKIT_GEMM_UNROLL
  for (int v = 0; v < 4; ++v) bf[v] = bs[l.b(j, v & 1, 2 * s + (v >> 1))];
}

/// One slice of the tensor-core path (both twins, so the same mma sequence):
/// on CUDA sm_80+, for each k-step in order, one FP64 mma per tile of the
/// warp (MmaK = 8: i outer, j inner; MmaK = 16: j outer, i inner, the B
/// fragment of the next tile read during the current one and the A fragments
/// of the next k-step near the end of this one), fragments read from
/// stages `as`, `bs` at the offsets of `l`; elsewhere each thread sums its own
/// elements over the BK k of the slice in order with scalar multiply-adds
/// (same result up to the order in a k-step). `mid()` (the copies of a later
/// slice) runs after the fragment reads of the first k-step are issued, so
/// their latency hides behind it, and before its mma; later reads are free to
/// overlap earlier mma (no memory clobber between them).
template <class Blk, class Mid>
SCRATCHKIT_HD_FORCEINLINE void gemm_mma_compute(double (&c)[Blk::MT][Blk::NT][4], const double* as, const double* bs,
                                                const GemmMmaLane<Blk>& l, int rank, const Mid& mid) {
  constexpr int MT = Blk::MT, NT = Blk::NT;
#if SCRATCHKIT_GEMM_DMMA
  (void)rank;
  if constexpr (Blk::k16) {
    // Column tiles outer, so that one B fragment (4 doubles) is live per tile, the next one read during the
    // mma of the current one; the A fragments of k-step s+1 are read two column tiles before the end of
    // k-step s. Live: the accumulators, 2 x MT x 8 A and 2 x 4 B doubles (k8: 2 x (MT x 4 + NT x 2)).
    constexpr int AN = NT >= 2 ? NT - 2 : 0;  // column tile at which the next A fragments are read
    double af[2][MT][8], bf[2][4];
    gemm_mma16_a<Blk>(af[0], as, l, 0);
    gemm_mma16_b<Blk>(bf[0], bs, l, 0, 0);
    mid();
#pragma unroll
    for (int s = 0; s < Blk::KS; ++s) {
#pragma unroll
      for (int j = 0; j < NT; ++j) {
        const int q = s * NT + j;  // tile counter: B buffer q % 2
        if (j + 1 < NT)
          gemm_mma16_b<Blk>(bf[(q + 1) & 1], bs, l, j + 1, s);
        else if (s + 1 < Blk::KS)
          gemm_mma16_b<Blk>(bf[(q + 1) & 1], bs, l, 0, s + 1);
        if (j == AN && s + 1 < Blk::KS) gemm_mma16_a<Blk>(af[(s + 1) & 1], as, l, s + 1);
#pragma unroll
        for (int i = 0; i < MT; ++i) gemm_dmma_16x8x16(c[i][j], af[s & 1][i], bf[q & 1]);
      }
    }
  } else {
    double af[Blk::KS][MT][4], bf[Blk::KS][NT][2];
    gemm_mma_fragments<Blk>(af[0], bf[0], as, bs, l, 0);
    mid();
#pragma unroll
    for (int s = 0; s < Blk::KS; ++s) {
      if (s + 1 < Blk::KS) gemm_mma_fragments<Blk>(af[s + 1], bf[s + 1], as, bs, l, s + 1);
#pragma unroll
      for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int j = 0; j < NT; ++j) gemm_dmma_16x8x8(c[i][j], af[s][i], bf[s][j]);
      }
    }
  }
#else
  (void)l;
  mid();
  const int warp = rank / 32, g = rank % 32 / 4, t = rank % 4;
  const int wm = (warp / Blk::WX) * Blk::WM + g, wn = (warp % Blk::WX) * Blk::WN;
  for (int i = 0; i < MT; ++i)
    for (int j = 0; j < NT; ++j)
      for (int e = 0; e < 4; ++e) {
        const int m = wm + i * 16 + 8 * (e / 2), n = wn + j * 8 + 2 * t + e % 2;
        double s    = c[i][j][e];
        for (int kk = 0; kk < Blk::BK; ++kk) s += as[gemm_mma_a_at<Blk>(m, kk)] * bs[gemm_mma_b_index<Blk::BN>(kk, n)];
        c[i][j][e] = s;
      }
#endif
}

/// Stage ring of the cp.async pipelines (both twins): slice kt lives in stage
/// kt % S. Prologue: slices 0 .. S-2 issued, one commit group each. Step kt:
/// issue slice kt+S-1 into stage (kt-1) % S (read during step kt-1, before
/// the last barrier), commit (an empty group past the last slice keeps the
/// count), math on stage kt % S, wait until slice kt+1 has landed (at most S-2
/// groups in flight), barrier: one barrier per slice.
template <int S>
struct GemmStageRing {
  int rd = 0;  ///< stage of slice kt
  SCRATCHKIT_HOST_DEVICE int write() const { return rd == 0 ? S - 1 : rd - 1; }  ///< stage of slice kt+S-1
  SCRATCHKIT_HOST_DEVICE void next() { rd = rd == S - 1 ? 0 : rd + 1; }
};

/// The blocking GemmVariant::register_blocked runs with, per type: `type` on
/// the layer, `native_type` in the native twin. To switch, change those lines;
/// perf/tune/gemm_tune.cu times the candidates against cuBLAS on the GPU (native
/// kernels). Any two blockings give the same bits (each element of C is one
/// chain of multiply-adds in k order), so the twins may differ in blocking.
template <class Scalar>
struct GemmDefaultBlocking;
template <>
struct GemmDefaultBlocking<float> {
  // 128 x 128 x 16, 256 threads, 8 x 8 floats per thread, 2 blocks per SM (<= 128 registers), 4 x 8 lanes
  // per warp. Lane layout and FMA order change no result, only how nvcc assigns the accumulators to register
  // banks, and the issue-bound loop follows the bank clashes: each twin runs the order fastest for it, the
  // native twin by columns (1), the layer serpentine (2) with B through registers (docs/performance.md,
  // "GEMM"). SCRATCHKIT_GEMM_SIMT_LAYER_ORDER / _BASYNC are measurement knobs for bench builds of the
  // layer's candidates (the tuner times native kernels only), not a configuration interface.
#ifndef SCRATCHKIT_GEMM_SIMT_LAYER_ORDER
#define SCRATCHKIT_GEMM_SIMT_LAYER_ORDER 2
#endif
#ifndef SCRATCHKIT_GEMM_SIMT_LAYER_BASYNC
#define SCRATCHKIT_GEMM_SIMT_LAYER_BASYNC 0
#endif
  using type = GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, SCRATCHKIT_GEMM_SIMT_LAYER_ORDER,
                            SCRATCHKIT_GEMM_SIMT_LAYER_BASYNC != 0>;
  using native_type = GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, 1>;
  // Products of fewer than few_below_tiles 128 x 128 tiles of C (gemm_pick_few) leave most SMs idle
  // with the blocking above (64 tiles at 1024^3 on 132 SMs): both twins then run few_type, 64 x 64 tiles
  // of 128 threads, 8 x 4 floats per thread, serpentine order. The switch lies where the two blockings'
  // measured speeds cross (docs/performance.md, "GEMM").
  using few_type = GemmBlocking<64, 64, 16, 32, 32, 8, 4, 4, 2, gemm_serpentine>;
  static constexpr long long few_below_tiles = 200;
};
template <>
struct GemmDefaultBlocking<double> {
  // FP64 tensor cores, m16n8k16 (DMMA.16x8x16, sm_90). No one blocking is best at both measured sizes, so
  // both twins pick by the number of 128 x 128 tiles of C (gemm_mma_pick): small_type, 64 x 128 x 32, 4 warps,
  // 2 stages = 96.5 KB, 2 blocks per SM, below small_below_tiles; large_type, 128 x 128 x 32, 8 warps,
  // 3 stages = 192 KB, 1 block per SM, above (docs/performance.md, "GEMM").
  // Both need CUDA's opt-in above 48 KB: the native twin sets it, the layer's CUDA block driver does
  // (SCRATCHKIT_KOKKOS_CUDA_DRIVER builds). `type` is the fallback of both twins where a block cannot have that
  // much shared memory (Kokkos' own 40 KB of level 0, or a device with less): 36 KB, m16n8k8.
  using small_type  = GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>;
  using large_type  = GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>;
  using native_type = large_type;  ///< the tuner's reference line ("*")
  using type        = GemmMmaBlocking<64, 128, 32, 64, 2, 3>;
  static constexpr long long small_below_tiles = 2048;  ///< 128 x 128 tiles of C under which small_type runs
  static_assert(type::smem_bytes <= 40 * 1024, "the fallback blocking must fit Kokkos 4.6's ~40 KB of level 0");
  // Below few_below_tiles 128 x 128 tiles of C (gemm_pick_few) both twins run few_type, 32 x 64 tiles of
  // 128 threads (warps of 16 x 32), m16n8k16, 3 stages of k = 16: 37 KB, within Kokkos' own level 0, so on
  // every launch path; 4 blocks per SM, so only where four fit an SM (an H100's 228 KB; elsewhere the picks
  // below). It is the fastest small blocking the tuner measured (docs/performance.md, "GEMM"). Where the
  // larger blockings do not fit, few_type also runs from 200 to 1024 tiles (below).
  using few_type = GemmMmaBlocking<32, 64, 16, 32, 4, 3, 1, 16>;
  static constexpr long long few_below_tiles = 200;
  // Where small_type and large_type do not fit (Kokkos' public path on Kokkos 4.6, ~40 KB of level 0) both
  // twins run few_type instead of `type` below fallback_few_below_tiles (gemm_split_plan leaves square
  // sizes of 1448^2-3968^2 unsplit; H100, 132 SMs): faster up to 1024 tiles, behind above
  // (docs/performance.md, "GEMM").
  static constexpr long long fallback_few_below_tiles = 1024;
  static_assert(few_type::smem_bytes <= 40 * 1024, "the few-tile blocking must fit Kokkos 4.6's ~40 KB of level 0");
  // Below tiny_below_tiles 128 x 128 tiles of C (gemm_pick_tiny, under 1024^3) both twins run tiny_type,
  // 32 x 32 tiles of 128 threads (warps of 16 x 16), m16n8k16, 4 stages of k = 16: 33 KB, on every launch
  // path, never split (splitting it gained nothing in the tuner). cuBLAS runs 32 x 32 x 32 tiles of 128
  // threads there (docs/performance.md, "GEMM").
  using tiny_type = GemmMmaBlocking<32, 32, 16, 16, 4, 4, 1, 16>;
  static constexpr long long tiny_below_tiles = 64;
  static_assert(tiny_type::smem_bytes <= 40 * 1024, "the tiny blocking must fit Kokkos 4.6's ~40 KB of level 0");
};

/// 128 x 128 tiles of an M x N product C: what the default blockings' picks count.
SCRATCHKIT_HOST_DEVICE constexpr long long gemm_tiles_128(int M, int N) {
  // In 64 bits before the rounding: M + 127 overflows int for M above INT_MAX - 127.
  return ((static_cast<long long>(M) + 127) / 128) * ((static_cast<long long>(N) + 127) / 128);
}

/// Which of GemmDefaultBlocking<double>'s large blockings an M x N product runs with (both twins):
/// true for small_type.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_mma_pick_small(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::small_below_tiles;
}

/// True where an M x N product of double runs GemmDefaultBlocking<double>::tiny_type on a GPU (both
/// twins): fewer 128 x 128 tiles than tiny_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_tiny(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::tiny_below_tiles;
}

/// True where an M x N double product runs GemmDefaultBlocking<double>::few_type on a GPU (both twins) when
/// neither small_type nor large_type fits the launch: fewer 128 x 128 tiles than fallback_few_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_fallback_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::fallback_few_below_tiles;
}

/// True where an M x N product of Scalar runs GemmDefaultBlocking<Scalar>::few_type on a GPU (both twins):
/// fewer 128 x 128 tiles than few_below_tiles (double: and not gemm_pick_tiny, where tiny_type fits).
template <class Scalar>
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<Scalar>::few_below_tiles;
}

/// Split-K of register_blocked (both twins): `splits` blocks per tile of C,
/// block z of a tile walks slices [z * per, min((z + 1) * per, nk)) of K:
/// (splits - 1) * per < nk <= splits * per, so every slice is walked once and
/// every block has at least one. splits == 1: no split.
struct GemmSplit {
  int splits = 1;  ///< blocks per tile of C
  int per    = 0;  ///< slices of BK per block (nk when splits == 1)
};

/// A product is split only where each split gets at least this many slices
/// (per >= 4; the last split may have fewer): the exchange of partial sums
/// (store, fence, counter, the last block's loads) costs about two
/// global-memory round trips, the price of a few slices.
constexpr int gemm_split_min_slices = 4;
/// At most this many blocks per tile of C (the last block reads them all).
constexpr int gemm_split_max = 16;
/// The plan's cost model (gemm_split_plan): a block costs its slices plus
/// this many (its prologue, the pipeline fill and the exchange of partial
/// sums), and a plan has at most gemm_split_max_waves waves of resident blocks
/// (which bounds the workspace: float 64 x 64 tiles on an H100, 4 x 528 blocks
/// of 16 KB, 35 MB).
constexpr int gemm_split_block_cost = 10;
constexpr int gemm_split_max_waves  = 4;

/// Relative time of a plan of s splits of `per` slices on `tiles` tiles (gemm_split_plan's model), as a
/// fraction num / den: the busiest SM holds b = ceil(tiles * s / sms) blocks, each of per +
/// gemm_split_block_cost slices, and gets through them at efficiency 1 with min_blocks or more resident,
/// 0.7 with one fewer and 0.6 with fewer still (blocks of the few-tile blockings cannot keep an SM's
/// issue slots busy alone).
struct GemmSplitCost {
  long long num = 0, den = 1;
  SCRATCHKIT_HOST_DEVICE constexpr bool operator<(const GemmSplitCost& o) const { return num * o.den < o.num * den; }
};
SCRATCHKIT_HOST_DEVICE constexpr GemmSplitCost gemm_split_cost(long long tiles, long long s, long long per, int sms,
                                                             int min_blocks) {
  const long long b = (tiles * s + sms - 1) / sms;
  const long long eff10 = b >= min_blocks ? 10 : (b == min_blocks - 1 ? 7 : 6);
  return GemmSplitCost{b * (per + gemm_split_block_cost) * 10, eff10};
}

/// The split-K of an M x N x K product with blocking Blk on a GPU of `sms`
/// SMs (both twins take it, so they run the same blocks and give the same bits):
/// the split count of least modelled time (gemm_split_cost; ties to fewer
/// splits) among 1 to gemm_split_max, each split with at least
/// gemm_split_min_slices slices, at most gemm_split_max_waves waves of
/// sms * Blk::min_blocks blocks. The result's bits depend on the plan, hence on
/// the SM count and on these constants.
/// Why: below a wave the tiles' serial walk over K is all the time there is
/// (512^3 float: 64 tiles of 64 x 64 on 132 SMs, 32 slices each); above it,
/// splits even out the blocks of the SMs. The model's constants are fitted to
/// the tuner's device time of every split count at 15 sizes, and checked at 15
/// others (docs/performance.md, "GEMM").
template <class Blk>
SCRATCHKIT_HOST_DEVICE constexpr GemmSplit gemm_split_plan(int M, int N, int K, int sms) {
  GemmSplit p;
  const long long nk    = (static_cast<long long>(K) + Blk::BK - 1) / Blk::BK;
  const long long tiles = ((static_cast<long long>(M) + Blk::BM - 1) / Blk::BM) *
                          ((static_cast<long long>(N) + Blk::BN - 1) / Blk::BN);
  p.per = static_cast<int>(nk);
  if (tiles <= 0 || sms <= 0) return p;
  long long smax = static_cast<long long>(gemm_split_max_waves) * sms * Blk::min_blocks / tiles;
  if (smax > nk / gemm_split_min_slices) smax = nk / gemm_split_min_slices;
  if (smax > gemm_split_max) smax = gemm_split_max;
  if (smax < 2) return p;  // before any cost: tiles may be near 2^60 here
  long long s = 1;
  GemmSplitCost best = gemm_split_cost(tiles, 1, nk, sms, Blk::min_blocks);
  for (long long c = 2; c <= smax; ++c) {
    const long long per = (nk + c - 1) / c;
    if ((nk + per - 1) / per != c) continue;  // the same blocks as a smaller count
    const GemmSplitCost t = gemm_split_cost(tiles, c, per, sms, Blk::min_blocks);
    if (t < best) {
      best = t;
      s    = c;
    }
  }
  if (s < 2) return p;
  p.per    = static_cast<int>((nk + s - 1) / s);
  p.splits = static_cast<int>((nk + p.per - 1) / p.per);
  return p;
}

/// What a split launch needs besides the plan: `count`, one counter per tile
/// of C, zero before the launch (the last block of a tile puts it back to
/// zero); `work`, splits x BM x BN partial sums per tile, tile-major.
template <class S>
struct GemmSplitK {
  GemmSplit plan;
  unsigned* count = nullptr;
  S* work         = nullptr;
};

/// The workspace a split launch of blocking Blk on an M x N product needs (both
/// twins' gemm_split_workspace): one counter per tile, in bytes rounded up to
/// 256 so that the partial sums after them stay aligned, and splits x BM x BN
/// partial sums of S per tile.
struct GemmSplitBytes {
  long long tiles = 0;
  std::size_t count = 0, work = 0;  ///< bytes
};
template <class Blk, class S>
SCRATCHKIT_HOST_DEVICE constexpr GemmSplitBytes gemm_split_bytes(int M, int N, const GemmSplit& plan) {
  GemmSplitBytes b;
  b.tiles = ((static_cast<long long>(M) + Blk::BM - 1) / Blk::BM) * ((static_cast<long long>(N) + Blk::BN - 1) / Blk::BN);
  b.count = (static_cast<std::size_t>(b.tiles) * sizeof(unsigned) + 255) / 256 * 256;
  b.work  = static_cast<std::size_t>(b.tiles) * plan.splits * (Blk::BM * Blk::BN) * sizeof(S);
  return b;
}

/// Thread `rank` of an NTH-thread block stores its E partial sums at
/// w[e * NTH + rank] (consecutive threads, consecutive addresses).
template <int E, int NTH, class S>
SCRATCHKIT_HOST_DEVICE inline void gemm_split_put(S* w, int rank, const S* acc) {
  SCRATCHKIT_GEMM_UNROLL
  for (int e = 0; e < E; ++e) w[e * NTH + rank] = acc[e];
}

/// acc[e] = the partial sums of every split of the tile added in split order
/// (split s at w + s * E * NTH), read through volatile loads: they were written
/// by other blocks of this launch, which no cache of this SM has seen. The
/// order is fixed, so the bits do not depend on which block finishes last.
template <int E, int NTH, class S>
SCRATCHKIT_HOST_DEVICE inline void gemm_split_sum(const S* w, int splits, int rank, S* acc) {
  const volatile S* v = w;
  SCRATCHKIT_GEMM_UNROLL
  for (int e = 0; e < E; ++e) acc[e] = v[e * NTH + rank];
  for (int s = 1; s < splits; ++s) {
    SCRATCHKIT_GEMM_UNROLL
    for (int e = 0; e < E; ++e) acc[e] = acc[e] + v[static_cast<std::size_t>(s) * (E * NTH) + e * NTH + rank];
  }
}

/// Throws Error unless `plan` walks each of the ceil(K / Blk::BK) slices once
/// with no empty block (the launches check a caller's plan before use).
template <class Blk>
inline void gemm_split_require(const GemmSplit& plan, int K) {
  const long long nk = (static_cast<long long>(K) + Blk::BK - 1) / Blk::BK;
  if (plan.splits < 1 || plan.per < 1 || static_cast<long long>(plan.splits - 1) * plan.per >= nk ||
      static_cast<long long>(plan.splits) * plan.per < nk)
    throw Error("scratchkit::gemm: split-K plan of " + std::to_string(plan.splits) + " splits of " +
                std::to_string(plan.per) + " slices does not cover the " + std::to_string(nk) +
                " slices of K once");
}

/// Index of the tile of block (bx, by) among the tiles of C, row by row.
SCRATCHKIT_HOST_DEVICE inline int gemm_split_tile(int bx, int by, int nbx) { return by * nbx + bx; }

}  // namespace detail

namespace native {
namespace cuda {

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
/// `shared_limit`: register_blocked (double) picks no blocking whose stages
/// need more shared memory per block than this. scratchkit::gemm passes the
/// stages of the blocking the layer can launch (detail::gemm_native_shared_limit),
/// so that Backend::native runs the layer's blocking and the twins agree bit
/// for bit on any launch path; the default leaves the pick to the device.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr, std::size_t shared_limit = ~std::size_t(0));

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
