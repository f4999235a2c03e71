// SPDX-License-Identifier: BSD-3-Clause
/// A layer row and its plain Kokkos row in one call (perf/bench_user.cpp, perf/bench_rajaperf.cpp).
#pragma once

#include "harness.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace scratchkit {
namespace perf {

/// Adds the layer row k and, where the run has plain rows, its plain Kokkos row: the same data, sizes
/// and check, `variant` and `run` its own.
inline void add_with_plain(std::vector<Case>& cases, const Case& k, const std::string& variant,
                           std::function<void()> run) {
  cases.push_back(k);
  if (!plain_rows()) return;
  Case p    = k;
  p.variant = variant;
  p.backend = "plain-kokkos";
  p.run     = std::move(run);
  cases.push_back(p);
}

}  // namespace perf
}  // namespace scratchkit
