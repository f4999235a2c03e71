// SPDX-License-Identifier: BSD-3-Clause
// 1-D stencil by hand in CUDA with extern __shared__: the twin of include/scratchkit/kernels/stencil_1d.hpp.
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"

#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int BS = 256;

__host__ __device__ inline std::size_t round16(std::size_t v) { return (v + 15) / 16 * 16; }

template <class S>
__global__ void stencil_1d_halo_tile_kernel(const S* __restrict__ in, const S* __restrict__ w, int R,
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

template <class S>
void stencil_impl(Stencil1DVariant v, const S* in, const S* w, int R, S* out, int n, void* stream) {
  if (v != Stencil1DVariant::halo_tile)
    throw UnsupportedError(std::string("scratchkit::native::cuda::stencil_1d: variant ") + name(v) +
                           " is not implemented");
  if (R < 0 || n < 0) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_1d: negative radius or size: R=" << R << " n=" << n;
    throw ShapeError(os.str());
  }
  if (n == 0) return;
  const std::size_t bytes = round16((BS + 2 * R) * sizeof(S)) + (2 * R + 1) * sizeof(S);
  int dev = 0, optin = 0;
  SCRATCHKIT_CUDA_CHECK(cudaGetDevice(&dev));
  SCRATCHKIT_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (bytes > static_cast<std::size_t>(optin)) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::stencil_1d: radius " << R << " needs " << bytes
       << " bytes of shared memory per block, the device allows " << optin;
    throw LaunchError(os.str());
  }
  if (bytes > 48 * 1024)  // above 48 KB a kernel must opt in
    SCRATCHKIT_CUDA_CHECK(cudaFuncSetAttribute(stencil_1d_halo_tile_kernel<S>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  stencil_1d_halo_tile_kernel<S><<<detail::ceil_div(n, BS), BS, bytes, detail::as_stream(stream)>>>(in, w, R, out, n);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("stencil_1d_halo_tile");
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
