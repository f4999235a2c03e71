// SPDX-License-Identifier: BSD-3-Clause
/// Histogram tuning: global_atomic's block and loads, shared_atomic's blockings per architecture (both twins).
#pragma once

#include <scratchkit/detail/load16.hpp>
#include <scratchkit/tuning/arch.hpp>

namespace scratchkit {
namespace tuning {

/// sm_90 (H100): the fastest of scratchkit-histogram-tune (docs/performance.md,
/// "Histogram"). Fields of detail::HistogramBlocking: threads, loads (16-byte
/// loads a thread issues before binning), min_blocks (launch bound), copies
/// (interleaved sub-histograms), load (hint), split (contiguous shares).
struct HistogramSm90 {
  /// global_atomic: threads per block, launch bounds' blocks per SM (32 registers), 16-byte loads per step.
  static constexpr int atomic_threads = 256, atomic_min_blocks = 8, atomic_loads = 2;
  /// shared_atomic up to small_bins bins (256 is the target case): 1024 threads, 2 blocks per SM, L1 no-allocate.
  struct Small {
    static constexpr int threads = 1024, loads = 2, min_blocks = 2, copies = 8;
    static constexpr detail::LoadHint load = detail::LoadHint::no_allocate;
    static constexpr bool split = false;
  };
  /// shared_atomic above small_bins (one sub-histogram, bins in chunks), tuned at 65536 bins.
  struct Large {
    static constexpr int threads = 512, loads = 2, min_blocks = 4, copies = 1;
    static constexpr detail::LoadHint load = detail::LoadHint::nc;
    static constexpr bool split = false;
  };
  static constexpr int small_bins = 1024;
};

/// The policy of GPUs of compute capability Arch / 10 (tuning::cuda_arch): sm_90's
/// values for sm_90 and, not measured yet, for sm_80, sm_86, sm_89 and every other
/// GPU (docs/performance.md, "Tuning"); an architecture's own values go in a
/// specialisation here.
template <int Arch>
struct HistogramPolicy : HistogramSm90 {};

}  // namespace tuning
}  // namespace scratchkit
