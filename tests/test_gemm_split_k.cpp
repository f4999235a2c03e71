// SPDX-License-Identifier: BSD-3-Clause
// register_blocked split along K with both few-tile blockings, forced on every backend, against the
// reference bound; bad plans refused before launch (helpers and the tolerance: support/gemm_checks.hpp).
#include "gemm_checks.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <array>

using namespace scratchkit;
using namespace scratchkit::gemm_checks;

TEMPLATE_LIST_TEST_CASE("GEMM split along K: partial tiles, uneven splits, a K tail, both few-tile blockings",
                        "[gemm][layer]", test::Spaces) {
  using Exec  = TestType;
  using Few_f = detail::GemmDefaultBlocking<float>::few_type;
  using Few_d = detail::GemmDefaultBlocking<double>::few_type;
  // (M, N, K, splits): whole and partial tiles, K a multiple of the slice or not, splits that divide the
  // slices or leave a shorter last split, up to gemm_split_max.
  for (const auto& s : {std::array<int, 4>{64, 64, 64, 2}, {17, 31, 200, 3}, {130, 65, 333, 5}, {1, 1, 100, 7},
                        {70, 129, 1024, 16}, {128, 64, 48, 3}}) {
    check_split_k<Exec, float, Few_f>(s[0], s[1], s[2], s[3]);
    check_split_k<Exec, double, Few_d>(s[0], s[1], s[2], s[3]);
  }
  // A plan that skips or repeats slices, or leaves a block empty, is refused before the launch.
  using View = Kokkos::View<float**, Kokkos::LayoutRight, typename Exec::memory_space>;
  View A("A", 64, 160), B("B", 160, 64), C("C", 64, 64);  // 10 slices of 16
  Kokkos::View<unsigned*, typename Exec::memory_space> count("count", 1);
  Kokkos::View<float*, typename Exec::memory_space> work("work", 4 * 64 * 64);
  for (const auto& bad : {std::array<int, 2>{2, 4}, {4, 4}, {3, 5}, {0, 10}, {2, 0}}) {  // {splits, per}
    CAPTURE(bad[0], bad[1]);
    detail::GemmSplitK<float> sp;
    sp.plan.splits = bad[0], sp.plan.per = bad[1], sp.count = count.data(), sp.work = work.data();
    if (bad[0] > 1) CHECK_THROWS_AS(detail::gemm_register_blocked<Few_f>(Exec(), 1.0f, A, B, 0.0f, C, sp), Error);
    else CHECK_THROWS_AS(detail::gemm_split_require<Few_f>(sp.plan, 160), Error);
  }
}

