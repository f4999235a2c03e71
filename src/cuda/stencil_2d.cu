// SPDX-License-Identifier: BSD-3-Clause
// 2-D stencil by hand in CUDA with a __shared__ halo tile: the twin of include/scratchkit/kernels/stencil_2d.hpp.
// Same block, tile and rows a thread (tuning/stencil_2d.hpp), same products in the same order, so
// results agree bit for bit.
#include <scratchkit/native/stencil_2d.hpp>
#include <scratchkit/tuning/stencil_2d.hpp>

#include "check.cuh"

#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

using P = tuning::Stencil2DPolicy;
constexpr int BX = P::threads_x, BY = P::threads_y, TX = P::tile_x, TY = P::tile_y, ROWS = P::rows;

// The grid index of coordinate k of an axis of n points as the boundary extends the grid; -1: the
// point is 0 (zero boundary).
__device__ __forceinline__ int extend(int k, int n, Boundary bc) {
  if (k >= 0 && k < n) return k;
  if (bc == Boundary::clamp) return k < 0 ? 0 : n - 1;
  if (bc == Boundary::periodic) {
    const int r = k % n;
    return r < 0 ? r + n : r;
  }
  return -1;
}

template <class T, int R, bool Star, bool Transposed>
__global__ void __launch_bounds__(BX * BY) stencil_2d_kernel(const T* __restrict__ in, const T* __restrict__ w,
                                                            T* __restrict__ out, int n0, int n1, Boundary bc) {
  constexpr int K = 2 * R + 1, WX = TX + 2 * R, WY = TY + 2 * R;
  __shared__ T tile[WY][WX];
  T wr[K * K];
#pragma unroll
  for (int i = 0; i < K * K; ++i) wr[i] = w[i];
  const int ox = static_cast<int>(blockIdx.x) * TX, oy = static_cast<int>(blockIdx.y) * TY;
  const int gx0 = ox - R, gy0 = oy - R;
  const bool interior = gx0 >= 0 && gx0 + WX <= n1 && gy0 >= 0 && gy0 + WY <= n0;
  for (int i = threadIdx.y * BX + threadIdx.x; i < WX * WY; i += BX * BY) {
    const int y = i / WX, x = i - y * WX;
    T v = T(0);
    if (interior) {
      v = in[static_cast<long>(gy0 + y) * n1 + gx0 + x];
    } else {
      const int gy = extend(gy0 + y, n0, bc), gx = extend(gx0 + x, n1, bc);
      if (gy >= 0 && gx >= 0) v = in[static_cast<long>(gy) * n1 + gx];
    }
    tile[y][x] = v;
  }
  __syncthreads();
  const int tx = threadIdx.x, x = ox + tx;
  if (x >= n1) return;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const int ty = r * BY + static_cast<int>(threadIdx.y), y = oy + ty;
    if (y >= n0) break;
    T s = 0;
#pragma unroll
    for (int a = 0; a < K; ++a) {
#pragma unroll
      for (int b = 0; b < K; ++b) {
        if (Star && a != R && b != R) continue;
        const T v = Transposed ? tile[ty + R + b - R][tx + R + a - R] : tile[ty + R + a - R][tx + R + b - R];
        s += wr[Transposed ? b * K + a : a * K + b] * v;
      }
    }
    out[static_cast<long>(y) * n1 + x] = s;
  }
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
  const dim3 grid(detail::ceil_div(n1, TX), detail::ceil_div(n0, TY));
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
