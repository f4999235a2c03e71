// SPDX-License-Identifier: BSD-3-Clause
// 3-D 7-point stencil rows: both variants on both backends, on LayoutRight and LayoutLeft Views.
// Minimal traffic: in read once, out written once: 2 n^3 elements; 8 FLOPs per interior point.
#include "harness.hpp"
#include "plain_kokkos.hpp"

#include <scratchkit/kernels/stencil_3d.hpp>

#include <cstdlib>
#include <limits>

namespace scratchkit {
namespace perf {
namespace {

/// in and out of n^3 in Layout. The reference reads their memory as a row-major array: on LayoutLeft
/// that is the grid with its axes reversed, the same stencil (docs/layouts.md).
template <class T, class Layout = Kokkos::LayoutRight>
struct Stencil3DData {
  using View = Kokkos::View<T***, Layout, Mem>;
  int n;
  View in, out;
  typename View::host_mirror_type hin;
  explicit Stencil3DData(int n_)
      : n(n_),
        in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stencil_3d::in"), n_, n_, n_),
        out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stencil_3d::out"), n_, n_, n_),
        hin(Kokkos::create_mirror(in)) {
    fill_random(hin, 8);
    Kokkos::deep_copy(in, hin);
  }
};

template <class T, class Layout = Kokkos::LayoutRight>
void add(const Config& c, std::vector<Case>& cases, int n) {
  using D                = Stencil3DData<T, Layout>;
  const std::string size = std::to_string(n) + "^3";
  const std::string key  = std::string("stencil_3d/") + type_name<T>() + "/" + layout_name<Layout>() + "/" + size;
  auto data = [key, n] { return data_cache().get<D>(key, [n] { return D(n); }); };
  const T c0 = T(0.4), c1 = T(0.1);  // a heat step with alpha = 0.1
  const double interior = static_cast<double>(n - 2) * (n - 2) * (n - 2);
  for (auto v : {Stencil3DVariant::tile_2d_halo, Stencil3DVariant::z_streaming})
    for (auto b : backends(c)) {
      Case k{"stencil_3d_7pt", name(v), backend_name(b), type_name<T>(), size};
      k.layout  = layout_name<Layout>();
      k.bytes   = 2.0 * n * n * n * sizeof(T);
      k.flops   = 8.0 * interior;
      k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
      k.run     = [data, v, b, c0, c1] {
        auto d = data();
        stencil_3d_7pt(Exec(), v, d->in, d->out, c0, c1, b);
      };
      k.check = [data, c0, c1] {
        auto d = data();
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
        return check::stencil_3d_7pt<T>(d->hin.data(), h.data(), d->n, d->n, d->n, c0, c1).passed();
      };
      cases.push_back(k);
    }
  if (plain_rows()) {
    Case k{"stencil_3d_7pt", "mdrange", "plain-kokkos", type_name<T>(), size};
    k.layout  = layout_name<Layout>();
    k.bytes   = 2.0 * n * n * n * sizeof(T);
    k.flops   = 8.0 * interior;
    k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
    k.run     = [data, c0, c1] {
      auto d = data();
      plain::stencil_3d_7pt(Exec(), d->in, d->out, c0, c1);
    };
    k.check = [data, c0, c1] {
      auto d = data();
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
      return check::stencil_3d_7pt<T>(d->hin.data(), h.data(), d->n, d->n, d->n, c0, c1).passed();
    };
    cases.push_back(k);
  }
  // SCRATCHKIT_BENCH_STENCIL3D_SHAPES=1: layer rows of z_streaming candidates besides the
  // default (variant "z_streaming:<what>"), to compare with the default rows of the same run:
  // "xs0" = the default shape on the plain x tile grid (the default cuts it from the data's
  // alignment, detail::stencil3d_tile_shift); float "regs128x16" = the layer shape of 079dc4c
  // (the register pipeline, Stencil3DZsLayerRegsFloat).
  if (!std::is_same<Layout, Kokkos::LayoutRight>::value || std::getenv("SCRATCHKIT_BENCH_STENCIL3D_SHAPES") == nullptr)
    return;
  using Default = detail::Stencil3DZsDefault<T>;
  using Regs    = detail::Stencil3DZsLayerRegsFloat;
  const auto row = [&](const std::string& what, int shape, int xs) {
    Case k{"stencil_3d_7pt", "z_streaming:" + what, "layer", type_name<T>(), size};
    k.bytes   = 2.0 * n * n * n * sizeof(T);
    k.flops   = 8.0 * interior;
    k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
    k.run     = [data, shape, xs, c0, c1] {
      auto d                              = data();
      const long long nn                  = d->n;
      const detail::Stencil3DIndex<true> ix{nn * nn, nn, 1};
      if (shape == 0)
        detail::stencil_3d_zs_at<Default, true, true>(Exec(), d->in, d->out, c0, c1, ix, ix, xs);
      else
        detail::stencil_3d_zs_at<Regs, true, true>(Exec(), d->in, d->out, c0, c1, ix, ix, xs);
    };
    k.check = [data, c0, c1] {
      auto d = data();
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
      return check::stencil_3d_7pt<T>(d->hin.data(), h.data(), d->n, d->n, d->n, c0, c1).passed();
    };
    cases.push_back(k);
  };
  row("xs0", 0, 0);
  if (sizeof(T) == 4) {
    row("regs128x16", 1, -1);
    row("regs128x16.xs0", 1, 0);
  }
}

}  // namespace

// Compiled in two parts (perf/CMakeLists.txt): float here, double in part 1, each unit under a minute.
#if SCRATCHKIT_BENCH_PART == 0
void add_stencil_3d_cases(const Config& c, std::vector<Case>& cases) {
  for (const int n : sweep_edges(c, 32, host_full(c) ? 256 : c.full ? 512 : 64)) {
    add<float>(c, cases, n);
    add<float, Kokkos::LayoutLeft>(c, cases, n);
    add_stencil_3d_double_cases(c, cases, n);
  }
}
#else
void add_stencil_3d_double_cases(const Config& c, std::vector<Case>& cases, int n) {
  add<double>(c, cases, n);
  add<double, Kokkos::LayoutLeft>(c, cases, n);
}
#endif

}  // namespace perf
}  // namespace scratchkit
