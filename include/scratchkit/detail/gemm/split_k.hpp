// SPDX-License-Identifier: BSD-3-Clause
/// Split-K of GEMM register_blocked (both twins): the plan, its workspace and the ordered sum of partial tiles.
#pragma once

#include <scratchkit/detail/macros.hpp>
#include <scratchkit/errors.hpp>

#include <cstddef>
#include <string>

namespace scratchkit {
namespace detail {

/// Split-K of register_blocked (both twins): `splits` blocks per tile of C,
/// block z of a tile walks slices [z * per, min((z + 1) * per, nk)) of K:
/// (splits - 1) * per < nk <= splits * per, so every slice is walked once and
/// every block has at least one. splits == 1: no split.
struct GemmSplit {
  int splits = 1;  ///< blocks per tile of C
  int per    = 0;  ///< slices of BK per block (nk when splits == 1)
};

/// A product is split only where each split gets at least this many slices
/// (per >= 4; the last split may have fewer): the exchange of partial sums
/// (store, fence, counter, the last block's loads) costs about two
/// global-memory round trips, the price of a few slices.
constexpr int gemm_split_min_slices = 4;
/// At most this many blocks per tile of C (the last block reads them all).
constexpr int gemm_split_max = 16;
/// The plan's cost model (gemm_split_plan): a block costs its slices plus
/// this many (its prologue, the pipeline fill and the exchange of partial
/// sums), and a plan has at most gemm_split_max_waves waves of resident blocks
/// (which bounds the workspace: float 64 x 64 tiles on an H100, 4 x 528 blocks
/// of 16 KB, 35 MB).
constexpr int gemm_split_block_cost = 10;
constexpr int gemm_split_max_waves  = 4;

/// Relative time of a plan of s splits of `per` slices on `tiles` tiles (gemm_split_plan's model), as a
/// fraction num / den: the busiest SM holds b = ceil(tiles * s / sms) blocks, each of per +
/// gemm_split_block_cost slices, and gets through them at efficiency 1 with min_blocks or more resident,
/// 0.7 with one fewer and 0.6 with fewer still (blocks of the few-tile blockings cannot keep an SM's
/// issue slots busy alone).
struct GemmSplitCost {
  long long num = 0, den = 1;
  SCRATCHKIT_HOST_DEVICE constexpr bool operator<(const GemmSplitCost& o) const { return num * o.den < o.num * den; }
};
SCRATCHKIT_HOST_DEVICE constexpr GemmSplitCost gemm_split_cost(long long tiles, long long s, long long per, int sms,
                                                             int min_blocks) {
  const long long b = (tiles * s + sms - 1) / sms;
  const long long eff10 = b >= min_blocks ? 10 : (b == min_blocks - 1 ? 7 : 6);
  return GemmSplitCost{b * (per + gemm_split_block_cost) * 10, eff10};
}

/// The split-K of an M x N x K product with blocking Blk on a GPU of `sms`
/// SMs (both twins take it, so they run the same blocks and give the same bits):
/// the split count of least modelled time (gemm_split_cost; ties to fewer
/// splits) among 1 to gemm_split_max, each split with at least
/// gemm_split_min_slices slices, at most gemm_split_max_waves waves of
/// sms * Blk::min_blocks blocks. The result's bits depend on the plan, hence on
/// the SM count and on these constants.
/// Why: below a wave the tiles' serial walk over K is all the time there is
/// (512^3 float: 64 tiles of 64 x 64 on 132 SMs, 32 slices each); above it,
/// splits even out the blocks of the SMs. The model's constants are fitted to
/// the tuner's device time of every split count at 15 sizes, and checked at 15
/// others (docs/performance.md, "GEMM").
template <class Blk>
SCRATCHKIT_HOST_DEVICE constexpr GemmSplit gemm_split_plan(int M, int N, int K, int sms) {
  GemmSplit p;
  const long long nk    = (static_cast<long long>(K) + Blk::BK - 1) / Blk::BK;
  const long long tiles = ((static_cast<long long>(M) + Blk::BM - 1) / Blk::BM) *
                          ((static_cast<long long>(N) + Blk::BN - 1) / Blk::BN);
  p.per = static_cast<int>(nk);
  if (tiles <= 0 || sms <= 0) return p;
  long long smax = static_cast<long long>(gemm_split_max_waves) * sms * Blk::min_blocks / tiles;
  if (smax > nk / gemm_split_min_slices) smax = nk / gemm_split_min_slices;
  if (smax > gemm_split_max) smax = gemm_split_max;
  if (smax < 2) return p;  // before any cost: tiles may be near 2^60 here
  long long s = 1;
  GemmSplitCost best = gemm_split_cost(tiles, 1, nk, sms, Blk::min_blocks);
  for (long long c = 2; c <= smax; ++c) {
    const long long per = (nk + c - 1) / c;
    if ((nk + per - 1) / per != c) continue;  // the same blocks as a smaller count
    const GemmSplitCost t = gemm_split_cost(tiles, c, per, sms, Blk::min_blocks);
    if (t < best) {
      best = t;
      s    = c;
    }
  }
  if (s < 2) return p;
  p.per    = static_cast<int>((nk + s - 1) / s);
  p.splits = static_cast<int>((nk + p.per - 1) / p.per);
  return p;
}

/// What a split launch needs besides the plan: `count`, one counter per tile
/// of C, zero before the launch (the last block of a tile puts it back to
/// zero); `work`, splits x BM x BN partial sums per tile, tile-major.
template <class S>
struct GemmSplitK {
  GemmSplit plan;
  unsigned* count = nullptr;
  S* work         = nullptr;
};

/// The workspace a split launch of blocking Blk on an M x N product needs (both
/// twins' gemm_split_workspace): one counter per tile, in bytes rounded up to
/// 256 so that the partial sums after them stay aligned, and splits x BM x BN
/// partial sums of S per tile.
struct GemmSplitBytes {
  long long tiles = 0;
  std::size_t count = 0, work = 0;  ///< bytes
};
template <class Blk, class S>
SCRATCHKIT_HOST_DEVICE constexpr GemmSplitBytes gemm_split_bytes(int M, int N, const GemmSplit& plan) {
  GemmSplitBytes b;
  b.tiles = ((static_cast<long long>(M) + Blk::BM - 1) / Blk::BM) * ((static_cast<long long>(N) + Blk::BN - 1) / Blk::BN);
  b.count = (static_cast<std::size_t>(b.tiles) * sizeof(unsigned) + 255) / 256 * 256;
  b.work  = static_cast<std::size_t>(b.tiles) * plan.splits * (Blk::BM * Blk::BN) * sizeof(S);
  return b;
}

/// Thread `rank` of an NTH-thread block stores its E partial sums at
/// w[e * NTH + rank] (consecutive threads, consecutive addresses).
template <int E, int NTH, class S>
SCRATCHKIT_HOST_DEVICE inline void gemm_split_put(S* w, int rank, const S* acc) {
  SCRATCHKIT_UNROLL
  for (int e = 0; e < E; ++e) w[e * NTH + rank] = acc[e];
}

/// acc[e] = the partial sums of every split of the tile added in split order
/// (split s at w + s * E * NTH), read through volatile loads: they were written
/// by other blocks of this launch, which no cache of this SM has seen. The
/// order is fixed, so the bits do not depend on which block finishes last.
template <int E, int NTH, class S>
SCRATCHKIT_HOST_DEVICE inline void gemm_split_sum(const S* w, int splits, int rank, S* acc) {
  const volatile S* v = w;
  SCRATCHKIT_UNROLL
  for (int e = 0; e < E; ++e) acc[e] = v[e * NTH + rank];
  for (int s = 1; s < splits; ++s) {
    SCRATCHKIT_UNROLL
    for (int e = 0; e < E; ++e) acc[e] = acc[e] + v[static_cast<std::size_t>(s) * (E * NTH) + e * NTH + rank];
  }
}

/// Throws Error unless `plan` walks each of the ceil(K / Blk::BK) slices once
/// with no empty block (the launches check a caller's plan before use).
template <class Blk>
inline void gemm_split_require(const GemmSplit& plan, int K) {
  const long long nk = (static_cast<long long>(K) + Blk::BK - 1) / Blk::BK;
  if (plan.splits < 1 || plan.per < 1 || static_cast<long long>(plan.splits - 1) * plan.per >= nk ||
      static_cast<long long>(plan.splits) * plan.per < nk)
    throw Error("scratchkit::gemm: split-K plan of " + std::to_string(plan.splits) + " splits of " +
                std::to_string(plan.per) + " slices does not cover the " + std::to_string(nk) +
                " slices of K once");
}

/// Index of the tile of block (bx, by) among the tiles of C, row by row.
SCRATCHKIT_HOST_DEVICE inline int gemm_split_tile(int bx, int by, int nbx) { return by * nbx + bx; }

}  // namespace detail
}  // namespace scratchkit
