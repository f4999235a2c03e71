// SPDX-License-Identifier: BSD-3-Clause
// 3-D 7-point stencil by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/stencil_3d.hpp.
// Same blocks, same thread-to-point mapping, same summation order, so results agree bit for bit.
#include <scratchkit/detail/stencil_3d/pick.hpp>
#include <scratchkit/detail/stencil_3d/native.hpp>
#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "stencil_3d_z_streaming.cuh"

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
constexpr int TILE_MIN_BLOCKS = scratchkit::detail::Stencil3DPolicy::tile_min_blocks;  // tile_2d_halo launch bounds
constexpr int TILE_ZB = 8;          // tile_2d_halo: consecutive planes per block
constexpr int max_grid_y = 65535;

// Grid: x = the x-y tiles (flattened, x fastest), y = groups of TILE_ZB
// consecutive planes, looped above gridDim.y's limit. (z_streaming:
// stencil_3d_z_streaming.cuh.)
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

template <class S>
void stencil_impl(Stencil3DVariant v, const S* in, S* out, int nz, int ny, int nx, S c0, S c1, void* stream,
                  const scratchkit::detail::Stencil3DPick* pick) {
  if (nz < 0 || ny < 0 || nx < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_3d_7pt: negative extent nz=" << nz << " ny=" << ny << " nx=" << nx;
    throw ShapeError(os.str());
  }
  const long long tiles = static_cast<long long>(detail::ceil_div(nx, BX)) * detail::ceil_div(ny, BY);
  // + ny/BY: a z_streaming grid shifted in x (stencil3d_tile_shift) has one more tile per row.
  if (tiles + detail::ceil_div(ny, BY) > INT_MAX) {
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
    // The shape is chosen in one place (scratchkit::detail::stencil3d_zs_pick): by the caller, or here
    // with the device's opt-in shared memory per block for a direct call. The tile grid cut from in's
    // alignment (the layer does the same for LayoutRight Views).
    const auto run = [&](auto shape) {
      using Sh = decltype(shape);
      detail::stencil_3d_z_streaming<S, Sh>(in, out, nz, ny, nx, c0, c1, s,
                                            scratchkit::detail::stencil3d_tile_shift<Sh>(in, nx));
    };
    const scratchkit::detail::Stencil3DPick p =
        pick ? *pick
             : scratchkit::detail::stencil3d_zs_pick<S>(nx, static_cast<std::size_t>(detail::shared_per_block_optin()));
    if (p.shape == scratchkit::detail::Stencil3DZsKind::wide)
      run(scratchkit::detail::Stencil3DZsWide<S>{});
    else
      run(scratchkit::detail::Stencil3DZsNativeDefault<S>{});
  }
}

}  // namespace

void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream, nullptr);
}
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream, nullptr);
}

namespace detail {

void stencil_3d_7pt(Stencil3DVariant v, const float* in, float* out, int nz, int ny, int nx, float c0, float c1,
                    void* stream, const scratchkit::detail::Stencil3DPick& pick) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream, &pick);
}
void stencil_3d_7pt(Stencil3DVariant v, const double* in, double* out, int nz, int ny, int nx, double c0,
                    double c1, void* stream, const scratchkit::detail::Stencil3DPick& pick) {
  stencil_impl(v, in, out, nz, ny, nx, c0, c1, stream, &pick);
}

}  // namespace detail

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
