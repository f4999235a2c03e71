// SPDX-License-Identifier: BSD-3-Clause
// The bandwidth ceiling: a device-to-device copy, counting bytes read + written.
#include "harness.hpp"

#include "vendor/vendor.hpp"

namespace scratchkit {
namespace perf {
namespace {

struct CopyData {
  Operand1D<float> src;
  Kokkos::View<float*, Mem> dst;
  explicit CopyData(std::size_t n) : src("copy::src", n, 11), dst(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy::dst"), n) {}
};

}  // namespace

namespace {

void add_copy_case(const Config& c, std::vector<Case>& cases, int e) {
  const std::size_t n    = std::size_t(1) << e;
  const std::string size = "2^" + std::to_string(e);
  auto data = [n, size] { return data_cache().get<CopyData>("copy/" + size, [n] { return CopyData(n); }); };
  Case k{"copy", c.vendor ? "cudaMemcpyAsync" : "deep_copy", "ceiling", "float", size};
  k.bytes   = 2.0 * n * sizeof(float);
  k.prepare = [data] { data(); };
  k.run     = [data, vendor = c.vendor] {
    auto d = data();
#if SCRATCHKIT_HAS_NATIVE_CUDA && defined(KOKKOS_ENABLE_CUDA)
    if (vendor) {
      native::cuda::vendor::copy(d->dst.data(), d->src.d.data(), d->dst.size() * sizeof(float),
                                 Exec().cuda_stream());
      return;
    }
#endif
    (void)vendor;
    Kokkos::deep_copy(Exec(), d->dst, d->src.d);
  };
  k.check = [data] {
    auto d = data();
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d->dst);
    for (std::size_t i = 0; i < h.size(); ++i)
      if (!(h(i) == d->src.h(i))) return false;
    return true;
  };
  cases.push_back(k);
}

}  // namespace

void add_copy_cases(const Config& c, std::vector<Case>& cases) {
  // A sweep copies every power of two up to the run's size: the ceiling of
  // each row is then the copy of about its bytes (perf/report.py).
  for (const int e : sweep_exponents(c, host_full(c) ? 26 : c.full ? 28 : 22, 1)) add_copy_case(c, cases, e);
}

}  // namespace perf
}  // namespace scratchkit
