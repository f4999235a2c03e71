// SPDX-License-Identifier: BSD-3-Clause
// The occupancy report (docs/checker.md) of the tutorial's three launch
// descriptions: on this build's default execution space, and on an H100 by
// CUDA's occupancy formula (registers unknown to the layer: not counted).
#include "common.hpp"

#include <scratchkit/occupancy.hpp>

namespace {

void report(const char* label, const LaunchParams& p) {
  std::printf("%s", scratchkit::occupancy_report<Exec>(p, label).str().c_str());
  const auto plan = scratchkit::plan_launch<Exec>(p, label);
  scratchkit::detail::OccupancyInput in;
  in.threads       = plan.logical_threads;
  in.static_shared = p.static_bytes();
  in.dynamic_shared = p.dynamic_bytes();
  const auto o = scratchkit::detail::occupancy(scratchkit::detail::DeviceLimits::h100(), in);
  std::printf("  H100 (formula, %zu bytes of shared per block as a native twin declares them): %d blocks per SM, "
              "limited by %s; %zu bytes per block with the 1 KB reserve, %zu of %zu bytes per SM used\n",
              in.static_shared + in.dynamic_shared, o.blocks_per_sm, scratchkit::detail::limiter_name(o.limiter),
              o.shared_per_block, o.shared_per_sm_used, o.shared_config);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using Tile = scratchkit::PaddedTile<float, 16, 16, 0>;
  report("tutorial::sgemm", LaunchParams({ceil_div(1000, 16), ceil_div(1000, 16)}, {16, 16}).uses<Tile, Tile>());
  report("tutorial::scan256", LaunchParams(ceil_div(1 << 20, 256), 256).uses<scratchkit::SharedArray<int, 256>>());
  scratchkit::DynamicLayout pool;  // stencil2d's 32 x 8 block: a (8 + 2) x (32 + 2) tile and 5 weights
  pool.partition<float>((8 + 2) * (32 + 2));
  pool.partition<float>(5);
  report("tutorial::stencil2d", LaunchParams({ceil_div(1000, 32), ceil_div(1000, 8)}, {32, 8}).shared_mem_bytes(pool));
  std::printf("PASSED\n");
  return 0;
}
