// SPDX-License-Identifier: BSD-3-Clause
// Block collectives by hand in CUDA with __shared__ and __shfl_*_sync: the
// twin of include/scratchkit/kernels/collectives.hpp (the collectives
// themselves: block_collectives.hpp, warp.hpp). Same tiles, blocks, launch
// bounds and order of operations (the warp scans' Kogge-Stone rounds, the
// warp reductions' shuffle tree, the folds of the warps' totals, the items'
// left-to-right chains), so floats agree with the layer bit for bit. Inputs
// are read through __ldg, as the layer's read_only().
#include <scratchkit/detail/collectives/tile_shape.hpp>
#include <scratchkit/native/collectives.hpp>

#include "check.cuh"

#include <cstddef>
#include <cstdint>

namespace scratchkit {
namespace native {
namespace cuda {
namespace {

namespace sk = ::scratchkit::detail;

constexpr int WARP = 32;

/// The warp of thread tid in a block of BS threads (the last may be partial).
template <int BS>
struct WarpPos {
  int warp, lane, base, width;
  unsigned mask;
  __device__ __forceinline__ explicit WarpPos(int tid)
      : warp(tid / WARP), lane(tid % WARP), base(tid - tid % WARP),
        width(BS - base < WARP ? BS - base : WARP),
        mask(width >= WARP ? 0xffffffffu : ((1u << width) - 1u)) {}
};

/// Tile slot of element i: one padding slot after every 32 (BlockExchange::slot).
__device__ __forceinline__ int slot(int i) { return i + (i >> 5); }

/// Kogge-Stone inclusive sum over the warp (warp_inclusive_scan).
template <class T>
__device__ __forceinline__ T warp_inclusive_sum(T x, int lane, unsigned mask) {
#pragma unroll
  for (int off = 1; off < WARP; off <<= 1) {
    const T y = __shfl_up_sync(mask, x, off);
    if (lane >= off) x = y + x;
  }
  return x;
}

/// s[0] + s[1] + ... + s[count - 1], left to right (fold_slots).
template <int MaxCount, class T>
__device__ __forceinline__ T fold_slots(const T* s, int count) {
  T acc = s[0];
#pragma unroll
  for (int w = 1; w < MaxCount; ++w)
    if (w < count) acc = acc + s[w];
  return acc;
}

/// Sum of x over the threads before tid (block_exclusive_prefix; tid 0: unspecified).
template <int BS, class T>
__device__ __forceinline__ T block_exclusive_prefix(T x, T* warp_tot, int tid) {
  constexpr int WARPS = (BS + WARP - 1) / WARP;
  const WarpPos<BS> w(tid);
  const T wi = warp_inclusive_sum(x, w.lane, w.mask);
  if (w.lane == w.width - 1) warp_tot[w.warp] = wi;
  T p = __shfl_sync(w.mask, wi, w.lane > 0 ? w.lane - 1 : 0);
  __syncthreads();
  if (w.warp > 0) {
    const T wp = fold_slots<WARPS>(warp_tot, w.warp);
    p          = w.lane == 0 ? wp : wp + p;
  }
  return p;
}

/// Striped element of item i of thread tid (BlockExchange::striped_index).
template <int BS, int I, ExchangeVariant V>
__device__ __forceinline__ int striped_index(int tid, int i) {
  if constexpr (V == ExchangeVariant::transpose) {
    return i * BS + tid;
  } else {
    const WarpPos<BS> w(tid);
    return w.base * I + i * w.width + w.lane;
  }
}

template <int BS, ExchangeVariant V>
__device__ __forceinline__ void half_barrier(int tid) {
  if constexpr (V == ExchangeVariant::transpose) {
    __syncthreads();
  } else {
    __syncwarp(WarpPos<BS>(tid).mask);
  }
}

/// BlockExchange::load: striped from global (fill 0 past valid), blocked into it[].
template <int BS, int I, ExchangeVariant V, class T>
__device__ __forceinline__ void exchange_load(const T* __restrict__ in, std::size_t base, int valid, T* ex,
                                              T (&it)[I], int tid) {
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const int j = striped_index<BS, I, V>(tid, i);
    ex[slot(j)] = j < valid ? __ldg(in + base + j) : T(0);
  }
  half_barrier<BS, V>(tid);
#pragma unroll
  for (int i = 0; i < I; ++i) it[i] = ex[slot(tid * I + i)];
}

/// BlockExchange::store: blocked it[] through the tile, striped to global (j < valid).
template <int BS, int I, ExchangeVariant V, class T>
__device__ __forceinline__ void exchange_store(T* __restrict__ out, std::size_t base, int valid, T* ex,
                                               const T (&it)[I], int tid) {
#pragma unroll
  for (int i = 0; i < I; ++i) ex[slot(tid * I + i)] = it[i];
  half_barrier<BS, V>(tid);
#pragma unroll
  for (int i = 0; i < I; ++i) {
    const int j = striped_index<BS, I, V>(tid, i);
    if (j < valid) out[base + j] = ex[slot(j)];
  }
}

template <int BS, int I>
constexpr int exchange_slots = BS * I + BS * I / 32;

template <class T, int BS, int I, bool Inclusive>
__global__ void __launch_bounds__(BS, 1)
    tile_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr int TILE = BS * I, WARPS = (BS + WARP - 1) / WARP;
  __shared__ __align__(16) T ex[exchange_slots<BS, I>];
  __shared__ __align__(16) T warp_tot[WARPS];
  const int tid          = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
  const int valid        = n - base < static_cast<std::size_t>(TILE) ? static_cast<int>(n - base) : TILE;
  T it[I];
  exchange_load<BS, I, ExchangeVariant::warp_transpose>(in, base, valid, ex, it, tid);
  T tot = it[0];
#pragma unroll
  for (int i = 1; i < I; ++i) tot = tot + it[i];
  const T p = block_exclusive_prefix<BS>(tot, warp_tot, tid);
  if constexpr (Inclusive) {
    T acc = tid == 0 ? it[0] : p + it[0];
    it[0] = acc;
#pragma unroll
    for (int i = 1; i < I; ++i) {
      acc   = acc + it[i];
      it[i] = acc;
    }
  } else {
    T acc = tid == 0 ? T(0) : T(0) + p;
#pragma unroll
    for (int i = 0; i < I; ++i) {
      const T x = it[i];
      it[i]     = acc;
      acc       = acc + x;
    }
  }
  // The scan's __syncthreads came after every thread's reads of ex.
  exchange_store<BS, I, ExchangeVariant::warp_transpose>(out, base, valid, ex, it, tid);
}

template <class T, int BS, int I>
__global__ void __launch_bounds__(BS, 1)
    tile_reduce_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr int TILE = BS * I, WARPS = (BS + WARP - 1) / WARP;
  __shared__ __align__(16) T warp_tot[WARPS];
  const int tid            = threadIdx.x;
  const std::size_t base   = static_cast<std::size_t>(blockIdx.x) * TILE;
  const std::size_t valid  = n - base < static_cast<std::size_t>(TILE) ? n - base : TILE;
  T x = tid < static_cast<int>(valid) ? __ldg(in + base + tid) : T(0);
#pragma unroll
  for (int i = 1; i < I; ++i) {
    const std::size_t j = static_cast<std::size_t>(i) * BS + tid;
    x                   = x + (j < valid ? __ldg(in + base + j) : T(0));
  }
  const WarpPos<BS> w(tid);
#pragma unroll
  for (int off = WARP / 2; off > 0; off >>= 1) {  // warp_reduce's tree
    const T y = __shfl_down_sync(w.mask, x, off);
    if (w.lane + off < w.width) x = x + y;
  }
  if (w.lane == 0) warp_tot[w.warp] = x;
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = fold_slots<WARPS>(warp_tot, WARPS);
}

template <class T, int BS>
__global__ void __launch_bounds__(BS, 1)
    tile_warp_scan_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  const int tid       = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BS + tid;
  const WarpPos<BS> w(tid);
  T v = i < n ? __ldg(in + i) : T(0);
  v   = warp_inclusive_sum(v, w.lane, w.mask);
  if (i < n) out[i] = v;
}

template <class T, int BS, int I, ExchangeVariant V>
__global__ void __launch_bounds__(BS, 1)
    tile_exchange_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n) {
  constexpr int TILE = BS * I;
  __shared__ __align__(16) T ex[exchange_slots<BS, I>];
  const int tid          = threadIdx.x;
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * TILE;
  const int valid        = n - base < static_cast<std::size_t>(TILE) ? static_cast<int>(n - base) : TILE;
  T it[I];
  exchange_load<BS, I, V>(in, base, valid, ex, it, tid);
  half_barrier<BS, V>(tid);  // the store reuses the tile the load read
  exchange_store<BS, I, V>(out, base, valid, ex, it, tid);
}

unsigned grid_of(std::size_t n, int tile) { return static_cast<unsigned>(sk::tile_count(n, tile)); }

template <class T>
void scan(ScanKind kind, const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  sk::with_tile_shape(threads, items, "native::cuda::tile_scan", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    const cudaStream_t s = detail::as_stream(stream);
    if (kind == ScanKind::inclusive)
      tile_scan_kernel<T, BS, I, true><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    else
      tile_scan_kernel<T, BS, I, false><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("tile_scan");
  });
}

template <class T>
void reduce(const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  sk::with_tile_shape(threads, items, "native::cuda::tile_reduce", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    tile_reduce_kernel<T, BS, I><<<grid_of(n, BS * I), BS, 0, detail::as_stream(stream)>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("tile_reduce");
  });
}

template <class T>
void warp_scan(const T* in, T* out, std::size_t n, int threads, void* stream) {
  sk::with_warp_block(threads, "native::cuda::tile_warp_scan", [&](auto bs) {
    constexpr int BS = decltype(bs)::value;
    if (n == 0) return;
    tile_warp_scan_kernel<T, BS><<<grid_of(n, BS), BS, 0, detail::as_stream(stream)>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("tile_warp_scan");
  });
}

template <class T>
void exchange(ExchangeVariant v, const T* in, T* out, std::size_t n, int threads, int items, void* stream) {
  sk::with_tile_shape(threads, items, "native::cuda::tile_exchange", [&](auto bs, auto it) {
    constexpr int BS = decltype(bs)::value, I = decltype(it)::value;
    if (n == 0) return;
    const cudaStream_t s = detail::as_stream(stream);
    if (v == ExchangeVariant::warp_transpose)
      tile_exchange_kernel<T, BS, I, ExchangeVariant::warp_transpose><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    else
      tile_exchange_kernel<T, BS, I, ExchangeVariant::transpose><<<grid_of(n, BS * I), BS, 0, s>>>(in, out, n);
    SCRATCHKIT_CUDA_CHECK_LAUNCH("tile_exchange");
  });
}

}  // namespace

void tile_scan(ScanKind k, const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i, void* s) {
  scan(k, in, out, n, t, i, s);
}
void tile_scan(ScanKind k, const float* in, float* out, std::size_t n, int t, int i, void* s) {
  scan(k, in, out, n, t, i, s);
}
void tile_scan(ScanKind k, const double* in, double* out, std::size_t n, int t, int i, void* s) {
  scan(k, in, out, n, t, i, s);
}

void tile_reduce(const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i, void* s) {
  reduce(in, out, n, t, i, s);
}
void tile_reduce(const float* in, float* out, std::size_t n, int t, int i, void* s) { reduce(in, out, n, t, i, s); }
void tile_reduce(const double* in, double* out, std::size_t n, int t, int i, void* s) { reduce(in, out, n, t, i, s); }

void tile_warp_scan(const std::int32_t* in, std::int32_t* out, std::size_t n, int t, void* s) {
  warp_scan(in, out, n, t, s);
}
void tile_warp_scan(const float* in, float* out, std::size_t n, int t, void* s) { warp_scan(in, out, n, t, s); }
void tile_warp_scan(const double* in, double* out, std::size_t n, int t, void* s) { warp_scan(in, out, n, t, s); }

void tile_exchange(ExchangeVariant v, const std::int32_t* in, std::int32_t* out, std::size_t n, int t, int i,
                   void* s) {
  exchange(v, in, out, n, t, i, s);
}
void tile_exchange(ExchangeVariant v, const double* in, double* out, std::size_t n, int t, int i, void* s) {
  exchange(v, in, out, n, t, i, s);
}

}  // namespace cuda
}  // namespace native
}  // namespace scratchkit
