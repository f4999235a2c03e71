// SPDX-License-Identifier: BSD-3-Clause
/// Stencil3DVariant::z_streaming in CUDA with __shared__ (internal): the twin of
/// detail::stencil_3d_z_streaming_at in include/scratchkit/kernels/stencil_3d.hpp,
/// same tile, thread-to-output and halo mapping, prefetch and operation order.
/// A template on the shape (detail::Stencil3DZsShape), so that
/// perf/tune/stencil3d_tune.cu can time several; src/cuda/stencil_3d.cu runs
/// detail::Stencil3DZsNativeDefault<T>. Two kernels: the register pipeline
/// (Sh::stages == 0) and the cp.async ring (Sh::stages >= 4).
#pragma once

#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/native/stencil_3d.hpp>

#include "check.cuh"

#include <algorithm>
#include <atomic>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace native {
namespace cuda {
namespace detail {

using scratchkit::detail::stencil3d_stream_halo;
using scratchkit::detail::Stencil3DStreamHalo;

/// Block 32 x Sh::BY threads, tile Sh::TX x Sh::TY of a chunk of Sh::ZC planes.
/// Three shared buffers: planes z-1, z (with its halo) and the next one's
/// slot; plane z+1 in registers, plane z+2 prefetched before the barrier of
/// plane z; plane z goes to buffer (z - zb) % 3, last read at plane z-2, so one
/// barrier per plane; the z loop is unrolled by 3 so that buffers are
/// compile-time constants. Grid: x = x-y tiles (x fastest), y = z chunks.
template <class S, class Sh>
__global__ void __launch_bounds__(Sh::threads, Sh::template min_blocks<S>())
    stencil_3d_z_streaming_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny, int nx, int nbx,
                                  int nchunks, int xs, S c0, S c1) {
  constexpr int BY = Sh::BY, RX = Sh::RX, TX = Sh::TX, TY = Sh::TY, ZC = Sh::ZC, N = Sh::N, NH = Sh::NH;
  constexpr int NT = Sh::threads;
  __shared__ S tile[3 * (TY + 2)][TX + 2];  // three plane buffers, one above the other
  const int tx = threadIdx.x, ty = threadIdx.y, rank = ty * 32 + tx;
  const int x0 = (blockIdx.x % nbx) * TX - xs, y0 = (blockIdx.x / nbx) * TY;  // xs: stencil3d_tile_shift
  const long long sz = static_cast<long long>(ny) * nx, sy = nx;
  auto at = [&](int z, int y, int x) {
    return static_cast<long long>(z) * sz + static_cast<long long>(y) * sy + static_cast<long long>(x);
  };
  const int x = x0 + tx, y = y0 + ty;  // output 0; output k is BY*(k/RX) rows and 32*(k%RX) columns on
  for (int ch = blockIdx.y; ch < nchunks; ch += gridDim.y) {
    const int zb = ch * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
    const int zq = ze + 1 < nz ? ze + 1 : nz;  // planes below zq are loaded into q
    const S* src = in + at(zb, y, x);          // output 0 of plane z
    S* dst       = out + at(zb, y, x);
    S c[N], p[N], q[N];
    S h0[NH], h1[NH], h2[NH];
    const S* hsrc[NH];  // halo cells of plane z
#pragma unroll
    for (int k = 0; k < N; ++k) {
      c[k] = p[k] = q[k] = S(0);
      if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx)) {
        const S* s = src + at(0, BY * (k / RX), 32 * (k % RX));
        // Plane zb-1 goes to buffer 2, as the plane before zb in the rotation.
        if (zb > 0) tile[2 * (TY + 2) + ty + BY * (k / RX) + 1][tx + 32 * (k % RX) + 1] = __ldg(s - sz);
        c[k] = __ldg(s);
        if (zb + 1 < nz) p[k] = __ldg(s + sz);
      }
    }
#pragma unroll
    for (int j = 0; j < NH; ++j) {
      const Stencil3DStreamHalo h = stencil3d_stream_halo<Sh>(rank + j * NT, x0, y0, ny, nx);
      hsrc[j]            = h.v ? in + at(zb, h.gy, h.gx) : in;
      h0[j] = h1[j] = h2[j] = S(0);
      if (h.v) {
        h0[j] = __ldg(hsrc[j]);
        if (zb + 1 < ze) h1[j] = __ldg(hsrc[j] + sz);
      }
    }
    // One plane: buffer B (compile-time: the z loop is unrolled by 3).
    auto plane = [&](auto buffer, int z) {
      constexpr int B  = decltype(buffer)::value;
      constexpr int bo = B * (TY + 2), po = (B == 0 ? 2 : B - 1) * (TY + 2);  // rows of planes z, z-1
#pragma unroll
      for (int k = 0; k < N; ++k)
        if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx))
          tile[bo + ty + BY * (k / RX) + 1][tx + 32 * (k % RX) + 1] = c[k];
#pragma unroll
      for (int j = 0; j < NH; ++j) {
        const Stencil3DStreamHalo h = stencil3d_stream_halo<Sh>(rank + j * NT, x0, y0, ny, nx);
        if (h.v) tile[bo + h.r][h.c] = h0[j];
      }
      // Prefetch plane z+2: the centre values (z+1 of the next plane) and the halo cells.
      if (z + 2 < zq) {
#pragma unroll
        for (int k = 0; k < N; ++k)
          if (y + BY * (k / RX) < ny && static_cast<unsigned>(x + 32 * (k % RX)) < static_cast<unsigned>(nx))
            q[k] = __ldg(src + 2 * sz + at(0, BY * (k / RX), 32 * (k % RX)));
      }
      if (z + 2 < ze) {
#pragma unroll
        for (int j = 0; j < NH; ++j)
          if (stencil3d_stream_halo<Sh>(rank + j * NT, x0, y0, ny, nx).v) h2[j] = __ldg(hsrc[j] + 2 * sz);
      }
      __syncthreads();
      const bool zin = z > 0 && z < nz - 1;
#pragma unroll
      for (int k = 0; k < N; ++k) {
        const int yk = y + BY * (k / RX), xk = x + 32 * (k % RX);
        const int i = bo + ty + BY * (k / RX) + 1, j = tx + 32 * (k % RX) + 1;  // tile cell
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
        if (yk < ny && static_cast<unsigned>(xk) < static_cast<unsigned>(nx)) dst[at(0, BY * (k / RX), 32 * (k % RX))] = v;
        c[k] = p[k];
        p[k] = q[k];
      }
#pragma unroll
      for (int j = 0; j < NH; ++j) {
        h0[j] = h1[j];
        h1[j] = h2[j];
        hsrc[j] += sz;
      }
      src += sz;
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

/// Sh::stages > 0: the cp.async ring. Block 32 x Sh::BY threads, tile Sh::TX x
/// Sh::TY of a chunk of Sh::ZC planes; Sh::stages shared plane buffers, plane p
/// of the chunk in buffer (p - zb + 1) % stages. Planes zb-1 .. zb+D-1 (D =
/// stages - 2) are requested first, one cp.async group each; at plane z a thread
/// waits for its group of plane z+1, the barrier makes every thread's copies
/// visible, then plane z+D is requested into the buffer of plane z-2 (read
/// last at plane z-1, before this barrier) and plane z is computed from
/// planes z-1, z, z+1 in shared memory. Planes outside the chunk's z-1 .. ze
/// or the grid are not loaded (only boundary points, which are copied, read them).
/// V16: 16-byte cells and stores (scratchkit::detail::stencil3d_ring_v16 holds).
template <class S, class Sh, bool V16>
__global__ void __launch_bounds__(Sh::threads, Sh::template min_blocks<S>())
    stencil_3d_z_ring_kernel(const S* __restrict__ in, S* __restrict__ out, int nz, int ny, int nx, int nbx,
                             int nchunks, int xs, S c0, S c1) {
  constexpr int BY = Sh::BY, RX = Sh::RX, TX = Sh::TX, TY = Sh::TY, ZC = Sh::ZC, N = Sh::N;
  constexpr int ST = Sh::stages, D = ST - 2, P = Sh::template pitch<S>(), PL = Sh::template plane<S>();
  constexpr int LO = Sh::template lo<S>(), W = scratchkit::detail::vec16<S>::width;
  static_assert(Sh::vec < 2 || RX % W == 0, "vec 2: RX a multiple of 16 / sizeof(T)");
  // Dynamic: a ring may be over 48 KB (the launch opts in, stencil_3d_z_streaming).
  extern __shared__ __align__(16) unsigned char stencil3d_ring_smem[];
  S* const ring = reinterpret_cast<S*>(stencil3d_ring_smem);
  const int tx = threadIdx.x, ty = threadIdx.y, rank = ty * 32 + tx;
  const int x0 = (blockIdx.x % nbx) * TX - xs, y0 = (blockIdx.x / nbx) * TY;  // xs: stencil3d_tile_shift
  const long long sz = static_cast<long long>(ny) * nx, sy = nx;
  auto at = [&](int z, int y, int x) {
    return static_cast<long long>(z) * sz + static_cast<long long>(y) * sy + static_cast<long long>(x);
  };
  // Output 0 at (y, x0 + col(0, tx)); output k is BY*(k/RX) rows and col(k%RX, tx) - col(0, tx) columns on.
  const int y = y0 + ty, c0x = Sh::template col<S>(0, tx);
  scratchkit::detail::Stencil3DRingCells<Sh, S, V16> cells;
  scratchkit::detail::stencil3d_ring_cells(cells, rank, x0, y0, ny, nx, at);
  const unsigned mask = scratchkit::detail::stencil3d_out_mask<Sh, S>(y, x0, tx, ny, nx);  // inside / interior, per output
  auto wrap = [](int b) { return b >= ST ? b - ST : b; };
  for (int ch = blockIdx.y; ch < nchunks; ch += gridDim.y) {
    const int zb = ch * ZC, ze = zb + ZC < nz ? zb + ZC : nz;
    const int zl = ze < nz - 1 ? ze : nz - 1;  // the last plane loaded
    const int zf = zb > 0 ? zb - 1 : 0;        // the first plane loaded
    const bool down = scratchkit::detail::stencil3d_zalt_down<Sh>(ch);  // Sh::zalt: odd chunks walk down
#pragma unroll
    for (int d = 0; d <= D; ++d) {
      const int pz = down ? ze - d : zb - 1 + d;
      if ((down ? pz >= zf : pz >= 0) && pz <= zl)
        scratchkit::detail::stencil3d_ring_load(cells, ring + d * PL, in + at(pz, 0, 0));
      scratchkit::detail::gemm_cp_async_commit();
    }
    S* dst = out + at(down ? ze - 1 : zb, y, x0 + c0x);
    const long long dz = down ? -sz : sz;
    for (int zs = zb, bm = 0; zs < ze; ++zs) {  // bm: buffer of plane z-1 (z+1 going down)
      const int z = down ? zb + ze - 1 - zs : zs;
      scratchkit::detail::gemm_cp_async_wait<D - 2>();
      __syncthreads();
      const int pn = down ? z - D : z + D;
      if ((!down || pn >= zf) && pn <= zl)
        scratchkit::detail::stencil3d_ring_load(cells, ring + wrap(bm + ST - 1) * PL, in + at(pn, 0, 0));
      scratchkit::detail::gemm_cp_async_commit();
      const S* pa = ring + bm * PL;
      const S* pc = ring + wrap(bm + 1) * PL;
      const S* pb = ring + wrap(bm + 2) * PL;
      const S* pm = down ? pb : pa;
      const S* pp = down ? pa : pb;
      const bool zin = z > 0 && z < nz - 1;
      if constexpr (Sh::vec == 2) {
#pragma unroll
        for (int k = 0; k < N; k += W) {
          const int dx = Sh::template col<S>(k % RX, tx) - c0x;  // a constant
          const int i  = (ty + BY * (k / RX) + 1) * P + LO + c0x + dx;
          S v[W];
          scratchkit::detail::stencil3d_ring_points16<P>(pm, pc, pp, i, c0, c1,
                                                         zin ? mask >> (N + k) : 0u, v);
          S* d = dst + at(0, BY * (k / RX), dx);
          if constexpr (V16) {
            if (mask >> k & 1u) scratchkit::detail::stencil3d_st16(d, v);
          } else {
#pragma unroll
            for (int e = 0; e < W; ++e)
              if (mask >> (k + e) & 1u) d[e] = v[e];
          }
        }
      } else {
#pragma unroll
        for (int k = 0; k < N; ++k) {
          const int dx        = Sh::template col<S>(k % RX, tx) - c0x;
          const int i         = (ty + BY * (k / RX) + 1) * P + LO + c0x + dx;  // tile cell
          const bool interior = zin && (mask >> (N + k) & 1u);
          const S v = scratchkit::detail::stencil3d_ring_point<P>(pm, pc, pp, i, c0, c1, interior);
          if (mask >> k & 1u) dst[at(0, BY * (k / RX), dx)] = v;
        }
      }
      dst += dz;
      bm = wrap(bm + 1);
    }
    if (ch + static_cast<int>(gridDim.y) < nchunks) __syncthreads();  // the next chunk rewrites the buffers
  }
}

/// The kernel of shape Sh, for attribute queries (V16: the ring's 16-byte build).
template <class S, class Sh, bool V16 = false>
inline auto zs_kernel() {
  if constexpr (Sh::stages > 0)
    return &stencil_3d_z_ring_kernel<S, Sh, V16 && (Sh::vec > 0)>;
  else
    return &stencil_3d_z_streaming_kernel<S, Sh>;
}

/// Dynamic shared memory of shape Sh's kernel: the ring's plane buffers (the
/// register pipeline's three buffers are static).
template <class S, class Sh>
constexpr int zs_dynamic_smem() {
  return Sh::stages > 0 ? static_cast<int>(Sh::template smem_bytes<S>()) : 0;
}

/// Raises the dynamic shared memory limit of shape Sh's ring kernels above 48 KB
/// (once per shape, device 0 .. 63), or throws where the device's opt-in maximum
/// is smaller than the ring.
template <class S, class Sh>
void zs_opt_in(bool v16) {
  static std::atomic<unsigned long long> done[2]{};
  int dev = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  const unsigned long long bit = 1ull << (dev & 63);
  if (done[v16].load() & bit) return;
  const int smem = zs_dynamic_smem<S, Sh>(), optin = shared_per_block_optin();
  if (smem > optin)
    throw LaunchError("stencil_3d z_streaming: the shape's ring needs " + std::to_string(smem) +
                      " bytes of shared memory per block; this device allows " + std::to_string(optin));
  SCRATCHKIT_CUDA_CHECK(
      cudaFuncSetAttribute(v16 ? zs_kernel<S, Sh, true>() : zs_kernel<S, Sh, false>(),
                           cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  done[v16].fetch_or(bit);
}

/// One z_streaming step with shape Sh on `stream` (nz, ny, nx > 0, checked by the
/// caller), the x tile grid shifted by xs in [0, Sh::TX) (stencil3d_tile_shift; the
/// perf tuner also times xs = 0 on shifted data).
template <class S, class Sh>
void stencil_3d_z_streaming(const S* in, S* out, int nz, int ny, int nx, S c0, S c1, cudaStream_t stream, int xs) {
  const auto g = scratchkit::detail::stencil3d_zs_grid<Sh>(nz, ny, nx, xs);
  const dim3 grid(static_cast<unsigned>(static_cast<long long>(g.nbx) * g.nby), static_cast<unsigned>(g.gy));
  const long long sz = static_cast<long long>(ny) * nx;
  const bool v16     = scratchkit::detail::stencil3d_ring_v16<Sh>(in, out, nx, sz, xs);
  const auto kernel  = v16 ? zs_kernel<S, Sh, true>() : zs_kernel<S, Sh, false>();
  const int smem     = zs_dynamic_smem<S, Sh>();
  if (smem > 48 * 1024) zs_opt_in<S, Sh>(v16);
  kernel<<<grid, dim3(32, Sh::BY), static_cast<size_t>(smem), stream>>>(in, out, nz, ny, nx, g.nbx, g.nchunks, xs,
                                                                         c0, c1);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_3d_z_streaming");
}

}  // namespace detail
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
