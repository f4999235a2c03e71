// SPDX-License-Identifier: BSD-3-Clause
// 3-D 7-point stencil by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/stencil_3d.hpp.
// Same blocks, same thread-to-point mapping, same summation order, so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <algorithm>
#include <climits>
#include <sstream>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BX = 32, BY = 8;  // block (x, y)
constexpr int TILE_MIN_BLOCKS = 8;  // tile_2d_halo launch bounds: 8 blocks of 256 threads per SM
constexpr int TILE_ZB = 8;          // tile_2d_halo: consecutive planes per block
constexpr int ZC = 32;          // planes per block of z_streaming
constexpr int max_grid_y = 65535;

// Grid: x = the x-y tiles (flattened, x fastest), y = groups of TILE_ZB
// consecutive planes (tile_2d_halo) or z chunks (z_streaming), looped above
// gridDim.y's limit.
template <class S>
__global__ void __launch_bounds__(BX* BY, TILE_MIN_BLOCKS) stencil_3d_tile_2d_halo_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny,
                                               int nx, int nbx, S c0, S c1) {
  __shared__ S tile[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = (blockIdx.x % nbx) * BX + tx, y = (blockIdx.x / nbx) * BY + ty;
  const bool inside  = x < nx && y < ny;
  const long long pl = static_cast<long long>(ny) * nx;
  for (int zb = blockIdx.y * TILE_ZB; zb < nz; zb += static_cast<int>(gridDim.y) * TILE_ZB)
  for (int z = zb, ze = zb + TILE_ZB < nz ? zb + TILE_ZB : nz; z < ze; ++z) {
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
    __syncthreads();  // the tile is rewritten for the next plane
  }
}

// z_streaming: the twin of detail::stencil_3d_z_streaming_at (same tile, same
// thread-to-output and halo mapping, same prefetch and the same operations in
// the same order). Block 32 x 16 threads, tile 64 x 16 (x, y), outputs at
// (y0 + ty, x0 + tx) and (y0 + ty, x0 + tx + 32). Three shared buffers: planes
// z-1, z (with its halo) and the next one's slot; plane z+1 in registers,
// plane z+2 prefetched before the barrier of plane z; plane z goes to buffer
// (z - zb) % 3, last read at plane z-2, so one barrier per plane; the z loop
// is unrolled by 3 so that buffers are compile-time constants.
constexpr int ZBY = 16;                      // z_streaming block: 32 x ZBY threads
constexpr int RX = 2, RY = 1;                // outputs per thread (x, y)
constexpr int TX = BX * RX, TY = ZBY * RY;   // z_streaming tile (x, y)
// Launch bounds: blocks per SM, 3 for float (40 registers), 2 for double (64).
template <class S>
constexpr int zs_min_blocks() {
  return sizeof(S) == 4 ? 3 : 2;
}
static_assert(TX % 32 == 0 && 2 * TY <= 32 && 2 * (TX / 32) + 1 <= ZBY, "z_streaming halo mapping");

struct StreamThread {
  int x, y;    // grid (x, y) of output (0, 0)
  int hr, hc;  // tile cell of this thread's halo cell
  int hy, hx;  // its grid (y, x)
  bool hv;     // loads a halo cell
};

// Warps 0..W-1: the row above, W..2W-1: the row below, warp 2W: the left
// (lanes 0..TY-1) and right (TY..2TY-1) columns; cells outside the grid are not loaded.
__device__ __forceinline__ StreamThread stream_thread(int tx, int ty, int x0, int y0, int ny, int nx) {
  constexpr int W = TX / 32;
  StreamThread th{x0 + tx, y0 + ty, 0, 0, 0, 0, false};
  if (ty < 2 * W) {
    const bool below = ty >= W;
    const int col    = (below ? ty - W : ty) * 32 + tx;
    th.hr            = below ? TY + 1 : 0;
    th.hc            = col + 1;
    th.hy            = below ? y0 + TY : y0 - 1;
    th.hx            = x0 + col;
    th.hv            = th.hy >= 0 && th.hy < ny && th.hx < nx;
  } else if (ty == 2 * W && tx < 2 * TY) {
    const bool right = tx >= TY;
    const int row    = right ? tx - TY : tx;
    th.hr            = row + 1;
    th.hc            = right ? TX + 1 : 0;
    th.hy            = y0 + row;
    th.hx            = right ? x0 + TX : x0 - 1;
    th.hv            = th.hx >= 0 && th.hx < nx && th.hy < ny;
  }
  return th;
}

template <class S>
__global__ void __launch_bounds__(BX* ZBY, zs_min_blocks<S>())
    stencil_3d_z_streaming_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny, int nx, int nbx,
                                  int nchunks, S c0, S c1) {
  constexpr int N = RX * RY;
  __shared__ S tile[3 * (TY + 2)][TX + 2];  // three plane buffers, one above the other
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = (blockIdx.x % nbx) * TX, y0 = (blockIdx.x / nbx) * TY;
  const long long sz = static_cast<long long>(ny) * nx, sy = nx;
  auto at = [&](int z, int y, int x) {
    return static_cast<long long>(z) * sz + static_cast<long long>(y) * sy + static_cast<long long>(x);
  };
  // Output (ry, rx) is ZBY*ry rows and 32*rx columns on from output 0, at + at(0, ZBY*ry, 32*rx).
  for (int ch = blockIdx.y; ch < nchunks; ch += gridDim.y) {
    const int zb = ch * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
    const int zq = ze + 1 < nz ? ze + 1 : nz;  // planes below zq are loaded into q
    const StreamThread th = stream_thread(tx, ty, x0, y0, ny, nx);
    const S* src  = in + at(zb, th.y, th.x);  // output 0 of plane z
    S* dst        = out + at(zb, th.y, th.x);
    const S* hsrc = th.hv ? in + at(zb, th.hy, th.hx) : in;  // the halo cell of plane z
    S c[N], p[N], q[N], h0, h1, h2;
#pragma unroll
    for (int k = 0; k < N; ++k) {
      c[k] = p[k] = q[k] = S(0);
      if (th.y + ZBY * (k / RX) < ny && th.x + 32 * (k % RX) < nx) {
        const S* s = src + at(0, ZBY * (k / RX), 32 * (k % RX));
        // Plane zb-1 goes to buffer 2, as the plane before zb in the rotation.
        if (zb > 0) tile[2 * (TY + 2) + ty + ZBY * (k / RX) + 1][tx + 32 * (k % RX) + 1] = __ldg(s - sz);
        c[k] = __ldg(s);
        if (zb + 1 < nz) p[k] = __ldg(s + sz);
      }
    }
    h0 = h1 = h2 = S(0);
    if (th.hv) {
      h0 = __ldg(hsrc);
      if (zb + 1 < ze) h1 = __ldg(hsrc + sz);
    }
    // One plane: buffer B (compile-time: the z loop is unrolled by 3).
    auto plane = [&](auto buffer, int z) {
      constexpr int B  = decltype(buffer)::value;
      constexpr int bo = B * (TY + 2), po = (B == 0 ? 2 : B - 1) * (TY + 2);  // rows of planes z, z-1
#pragma unroll
      for (int k = 0; k < N; ++k)
        if (th.y + ZBY * (k / RX) < ny && th.x + 32 * (k % RX) < nx)
          tile[bo + ty + ZBY * (k / RX) + 1][tx + 32 * (k % RX) + 1] = c[k];
      if (th.hv) tile[bo + th.hr][th.hc] = h0;
      // Prefetch plane z+2: the centre values (z+1 of the next plane) and the halo cell.
      if (z + 2 < zq) {
#pragma unroll
        for (int k = 0; k < N; ++k)
          if (th.y + ZBY * (k / RX) < ny && th.x + 32 * (k % RX) < nx)
            q[k] = __ldg(src + 2 * sz + at(0, ZBY * (k / RX), 32 * (k % RX)));
      }
      if (th.hv && z + 2 < ze) h2 = __ldg(hsrc + 2 * sz);
      __syncthreads();
      const int y = y0 + ty, x = x0 + tx;  // output 0
      const bool zin = z > 0 && z < nz - 1;
#pragma unroll
      for (int k = 0; k < N; ++k) {
        const int yk = y + ZBY * (k / RX), xk = x + 32 * (k % RX);
        const int i = bo + ty + ZBY * (k / RX) + 1, j = tx + 32 * (k % RX) + 1;  // tile cell
        // Neighbour cells are inside the tile but not always written: a
        // boundary point's sum is discarded by the select.
        const S u = tile[i][j];
        S s       = tile[i][j - 1];
        s += tile[i][j + 1];
        s += tile[i - 1][j];
        s += tile[i + 1][j];
        s += tile[po - bo + i][j];
        s += p[k];
        const bool interior = zin && yk > 0 && yk < ny - 1 && xk > 0 && xk < nx - 1;
        const S v           = interior ? c0 * u + c1 * s : u;  // boundary points are copied
        if (yk < ny && xk < nx) dst[at(0, ZBY * (k / RX), 32 * (k % RX))] = v;
        c[k] = p[k];
        p[k] = q[k];
      }
      h0 = h1;
      h1 = h2;
      src += sz;
      hsrc += sz;
      dst += sz;
    };
    for (int z = zb; z < ze; z += 3) {
      plane(std::integral_constant<int, 0>(), z);
      if (z + 1 < ze) plane(std::integral_constant<int, 1>(), z + 1);
      if (z + 2 < ze) plane(std::integral_constant<int, 2>(), z + 2);
    }
    if (ch + static_cast<int>(gridDim.y) < nchunks) __syncthreads();  // the next chunk rewrites buffers 0 and 2
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
    const dim3 grid(static_cast<unsigned>(tiles), std::min(detail::ceil_div(nz, TILE_ZB), max_grid_y));
    stencil_3d_tile_2d_halo_kernel<S><<<grid, block, 0, s>>>(in, out, nz, ny, nx, nbx, c0, c1);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_3d_tile_2d_halo");
  } else {
    const int nchunks = detail::ceil_div(nz, ZC);
    const int zbx     = detail::ceil_div(nx, TX);
    const dim3 grid(static_cast<unsigned>(zbx * detail::ceil_div(ny, TY)), std::min(nchunks, max_grid_y));
    stencil_3d_z_streaming_kernel<S><<<grid, dim3(BX, ZBY), 0, s>>>(in, out, nz, ny, nx, zbx, nchunks, c0, c1);
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
