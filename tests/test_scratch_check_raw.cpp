// SPDX-License-Identifier: BSD-3-Clause
// Raw pointers into scratch under the checker (docs/checker.md, "Raw pointers"): stores and loads
// through `s.data()`, pointer arithmetic, memcpy / std::fill / std::copy, vector loads and
// Kokkos atomics on `&s[i]`. Each kernel compiles with and without the checker and gives the same
// result checked and unchecked; where the checker traps raw accesses (scratch_check_raw_pointers:
// Linux, x86-64) each access is recorded, so races and uninitialised reads through raw pointers
// are reported on exactly the elements racecheck reports.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>
#if defined(__SSE__) && !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
#define SCRATCHKIT_TEST_SSE 1
#include <immintrin.h>
#endif

using namespace scratchkit;

namespace {
using HostExec = test::HostSpace;
using B        = Block<HostExec>;
using MS       = HostExec::memory_space;
using S        = SharedArray<float, 64>;
constexpr int N = 64;

/// One block of N threads; checked (into `rep`) when `rep` is given and the checker is compiled in.
LaunchParams params(ScratchCheckReport* rep) {
  auto p = LaunchParams(Dim3(1), Dim3(N)).uses<S>();
  if (rep && scratch_check_compiled) p.check_scratch(ScratchCheck().quiet().keep(1 << 12).into(rep));
  return p;
}
Kokkos::View<float*, MS> input() {
  Kokkos::View<float*, MS> in("in", N);
  auto h = Kokkos::create_mirror_view(in);
  for (int i = 0; i < N; ++i) h(i) = float(3 * i) - 17.5f;
  Kokkos::deep_copy(in, h);
  return in;
}
std::vector<float> host(const Kokkos::View<float*, MS>& v) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<float>(h.data(), h.data() + h.extent(0));
}
/// The elements the report's findings of `kind` name.
std::set<long long> elements(const ScratchCheckReport& r, ScratchFindingKind kind) {
  std::set<long long> e;
  for (const auto& f : r.of_kind(kind)) e.insert(f.element);
  return e;
}
std::set<long long> range(long long a, long long b) {
  std::set<long long> e;
  for (long long i = a; i < b; ++i) e.insert(i);
  return e;
}
/// Whether raw accesses are recorded in this build (else they keep the byte comparison of stores).
constexpr bool traps = scratch_check_raw_pointers;
/// Kokkos 3's atomics in a build without a parallel host backend are a plain load and store
/// (KOKKOS_ENABLE_SERIAL_ATOMICS), and the checker sees them as such.
#if defined(KOKKOS_ENABLE_SERIAL_ATOMICS)
constexpr bool kokkos_atomics_plain = true;
#else
constexpr bool kokkos_atomics_plain = false;
#endif

#if defined(SCRATCHKIT_TEST_SSE) && defined(__GNUC__)
#define SCRATCHKIT_TEST_AVX512 1
/// An AVX-512 store of the 16 floats at v into p under a mask (what glibc's memset does for short tails).
__attribute__((target("avx512f"))) void masked_store(float* p, const float* v, unsigned short mask) {
  _mm512_mask_storeu_ps(p, mask, _mm512_loadu_ps(v));
}
#endif

/// Runs `kernel(out)` unchecked and checked: the two results must agree; returns the checked report.
template <class K>
ScratchCheckReport same_result(const char* label, int outputs, const K& kernel) {
  Kokkos::View<float*, MS> plain("plain", outputs), checked("checked", outputs);
  kernel(params(nullptr), plain, label);
  ScratchCheckReport r;
  kernel(params(&r), checked, label);
  const auto a = host(plain), c = host(checked);
  for (int i = 0; i < outputs; ++i) {
    INFO(label << " output " << i);
    CHECK(a[i] == c[i]);
  }
  return r;
}
}  // namespace

TEST_CASE("Checker raw pointers: a store and a reversed read through s.data(), without and with a barrier",
          "[checker][raw]") {
  const auto in = input();
  Kokkos::View<float*, MS> out("out", N);
  // No barrier: every element races (racecheck on the CUDA twin: elements 0 .. 63).
  ScratchCheckReport r;
  launch(HostExec(), "raw::reversed_race", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      float* q    = s.data();
      q[t.rank]   = in(t.rank);
      out(t.rank) = q[N - 1 - t.rank];  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(r.races == N);
    CHECK(elements(r, ScratchFindingKind::race) == range(0, N));
    CHECK(r.raw_accesses == 2 * N);
    CHECK(r.untracked_write_bytes == 0);
    CHECK(r.uninitialised_reads == 0);  // the unwritten half is a race, as racecheck has it
    REQUIRE_FALSE(r.findings.empty());
    CHECK(r.findings[0].site.str().find("raw pointer access at ") == 0);
  }
  // With the barrier: clean, and the result is the reversed input, checked or not.
  const ScratchCheckReport ok = same_result("raw::reversed", N, [&](LaunchParams p, Kokkos::View<float*, MS> o,
                                                                    const char* label) {
    launch(HostExec(), label, p, KOKKOS_LAMBDA(const B& b) {
      S s(b);
      b.threads([&](const Thread& t) { s.data()[t.rank] = in(t.rank); });
      sync_threads(b);
      b.threads([&](const Thread& t) { o(t.rank) = s.data()[N - 1 - t.rank]; });
    });
  });
  const auto h = host(in);
  Kokkos::View<float*, MS> again("again", N);
  launch(HostExec(), "raw::reversed", params(nullptr), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) { s[t.rank] = in(t.rank); });
    sync_threads(b);
    b.threads([&](const Thread& t) { again(t.rank) = s[N - 1 - t.rank]; });
  });
  const auto a = host(again);
  for (int t = 0; t < N; ++t) CHECK(a[t] == h[N - 1 - t]);
  if (scratch_check_compiled) {
    CHECK(ok.races == 0);
    CHECK(ok.uninitialised_reads == 0);
    if (traps) CHECK(ok.raw_accesses == 2 * N);
  }
}

TEST_CASE("Checker raw pointers: blocks on several host threads at once", "[checker][raw]") {
  // Each host thread's blocks have scratch of their own: 16 blocks, each with its race.
  const auto in = input();
  constexpr int blocks = 16;
  Kokkos::View<float*, MS> out("out", blocks * N);
  ScratchCheckReport r;
  launch(HostExec(), "raw::grid_race",
         LaunchParams(Dim3(blocks), Dim3(N)).uses<S>().check_scratch(ScratchCheck().quiet().keep(1 << 12).into(&r)),
         KOKKOS_LAMBDA(const B& b) {
           S s(b);
           b.threads([&](const Thread& t) {
             float* q = s.data();
             q[t.rank] = in(t.rank);
             out(b.block_rank() * N + t.rank) = q[N - 1 - t.rank];  // missing: a barrier
           });
         });
  if (scratch_check_compiled && traps) {
    CHECK(r.blocks == blocks);
    CHECK(r.races == blocks * N);
    CHECK(r.raw_accesses == blocks * 2 * N);
  }
}

TEST_CASE("Checker raw pointers: pointer arithmetic", "[checker][raw]") {
  const auto in = input();
  // Each thread stores through s.data() + t and reads its right neighbour through &s[0] + t + 1
  // with no barrier: elements 1 .. 63 race.
  ScratchCheckReport r;
  Kokkos::View<float*, MS> out("out", N);
  launch(HostExec(), "raw::neighbour_race", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      float* q = s.data() + t.rank;
      *q       = in(t.rank);
      if (t.rank + 1 < N) out(t.rank) = *(&s[0] + t.rank + 1);  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(elements(r, ScratchFindingKind::race) == range(1, N));
    CHECK(r.raw_accesses == 2 * N - 1);
    CHECK(r.uninitialised_reads == 0);
  }
  // With the barrier, a walk with ++: clean, the same result checked and unchecked.
  const ScratchCheckReport ok = same_result("raw::walk", N, [&](LaunchParams p, Kokkos::View<float*, MS> o,
                                                                const char* label) {
    launch(HostExec(), label, p, KOKKOS_LAMBDA(const B& b) {
      S s(b);
      b.threads([&](const Thread& t) { *(s.data() + t.rank) = in(t.rank); });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        const float* q = s.data() + (t.rank / 8) * 8;
        float sum      = 0.0f;
        for (const float* e = q; e != q + 8; ++e) sum += *e;
        o(t.rank) = sum;
      });
    });
  });
  if (scratch_check_compiled) {
    CHECK(ok.races == 0);
    CHECK(ok.uninitialised_reads == 0);
    if (traps) CHECK(ok.raw_accesses == N + 8 * N);
  }
}

TEST_CASE("Checker raw pointers: memcpy, std::fill and std::copy into scratch, and memcpy out of it",
          "[checker][raw]") {
  const auto in = input();
  // One thread copies the whole input in; the others read their element with no barrier:
  // elements 1 .. 63 race (thread 0 reads its own).
  ScratchCheckReport r;
  Kokkos::View<float*, MS> out("out", N);
  launch(HostExec(), "raw::memcpy_race", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      if (t.rank == 0) std::memcpy(s.data(), in.data(), N * sizeof(float));
      out(t.rank) = s[t.rank];  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(elements(r, ScratchFindingKind::race) == range(1, N));
    CHECK(r.raw_accesses >= N);  // every element stored (memcpy's vectors may overlap)
    CHECK(r.uninitialised_reads == 0);
  }
  // With barriers: memcpy in, std::fill of the upper half, std::copy of a quarter onto the
  // lowest, memcpy out; clean, and the same result checked and unchecked.
  const ScratchCheckReport ok = same_result("raw::copies", N, [&](LaunchParams p, Kokkos::View<float*, MS> o,
                                                                  const char* label) {
    launch(HostExec(), label, p, KOKKOS_LAMBDA(const B& b) {
      S s(b);
      b.once([&]() { std::memcpy(s.data(), in.data(), N * sizeof(float)); });
      sync_threads(b);
      b.once([&]() { std::fill(s.data() + N / 2, s.data() + N, 2.5f); });
      sync_threads(b);
      b.once([&]() { std::copy(s.data() + N / 4, s.data() + N / 2, s.data()); });
      sync_threads(b);
      b.once([&]() { std::memcpy(o.data(), s.data(), N * sizeof(float)); });
    });
  });
  const auto h = host(in);
  Kokkos::View<float*, MS> res("res", N);
  launch(HostExec(), "raw::copies_expected", params(nullptr), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.once([&]() { std::memcpy(s.data(), in.data(), N * sizeof(float)); });
    sync_threads(b);
    b.once([&]() { std::memcpy(res.data(), s.data(), N * sizeof(float)); });
  });
  for (int i = 0; i < N; ++i) CHECK(host(res)[i] == h[i]);
  if (scratch_check_compiled) {
    CHECK(ok.races == 0);
    CHECK(ok.uninitialised_reads == 0);
    if (traps) CHECK(ok.raw_accesses >= N + N / 2 + N / 2 + N);
  }
  // memcpy out of scratch while the other threads still store: thread 0 reads elements 1 .. 63
  // before their threads store them.
  ScratchCheckReport out_r;
  launch(HostExec(), "raw::memcpy_out_race", params(&out_r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      s[t.rank] = in(t.rank);
      if (t.rank == 0) std::memcpy(out.data(), s.data(), N * sizeof(float));  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(elements(out_r, ScratchFindingKind::race) == range(1, N));
    CHECK(out_r.uninitialised_reads == 0);  // the unwritten elements are races
  }
}

TEST_CASE("Checker raw pointers: an uninitialised read through s.data()", "[checker][raw]") {
  const auto in = input();
  Kokkos::View<float*, MS> out("out", N);
  ScratchCheckReport r;
  launch(HostExec(), "raw::uninitialised", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      if (t.rank < N / 2) s[t.rank] = in(t.rank);
    });
    sync_threads(b);
    b.threads([&](const Thread& t) { out(t.rank) = s.data()[t.rank]; });
  });
  if (scratch_check_compiled && traps) {
    CHECK(r.races == 0);
    CHECK(elements(r, ScratchFindingKind::uninitialised_read) == range(N / 2, N));
    CHECK(r.raw_accesses == N);
    const auto h = host(out);
    for (int t = N / 2; t < N; ++t) CHECK(std::isnan(h[t]));  // the float poison
  }
}

TEST_CASE("Checker raw pointers: vector loads", "[checker][raw]") {
  const auto in = input();
  struct alignas(16) Float4 {
    float x, y, z, w;
  };
  // Each thread stores its element and loads its group of four with no barrier: every element
  // races (each group's first thread reads the three stored after it).
  ScratchCheckReport r;
  Kokkos::View<float*, MS> out("out", N);
  launch(HostExec(), "raw::vector_race", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      s[t.rank]      = in(t.rank);
      const Float4 v = reinterpret_cast<const Float4*>(s.data())[t.rank / 4];  // missing: a barrier
      out(t.rank)    = v.x + v.y + v.z + v.w;
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(elements(r, ScratchFindingKind::race) == range(0, N));
    CHECK(r.raw_accesses == 4 * N);  // four elements a load
  }
#if defined(SCRATCHKIT_TEST_SSE)
  // An SSE load and store (movaps), with barriers: clean, the same result checked and unchecked.
  const ScratchCheckReport ok = same_result("raw::sse", N, [&](LaunchParams p, Kokkos::View<float*, MS> o,
                                                               const char* label) {
    launch(HostExec(), label, p, KOKKOS_LAMBDA(const B& b) {
      S s(b);
      b.threads([&](const Thread& t) {
        if (t.rank % 4 == 0) _mm_store_ps(s.data() + t.rank, _mm_loadu_ps(in.data() + t.rank));
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        const __m128 v = _mm_load_ps(s.data() + t.rank / 4 * 4);
        float f[4];
        _mm_storeu_ps(f, v);
        o(t.rank) = f[0] + f[1] + f[2] + f[3];
      });
    });
  });
  if (scratch_check_compiled) {
    CHECK(ok.races == 0);
    CHECK(ok.uninitialised_reads == 0);
    if (traps) CHECK(ok.raw_accesses == N + 4 * N);
  }
#endif
}

#if defined(SCRATCHKIT_TEST_AVX512)
TEST_CASE("Checker raw pointers: an AVX-512 store under a mask touches only its unmasked elements", "[checker][raw]") {
  if (!__builtin_cpu_supports("avx512f")) SKIP("no AVX-512 on this CPU");
  const auto in = input();
  // Thread 0 stores elements 20 .. 23 of the 16 floats at 16 (mask 0x00F0); every thread reads
  // its element with no barrier: races on 20 .. 23 only.
  ScratchCheckReport r;
  Kokkos::View<float*, MS> out("out", N);
  launch(HostExec(), "raw::masked", params(&r), KOKKOS_LAMBDA(const B& b) {
    S s(b);
    b.threads([&](const Thread& t) {
      if (t.rank == 0) masked_store(s.data() + 16, in.data(), 0x00F0);
      out(t.rank) = s[t.rank];  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(elements(r, ScratchFindingKind::race) == range(20, 24));
    CHECK(r.raw_accesses == 4);
  }
  const auto h = host(out), hi = host(in);
  for (int t = 20; t < 24; ++t) CHECK(h[t] == hi[t - 16]);
}
#endif

TEST_CASE("Checker raw pointers: Kokkos atomics on &s[i]", "[checker][raw][atomic]") {
  using U = SharedArray<unsigned, 4>;
  using F = SharedArray<float, 4>;
  auto p  = [](ScratchCheckReport* rep) {
    auto q = LaunchParams(Dim3(1), Dim3(N)).uses<U, F>();
    if (rep && scratch_check_compiled) q.check_scratch(ScratchCheck().quiet().keep(1 << 10).into(rep));
    return q;
  };
  // 64 threads add to 4 counters of each type: atomics do not race with each other.
  Kokkos::View<float*, MS> plain("plain", 8), checked("checked", 8);
  ScratchCheckReport r;
  for (auto* rep : {static_cast<ScratchCheckReport*>(nullptr), &r}) {
    auto o = rep ? checked : plain;
    launch(HostExec(), "raw::kokkos_atomics", p(rep), KOKKOS_LAMBDA(const B& b) {
      U u(b);
      F f(b);
      b.threads([&](const Thread& t) {
        if (t.rank < 4) u[t.rank] = 0u, f[t.rank] = 0.0f;
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        Kokkos::atomic_add(&u[t.rank % 4], 1u);
        Kokkos::atomic_add(&f[t.rank % 4], 0.5f);
      });
      sync_threads(b);
      b.threads([&](const Thread& t) {
        if (t.rank < 4) o(t.rank) = float(u[t.rank]), o(4 + t.rank) = f[t.rank];
      });
    });
  }
  const auto a = host(plain), c = host(checked);
  for (int i = 0; i < 4; ++i) {
    CHECK(a[i] == 16.0f);
    CHECK(a[4 + i] == 8.0f);
  }
  CHECK(a == c);
  if (scratch_check_compiled && traps && kokkos_atomics_plain) {
    CHECK(r.races == 8);  // each counter's second update reads the first's store
    CHECK(r.raw_accesses == 4 * N);
  } else if (scratch_check_compiled && traps) {
    CHECK(r.races == 0);
    CHECK(r.uninitialised_reads == 0);
    CHECK(r.raw_accesses == 2 * N);  // one atomic update each (a compare-and-swap loop's load is part of it)
  }
  // An atomic, then another thread's plain read of the counter in the same phase: a race on each
  // counter (the GPU's result is wrong; racecheck does not report it).
  ScratchCheckReport rr;
  Kokkos::View<float*, MS> out("out", N);
  launch(HostExec(), "raw::atomic_then_read", p(&rr), KOKKOS_LAMBDA(const B& b) {
    U u(b);
    F f(b);
    b.threads([&](const Thread& t) {
      if (t.rank < 4) u[t.rank] = 0u, f[t.rank] = 0.0f;
    });
    sync_threads(b);
    b.threads([&](const Thread& t) {
      Kokkos::atomic_add(&u[t.rank % 4], 1u);
      out(t.rank) = float(u[(t.rank + 1) % 4]);  // missing: a barrier
    });
  });
  if (scratch_check_compiled && traps) {
    CHECK(rr.races == 4);
    if (!kokkos_atomics_plain)
      for (const auto& f : rr.of_kind(ScratchFindingKind::race))
      CHECK((f.access == "updated atomically" || f.other_access == "updated atomically"));
  }
}
