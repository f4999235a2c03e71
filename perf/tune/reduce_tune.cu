// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-reduce-tune: times candidate blockings of the native warp_shuffle
// reduction (src/cuda/reduce_stream.cuh, the library's kernels) against CUB
// DeviceReduce::Sum and a read-only ceiling kernel in the same run, for float,
// int32, double and int64 sums, to pick ReduceDefaultBlocking
// (include/scratchkit/tuning/reduce.hpp; the layer uses the same blocking).
//
//   scratchkit-reduce-tune [n]     (default 2^28 elements, as scratchkit-bench --full;
//                                   a value below 64 is read as log2 n)
//
// Timing as scratchkit-bench: the stream is held by a spinning kernel while the
// host enqueues, then CUDA events around the call; each candidate's call is what
// src/cuda/reduce.cu does for warp_shuffle: both kernels, the result copied back
// (cudaMemcpyAsync) and the stream synchronized, so the figure compares with the
// bench's rows; CUB the same (size query, Sum, copy back, sync; temp storage
// allocated once, as the bench's vendor row). Candidates are timed in interleaved
// rounds (round r runs every candidate once), median over the rounds after 3
// warm-up rounds: clock drift hits every row alike. CUB is timed twice (first
// and last row): how far two timings of one thing drift apart.
//
// Extra rows: "kernel only": the default blocking's first kernel alone (no
// second pass, no copy back): the prize of folding the rest into it. "ceiling":
// a read-only kernel of that shape and hint over the same bytes (16-byte loads
// folded with add/xor, one word written per block, kernel only): what any
// reading kernel reaches here.
//
// One line per row: ms, GB/s (n * sizeof(T) bytes read once), "xCUB" = CUB ms /
// ms (the mean of the two CUB medians; > 1: faster than CUB), quartiles,
// registers, spill bytes, blocks resident per SM (occupancy API), grid, and
// the check of the sum: integers exact (modulo 2^bits, the sum's wrap-around is
// the same in any order); floats |s - ref| <= gamma_d sum|x| + the reference's
// own error, with u = eps/2, gamma_d = d u / (1 - d u), d the height of the
// candidate's summation tree (a lane's chain of steps + head/tail, its lanes,
// warp + warps, again over the partials), ref a pairwise sum in long double;
// for CUB (order not documented) d of a one-wave grid-stride tree with an
// atomic per block, as the bench assumes. Config "tT uU bB hint": T threads,
// U 16-byte loads per step, launch bound B blocks per SM (the grid fills
// SMs x B), load hint. '*' marks the library's blocking. A summary line per
// type: CUB, the default, the fastest whole call (the candidate for the new
// default) and the fastest ceiling.
// Environment: SCRATCHKIT_TUNE_OFFSET=B  data B bytes past cudaMalloc's alignment
//   (default 128: where a Kokkos View's data starts, as in scratchkit-bench);
//   SCRATCHKIT_TUNE_ROUNDS=R  timed rounds (default 41);
//   SCRATCHKIT_TUNE_TYPES=float,int32,double,int64  the types, in this order (default all).
#include <scratchkit/detail/reduce/stream.hpp>
#include <scratchkit/native/reduce.hpp>

#include "reduce_stream.cuh"
#define SCRATCHKIT_TUNE_NAME "reduce_tune"
#include "../hold_stream.cuh"
#include "tune_common.cuh"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace sk  = scratchkit::detail;
namespace skn = scratchkit::native::cuda::detail;
using scratchkit::ReduceOp;
using sk::LoadHint;
using sk::ReduceBlocking;
using Def = sk::ReduceDefaultBlocking;

const char* hint_name(LoadHint l) {
  switch (l) {
    case LoadHint::nc: return "nc";
    case LoadHint::no_allocate: return "noalloc";
    case LoadHint::l2_256: return "L2:256B";
    case LoadHint::no_allocate_256: return "noalloc+256B";
    case LoadHint::evict_first: return "evict1st";
  }
  return "?";
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same<T, float>::value) return "float";
  else if constexpr (std::is_same<T, double>::value) return "double";
  else if constexpr (std::is_same<T, std::int32_t>::value) return "int32";
  else return "int64";
}

/// Integers: every bit random (the sum wraps alike in any order).
template <class T>
__global__ void fill_bits_kernel(T* x, long long n, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    x[i] = static_cast<T>(scratchkit::tune::input_hash(i, seed));
}

/// The read ceiling: thread's 16-byte vectors of [p, p + nv*16) in Bk's grid-stride
/// order and hint, folded (add, xor) into one word; one word per block.
template <class Bk>
__global__ void __launch_bounds__(Bk::threads, Bk::min_blocks)
    read_ceiling_kernel(const unsigned* __restrict__ p, std::size_t nv, unsigned* __restrict__ out) {
  constexpr int BS = Bk::threads, U = Bk::loads;
  unsigned a = 0, b = 0;
  const std::size_t step = static_cast<std::size_t>(gridDim.x) * BS * U;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * BS * U + threadIdx.x; i < nv; i += step) {
    unsigned v[U][4];
    if (i + static_cast<std::size_t>(U - 1) * BS < nv) {
#pragma unroll
      for (int u = 0; u < U; ++u) sk::load16_hint<Bk::load>(p + (i + static_cast<std::size_t>(u) * BS) * 4, v[u]);
#pragma unroll
      for (int u = 0; u < U; ++u) a += v[u][0] ^ v[u][1], b ^= v[u][2] + v[u][3];
    } else {
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (i + static_cast<std::size_t>(u) * BS < nv) {
          sk::load16_hint<Bk::load>(p + (i + static_cast<std::size_t>(u) * BS) * 4, v[u]);
          a += v[u][0] ^ v[u][1], b ^= v[u][2] + v[u][3];
        }
    }
  }
  unsigned w = __reduce_add_sync(0xffffffffu, a ^ b);
  __shared__ unsigned s[BS / 32];
  if (threadIdx.x % 32 == 0) s[threadIdx.x / 32] = w;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int k = 1; k < BS / 32; ++k) w += s[k];
    out[blockIdx.x] = w;
  }
}

struct Device {
  int sms = 0, threads_per_sm = 0;
};

/// The grid the library gives blocking Bk over n elements of T (reduce.cu's arithmetic).
template <class Bk, class T>
int library_grid(const Device& d, std::size_t n) {
  const long long fill = sk::reduce_fill<Bk>(static_cast<long long>(d.sms) * (d.threads_per_sm / Bk::threads), d.sms);
  return sk::reduce_grid<Bk>(n, sizeof(T), fill);
}

/// Height of the summation tree of warp_shuffle in Bk with `grid` blocks (reduce_error_depth's arithmetic).
template <class Bk, class T>
long long warp_depth(std::size_t n, int grid) {
  const long long lanes = sizeof(T) == 4 ? 2 : 1, warp_tree = 5;
  long long d = sk::reduce_lane_chain<Bk>(n, sizeof(T), grid) + lanes + 2 * warp_tree;
  if (grid > 1) d += sk::reduce_lane_chain<Bk>(static_cast<std::size_t>(grid), sizeof(T), 1) + lanes + 2 * warp_tree;
  return d;
}

template <class T>
struct Reference {
  long double sum = 0;  ///< floats: pairwise in long double
  double abs      = 0;  ///< floats: sum |x|
  T exact{};            ///< integers: the wrapped sum
};

/// Pairwise sum of x[0..n) in long double (chains of <= 64 at the leaves: a tree of height <= 64 + log2 n).
template <class T>
long double pairwise(const T* x, std::size_t n) {
  if (n <= 64) {
    long double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += x[i];
    return s;
  }
  return pairwise(x, n / 2) + pairwise(x + n / 2, n - n / 2);
}

template <class T>
Reference<T> reference(const T* dx, std::size_t n) {
  std::vector<T> h(n);
  TUNE_CUDA(cudaMemcpy(h.data(), dx, n * sizeof(T), cudaMemcpyDeviceToHost));
  Reference<T> r;
  if constexpr (std::is_integral<T>::value) {
    using U = typename std::make_unsigned<T>::type;
    U s = 0;
    for (std::size_t i = 0; i < n; ++i) s = static_cast<U>(s + static_cast<U>(h[i]));
    std::memcpy(&r.exact, &s, sizeof(T));
  } else {
    r.sum = pairwise(h.data(), n);
    long double a = 0;
    for (std::size_t i = 0; i < n; ++i) a += std::fabs(static_cast<long double>(h[i]));
    r.abs = static_cast<double>(a);
  }
  return r;
}

/// "ok" or "WRONG", with the error and its bound for floats (depth d; d < 0: no check).
template <class T>
std::string verdict(const Reference<T>& ref, std::size_t n, T got, long long d) {
  char buf[160];
  if (d < 0) return "-";
  if constexpr (std::is_integral<T>::value) {
    std::snprintf(buf, sizeof buf, "%s (exact)", got == ref.exact ? "ok" : "WRONG");
  } else {
    const double u       = std::numeric_limits<T>::epsilon() / 2;
    const double u_ld    = std::numeric_limits<long double>::epsilon() / 2;
    const double gamma   = static_cast<double>(d) * u / (1 - static_cast<double>(d) * u);
    // The pairwise reference's tree: chains of up to 64 at the leaves, then log2 levels.
    const double levels  = 64 + std::ceil(std::log2(static_cast<double>(n) + 1));
    const double bound   = gamma * ref.abs + levels * u_ld / (1 - levels * u_ld) * ref.abs;
    const double err     = std::fabs(static_cast<double>(static_cast<long double>(got) - ref.sum));
    const bool ok        = err <= bound;  // NaN fails
    std::snprintf(buf, sizeof buf, "%s (|err| %.3g <= %.3g, d %lld)", ok ? "ok" : "WRONG", err, bound, d);
  }
  return buf;
}

template <class T>
struct Problem {
  std::size_t n;
  const T* x;
  Device dev;
  char* ws             = nullptr;  ///< the library's workspace (partials, result)
  unsigned* ceil_out   = nullptr;
  void* cub_temp       = nullptr;
  T* cub_out           = nullptr;
  std::size_t cub_bytes = 0;
  Reference<T> ref;

  Problem(std::size_t n_, const T* x_, Device d) : n(n_), x(x_), dev(d) {
    const int most = d.sms * 2048 / 32;  // more blocks than any blocking here launches
    TUNE_CUDA(cudaMalloc(&ws, skn::reduce_warp_workspace<T>(most)));
    TUNE_CUDA(cudaMalloc(&ceil_out, static_cast<std::size_t>(most) * sizeof(unsigned)));
    TUNE_CUDA(cudaMalloc(&cub_out, sizeof(T)));
    TUNE_CUDA(cub::DeviceReduce::Sum(nullptr, cub_bytes, x, cub_out, static_cast<long long>(n)));
    TUNE_CUDA(cudaMalloc(&cub_temp, cub_bytes));
    ref = reference(x, n);
  }
  ~Problem() {
    cudaFree(ws);
    cudaFree(ceil_out);
    cudaFree(cub_out);
    cudaFree(cub_temp);
  }
};

struct Row {
  std::string name;
  std::function<void(cudaStream_t)> run;  ///< timed (a library-like call returns when the result is on the host)
  std::function<std::string()> check;     ///< after timing: one more call, checked
  int regs = -1, spill = 0, occ = 0;
  long long grid = 0;
  bool is_cub  = false;
  bool is_call = false;  ///< a whole library-like call (both kernels, copy back): the rows the default is picked from
  std::vector<double> t;
};

template <class Bk, class T>
Row make(Problem<T>& p, bool kernel_only = false) {
  const bool lib = std::is_same<Bk, Def>::value && !kernel_only;
  char name[96];
  std::snprintf(name, sizeof name, "%st%d u%d b%d %s%s", lib ? "*" : " ", Bk::threads, Bk::loads, Bk::min_blocks,
                hint_name(Bk::load), kernel_only ? " kernel only" : "");
  Row r;
  r.name      = name;
  r.is_call   = !kernel_only;
  auto kernel = skn::reduce_warp_kernel<T, ReduceOp::sum, Bk>;
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  r.regs  = fa.numRegs;
  r.spill = static_cast<int>(fa.localSizeBytes);
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.occ, kernel, Bk::threads, 0));
  const int grid = library_grid<Bk, T>(p.dev, p.n);
  r.grid         = grid;
  Problem<T>* pp = &p;
  auto call      = [pp, grid](cudaStream_t s) {  // reduce.cu's warp_shuffle call
    T* res = skn::launch_reduce_warp<T, ReduceOp::sum, Bk>(pp->x, pp->n, grid, pp->ws, s);
    T got{};
    TUNE_CUDA(cudaMemcpyAsync(&got, res, sizeof(T), cudaMemcpyDeviceToHost, s));
    TUNE_CUDA(cudaStreamSynchronize(s));
    return got;
  };
  if (kernel_only) {
    r.run = [pp, grid](cudaStream_t s) {
      skn::reduce_warp_kernel<T, ReduceOp::sum, Bk><<<grid, Bk::threads, 0, s>>>(
          pp->x, pp->n, sk::head_to_16(pp->x, pp->n), reinterpret_cast<T*>(pp->ws));
    };
    r.check = [] { return std::string("-"); };
  } else {
    r.run   = [call](cudaStream_t s) { call(s); };
    r.check = [pp, grid, call] {
      cudaStream_t s;
      TUNE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      const T got = call(s);
      TUNE_CUDA(cudaStreamDestroy(s));
      return verdict(pp->ref, pp->n, got, warp_depth<Bk, T>(pp->n, grid));
    };
  }
  return r;
}

template <class T>
Row make_cub(Problem<T>& p, const char* note = "") {
  Row r;
  r.name         = std::string(" cub::DeviceReduce::Sum") + note;
  r.is_cub       = true;
  Problem<T>* pp = &p;
  auto call      = [pp](cudaStream_t s) {  // as the bench's vendor row (perf/vendor/vendor.cu)
    std::size_t bytes = 0;
    TUNE_CUDA(cub::DeviceReduce::Sum(nullptr, bytes, pp->x, pp->cub_out, static_cast<long long>(pp->n), s));
    TUNE_CUDA(cub::DeviceReduce::Sum(pp->cub_temp, bytes, pp->x, pp->cub_out, static_cast<long long>(pp->n), s));
    T got{};
    TUNE_CUDA(cudaMemcpyAsync(&got, pp->cub_out, sizeof(T), cudaMemcpyDeviceToHost, s));
    TUNE_CUDA(cudaStreamSynchronize(s));
    return got;
  };
  r.run   = [call](cudaStream_t s) { call(s); };
  r.check = [pp, call] {
    cudaStream_t s;
    TUNE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const T got = call(s);
    TUNE_CUDA(cudaStreamDestroy(s));
    // Order not documented: the bench's assumption, a one-wave grid-stride tree + one atomic per block.
    const int grid = library_grid<Def, T>(pp->dev, pp->n);
    const long long d =
        sk::reduce_lane_chain<Def>(pp->n, sizeof(T), grid) + (sizeof(T) == 4 ? 2 : 1) + 8 + grid;
    return verdict(pp->ref, pp->n, got, d);
  };
  return r;
}

template <class Bk, class T>
Row make_ceiling(Problem<T>& p) {
  char name[96];
  std::snprintf(name, sizeof name, " ceiling t%d u%d b%d %s", Bk::threads, Bk::loads, Bk::min_blocks,
                hint_name(Bk::load));
  Row r;
  r.name      = name;
  auto kernel = read_ceiling_kernel<Bk>;
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  r.regs  = fa.numRegs;
  r.spill = static_cast<int>(fa.localSizeBytes);
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.occ, kernel, Bk::threads, 0));
  // The 16-byte aligned body of the bytes (at most 15 bytes each side left out).
  const std::size_t head = sk::head_to_16(reinterpret_cast<const char*>(p.x), p.n * sizeof(T));
  const std::size_t nv   = (p.n * sizeof(T) - head) / 16;
  const unsigned* body   = reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(p.x) + head);
  const int grid         = library_grid<Bk, unsigned>(p.dev, nv * 4);
  r.grid                 = grid;
  unsigned* out          = p.ceil_out;
  r.run = [body, nv, grid, out](cudaStream_t s) { read_ceiling_kernel<Bk><<<grid, Bk::threads, 0, s>>>(body, nv, out); };
  r.check = [] { return std::string("-"); };
  return r;
}

template <class T>
void time_all(Problem<T>& p, std::vector<Row>& rows, int rounds) {
  cudaStream_t s;
  TUNE_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  TUNE_CUDA(cudaEventCreate(&a));
  TUNE_CUDA(cudaEventCreate(&b));
  constexpr int warmups = 3;
  for (int r = 0; r < warmups + rounds; ++r)
    for (auto& row : rows) {
      scratchkit::perf::hold_stream<<<1, 1, 0, s>>>(300000);  // 300 us: far above the enqueue time of any call
      TUNE_CUDA(cudaGetLastError());
      TUNE_CUDA(cudaEventRecord(a, s));
      row.run(s);
      TUNE_CUDA(cudaGetLastError());
      TUNE_CUDA(cudaEventRecord(b, s));
      TUNE_CUDA(cudaEventSynchronize(b));
      float ms = 0;
      TUNE_CUDA(cudaEventElapsedTime(&ms, a, b));
      if (r >= warmups) row.t.push_back(ms);
    }
  TUNE_CUDA(cudaEventDestroy(a));
  TUNE_CUDA(cudaEventDestroy(b));
  TUNE_CUDA(cudaStreamSynchronize(s));
  TUNE_CUDA(cudaStreamDestroy(s));
  double cub_sum = 0;
  int cubs       = 0;
  for (auto& row : rows) {
    std::sort(row.t.begin(), row.t.end());
    if (row.is_cub) cub_sum += row.t[row.t.size() / 2], ++cubs;
  }
  const double cub_ms = cubs ? cub_sum / cubs : 0;
  const double bytes  = static_cast<double>(p.n) * sizeof(T);
  for (auto& row : rows) {
    const double ms = row.t[row.t.size() / 2];
    std::printf("%-6s %-34s %8.4f ms %7.1f GB/s  %6.4f xCUB  (q1 %7.4f q3 %7.4f)", type_name<T>(), row.name.c_str(), ms,
                bytes / (ms * 1e6), cub_ms / ms, row.t[row.t.size() / 4], row.t[3 * row.t.size() / 4]);
    if (row.regs >= 0)
      std::printf("  regs %3d spill %3d B  %2d blk/SM  grid %5lld", row.regs, row.spill, row.occ, row.grid);
    else
      std::printf("  %43s", "");
    std::printf("  %s\n", row.check().c_str());
    std::fflush(stdout);
  }
  // Summary: the fastest call, the default, the fastest ceiling.
  const Row* best = nullptr;
  const Row* def  = nullptr;
  const Row* roof = nullptr;
  for (const auto& row : rows) {
    const double ms = row.t[row.t.size() / 2];
    if (row.is_call && (!best || ms < best->t[best->t.size() / 2])) best = &row;
    if (row.is_call && row.name[0] == '*') def = &row;
    if (row.name.rfind(" ceiling", 0) == 0 && (!roof || ms < roof->t[roof->t.size() / 2])) roof = &row;
  }
  auto ms_of = [](const Row* r) { return r ? r->t[r->t.size() / 2] : 0.0; };
  std::printf("%-6s summary: CUB %.4f ms; default%s %.4f ms (%.4f xCUB); fastest call%s %.4f ms (%.4f xCUB, %.4f x "
              "the default); read ceiling%s %.4f ms (%.1f GB/s)\n\n",
              type_name<T>(), cub_ms, def ? def->name.c_str() : "?", ms_of(def), cub_ms / ms_of(def),
              best ? best->name.c_str() : "?", ms_of(best), cub_ms / ms_of(best), ms_of(def) / ms_of(best),
              roof ? roof->name.c_str() + 8 : "?", ms_of(roof), bytes / (ms_of(roof) * 1e6));
  std::fflush(stdout);
}

template <class T>
void tune(std::size_t n, std::size_t off, int rounds, const Device& dev) {
  char* alloc = nullptr;
  TUNE_CUDA(cudaMalloc(&alloc, n * sizeof(T) + off));
  T* x = reinterpret_cast<T*>(alloc + off);
  if constexpr (std::is_integral<T>::value)
    fill_bits_kernel<T><<<1024, 256>>>(x, static_cast<long long>(n), 7u);
  else
    scratchkit::tune::fill_kernel<T><<<1024, 256>>>(x, static_cast<long long>(n), 7u);
  TUNE_CUDA(cudaGetLastError());
  TUNE_CUDA(cudaDeviceSynchronize());
  {
    Problem<T> p(n, x, dev);
    using NA  = ReduceBlocking<256, 4, 8, LoadHint::no_allocate>;
    using HL  = LoadHint;
    // Threads, loads, launch bound (blocks per SM: the grid fills SMs x that), load hint.
    std::vector<Row> rows = {
        make_cub(p),
        make<Def>(p),
        make<Def>(p, true),
        // the default shape, other hints
        make<NA>(p),
        make<ReduceBlocking<256, 4, 8, HL::l2_256>>(p),
        make<ReduceBlocking<256, 4, 8, HL::no_allocate_256>>(p),
        make<ReduceBlocking<256, 4, 8, HL::evict_first>>(p),
        // loads in flight (the histogram's default: 256 x 2, noalloc)
        make<ReduceBlocking<256, 1, 8, HL::no_allocate>>(p),
        make<ReduceBlocking<256, 2, 8, HL::nc>>(p),
        make<ReduceBlocking<256, 2, 8, HL::no_allocate>>(p),
        make<ReduceBlocking<256, 2, 8, HL::no_allocate_256>>(p),
        make<ReduceBlocking<256, 8, 8, HL::no_allocate>>(p),
        make<ReduceBlocking<256, 8, 4, HL::no_allocate>>(p),
        // block size
        make<ReduceBlocking<512, 2, 4, HL::no_allocate>>(p),
        make<ReduceBlocking<512, 4, 4, HL::nc>>(p),
        make<ReduceBlocking<512, 4, 4, HL::no_allocate>>(p),
        make<ReduceBlocking<1024, 1, 2, HL::no_allocate>>(p),
        make<ReduceBlocking<1024, 2, 2, HL::no_allocate>>(p),
        make<ReduceBlocking<1024, 4, 2, HL::no_allocate>>(p),
        // what a read-only kernel reaches (kernel only)
        make_ceiling<Def>(p),
        make_ceiling<NA>(p),
        make_ceiling<ReduceBlocking<256, 2, 8, HL::no_allocate>>(p),
        make_ceiling<ReduceBlocking<512, 4, 4, HL::no_allocate>>(p),
        make_cub(p, " (again)"),
    };
    time_all(p, rows, rounds);
  }
  TUNE_CUDA(cudaFree(alloc));
}

}  // namespace

int main(int argc, char** argv) {
  if (::scratchkit::tune::wants_help(argc, argv, "[n]  (default 2^28; SCRATCHKIT_TUNE_OFFSET, _ROUNDS, _TYPES)")) return 0;
  long long n_arg = argc > 1 ? std::atoll(argv[1]) : 28;
  if (n_arg < 0) n_arg = 0;
  const std::size_t n   = n_arg < 64 ? std::size_t(1) << n_arg : static_cast<std::size_t>(n_arg);
  const char* off_env   = std::getenv("SCRATCHKIT_TUNE_OFFSET");
  const char* round_env = std::getenv("SCRATCHKIT_TUNE_ROUNDS");
  const char* type_env  = std::getenv("SCRATCHKIT_TUNE_TYPES");
  const std::size_t off = off_env ? static_cast<std::size_t>(std::atol(off_env)) : 128;
  const int rounds      = round_env ? std::max(1, std::atoi(round_env)) : 41;
  const std::string types = type_env ? type_env : "float,int32,double,int64";
  if (n == 0) {
    std::fprintf(stderr, "reduce_tune: n must be positive\n");
    return 1;
  }
  if (off % 16 != 0) std::printf("note: offset %zu is not a multiple of 16: the vector loops peel a head\n", off);
  cudaDeviceProp prop{};
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  Device dev;
  TUNE_CUDA(cudaDeviceGetAttribute(&dev.sms, cudaDevAttrMultiProcessorCount, 0));
  TUNE_CUDA(cudaDeviceGetAttribute(&dev.threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0));
  std::printf("device: %s, %d SMs, CC %d.%d; n = %zu elements at +%zu B from cudaMalloc's alignment; median of %d "
              "interleaved rounds; sums\n",
              prop.name, prop.multiProcessorCount, prop.major, prop.minor, n, off, rounds);
  // Types in the order named (one at a time: a 2^28 int64 input is 2 GB).
  std::size_t pos = 0;
  while (pos <= types.size()) {
    const std::size_t comma = types.find(',', pos);
    const std::string t     = types.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (t == "float") tune<float>(n, off, rounds, dev);
    else if (t == "int32") tune<std::int32_t>(n, off, rounds, dev);
    else if (t == "double") tune<double>(n, off, rounds, dev);
    else if (t == "int64") tune<std::int64_t>(n, off, rounds, dev);
    else if (!t.empty()) std::fprintf(stderr, "reduce_tune: unknown type '%s' (float, int32, double, int64)\n", t.c_str());
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return 0;
}
