// SPDX-License-Identifier: BSD-3-Clause
/// GemmVariant::register_blocked in CUDA with __shared__ (internal): the twin of
/// detail::gemm_register_blocked in include/scratchkit/kernels/gemm.hpp, same
/// tiles and operation order. A template on the blocking, so that
/// perf/tune/gemm_tune.cu can time several; src/cuda/gemm.cu runs the default one.
#pragma once

#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/detail/gemm/cp_async.hpp>
#include <scratchkit/detail/gemm/mma.hpp>
#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/detail/gemm/simt.hpp>
#include <scratchkit/detail/gemm/split_k.hpp>
#include <scratchkit/detail/gemm/tile_copy.hpp>
#include <scratchkit/detail/load16.hpp>
#include <scratchkit/native/gemm.hpp>
#include <scratchkit/tuning/gemm.hpp>

#include "check.cuh"

#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

/// Derived sizes: the layer's (scratchkit::detail::GemmRbShape in detail/gemm/tile_copy.hpp).
template <class S, class Blk>
using RbShape = scratchkit::detail::GemmRbShape<Blk, S>;

/// The end of a split block (after the barrier of its last slice; the layer's twin is
/// scratchkit::detail::gemm_split_finish): its E partial sums per thread to sp.work, a barrier, then
/// thread 0 fences (release, for every thread's stores, which the barrier ordered before its fence) and
/// counts the block in the tile's counter. Returns false in every block but the tile's last, which puts
/// the counter back to zero, fences (acquire) and gets the sums of all splits in split order in acc.
/// `flag` is a word of shared memory no thread reads any more; it is read into a register and a barrier
/// passed before anything can write that word again.
template <int E, int NTH, class S, class F>
__device__ __forceinline__ bool gemm_split_finish(const scratchkit::detail::GemmSplitK<S>& sp, int bx, int by,
                                                  int nbx, S* acc, F* flag) {
  const int tile = scratchkit::detail::gemm_split_tile(bx, by, nbx);
  S* const w     = sp.work + static_cast<std::size_t>(tile) * sp.plan.splits * (E * NTH);
  scratchkit::detail::gemm_split_put<E, NTH>(w + static_cast<std::size_t>(blockIdx.z) * (E * NTH), threadIdx.x, acc);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();  // the block's partial sums before the counter
    const bool last = atomicAdd(sp.count + tile, 1u) == static_cast<unsigned>(sp.plan.splits - 1);
    if (last) {
      sp.count[tile] = 0u;  // for the next launch on this workspace (stream order)
      __threadfence();      // the other blocks' sums before this block's loads
    }
    *flag = last ? F(1) : F(0);
  }
  __syncthreads();
  const bool last = *flag != F(0);
  __syncthreads();  // every thread has read the flag
  if (!last) return false;
  scratchkit::detail::gemm_split_sum<E, NTH>(w, sp.plan.splits, threadIdx.x, acc);
  return true;
}

/// The CUDA-core path with a GemmBlocking (the twin of detail::gemm_register_blocked_simt on the layer):
/// A^T and B slices double-buffered in shared memory, slice kt+1 loaded into registers (16-byte loads
/// when a_vec / b_vec) during the math on slice kt, one barrier per slice. 1-D block of Blk::threads;
/// thread rank's rows are m0 + g*LY*VW + q and columns n0 + h*LX*VW + q of the block tile (warp tile
/// WM x WN, lanes LY x LX): every shared read is a conflict-free 16-byte vector.
/// Split: block z of a tile walks the slices of split z of sp.plan and the tile's last block adds the
/// partial sums (gemm_split_finish); without it, the same code as before the split existed.
template <class S, class Blk, bool Split = false>
__global__ void __launch_bounds__(Blk::threads, Blk::min_blocks)
    gemm_register_blocked_kernel(int M, int N, int K, S alpha, const S* __restrict__ A, const S* __restrict__ B,
                                 S beta, S* __restrict__ C, bool a_vec, bool b_vec, int lg,
                                 scratchkit::detail::GemmSplitK<S> sp) {
  using Sh         = RbShape<S, Blk>;
  using Vec        = scratchkit::detail::GemmVec16<S>;
  constexpr int VW = Sh::VW, BK = Sh::BK, TM = Blk::TM, TN = Blk::TN, LY = Blk::LY, LX = Blk::LX;
  constexpr int HA = Sh::a_size / 2, HB = Sh::b_size / 2;  // one buffer
  __shared__ __align__(16) S As[Sh::a_size];  // A^T, buffers 0 and 1
  __shared__ __align__(16) S Bs[Sh::b_size];  // B, buffers 0 and 1
  const int rank = scratchkit::detail::gemm_thread_rank<Blk::threads>(threadIdx.x);
  int bx, by;  // grouped block order, as on the layer (scratchkit::detail::GemmGrid)
  scratchkit::detail::gemm_tile_of(blockIdx.x, blockIdx.y, lg, bx, by);
  const int row0 = by * Blk::BM, col0 = bx * Blk::BN;
  if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
  const int nk_all = (K + BK - 1) / BK;
  const int k0     = Split ? static_cast<int>(blockIdx.z) * sp.plan.per : 0;  // first slice of this block
  const int nk     = Split ? min(sp.plan.per, nk_all - k0) : nk_all;          // slices of this block
  const scratchkit::detail::GemmMat<const S, true> a{A, K, 1}, b{B, N, 1};
  int m0, n0;
  scratchkit::detail::gemm_simt_place<Blk, S>(rank, m0, n0);

  S acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i) {
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = S(0);
  }
  {
    Vec ra[Sh::LA], rb[Sh::LB];
    if constexpr (Blk::b_async) scratchkit::detail::gemm_simt_issue_b<Blk>(b, N, K, col0, k0 * BK, rank, b_vec, Bs);
    scratchkit::detail::gemm_simt_load<Blk>(a, b, M, N, K, row0, col0, k0 * BK, rank, a_vec, b_vec, ra, rb);
    scratchkit::detail::gemm_simt_store<Blk>(As, Bs, rank, ra, rb);
  }
  if constexpr (Blk::b_async) scratchkit::detail::gemm_cp_async_wait<0>();
  __syncthreads();
  for (int kt = 0; kt < nk; ++kt) {
    const int cur   = kt & 1;
    const bool more = kt + 1 < nk;
    // Slice kt+1 goes to registers (B with Blk::b_async: to the other buffer by cp.async) first, so its
    // loads are in flight during the math on slice kt. The other buffer was last read before the previous
    // barrier: safe to overwrite.
    Vec ra[Sh::LA], rb[Sh::LB];
    if constexpr (Blk::b_async) {
      if (more)
        scratchkit::detail::gemm_simt_issue_b<Blk>(b, N, K, col0, (k0 + kt + 1) * BK, rank, b_vec,
                                                   Bs + (1 - cur) * HB);
    }
    if (more)
      scratchkit::detail::gemm_simt_load<Blk>(a, b, M, N, K, row0, col0, (k0 + kt + 1) * BK, rank, a_vec, b_vec, ra,
                                              rb);
    scratchkit::detail::gemm_simt_compute<Blk>(acc, As + cur * HA, Bs + cur * HB, m0, n0);
    if (more) scratchkit::detail::gemm_simt_store<Blk>(As + (1 - cur) * HA, Bs + (1 - cur) * HB, rank, ra, rb);
    if constexpr (Blk::b_async) scratchkit::detail::gemm_cp_async_wait<0>();
    __syncthreads();  // the only barrier of a slice
  }
  if constexpr (Split) {
    if (!gemm_split_finish<TM * TN, Blk::threads>(sp, bx, by, (N + Blk::BN - 1) / Blk::BN, &acc[0][0], As)) return;
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int r = row0 + m0 + (i / VW) * LY * VW + i % VW;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int c = col0 + n0 + (j / VW) * LX * VW + j % VW;
      if (c < N) {
        const long long idx = static_cast<long long>(r) * N + c;
        C[idx] = beta == S(0) ? alpha * acc[i][j] : scratchkit::detail::gemm_epilogue(alpha, acc[i][j], beta, C[idx]);
      }
    }
  }
}

/// The double path with a GemmMmaBlocking (the twin of detail::gemm_register_blocked_mma on the layer):
/// Blk::stages slices of BK = Blk::mma_k * Blk::KS of A and B by rows in swizzled dynamic shared memory (opt-in above
/// 48 KB), filled by cp.async (16-byte copies when a_vec / b_vec, zero-filled past the matrices; unchecked
/// inside them) while the warps run Blk::KS m16n8k8 or m16n8k16 FP64 mma per tile of the warp on an older slice
/// (sm_80+; scalar FMAs in k order below that, as on the layer); one barrier per slice
/// (scratchkit::detail::GemmStageRing). The copies of slice kt+S-1 are issued between the first fragment
/// reads of slice kt and its mma, as on the layer.
template <class Blk, bool Split = false>
__global__ void __launch_bounds__(Blk::threads, Blk::min_blocks)
    gemm_register_blocked_mma_kernel(int M, int N, int K, double alpha, const double* __restrict__ A,
                                     const double* __restrict__ B, double beta, double* __restrict__ C, bool a_vec,
                                     bool b_vec, int lg, scratchkit::detail::GemmSplitK<double> sp) {
  constexpr int S = Blk::stages, SA = Blk::a_stage, SB = Blk::b_stage, BK = Blk::BK;
  constexpr int MT = Blk::MT, NTL = Blk::NT;
  extern __shared__ __align__(16) double gemm_mma_smem[];
  double* const As = gemm_mma_smem;           // A, stages 0 .. S-1
  double* const Bs = gemm_mma_smem + S * SA;  // B by rows, stages 0 .. S-1
  const int rank = threadIdx.x;
  int bx, by;  // grouped block order, as on the layer (scratchkit::detail::GemmGrid)
  scratchkit::detail::gemm_tile_of(blockIdx.x, blockIdx.y, lg, bx, by);
  const int row0 = by * Blk::BM, col0 = bx * Blk::BN;
  if (row0 >= M) return;  // past the last tile row, in the last group (the whole block)
  const int nk_all = (K + BK - 1) / BK;
  const int k0     = Split ? static_cast<int>(blockIdx.z) * sp.plan.per : 0;  // first slice of this block
  const int nk     = Split ? min(sp.plan.per, nk_all - k0) : nk_all;          // slices of this block
  const scratchkit::detail::GemmMat<const double, true> a{A, K, 1}, b{B, N, 1};
  auto issue = [&](int kt, int stage) {
    if (kt < nk)
      scratchkit::detail::gemm_mma_issue<Blk>(a, b, M, N, K, row0, col0, (k0 + kt) * BK, rank, a_vec, b_vec,
                                              As + stage * SA, Bs + stage * SB);
    scratchkit::detail::gemm_cp_async_commit();
  };
  const scratchkit::detail::GemmMmaLane<Blk> lo(rank);  // fragment offsets in a stage

  double acc[MT][NTL][4];
#pragma unroll
  for (int i = 0; i < MT; ++i) {
#pragma unroll
    for (int j = 0; j < NTL; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0;
    }
  }
#pragma unroll
  for (int s = 0; s < S - 1; ++s) issue(s, s);
  scratchkit::detail::gemm_cp_async_wait<S - 2>();
  __syncthreads();
  scratchkit::detail::GemmStageRing<S> ring;
  for (int kt = 0; kt < nk; ++kt) {
    const int wr = ring.write();
    scratchkit::detail::gemm_mma_compute<Blk>(acc, As + ring.rd * SA, Bs + ring.rd * SB, lo, rank,
                                              [&] { issue(kt + S - 1, wr); });
    scratchkit::detail::gemm_cp_async_wait<S - 2>();
    __syncthreads();  // the only barrier of a slice
    ring.next();
  }
  if constexpr (Split) {
    if (!gemm_split_finish<MT * NTL * 4, Blk::threads>(sp, bx, by, (N + Blk::BN - 1) / Blk::BN, &acc[0][0][0], As))
      return;
  }
  const int warp = rank / 32, lane = rank % 32;
  const int m0 = row0 + (warp / Blk::WX) * Blk::WM + lane / 4, n0 = col0 + (warp % Blk::WX) * Blk::WN + 2 * (lane % 4);
#pragma unroll
  for (int i = 0; i < MT; ++i) {
#pragma unroll
    for (int j = 0; j < NTL; ++j) {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        const int r = m0 + i * 16 + 8 * (e / 2), c = n0 + j * 8 + e % 2;
        if (r < M && c < N) {
          const long long idx = static_cast<long long>(r) * N + c;
          C[idx] = beta == 0.0 ? alpha * acc[i][j][e]
                               : scratchkit::detail::gemm_epilogue(alpha, acc[i][j][e], beta, C[idx]);
        }
      }
    }
  }
}

/// The kernel of blocking Blk: a GemmBlocking runs on the CUDA cores, a GemmMmaBlocking on the FP64 tensor cores.
template <class S, class Blk, bool Split = false>
constexpr auto rb_kernel() {
  if constexpr (Blk::tensor_core) {
    static_assert(std::is_same<S, double>::value, "register_blocked: the tensor-core blocking is for double");
    return gemm_register_blocked_mma_kernel<Blk, Split>;
  } else {
    return gemm_register_blocked_kernel<S, Blk, Split>;
  }
}

/// The split-K workspace of stream s on the current device, of at least `need` bytes
/// (scratchkit::detail::gemm_split_bytes), handed to launch(sp) under the workspaces' lock: one allocation per (device, stream; host
/// thread too for cudaStreamPerThread), grown when a launch needs more and kept for the process (cuBLAS
/// keeps its workspace per handle the same way; at most sms x min_blocks x BM x BN partial sums, 8.6 MB on
/// an H100). One per stream because a launch's last blocks put its counters back to zero only by the
/// launch's end: the next launch on the same stream may reuse them, a concurrent one on another stream may
/// not. The lock is held until the kernel is queued, so that no other host thread can grow (free) the
/// buffer between this launch's pointers and its launch. The counters are zeroed (on s) when allocated.
struct GemmSplitBuffer {
  void* p                = nullptr;
  std::size_t count_size = 0, work_size = 0;  ///< bytes: counters (a multiple of 256), partial sums
};
template <class S, class Launch>
void gemm_split_workspace(const scratchkit::detail::GemmSplit& plan, const scratchkit::detail::GemmSplitBytes& need,
                          cudaStream_t s, const Launch& launch) {
  static std::mutex m;
  // Never destroyed: freeing at exit would run after the CUDA runtime is gone (as reduce.cu's buffers).
  static auto* const buffers = new std::map<std::tuple<int, cudaStream_t, std::thread::id>, GemmSplitBuffer>;
  int dev = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  const std::thread::id thread = s == cudaStreamPerThread ? std::this_thread::get_id() : std::thread::id();
  std::lock_guard<std::mutex> lock(m);
  GemmSplitBuffer& b = (*buffers)[{dev, s, thread}];
  if (b.p == nullptr || b.count_size < need.count || b.work_size < need.work) {
    if (b.p != nullptr) {
      SCRATCHKIT_CUDA_CHECK(cudaStreamSynchronize(s));  // launches still using the old buffer
      SCRATCHKIT_CUDA_CHECK(cudaFree(b.p));
      b.p = nullptr;
    }
    const std::size_t cs = need.count > b.count_size ? need.count : b.count_size;
    const std::size_t ws = need.work > b.work_size ? need.work : b.work_size;
    SCRATCHKIT_CUDA_CHECK(cudaMalloc(&b.p, cs + ws));
    SCRATCHKIT_CUDA_CHECK(cudaMemsetAsync(b.p, 0, cs, s));
    b.count_size = cs, b.work_size = ws;
  }
  scratchkit::detail::GemmSplitK<S> sp;
  sp.plan  = plan;
  sp.count = static_cast<unsigned*>(b.p);
  sp.work  = reinterpret_cast<S*>(static_cast<unsigned char*>(b.p) + b.count_size);
  launch(sp);
}

/// One launch of the register_blocked kernel of blocking Blk, split or not.
template <class S, class Blk, bool Split>
void gemm_register_blocked_launch(int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C,
                                  cudaStream_t s, const scratchkit::detail::GemmSplitK<S>& sp) {
  constexpr int VW = RbShape<S, Blk>::VW;
  // 16-byte loads need every vector of a row inside or outside the matrix: K (N) a multiple of VW.
  const bool a_vec = K % VW == 0 && reinterpret_cast<std::uintptr_t>(A) % 16 == 0;
  const bool b_vec = N % VW == 0 && reinterpret_cast<std::uintptr_t>(B) % 16 == 0;
  const scratchkit::detail::GemmGrid g(ceil_div(N, Blk::BN), ceil_div(M, Blk::BM));
  const dim3 block(Blk::threads), grid(g.gx, g.gy, Split ? sp.plan.splits : 1);
  int smem = 0;  // dynamic shared memory: the tensor-core path's stages
  if constexpr (Blk::tensor_core) {
    smem = Blk::smem_bytes;
    if (smem > 48 * 1024) {
      static const cudaError_t opt_in = cudaFuncSetAttribute(
          rb_kernel<S, Blk, Split>(), cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(Blk::smem_bytes));
      SCRATCHKIT_CUDA_CHECK(opt_in);
    }
  }
  rb_kernel<S, Blk, Split>()<<<grid, block, smem, s>>>(M, N, K, alpha, A, B, beta, C, a_vec, b_vec, g.lg, sp);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("gemm_register_blocked");
}

/// Launches the register_blocked kernel of blocking Blk on stream s (M, N, K >= 0 checked by the caller);
/// split into sp.plan.splits blocks per tile where that is more than one (sp.count and sp.work: the
/// workspace, gemm_split_workspace).
template <class S, class Blk>
void gemm_register_blocked(int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C, cudaStream_t s,
                           const scratchkit::detail::GemmSplitK<S>& sp = {}) {
  if (M == 0 || N == 0) return;
  if (sp.plan.splits > 1) {
    scratchkit::detail::gemm_split_require<Blk>(sp.plan, K);
    gemm_register_blocked_launch<S, Blk, true>(M, N, K, alpha, A, B, beta, C, s, sp);
  } else {
    gemm_register_blocked_launch<S, Blk, false>(M, N, K, alpha, A, B, beta, C, s, sp);
  }
}

/// gemm_register_blocked split along K as `plan` says (the library passes
/// scratchkit::detail::gemm_split_plan, as the layer does; the tuner any plan), with stream s's workspace.
template <class S, class Blk>
void gemm_register_blocked_split(int M, int N, int K, S alpha, const S* A, const S* B, S beta, S* C,
                                 cudaStream_t s, const scratchkit::detail::GemmSplit& plan) {
  if (plan.splits <= 1 || M == 0 || N == 0) {
    gemm_register_blocked<S, Blk>(M, N, K, alpha, A, B, beta, C, s);
    return;
  }
  gemm_split_workspace<S>(plan, scratchkit::detail::gemm_split_bytes<Blk, S>(M, N, plan), s,
                          [&](const scratchkit::detail::GemmSplitK<S>& sp) {
                            gemm_register_blocked<S, Blk>(M, N, K, alpha, A, B, beta, C, s, sp);
                          });
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
