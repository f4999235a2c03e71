// SPDX-License-Identifier: BSD-3-Clause
// The tuning policies (include/scratchkit/tuning/): the sm_90 and host entries, spelled by field name,
// are the blockings and constants the kernels have always run, so that the policy types change no kernel.
#include <scratchkit/detail/gemm/blocking.hpp>
#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/detail/histogram/plan.hpp>
#include <scratchkit/detail/reduce/stream.hpp>
#include <scratchkit/detail/stencil_3d/z_streaming.hpp>
#include <scratchkit/detail/transpose/blocking.hpp>
#include <scratchkit/tuning/gemm.hpp>
#include <scratchkit/tuning/stencil_1d.hpp>

#include <catch2/catch_test_macros.hpp>

#include <type_traits>

namespace sk = scratchkit;
namespace d  = scratchkit::detail;
namespace t  = scratchkit::tuning;

TEST_CASE("tuning: the GEMM policies are the measured blockings", "[tuning][gemm]") {
  using F = t::GemmSm90<float>;
  using D = t::GemmSm90<double>;
  STATIC_REQUIRE(std::is_same<F::type, d::GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, d::gemm_serpentine, false>>::value);
  STATIC_REQUIRE(std::is_same<F::native_type, d::GemmBlocking<128, 128, 16, 32, 64, 8, 8, 2, 2, d::gemm_columns>>::value);
  STATIC_REQUIRE(std::is_same<F::few_type, d::GemmBlocking<64, 64, 16, 32, 32, 8, 4, 4, 2, d::gemm_serpentine>>::value);
  STATIC_REQUIRE(F::few_below_tiles == 200);
  STATIC_REQUIRE(F::simt_kokkos_driver);
  STATIC_REQUIRE(std::is_same<D::small_type, d::GemmMmaBlocking<64, 128, 32, 64, 2, 2, 2, 16>>::value);
  STATIC_REQUIRE(std::is_same<D::large_type, d::GemmMmaBlocking<128, 128, 32, 64, 1, 3, 2, 16>>::value);
  STATIC_REQUIRE(std::is_same<D::native_type, D::large_type>::value);
  STATIC_REQUIRE(std::is_same<D::type, d::GemmMmaBlocking<64, 128, 32, 64, 2, 3>>::value);
  STATIC_REQUIRE(std::is_same<D::few_type, d::GemmMmaBlocking<32, 64, 16, 32, 4, 3, 1, 16>>::value);
  STATIC_REQUIRE(std::is_same<D::tiny_type, d::GemmMmaBlocking<32, 32, 16, 16, 4, 4, 1, 16>>::value);
  STATIC_REQUIRE(D::tiny_below_tiles == 64);
  STATIC_REQUIRE(D::few_below_tiles == 200);
  STATIC_REQUIRE(D::fallback_few_below_tiles == 1024);
  STATIC_REQUIRE(D::small_below_tiles == 2048);
  // Every architecture runs sm_90's values today; host backends run the sm_90 layer blockings.
  STATIC_REQUIRE(std::is_base_of<F, t::GemmPolicy<90, float>>::value);
  STATIC_REQUIRE(std::is_base_of<D, t::GemmPolicy<80, double>>::value);
  STATIC_REQUIRE(std::is_same<d::GemmDefaultBlocking<float>::type, F::type>::value);
  STATIC_REQUIRE(std::is_same<t::GemmPolicy<t::host_arch, float>::type, F::type>::value);
  STATIC_REQUIRE(std::is_same<t::GemmPolicy<t::host_arch, double>::type, D::type>::value);
}

TEST_CASE("tuning: the other kernels' policies are the measured values", "[tuning]") {
  STATIC_REQUIRE(std::is_same<d::ReduceDefaultBlocking, d::ReduceBlocking<256, 4, 8, d::LoadHint::nc>>::value);
  STATIC_REQUIRE(d::reduce_block == 256 && d::reduce_min_blocks == 8 && d::ReducePolicy::tree_blocks_per_team == 8);
  STATIC_REQUIRE(std::is_same<d::TransposeDefaultBlocking<float>::type, d::TransposeBlocking<64, 64, 8, 1, 8>>::value);
  STATIC_REQUIRE(std::is_same<d::TransposeDefaultBlocking<double>::type, d::TransposeBlocking<32, 32, 8, 1, 8>>::value);
  STATIC_REQUIRE(d::histogram_block == 256 && d::histogram_min_blocks == 8 && d::histogram_loads == 2);
  STATIC_REQUIRE(std::is_same<d::HistogramDefaultBlocking,
                              d::HistogramBlocking<1024, 2, 2, 8, d::HistogramLoad::no_allocate, false>>::value);
  STATIC_REQUIRE(std::is_same<d::HistogramLargeBlocking, d::HistogramBlocking<512, 2, 4, 1, d::HistogramLoad::nc, false>>::value);
  STATIC_REQUIRE(d::histogram_small_bins == 1024);
  STATIC_REQUIRE(std::is_same<d::Stencil3DZsDefault<float>, d::Stencil3DZsShape<8, 4, 1, 128, 6, 6, 5>>::value);
  STATIC_REQUIRE(std::is_same<d::Stencil3DZsDefault<double>, d::Stencil3DZsShape<4, 2, 2, 64, 6, 6>>::value);
  STATIC_REQUIRE(std::is_same<d::Stencil3DZsWide<float>, d::Stencil3DZsShape<16, 8, 1, 128, 2, 2, 5, 0, 1>>::value);
  STATIC_REQUIRE(std::is_same<d::Stencil3DZsWide<double>, d::Stencil3DZsShape<16, 4, 1, 64, 2, 2, 4>>::value);
  STATIC_REQUIRE(d::Stencil3DPolicy::tile_min_blocks == 8 && d::Stencil3DPolicy::kokkos_driver);
  using S1 = t::Stencil1DPolicy<t::cuda_arch>;
  STATIC_REQUIRE(S1::threads == 256 && S1::min_blocks == 8);
  STATIC_REQUIRE(S1::halo_tile_float_blocks_per_team == 8 && S1::halo_tile_double_blocks_per_team == 4 &&
                 S1::vectorized_blocks_per_team == 4);
}
