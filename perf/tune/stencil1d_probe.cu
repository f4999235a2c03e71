// SPDX-License-Identifier: BSD-3-Clause
// Probe of the 1-D halo_tile gap (layer 0.945 / 0.974 of native, float / double,
// at 2^28 on the H100): the native kernel (src/cuda/stencil_1d.cu) timed with
// each property in which the layer's launch differs from it, one at a time and
// all together, so that one run says which one costs the time.
//
// The two kernels' SASS is the same up to a few address instructions (SASS at 56c8b5b:
// 34 vs 31 instructions to the first load, the weights now LDS.128 on both), the
// registers are the same (32, no stack), and the blocks per SM are the same (8:
// threads and registers limit both). What the layer's launch still differs in:
//   yrank      block (1, 256, 1), rank = threadIdx.y (Kokkos' team layout with
//              vector length 1; native: (256, 1, 1), threadIdx.x)
//   params304  a 304-byte parameter block, the fields at the layer kernel's
//              offsets (Kokkos passes the ParallelFor object by value; native: 36 bytes)
//   teamspace  the tile 2176 bytes into the dynamic shared memory (Kokkos'
//              team-collective space for 256 threads, rounded to 128) and that
//              much more per block (a compile-time offset: the same code)
//   scalar_w   the weights one per LDS (their alignment hidden; the layer before
//              56c8b5b loaded them so, from a per-thread register address;
//              native: LDS.128 from a uniform register. In double, alone, ptxas
//              pairs them back into LDS.128 (native's code); in layer_old they
//              are scalar in both types, 58 LDS as the layer had)
// plus launch_all (yrank + params304 + teamspace: the layer's launch now, with
// native code) and layer_old (all four).
// Every variant computes the same outputs in the same order; each is checked
// bit for bit against the plain native kernel.
//
// Build and run (CUDA only, no Kokkos; not in CMake; about 10 s of GPU time):
//   nvcc -O3 -std=c++17 -arch=sm_90 perf/tune/stencil1d_probe.cu -o stencil1d_probe
//   ./stencil1d_probe [log2 n = 28] [rounds = 21]
// Output: per type and variant, the median time over interleaved rounds and
// native / variant (the layer/native ratio that variant would give).
#define SCRATCHKIT_TUNE_NAME "stencil1d_probe"
#include "tune_common.cuh"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using scratchkit::tune::cuda_check;

constexpr int BS = 256;
constexpr int R  = 3;

// Kokkos' team space for 256 threads, (256 + 2) doubles rounded up to 128 bytes.
constexpr unsigned team_space = (8 * (BS + 2) + 127) / 128 * 128;

__host__ __device__ inline unsigned round16(unsigned v) { return (v + 15u) / 16u * 16u; }

/// The native kernel's parameters (32 bytes; the native twin's list is 36).
template <class S>
struct SmallArgs {
  const S* in;
  const S* w;
  S* out;
  int r, n;
};

/// The layer kernel's parameter block: 304 bytes, with R, n, in, w, out and
/// the tile's offset where the layer kernel reads its own (c[0x0][0x210] + the
/// offsets below, from its SASS).
template <class S>
struct alignas(8) BigArgs {
  long long a00, a08, a10;  // layer: tile offset, tile length, weights offset
  int r, r_pad;             // 0x18
  int n, n_pad;             // 0x20
  long long a28;
  const S* in;  // 0x30
  long long a38, a40;
  const S* w;  // 0x48
  long long a50, a58;
  S* out;  // 0x60
  long long a68[7];
  long long aa0;  // layer: the block's dynamic start
  long long aa8[17];
};
static_assert(sizeof(BigArgs<float>) == 304, "the layer kernel's parameter block is 304 bytes");

template <class S, class A, bool YRank, bool Pre, bool ScalarW>
__global__ void __launch_bounds__(BS, 8) probe_kernel(const A a) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int r      = a.r;
  const int n      = a.n;
  const int tile_n = BS + 2 * r;
  // Pre: the tile starts after Kokkos' team space (a constant: the same code).
  unsigned char* base = smem + (Pre ? team_space : 0);
  S* tile             = reinterpret_cast<S*>(base);
  unsigned w_off      = round16(tile_n * sizeof(S));
  // ScalarW: the weights' offset opaque, so its alignment is unknown (scalar LDS).
  if (ScalarW) asm volatile("" : "+r"(w_off));
  S* ws       = reinterpret_cast<S*>(base + w_off);
  const int t = YRank ? threadIdx.y : threadIdx.x;
  const int start = blockIdx.x * BS - r;
  for (int k = t; k < tile_n; k += BS) {
    const int g = start + k;
    tile[k]     = (g >= 0 && g < n) ? __ldg(a.in + g) : S(0);
  }
  for (int k = t; k <= 2 * r; k += BS) ws[k] = __ldg(a.w + k);
  __syncthreads();
  const int i = blockIdx.x * BS + t;
  if (i < n) {
    S s = S(0);
    for (int j = 0; j <= 2 * r; ++j) s += ws[j] * tile[t + j];
    a.out[i] = s;
  }
}

struct Variant {
  const char* name;
  bool yrank, big, pre, scalar_w;
};

const Variant variants[] = {
    {"native", false, false, false, false},    {"yrank", true, false, false, false},
    {"params304", false, true, false, false},  {"teamspace", false, false, true, false},
    {"scalar_w", false, false, false, true},   {"launch_all", true, true, true, false},
    {"layer_old", true, true, true, true},
};
constexpr int nvariants = sizeof(variants) / sizeof(variants[0]);


template <class S, class A, bool YRank, bool Pre, bool ScalarW>
void launch_as(const S* in, const S* w, S* out, int n) {
  A a{};
  a.in  = in;
  a.w   = w;
  a.out = out;
  a.r   = R;
  a.n   = n;
  const unsigned bytes = (Pre ? team_space : 0) + round16((BS + 2 * R) * sizeof(S)) + (2 * R + 1) * sizeof(S);
  const dim3 block     = YRank ? dim3(1, BS, 1) : dim3(BS, 1, 1);
  probe_kernel<S, A, YRank, Pre, ScalarW><<<(n + BS - 1) / BS, block, bytes>>>(a);
}

template <class S>
void launch_variant(int v, const S* in, const S* w, S* out, int n) {
  switch (v) {
    case 0: launch_as<S, SmallArgs<S>, false, false, false>(in, w, out, n); break;
    case 1: launch_as<S, SmallArgs<S>, true, false, false>(in, w, out, n); break;
    case 2: launch_as<S, BigArgs<S>, false, false, false>(in, w, out, n); break;
    case 3: launch_as<S, SmallArgs<S>, false, true, false>(in, w, out, n); break;
    case 4: launch_as<S, SmallArgs<S>, false, false, true>(in, w, out, n); break;
    case 5: launch_as<S, BigArgs<S>, true, true, false>(in, w, out, n); break;
    case 6: launch_as<S, BigArgs<S>, true, true, true>(in, w, out, n); break;
    default: std::abort();
  }
  TUNE_CUDA(cudaGetLastError());
}

template <class S>
void run_type(const char* type, int log2n, int rounds) {
  const long long n = 1ll << log2n;
  S *in, *w, *out, *ref;
  TUNE_CUDA(cudaMalloc(&in, n * sizeof(S)));
  TUNE_CUDA(cudaMalloc(&out, n * sizeof(S)));
  TUNE_CUDA(cudaMalloc(&ref, n * sizeof(S)));
  TUNE_CUDA(cudaMalloc(&w, (2 * R + 1) * sizeof(S)));
  scratchkit::tune::fill_kernel<S><<<1024, 256>>>(in, n, 4u);
  scratchkit::tune::fill_kernel<S><<<1, 32>>>(w, 2 * R + 1, 5u);
  TUNE_CUDA(cudaGetLastError());
  launch_variant<S>(0, in, w, ref, static_cast<int>(n));
  for (int v = 0; v < nvariants; ++v) {
    TUNE_CUDA(cudaMemset(out, 0xff, n * sizeof(S)));  // NaN
    launch_variant<S>(v, in, w, out, static_cast<int>(n));
    const double d = scratchkit::tune::max_abs_diff(out, ref, n);
    if (d != 0) {
      std::fprintf(stderr, "stencil1d_probe: %s %s differs from native by %g\n", type, variants[v].name, d);
      std::exit(1);
    }
  }
  cudaEvent_t e0, e1;
  TUNE_CUDA(cudaEventCreate(&e0));
  TUNE_CUDA(cudaEventCreate(&e1));
  std::vector<std::vector<double>> t(nvariants);
  // Interleaved rounds (each variant once per round, a rotating start) so that
  // clock and thermal drift fall on every variant alike; round 0 is a warm-up.
  for (int round = 0; round <= rounds; ++round)
    for (int k = 0; k < nvariants; ++k) {
      const int v = (k + round) % nvariants;
      TUNE_CUDA(cudaEventRecord(e0));
      launch_variant<S>(v, in, w, out, static_cast<int>(n));
      TUNE_CUDA(cudaEventRecord(e1));
      TUNE_CUDA(cudaEventSynchronize(e1));
      float ms = 0;
      TUNE_CUDA(cudaEventElapsedTime(&ms, e0, e1));
      if (round > 0) t[v].push_back(ms);
    }
  std::vector<double> med(nvariants);
  for (int v = 0; v < nvariants; ++v) {
    std::sort(t[v].begin(), t[v].end());
    med[v] = t[v][t[v].size() / 2];
  }
  for (int v = 0; v < nvariants; ++v)
    std::printf("| %s | %s | 2^%d | %.4f | %.4f | %.4f | %.3f |\n", type, variants[v].name, log2n, med[v],
                t[v].front(), t[v].back(), med[0] / med[v]);
  TUNE_CUDA(cudaEventDestroy(e0));
  TUNE_CUDA(cudaEventDestroy(e1));
  TUNE_CUDA(cudaFree(in));
  TUNE_CUDA(cudaFree(out));
  TUNE_CUDA(cudaFree(ref));
  TUNE_CUDA(cudaFree(w));
}

}  // namespace

int main(int argc, char** argv) {
  const int log2n  = argc > 1 ? std::atoi(argv[1]) : 28;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 21;
  if (log2n < 8 || log2n > 29 || rounds < 1) {
    std::fprintf(stderr, "usage: stencil1d_probe [log2 n in 8..29] [rounds >= 1]\n");
    return 1;
  }
  cudaDeviceProp prop;
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("# stencil1d_probe on %s, R = %d, %d rounds; ratio = native / variant\n", prop.name, R, rounds);
  std::printf("| type | variant | n | median ms | min ms | max ms | ratio |\n|---|---|---|---:|---:|---:|---:|\n");
  run_type<float>("float", log2n, rounds);
  run_type<double>("double", log2n, rounds);
  return 0;
}
