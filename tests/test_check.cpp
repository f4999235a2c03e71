// SPDX-License-Identifier: BSD-3-Clause
// The cross-check references themselves: they pass exact results and catch
// an error just over the bound, a NaN and an unwritten (poisoned) element.
#include <scratchkit/reference/reference.hpp>

#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>
#include <vector>

using namespace scratchkit;

TEST_CASE("check::gemm passes the exact product and catches errors", "[check]") {
  // A = [1 2; 3 4], B = [5 6; 7 8], C0 = [1 1; 1 1], alpha = 2, beta = -1.
  const std::vector<float> A{1, 2, 3, 4}, B{5, 6, 7, 8}, C0{1, 1, 1, 1};
  std::vector<float> C{2 * 19 - 1, 2 * 22 - 1, 2 * 43 - 1, 2 * 50 - 1};
  CHECK(check::gemm<float>(2, 2, 2, 2.0f, A.data(), B.data(), -1.0f, C0.data(), C.data()).passed());
  // The bound for C(0,0) is gamma_4 (2 * 19 + 1); one ulp of 37 is inside it, 10 bounds are not.
  const double bound = check::gamma<float>(4) * (2 * 19 + 1);
  C[0]               = std::nextafter(37.0f, 100.0f);
  CHECK(check::gemm<float>(2, 2, 2, 2.0f, A.data(), B.data(), -1.0f, C0.data(), C.data()).passed());
  C[0] = static_cast<float>(37.0 + 10 * bound);
  CHECK(check::gemm<float>(2, 2, 2, 2.0f, A.data(), B.data(), -1.0f, C0.data(), C.data()).bad == 1);
  C[0] = std::numeric_limits<float>::quiet_NaN();
  CHECK(check::gemm<float>(2, 2, 2, 2.0f, A.data(), B.data(), -1.0f, C0.data(), C.data()).bad == 1);
  // beta == 0: C0 is not read, NaN there does not matter.
  const std::vector<float> nan0(4, std::numeric_limits<float>::quiet_NaN());
  const std::vector<float> AB{19, 22, 43, 50};
  CHECK(check::gemm<float>(2, 2, 2, 1.0f, A.data(), B.data(), 0.0f, nan0.data(), AB.data()).passed());
}

TEST_CASE("check::reduce is exact for integers, min and max, bounded for float sums", "[check]") {
  const std::vector<int> xi{3, -7, 11};
  CHECK(check::reduce<int>(ReduceOp::sum, xi.data(), 3, 7, 1).passed());
  CHECK(!check::reduce<int>(ReduceOp::sum, xi.data(), 3, 8, 1).passed());
  CHECK(check::reduce<int>(ReduceOp::min, xi.data(), 3, -7, 1).passed());
  CHECK(!check::reduce<int>(ReduceOp::max, xi.data(), 3, 10, 1).passed());
  const std::vector<double> xd{0.1, 0.2, 0.3};
  CHECK(check::reduce<double>(ReduceOp::sum, xd.data(), 3, 0.1 + 0.2 + 0.3, 2).passed());
  CHECK(!check::reduce<double>(ReduceOp::sum, xd.data(), 3, 0.6 + 1e-12, 2).passed());
  CHECK(!check::reduce<double>(ReduceOp::sum, xd.data(), 3, std::nan(""), 2).passed());
}

TEST_CASE("check::stencil_1d applies the zero boundary", "[check]") {
  const std::vector<double> in{1, 2, 3}, w{1, 10, 100};  // R = 1: out_i = in_{i-1} + 10 in_i + 100 in_{i+1}
  std::vector<double> out{210, 321, 32};
  CHECK(check::stencil_1d<double>(in.data(), w.data(), 1, out.data(), 3).passed());
  out[2] = 33;
  CHECK(check::stencil_1d<double>(in.data(), w.data(), 1, out.data(), 3).bad == 1);
}
