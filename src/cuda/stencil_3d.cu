// SPDX-License-Identifier: BSD-3-Clause
// 3-D 7-point stencil by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/stencil_3d.hpp.
// Same blocks, same thread-to-point mapping, same summation order, so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <algorithm>
#include <climits>
#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BX = 32, BY = 8;  // block (x, y)
constexpr int ZC = 32;          // planes per block of z_streaming
constexpr int max_grid_y = 65535;

// Grid: x = the x-y tiles (flattened, x fastest), y = z planes (tile_2d_halo)
// or z chunks (z_streaming), looped above gridDim.y's limit.
template <class S>
__global__ void stencil_3d_tile_2d_halo_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny,
                                               int nx, int nbx, S c0, S c1) {
  __shared__ S tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = (blockIdx.x % nbx) * BX + tx, y = (blockIdx.x / nbx) * BY + ty;
  const bool inside  = x < nx && y < ny;
  const long long pl = static_cast<long long>(ny) * nx;
  for (int z = blockIdx.y; z < nz; z += gridDim.y) {
    const bool interior = z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1;
    const long long i   = z * pl + static_cast<long long>(y) * nx + x;
    S zm = S(0), zp = S(0);
    if (inside) {
      // Centre and the halo cells next to it; cells outside the grid are never
      // read (their neighbours are boundary points).
      tile[ty + 1][tx + 1] = in[i];
      if (tx == 0 && x > 0) tile[ty + 1][0] = in[i - 1];
      if (tx == BX - 1 && x + 1 < nx) tile[ty + 1][BX + 1] = in[i + 1];
      if (ty == 0 && y > 0) tile[0][tx + 1] = in[i - nx];
      if (ty == BY - 1 && y + 1 < ny) tile[BY + 1][tx + 1] = in[i + nx];
      if (interior) {
        zm = in[i - pl];
        zp = in[i + pl];
      }
    }
    __syncthreads();
    if (inside) {
      const S u = tile[ty + 1][tx + 1];
      if (interior) {
        S s = tile[ty + 1][tx];
        s += tile[ty + 1][tx + 2];
        s += tile[ty][tx + 1];
        s += tile[ty + 2][tx + 1];
        s += zm;
        s += zp;
        out[i] = c0 * u + c1 * s;
      } else {
        out[i] = u;
      }
    }
    if (z + static_cast<int>(gridDim.y) < nz) __syncthreads();  // the tile is rewritten for the next plane
  }
}

template <class S>
__global__ void stencil_3d_z_streaming_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny,
                                              int nx, int nbx, int nchunks, S c0, S c1) {
  // Two plane buffers: plane z goes to buffer z & 1, one barrier per plane.
  __shared__ S tiles[2][BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = (blockIdx.x % nbx) * BX + tx, y = (blockIdx.x / nbx) * BY + ty;
  const bool inside  = x < nx && y < ny;
  const long long pl = static_cast<long long>(ny) * nx;
  const long long col = static_cast<long long>(y) * nx + x;  // this thread's (y, x)
  // This thread's halo duty: at most one x cell and one y cell per plane.
  const int hxo = (tx == 0 && x > 0) ? -1 : (tx == BX - 1 && x + 1 < nx) ? 1 : 0;
  const int hyo = (ty == 0 && y > 0) ? -1 : (ty == BY - 1 && y + 1 < ny) ? 1 : 0;
  for (int c = blockIdx.y; c < nchunks; c += gridDim.y) {
    const int zb = c * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
    S prev = S(0), cur = S(0), next = S(0), hx = S(0), hy = S(0);
    if (inside) {
      const long long i = zb * pl + col;
      prev = zb > 0 ? in[i - pl] : S(0);
      cur  = in[i];
      next = zb + 1 < nz ? in[i + pl] : S(0);
      if (hxo != 0) hx = in[i + hxo];
      if (hyo != 0) hy = in[i + static_cast<long long>(hyo) * nx];
    }
    for (int z = zb; z < ze; ++z) {
      S(*tile)[BX + 2] = tiles[(z - zb) & 1];
      if (inside) {
        tile[ty + 1][tx + 1] = cur;
        if (hxo != 0) tile[ty + 1][tx + 1 + hxo] = hx;
        if (hyo != 0) tile[ty + 1 + hyo][tx + 1] = hy;
      }
      __syncthreads();
      if (inside) {
        const long long i = z * pl + col;
        const S u         = cur;
        if (z > 0 && z < nz - 1 && y > 0 && y < ny - 1 && x > 0 && x < nx - 1) {
          S s = tile[ty + 1][tx];
          s += tile[ty + 1][tx + 2];
          s += tile[ty][tx + 1];
          s += tile[ty + 2][tx + 1];
          s += prev;
          s += next;
          out[i] = c0 * u + c1 * s;
        } else {
          out[i] = u;
        }
        // Advance the column and prefetch what the next plane of this chunk needs.
        if (z + 1 < ze) {
          prev = u;
          cur  = next;
          next = z + 2 < nz ? in[i + 2 * pl] : S(0);
          if (hxo != 0) hx = in[i + pl + hxo];
          if (hyo != 0) hy = in[i + pl + static_cast<long long>(hyo) * nx];
        }
      }
    }
    if (c + static_cast<int>(gridDim.y) < nchunks) __syncthreads();  // the next chunk rewrites buffer 0
  }
}

template <class S>
void stencil_impl(Stencil3DVariant v, const S* in, S* out, int nz, int ny, int nx, S c0, S c1, void* stream) {
  if (nz < 0 || ny < 0 || nx < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_3d_7pt: negative extent nz=" << nz << " ny=" << ny << " nx=" << nx;
    throw ShapeError(os.str());
  }
  const long long tiles = static_cast<long long>(detail::ceil_div(nx, BX)) * detail::ceil_div(ny, BY);
  if (tiles > INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_3d_7pt: " << ny << " x " << nx << " needs " << tiles
       << " x-y tiles, more than 2^31-1";
    throw ShapeError(os.str());
  }
  if (v != Stencil3DVariant::tile_2d_halo && v != Stencil3DVariant::z_streaming)
    throw UnsupportedError(std::string("scratchkit::native::cuda::stencil_3d_7pt: variant ") + name(v) +
                           " is not implemented");
  if (nz == 0 || ny == 0 || nx == 0) return;
  if (static_cast<const void*>(in) == static_cast<const void*>(out))
    throw ShapeError("scratchkit::native::cuda::stencil_3d_7pt: in and out are the same array");
  const int nbx = detail::ceil_div(nx, BX);
  const dim3 block(BX, BY);
  const cudaStream_t s = detail::as_stream(stream);
  if (v == Stencil3DVariant::tile_2d_halo) {
    const dim3 grid(static_cast<unsigned>(tiles), std::min(nz, max_grid_y));
    stencil_3d_tile_2d_halo_kernel<S><<<grid, block, 0, s>>>(in, out, nz, ny, nx, nbx, c0, c1);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_3d_tile_2d_halo");
  } else {
    const int nchunks = detail::ceil_div(nz, ZC);
    const dim3 grid(static_cast<unsigned>(tiles), std::min(nchunks, max_grid_y));
    stencil_3d_z_streaming_kernel<S><<<grid, block, 0, s>>>(in, out, nz, ny, nx, nbx, nchunks, c0, c1);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_3d_z_streaming");
  }
}

}  // namespace

void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream);
}
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
