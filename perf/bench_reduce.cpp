// SPDX-License-Identifier: BSD-3-Clause
// Reduction rows (sum): every variant on both backends, CUB DeviceReduce::Sum,
// Kokkos' own parallel_reduce. Minimal traffic: n elements read once; n - 1 additions.
#include "harness.hpp"

#include <scratchkit/kernels/reduce.hpp>
#include "vendor/vendor.hpp"

namespace scratchkit {
namespace perf {
namespace {

template <class T>
struct ReduceData {
  Operand1D<T> x;
  T got{};
  explicit ReduceData(std::size_t n) : x("reduce::x", n, 3) {}
};

/// Assumed summation-tree height of a library reduction (Kokkos, CUB): exact
/// for n - 1 <= 2^20 (the worst case is used), else a one-wave grid-stride tree.
inline long long library_depth(std::size_t n) {
  return n <= (std::size_t(1) << 20) ? static_cast<long long>(n)
                                     : reduce_error_depth(ReduceVariant::grid_stride_atomic, n);
}

/// Kokkos' own sum (a named function: nvcc does not take device lambdas inside lambdas).
template <class T>
T kokkos_sum(const Kokkos::View<T*, Kokkos::LayoutRight, Mem>& x) {
  T s = 0;
  Kokkos::parallel_reduce(
      "scratchkit::bench::kokkos_parallel_reduce", Kokkos::RangePolicy<Exec>(Exec(), 0, x.extent(0)),
      KOKKOS_LAMBDA(std::size_t i, T & acc) { acc += x(i); }, s);
  return s;
}

template <class T>
void add(const Config& c, std::vector<Case>& cases, std::size_t n, const std::string& size) {
  const std::string key = std::string("reduce/") + type_name<T>() + "/" + size;
  auto data = [key, n] { return data_cache().get<ReduceData<T>>(key, [n] { return ReduceData<T>(n); }); };
  auto checker = [data, n](long long depth) {
    return [data, n, depth] {
      auto d = data();
      return check::reduce<T>(ReduceOp::sum, d->x.h.data(), n, d->got, depth).passed();
    };
  };
  auto row = [&](const std::string& variant, const std::string& backend) {
    Case k{"reduce_sum", variant, backend, type_name<T>(), size};
    k.bytes   = static_cast<double>(n) * sizeof(T);
    k.flops   = static_cast<double>(n - 1);
    k.prepare = [data] { data(); };
    return k;
  };
  for (auto v : {ReduceVariant::tree, ReduceVariant::grid_stride_atomic, ReduceVariant::warp_shuffle})
    for (auto b : backends(c)) {
      Case k  = row(name(v), backend_name(b));
      k.run   = [data, v, b] {
        auto d = data();
        d->got = reduce(Exec(), v, ReduceOp::sum, d->x.d, b);
      };
      k.check = checker(reduce_error_depth(v, n));
      cases.push_back(k);
    }
  {
    // Kokkos' own parallel_reduce: its order is not specified. The worst case
    // (a chain of n - 1 additions) gives no bound for floats once n u >= 1
    // (2^28 floats), so it is checked against the height of a one-wave
    // grid-stride tree like ours (reduce_error_depth(grid_stride_atomic, n)):
    // an assumption about the library, stated in perf/NOTES.md.
    Case k  = row("parallel_reduce", "kokkos-builtin");
    k.run   = [data] {
      auto d = data();
      d->got = kokkos_sum<T>(d->x.d);
    };
    k.check = checker(library_depth(n));
    cases.push_back(k);
  }
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
  if (c.vendor) {
    Case k  = row("cub_device_reduce", "vendor");
    k.run   = [data] {
      auto d = data();
      d->got = native::cuda::vendor::reduce_sum(d->x.d.data(), d->x.d.size(), Exec().cuda_stream());
    };
    k.check = checker(library_depth(n));  // CUB's order is not documented: same assumption
    cases.push_back(k);
  }
#endif
}

}  // namespace

void add_reduce_cases(const Config& c, std::vector<Case>& cases) {
  for (const int e : sweep_exponents(c, host_full(c) ? 24 : c.full ? 28 : 20)) {
    const std::size_t n = std::size_t(1) << e;
    const std::string size = "2^" + std::to_string(e);
    add<std::int32_t>(c, cases, n, size);
    add<std::int64_t>(c, cases, n, size);
    add<float>(c, cases, n, size);
    add<double>(c, cases, n, size);
  }
}

}  // namespace perf
}  // namespace scratchkit
