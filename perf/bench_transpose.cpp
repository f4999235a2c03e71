// SPDX-License-Identifier: BSD-3-Clause
// Transpose rows: every variant on both backends, on LayoutRight and LayoutLeft Views.
// Minimal traffic: in read once, out written once: 2 rows x cols elements; no FLOPs.
#include "harness.hpp"
#include "plain_kokkos.hpp"
#include "raw_kokkos.hpp"

#include <scratchkit/kernels/transpose.hpp>

#include <limits>

namespace scratchkit {
namespace perf {
namespace {

template <class T, class Layout = Kokkos::LayoutRight>
struct TransposeData {
  using View = Kokkos::View<T**, Layout, Mem>;
  View in, out;
  typename View::host_mirror_type hin;
  explicit TransposeData(int n)
      : in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "transpose::in"), n, n),
        out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "transpose::out"), n, n),
        hin(Kokkos::create_mirror(in)) {
    fill_random(hin, 6);
    Kokkos::deep_copy(in, hin);
  }
};

template <class T, class Layout = Kokkos::LayoutRight>
void add(const Config& c, std::vector<Case>& cases, int n) {
  using D                = TransposeData<T, Layout>;
  const std::string size = std::to_string(n) + "^2";
  const std::string key  = std::string("transpose/") + type_name<T>() + "/" + layout_name<Layout>() + "/" + size;
  auto data = [key, n] { return data_cache().get<D>(key, [n] { return D(n); }); };
  auto check = [data, n] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->out);
    for (int r = 0; r < n; ++r)
      for (int col = 0; col < n; ++col)
        if (!(h(col, r) == d->hin(r, col))) return false;
    return true;
  };
  for (auto v : {TransposeVariant::naive, TransposeVariant::tiled, TransposeVariant::tiled_padded})
    for (auto b : backends(c)) {
      Case k{"transpose", name(v), backend_name(b), type_name<T>(), size};
      k.layout  = layout_name<Layout>();
      k.bytes   = 2.0 * n * n * sizeof(T);
      k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
      k.run     = [data, v, b] {
        auto d = data();
        transpose(Exec(), v, d->in, d->out, b);
      };
      k.check   = check;
      cases.push_back(k);
    }
  if (plain_rows()) {
    Case k{"transpose", "mdrange", "plain-kokkos", type_name<T>(), size};
    k.layout  = layout_name<Layout>();
    k.bytes   = 2.0 * n * n * sizeof(T);
    k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
    k.run     = [data] {
      auto d = data();
      plain::transpose(Exec(), d->in, d->out);
    };
    k.check   = check;
    cases.push_back(k);
  }
  if (!std::is_same<Layout, Kokkos::LayoutRight>::value) return;  // the raw Kokkos row: LayoutRight only
  if (c.native) {
    // tiled_padded written directly on Kokkos team scratch (perf/raw_kokkos.hpp): layer vs raw Kokkos.
    Case k{"transpose", "raw_kokkos_tiled_padded", "kokkos-builtin", type_name<T>(), size};
    k.bytes   = 2.0 * n * n * sizeof(T);
    k.prepare = [data] { Kokkos::deep_copy(data()->out, std::numeric_limits<T>::quiet_NaN()); };
    k.run     = [data] {
      auto d = data();
      raw::transpose_tiled_padded(Exec(), d->in, d->out);
    };
    k.check   = check;
    cases.push_back(k);
  }
}

}  // namespace

void add_transpose_cases(const Config& c, std::vector<Case>& cases) {
  for (const int n : sweep_edges(c, 64, host_full(c) ? 4096 : c.full ? 16384 : 1024, 2)) {
    add<float>(c, cases, n);
    add<float, Kokkos::LayoutLeft>(c, cases, n);
    add<double>(c, cases, n);
    add<double, Kokkos::LayoutLeft>(c, cases, n);
  }
}

}  // namespace perf
}  // namespace scratchkit
