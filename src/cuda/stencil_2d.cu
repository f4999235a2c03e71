// SPDX-License-Identifier: BSD-3-Clause
// 2-D stencil by hand in CUDA with a __shared__ halo tile: the twin of include/scratchkit/kernels/stencil_2d.hpp.
// Same block (32 x 8), same tile, same products in the same order, so results agree bit for bit.
#include <scratchkit/native/stencil_2d.hpp>

#include "check.cuh"

#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BX = 32, BY = 8;

// The grid index of a tap outside [0, n) as the boundary extends the grid; false: the tap is 0.
__device__ __forceinline__ bool extend(int& k, int n, Boundary bc) {
  if (bc == Boundary::clamp) {
    k = k < 0 ? 0 : n - 1;
    return true;
  }
  if (bc == Boundary::periodic) {
    const int r = k % n;
    k           = r < 0 ? r + n : r;
    return true;
  }
  return false;
}

template <class T, int R, bool Star, bool Transposed>
__global__ void __launch_bounds__(BX * BY) stencil_2d_kernel(const T* __restrict__ in, const T* __restrict__ w,
                                                            T* __restrict__ out, int n0, int n1, Boundary bc) {
  constexpr int K = 2 * R + 1, WX = BX + 2 * R, WY = BY + 2 * R;
  __shared__ T tile[WY][WX];
  T wr[K * K];
#pragma unroll
  for (int i = 0; i < K * K; ++i) wr[i] = w[i];
  const int gx0 = static_cast<int>(blockIdx.x) * BX - R, gy0 = static_cast<int>(blockIdx.y) * BY - R;
  const bool interior = gx0 >= 0 && gx0 + WX <= n1 && gy0 >= 0 && gy0 + WY <= n0;
  for (int i = threadIdx.y * BX + threadIdx.x; i < WX * WY; i += BX * BY) {
    const int y = i / WX, x = i - y * WX;
    int gy = gy0 + y, gx = gx0 + x;
    T v = T(0);
    if (interior || (gx >= 0 && gx < n1 && gy >= 0 && gy < n0))
      v = in[static_cast<long>(gy) * n1 + gx];
    else if ((gy >= 0 && gy < n0 ? true : extend(gy, n0, bc)) && (gx >= 0 && gx < n1 ? true : extend(gx, n1, bc)))
      v = in[static_cast<long>(gy) * n1 + gx];
    tile[y][x] = v;
  }
  __syncthreads();
  const int x = static_cast<int>(blockIdx.x) * BX + threadIdx.x, y = static_cast<int>(blockIdx.y) * BY + threadIdx.y;
  if (x >= n1 || y >= n0) return;
  T s = 0;
#pragma unroll
  for (int a = 0; a < K; ++a) {
#pragma unroll
    for (int b = 0; b < K; ++b) {
      if (Star && a != R && b != R) continue;
      const T v = Transposed ? tile[threadIdx.y + R + b - R][threadIdx.x + R + a - R]
                             : tile[threadIdx.y + R + a - R][threadIdx.x + R + b - R];
      s += wr[Transposed ? b * K + a : a * K + b] * v;
    }
  }
  out[static_cast<long>(y) * n1 + x] = s;
}

template <class T, int R>
void launch_radius(Stencil2DShape shape, bool transposed, dim3 grid, cudaStream_t s, const T* in, const T* w, T* out,
                   int n0, int n1, Boundary bc) {
  const dim3 block(BX, BY);
  if (shape == Stencil2DShape::star) {
    if (transposed)
      stencil_2d_kernel<T, R, true, true><<<grid, block, 0, s>>>(in, w, out, n0, n1, bc);
    else
      stencil_2d_kernel<T, R, true, false><<<grid, block, 0, s>>>(in, w, out, n0, n1, bc);
  } else {
    if (transposed)
      stencil_2d_kernel<T, R, false, true><<<grid, block, 0, s>>>(in, w, out, n0, n1, bc);
    else
      stencil_2d_kernel<T, R, false, false><<<grid, block, 0, s>>>(in, w, out, n0, n1, bc);
  }
}

template <class T>
void stencil_impl(Stencil2DShape shape, Boundary bc, int R, const T* in, const T* w, T* out, int n0, int n1,
                  bool transposed, void* stream) {
  if ((R != 1 && R != 2) || n0 < 0 || n1 < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_2d: radius 1 or 2 and sizes >= 0: R=" << R << " n0=" << n0
       << " n1=" << n1;
    throw ShapeError(os.str());
  }
  if (bc == Boundary::leave)
    throw UnsupportedError("scratchkit::native::cuda::stencil_2d: Boundary::leave; use zero, clamp or periodic");
  if (n0 == 0 || n1 == 0) return;
  const dim3 grid(detail::ceil_div(n1, BX), detail::ceil_div(n0, BY));
  const cudaStream_t s = detail::as_stream(stream);
  if (R == 1)
    launch_radius<T, 1>(shape, transposed, grid, s, in, w, out, n0, n1, bc);
  else
    launch_radius<T, 2>(shape, transposed, grid, s, in, w, out, n0, n1, bc);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_2d");
}

}  // namespace

void stencil_2d(Stencil2DShape shape, Boundary bc, int R, const float* in, const float* w, float* out, int n0, int n1,
                bool transposed, void* s) {
  stencil_impl(shape, bc, R, in, w, out, n0, n1, transposed, s);
}
void stencil_2d(Stencil2DShape shape, Boundary bc, int R, const double* in, const double* w, double* out, int n0,
                int n1, bool transposed, void* s) {
  stencil_impl(shape, bc, R, in, w, out, n0, n1, transposed, s);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
