// SPDX-License-Identifier: BSD-3-Clause
// CUB baselines of the tile kernels (kernels/collectives.hpp): cub::BlockLoad,
// BlockScan, BlockReduce, BlockStore and WarpScan in one hand-written kernel
// per case, the tile shapes and launch bounds of the twins (256 threads x 4
// or 8 items; CUB's warp-transpose load and store need whole warps). CUB's
// own algorithms (BlockScan: raking, BlockReduce: warp reductions) and order.
#include <scratchkit/detail/collectives/tile_shape.hpp>
#include <scratchkit/native/collectives.hpp>
#include "vendor.hpp"

#include "check.cuh"

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_scan.cuh>

#include <cstddef>
#include <cstdint>
#include <string>

namespace scratchkit {
namespace native {
namespace cuda {
namespace vendor {
namespace {

namespace sk = ::scratchkit::detail;

/// BlockLoad of the tile at p: unguarded when full, else the first `valid` elements and 0 past them.
template <class Load, class T, int I>
__device__ __forceinline__ void load_tile(typename Load::TempStorage& tmp, const T* p, T (&it)[I], bool full,
                                          int valid) {
  if (full)
    Load(tmp).Load(p, it);
  else
    Load(tmp).Load(p, it, valid, T(0));
}
/// BlockStore of the tile to p: unguarded when full, else its first `valid` elements.
template <class Store, class T, int I>
__device__ __forceinline__ void store_tile(typename Store::TempStorage& tmp, T* p, T (&it)[I], bool full, int valid) {
  if (full)
    Store(tmp).Store(p, it);
  else
    Store(tmp).Store(p, it, valid);
}

/// What a tile kernel does between its BlockLoad and BlockStore.
enum class Between { copy, inclusive_sum, exclusive_sum };

/// BlockLoad, then nothing (the exchange round trip) or BlockScan, then BlockStore; one tile a block.
template <class T, int BS, int I, cub::BlockLoadAlgorithm LA, cub::BlockStoreAlgorithm SA, Between What>
__global__ void __launch_bounds__(BS, 1) cub_tile_load_store(const T* __restrict__ in, T* __restrict__ out,
                                                             std::size_t n) {
  using Load  = cub::BlockLoad<T, BS, I, LA>;
  using Store = cub::BlockStore<T, BS, I, SA>;
  using Scan  = cub::BlockScan<T, BS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } tmp;
  constexpr int TILE     = BS * I;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
  const bool full        = n - base >= static_cast<std::size_t>(TILE);
  const int valid        = full ? TILE : static_cast<int>(n - base);
  T it[I];
  load_tile<Load>(tmp.load, in + base, it, full, valid);
  __syncthreads();
  if constexpr (What == Between::inclusive_sum) {
    Scan(tmp.scan).InclusiveSum(it, it);
    __syncthreads();
  } else if constexpr (What == Between::exclusive_sum) {
    Scan(tmp.scan).ExclusiveSum(it, it);
    __syncthreads();
  }
  store_tile<Store>(tmp.store, out + base, it, full, valid);
}

template <class T, int BS, int I>
__global__ void __launch_bounds__(BS, 1) cub_tile_reduce(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  using Reduce = cub::BlockReduce<T, BS>;
  __shared__ typename Reduce::TempStorage tmp;
  constexpr int TILE     = BS * I;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
  const bool full        = n - base >= static_cast<std::size_t>(TILE);
  T it[I];
  if (full)
    cub::LoadDirectStriped<BS>(threadIdx.x, in + base, it);
  else
    cub::LoadDirectStriped<BS>(threadIdx.x, in + base, it, static_cast<int>(n - base), T(0));
  const T s = Reduce(tmp).Sum(it);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

template <class T, int BS>
__global__ void __launch_bounds__(BS, 1)
    cub_tile_warp_scan(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  using Scan = cub::WarpScan<T>;
  __shared__ typename Scan::TempStorage tmp[BS / 32];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BS + threadIdx.x;
  T v                 = i < n ? in[i] : T(0);
  Scan(tmp[threadIdx.x / 32]).InclusiveSum(v, v);
  if (i < n) out[i] = v;
}

/// The twins' tile shapes that CUB's kernels take: whole warps (256 x 4, 256 x 8).
template <class F>
void with_cub_shape(int threads, int items, const char* kernel, const F& f) {
  sk::with_tile_shape(threads, items, kernel, [&](auto bs, auto it) {
    if constexpr (decltype(bs)::value % 32 == 0) {
      f(bs, it);
    } else {
      throw UnsupportedError(std::string("scratchkit::") + kernel +
                             ": the CUB baseline takes blocks of whole warps (256 threads)");
    }
  });
}

unsigned grid_of(std::size_t n, int tile) { return static_cast<unsigned>(sk::tile_count(n, tile)); }

template <class T>
void scan_impl(ScanKind kind, const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  with_cub_shape(threads, items, "vendor::tile_scan", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    const cudaStream_t s = detail::as_stream(stream);
    constexpr auto LA = cub::BLOCK_LOAD_WARP_TRANSPOSE;
    constexpr auto SA = cub::BLOCK_STORE_WARP_TRANSPOSE;
    if (kind == ScanKind::inclusive)
      cub_tile_load_store<T, BS, I, LA, SA, Between::inclusive_sum><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    else
      cub_tile_load_store<T, BS, I, LA, SA, Between::exclusive_sum><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("cub_tile_load_store (scan)");
  });
}

template <class T>
void reduce_impl(const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  with_cub_shape(threads, items, "vendor::tile_reduce", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    cub_tile_reduce<T, BS, I><<<grid_of(n, BS * I), BS, 0, detail::as_stream(stream)>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("cub_tile_reduce");
  });
}

template <class T>
void warp_scan_impl(const T* in, T* out, std::size_t n, int threads, void* stream) {
  if (threads != 256) throw UnsupportedError("scratchkit::vendor::tile_warp_scan: blocks of 256 threads");
  if (n == 0) return;
  cub_tile_warp_scan<T, 256><<<grid_of(n, 256), 256, 0, detail::as_stream(stream)>>>(in, out, n);
  SCRATCHKIT_CUDA_CHECK_LAUNCH("cub_tile_warp_scan");
}

template <class T>
void exchange_impl(ExchangeVariant v, const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  with_cub_shape(threads, items, "vendor::tile_exchange", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    const cudaStream_t s = detail::as_stream(stream);
    if (v == ExchangeVariant::warp_transpose)
      cub_tile_load_store<T, BS, I, cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE, Between::copy>
          <<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    else
      cub_tile_load_store<T, BS, I, cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE, Between::copy>
          <<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("cub_tile_load_store (exchange)");
  });
}

}  // namespace

void tile_scan(ScanKind k, const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i, void* s) {
  scan_impl(k, in, out, n, t, i, s);
}
void tile_scan(ScanKind k, const float* in, float* out, std::size_t n, int t, int i, void* s) {
  scan_impl(k, in, out, n, t, i, s);
}
void tile_reduce(const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i, void* s) {
  reduce_impl(in, out, n, t, i, s);
}
void tile_reduce(const float* in, float* out, std::size_t n, int t, int i, void* s) { reduce_impl(in, out, n, t, i, s); }
void tile_warp_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, int t, void* s) {
  warp_scan_impl(in, out, n, t, s);
}
void tile_warp_scan(const float* in, float* out, std::size_t n, int t, void* s) { warp_scan_impl(in, out, n, t, s); }
void tile_exchange(ExchangeVariant v, const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i,
                   void* s) {
  exchange_impl(v, in, out, n, t, i, s);
}

}  // namespace vendor
}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
