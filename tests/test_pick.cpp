// SPDX-License-Identifier: BSD-3-Clause
// The pick functions (detail/gemm/pick.hpp, detail/stencil_3d/pick.hpp) with injected level-0 limits: every
// choice fits its room, a larger room never takes fewer tile bytes, nothing fits is a LaunchError, and at
// Kokkos 5.0.99's 40936-byte cap the picks are the rules the layer and the native twin followed before
// (each re-deriving the choice from a byte limit). Host-only: runs in every build.
#include <scratchkit/detail/gemm/pick.hpp>
#include <scratchkit/detail/stencil_3d/pick.hpp>
#include <scratchkit/kernels/gemm.hpp>
#include <scratchkit/kernels/stencil_3d.hpp>

#include <catch2/catch_test_macros.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <optional>
#include <vector>

using namespace scratchkit;
using detail::GemmBlockingKind;
using detail::GemmPick;
using detail::GemmRoom;
using detail::Stencil3DPick;
using detail::Stencil3DZsKind;

namespace {

/// Level-0 limits as TeamPolicy::scratch_size_max(0) may report them: none, tiny, Kokkos 5.0.99's cap on
/// CUDA, 48 KB, the opt-in maxima of sm_86 / sm_89, sm_80 and sm_90, and more than any GPU has.
constexpr std::array<std::size_t, 10> limits = {0,         1024,       40936,      48 * 1024,  99 * 1024,
                                                100 * 1024, 163 * 1024, 227 * 1024, 228 * 1024, 1u << 30};
/// Kokkos 5.0.99's level-0 cap on CUDA (TeamPolicy::scratch_size_max(0)).
constexpr std::size_t kokkos_cap = 40936;
/// Shared memory per SM: unknown, sm_86 / sm_89, sm_80, sm_90.
constexpr std::array<std::size_t, 4> per_sms = {0, 100 * 1024, 164 * 1024, 228 * 1024};

std::vector<int> extents() {
  return {1, 2, 7, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 500, 511, 512, 513, 896, 1000, 1023, 1024,
          1025, 1536, 1600, 1792, 2047, 2048, 2049, 3968, 3969, 4096, 5000, 5793, 5794, 8192, 16384, 1 << 20, INT_MAX};
}

/// A layer launch's level-0 request for `bytes` of static arrays (detail::scratch_request).
constexpr std::size_t request(std::size_t bytes) { return (bytes + 127) / 128 * 128 + 128; }

/// The rule the layer followed before the pick (gemm_mma_layer_pick, gemm_mma_fits_layer): a blocking fits
/// where its request is within the level-0 limit and min_blocks of them, with 3 KB each, within an SM.
template <class Blk>
bool old_fits(std::size_t limit, std::size_t per_sm) {
  const std::size_t r = request(static_cast<std::size_t>(Blk::smem_bytes));
  return r <= limit && (per_sm == 0 || static_cast<std::size_t>(Blk::min_blocks) * (r + 2048 + 1024) <= per_sm);
}
GemmBlockingKind old_double(int M, int N, std::size_t limit, std::size_t per_sm) {
  using D = detail::GemmDefaultBlocking<double>;
  if (detail::gemm_pick_tiny(M, N) && old_fits<D::tiny_type>(limit, per_sm)) return GemmBlockingKind::tiny;
  if (detail::gemm_pick_few<double>(M, N) && old_fits<D::few_type>(limit, per_sm)) return GemmBlockingKind::few;
  if (detail::gemm_mma_pick_small(M, N)) {
    if (old_fits<D::small_type>(limit, per_sm)) return GemmBlockingKind::small;
  } else if (old_fits<D::large_type>(limit, per_sm)) {
    return GemmBlockingKind::large;
  }
  if (detail::gemm_pick_fallback_few(M, N) && old_fits<D::few_type>(limit, per_sm)) return GemmBlockingKind::few;
  return GemmBlockingKind::fallback;
}
/// The old rule's split: the few-tile blocking's plan where the launch has SMs to plan for.
template <class Scalar>
detail::GemmSplit old_split(GemmBlockingKind k, int M, int N, int K, int sms) {
  if (k != GemmBlockingKind::few) return {1, 0};
  return detail::gemm_split_plan<typename detail::GemmDefaultBlocking<Scalar>::few_type>(M, N, K, sms);
}

/// gemm_pick, or nothing where it throws LaunchError.
template <class Scalar>
std::optional<GemmPick> try_pick(int M, int N, int K, const GemmRoom& room) {
  try {
    return detail::gemm_pick<Scalar>(M, N, K, room);
  } catch (const LaunchError&) {
    return std::nullopt;
  }
}

template <class Scalar>
std::size_t tile_bytes(const GemmPick& p) {
  return detail::gemm_tile_bytes_of<Scalar>(p.blocking);
}

/// Whether the blocking of kind k fits the room (bytes; for the tensor-core blockings blocks per SM too).
template <class Scalar>
bool fits(GemmBlockingKind k, const GemmRoom& room) {
  return detail::gemm_visit_blocking<Scalar>(
      k, [&](auto tag) { return detail::gemm_fits<typename decltype(tag)::type, Scalar>(room); }, [] { return false; });
}

/// What gemm_visit_blocking hands its visitor for kind k: 1 where that is Want under the tag of k, 0 for
/// another type, -1 where Scalar has no blocking of kind k.
template <class Scalar, class Want>
int visited(GemmBlockingKind k) {
  return detail::gemm_visit_blocking<Scalar>(k, [&](auto tag) {
    using Tag = decltype(tag);
    return std::is_same<typename Tag::type, Want>::value && Tag::kind == k ? 1 : 0;
  }, [] { return -1; });
}

}  // namespace

TEST_CASE("GEMM blocking visitor: each kind is the policy's blocking of that name", "[pick][gemm]") {
  using DD = detail::GemmDefaultBlocking<double>;
  using DF = detail::GemmDefaultBlocking<float>;
  CHECK(visited<double, DD::tiny_type>(GemmBlockingKind::tiny) == 1);
  CHECK(visited<double, DD::few_type>(GemmBlockingKind::few) == 1);
  CHECK(visited<double, DD::small_type>(GemmBlockingKind::small) == 1);
  CHECK(visited<double, DD::large_type>(GemmBlockingKind::large) == 1);
  CHECK(visited<double, DD::type>(GemmBlockingKind::fallback) == 1);
  CHECK(visited<float, DF::few_type>(GemmBlockingKind::few) == 1);
  CHECK(visited<float, DF::type>(GemmBlockingKind::fallback) == 1);
  for (const auto k : {GemmBlockingKind::tiny, GemmBlockingKind::small, GemmBlockingKind::large})
    CHECK(visited<float, DF::type>(k) == -1);  // float has few and fallback only
  // The tile bytes the pick compares are the visited blocking's.
  CHECK(detail::gemm_tile_bytes_of<double>(GemmBlockingKind::large) == detail::gemm_tile_bytes<DD::large_type, double>());
  CHECK(detail::gemm_tile_bytes_of<float>(GemmBlockingKind::few) == detail::gemm_tile_bytes<DF::few_type, float>());
}

TEST_CASE("GEMM pick: the rooms' arithmetic is the layer's level-0 request", "[pick][gemm]") {
  // level0_room: the arrays' bytes fit exactly when the layer's request (rounded up, plus slack) does.
  for (std::size_t limit : limits)
    for (std::size_t bytes : {std::size_t(1), std::size_t(127), std::size_t(128), std::size_t(33280),
                              std::size_t(36864), std::size_t(37248), std::size_t(98816), std::size_t(197376)}) {
      CAPTURE(limit, bytes);
      CHECK((bytes <= detail::level0_room(limit)) == (request(bytes) <= limit));
    }
  // The request counted here is plan_launch's, for the arrays the layer declares.
  using D   = detail::GemmDefaultBlocking<double>;
  using Blk = D::large_type;
  const auto p = LaunchParams(Dim3(1), Dim3(Blk::threads))
                     .uses<SharedArray<double, Blk::stages * Blk::a_stage, 16>,
                           SharedArray<double, Blk::stages * Blk::b_stage, 16>>();
  CHECK(detail::scratch_request(p) == request(detail::gemm_tile_bytes<Blk, double>()));
  using F   = detail::GemmDefaultBlocking<float>::type;
  using Sh  = detail::GemmRbShape<F, float>;
  const auto q = LaunchParams(Dim3(1), Dim3(F::threads))
                     .uses<SharedArray<float, Sh::a_size, 16>, SharedArray<float, Sh::b_size, 16>>();
  CHECK(detail::scratch_request(q) == request(detail::gemm_tile_bytes<F, float>()));
  using W    = detail::Stencil3DZsWide<float>;
  using Ring = PaddedTile<float, W::stages*(W::TY + 2), W::template pitch<float>(), 0>;
  CHECK(detail::scratch_request(LaunchParams(Dim3(1), Dim3(W::BX, W::BY)).uses<Ring>()) ==
        request(detail::stencil3d_zs_bytes<float>(Stencil3DZsKind::wide)));
}

TEST_CASE("GEMM pick at Kokkos 5.0.99's cap is the layer's and the twin's earlier choice", "[pick][gemm]") {
  // Constant-evaluable: a 1024^3 double product under the cap runs few_type, unsplit without SMs.
  STATIC_REQUIRE(detail::gemm_pick<double>(1024, 1024, 1024, GemmRoom{detail::level0_room(kokkos_cap), 0, 0}).blocking ==
                 GemmBlockingKind::few);
  for (const std::size_t per_sm : per_sms)
    for (const int sms : {0, 108, 132})
      for (const int M : extents())
        for (const int N : {1, 33, 128, 200, 1024, 4096}) {
          const GemmRoom room{detail::level0_room(kokkos_cap), per_sm, sms};
          for (const int K : {1, 16, 300, 1024}) {
            CAPTURE(M, N, K, per_sm, sms);
            const GemmBlockingKind kd = old_double(M, N, kokkos_cap, per_sm);
            const GemmPick pd         = detail::gemm_pick<double>(M, N, K, room);
            CHECK(pd.blocking == kd);
            const detail::GemmSplit sd = old_split<double>(kd, M, N, K, sms);
            CHECK(pd.split.splits == sd.splits);
            if (sd.splits > 1) CHECK(pd.split.per == sd.per);
            const GemmBlockingKind kf = detail::gemm_pick_few<float>(M, N) ? GemmBlockingKind::few : GemmBlockingKind::fallback;
            const GemmPick pf         = detail::gemm_pick<float>(M, N, K, room);
            CHECK(pf.blocking == kf);
            const detail::GemmSplit sf = old_split<float>(kf, M, N, K, sms);
            CHECK(pf.split.splits == sf.splits);
            if (sf.splits > 1) CHECK(pf.split.per == sf.per);
          }
        }
}

TEST_CASE("GEMM pick fits its room, grows with it, and is an error where nothing fits", "[pick][gemm]") {
  std::vector<std::size_t> sweep(limits.begin(), limits.end());
  for (std::size_t l = 0; l <= 240 * 1024; l += 256) sweep.push_back(l);
  for (std::size_t l : {std::size_t(33407), std::size_t(33408), std::size_t(36991), std::size_t(36992),
                        std::size_t(37375), std::size_t(37376), std::size_t(98943), std::size_t(98944),
                        std::size_t(197503), std::size_t(197504)})
    sweep.push_back(l);
  std::sort(sweep.begin(), sweep.end());
  for (const std::size_t per_sm : per_sms)
    for (const int M : extents())
      for (const int N : {1, 300, 8192}) {
        CAPTURE(M, N, per_sm);
        std::size_t last_d = 0, last_f = 0;
        bool any_d = false, any_f = false;
        for (const std::size_t limit : sweep) {
          CAPTURE(limit);
          const GemmRoom room{detail::level0_room(limit), per_sm, 132};
          const auto pd = try_pick<double>(M, N, 512, room);
          const auto pf = try_pick<float>(M, N, 512, room);
          // Where the earlier rule's choice fits, the pick is that choice; where it does not, an error.
          const GemmBlockingKind kd = old_double(M, N, limit, per_sm);
          CHECK(pd.has_value() == fits<double>(kd, room));
          if (pd) {
            CHECK(pd->blocking == kd);
            CHECK(tile_bytes<double>(*pd) <= room.level0);  // never exceeds the room
            CHECK(fits<double>(pd->blocking, room));
            CHECK(tile_bytes<double>(*pd) >= last_d);  // a larger room: tiles at least as large
            last_d = tile_bytes<double>(*pd);
            any_d  = true;
          } else {
            CHECK_FALSE(any_d);  // once a blocking fits, a larger room has one
          }
          if (pf) {
            CHECK(tile_bytes<float>(*pf) <= room.level0);
            CHECK(tile_bytes<float>(*pf) >= last_f);
            last_f = tile_bytes<float>(*pf);
            any_f  = true;
          } else {
            CHECK_FALSE(any_f);
          }
        }
        // No launch path has room for any blocking in 0 or 1 KB of level 0.
        for (const std::size_t tiny : {std::size_t(0), std::size_t(1024)}) {
          const GemmRoom room{detail::level0_room(tiny), per_sm, 132};
          CHECK_THROWS_AS(detail::gemm_pick<double>(M, N, 64, room), LaunchError);
          CHECK_THROWS_AS(detail::gemm_pick<float>(M, N, 64, room), LaunchError);
        }
      }
}

TEST_CASE("GEMM pick takes the blockings over 48 KB where Kokkos reports the room", "[pick][gemm]") {
  using D = detail::GemmDefaultBlocking<double>;
  STATIC_REQUIRE(D::small_type::smem_bytes > 48 * 1024);
  STATIC_REQUIRE(D::large_type::smem_bytes > 48 * 1024);
  const std::size_t h100_sm = 228 * 1024;
  // 1536^2 (144 tiles; under 1024 tiles few_type at the cap): small_type from 99 KB of level 0 on.
  CHECK(detail::gemm_pick<double>(1536, 1536, 1536, GemmRoom{detail::level0_room(kokkos_cap), h100_sm, 132}).blocking ==
        GemmBlockingKind::few);
  CHECK(detail::gemm_pick<double>(2900, 2900, 64, GemmRoom{detail::level0_room(99 * 1024), h100_sm, 132}).blocking ==
        GemmBlockingKind::small);
  // 8192^2 (4096 tiles): `type` (36 KB) at the cap and at 99 KB, large_type (193 KB) at 227 KB.
  for (const std::size_t l : {kokkos_cap, std::size_t(48 * 1024), std::size_t(99 * 1024)})
    CHECK(detail::gemm_pick<double>(8192, 8192, 64, GemmRoom{detail::level0_room(l), h100_sm, 132}).blocking ==
          GemmBlockingKind::fallback);
  CHECK(detail::gemm_pick<double>(8192, 8192, 64, GemmRoom{detail::level0_room(227 * 1024), h100_sm, 132}).blocking ==
        GemmBlockingKind::large);
  // Without the SM's room for its blocks (sm_86: 100 KB per SM), not even at 227 KB of level 0.
  CHECK(detail::gemm_pick<double>(8192, 8192, 64, GemmRoom{detail::level0_room(227 * 1024), 100 * 1024, 84}).blocking ==
        GemmBlockingKind::fallback);
}

namespace {
/// The rule before the pick (stencil3d_zs_layer_wide on CUDA): the wide ring on rows of one wide tile and
/// more where its request fits the level-0 limit.
template <class T>
Stencil3DZsKind old_stencil(int nx, std::size_t limit) {
  return detail::stencil3d_zs_wide<T>(nx) && request(detail::stencil3d_zs_bytes<T>(Stencil3DZsKind::wide)) <= limit
             ? Stencil3DZsKind::wide
             : Stencil3DZsKind::standard;
}

template <class T>
void check_stencil_picks() {
  STATIC_REQUIRE(detail::stencil3d_zs_pick<T>(4096, detail::level0_room(kokkos_cap)).shape == Stencil3DZsKind::standard);
  std::vector<std::size_t> sweep(limits.begin(), limits.end());
  for (std::size_t l = 0; l <= 240 * 1024; l += 256) sweep.push_back(l);
  std::sort(sweep.begin(), sweep.end());
  for (const int nx : {0, 1, 31, 32, 64, 127, 128, 129, 255, 256, 257, 511, 512, 1000, 4096, INT_MAX}) {
    CAPTURE(nx, sizeof(T));
    std::size_t last = 0;
    bool any         = false;
    for (const std::size_t limit : sweep) {
      CAPTURE(limit);
      const std::size_t room = detail::level0_room(limit);
      std::optional<Stencil3DPick> p;
      try {
        p = detail::stencil3d_zs_pick<T>(nx, room);
      } catch (const LaunchError&) {
      }
      // An error exactly where not even the default shape fits; else the earlier rule's shape.
      CHECK(p.has_value() == (detail::stencil3d_zs_bytes<T>(Stencil3DZsKind::standard) <= room));
      if (!p) {
        CHECK_FALSE(any);
        continue;
      }
      CHECK(p->shape == old_stencil<T>(nx, limit));
      const std::size_t bytes = detail::stencil3d_zs_bytes<T>(p->shape);
      CHECK(bytes <= room);
      CHECK(bytes >= last);
      last = bytes;
      any  = true;
    }
    CHECK_THROWS_AS(detail::stencil3d_zs_pick<T>(nx, detail::level0_room(1024)), LaunchError);
    CHECK_THROWS_AS(detail::stencil3d_zs_pick<T>(nx, 0), LaunchError);
    // The cap: the default shape; the wide rings (93 / 75 KB) from 99 KB on, on rows of a wide tile.
    CHECK(detail::stencil3d_zs_pick<T>(nx, detail::level0_room(kokkos_cap)).shape == Stencil3DZsKind::standard);
    CHECK(detail::stencil3d_zs_pick<T>(nx, detail::level0_room(99 * 1024)).shape ==
          (detail::stencil3d_zs_wide<T>(nx) ? Stencil3DZsKind::wide : Stencil3DZsKind::standard));
  }
}
}  // namespace

TEST_CASE("3-D z_streaming pick: fits, grows with the room, the earlier rule at every limit", "[pick][stencil_3d]") {
  check_stencil_picks<float>();
  check_stencil_picks<double>();
}

TEST_CASE("The layer picks with what Kokkos reports, less its slack", "[pick][gemm][stencil_3d]") {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const std::size_t level0 = static_cast<std::size_t>(Kokkos::TeamPolicy<Exec>::scratch_size_max(0));
  const GemmRoom rd = detail::gemm_layer_room<double>(Exec());
  const GemmRoom rf = detail::gemm_layer_room<float>(Exec());
  CHECK(rd.level0 == detail::level0_room(level0));
  CHECK(rf.level0 == detail::level0_room(level0));
  CHECK(rd.sms == 0);  // split-K is CUDA's
  CHECK(detail::stencil3d_zs_layer_room<float, Exec>() == detail::level0_room(level0));
  // The one function both twins call: the layer's pick is gemm_pick with its room.
  if (rd.level0 >= detail::gemm_tile_bytes<detail::GemmDefaultBlocking<double>::type, double>())
    for (const int n : {64, 1024, 3000, 8192})
      CHECK(detail::gemm_layer_pick<double>(Exec(), n, n, n) == detail::gemm_pick<double>(n, n, n, rd));
  // Host backends run the default z_streaming shape; the wide rings are CUDA's.
  CHECK(detail::stencil3d_zs_layer_pick<float, Exec>(4096).shape == Stencil3DZsKind::standard);
}
