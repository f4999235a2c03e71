// SPDX-License-Identifier: BSD-3-Clause
// 1-D stencil rows (radius 3): every variant on both backends.
// Minimal traffic: in read once, out written once (the 7 weights are noise): 2n elements; 2(2R+1)n FLOPs.
#include "harness.hpp"

#include <scratchkit/kernels/stencil_1d.hpp>
#include "plain_kokkos.hpp"

#include <limits>
#include <utility>
#include <vector>

namespace scratchkit {
namespace perf {
namespace {

constexpr int R = 3;

template <class T>
struct StencilData {
  Operand1D<T> in, w;
  Kokkos::View<T*, Mem> out;
  explicit StencilData(std::size_t n)
      : in("stencil_1d::in", n, 4), w("stencil_1d::w", 2 * R + 1, 5),
        out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "stencil_1d::out"), n) {}
};

template <class T>
void add(const Config& c, std::vector<Case>& cases, std::size_t n, const std::string& size) {
  const std::string key = std::string("stencil_1d/") + type_name<T>() + "/" + size;
  auto data = [key, n] { return data_cache().get<StencilData<T>>(key, [n] { return StencilData<T>(n); }); };
  std::vector<std::pair<std::string, std::string>> rows;  // (variant, backend)
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized})
    for (auto b : backends(c)) rows.emplace_back(name(v), backend_name(b));
  if (plain_rows()) rows.emplace_back("range", "plain-kokkos");
  for (const auto& vb : rows) {
      const bool plain = vb.second == "plain-kokkos";
      const Stencil1DVariant v = vb.first == "vectorized" ? Stencil1DVariant::vectorized : Stencil1DVariant::halo_tile;
      const Backend b = vb.second == "native" ? Backend::native : Backend::layer;
      Case k{"stencil_1d_r3", vb.first, vb.second, type_name<T>(), size};
      k.bytes   = 2.0 * n * sizeof(T);
      k.flops   = 2.0 * (2 * R + 1) * n;
      k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
      k.run     = [data, v, b, plain] {
        auto d = data();
        if (plain)
          plain::stencil_1d<R>(Exec(), d->in.d, d->w.d, d->out);
        else
          stencil_1d(Exec(), v, d->in.d, d->w.d, d->out, b);
      };
      k.check = [data] {
        auto d = data();
        auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
        return check::stencil_1d<T>(d->in.h.data(), d->w.h.data(), R, h.data(), static_cast<int>(h.size())).passed();
      };
      cases.push_back(k);
    }
}

}  // namespace

void add_stencil_1d_cases(const Config& c, std::vector<Case>& cases) {
  for (const int e : sweep_exponents(c, host_full(c) ? 24 : c.full ? 28 : 20)) {
    const std::size_t n = std::size_t(1) << e;
    const std::string size = "2^" + std::to_string(e);
    add<float>(c, cases, n, size);
    add<double>(c, cases, n, size);
  }
}

}  // namespace perf
}  // namespace scratchkit
