// SPDX-License-Identifier: BSD-3-Clause
// 1-D stencil by hand in CUDA with extern __shared__: the twin of include/scratchkit/kernels/stencil_1d.hpp.
// Same variants, same operations in the same order, so results agree bit for bit.
#include <scratchkit/native/cuda.hpp>
#include <scratchkit/tuning/stencil_1d.hpp>

#include "check.cuh"

#include <cstdint>
#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BS         = scratchkit::tuning::Stencil1DPolicy<scratchkit::tuning::cuda_arch>::threads;
constexpr int MIN_BLOCKS = scratchkit::tuning::Stencil1DPolicy<scratchkit::tuning::cuda_arch>::min_blocks;

__host__ __device__ inline std::size_t round16(std::size_t v) { return (v + 15) / 16 * 16; }

template <class S>
__global__ void __launch_bounds__(BS, MIN_BLOCKS) stencil_1d_halo_tile_kernel(const S* __restrict__ in, const S* __restrict__ w, int R,
                                            S* __restrict__ out, int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int tile_n = BS + 2 * R;
  S* tile = reinterpret_cast<S*>(smem);
  S* ws = reinterpret_cast<S*>(smem + round16(tile_n * sizeof(S)));
  const int t = threadIdx.x;
  const int start = blockIdx.x * BS - R;
  for (int k = t; k < tile_n; k += BS) {
    const int g = start + k;
    tile[k] = (g >= 0 && g < n) ? in[g] : S(0);
  }
  for (int k = t; k <= 2 * R; k += BS) ws[k] = w[k];
  __syncthreads();
  const int i = blockIdx.x * BS + t;
  if (i < n) {
    S s = S(0);
    for (int j = 0; j <= 2 * R; ++j) s += ws[j] * tile[t + j];
    out[i] = s;
  }
}

// Vectorized: the twin of detail::stencil_1d_vectorized (same tile layout,
// same sliding window, same per-output order j = 0..2R), with float4/double2.
template <class S>
struct vec_of;
template <>
struct vec_of<float> {
  using type           = float4;
  static constexpr int n = 4;
};
template <>
struct vec_of<double> {
  using type           = double2;
  static constexpr int n = 2;
};
__device__ inline void unpack(const float4& q, float* x) {
  x[0] = q.x;
  x[1] = q.y;
  x[2] = q.z;
  x[3] = q.w;
}
__device__ inline void unpack(const double2& q, double* x) {
  x[0] = q.x;
  x[1] = q.y;
}
__device__ inline float4 pack(const float* a) { return make_float4(a[0], a[1], a[2], a[3]); }
__device__ inline double2 pack(const double* a) { return make_double2(a[0], a[1]); }

/// Tile of the vectorized kernel, in vectors: BS outputs' worth, 2R' halo
/// (R' = R rounded up to V) and one more vector that the sliding window reads.
template <class S>
__host__ __device__ inline int vec_chunks(int R) {
  constexpr int V = vec_of<S>::n;
  return BS + 2 * ((R + V - 1) / V) + 1;
}

template <class S>
__global__ void __launch_bounds__(BS, MIN_BLOCKS) stencil_1d_vectorized_kernel(const S* __restrict__ in, const S* __restrict__ w, int R,
                                             S* __restrict__ out, int n, bool vec_in, bool vec_out) {
  using Vec             = typename vec_of<S>::type;
  constexpr int V       = vec_of<S>::n;
  constexpr int VB      = V * BS;
  extern __shared__ __align__(16) unsigned char smem[];
  const int Rp      = (R + V - 1) / V * V;
  const int off     = Rp - R;
  const int nchunks = vec_chunks<S>(R);
  const int cend    = (off + 2 * R) / V;
  Vec* tile         = reinterpret_cast<Vec*>(smem);
  S* ws             = reinterpret_cast<S*>(smem + round16(static_cast<std::size_t>(nchunks) * V * sizeof(S)));
  const int t       = threadIdx.x;
  const int gstart  = blockIdx.x * VB - Rp;  // global index of the tile's first element, a multiple of V
  for (int k = t; k < nchunks; k += BS) {
    const int g = gstart + V * k;
    Vec q;
    if (vec_in && g >= 0 && g + V <= n) {
      q = reinterpret_cast<const Vec*>(in)[g / V];
    } else {
      S e[V];
#pragma unroll
      for (int l = 0; l < V; ++l) e[l] = (g + l >= 0 && g + l < n) ? in[g + l] : S(0);
      q = pack(e);
    }
    tile[k] = q;
  }
  for (int k = t; k <= 2 * R; k += BS) ws[k] = w[k];
  __syncthreads();
  const int i0 = blockIdx.x * VB + V * t;
  if (i0 < n) {
    S acc[V], x[2 * V];
#pragma unroll
    for (int v = 0; v < V; ++v) acc[v] = S(0);
    unpack(tile[t], x);
    for (int c = 0; c <= cend; ++c) {
      unpack(tile[t + c + 1], x + V);
#pragma unroll
      for (int r = 0; r < V; ++r) {
        const int j = c * V + r - off;  // x[r + v] is the tile element of output i0 + v at weight j
        if (j >= 0 && j <= 2 * R) {
          const S wj = ws[j];
#pragma unroll
          for (int v = 0; v < V; ++v) acc[v] += wj * x[r + v];
        }
      }
#pragma unroll
      for (int e = 0; e < V; ++e) x[e] = x[V + e];
    }
    if (vec_out && i0 + V <= n) {
      reinterpret_cast<Vec*>(out)[i0 / V] = pack(acc);
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v)
        if (i0 + v < n) out[i0 + v] = acc[v];
    }
  }
}

template <class S>
void stencil_impl(Stencil1DVariant v, const S* in, const S* w, int R, S* out, int n, void* stream) {
  if (v != Stencil1DVariant::halo_tile && v != Stencil1DVariant::vectorized)
    throw UnsupportedError(std::string("scratchkit::native::cuda::stencil_1d: variant ") + name(v) +
                           " is not implemented");
  if (R < 0 || n < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_1d: negative radius or size: R=" << R << " n=" << n;
    throw ShapeError(os.str());
  }
  if (n == 0) return;
  const bool vec        = v == Stencil1DVariant::vectorized;
  const int V           = vec_of<S>::n;
  const std::size_t tile_elems =
      vec ? static_cast<std::size_t>(vec_chunks<S>(R)) * V : static_cast<std::size_t>(BS + 2 * R);
  const std::size_t bytes = round16(tile_elems * sizeof(S)) + (2 * R + 1) * sizeof(S);
  const int optin = detail::shared_per_block_optin();
  if (bytes > static_cast<std::size_t>(optin)) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_1d: radius " << R << " needs " << bytes
       << " bytes of shared memory per block, the device allows " << optin;
    throw LaunchError(os.str());
  }
  const cudaStream_t s = detail::as_stream(stream);
  if (!vec) {
    if (bytes > 48 * 1024)  // above 48 KB a kernel must opt in
      SCRATCHKIT_CUDA_CHECK(cudaFuncSetAttribute(stencil_1d_halo_tile_kernel<S>,
                                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(bytes)));
    stencil_1d_halo_tile_kernel<S><<<detail::ceil_div(n, BS), BS, bytes, s>>>(in, w, R, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_1d_halo_tile");
    return;
  }
  // 16-byte accesses where the arrays allow them (a pointer into the middle
  // of an array may not be aligned), scalar ones elsewhere, as on the layer.
  const bool vec_in  = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool vec_out = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  if (bytes > 48 * 1024)
    SCRATCHKIT_CUDA_CHECK(cudaFuncSetAttribute(stencil_1d_vectorized_kernel<S>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  stencil_1d_vectorized_kernel<S><<<detail::ceil_div(n, V * BS), BS, bytes, s>>>(in, w, R, out, n, vec_in, vec_out);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_1d_vectorized");
}

}  // namespace

void stencil_1d(Stencil1DVariant v, const float* in, const float* w, int R, float* out, int n, void* s) {
  stencil_impl(v, in, w, R, out, n, s);
}
void stencil_1d(Stencil1DVariant v, const double* in, const double* w, int R, double* out, int n, void* s) {
  stencil_impl(v, in, w, R, out, n, s);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
