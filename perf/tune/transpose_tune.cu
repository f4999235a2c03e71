// SPDX-License-Identifier: BSD-3-Clause
// scratchkit-transpose-tune: times candidate blockings of the native tiled_padded
// transpose (src/cuda/transpose_padded.cuh) against a device-to-device copy of the
// same bytes, float and double, to pick TransposeDefaultBlocking
// (include/scratchkit/tuning/transpose.hpp) per type.
//
//   scratchkit-transpose-tune [n ...]     (default: 16384; n x n)
//
// One line per type, size and config: time (median of 7 runs after 2 warm-up runs,
// cudaEvents; out is overwritten with NaN before every run, as the bench's prepare
// step does), GB/s counting in read once + out written once, percent of the copy,
// registers, spill bytes, blocks per SM, and the number of wrong elements (must be 0).
// Config "ERxEC brBR gG bMIN (T thr)": ER x EC tile, 32 x BR threads, groups of G tile
// rows, launch bound of MIN blocks per SM. The default of each type is marked '*';
// "32x32 br8 g1" is the first tiled_padded (eafed8e: 32 x 33 tile, row-major tile order; here
// with the interior fast path, which changes nothing at 4 loads per thread).
//
// Every config cuts its tile grid from the buffers' alignment, as the library does
// (transpose_tile_shift: tile rows of in and of out on 256-byte boundaries; "shift r R c C"
// in the config). The default is timed once more with the plain grid (shifts 0, marked
// "noshift"): the gain of the alignment at the offset in use. Environment switches:
//   SCRATCHKIT_TUNE_OFFSET=B      both buffers B bytes past cudaMalloc's alignment (128: where
//                                 a Kokkos View's data starts, as in scratchkit-bench)
//   SCRATCHKIT_TUNE_OFFSET_OUT=B  out's offset alone (default: SCRATCHKIT_TUNE_OFFSET)
//   SCRATCHKIT_TUNE_NO_SHIFT=1    every config on the plain grid (the kernel before the shifts)
//   SCRATCHKIT_TUNE_NO_POISON=1   no NaN fill before each run
#include <scratchkit/detail/transpose/blocking.hpp>
#include <scratchkit/native/transpose.hpp>

#include "transpose_padded.cuh"
#define SCRATCHKIT_TUNE_NAME "transpose_tune"
#include "tune_common.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using scratchkit::detail::TransposeBlocking;
namespace sk = scratchkit::native::cuda::detail;


/// x[i] = a distinct value per i (exact in float up to 2^24, then still mostly distinct).
template <class T>
__global__ void fill_kernel(T* x, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    x[i] = static_cast<T>(i % 16777213) + static_cast<T>(0.5);
}

/// *bad += elements with out(c, r) != in(r, c) (bitwise: NaN poison counts as wrong).
template <class T>
__global__ void count_wrong_kernel(int rows, int cols, const T* in, const T* out, unsigned long long* bad) {
  unsigned long long local = 0;
  const long long n = static_cast<long long>(rows) * cols;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = i / cols, c = i % cols;
    const T a = in[i], b = out[c * rows + r];
    if (!(a == b)) ++local;
  }
  if (local) atomicAdd(bad, local);
}

/// Median of 7 timed runs after 2 warm-up runs; `prepare` before each, untimed.
template <class P, class F>
double median_ms(const P& prepare, const F& run) {
  return scratchkit::tune::median_ms(prepare, run, 2, 7);
}

template <class T>
struct Problem {
  int n;
  T *in = nullptr, *out = nullptr;
  unsigned long long* bad = nullptr;
  double copy_ms = 0;

  T *in_alloc = nullptr, *out_alloc = nullptr;
  bool poison_each = true, shift = true;
  size_t in_off = 0, out_off = 0;

  explicit Problem(int n_) : n(n_) {
    // SCRATCHKIT_TUNE_OFFSET=B shifts both buffers by B bytes from cudaMalloc's alignment (a Kokkos View's data
    // starts 128 bytes into its allocation); SCRATCHKIT_TUNE_NO_POISON=1 skips the NaN fill before each run
    // (the bench fills once, before its checked run; the wrong-element count then cannot catch a kernel that
    // leaves out untouched: an experiment switch, not a check).
    const char* off_env     = std::getenv("SCRATCHKIT_TUNE_OFFSET");
    const char* off_out_env = std::getenv("SCRATCHKIT_TUNE_OFFSET_OUT");
    in_off      = off_env ? static_cast<size_t>(std::atol(off_env)) : 0;
    out_off     = off_out_env ? static_cast<size_t>(std::atol(off_out_env)) : in_off;
    poison_each = !std::getenv("SCRATCHKIT_TUNE_NO_POISON");
    shift       = !std::getenv("SCRATCHKIT_TUNE_NO_SHIFT");
    TUNE_CUDA(cudaMalloc(&in_alloc, bytes() + in_off));
    TUNE_CUDA(cudaMalloc(&out_alloc, bytes() + out_off));
    in  = reinterpret_cast<T*>(reinterpret_cast<char*>(in_alloc) + in_off);
    out = reinterpret_cast<T*>(reinterpret_cast<char*>(out_alloc) + out_off);
    TUNE_CUDA(cudaMalloc(&bad, sizeof(*bad)));
    fill_kernel<T><<<1024, 256>>>(in, elements());
    TUNE_CUDA(cudaGetLastError());
    copy_ms = median_ms([&] { poison(); }, [&] { TUNE_CUDA(cudaMemcpyAsync(out, in, bytes(), cudaMemcpyDeviceToDevice)); });
  }
  ~Problem() {
    cudaFree(in_alloc);
    cudaFree(out_alloc);
    cudaFree(bad);
  }
  long long elements() const { return static_cast<long long>(n) * n; }
  size_t bytes() const { return static_cast<size_t>(elements()) * sizeof(T); }
  void poison() const {  // NaN: must be overwritten
    if (poison_each) TUNE_CUDA(cudaMemsetAsync(out, 0xff, bytes()));
  }
  unsigned long long wrong() const {
    TUNE_CUDA(cudaMemset(bad, 0, sizeof(*bad)));
    count_wrong_kernel<T><<<1024, 256>>>(n, n, in, out, bad);
    TUNE_CUDA(cudaGetLastError());
    unsigned long long h = 0;
    TUNE_CUDA(cudaMemcpy(&h, bad, sizeof(h), cudaMemcpyDeviceToHost));
    return h;
  }
  double gbps(double ms) const { return 2.0 * bytes() / (ms * 1e6); }
  /// Tile-origin shifts of blocking Bk on these buffers, as launch_transpose_padded(rows, cols, in, out) takes them.
  template <class Bk>
  void shifts(bool aligned, int& shift_r, int& shift_c) const {
    const size_t pitch = static_cast<size_t>(n) * sizeof(T);
    shift_c = aligned ? scratchkit::detail::transpose_tile_shift(in, pitch, sizeof(T), Bk::EC) : 0;
    shift_r = aligned ? scratchkit::detail::transpose_tile_shift(out, pitch, sizeof(T), Bk::ER) : 0;
  }
};

const char* type_name(float) { return "float"; }
const char* type_name(double) { return "double"; }

template <class T>
void print_line(const Problem<T>& p, const std::string& config, double ms, const cudaFuncAttributes* fa, int occ,
                unsigned long long wrong) {
  std::printf("%-6s %5d^2  %-44s %8.4f ms %7.1f GB/s  %5.1f %% of copy", type_name(T()), p.n, config.c_str(), ms,
              p.gbps(ms), 100.0 * p.copy_ms / ms);
  if (fa)
    std::printf("  regs %3d spill %3zu B  %2d blk/SM  wrong %llu", fa->numRegs, fa->localSizeBytes, occ, wrong);
  std::printf("\n");
  std::fflush(stdout);
}

template <class Bk>
std::string config_name(int shift_r, int shift_c, bool noshift) {
  char name[128];
  std::snprintf(name, sizeof name, "%dx%d br%d g%d b%d (%d thr) %s r%d c%d", Bk::ER, Bk::EC, Bk::BR, Bk::G,
                Bk::min_blocks, Bk::threads, noshift ? "noshift" : "shift", shift_r, shift_c);
  return name;
}

/// Times blocking Bk on p, its tile grid shifted from the buffers' alignment unless `plain`
/// or SCRATCHKIT_TUNE_NO_SHIFT is set.
template <class T, class Bk>
void time_config(const Problem<T>& p, bool plain = false) {
  using Default = typename scratchkit::detail::TransposeDefaultBlocking<T>::type;
  const bool aligned = p.shift && !plain;
  int shift_r = 0, shift_c = 0;
  p.template shifts<Bk>(aligned, shift_r, shift_c);
  const std::string name =
      (std::is_same<Bk, Default>::value ? "*" : " ") + config_name<Bk>(shift_r, shift_c, !aligned);
  auto kernel            = sk::transpose_padded_kernel<T, Bk>;
  cudaFuncAttributes fa{};
  TUNE_CUDA(cudaFuncGetAttributes(&fa, kernel));
  int occ = 0;
  TUNE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kernel, Bk::threads, 0));
  const double ms = median_ms([&] { p.poison(); }, [&] {
    sk::launch_transpose_padded<T, Bk>(p.n, p.n, shift_r, shift_c, p.in, p.out, 0);
  });
  TUNE_CUDA(cudaDeviceSynchronize());
  print_line(p, name, ms, &fa, occ, p.wrong());
}

template <class T, class... Bks>
void tune(const std::vector<int>& sizes) {
  using Default = typename scratchkit::detail::TransposeDefaultBlocking<T>::type;
  for (int n : sizes) {
    Problem<T> p(n);
    std::printf("%-6s %5d^2  in at +%zu B, out at +%zu B from cudaMalloc's alignment\n", type_name(T()), n, p.in_off,
                p.out_off);
    print_line(p, " cudaMemcpyAsync (same bytes)", p.copy_ms, nullptr, 0, 0);
    (time_config<T, Bks>(p), ...);
    if (p.shift) time_config<T, Default>(p, true);  // the default on the plain grid
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (::scratchkit::tune::wants_help(argc, argv, "[n ...]  (default 16384; SCRATCHKIT_TUNE_OFFSET=B, _OFFSET_OUT, _NO_SHIFT, _NO_POISON)")) return 0;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {16384};
  cudaDeviceProp prop{};
  TUNE_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, CC %d.%d\n", prop.name, prop.multiProcessorCount, prop.major, prop.minor);
  // ER, EC, BR, G, min blocks per SM. Tiles must stay <= 32 KB for the layer's host backends.
  tune<float, TransposeBlocking<32, 32, 8, 1, 8>, TransposeBlocking<32, 32, 8, 8, 8>,
       TransposeBlocking<32, 32, 8, 16, 8>, TransposeBlocking<32, 32, 8, 32, 8>, TransposeBlocking<64, 64, 8, 1, 8>,
       TransposeBlocking<64, 64, 8, 4, 8>, TransposeBlocking<64, 64, 8, 8, 8>, TransposeBlocking<64, 64, 8, 16, 8>,
       TransposeBlocking<64, 64, 8, 32, 8>, TransposeBlocking<64, 64, 16, 16, 4>, TransposeBlocking<64, 64, 32, 16, 2>,
       TransposeBlocking<32, 64, 8, 16, 8>, TransposeBlocking<64, 32, 8, 16, 8>, TransposeBlocking<32, 128, 8, 16, 8>,
       TransposeBlocking<128, 32, 8, 16, 8>>(sizes);
  tune<double, TransposeBlocking<32, 32, 8, 1, 8>, TransposeBlocking<32, 32, 8, 8, 8>,
       TransposeBlocking<32, 32, 8, 16, 8>, TransposeBlocking<32, 32, 8, 32, 8>, TransposeBlocking<32, 64, 8, 1, 6>,
       TransposeBlocking<32, 64, 8, 8, 6>, TransposeBlocking<32, 64, 8, 16, 6>, TransposeBlocking<32, 64, 8, 32, 6>,
       TransposeBlocking<64, 32, 8, 16, 6>, TransposeBlocking<32, 64, 8, 32, 8>, TransposeBlocking<32, 64, 16, 16, 4>,
       TransposeBlocking<32, 32, 4, 16, 16>,
       TransposeBlocking<64, 64, 8, 16, 6>>(sizes);
  return 0;
}
