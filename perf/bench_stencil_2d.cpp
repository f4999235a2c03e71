// SPDX-License-Identifier: BSD-3-Clause
// 2-D stencil rows: star and box, radius 1 and 2, zero boundary, on both backends, and the host's
// plain Kokkos yardstick (below). Minimal traffic: in read once, out written once: 2 n elements;
// 2 m n FLOPs for m taps. The copy rows (bench_copy.cpp) are the ceiling.
#include "harness.hpp"

#include <scratchkit/kernels/stencil_2d.hpp>
#include <scratchkit/reference/stencil_2d.hpp>

#include <limits>
#include <string>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

/// What a CPU Kokkos user writes: an MDRangePolicy over the grid, the taps in the layer's order
/// (a outer, b inner), the interior without tests; zero boundary.
template <int R, bool Star, class InView, class WView, class OutView>
void plain_stencil_2d(const InView& in, const WView& w, const OutView& out) {
  using T     = typename OutView::non_const_value_type;
  const int n0 = static_cast<int>(in.extent(0)), n1 = static_cast<int>(in.extent(1));
  using Pol    = Kokkos::MDRangePolicy<Exec, Kokkos::Rank<2, Kokkos::Iterate::Right, Kokkos::Iterate::Right>>;
  Kokkos::parallel_for("scratchkit::bench::plain_stencil_2d", Pol(Exec(), {0, 0}, {n0, n1}), KOKKOS_LAMBDA(int i, int j) {
    T s = 0;
    if (i >= R && i + R < n0 && j >= R && j + R < n1) {
      for (int a = 0; a <= 2 * R; ++a)
        for (int b = 0; b <= 2 * R; ++b)
          if (!Star || a == R || b == R) s += w(a, b) * in(i + a - R, j + b - R);
    } else {
      for (int a = 0; a <= 2 * R; ++a)
        for (int b = 0; b <= 2 * R; ++b) {
          const int y = i + a - R, x = j + b - R;
          if ((!Star || a == R || b == R) && y >= 0 && y < n0 && x >= 0 && x < n1) s += w(a, b) * in(y, x);
        }
    }
    out(i, j) = s;
  });
}

template <class T>
struct Stencil2DData {
  Kokkos::View<T**, Kokkos::LayoutRight, Mem> in, w, out;
  std::vector<T> hin, hw;
  Stencil2DData(int n0, int n1, int R)
      : in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stencil_2d::in"), n0, n1),
        w("stencil_2d::w", 2 * R + 1, 2 * R + 1),
        out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stencil_2d::out"), n0, n1),
        hin(std::size_t(n0) * n1), hw(std::size_t(2 * R + 1) * (2 * R + 1)) {
    Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> xi(hin.data(), hin.size()),
        xw(hw.data(), hw.size());
    fill_random(xi, 21);
    fill_random(xw, 22 + R);
    Kokkos::deep_copy(in, Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                       Kokkos::MemoryTraits<Kokkos::Unmanaged>>(hin.data(), n0, n1));
    Kokkos::deep_copy(w, Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(hw.data(), 2 * R + 1, 2 * R + 1));
  }
};

template <class T, int R>
void add(const Config& c, std::vector<Case>& cases, int n, const std::string& size) {
  const std::string key = std::string("stencil_2d/") + type_name<T>() + "/r" + std::to_string(R) + "/" + size;
  auto data = [key, n] { return data_cache().get<Stencil2DData<T>>(key, [n] { return Stencil2DData<T>(n, n, R); }); };
  for (auto shape : {Stencil2DShape::star, Stencil2DShape::box}) {
    std::vector<std::string> rows;
    for (auto b : backends(c)) rows.push_back(backend_name(b));
    if (plain_rows()) rows.push_back("plain-kokkos");
    for (const auto& backend : rows) {
      const bool plain = backend == "plain-kokkos";
      const Backend b  = backend == "native" ? Backend::native : Backend::layer;
      // One kernel name per shape and radius: report.py holds a layer row to the plain row of its kernel.
      Case k{std::string("stencil_2d_") + name(shape) + "_r" + std::to_string(R), plain ? "mdrange" : "halo_tile",
             backend, type_name<T>(), size};
      const double cells = double(n) * n;
      k.bytes   = 2.0 * cells * sizeof(T);
      k.flops   = 2.0 * stencil_2d_points(shape, R) * cells;
      k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
      k.run     = [data, shape, b, plain] {
        auto d = data();
        if (plain && shape == Stencil2DShape::star)
          plain_stencil_2d<R, true>(d->in, d->w, d->out);
        else if (plain)
          plain_stencil_2d<R, false>(d->in, d->w, d->out);
        else
          stencil_2d(Exec(), shape, d->in, d->w, d->out, Boundary::zero, b);
      };
      k.check = [data, shape, n] {
        auto d = data();
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
        return check::stencil_2d<T>(shape, Boundary::zero, R, d->hin.data(), d->hw.data(), h.data(), n, n).passed();
      };
      cases.push_back(k);
    }
  }
}

}  // namespace

void add_stencil_2d_cases(const Config& c, std::vector<Case>& cases) {
  // n x n grids: 2^14 on a side (2^28 points, as the 1-D rows) with --full on a GPU, 2^12 on a host.
  for (const int e : sweep_edges(c, 1 << 7, host_full(c) ? 1 << 12 : c.full ? 1 << 14 : 1 << 10)) {
    const std::string size = std::to_string(e) + "^2";
    add<float, 1>(c, cases, e, size);
    add<float, 2>(c, cases, e, size);
    add<double, 1>(c, cases, e, size);
    add<double, 2>(c, cases, e, size);
  }
}

}  // namespace perf
}  // namespace scratchkit
