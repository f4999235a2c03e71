// SPDX-License-Identifier: BSD-3-Clause
/// Native CUDA gemm (src/cuda/gemm.cu): plain pointer-and-size API, no CUDA or Kokkos headers.
///
/// Device pointers, row-major contiguous arrays; `stream` is a cudaStream_t
/// (nullptr: the default stream); asynchronous unless a value is returned.
/// Errors throw scratchkit::Error. Defined only when SCRATCHKIT_HAS_NATIVE_CUDA is 1.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/kernels/variants.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace detail {

#if defined(__CUDACC__) || defined(__HIPCC__)
#define SCRATCHKIT_HOST_DEVICE __host__ __device__
#else
#define SCRATCHKIT_HOST_DEVICE
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
/// native twin so that both run the same tiles and launch bounds.
///
/// A block of `threads` = 32 * (BM/WM) * (BN/WN) threads computes a BM x BN
/// tile of C, walking K in slices of BK. Each warp owns a WM x WN warp tile;
/// its lanes form an LY x LX grid (LY = WM/TM, LX = WN/TN, LY * LX = 32) and
/// each lane holds a TM x TN thread tile in registers, split into 16-byte
/// fragments interleaved with its neighbours' so that every shared-memory
/// read is one conflict-free 16-byte vector. MinBlocks is the
/// __launch_bounds__ occupancy hint (blocks per SM) given on both twins.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int MinBlocks_ = 1>
struct GemmBlocking {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int LY = WM / TM, LX = WN / TN;   ///< lanes of a warp along M and N
  static constexpr int WY = BM / WM, WX = BN / WN;   ///< warps of a block along M and N
  static constexpr int threads = 32 * WY * WX;       ///< 1-D block of this many threads
  static constexpr bool tensor_core = false;         ///< FMA on the CUDA cores
  static_assert(BM > 0 && BN > 0 && BK > 0 && TM > 0 && TN > 0 && MinBlocks_ > 0, "GemmBlocking: positive sizes");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % TM == 0 && WN % TN == 0,
                "GemmBlocking: BM, BN multiples of WM, WN; WM, WN multiples of TM, TN");
  static_assert(LY * LX == 32, "GemmBlocking: a warp tile must hold 32 thread tiles");
  static_assert(threads <= 1024, "GemmBlocking: at most 1024 threads per block");
};

/// Blocking of the FP64 tensor-core path of GemmVariant::register_blocked
/// (double, CUDA devices of compute capability 8.0 and above; both twins).
/// GemmDefaultBlocking<double> selects it.
///
/// A block of `threads` = 32 * (BM/WM) * (BN/WN) threads computes a BM x BN
/// tile of C, walking K in slices of BK = 8 (A and B slices double-buffered
/// in shared memory, swizzled so that fragment reads are conflict-free). Each
/// warp owns a WM x WN warp tile of (WM/16) x (WN/8) mma tiles of 16 x 8
/// doubles, each one `mma.sync.m16n8k8.f64` per slice (sm_90; four
/// m8n8k4 on sm_80). Lane l = 4g + t holds elements (g, 2t), (g, 2t+1),
/// (g+8, 2t), (g+8, 2t+1) of each mma tile. Elsewhere (host backends, other
/// GPUs) the same threads compute the same elements with scalar FMAs.
template <int BM_, int BN_, int WM_, int WN_, int MinBlocks_ = 1>
struct GemmMmaBlocking {
  static constexpr int BM = BM_, BN = BN_, BK = 8, WM = WM_, WN = WN_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int MT = WM / 16, NT = WN / 8;  ///< mma tiles of a warp along M and N
  static constexpr int WY = BM / WM, WX = BN / WN;  ///< warps of a block along M and N
  static constexpr int threads = 32 * WY * WX;      ///< 1-D block of this many threads
  static constexpr bool tensor_core = true;
  static_assert(BM > 0 && BN > 0 && WM > 0 && WN > 0 && MinBlocks_ > 0, "GemmMmaBlocking: positive sizes");
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0,
                "GemmMmaBlocking: BM, BN multiples of WM, WN; WM and WN multiples of 16");
  static_assert(threads <= 1024, "GemmMmaBlocking: at most 1024 threads per block");
};

/// Shared-memory index of A(m, k) in a BM x 8 slice stored by rows: the
/// 16-byte pairs of a row are permuted (k ^ 4 on rows with bit 1 set) so that
/// the 8 x 4 lanes of a fragment read hit distinct banks.
SCRATCHKIT_HOST_DEVICE constexpr int gemm_mma_a_index(int m, int k) { return m * 8 + (k ^ (((m >> 1) & 1) << 2)); }
/// Shared-memory index of B(k, n) in an 8 x BN slice stored by rows: n ^ 4(k % 4), for the same reason.
template <int BN>
SCRATCHKIT_HOST_DEVICE constexpr int gemm_mma_b_index(int k, int n) {
  return k * BN + (n ^ ((k & 3) << 2));
}

/// Where thread `rank` of a GemmMmaBlocking block reads its mma fragments in
/// a slice buffer (constant over the slices): A(m + 16i + 8h, t + 4q) at
/// a(i, h, q) and B(t + 4q, n + 8j) at b(j, q), for its first row m and column n.
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
  SCRATCHKIT_HOST_DEVICE int a(int i, int h, int q) const { return (q ? a_hi : a_lo) + i * 128 + h * 64; }
  SCRATCHKIT_HOST_DEVICE int b(int j, int q) const {
    return (j & 1 ? b_odd : b_even) + (j >> 1) * 16 + q * 4 * Blk::BN;
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
#define SCRATCHKIT_GEMM_DMMA 1
#else
#define SCRATCHKIT_GEMM_DMMA 0
#endif

/// Derived sizes of GemmVariant::register_blocked for blocking Blk and element
/// type Scalar (both twins use it).
template <class Blk, class Scalar>
struct GemmRbShape {
  static constexpr int VW = static_cast<int>(16 / sizeof(Scalar));  ///< elements per 16-byte vector
  static constexpr int NT = Blk::threads, BM = Blk::BM, BN = Blk::BN, BK = Blk::BK;
  static constexpr int PA = BM + VW;  ///< A^T row pitch: the transposing stores hit distinct banks
  static constexpr int KV = BK / VW, NV = BN / VW;           ///< 16-byte vectors per row of an A, B slice
  static constexpr int AV = BM * KV, BV = BK * NV;           ///< vectors per A, B slice
  static constexpr int LA = (AV + NT - 1) / NT, LB = (BV + NT - 1) / NT;  ///< vectors per thread
  static constexpr int a_size = 2 * BK * PA, b_size = 2 * BK * BN;        ///< two buffers each
  static_assert(BK % VW == 0 && BN % VW == 0, "register_blocked: BK and BN must be multiples of 16 bytes");
};

/// The blocking GemmVariant::register_blocked runs with, per type (both
/// twins). To switch, change the `type` line; perf/gemm_tune.cu times the
/// candidates against cuBLAS on the GPU.
template <class Scalar>
struct GemmDefaultBlocking;
template <>
struct GemmDefaultBlocking<float> {
  // 128 x 128 x 16, 256 threads, 8 x 8 floats per thread, 2 blocks per SM (<= 128 registers):
  // the fastest of scratchkit-gemm-tune's candidates on the H100 (0.855x / 0.858x cuBLAS at
  // 4096^3 / 8192^3; perf/results/h100/gemm_tune.txt), ahead of 128 x 256 x 8 (0.842x / 0.849x).
  using type = GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2>;
};
template <>
struct GemmDefaultBlocking<double> {
  // FP64 tensor cores: 64 x 128 x 8, 4 warps of 32 x 64 (2 x 8 mma tiles), 128 threads, 2 blocks
  // per SM: the fastest candidate on the H100 (0.701x / 0.742x cuBLAS DGEMM at 4096^3 / 8192^3;
  // perf/results/h100/gemm_tune.txt).
  using type = GemmMmaBlocking<64, 128, 32, 64, 2>;
};

}  // namespace detail

namespace native {
namespace cuda {

/// C = alpha*A*B + beta*C; A is M x K, B is K x N, C is M x N.
void gemm(GemmVariant v, int M, int N, int K, float alpha, const float* A, const float* B, float beta, float* C,
          void* stream = nullptr);
void gemm(GemmVariant v, int M, int N, int K, double alpha, const double* A, const double* B, double beta,
          double* C, void* stream = nullptr);

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
