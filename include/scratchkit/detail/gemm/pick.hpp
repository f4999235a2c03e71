// SPDX-License-Identifier: BSD-3-Clause
/// Which of the GEMM policy's blockings an M x N x K product runs with on a GPU: one pick, both twins.
///
/// gemm_pick is the only place the choice is made: the layer calls it with the
/// room its launch path has (detail::gemm_layer_room) and hands the answer to
/// the native twin (native::cuda::detail::gemm's `pick`, detail/gemm/native.hpp),
/// which dispatches on it; a direct native call picks with the device's own
/// room. No Kokkos or CUDA header is needed to call it.
#pragma once

#include <scratchkit/detail/gemm/split_k.hpp>
#include <scratchkit/detail/gemm/tile_copy.hpp>
#include <scratchkit/detail/macros.hpp>
#include <scratchkit/detail/scratch_room.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/tuning/gemm.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace scratchkit {
namespace detail {

/// The GEMM policy of this build's GPU (tuning::GemmPolicy at tuning::cuda_arch):
/// what both twins run on a GPU.
template <class Scalar>
using GemmDefaultBlocking = tuning::GemmPolicy<tuning::cuda_arch, Scalar>;

/// 128 x 128 tiles of an M x N product C: what the default blockings' picks count.
SCRATCHKIT_HOST_DEVICE constexpr long long gemm_tiles_128(int M, int N) {
  // In 64 bits before the rounding: M + 127 overflows int for M above INT_MAX - 127.
  return ((static_cast<long long>(M) + 127) / 128) * ((static_cast<long long>(N) + 127) / 128);
}

/// Which of GemmDefaultBlocking<double>'s large blockings an M x N product runs with (both twins):
/// true for small_type.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_mma_pick_small(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::small_below_tiles;
}

/// True where an M x N product of double runs GemmDefaultBlocking<double>::tiny_type on a GPU (both
/// twins): fewer 128 x 128 tiles than tiny_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_tiny(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::tiny_below_tiles;
}

/// True where an M x N double product runs GemmDefaultBlocking<double>::few_type on a GPU (both twins) when
/// neither small_type nor large_type fits the launch: fewer 128 x 128 tiles than fallback_few_below_tiles.
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_fallback_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<double>::fallback_few_below_tiles;
}

/// True where an M x N product of Scalar runs GemmDefaultBlocking<Scalar>::few_type on a GPU (both twins):
/// fewer 128 x 128 tiles than few_below_tiles (double: and not gemm_pick_tiny, where tiny_type fits).
template <class Scalar>
SCRATCHKIT_HOST_DEVICE constexpr bool gemm_pick_few(int M, int N) {
  return gemm_tiles_128(M, N) < GemmDefaultBlocking<Scalar>::few_below_tiles;
}

/// Which of GemmDefaultBlocking<Scalar>'s register_blocked blockings a GPU product runs (both twins):
/// tiny_type, few_type, small_type, large_type (double only), or fallback: the policy's `type` (the native
/// twin runs float's as native_type, the same tiles in its own lane order).
enum class GemmBlockingKind : unsigned char { tiny, few, small, large, fallback };

/// Kind K's blocking Blk, as a gemm_visit_blocking visitor receives it.
template <GemmBlockingKind K, class Blk>
struct GemmBlockingTag {
  static constexpr GemmBlockingKind kind = K;
  using type                             = Blk;
};

/// The one map from a kind to GemmDefaultBlocking<Scalar>'s blocking type (the pick's bytes and fits,
/// the layer's and the native twin's dispatch, the tests): f(GemmBlockingTag<kind, blocking>{}), with
/// fallback the policy's `type`; missing() for a kind Scalar has no blocking of (float has only few
/// and fallback). f returns the same type for every kind, as missing() does.
template <class Scalar, class F, class Missing>
constexpr decltype(auto) gemm_visit_blocking(GemmBlockingKind k, F&& f, Missing&& missing) {
  using D = GemmDefaultBlocking<Scalar>;
  if (k == GemmBlockingKind::few) return f(GemmBlockingTag<GemmBlockingKind::few, typename D::few_type>{});
  if (k == GemmBlockingKind::fallback) return f(GemmBlockingTag<GemmBlockingKind::fallback, typename D::type>{});
  if constexpr (std::is_same<Scalar, double>::value) {
    if (k == GemmBlockingKind::tiny) return f(GemmBlockingTag<GemmBlockingKind::tiny, typename D::tiny_type>{});
    if (k == GemmBlockingKind::small) return f(GemmBlockingTag<GemmBlockingKind::small, typename D::small_type>{});
    if (k == GemmBlockingKind::large) return f(GemmBlockingTag<GemmBlockingKind::large, typename D::large_type>{});
  }
  return missing();
}

/// What one launch path gives a register_blocked block, all the pick reads of a device.
struct GemmRoom {
  std::size_t level0 = 0;  ///< bytes the block's shared tiles may take (detail::level0_room of the layer's limit)
  std::size_t per_sm = 0;  ///< shared memory per SM, for the tensor-core blockings' blocks per SM; 0: not checked
  int sms            = 0;  ///< SMs a few-tile product's split-K is planned for; 0: never split
};

/// The blocking and split-K one register_blocked product runs with on a GPU (gemm_pick).
struct GemmPick {
  GemmBlockingKind blocking = GemmBlockingKind::fallback;
  GemmSplit split{};  ///< few_type only (gemm_split_plan); splits == 1 elsewhere
  friend constexpr bool operator==(const GemmPick& a, const GemmPick& b) {
    return a.blocking == b.blocking && a.split.splits == b.split.splits && a.split.per == b.split.per;
  }
  friend constexpr bool operator!=(const GemmPick& a, const GemmPick& b) { return !(a == b); }
};

/// Bytes of shared tiles blocking Blk takes for Scalar (both twins): a GemmMmaBlocking's stages, a
/// GemmBlocking's A^T and B double buffers (each 16-byte aligned, as the layer declares them).
template <class Blk, class Scalar>
constexpr std::size_t gemm_tile_bytes() {
  if constexpr (Blk::tensor_core) {
    return static_cast<std::size_t>(Blk::smem_bytes);
  } else {
    using Sh = GemmRbShape<Blk, Scalar>;
    const std::size_t a = static_cast<std::size_t>(Sh::a_size) * sizeof(Scalar);
    return (a + 15) / 16 * 16 + static_cast<std::size_t>(Sh::b_size) * sizeof(Scalar);
  }
}

/// Bytes of an SM's shared memory one tensor-core block costs beside its rounded tiles: the layer's
/// 128-byte slack, the CUDA block driver's team space (under 2 KB at 256 threads), the 1 KB CUDA keeps.
constexpr std::size_t gemm_block_overhead = 128 + 2048 + 1024;

/// Whether blocking Blk of Scalar fits `room`: its tiles in room.level0 and, for a tensor-core blocking
/// (whose launch bounds ask for Blk::min_blocks per SM), that many blocks in room.per_sm where known.
template <class Blk, class Scalar>
constexpr bool gemm_fits(const GemmRoom& room) {
  constexpr std::size_t bytes = gemm_tile_bytes<Blk, Scalar>();
  if (bytes > room.level0) return false;
  if constexpr (Blk::tensor_core)
    return room.per_sm == 0 ||
           static_cast<std::size_t>(Blk::min_blocks) * (scratch_room_rounded(bytes) + gemm_block_overhead) <= room.per_sm;
  return true;
}

/// Bytes of shared tiles the blocking of kind k of GemmDefaultBlocking<Scalar> takes (gemm_tile_bytes;
/// a kind Scalar has none of: `type`'s).
template <class Scalar>
constexpr std::size_t gemm_tile_bytes_of(GemmBlockingKind k) {
  return gemm_visit_blocking<Scalar>(
      k, [](auto tag) { return gemm_tile_bytes<typename decltype(tag)::type, Scalar>(); },
      [] { return gemm_tile_bytes<typename GemmDefaultBlocking<Scalar>::type, Scalar>(); });
}
static_assert(gemm_tile_bytes<GemmDefaultBlocking<float>::type, float>() ==
                  gemm_tile_bytes<GemmDefaultBlocking<float>::native_type, float>(),
              "the native twin's float blocking takes the tiles of the layer's (the pick counts the layer's)");

/// Largest team among GemmDefaultBlocking<Scalar>'s blockings: the layer reads a level 0 that shrinks with
/// the team (its CUDA block driver keeps (threads + 2) doubles) at this size, so every pick can launch.
template <class Scalar>
constexpr int gemm_pick_threads() {
  using D = GemmDefaultBlocking<Scalar>;
  if constexpr (std::is_same<Scalar, double>::value) {
    constexpr int t[] = {D::tiny_type::threads, D::few_type::threads, D::small_type::threads,
                         D::large_type::threads, D::type::threads};
    int m = 0;
    for (int x : t) m = x > m ? x : m;
    return m;
  } else {
    return D::few_type::threads > D::type::threads ? D::few_type::threads : D::type::threads;
  }
}

/// The error of a pick where no blocking fits: the room and the least the product's blocking needs.
[[noreturn]] inline void gemm_pick_error(const char* type, int M, int N, const GemmRoom& room, std::size_t need) {
  throw LaunchError(std::string("scratchkit::gemm: register_blocked (") + type + ") of " + std::to_string(M) + " x " +
                    std::to_string(N) + " has no blocking that fits the launch: " + std::to_string(need) +
                    " bytes of shared tiles needed, " + std::to_string(room.level0) + " bytes of level 0 per block (" +
                    std::to_string(room.per_sm) + " per SM) available");
}

/// The register_blocked blocking an M x N x K product of Scalar runs on a GPU with `room` (both twins; M, N,
/// K >= 0). double: tiny_type under tiny_below_tiles 128 x 128 tiles (gemm_pick_tiny), few_type under
/// few_below_tiles (gemm_pick_few); else small_type or large_type by size (gemm_mma_pick_small); where the
/// one chosen does not fit, few_type under fallback_few_below_tiles (gemm_pick_fallback_few), then `type`:
/// each rung taken only where it fits (gemm_fits). float: few_type under few_below_tiles, else `type`.
/// few_type is split along K for room.sms SMs (gemm_split_plan). Throws LaunchError where the last rung does
/// not fit. A larger room.level0 (the same per_sm) never takes a blocking of fewer tile bytes
/// (tests/test_pick.cpp sweeps it for this build's policy).
template <class Scalar>
constexpr GemmPick gemm_pick(int M, int N, int K, const GemmRoom& room) {
  static_assert(std::is_same<Scalar, float>::value || std::is_same<Scalar, double>::value,
                "gemm_pick: float or double");
  using D = GemmDefaultBlocking<Scalar>;
  using Few = typename D::few_type;
  GemmPick p;
  const auto few = [&] {
    p.blocking = GemmBlockingKind::few;
    p.split    = gemm_split_plan<Few>(M, N, K, room.sms);
    return p;
  };
  if constexpr (std::is_same<Scalar, double>::value) {
    if (gemm_pick_tiny(M, N) && gemm_fits<typename D::tiny_type, double>(room)) {
      p.blocking = GemmBlockingKind::tiny;  // never split
      return p;
    }
    if (gemm_pick_few<double>(M, N) && gemm_fits<Few, double>(room)) return few();
    if (gemm_mma_pick_small(M, N)) {
      if (gemm_fits<typename D::small_type, double>(room)) {
        p.blocking = GemmBlockingKind::small;
        return p;
      }
    } else if (gemm_fits<typename D::large_type, double>(room)) {
      p.blocking = GemmBlockingKind::large;
      return p;
    }
    if (gemm_pick_fallback_few(M, N) && gemm_fits<Few, double>(room)) return few();
    if (!gemm_fits<typename D::type, double>(room))
      gemm_pick_error("double", M, N, room, gemm_tile_bytes<typename D::type, double>());
    return p;
  } else {
    if (gemm_pick_few<Scalar>(M, N)) {
      if (!gemm_fits<Few, Scalar>(room)) gemm_pick_error("float", M, N, room, gemm_tile_bytes<Few, Scalar>());
      return few();
    }
    if (!gemm_fits<typename D::type, Scalar>(room))
      gemm_pick_error("float", M, N, room, gemm_tile_bytes<typename D::type, Scalar>());
    return p;
  }
}

}  // namespace detail
}  // namespace scratchkit
