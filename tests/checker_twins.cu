// SPDX-License-Identifier: BSD-3-Clause
// CUDA twins of the scratch checker's test kernels (tests/support/checker_kernels.hpp):
// the same shapes and the same shared-memory accesses with __shared__, for
// compute-sanitizer racecheck / initcheck and Nsight Compute's bank-conflict
// counters (scripts/checker_gpu_check.sh), and the occupancy report's formula
// (scratchkit/detail/occupancy.hpp) against cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
//   scratchkit_checker_twins <case>      run one kernel once (the script wraps it in the tools)
//   scratchkit_checker_twins occupancy   compare the formula with CUDA's occupancy API
//   scratchkit_checker_twins list        the cases
#include <scratchkit/detail/occupancy.hpp>

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define TWIN_CHECK(x)                                                                          \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

namespace {

__global__ void missing_barrier(float* out) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  s[t] = float(t);
  // missing: __syncthreads();
  out[t] = s[(t + 1) % 256];
}

__global__ void with_barrier(float* out) {
  __shared__ float s[256];
  const int t = threadIdx.x;
  s[t] = float(t);
  __syncthreads();
  out[t] = s[(t + 1) % 256];
}

__global__ void uninitialised_read(float* out) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  if (t < 32) s[t] = 1.0f;
  __syncthreads();
  out[t] = s[t];
}

// The seed's 16x16 tiled SGEMM, n = 64.
__global__ void sgemm_16x16(const float* A, const float* B, float* C, int n) {
  constexpr int T = 16;
  __shared__ float As[T * T], Bs[T * T];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * T + tx, gy = blockIdx.y * T + ty;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty * T + tx] = A[gy * n + k0 + tx];
    Bs[ty * T + tx] = B[(k0 + ty) * n + gx];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[ty * T + k] * Bs[k * T + tx];
    __syncthreads();
  }
  C[gy * n + gx] = acc;
}

// Pad 0: column_read (32-way), Pad 1: column_read_padded (none).
template <int Pad>
__global__ void column_read_tile(float* out) {
  constexpr int P = 32 + Pad;
  __shared__ float s[32 * P];
  const int tx = threadIdx.x, ty = threadIdx.y, r = ty * 32 + tx;
  s[ty * P + tx] = float(r);
  __syncthreads();
  out[r] = s[tx * P + ty];
}

__global__ void stride8_update(float* out) {
  __shared__ float s[64 * 8];
  const int t = threadIdx.x;
  for (int i = 0; i < 8; ++i) s[i * 64 + t] = 0.0f;
  __syncthreads();
  s[t * 8] += 1.0f;
  __syncthreads();
  out[t] = s[t * 8];
}

__global__ void doubles(double* out) {
  __shared__ double s[32 * 32];
  const int t = threadIdx.x;
  for (int r = 0; r < 32; ++r) s[r * 32 + t] = double(r);
  __syncthreads();
  out[t] = s[t] + s[2 * t] + s[t * 32];
}

// 64 values, one cross-warp step, then a warp-synchronous tree without __syncwarp: races on 31 elements.
// volatile keeps every step's loads and stores in shared memory, as the layer's proxy records them.
__global__ void warp_tree(const float* in, float* out) {
  __shared__ float s[64];
  volatile float* v = s;
  const int t = threadIdx.x;
  v[t] = in[t];
  __syncthreads();
  if (t < 32) v[t] += v[t + 32];
  for (int stride = 16; stride > 0; stride /= 2)  // missing: __syncwarp()
    if (t < stride) v[t] += v[t + stride];
  __syncthreads();
  if (t == 0) out[0] = v[0];
}
// 2-D 5-point stencil, 16 x 16 blocks, 18 x 18 tile with a halo stored by the edge threads.
template <bool Barrier>
__global__ void halo_2d(const float* in, float* out) {
  constexpr int n = 32, T = 16, P = T + 2;
  __shared__ float s[P * P];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * T + tx, gy = blockIdx.y * T + ty;
  auto at = [&](int y, int xx) {
    y  = y < 0 ? 0 : y >= n ? n - 1 : y;
    xx = xx < 0 ? 0 : xx >= n ? n - 1 : xx;
    return in[y * n + xx];
  };
  const int x = tx + 1, y = ty + 1;
  s[y * P + x] = at(gy, gx);
  if (tx == 0) s[y * P + 0] = at(gy, gx - 1);
  if (tx == T - 1) s[y * P + T + 1] = at(gy, gx + 1);
  if (ty == 0) s[0 * P + x] = at(gy - 1, gx);
  if (ty == T - 1) s[(T + 1) * P + x] = at(gy + 1, gx);
  if (Barrier) __syncthreads();
  out[gy * n + gx] = 4.0f * s[y * P + x] - s[(y - 1) * P + x] - s[(y + 1) * P + x] - s[y * P + x - 1] - s[y * P + x + 1];
}
// Privatised histogram: zeroed bins, shared atomics, one global add per bin.
__global__ void shared_histogram(const float* in, unsigned* counts) {
  constexpr int bins = 64, per = 4, threads = 256;
  __shared__ unsigned h[bins];
  const int t = threadIdx.x;
  if (t < bins) h[t] = 0u;
  __syncthreads();
  for (int i = 0; i < per; ++i) atomicAdd(&h[static_cast<int>(in[i * threads + t] * 7.0f) % bins], 1u);
  __syncthreads();
  if (t < bins) atomicAdd(&counts[t], h[t]);
}

// Write-after-read inside warps: each thread reads s[t] and s[t + 1], then stores s[t], no barrier.
__global__ void warp_war(const float* in, float* out) {
  __shared__ float s[256];
  volatile float* v = s;
  const int t = threadIdx.x;
  v[t] = in[t];
  __syncthreads();
  const float a = v[t], c = t < 255 ? v[t + 1] : 0.0f;
  v[t] = a + c;  // missing: __syncthreads() before the store
  __syncthreads();
  out[t] = v[t];
}
// Atomics, then a plain read of a neighbour's counter with no barrier: racecheck does not see it.
__global__ void atomic_then_read(unsigned* out) {
  __shared__ unsigned s[64];
  const int t = threadIdx.x;
  if (t < 64) s[t] = 0u;
  __syncthreads();
  atomicAdd(&s[t % 64], 1u);
  out[t] = ((volatile unsigned*)s)[(t + 1) % 64];  // missing: __syncthreads()
}
// warp_tree with __syncwarp before each step: no race.
__global__ void warp_tree_synced(const float* in, float* out) {
  __shared__ float s[64];
  volatile float* v = s;
  const int t = threadIdx.x;
  v[t] = in[t];
  __syncthreads();
  if (t < 32) v[t] += v[t + 32];
  for (int stride = 16; stride > 0; stride /= 2) {
    __syncwarp();
    if (t < stride) v[t] += v[t + stride];
  }
  __syncthreads();
  if (t == 0) out[0] = v[0];
}
// A store through a raw pointer and a reversed read with no barrier: every element races.
__global__ void raw_pointer_race(const float* in, float* out) {
  __shared__ float s[64];
  volatile float* q = s;
  const int t = threadIdx.x;
  q[t] = in[t];
  out[t] = q[63 - t];  // missing: __syncthreads()
}

// Kernels for the occupancy check only: dynamic shared memory, launch bounds, registers.
extern __shared__ float dyn[];
__global__ void __launch_bounds__(256, 2) dynamic_bounded(float* out, int n) {
  dyn[threadIdx.x] = float(threadIdx.x);
  __syncthreads();
  if (threadIdx.x < n) out[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}
__global__ void register_heavy(const float* in, float* out, int n) {
  float r[48];
#pragma unroll
  for (int i = 0; i < 48; ++i) r[i] = in[(threadIdx.x + i * 97) % n];
  float s = 0.0f;
#pragma unroll
  for (int i = 0; i < 48; ++i)
#pragma unroll
    for (int j = i; j < 48; j += 7) s += r[i] * r[j];
  out[threadIdx.x] = s;
}

struct Buffers {
  float *f = nullptr, *a = nullptr, *b = nullptr;
  double* d = nullptr;
  float *in = nullptr, *zero = nullptr;  // the race kernels' inputs: random (as the layer's) and all zero
  unsigned *u = nullptr, *u2 = nullptr;
  Buffers() {
    TWIN_CHECK(cudaMalloc(&u2, 128 * sizeof(unsigned)));
    TWIN_CHECK(cudaMalloc(&in, 1024 * sizeof(float)));
    TWIN_CHECK(cudaMalloc(&zero, 1024 * sizeof(float)));
    TWIN_CHECK(cudaMalloc(&u, 64 * sizeof(unsigned)));
    TWIN_CHECK(cudaMemset(zero, 0, 1024 * sizeof(float)));
    TWIN_CHECK(cudaMemset(u, 0, 64 * sizeof(unsigned)));
    {
      std::vector<float> r(1024);
      unsigned x = 12345u;
      for (auto& v : r) x = x * 1664525u + 1013904223u, v = float((x >> 8) % 1000) / 7.0f;
      TWIN_CHECK(cudaMemcpy(in, r.data(), r.size() * sizeof(float), cudaMemcpyHostToDevice));
    }
    TWIN_CHECK(cudaMalloc(&f, 64 * 64 * sizeof(float)));
    TWIN_CHECK(cudaMalloc(&a, 64 * 64 * sizeof(float)));
    TWIN_CHECK(cudaMalloc(&b, 64 * 64 * sizeof(float)));
    TWIN_CHECK(cudaMalloc(&d, 1024 * sizeof(double)));
    std::vector<float> h(64 * 64);
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) h[i * 64 + j] = float(1 + i + 100 * j);
    TWIN_CHECK(cudaMemcpy(a, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    TWIN_CHECK(cudaMemcpy(b, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  ~Buffers() {
    cudaFree(f), cudaFree(a), cudaFree(b), cudaFree(d), cudaFree(in), cudaFree(zero), cudaFree(u), cudaFree(u2);
  }
};

bool run_case(const std::string& c) {
  Buffers m;
  if (c == "missing_barrier") missing_barrier<<<1, 256>>>(m.f);
  else if (c == "with_barrier") with_barrier<<<1, 256>>>(m.f);
  else if (c == "uninitialised_read") uninitialised_read<<<1, 64>>>(m.f);
  else if (c == "sgemm_16x16") sgemm_16x16<<<dim3(4, 4), dim3(16, 16)>>>(m.a, m.b, m.f, 64);
  else if (c == "column_read") column_read_tile<0><<<1, dim3(32, 32)>>>(m.f);
  else if (c == "column_read_padded") column_read_tile<1><<<1, dim3(32, 32)>>>(m.f);
  else if (c == "stride8_update") stride8_update<<<1, 64>>>(m.f);
  else if (c == "doubles") doubles<<<1, 32>>>(m.d);
  else if (c == "warp_tree") warp_tree<<<1, 64>>>(m.in, m.f);
  else if (c == "warp_tree_zero") warp_tree<<<1, 64>>>(m.zero, m.f);
  else if (c == "halo_2d") halo_2d<true><<<dim3(2, 2), dim3(16, 16)>>>(m.in, m.f);
  else if (c == "halo_2d_race") halo_2d<false><<<dim3(2, 2), dim3(16, 16)>>>(m.in, m.f);
  else if (c == "shared_histogram") shared_histogram<<<1, 256>>>(m.in, m.u);
  else if (c == "warp_war") warp_war<<<1, 256>>>(m.in, m.f);
  else if (c == "atomic_then_read") atomic_then_read<<<1, 128>>>(m.u2);
  else if (c == "warp_tree_synced") warp_tree_synced<<<1, 64>>>(m.in, m.f);
  else if (c == "raw_pointer_race") raw_pointer_race<<<1, 64>>>(m.in, m.f);
  else return false;
  TWIN_CHECK(cudaGetLastError());
  TWIN_CHECK(cudaDeviceSynchronize());
  return true;
}

// One row: the formula's blocks per SM against CUDA's, for a kernel, block size, dynamic bytes and carveout.
template <class K>
bool occupancy_row(const char* name, K kernel, int threads, std::size_t dyn_bytes, int carveout, int min_blocks,
                   const scratchkit::detail::DeviceLimits& d) {
  cudaFuncAttributes fa{};
  TWIN_CHECK(cudaFuncGetAttributes(&fa, kernel));
  if (dyn_bytes + fa.sharedSizeBytes > 48 * 1024)
    TWIN_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(dyn_bytes)));
  TWIN_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
  int cuda_blocks = -1;
  TWIN_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&cuda_blocks, kernel, threads, dyn_bytes));
  scratchkit::detail::OccupancyInput in;
  in.threads          = threads;
  in.static_shared    = fa.sharedSizeBytes;
  in.dynamic_shared   = dyn_bytes;
  in.regs_per_thread  = fa.numRegs;
  in.min_blocks       = min_blocks;
  in.carveout_percent = carveout;
  const scratchkit::detail::Occupancy o = scratchkit::detail::occupancy(d, in);
  const bool same = o.blocks_per_sm == cuda_blocks;
  std::printf("%-20s threads %4d regs %3d static %6zu dynamic %6zu carveout %4d: formula %2d (%s), cuda %2d  %s\n",
              name, threads, fa.numRegs, std::size_t(fa.sharedSizeBytes), dyn_bytes, carveout, o.blocks_per_sm,
              scratchkit::detail::limiter_name(o.limiter), cuda_blocks, same ? "AGREE" : "DIFFER");
  return same;
}

int occupancy() {
  int dev = 0;
  TWIN_CHECK(cudaGetDevice(&dev));
  const scratchkit::detail::DeviceLimits d = scratchkit::detail::cuda_device_limits(dev);
  std::printf("device %s (sm_%d%d): %d SMs, %d threads/SM, %d blocks/SM, %d regs/SM, %zu B shared/SM, %zu B opt-in "
              "per block, %zu B reserved per block\n",
              d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.max_threads_per_sm, d.max_blocks_per_sm,
              d.regs_per_sm, d.shared_per_sm, d.shared_per_block_optin, d.reserved_shared_per_block);
  int differ = 0;
  for (int carve : {-1, 0, 25, 50, 100}) {
    differ += !occupancy_row("sgemm_16x16", sgemm_16x16, 256, 0, carve, 0, d);
    differ += !occupancy_row("column_read", column_read_tile<0>, 1024, 0, carve, 0, d);
    differ += !occupancy_row("doubles", doubles, 32, 0, carve, 0, d);
    differ += !occupancy_row("stride8_update", stride8_update, 64, 0, carve, 0, d);
    for (std::size_t dyn : {std::size_t(1024), std::size_t(20000), std::size_t(50000), std::size_t(100000)})
      differ += !occupancy_row("dynamic_bounded", dynamic_bounded, 256, dyn, carve, 2, d);
    for (int threads : {64, 128, 256, 512, 1024}) differ += !occupancy_row("register_heavy", register_heavy, threads, 0, carve, 0, d);
  }
  std::printf("occupancy: %d rows differ\n", differ);
  return differ == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const char* cases[] = {"missing_barrier", "with_barrier", "uninitialised_read", "sgemm_16x16",
                         "column_read",     "column_read_padded", "stride8_update", "doubles",
                         "warp_tree",       "warp_tree_zero",     "halo_2d",        "halo_2d_race",
                         "shared_histogram", "warp_war",          "atomic_then_read", "warp_tree_synced",
                         "raw_pointer_race"};
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <case>|occupancy|list\n", argv[0]);
    return 2;
  }
  const std::string what = argv[1];
  if (what == "list") {
    for (const char* c : cases) std::printf("%s\n", c);
    return 0;
  }
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  if (what == "occupancy") return occupancy();
  if (!run_case(what)) {
    std::fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
  }
  std::printf("%s ran\n", argv[1]);
  return 0;
}
