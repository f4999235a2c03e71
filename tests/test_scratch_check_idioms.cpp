// SPDX-License-Identifier: BSD-3-Clause
// The idioms a CUDA programmer writes on shared memory (docs/checker.md, "Idioms"), each in a
// kernel that compiles with and without the scratch checker, gives the same result in both, and,
// under the checker, has its scratch accesses recorded.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

using namespace scratchkit;

namespace {
using HostExec = test::HostSpace;
using B        = Block<HostExec>;
using MS       = HostExec::memory_space;
using S        = SharedArray<float, 64>;
constexpr int N = 64;

/// The launch: under the checker, recorded into `rep`; the test's values in s[t] = t - 17.
LaunchParams params(ScratchCheckReport* rep) {
  auto p = LaunchParams(Dim3(1), Dim3(N)).uses<S>();
  if (scratch_check_compiled) p.check_scratch(ScratchCheck().quiet().keep(1 << 10).into(rep));
  return p;
}
float value(int t) { return float(t) - 17.0f; }
std::vector<float> host(const Kokkos::View<float*, MS>& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<float>(h.data(), h.data() + h.extent(0));
}
// Accesses recorded: N stores of the fill, and `per_thread` more a thread after it.
void check_accesses(const ScratchCheckReport& r, int per_thread) {
  if (!scratch_check_compiled) return;
  if (per_thread > 0) CHECK(r.accesses == N + N * per_thread);
  CHECK(r.races == 0);
  CHECK(r.uninitialised_reads == 0);
  CHECK(r.misuses == 0);
}

float twice(const float& x) { return 2.0f * x; }
void increment(float& x) { x += 1.0f; }
template <class T>
T larger(const T& a, const T& b) {
  return a < b ? b : a;
}
}  // namespace

TEST_CASE("Checker idioms: std::max, std::min, Kokkos::max, Kokkos::min, with two elements and with a value",
          "[checker][idioms]") {
  Kokkos::View<float*, MS> out("out", 6 * N);
  ScratchCheckReport r;
  launch(HostExec(), "idioms::minmax", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = float(t.rank) - 17.0f; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const int o = (t.rank + 1) % N;
      out(t.rank)         = std::max(s[t.rank], s[o]);
      out(N + t.rank)     = std::min(s[t.rank], s[o]);
#if KOKKOS_VERSION >= 30700  // Kokkos::min and max since 3.7
      out(2 * N + t.rank) = Kokkos::max(s[t.rank], s[o]);
      out(3 * N + t.rank) = Kokkos::min(s[t.rank], 0.0f);
#else
      out(2 * N + t.rank) = std::max(s[t.rank], s[o]);
      out(3 * N + t.rank) = std::min(s[t.rank], 0.0f);
#endif
      out(4 * N + t.rank) = std::min(s[t.rank], 0.0f);
      out(5 * N + t.rank) = std::max(1.0f, s[t.rank]);
    });
  });
  const auto h = host(out);
  for (int t = 0; t < N; ++t) {
    const float a = value(t), c = value((t + 1) % N);
    CHECK(h[t] == std::max(a, c));
    CHECK(h[N + t] == std::min(a, c));
    CHECK(h[2 * N + t] == std::max(a, c));
    CHECK(h[3 * N + t] == std::min(a, 0.0f));
    CHECK(h[4 * N + t] == std::min(a, 0.0f));
    CHECK(h[5 * N + t] == std::max(1.0f, a));
  }
  check_accesses(r, 9);  // two loads for each of the first three, one for each of the last three
}

TEST_CASE("Checker idioms: auto, const auto&, structured bindings, a ternary, casts and <cmath>",
          "[checker][idioms]") {
  Kokkos::View<float*, MS> out("out", 5 * N);
  ScratchCheckReport r;
  launch(HostExec(), "idioms::values", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = float(t.rank) - 17.0f; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      auto v        = s[t.rank];             // the value read here, as CUDA's auto copy
      const auto& c = s[(t.rank + 1) % N];   // read here too
      out(t.rank)     = v * 2.0f + c;
      auto [x, y]     = std::make_pair(s[t.rank], s[(t.rank + 2) % N]);
      out(N + t.rank) = x - y;
      out(2 * N + t.rank) = t.rank % 2 ? s[t.rank] : 0.0f;
      out(3 * N + t.rank) = static_cast<float>(static_cast<double>(s[t.rank]) / 2.0);
      out(4 * N + t.rank) = std::abs(s[t.rank]) + std::sqrt(std::fabs(s[t.rank]));
    });
  });
  const auto h = host(out);
  for (int t = 0; t < N; ++t) {
    const float a = value(t);
    CHECK(h[t] == a * 2.0f + value((t + 1) % N));
    CHECK(h[N + t] == a - value((t + 2) % N));
    CHECK(h[2 * N + t] == (t % 2 ? a : 0.0f));
    CHECK(h[3 * N + t] == static_cast<float>(static_cast<double>(a) / 2.0));
    CHECK(h[4 * N + t] == std::abs(a) + std::sqrt(std::fabs(a)));
  }
  if (scratch_check_compiled) CHECK(r.accesses == N + N * 7 + N / 2);  // the ternary's element: odd threads only
  check_accesses(r, 0);
}

TEST_CASE("Checker idioms: const T& and T& parameters, a function template, std::swap, compound assignment",
          "[checker][idioms]") {
  Kokkos::View<float*, MS> out("out", 4 * N);
  ScratchCheckReport r;
  launch(HostExec(), "idioms::updates", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = float(t.rank) - 17.0f; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      out(t.rank) = twice(s[t.rank]);                          // a load
      out(N + t.rank) = larger(s[t.rank], s[(t.rank + 1) % N]);  // two loads
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      increment(s[t.rank]);                                    // a store (its bytes change)
      s[t.rank] += 2.0f;                                       // a load and a store
      s[t.rank] *= s[t.rank];                                  // a load, and a load and a store
      s[t.rank]++;                                             // a load and a store
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      if (t.rank % 2 == 0) std::swap(s[t.rank], s[t.rank + 1]);  // two loads, two stores
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { out(2 * N + t.rank) = s[t.rank]; });
  });
  const auto h = host(out);
  std::vector<float> after(N);
  for (int t = 0; t < N; ++t) {
    const float a = value(t);
    CHECK(h[t] == 2.0f * a);
    CHECK(h[N + t] == std::max(a, value((t + 1) % N)));
    after[t] = (a + 3.0f) * (a + 3.0f) + 1.0f;
  }
  for (int t = 0; t < N; t += 2) std::swap(after[t], after[t + 1]);
  for (int t = 0; t < N; ++t) CHECK(h[2 * N + t] == after[t]);
  if (scratch_check_compiled) {
    CHECK(r.accesses == N + N * (1 + 2 + 1 + 2 + 3 + 2) + N / 2 * 4 + N);
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    CHECK(r.untracked_write_bytes == 0);  // the T& parameter's store was seen as the element's
  }
}

TEST_CASE("Checker idioms: printf, std::printf and Kokkos::printf print the element's value", "[checker][idioms]") {
  ScratchCheckReport r;
  Kokkos::View<int*, MS> printed("printed", 1);
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  launch(HostExec(), "idioms::printf", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = float(t.rank) - 17.0f; });
    sync_threads(b);
    b.once([&]() {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(s[0]));
      printed(0) = std::string(buf) == "-17.0";
      std::fprintf(file, "%f %d %f", s[0], 5, s[3]);  // through the same overloads as printf
      std::printf("idioms::printf %f %d\n", s[0], 3);
      ::printf("idioms::printf %f\n", s[1]);
#if KOKKOS_VERSION >= 40200  // Kokkos::printf since 4.2
      Kokkos::printf("idioms::printf %s %f %f\n", "Kokkos", s[0], s[2]);
#else
      std::printf("idioms::printf %s %f %f\n", "Kokkos", s[0], s[2]);
#endif
    });
  });
  CHECK(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), printed)(0) == 1);
  std::rewind(file);
  char text[64] = {};
  CHECK(std::fgets(text, sizeof text, file) != nullptr);
  std::fclose(file);
  CHECK(std::string(text) == "-17.000000 5 -14.000000");  // the values, not the proxies' bytes
  if (scratch_check_compiled) {
    CHECK(r.accesses == N + 1 + 2 + 1 + 1 + 2);
    CHECK(r.misuses == 0);
  }
  // The values the overloads pass on (what printf prints): the element's, not the proxy's bytes.
  if constexpr (scratch_check_compiled) {
    float v = -17.0f;
    std::vector<char> buf(64);
    std::snprintf(buf.data(), buf.size(), "%f", static_cast<double>(v));
    CHECK(std::string(buf.data()) == "-17.000000");
  }
}

TEST_CASE("Checker idioms: pointers into scratch, pointer arithmetic and vector loads", "[checker][idioms]") {
  struct alignas(16) Float4 {
    float x, y, z, w;
  };
  Kokkos::View<float*, MS> out("out", 2 * N);
  ScratchCheckReport r;
  launch(HostExec(), "idioms::pointers", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = float(t.rank) - 17.0f; });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      const float* q = &s[0] + t.rank;  // pointer arithmetic
      out(t.rank)    = *q;
      const Float4 v = reinterpret_cast<const Float4*>(s.data())[t.rank / 4];  // a 16-byte vector load
      out(N + t.rank) = v.x + v.y + v.z + v.w;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      float* p = s.data() + t.rank;
      *p       = 0.0f;  // a store through a raw pointer: trapped, or seen by comparing bytes
    });
  });
  const auto h = host(out);
  for (int t = 0; t < N; ++t) {
    CHECK(h[t] == value(t));
    const int g = t / 4 * 4;
    CHECK(h[N + t] == value(g) + value(g + 1) + value(g + 2) + value(g + 3));
  }
  if (scratch_check_compiled) {
    CHECK(r.races == 0);
    if (scratch_check_raw_pointers) {
      // Each load and store: N through q, 4 N through the 16-byte loads, N stores.
      CHECK(r.raw_accesses == 6 * N);
      CHECK(r.untracked_write_bytes == 0);
    } else {
      // Seen only where the bytes change (0.0f over t - 17 leaves some bytes as they were).
      CHECK(r.untracked_write_bytes > 0);
      CHECK(r.untracked_write_bytes < 4 * N);
    }
  }
}
