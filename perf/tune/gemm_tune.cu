// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-gemm-tune: times candidate blockings of the native register_blocked
// GEMM (src/cuda/gemm_register_blocked.cuh) against cuBLAS, float and double,
// to pick the GEMM policy (include/scratchkit/tuning/gemm.hpp) per type.
//
//   scratchkit-gemm-tune [--double | --float] [--small | --split | --fit] [n ...]   (default: both types, 4096 8192; n x n x n)
//
// --fit: the FP64 tensor-core blockings whose stages fit Kokkos 5.0's level-0 cap of 40 936 bytes (the layer's
// public path), against the layer's default and the native default (192 KB).
// --small: the candidates for products of less than a wave of the default
// 128 x 128 tiles (1024^3 is 64 of them on 132 SMs), against the default.
// --split: the few-tile blockings split along K into 1-6, 8, 10, 12 and 16 blocks
// per tile, and the split both twins pick (detail::gemm_split_plan, "plan").
//
// One line per type, size and config: time (median of 7 runs after 2 warm-up
// runs, cudaEvents around the call while a spinning kernel holds the stream,
// so that the time is the device's, as in scratchkit-bench: cuBLAS spends
// about 15 us on the host per call below 2048^3, which a launch-inclusive
// time would charge to it), TFLOP/s, ratio to cuBLAS (true FP32 / FP64:
// CUBLAS_DEFAULT_MATH, no TF32), registers, spill bytes, blocks per SM, and
// max |C - C_cublas| / (max|A| max|B| K) as a sanity check (about 1e-7 float,
// 1e-16 double for sums of K products with different order). The default
// blocking of each type is marked with '*'. Double runs both on the CUDA cores
// (GemmBlocking) and on the FP64 tensor cores (GemmMmaBlocking, "mma").
#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/native/gemm.hpp>
#include <scratchkit/tuning/gemm.hpp>

#include "gemm_register_blocked.cuh"
#define SCRATCHKIT_TUNE_NAME "gemm_tune"
#include "../hold_stream.cuh"
#include "tune_common.cuh"

#include <cublas_v2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using scratchkit::detail::GemmBlocking;
namespace sk = scratchkit::native::cuda::detail;
using scratchkit::tune::fill_kernel;
using scratchkit::tune::max_abs_diff;

/// Median of 7 timed runs after 2 warm-up runs, device time: every call goes to the default stream
/// (the kernels' stream 0, cuBLAS's handle without a stream) behind a 300 us spin, far above the enqueue
/// time of any call here, so the events measure the GPU's time, not the host's.
template <class F>
double median_ms(const F& run) {
  return scratchkit::tune::median_ms([] { scratchkit::perf::hold_stream<<<1, 1>>>(300000); }, run, 2, 7);
}

void cublas_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "gemm_tune: %s failed with cuBLAS status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

/// Inputs, cuBLAS reference and timing of one type and size.
template <class T>
struct Problem {
  int n;
  T *A = nullptr, *B = nullptr, *C = nullptr, *Cref = nullptr;
  double scale = 1, cublas_ms = 0;
  cublasHandle_t h = nullptr;

  explicit Problem(int n_, cublasHandle_t h_) : n(n_), h(h_) {
    const long long e = static_cast<long long>(n) * n;
    for (T** p : {&A, &B, &C, &Cref}) TUNE_CUDA(cudaMalloc(p, e * sizeof(T)));
    fill_kernel<T><<<1024, 256>>>(A, e, 1u);
    fill_kernel<T><<<1024, 256>>>(B, e, 2u);
    TUNE_CUDA(cudaGetLastError());
    scale = max_abs_diff<T>(A, nullptr, e) * max_abs_diff<T>(B, nullptr, e) * n;
    cublas_ms = median_ms([&] { cublas(Cref); });
  }
  ~Problem() {
    for (T* p : {A, B, C, Cref}) cudaFree(p);
  }
  /// Row-major C = A B is column-major C^T = B^T A^T.
  void cublas(T* out) const {
    const T one = 1, zero = 0;
    if constexpr (std::is_same<T, float>::value)
      cublas_check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, out, n), "cublasSgemm");
    else
      cublas_check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, B, n, A, n, &zero, out, n), "cublasDgemm");
  }
  double tflops(double ms) const { return 2.0 * n * n * static_cast<double>(n) / (ms * 1e9); }
};

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }

template <class T>
void print_line(const Problem<T>& p, const std::string& config, double ms, const cudaFuncAttributes* fa, int occ,
                double err) {
  std::printf("%-6s %5d^3  %-40s %9.3f ms %7.2f TFLOP/s  %6.3fx cuBLAS", type_name(T()), p.n, config.c_str(), ms,
              p.tflops(ms), p.cublas_ms / ms);
  if (fa)
    std::printf("  regs %3d spill %3zu B  %d blk/SM", fa->numRegs, fa->localSizeBytes, occ);
  else
    std::printf("  %-30s", "");
  std::printf("  err %.2e\n", err);
  std::fflush(stdout);
}

/// "128x128x8 w32x64 t8x8 b2 s2 (256 thr)" (CUDA cores) or "64x128x8 w32x64 mma b2 s3 (128 thr)" (FP64
/// tensor cores; "mma16": m16n8k16 instead of m16n8k8): tile, warp tile, thread tile, blocks per SM, stages
/// (cp.async ring on the tensor cores;
/// always 2 on the CUDA cores, double-buffered through registers); "!" after the thread count:
/// more shared memory than the layer's ~40 KB (native only, cannot be the default).
template <class Blk, class T>
std::string config_name() {
  char name[112];
  int bytes = 0;  // shared memory of one block (both twins)
  if constexpr (Blk::tensor_core)
    bytes = Blk::smem_bytes;
  else
    bytes = (scratchkit::detail::GemmRbShape<Blk, T>::a_size + scratchkit::detail::GemmRbShape<Blk, T>::b_size) *
            static_cast<int>(sizeof(T));
  const char* layer = bytes > 40 * 1024 ? "!" : "";
  if constexpr (Blk::tensor_core)
    std::snprintf(name, sizeof name, "%dx%dx%d w%dx%d mma%s b%d s%d (%d thr)%s", Blk::BM, Blk::BN, Blk::BK, Blk::WM,
                  Blk::WN, Blk::k16 ? "16" : "", Blk::min_blocks, Blk::stages, Blk::threads, layer);
  else  // o: GemmSimtOrder of the FMAs (0 rows, 1 columns, 2 serpentine, 3 fragment prefetch, 4 quads); bA: B by cp.async
    std::snprintf(name, sizeof name, "%dx%dx%d w%dx%d t%dx%d b%d o%d%s (%d thr)%s", Blk::BM, Blk::BN, Blk::BK,
                  Blk::WM, Blk::WN, Blk::TM, Blk::TN, Blk::min_blocks, Blk::order, Blk::b_async ? " bA" : "",
                  Blk::threads, layer);
  return name;
}

/// Times blocking Blk on p and prints its line.
template <class T, class Blk>
void time_config(const Problem<T>& p) {
  using Default = typename scratchkit::detail::GemmDefaultBlocking<T>::native_type;
  const std::string name = (std::is_same<Blk, Default>::value ? "*" : " ") + config_name<Blk, T>();
  auto kernel            = sk::rb_kernel<T, Blk>();
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  int occ = 0;
  int smem = 0;  // dynamic shared memory of the launch (the tensor-core path's stages)
  if constexpr (Blk::tensor_core) smem = Blk::smem_bytes;
  if (smem > 48 * 1024)
    TUNE_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, Blk::threads, smem));
  const T one = 1, zero = 0;
  TUNE_CUDA(cudaMemset(p.C, 0xff, sizeof(T) * p.n * static_cast<size_t>(p.n)));  // NaN: must be overwritten
  const double ms = median_ms([&] { sk::gemm_register_blocked<T, Blk>(p.n, p.n, p.n, one, p.A, p.B, zero, p.C, 0); });
  TUNE_CUDA(cudaDeviceSynchronize());
  const double err = max_abs_diff<T>(p.C, p.Cref, static_cast<long long>(p.n) * p.n) / p.scale;
  print_line(p, name, ms, &fa, occ, err);
}

/// Times blocking Blk split along K into `splits` blocks per tile (0: the plan of detail::gemm_split_plan).
template <class T, class Blk>
void time_split(const Problem<T>& p, int splits, int sms) {
  scratchkit::detail::GemmSplit plan = scratchkit::detail::gemm_split_plan<Blk>(p.n, p.n, p.n, sms);
  const int nk = (p.n + Blk::BK - 1) / Blk::BK;
  if (splits > 0) {
    if (splits > nk) return;
    plan.per    = (nk + splits - 1) / splits;
    plan.splits = (nk + plan.per - 1) / plan.per;
  }
  char tail[48];
  std::snprintf(tail, sizeof tail, " %s split %d x %d", splits > 0 ? "   " : "plan", plan.splits, plan.per);
  const std::string name = " " + config_name<Blk, T>() + tail;
  const T one = 1, zero = 0;
  TUNE_CUDA(cudaMemset(p.C, 0xff, sizeof(T) * p.n * static_cast<size_t>(p.n)));  // NaN: must be overwritten
  const double ms = median_ms([&] {
    sk::gemm_register_blocked_split<T, Blk>(p.n, p.n, p.n, one, p.A, p.B, zero, p.C, 0, plan);
  });
  TUNE_CUDA(cudaDeviceSynchronize());
  const double err = max_abs_diff<T>(p.C, p.Cref, static_cast<long long>(p.n) * p.n) / p.scale;
  print_line(p, name, ms, nullptr, 0, err);
}

template <class T, class... Tiny>
void tune_split(const std::vector<int>& sizes, cublasHandle_t h, int sms) {
  using Few = typename scratchkit::detail::GemmDefaultBlocking<T>::few_type;
  for (int n : sizes) {
    Problem<T> p(n, h);
    print_line(p, " cuBLAS", p.cublas_ms, nullptr, 0, 0.0);
    for (int splits : {1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 0}) time_split<T, Few>(p, splits, sms);
    // Smaller tiles than few_type for the smallest products (cuBLAS runs 32 x 32 x 32 tiles of 128 threads
    // for double at 128^3-256^3: perf/results/h100/history.md, 88d8bf3): unsplit, 2 and 4 splits, and the plan.
    for (int splits : {1, 2, 4, 0}) (time_split<T, Tiny>(p, splits, sms), ...);
  }
}

template <class T, class... Blks>
void tune(const std::vector<int>& sizes, cublasHandle_t h) {
  for (int n : sizes) {
    Problem<T> p(n, h);
    print_line(p, " cuBLAS", p.cublas_ms, nullptr, 0, 0.0);
    (time_config<T, Blks>(p), ...);
  }
}

}  // namespace

// The modes, spread over units (SCRATCHKIT_GEMM_TUNE_PART 0: main, --fit and the float
// candidates; 1: --split and --small; 2: the double candidates) so that no unit takes a minute
// to compile: perf/tune/CMakeLists.txt compiles this file once per part.
#ifndef SCRATCHKIT_GEMM_TUNE_PART
#define SCRATCHKIT_GEMM_TUNE_PART 0
#endif
namespace scratchkit_gemm_tune {
struct Args {
  std::vector<int> sizes;
  bool want_float = true, want_double = true;
  int sms = 0;
  cublasHandle_t h = nullptr;
};
void fit(const Args& a);
void split(const Args& a);
void small(const Args& a);
void float_candidates(const Args& a);
void double_candidates(const Args& a);
}  // namespace scratchkit_gemm_tune

namespace scratchkit_gemm_tune {
#if SCRATCHKIT_GEMM_TUNE_PART == 0
void fit(const Args& a) {
  [[maybe_unused]] const std::vector<int>& sizes = a.sizes;
  [[maybe_unused]] const bool want_float = a.want_float, want_double = a.want_double;
  [[maybe_unused]] cublasHandle_t h = a.h;

  // <BM, BN, WM, WN, MinBlocksPerSM, Stages, KSteps, MmaK>; all but the last line fit 40 936 bytes.
  using scratchkit::detail::GemmMmaBlocking;
  tune<double,                                          //
       GemmMmaBlocking<64, 128, 32, 64, 2, 3>,          // 36 KB, the layer's default on the public path
       GemmMmaBlocking<128, 128, 64, 32, 1, 2>,         // 32 KB, 256 threads, warps 2 x 4 of 64 x 32
       GemmMmaBlocking<128, 128, 32, 64, 1, 2>,         // 32 KB, warps 4 x 2 of 32 x 64
       GemmMmaBlocking<128, 64, 64, 32, 2, 3>,          // 36 KB, 128 threads
       GemmMmaBlocking<128, 64, 32, 32, 2, 3>,          // 36 KB, 256 threads
       GemmMmaBlocking<64, 128, 64, 32, 2, 3>,          // 36 KB, warps 1 x 4
       GemmMmaBlocking<64, 64, 32, 32, 4, 4>,           // 32 KB, 4 stages
       GemmMmaBlocking<64, 64, 32, 32, 3, 2, 1, 16>,    // 33 KB, m16n8k16
       GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>>(sizes, h);  // 192 KB !, the native default
}

// Candidates: GemmBlocking<BM, BN, BK, WM, WN, TM, TN, MinBlocksPerSM> (CUDA cores: A^T and B double-buffered
// through registers, always 2 stages).
// 9c90c59: the candidates that were within 5 % of the best before (perf/results/h100/history.md, 1ba59e0
// and a2b1f20), now with the unchecked interior loads.
// 221124e: 128 x 128 x 16 (the default shape) with each FMA order (GemmSimtOrder) and B by cp.async ("bA"):
// the loop is issue-bound and the order changes how nvcc assigns the accumulators to the two register banks.
// Per line, FFMAs of the slice loop with two register-file operands in one bank (of 1024; SASS, nvcc 13.0,
// this kernel) and in brackets the layer's build of the same blocking (Kokkos 4.6 driver).
void float_candidates(const Args& a) {
  [[maybe_unused]] const std::vector<int>& sizes = a.sizes;
  [[maybe_unused]] const bool want_float = a.want_float, want_double = a.want_double;
  [[maybe_unused]] cublasHandle_t h = a.h;

  using scratchkit::detail::gemm_columns;
  using scratchkit::detail::gemm_prefetch;
  using scratchkit::detail::gemm_quads;
  using scratchkit::detail::gemm_rows;
  using scratchkit::detail::gemm_serpentine;
  tune<float,                                                                   //
       GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, gemm_rows>,               // native default: 296 (447), 12 B spill
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_rows>,               // layer default: 510 (447)
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_serpentine>,         // 172 (156)
       GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, gemm_serpentine>,         // 468 (156)
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_columns>,            // 208 (221)
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_quads>,              // 245 (312)
       GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, gemm_prefetch>,           // 281 (447), no spill
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_serpentine, true>,   // 198 (122)
       GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, gemm_rows, true>,         // 243 (294)
       GemmBlocking<128, 128, 16, 64, 32, 8, 8, 2, 2, gemm_prefetch, true>,     // 294 (223)
       GemmBlocking<128, 256, 8, 32, 64, 8, 8, 1>,                              // 512 threads, 1 block/SM
       // 2026-11-25 (Nsight Compute, perf/results/h100/history.md, 88d8bf3): cuBLAS's kernel at 4096^3 is 256 x 128 x 8, warps 4 x 2 (64 x 64), 8 x 16 per
       // thread, 1 block of 256 threads per SM, 254 registers; as many instructions as ours, more issue slots used.
       GemmBlocking<256, 128, 8, 64, 64, 8, 16, 1, 2, gemm_serpentine>,         // cuBLAS's shape
       GemmBlocking<256, 128, 8, 64, 64, 8, 16, 1, 2, gemm_rows>,               //
       GemmBlocking<256, 128, 8, 64, 64, 8, 16, 1, 2, gemm_columns>,            //
       GemmBlocking<256, 128, 8, 64, 64, 8, 16, 1, 2, gemm_serpentine, true>,   // B by cp.async
       GemmBlocking<128, 256, 8, 64, 64, 8, 16, 1, 2, gemm_serpentine>>(sizes, h);  // warps 2 x 4
}
#elif SCRATCHKIT_GEMM_TUNE_PART == 1
void split(const Args& a) {
  [[maybe_unused]] const std::vector<int>& sizes = a.sizes;
  [[maybe_unused]] const bool want_float = a.want_float, want_double = a.want_double;
  [[maybe_unused]] cublasHandle_t h = a.h;

  if (want_float) tune_split<float>(sizes, h, a.sms);
  if (want_double) {
    using scratchkit::detail::GemmMmaBlocking;
    tune_split<double,                                  //
               GemmMmaBlocking<32, 32, 16, 16, 4, 2, 2, 16>,   // 128 threads, k = 32 per slice, 2 stages (33 KB)
               GemmMmaBlocking<32, 32, 16, 16, 4, 4, 1, 16>,   // 128 threads, k = 16, 4 stages (33 KB)
               GemmMmaBlocking<32, 32, 16, 16, 4, 3, 2, 16>,   // k = 32, 3 stages (50 KB: native and driver only)
               GemmMmaBlocking<32, 32, 16, 32, 4, 3, 1, 16>,   // 64 threads, k = 16, 3 stages (25 KB)
               GemmMmaBlocking<32, 64, 16, 32, 4, 3, 1, 16>,   // 128 threads
               // cuBLAS's own tiles at 512^3 and 1024^3 (Nsight Compute, perf/results/h100/history.md, a9a9447): 32 x 64 x 32
               // with 2 x 2 warps, 3 stages (74 KB), and 128 x 64 x 32 with 4 x 2 warps, 3 stages (148 KB)
               GemmMmaBlocking<32, 64, 16, 32, 4, 3, 2, 16>,
               GemmMmaBlocking<128, 64, 32, 32, 1, 3, 2, 16>,
               // the blocking of Kokkos' public API above the few-tile range (36 KB)
               typename scratchkit::detail::GemmDefaultBlocking<double>::type>(sizes, h, a.sms);
  }
}

void small(const Args& a) {
  [[maybe_unused]] const std::vector<int>& sizes = a.sizes;
  [[maybe_unused]] const bool want_float = a.want_float, want_double = a.want_double;
  [[maybe_unused]] cublasHandle_t h = a.h;

  // Smaller tiles give more blocks where the default's 128 x 128 tiles are less than a wave; serpentine
  // order (the layer's) throughout. The first line is the layer's default blocking.
  using scratchkit::detail::gemm_serpentine;
  using scratchkit::detail::GemmMmaBlocking;
  constexpr int S = gemm_serpentine;
  if (want_float)
    tune<float,                                                   //
         GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, S>,       // the layer's default, 256 threads
         GemmBlocking<64, 128, 16, 32, 64, 8, 8, 4, 2, S>,        // 128 threads
         GemmBlocking<128, 64, 16, 64, 32, 8, 8, 4, 2, S>,        // 128 threads
         GemmBlocking<64, 64, 16, 32, 32, 4, 8, 4, 2, S>,         // 128 threads, 4 x 8 per thread
         GemmBlocking<64, 64, 16, 32, 32, 8, 4, 4, 2, S>,         // 128 threads, 8 x 4 per thread
         GemmBlocking<64, 64, 32, 32, 32, 4, 8, 4, 2, S>,         // k 32 per barrier
         GemmBlocking<64, 64, 16, 32, 64, 8, 8, 4, 2, S>,         // 64 threads, 8 x 8 per thread
         GemmBlocking<32, 64, 16, 32, 32, 4, 8, 8, 2, S>>(sizes, h);  // 64 threads
  if (want_double)
    tune<double,                                                  // ("!" in the output: above the layer's ~40 KB)
         GemmMmaBlocking<64, 128, 32, 64, 2, 3>,                  // the layer's default on Kokkos' public API
         GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>,           // the small-product default (needs the opt-in)
         GemmMmaBlocking<64, 64, 32, 32, 3, 2, 1, 16>,            // 3 blocks per SM
         GemmMmaBlocking<64, 64, 32, 32, 4, 2, 2, 16>,            // k = 32 per barrier
         GemmMmaBlocking<64, 64, 32, 32, 4, 3, 1, 16>,            // 3 stages
         GemmMmaBlocking<32, 64, 32, 32, 4, 3, 1, 16>,            // 64 threads
         GemmMmaBlocking<64, 32, 32, 32, 4, 3, 1, 16>>(sizes, h); // 64 threads
}
#else
void double_candidates(const Args& a) {
  [[maybe_unused]] const std::vector<int>& sizes = a.sizes;
  [[maybe_unused]] const bool want_float = a.want_float, want_double = a.want_double;
  [[maybe_unused]] cublasHandle_t h = a.h;

  // <BM, BN, WM, WN, MinBlocksPerSM, Stages, KSteps, MmaK>: FP64 tensor cores, slices of BK = MmaK * KSteps
  // (KSteps mma k-steps per barrier; MmaK 8: m16n8k8, 16: m16n8k16 with 16-byte fragment reads). "!": more
  // than the layer's ~40 KB (native only where the layer has no opt-in). 385355e: m16n8k16 on the
  // shapes of 7f86b46; first four lines: the m16n8k8 references (7f86b46's best per size and the defaults).
  using scratchkit::detail::GemmMmaBlocking;
  tune<double,                                            //
       GemmMmaBlocking<64, 128, 32, 64, 2, 3>,            // 36 KB, the layer's default
       GemmMmaBlocking<64, 128, 32, 64, 2, 2, 4>,         // 96 KB !, 7f86b46's best at 4096^3
       GemmMmaBlocking<128, 128, 32, 64, 1, 3, 4>,        // 192 KB !, the native default (best at 8192^3)
       GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2>,        // 96 KB !
       GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>,    // 192 KB !, the native default's shape, m16n8k16
       GemmMmaBlocking<128, 128, 32, 64, 1, 2, 3, 16>,    // 192 KB !, k = 48 per barrier, 2 stages
       GemmMmaBlocking<128, 128, 32, 64, 1, 6, 1, 16>,    // 192 KB !, k = 16 per barrier, 6 stages
       GemmMmaBlocking<128, 128, 32, 64, 1, 4, 1, 16>,    // 128 KB !, k = 16 per barrier, 4 stages
       GemmMmaBlocking<128, 128, 32, 64, 1, 2, 2, 16>,    // 128 KB !, k = 32 per barrier, 2 stages
       GemmMmaBlocking<128, 128, 64, 32, 1, 3, 2, 16>,    // 192 KB !, warps of 4 x 4 mma tiles
       GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>,     // 96 KB !, 2 blocks per SM (4096^3: tails overlap)
       GemmMmaBlocking<64, 128, 32, 64, 2, 4, 1, 16>,     // 96 KB !, 2 blocks per SM, k = 16 per barrier
       GemmMmaBlocking<64, 128, 32, 64, 2, 3, 1, 16>,     // 72 KB !, 2 blocks per SM
       GemmMmaBlocking<128, 64, 64, 32, 2, 2, 2, 16>,     // 96 KB !, 2 blocks per SM, 128 x 64
       GemmMmaBlocking<64, 64, 32, 32, 3, 2, 1, 16>>(sizes, h);  // 33 KB, fits the layer's 40 KB, 3 blocks per SM
}
#endif
}  // namespace scratchkit_gemm_tune

#if SCRATCHKIT_GEMM_TUNE_PART == 0
int main(int argc, char** argv) {
  if (::scratchkit::tune::wants_help(argc, argv, "[--double|--float] [--small|--split|--fit] [n ...]  (default 4096 8192)")) return 0;
  std::vector<int> sizes;
  bool want_float = true, want_double = true, small = false, split = false, fit = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--small") == 0)
      small = true;
    else if (std::strcmp(argv[i], "--split") == 0)
      split = true;
    else if (std::strcmp(argv[i], "--fit") == 0)
      fit = true;
    else if (std::strcmp(argv[i], "--double") == 0)
      want_float = false;
    else if (std::strcmp(argv[i], "--float") == 0)
      want_double = false;
    else
      sizes.push_back(std::atoi(argv[i]));
  }
  if (sizes.empty()) sizes = {4096, 8192};
  for (int n : sizes)
    if (n <= 0 || n > 16384) {
      std::fprintf(stderr, "gemm_tune: sizes must be in [1, 16384]\n");
      return 2;
    }
  cudaDeviceProp prop{};
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, CC %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  scratchkit_gemm_tune::Args a;
  a.sizes = sizes, a.want_float = want_float, a.want_double = want_double;
  a.sms = prop.multiProcessorCount;
  cublasHandle_t& h = a.h;
  cublas_check(cublasCreate(&h), "cublasCreate");
  cublas_check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");  // no TF32
  if (fit)
    scratchkit_gemm_tune::fit(a);
  else if (split)
    scratchkit_gemm_tune::split(a);
  else if (small)
    scratchkit_gemm_tune::small(a);
  else {
    if (want_float) scratchkit_gemm_tune::float_candidates(a);
    if (want_double) scratchkit_gemm_tune::double_candidates(a);
  }
  cublasDestroy(h);
  return 0;
}
#endif
