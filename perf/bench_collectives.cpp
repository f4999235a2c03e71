// SPDX-License-Identifier: BSD-3-Clause
// Block-collective rows (kernels/collectives.hpp): each tile kernel on both
// backends, on CUB (a hand-written kernel around cub::BlockLoad/BlockScan/
// BlockReduce/BlockStore/WarpScan, perf/vendor/vendor_collectives.cu) and, for
// scan and reduce, on Kokkos' team_scan / team_reduce (parallel_scan and
// parallel_reduce over a TeamThreadRange, one team per tile). Tiles of 256
// threads x 4 or 8 items; 2^26 elements with --full (2^20 otherwise), int32
// and float. Minimal traffic: the input read once, the output written once.
// Every row of a kernel, variant, type and size has the same name but its
// backend, so report.py puts the CUB time next to the layer's and native's.
#include "harness.hpp"

#include <scratchkit/kernels/collectives.hpp>
#include "vendor/vendor.hpp"

#include <algorithm>
#include <cmath>

namespace scratchkit {
namespace perf {
namespace {

template <class T>
struct TileData {
  Operand1D<T> x;
  Kokkos::View<T*, Kokkos::LayoutRight, Mem> y, sums;
  TileData(std::size_t n, std::size_t tiles)
      : x("collectives::x", n, 22), y("collectives::y", n), sums("collectives::sums", tiles) {}
};

/// Kokkos' team size for a tile kernel: the tile's 256 threads on a GPU,
/// what the backend picks elsewhere (Serial: 1).
template <class Policy>
Policy team_policy(long long tiles) {
  if constexpr (detail::is_gpu_space<Exec>::value) {
    return Policy(Exec(), static_cast<int>(tiles), 256);
  } else {
    return Policy(Exec(), static_cast<int>(tiles), Kokkos::AUTO);
  }
}

/// Kokkos' team_scan: one team per tile, parallel_scan over a TeamThreadRange.
template <class T>
void kokkos_team_scan(const Kokkos::View<T*, Kokkos::LayoutRight, Mem>& in,
                      const Kokkos::View<T*, Kokkos::LayoutRight, Mem>& out, int tile, bool inclusive) {
  using Policy        = Kokkos::TeamPolicy<Exec>;
  const std::size_t n = in.extent(0);
  Kokkos::parallel_for(
      "scratchkit::bench::kokkos_team_scan", team_policy<Policy>(detail::tile_count(n, tile)),
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const std::size_t base = static_cast<std::size_t>(team.league_rank()) * tile;
        const int len = n - base < static_cast<std::size_t>(tile) ? static_cast<int>(n - base) : tile;
        Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, len), [&](const int i, T& partial, const bool final) {
          const T v = in(base + i);
          if (final && !inclusive) out(base + i) = partial;
          partial += v;
          if (final && inclusive) out(base + i) = partial;
        });
      });
}

/// Kokkos' team_reduce: one team per tile, parallel_reduce over a TeamThreadRange.
template <class T>
void kokkos_team_reduce(const Kokkos::View<T*, Kokkos::LayoutRight, Mem>& in,
                        const Kokkos::View<T*, Kokkos::LayoutRight, Mem>& out, int tile) {
  using Policy        = Kokkos::TeamPolicy<Exec>;
  const std::size_t n = in.extent(0);
  Kokkos::parallel_for(
      "scratchkit::bench::kokkos_team_reduce", team_policy<Policy>(detail::tile_count(n, tile)),
      KOKKOS_LAMBDA(const typename Policy::member_type& team) {
        const std::size_t base = static_cast<std::size_t>(team.league_rank()) * tile;
        const int len = n - base < static_cast<std::size_t>(tile) ? static_cast<int>(n - base) : tile;
        T s           = 0;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, len), [&](const int i, T& acc) { acc += in(base + i); }, s);
        if (team.team_rank() == 0) out(team.league_rank()) = s;
      });
}

/// Each tile's scan (inclusive or exclusive from 0) against the sequential
/// one: integers exact; floats within gamma_depth * sum |x| of the tile so far.
template <class T>
bool check_tile_scans(const T* x, const T* y, std::size_t n, int tile, bool inclusive, long long depth) {
  const double g = check::gamma<T>(depth);
  for (std::size_t base = 0; base < n; base += tile) {
    long double s = 0, abs = 0;
    const std::size_t end = std::min(n, base + tile);
    for (std::size_t k = base; k < end; ++k) {
      if (inclusive) s += x[k], abs += std::fabs(static_cast<long double>(x[k]));
      const long double e = std::fabs(static_cast<long double>(y[k]) - s);
      if (std::is_floating_point<T>::value ? e > g * abs : e != 0) return false;
      if (!inclusive) s += x[k], abs += std::fabs(static_cast<long double>(x[k]));
    }
  }
  return true;
}
template <class T>
bool check_tile_sums(const T* x, const T* sums, std::size_t n, int tile, long long depth) {
  const double g = check::gamma<T>(depth);
  for (std::size_t base = 0, k = 0; base < n; base += tile, ++k) {
    long double s = 0, abs = 0;
    for (std::size_t j = base; j < std::min(n, base + tile); ++j) s += x[j], abs += std::fabs(static_cast<long double>(x[j]));
    const long double e = std::fabs(static_cast<long double>(sums[k]) - s);
    if (std::is_floating_point<T>::value ? e > g * abs : e != 0) return false;
  }
  return true;
}

template <class T>
void add(const Config& c, std::vector<Case>& cases, std::size_t n, const std::string& size) {
  constexpr int BS = 256;
  for (const int items : {4, 8}) {
    const int tile          = BS * items;
    const std::size_t tiles = static_cast<std::size_t>(detail::tile_count(n, tile));
    const std::string shape = std::to_string(BS) + "x" + std::to_string(items);
    const std::string key   = std::string("collectives/") + type_name<T>() + "/" + size + "/" + shape;
    auto data = [key, n, tiles] {
      return data_cache().get<TileData<T>>(key, [n, tiles] { return TileData<T>(n, tiles); });
    };
    auto row = [&](const std::string& kernel, const std::string& variant, const std::string& backend, double bytes) {
      Case k{kernel, variant, backend, type_name<T>(), size};
      k.bytes   = bytes;
      k.flops   = static_cast<double>(n);
      k.prepare = [data] { data(); };
      return k;
    };
    const double rw = 2.0 * static_cast<double>(n) * sizeof(T);
    // The layer's and native's trees (tests/test_collectives.cpp); CUB and
    // Kokkos: no documented order, held to any order of the tile (tile - 1).
    // Warps of `lanes` (warp_size: 64 on AMD GPUs), log2(lanes) rounds a warp tree.
    const int lanes  = warp_size<Exec>();
    long long rounds = 0;
    while ((1 << rounds) < lanes) ++rounds;
    const long long twin_scan = 2 * (items - 1) + rounds + 2 + BS / lanes, twin_sum = items + rounds - 2 + BS / lanes,
                    any       = tile;
    auto scan_check = [data, n, tile](bool inclusive, long long depth) {
      return [data, n, tile, inclusive, depth] {
        auto d        = data();
        const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->y);
        return check_tile_scans(d->x.h.data(), hy.data(), n, tile, inclusive, depth);
      };
    };
    auto sum_check = [data, n, tile](long long depth) {
      return [data, n, tile, depth] {
        auto d        = data();
        const auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->sums);
        return check_tile_sums(d->x.h.data(), hs.data(), n, tile, depth);
      };
    };

    for (auto kind : {ScanKind::inclusive, ScanKind::exclusive}) {
      const bool incl           = kind == ScanKind::inclusive;
      const std::string variant = std::string(name(kind)) + "_" + shape;
      for (auto b : backends(c)) {
        Case k  = row("tile_scan", variant, backend_name(b), rw);
        k.run   = [data, kind, items, b] {
          auto d = data();
          tile_scan(Exec(), kind, d->x.d, d->y, BS, items, b);
        };
        k.check = scan_check(incl, twin_scan);
        cases.push_back(k);
      }
      {
        Case k  = row("tile_scan", variant, "kokkos-builtin", rw);
        k.run   = [data, tile, incl] {
          auto d = data();
          kokkos_team_scan<T>(d->x.d, d->y, tile, incl);
        };
        k.check = scan_check(incl, any);
        cases.push_back(k);
      }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
      if (c.vendor) {
        Case k  = row("tile_scan", variant, "vendor", rw);
        k.run   = [data, kind, items] {
          auto d = data();
          native::cuda::vendor::tile_scan(kind, d->x.d.data(), d->y.data(), d->x.d.size(), BS, items,
                                          Exec().cuda_stream());
        };
        k.check = scan_check(incl, any);
        cases.push_back(k);
      }
#endif
    }

    const double rsum = static_cast<double>(n + tiles) * sizeof(T);
    for (auto b : backends(c)) {
      Case k  = row("tile_reduce", shape, backend_name(b), rsum);
      k.run   = [data, items, b] {
        auto d = data();
        tile_reduce(Exec(), d->x.d, d->sums, BS, items, b);
      };
      k.check = sum_check(twin_sum);
      cases.push_back(k);
    }
    {
      Case k  = row("tile_reduce", shape, "kokkos-builtin", rsum);
      k.run   = [data, tile] {
        auto d = data();
        kokkos_team_reduce<T>(d->x.d, d->sums, tile);
      };
      k.check = sum_check(any);
      cases.push_back(k);
    }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
    if (c.vendor) {
      Case k  = row("tile_reduce", shape, "vendor", rsum);
      k.run   = [data, items] {
        auto d = data();
        native::cuda::vendor::tile_reduce(d->x.d.data(), d->sums.data(), d->x.d.size(), BS, items,
                                          Exec().cuda_stream());
      };
      k.check = sum_check(any);
      cases.push_back(k);
    }
#endif

    if (items == 4) {  // one element a lane: the items do not matter
      auto warp_check = [data, n](int lanes, long long depth) {
        return [data, n, lanes, depth] {
          auto d        = data();
          const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->y);
          return check_tile_scans(d->x.h.data(), hy.data(), n, lanes, true, depth);
        };
      };
      for (auto b : backends(c)) {
        Case k  = row("tile_warp_scan", "256", backend_name(b), rw);
        k.run   = [data, b] {
          auto d = data();
          tile_warp_scan(Exec(), d->x.d, d->y, BS, b);
        };
        // Kogge-Stone: log2(lanes) rounds (the native twin is CUDA's: 32 lanes, 5 rounds).
        k.check = b == Backend::native ? warp_check(32, 5) : warp_check(lanes, rounds);
        cases.push_back(k);
      }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
      if (c.vendor) {
        Case k  = row("tile_warp_scan", "256", "vendor", rw);
        k.run   = [data] {
          auto d = data();
          native::cuda::vendor::tile_warp_scan(d->x.d.data(), d->y.data(), d->x.d.size(), BS, Exec().cuda_stream());
        };
        k.check = warp_check(32, 31);  // CUB's order is not documented: any order over 32 lanes
        cases.push_back(k);
      }
#endif
    }

    if constexpr (std::is_same<T, std::int32_t>::value) {  // a copy: 4-byte elements stand for every type
      auto copy_check = [data, n] {
        return [data, n] {
          auto d        = data();
          const auto hy = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->y);
          return std::equal(hy.data(), hy.data() + n, d->x.h.data());
        };
      };
      for (auto v : {ExchangeVariant::warp_transpose, ExchangeVariant::transpose}) {
        const std::string variant = std::string(name(v)) + "_" + shape;
        for (auto b : backends(c)) {
          Case k  = row("tile_exchange", variant, backend_name(b), rw);
          k.flops = 0;
          k.run   = [data, v, items, b] {
            auto d = data();
            tile_exchange(Exec(), v, d->x.d, d->y, BS, items, b);
          };
          k.check = copy_check();
          cases.push_back(k);
        }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
        if (c.vendor) {
          Case k  = row("tile_exchange", variant, "vendor", rw);
          k.flops = 0;
          k.run   = [data, v, items] {
            auto d = data();
            native::cuda::vendor::tile_exchange(v, d->x.d.data(), d->y.data(), d->x.d.size(), BS, items,
                                                Exec().cuda_stream());
          };
          k.check = copy_check();
          cases.push_back(k);
        }
#endif
      }
    }
  }
}

}  // namespace

void add_collectives_cases(const Config& c, std::vector<Case>& cases) {
  for (const int e : sweep_exponents(c, host_full(c) ? 24 : c.full ? 26 : 20)) {
    const std::size_t n    = std::size_t(1) << e;
    const std::string size = "2^" + std::to_string(e);
    add<std::int32_t>(c, cases, n, size);
    add<float>(c, cases, n, size);
  }
}

}  // namespace perf
}  // namespace scratchkit
