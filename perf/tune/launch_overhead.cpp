// SPDX-License-Identifier: BSD-3-Clause
// Host time per call of the layer against the same launch written on Kokkos
// directly: a 1-block launch() with an almost empty body vs a raw TeamPolicy
// launch with the same scratch, and the public API on 1 x 1 / tiny problems.
// On a host backend the call includes the (tiny) kernel; the difference
// between the layer and raw rows is the layer's per-call host work.
//   scratchkit-launch-overhead [repetitions]
// Prints the median host time per call in microseconds (the device is fenced
// between calls, outside the timed region).
#include <scratchkit/kernels/stencil_1d.hpp>
#include <scratchkit/kernels/transpose.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/shared_array.hpp>
#include "../measurement.hpp"
#if defined(KOKKOS_ENABLE_CUDA)
#include "../raw_kokkos.hpp"
#endif

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace scratchkit {
namespace perf {
namespace overhead {

using Exec = Kokkos::DefaultExecutionSpace;
using View = Kokkos::View<float*, Exec::memory_space>;

/// Median host time of one call of f, fenced before each call (not timed), so
/// that a GPU's launch queue never fills up and the time is the enqueue alone.
template <class F>
double time_us(int reps, const F& f) {
  for (int i = 0; i < reps / 10 + 1; ++i) f();  // warm-up: first-call statics, caches
  std::vector<double> us(static_cast<std::size_t>(reps));
  for (auto& u : us) {
    Exec().fence();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    u = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  }
  Exec().fence();
  std::nth_element(us.begin(), us.begin() + reps / 2, us.end());
  return us[static_cast<std::size_t>(reps / 2)];
}

// 1 block of 32 threads, 64 floats of static scratch, one element written.
void layer_launch(const View& v) {
  using B_t  = Block<Exec>;
  using Tile = SharedArray<float, 64>;
  launch(Exec(), "scratchkit::overhead_layer", LaunchParams(Dim3(1), Dim3(32)).uses<Tile>(),
         KOKKOS_LAMBDA(const B_t& b) {
           Tile s(b);
           b.once([&] { v(0) = s.data() != nullptr ? 1.0f : 0.0f; });
         });
}

void raw_launch(const View& v) {
  using policy = Kokkos::TeamPolicy<Exec>;
  using member = policy::member_type;
  // The same request as the layer's (64 floats, the 128-byte base slack, rounded to 8).
  const int team_size = detail::is_gpu_space<Exec>::value ? 32 : 1;
  Kokkos::parallel_for("scratchkit::overhead_raw",
                       policy(Exec(), 1, team_size).set_scratch_size(0, Kokkos::PerTeam(64 * 4 + 128)),
                       KOKKOS_LAMBDA(const member& m) {
                         float* s = static_cast<float*>(m.team_scratch(0).get_shmem(64 * 4));
                         if (m.team_rank() == 0) v(0) = s != nullptr ? 1.0f : 0.0f;
                       });
}

void empty_grid(const View& v) {
  using B_t = Block<Exec>;
  launch(Exec(), "scratchkit::overhead_empty", LaunchParams(Dim3(0), Dim3(32)).allow_empty_grid(),
         KOKKOS_LAMBDA(const B_t&) { v(0) = 2.0f; });
}

}  // namespace overhead
}  // namespace perf
}  // namespace scratchkit

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("usage: %s [repetitions] [Kokkos options]  (default 20000)\n", argv[0]);
      return 0;
    }
  scratchkit::perf::install_measurement_hook_from_environment();
  Kokkos::ScopeGuard guard(argc, argv);
  using namespace scratchkit;
  using namespace scratchkit::perf::overhead;
  const int reps = argc > 1 ? std::atoi(argv[1]) : 20000;
  View v("v", 1);
  Kokkos::View<float**, Kokkos::LayoutRight, Exec::memory_space> a("a", 1, 1), b("b", 1, 1);
  Kokkos::View<double**, Kokkos::LayoutRight, Exec::memory_space> ad("ad", 1, 1), bd("bd", 1, 1);
  Kokkos::View<float*, Exec::memory_space> x("x", 1), y("y", 1), w("w", 3);
  std::printf("%-44s %10s   (%s)\n", "case", "us/call", Exec::name());
  const auto row = [](const char* name, double us) { std::printf("%-44s %10.3f\n", name, us); };
  row("raw Kokkos TeamPolicy, 1 block", time_us(reps, [&] { raw_launch(v); }));
  row("layer launch(), 1 block", time_us(reps, [&] { layer_launch(v); }));
  row("layer launch(), empty grid", time_us(reps, [&] { empty_grid(v); }));
  row("transpose tiled_padded float 1x1", time_us(reps, [&] {
        transpose(Exec(), TransposeVariant::tiled_padded, a, b);
      }));
  row("transpose tiled_padded double 1x1", time_us(reps, [&] {
        transpose(Exec(), TransposeVariant::tiled_padded, ad, bd);
      }));
  row("transpose tiled float 1x1", time_us(reps, [&] { transpose(Exec(), TransposeVariant::tiled, a, b); }));
  row("transpose naive float 1x1", time_us(reps, [&] { transpose(Exec(), TransposeVariant::naive, a, b); }));
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<Exec, Kokkos::Cuda>::value) {
    row("raw Kokkos transpose tiled_padded float 1x1", time_us(reps, [&] {
          scratchkit::perf::raw::transpose_tiled_padded(Exec(), a, b);
        }));
    row("raw Kokkos transpose tiled_padded double 1x1", time_us(reps, [&] {
          scratchkit::perf::raw::transpose_tiled_padded(Exec(), ad, bd);
        }));
#if SCRATCHKIT_HAS_NATIVE_CUDA
    row("native transpose tiled_padded float 1x1", time_us(reps, [&] {
          transpose(Exec(), TransposeVariant::tiled_padded, a, b, Backend::native);
        }));
    row("native transpose tiled_padded double 1x1", time_us(reps, [&] {
          transpose(Exec(), TransposeVariant::tiled_padded, ad, bd, Backend::native);
        }));
    row("native transpose tiled float 1x1", time_us(reps, [&] {
          transpose(Exec(), TransposeVariant::tiled, a, b, Backend::native);
        }));
#endif
  }
#endif
  row("stencil_1d vectorized float n=1 r=1", time_us(reps, [&] {
        stencil_1d(Exec(), Stencil1DVariant::vectorized, x, w, y);
      }));
  return 0;
}
