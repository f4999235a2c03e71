// SPDX-License-Identifier: BSD-3-Clause
// The bench's user-style stencils as a CUDA programmer writes them: a __shared__ tile with its
// halo, loaded by a constant strided loop over the block's threads with a bounds test per element,
// __syncthreads, then one point a thread. The layer's rows (perf/bench_user.cpp) match them bit for bit.
#include "user_stencils.hpp"

#include "check.cuh"

namespace scratchkit {
namespace native {
namespace cuda {
namespace bench {
namespace {

constexpr int BX2 = 32, BY2 = 8;
constexpr int BX3 = 32, BY3 = 4, BZ3 = 4;

template <class T>
__global__ void __launch_bounds__(BX2 * BY2)
    stencil_2d_5pt(const T* __restrict__ in, const T* __restrict__ w5, T* __restrict__ out, int nx, int ny, int sy) {
  constexpr int P = BX2 + 2, TILE = P * (BY2 + 2), NT = BX2 * BY2;
  __shared__ T tile[TILE];
  __shared__ T w[5];
  const int tid = threadIdx.x + BX2 * threadIdx.y;
  const int ox = blockIdx.x * BX2, oy = blockIdx.y * BY2;
  if (tid < 5) w[tid] = w5[tid];
  for (int i = tid; i < TILE; i += NT) {
    const int gy = oy + i / P - 1, gx = ox + i % P - 1;
    tile[i] = gy >= 0 && gy < ny && gx >= 0 && gx < nx ? in[gy * sy + gx] : T(0);
  }
  __syncthreads();
  const int gx = ox + threadIdx.x, gy = oy + threadIdx.y;
  if (gx >= nx || gy >= ny) return;
  const T* c = &tile[(threadIdx.y + 1) * P + threadIdx.x + 1];
  out[gy * sy + gx] = w[0] * c[0] + w[1] * c[-1] + w[2] * c[1] + w[3] * c[-P] + w[4] * c[P];
}

template <class T>
__global__ void __launch_bounds__(BX3 * BY3 * BZ3)
    stencil_3d_7pt(const T* __restrict__ in, T* __restrict__ out, int n, int sy, int sz, T c0, T c1) {
  constexpr int PX = BX3 + 2, PY = BY3 + 2, TILE = PX * PY * (BZ3 + 2), NT = BX3 * BY3 * BZ3;
  __shared__ T s[TILE];
  const int tid = threadIdx.x + BX3 * (threadIdx.y + BY3 * threadIdx.z);
  const int ox = blockIdx.x * BX3, oy = blockIdx.y * BY3, oz = blockIdx.z * BZ3;
  for (int i = tid; i < TILE; i += NT) {
    const int gx = ox + i % PX - 1, gy = oy + i / PX % PY - 1, gz = oz + i / (PX * PY) - 1;
    s[i] = gx >= 0 && gx < n && gy >= 0 && gy < n && gz >= 0 && gz < n ? in[gz * sz + gy * sy + gx] : T(0);
  }
  __syncthreads();
  const int gx = ox + threadIdx.x, gy = oy + threadIdx.y, gz = oz + threadIdx.z;
  if (gx >= n || gy >= n || gz >= n) return;
  const T* c = &s[((threadIdx.z + 1) * PY + threadIdx.y + 1) * PX + threadIdx.x + 1];
  T* o       = &out[gz * sz + gy * sy + gx];
  if (gx == 0 || gy == 0 || gz == 0 || gx == n - 1 || gy == n - 1 || gz == n - 1) {
    *o = c[0];
    return;
  }
  T sum = c[-1];
  sum += c[1];
  sum += c[-PX];
  sum += c[PX];
  sum += c[-PX * PY];
  sum += c[PX * PY];
  *o = c0 * c[0] + c1 * sum;
}

template <class T>
void run_2d(const T* in, const T* w5, T* out, int nx, int ny, int sy, void* stream) {
  if (nx <= 0 || ny <= 0) return;
  const dim3 grid(detail::ceil_div(nx, BX2), detail::ceil_div(ny, BY2)), block(BX2, BY2);
  stencil_2d_5pt<T><<<grid, block, 0, detail::as_stream(stream)>>>(in, w5, out, nx, ny, sy);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("user_stencil_2d_5pt");
}

template <class T>
void run_3d(const T* in, T* out, int n, int sy, int sz, T c0, T c1, void* stream) {
  if (n <= 0) return;
  const dim3 grid(detail::ceil_div(n, BX3), detail::ceil_div(n, BY3), detail::ceil_div(n, BZ3)), block(BX3, BY3, BZ3);
  stencil_3d_7pt<T><<<grid, block, 0, detail::as_stream(stream)>>>(in, out, n, sy, sz, c0, c1);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("user_stencil_3d_7pt");
}

}  // namespace

void user_stencil_2d_5pt(const float* in, const float* w5, float* out, int nx, int ny, int sy, void* stream) {
  run_2d(in, w5, out, nx, ny, sy, stream);
}
void user_stencil_2d_5pt(const double* in, const double* w5, double* out, int nx, int ny, int sy, void* stream) {
  run_2d(in, w5, out, nx, ny, sy, stream);
}
void user_stencil_3d_7pt(const float* in, float* out, int n, int sy, int sz, float c0, float c1, void* stream) {
  run_3d(in, out, n, sy, sz, c0, c1, stream);
}
void user_stencil_3d_7pt(const double* in, double* out, int n, int sy, int sz, double c0, double c1, void* stream) {
  run_3d(in, out, n, sy, sz, c0, c1, stream);
}

}  // namespace bench
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
