// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-stencil3d-tune: times candidate shapes of the native z_streaming
// 3-D 7-point stencil (src/cuda/stencil_3d_z_streaming.cuh) against a
// device-to-device copy of the same bytes, float and double, to pick
// Stencil3DZsNativeDefault (include/scratchkit/tuning/stencil_3d.hpp; the layer's Stencil3DZsDefault is the same).
//
//   scratchkit-stencil3d-tune [n ...]     (default: 512; n x n x n grid)
//   SCRATCHKIT_TUNE_OFFSET=B[,B...]        (default 0,128: the data placements timed)
//   SCRATCHKIT_TUNE_SET=wide               (only the defaults and the wide / tall rings of 94748c2)
//   SCRATCHKIT_TUNE_SET=alt                (the wide rings and chunk lengths, z up / alternating)
//
// One line per type, size, data placement and shape: time (median of 9 runs
// after 3 warm-up runs, cudaEvents), GB/s counting the minimal traffic (read
// once + write once, 2 n^3 sizeof(T)), % of the copy's GB/s measured in the
// same run and placement (cudaMemcpyAsync device to device of n^3 elements),
// registers, spill bytes, static shared memory, blocks per SM (occupancy API),
// and max |out - out_default| (must be 0: every shape does the same operations
// per point). "off B": the buffers start B bytes past cudaMalloc's alignment (a
// Kokkos View's data starts 128 bytes into its allocation, so off 128 is what
// the bench and the library see). Where the x tile grid can be cut from the
// data's alignment (detail::stencil3d_tile_shift, what both twins do), the shape
// is timed twice: "xs0" (the plain grid) and "xsK" (shifted by K, K > 0). The
// default shape is marked with '*'; shapes whose tile is over the layer's ~40 KB
// of level-0 scratch are marked "native only" (the layer cannot run them).
#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/native/stencil_3d.hpp>

#include "stencil_3d_z_streaming.cuh"
#define SCRATCHKIT_TUNE_NAME "stencil3d_tune"
#include "tune_common.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using scratchkit::detail::Stencil3DZsShape;
namespace sk = scratchkit::native::cuda::detail;
using scratchkit::tune::fill_kernel;
using scratchkit::tune::max_abs_diff;

/// Median of 9 timed runs after 3 warm-up runs.
template <class F>
double median_ms(const F& run) {
  return scratchkit::tune::median_ms([] {}, run, 3, 9);
}

/// Input, default-shape reference output and the copy yardstick of one type, size and placement.
template <class T>
struct Problem {
  int n;
  long long e;
  size_t off;
  T *in = nullptr, *out = nullptr, *ref = nullptr;
  void* alloc[3] = {nullptr, nullptr, nullptr};
  T c0 = T(0.4), c1 = T(0.1);
  double copy_ms = 0;

  /// The buffers start off_ bytes past cudaMalloc's alignment.
  Problem(int n_, size_t off_) : n(n_), e(static_cast<long long>(n_) * n_ * n_), off(off_) {
    T** bufs[3] = {&in, &out, &ref};
    for (int i = 0; i < 3; ++i) {
      TUNE_CUDA(cudaMalloc(&alloc[i], e * sizeof(T) + off));
      *bufs[i] = reinterpret_cast<T*>(static_cast<char*>(alloc[i]) + off);
    }
    fill_kernel<T><<<1024, 256>>>(in, e, 1u);
    TUNE_CUDA(cudaGetLastError());
    copy_ms = median_ms([&] { TUNE_CUDA(cudaMemcpyAsync(out, in, e * sizeof(T), cudaMemcpyDeviceToDevice, 0)); });
    TUNE_CUDA(cudaMemset(ref, 0xff, e * sizeof(T)));  // NaN: must be overwritten
    using Default = scratchkit::detail::Stencil3DZsNativeDefault<T>;
    sk::stencil_3d_z_streaming<T, Default>(in, ref, n, n, n, c0, c1, 0,
                                           scratchkit::detail::stencil3d_tile_shift<Default>(in, n));
    TUNE_CUDA(cudaDeviceSynchronize());
  }
  ~Problem() {
    for (void* p : alloc) cudaFree(p);
  }
  /// GB/s of the minimal traffic: every point read once and written once.
  double gbs(double ms) const { return 2.0 * e * sizeof(T) / (ms * 1e6); }
};

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }

template <class T>
void print_line(const Problem<T>& p, const std::string& config, double ms, const cudaFuncAttributes* fa, int occ,
                double err, const char* note) {
  const double copy_gbs = p.gbs(p.copy_ms);
  std::printf("%-6s %4d^3 off %3zu  %-50s %8.4f ms %7.1f GB/s %6.1f %% copy", type_name(T()), p.n, p.off,
              config.c_str(), ms, p.gbs(ms), 100.0 * p.gbs(ms) / copy_gbs);
  if (fa)
    std::printf("  regs %3d spill %3zu B  smem %6zu B  %2d blk/SM  err %.1e  %s", fa->numRegs, fa->localSizeBytes,
                fa->sharedSizeBytes, occ, err, note);
  std::printf("\n");
  std::fflush(stdout);
}

/// "tile 64x16 t32x16 r2x1 zc32 b3 (512 thr)"; the cp.async ring adds "ring5" (its stages)
/// and "v1" / "v2" (Stencil3DZsShape's vec: 16-byte cells / and 16-byte outputs).
template <class Sh, class T>
std::string config_name() {
  char name[96];
  std::snprintf(name, sizeof name, "tile %dx%d t32x%d r%dx%d zc%d b%d (%d thr)", Sh::TX, Sh::TY, Sh::BY, Sh::RX,
                Sh::RY, Sh::ZC, Sh::template min_blocks<T>(), Sh::threads);
  std::string s = name;
  if (Sh::stages > 0) s += " ring" + std::to_string(Sh::stages);
  if (Sh::vec > 0) s += " v" + std::to_string(Sh::vec);
  if (Sh::zalt) s += " zalt";
  return s;
}

/// Times shape Sh on p with the x tile grid shifted by xs and prints its line.
template <class T, class Sh>
void time_config(const Problem<T>& p, int xs) {
  using Default = scratchkit::detail::Stencil3DZsNativeDefault<T>;
  constexpr bool is_default =
      Sh::BY == Default::BY && Sh::RX == Default::RX && Sh::RY == Default::RY && Sh::ZC == Default::ZC &&
      Sh::stages == Default::stages && Sh::vec == Default::vec && Sh::zalt == Default::zalt &&
      Sh::template min_blocks<T>() == Default::template min_blocks<T>();
  // The build that runs here: 16-byte cells ("c16") or element cells (what rows not 16-byte aligned get).
  const bool v16 = scratchkit::detail::stencil3d_ring_v16<Sh>(p.in, p.out, p.n, static_cast<long long>(p.n) * p.n, xs);
  const std::string name = (is_default ? "*" : " ") + config_name<Sh, T>() + (v16 ? " c16" : "") + " xs" +
                           std::to_string(xs);
  auto kernel            = v16 ? sk::zs_kernel<T, Sh, true>() : sk::zs_kernel<T, Sh, false>();
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  const int dyn = sk::zs_dynamic_smem<T, Sh>();
  if (dyn > 48 * 1024) sk::zs_opt_in<T, Sh>(v16);
  fa.sharedSizeBytes += static_cast<size_t>(dyn);  // printed: static + the ring's dynamic bytes
  int occ = 0;
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, Sh::threads, static_cast<size_t>(dyn)));
  TUNE_CUDA(cudaMemset(p.out, 0xff, p.e * sizeof(T)));  // NaN: must be overwritten
  const double ms =
      median_ms([&] { sk::stencil_3d_z_streaming<T, Sh>(p.in, p.out, p.n, p.n, p.n, p.c0, p.c1, 0, xs); });
  TUNE_CUDA(cudaDeviceSynchronize());
  const double err = max_abs_diff<T>(p.out, p.ref, p.e);
  // The layer's level-0 scratch on Kokkos 4.6 / CUDA: ~40 KB (48 KB less Kokkos' reserve).
  print_line(p, name, ms, &fa, occ, err, Sh::template smem_bytes<T>() > 40 * 1024 ? "native only" : "");
}

/// Shape Sh on the plain grid and, where the data's alignment gives one, the shifted grid.
template <class T, class Sh>
void time_shape(const Problem<T>& p) {
  time_config<T, Sh>(p, 0);
  // The shift both twins would take with stencil3d_shift_tiles on (timed even when it is off).
  const int xs = scratchkit::detail::transpose_tile_shift(p.in, p.n * sizeof(T), sizeof(T), Sh::TX);
  if (xs > 0) time_config<T, Sh>(p, xs);
}

template <class T, class... Shapes>
void tune(const std::vector<int>& sizes, const std::vector<size_t>& offsets) {
  for (int n : sizes)
    for (size_t off : offsets) {
      Problem<T> p(n, off);
      print_line(p, " cudaMemcpy D2D (copy ceiling)", p.copy_ms, nullptr, 0, 0.0, "");
      (time_shape<T, Shapes>(p), ...);
    }
}

// Candidates: Stencil3DZsShape<BY, RX, RY, ZC, MinBlocksFloat, MinBlocksDouble[, Stages]>,
// tile (32*RX) x (BY*RY), 32*BY threads. ZC 1024 = the whole grid (one chunk)
// up to 1024 planes. The register pipeline's static shared memory must stay under
// 48 KB; the ring's is dynamic (opt-in above 48 KB).
template <int BY, int RX, int RY, int ZC, int MB>
using Sh = Stencil3DZsShape<BY, RX, RY, ZC, MB, MB>;
// The cp.async ring with ST plane buffers (prefetch ST - 2 planes): little
// register use, so MB is set by shared memory (228 KB per SM, 1 KB per block
// reserved) or 2048 threads per SM.
template <int BY, int RX, int RY, int ZC, int MB, int ST>
using Ring = Stencil3DZsShape<BY, RX, RY, ZC, MB, MB, ST>;
// 73a2fef: the ring with 16-byte cp.async cells (V = 1) and also 16-byte
// outputs (V = 2: a thread's points in groups of 16 bytes of consecutive x).
template <int BY, int RX, int RY, int ZC, int MB, int ST, int V>
using RingV = Stencil3DZsShape<BY, RX, RY, ZC, MB, MB, ST, V>;
// 0601975: the ring with its odd z chunks walking downwards (Stencil3DZsShape's zalt).
template <int BY, int RX, int RY, int ZC, int MB, int ST>
using RingA = Stencil3DZsShape<BY, RX, RY, ZC, MB, MB, ST, 0, 1>;

}  // namespace

int main(int argc, char** argv) {
  if (::scratchkit::tune::wants_help(argc, argv, "[n ...]  (default 512; SCRATCHKIT_TUNE_OFFSET=B[,B...], SCRATCHKIT_TUNE_SET=wide|alt)")) return 0;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {512};
  for (int n : sizes)
    if (n <= 0 || n > 1024) {
      std::fprintf(stderr, "stencil3d_tune: sizes must be in [1, 1024]\n");
      return 2;
    }
  std::vector<size_t> offsets;
  {
    const char* env = std::getenv("SCRATCHKIT_TUNE_OFFSET");
    std::string list = env ? env : "0,128";
    for (size_t at = 0; at <= list.size();) {
      const size_t comma = std::min(list.find(',', at), list.size());
      if (comma > at) offsets.push_back(static_cast<size_t>(std::atol(list.substr(at, comma - at).c_str())));
      at = comma + 1;
    }
  }
  cudaDeviceProp prop{};
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, CC %d.%d, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.major,
              prop.minor, prop.l2CacheSize >> 20);

  // SCRATCHKIT_TUNE_SET=wide: only the defaults and the wide and tall rings of 94748c2.
  const char* set = std::getenv("SCRATCHKIT_TUNE_SET");
  // SCRATCHKIT_TUNE_SET=alt (0601975): the wide rings with every chunk walking z
  // up, and with the odd chunks walking down ("zalt"), at several chunk lengths.
  if (set && std::string(set) == "alt") {
    tune<float, scratchkit::detail::Stencil3DZsWide<float>,  // the wide default
         Ring<16, 8, 1, 128, 2, 5>, RingA<16, 8, 1, 128, 2, 5>, Ring<16, 8, 1, 64, 2, 5>, RingA<16, 8, 1, 64, 2, 5>,
         Ring<16, 8, 1, 32, 2, 5>, RingA<16, 8, 1, 32, 2, 5>, RingA<16, 8, 1, 256, 2, 5>>(sizes, offsets);
    tune<double, scratchkit::detail::Stencil3DZsWide<double>,  // the wide default
         Ring<16, 4, 1, 64, 2, 4>, RingA<16, 4, 1, 64, 2, 4>, RingA<16, 4, 1, 128, 2, 4>,
         RingA<16, 4, 1, 256, 2, 4>>(sizes, offsets);
    return 0;
  }
  if (set && std::string(set) == "wide") {
    tune<float, scratchkit::detail::Stencil3DZsNativeDefault<float>,  //
         scratchkit::detail::Stencil3DZsWide<float>,                   // the wide default
         Ring<16, 8, 1, 32, 2, 5>, Ring<16, 8, 1, 128, 2, 5>,          // 256 x 16, 512 thr: chunks
         Ring<16, 8, 1, 64, 2, 4>, Ring<16, 8, 1, 128, 2, 4>,          //   4 stages (74 KB)
         Ring<8, 8, 2, 48, 2, 5>, Ring<8, 8, 2, 64, 2, 5>, Ring<8, 8, 2, 96, 2, 5>, Ring<8, 8, 2, 128, 2, 5>,
         Ring<8, 8, 2, 64, 2, 4>,                                      // 256 x 16 on 256 thr (16 outputs each)
         Ring<16, 4, 2, 48, 2, 5>, Ring<16, 4, 2, 64, 2, 5>, Ring<16, 4, 2, 128, 2, 5>,  // 128 x 32 on 512 thr
         Ring<16, 4, 2, 64, 2, 4>,                                     //   4 stages (71 KB)
         Ring<16, 4, 1, 64, 3, 5>, Ring<16, 4, 1, 128, 3, 5>, Ring<16, 4, 1, 64, 4, 4>,  // 128 x 16 on 512 thr
         Ring<8, 4, 2, 64, 3, 5>, Ring<8, 4, 2, 64, 4, 4>,            // 128 x 16 on 256 thr
         Ring<8, 16, 1, 32, 2, 4>, Ring<8, 16, 1, 64, 2, 4>>(sizes, offsets);  // 512 x 8, 256 thr
    tune<double, scratchkit::detail::Stencil3DZsNativeDefault<double>,  //
         scratchkit::detail::Stencil3DZsWide<double>,                   // the wide default
         Ring<8, 4, 1, 64, 4, 5>, Ring<8, 4, 1, 64, 3, 6>,            // 128 x 8, 256 thr (52 / 62 KB)
         Ring<16, 4, 1, 64, 2, 5>, Ring<16, 4, 1, 64, 2, 4>,          // 128 x 16, 512 thr (94 / 75 KB)
         Ring<8, 8, 1, 64, 2, 5>, Ring<8, 8, 1, 64, 2, 4>,            // 256 x 8, 256 thr (103 / 83 KB)
         Ring<16, 8, 1, 64, 1, 5>, Ring<8, 8, 1, 48, 2, 4>,           // 256 x 16 on 512 thr (186 KB)
         Ring<4, 8, 1, 64, 4, 5>, Ring<4, 8, 2, 64, 2, 5>>(sizes, offsets);  // 256 x 4 / x 8 on 128 thr
    return 0;
  }
  tune<float,                                                        //
       Stencil3DZsShape<16, 2, 1, 32, 3, 2>,                        // the first default: 64x16, 512 thr
       Sh<16, 2, 1, 16, 3>, Sh<16, 2, 1, 64, 3>, Sh<16, 2, 1, 128, 3>, Sh<16, 2, 1, 1024, 3>,  // chunk length
       Sh<16, 2, 1, 32, 2>, Sh<16, 2, 1, 64, 2>,                    // 2 blocks/SM: more registers
       Sh<16, 2, 1, 64, 4>,                                         // 4 x 512 = 2048 threads (32 regs)
       Sh<8, 2, 1, 32, 4>, Sh<8, 2, 1, 64, 4>, Sh<8, 2, 1, 64, 6>,  // 64x8, 256 thr
       Sh<8, 2, 2, 64, 4>,                                          // 64x16 on 256 thr, 4 outputs each
       Sh<4, 2, 2, 64, 8>, Sh<4, 1, 2, 64, 8>,                      // 64x8 / 32x8 on 128 thr
       Sh<4, 1, 1, 64, 12>, Sh<8, 1, 1, 64, 8>, Sh<16, 1, 1, 64, 4>,  // 32-wide tiles
       Sh<8, 1, 2, 64, 6>,                                          // 32x16 on 256 thr
       Sh<16, 4, 1, 32, 2>, Sh<16, 4, 1, 64, 2>, Sh<16, 4, 1, 128, 2>,  // 128x16, 512 thr
       Sh<8, 4, 1, 64, 3>, Sh<8, 4, 2, 64, 2>,                      // 128x8 / 128x16 on 256 thr
       Sh<4, 4, 2, 64, 4>,                                          // 128x8 on 128 thr
       // cp.async ring (the float default since da86e34 is Ring<8, 4, 1, 128, 6, 5>)
       Ring<8, 2, 2, 128, 6, 5>, Ring<8, 2, 2, 64, 6, 5>, Ring<8, 2, 2, 256, 6, 5>,  // 64x16 on 256 thr, chunk length
       Ring<8, 2, 2, 128, 8, 4>, Ring<8, 2, 2, 128, 7, 6>,         // 4 / 6 stages (19 / 28.5 KB)
       Ring<16, 2, 1, 128, 4, 5>,                                   // 64x16 on 512 thr
       Ring<8, 2, 1, 128, 8, 5>, Ring<8, 2, 1, 128, 8, 8>,          // 64x8 on 256 thr (13 / 21 KB)
       Ring<8, 4, 1, 128, 6, 5>, Ring<16, 4, 1, 128, 3, 4>,         // 128x8 (26 KB), 128x16 (37 KB)
       Ring<8, 4, 2, 128, 3, 4>,                                    // 128x16 on 256 thr
       // 7f86b46: the default ring at 5 blocks/SM (51 registers), other chunk lengths
       // (171: 3 chunks of 512, 768 blocks = 0.97 of the 792 slots at 6 blocks/SM)
       Ring<8, 4, 1, 128, 5, 5>, Ring<8, 4, 1, 64, 6, 5>, Ring<8, 4, 1, 171, 6, 5>, Ring<8, 4, 1, 256, 6, 5>,
       Ring<8, 4, 1, 128, 6, 6>, Ring<8, 4, 1, 128, 7, 4>,  // 6 stages (31 KB), 4 stages (21 KB)
       // 94748c2: shorter chunks (more waves, smaller tail), and wider tiles (longer
       // contiguous runs per block and row: 256 / 512 columns, 1 / 2 KB); rings over
       // 48 KB run on the opt-in (dynamic shared memory)
       Ring<8, 4, 1, 32, 6, 5>, Ring<8, 4, 1, 48, 6, 5>, Ring<8, 4, 1, 96, 6, 5>,
       Ring<8, 8, 1, 64, 4, 4>, Ring<8, 8, 1, 64, 4, 5>, Ring<8, 8, 1, 48, 4, 5>,  // 256 x 8, 256 thr
       Ring<4, 8, 1, 64, 8, 5>, Ring<4, 8, 1, 48, 8, 5>, Ring<4, 8, 2, 64, 6, 5>,  // 256 x 4 / x 8 on 128 thr
       Ring<8, 16, 1, 64, 2, 4>, Ring<8, 16, 1, 64, 2, 5>, Ring<8, 16, 1, 48, 2, 5>,  // 512 x 8, 256 thr
       Ring<4, 16, 1, 64, 4, 5>, Ring<4, 16, 1, 32, 4, 5>,  // 512 x 4 on 128 thr (62 KB)
       Ring<16, 8, 1, 64, 2, 5>,                            // 256 x 16 on 512 thr (93 KB)
       Sh<8, 8, 1, 64, 3>, Sh<8, 8, 1, 48, 3>,              // register pipeline 256 x 8
       // 73a2fef: 16-byte cells (v1), and 16-byte outputs (v2); 128 x 8 on 256 thr, 5 stages (27 KB)
       RingV<8, 4, 1, 128, 6, 5, 1>, RingV<8, 4, 1, 128, 6, 5, 2>,
       RingV<8, 4, 1, 128, 6, 4, 2>, RingV<8, 4, 1, 128, 5, 6, 2>, RingV<8, 4, 1, 64, 6, 5, 2>,  // stages, chunks
       RingV<8, 4, 1, 128, 8, 5, 2>,                                // 8 blocks/SM (32 registers)
       RingV<4, 4, 2, 128, 8, 5, 2>,                                // 128 x 8 on 128 thr, 8 outputs each
       RingV<16, 4, 1, 128, 3, 4, 2>, RingV<8, 4, 2, 128, 4, 4, 2>,  // 128 x 16 (38 KB) on 512 / 256 thr
       RingV<4, 4, 1, 128, 10, 6, 2>,                               // 128 x 4 on 128 thr (20 KB)
       RingV<8, 8, 1, 128, 3, 4, 2>>(sizes, offsets);               // 256 x 8 on 256 thr (41 KB, native only)
  tune<double,                                                       //
       Stencil3DZsShape<16, 2, 1, 32, 3, 2>,                        // the first default
       Sh<16, 2, 1, 16, 2>, Sh<16, 2, 1, 64, 2>, Sh<16, 2, 1, 128, 2>, Sh<16, 2, 1, 1024, 2>,
       Sh<16, 2, 1, 64, 3>,                                         // 3 x 512 (40 regs)
       Sh<8, 2, 1, 32, 4>, Sh<8, 2, 1, 64, 4>, Sh<8, 2, 1, 64, 3>,  // 64x8, 256 thr
       Sh<8, 2, 2, 64, 3>,                                          // 64x16 on 256 thr
       Sh<4, 2, 2, 64, 6>, Sh<4, 1, 2, 64, 8>,                      // 128 thr
       Sh<4, 1, 1, 64, 12>, Sh<8, 1, 1, 64, 8>, Sh<16, 1, 1, 64, 4>,  // 32-wide tiles
       Sh<8, 1, 2, 64, 6>,                                          // 32x16 on 256 thr
       Sh<8, 4, 1, 64, 2>,                                          // 128x8 (31 KB); 128x16 would be 56 KB
       Sh<4, 4, 2, 64, 3>,                                          // 128x8 on 128 thr
       // cp.async ring
       Ring<4, 2, 2, 128, 6, 5>, Ring<4, 2, 2, 64, 6, 5>, Ring<4, 2, 2, 256, 6, 5>,  // 64x8 on 128 thr, chunk length
       Ring<4, 2, 2, 128, 8, 4>, Ring<4, 2, 2, 128, 5, 6>,         // 4 / 6 stages (21 / 32 KB)
       Ring<8, 2, 1, 128, 6, 5>,                                    // 64x8 on 256 thr
       Ring<8, 2, 2, 128, 5, 4>,                                    // 64x16 on 256 thr (38 KB)
       Ring<8, 1, 1, 128, 8, 6>, Ring<8, 1, 2, 128, 8, 5>,         // 32x8 (16 KB), 32x16 (25 KB) on 256 thr
       Ring<4, 4, 2, 128, 5, 4>,                                    // 128x8 on 128 thr (42 KB, native only)
       // 7f86b46: the register pipeline default at other chunk lengths, 5 and 8 blocks/SM
       Sh<4, 2, 2, 128, 6>, Sh<4, 2, 2, 32, 6>, Sh<4, 2, 2, 64, 5>, Sh<4, 2, 2, 64, 8>,
       // 73a2fef: 16-byte cells (v1) and 16-byte outputs (v2, 2 doubles)
       RingV<4, 2, 2, 128, 6, 5, 1>, RingV<4, 2, 2, 128, 6, 5, 2>, RingV<4, 2, 2, 64, 6, 5, 2>,  // 64 x 8, 128 thr
       RingV<4, 2, 2, 128, 6, 6, 2>,                                // 6 stages (33 KB)
       RingV<8, 2, 1, 128, 6, 5, 2>, RingV<8, 2, 2, 128, 5, 4, 2>,  // 64 x 8 / 64 x 16 on 256 thr
       RingV<4, 4, 1, 128, 6, 5, 2>, RingV<8, 4, 1, 128, 3, 4, 2>,  // 128 x 4 on 128 thr (26 KB), 128 x 8 on 256 (42 KB)
       RingV<4, 4, 2, 128, 4, 4, 2>>(sizes, offsets);               // 128 x 8 on 128 thr, 8 outputs (42 KB, native only)
  return 0;
}
