// SPDX-License-Identifier: BSD-3-Clause
// Tutorial 3: an inclusive scan of each 256-element block of an int array on
// the layer, Hillis-Steele in shared memory (docs/tutorial.md; its CUDA twin:
// scan.cu). Each thread's running sum and the neighbour value it read live
// across barriers: PerThread. A whole-array scan adds a pass over the block
// totals; the library's own block collectives are kernels of their own.
#include "common.hpp"

using Ints = Kokkos::View<int*>;

// [count-begin]
using Buf = scratchkit::SharedArray<int, 256>;  // __shared__ int s[256]

void scan256_layer(const Ints& in, const Ints& out) {
  const int n = in.extent(0);
  auto p = LaunchParams(ceil_div(n, 256)).uses<Buf>();  // the block: the body's shape
  launch(Exec(), "tutorial::scan256", p, KOKKOS_LAMBDA(const ShapedBlock<256>& b) {
    Buf s(b);
    PerThread<int, ShapedBlock<256>> v(b), add(b);  // locals that live across __syncthreads()
    b.threads([&](const Thread& t) { s[t.rank] = v(t) = t.gx < n ? in(t.gx) : 0; });
    sync_threads(b);
    for (int off = 1; off < 256; off *= 2) {
      b.threads([&](const Thread& t) { add(t) = t.rank >= off ? s[t.rank - off] : 0; });
      sync_threads(b);
      b.threads([&](const Thread& t) { s[t.rank] = v(t) += add(t); });
      sync_threads(b);
    }
    b.threads([&](const Thread& t) { if (t.gx < n) out(t.gx) = v(t); });
  });
}
// [count-end]

namespace {

int run(int n, bool twin) {
  const auto x = tutorial::random_values<int>(n, 5000 + n);
  Ints in = tutorial::from_host<Ints>("in", x, n), out("out", n);
  Kokkos::deep_copy(out, std::numeric_limits<int>::min());  // poisoned: every element must be written
  scan256_layer(in, out);
  const auto o = tutorial::to_host(out);
  int bad = 0, far = 0, same = 0;
  std::vector<int> ot(n);
#if TUTORIAL_CUDA_TWIN
  if (twin) scan256_cuda_host(n, x.data(), ot.data());
#else
  (void)twin;
#endif
  long long s = 0;
  for (int i = 0; i < n; ++i) {
    s = (i % 256 == 0 ? 0 : s) + x[i];  // exact: integers
    bad += o[i] != s;
    far += ot[i] != s;
    same += ot[i] == o[i];
  }
  std::printf("scan256 n = %5d  layer vs host reference: %d of %d differ\n", n, bad, n);
  return bad + tutorial::twin_report(twin, far, same, o.size());
}

}  // namespace

int main(int argc, char** argv) {
  return tutorial::main_of(argc, argv, [](bool twin) {
    int bad = 0;
    for (int n : {1, 255, 256, 257, 1000, 4099}) bad += run(n, twin);
    return bad;
  });
}
