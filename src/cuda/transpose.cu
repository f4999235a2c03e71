// SPDX-License-Identifier: BSD-3-Clause
// Transpose by hand in CUDA with __shared__: the twin of include/scratchkit/kernels/transpose.hpp.
// Same variants, block shape, tile mapping and accesses; a transpose only moves values, so the
// twins agree bit for bit. tiled_padded: src/cuda/transpose_padded.cuh.
#include <scratchkit/detail/transpose/blocking.hpp>
#include <scratchkit/native/cuda.hpp>

#include "check.cuh"
#include "transpose_padded.cuh"

#include <climits>
#include <sstream>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

constexpr int T  = 32;  // tile edge
constexpr int BR = 8;   // block rows: 32 x 8 threads, each moving T / BR = 4 elements
constexpr int MIN_BLOCKS = 8;  // launch bounds: 8 blocks of 256 threads per SM (32 registers)

// Tiles are numbered on a 1-D grid as the layer numbers its blocks (x fastest),
// so any number of tile rows fits (gridDim.y would stop at 65535).
__device__ __forceinline__ void tile_origin(int nbx, int& row0, int& col0) {
  row0 = static_cast<int>(blockIdx.x / nbx) * T;
  col0 = static_cast<int>(blockIdx.x % nbx) * T;
}

template <class S>
__global__ void __launch_bounds__(T* BR, MIN_BLOCKS)
    transpose_naive_kernel(int rows, int cols, int nbx, const S* __restrict__ in, S* __restrict__ out) {
  int row0, col0;
  tile_origin(nbx, row0, col0);
  const int c = col0 + threadIdx.x;
#pragma unroll
  for (int j = 0; j < T; j += BR) {
    const int r = row0 + threadIdx.y + j;
    if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
  }
}

// Through an unpadded 32 x 32 tile: the column reads of the second phase conflict 32-way.
template <class S>
__global__ void __launch_bounds__(T* BR, MIN_BLOCKS)
    transpose_tiled_kernel(int rows, int cols, int nbx, const S* __restrict__ in, S* __restrict__ out) {
  constexpr int P = T;
  __shared__ S tile[T * P];
  int row0, col0;
  tile_origin(nbx, row0, col0);
  const int tx = threadIdx.x, ty = threadIdx.y;
  {
    const int c = col0 + tx;
#pragma unroll
    for (int j = 0; j < T; j += BR) {
      const int r = row0 + ty + j;
      if (r < rows && c < cols) tile[(ty + j) * P + tx] = in[static_cast<long long>(r) * cols + c];
    }
  }
  __syncthreads();
  const int r = row0 + tx;
#pragma unroll
  for (int j = 0; j < T; j += BR) {
    const int c = col0 + ty + j;
    if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = tile[tx * P + ty + j];
  }
}

template <class S>
void transpose_impl(TransposeVariant v, int rows, int cols, const S* in, S* out, void* stream) {
  if (rows < 0 || cols < 0 || rows > INT_MAX / 2 || cols > INT_MAX / 2) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::transpose: extents rows=" << rows << " cols=" << cols
       << " must be in [0, INT_MAX/2]";
    throw ShapeError(os.str());
  }
  if (v != TransposeVariant::naive && v != TransposeVariant::tiled && v != TransposeVariant::tiled_padded) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::transpose: unknown variant " << static_cast<int>(v);
    throw UnsupportedError(os.str());
  }
  if (rows == 0 || cols == 0) return;
  const int nbx = detail::ceil_div(cols, T), nby = detail::ceil_div(rows, T);
  const long long tiles = static_cast<long long>(nbx) * nby;
  if (tiles > INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::native::cuda::transpose: rows=" << rows << " cols=" << cols << " needs " << tiles
       << " tiles of 32 x 32, more than the " << INT_MAX << " blocks a launch can have";
    throw ShapeError(os.str());
  }
  const dim3 block(T, BR), grid(static_cast<unsigned>(tiles));
  const cudaStream_t s = detail::as_stream(stream);
  switch (v) {
    case TransposeVariant::naive:
      transpose_naive_kernel<S><<<grid, block, 0, s>>>(rows, cols, nbx, in, out);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("transpose_naive");
      return;
    case TransposeVariant::tiled:
      transpose_tiled_kernel<S><<<grid, block, 0, s>>>(rows, cols, nbx, in, out);
      SCRATCHKIT_CUDA_CHECK_LAUNCH("transpose_tiled");
      return;
    case TransposeVariant::tiled_padded:
      detail::launch_transpose_padded<S, typename scratchkit::detail::TransposeDefaultBlocking<S>::type>(rows, cols, in,
                                                                                                     out, s);
      return;
  }
  throw UnsupportedError(std::string("scratchkit::native::cuda::transpose: variant ") + name(v) +
                         " is not implemented");
}

}  // namespace

void transpose(TransposeVariant v, int rows, int cols, const float* in, float* out, void* stream) {
  transpose_impl(v, rows, cols, in, out, stream);
}
void transpose(TransposeVariant v, int rows, int cols, const double* in, double* out, void* stream) {
  transpose_impl(v, rows, cols, in, out, stream);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
