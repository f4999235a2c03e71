// SPDX-License-Identifier: BSD-3-Clause
// Mistakes in a kernel written on the layer are caught: before the launch
// where the launch description shows them (with the values), and otherwise in
// the kernel, with the values, on the host and (bounds-checked builds) on a
// GPU. The in-kernel checks stop the program, so each runs in a child process
// (scratchkit_mistake_case, tests/mistake_case.cpp) whose exit and output
// are checked here.
#include "test_support.hpp"

#include <scratchkit/scratchkit.hpp>

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <csignal>
#include <string>
#include <vector>

#if defined(__unix__)
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace scratchkit;
using Catch::Matchers::ContainsSubstring;

namespace {

struct Outcome {
  bool skipped  = false;
  bool stopped  = false;  ///< killed by a signal or exited non-zero
  int exit_code = -1;
  std::string output;     ///< stdout and stderr together
};

// Runs scratchkit_mistake_case <which> <where> and collects what it did.
Outcome run_case(const char* which, const char* where) {
  Outcome o;
#if defined(__unix__)
  int fd[2];
  REQUIRE(pipe(fd) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // A case that neither stops nor finishes in 120 s is killed (SIGALRM,
    // which survives exec) and reported below, instead of hanging the suite
    // (a test case's four sections stay inside ctest's 600 s).
    alarm(120);
    dup2(fd[1], 1);
    dup2(fd[1], 2);
    close(fd[0]);
    execl(SCRATCHKIT_MISTAKE_CASE, SCRATCHKIT_MISTAKE_CASE, which, where, static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fd[1]);
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) o.output.append(buf, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  o.skipped = WIFEXITED(status) && o.exit_code == 77;
  o.stopped = WIFSIGNALED(status) || (WIFEXITED(status) && o.exit_code != 0);
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    o.stopped = false;  // it did not stop by itself
    o.output += "\n[test_mistakes: the helper ran for 120 s and was killed]";
  }
  REQUIRE(o.exit_code != 127);  // the helper was found and started
  REQUIRE(o.exit_code != 2);    // and knew the case
#else
  (void)which;
  (void)where;
  SKIP("needs fork/exec");
#endif
  return o;
}

struct Mistake {
  const char* name;
  std::vector<std::string> message;  ///< what the message must name
};

// The values each case's message must carry (tests/mistake_case.cpp sets them up).
const std::vector<Mistake>& mistakes() {
  static const std::vector<Mistake> m = {
      // 64 floats, then 5 floats at the next 16-byte boundary: [256, 276) in a pool of 64 floats.
      {"partition_past_pool", {"partition [256, 276)", "5 elements of 4 bytes", "pool of 256 bytes", "shared_mem_bytes(layout)"}},
      // 64 floats planned (256 bytes); 32 ints more at offset 256.
      {"array_missing_from_uses", {"of 128 bytes at offset 256", "past the 256 bytes", "uses<...>()"}},
      {"per_thread_too_small", {"MaxThreads = 64>", "block of 128 threads"}},
      {"shared_index_out_of_bounds", {"SharedArray index", "out of bounds [0, 32)"}},
      {"threads_box_past_block", {"threads(box (4, 4, 1))", "block of (5, 3, 1)"}},
      {"shape_index_out_of_bounds", {"shape index 5", "out of bounds [0, 5)", "dimension 1"}},
      {"shared_md_index_out_of_bounds", {"shape index 5", "out of bounds [0, 5)", "dimension 1"}},
      {"halo_tile_index_out_of_bounds", {"HaloTile index (z 0, y 0, x 9)", "[-1, 9)"}},
      // 32 floats planned (128 bytes); the tile takes 10 x 6 floats.
      {"halo_tile_past_plan", {"of 240 bytes at offset 0", "past the 128 bytes"}},
  };
  return m;
}

void check_caught(const Mistake& m, const Outcome& o) {
  CAPTURE(m.name, o.exit_code, o.output);
  CHECK_THAT(o.output, !ContainsSubstring("NOT CAUGHT"));
  CHECK(o.stopped);
  for (const auto& s : m.message) CHECK_THAT(o.output, ContainsSubstring(s));
  // The message ends its line: what follows (Kokkos' traceback note, the shell's prompt) starts a new one.
  const std::size_t at = o.output.find(m.message.back());
  if (at != std::string::npos) {
    const std::size_t eol = o.output.find('\n', at);
    CHECK(eol != std::string::npos);
    CHECK_THAT(o.output.substr(at, eol == std::string::npos ? std::string::npos : eol - at),
               !ContainsSubstring("Traceback"));
  }
}

}  // namespace

TEST_CASE("Mistakes only the kernel can see stop it with their values on the host", "[layer][mistakes]") {
  for (const auto& m : mistakes()) {
    SECTION(m.name) { check_caught(m, run_case(m.name, "host")); }
  }
}

TEST_CASE("A failed check names the kernel and block of the thread's FailSite", "[layer][mistakes]") {
  check_caught({"fail_site_named", {"SharedArray index 40 out of bounds [0, 32)",
                                    "(kernel 'mistake::fail_site_named', block (3, 1, 0))"}},
               run_case("fail_site_named", "host"));
}

TEST_CASE("Mistakes only the kernel can see stop it with their values on the GPU (bounds-checked build)",
          "[layer][mistakes][gpu]") {
  if (!detail::is_gpu_space<test::DeviceSpace>::value) SKIP("this Kokkos has no GPU execution space");
  for (const auto& m : mistakes()) {
    SECTION(m.name) {
      const Outcome o = run_case(m.name, "device");
      if (o.skipped) SKIP(o.output);
      check_caught(m, o);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("Mistakes the launch description shows are refused before the launch, with the values",
                        "[layer][mistakes][bad-input]", test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  Kokkos::View<int*, typename Exec::memory_space> ran("ran", 1);
  const auto body = KOKKOS_LAMBDA(const B& b) {
    b.once([&]() { Kokkos::atomic_add(&ran(0), 1); });
  };
  SECTION("a dynamic partition past a pool sized in bytes, with the layout required") {
    DynamicLayout layout;
    layout.partition<double>(100);
    layout.partition<float>(7);  // [800, 828)
    const auto p = LaunchParams(Dim3(3), Dim3(32)).shared_mem_bytes(820).require(layout);
    CHECK_THROWS_WITH(launch(Exec(), "mistakes::partition", p, body),
                      ContainsSubstring("kernel 'mistakes::partition'") && ContainsSubstring("partition 1 [800, 828)") &&
                          ContainsSubstring("pool of 820 bytes"));
  }
  SECTION("a block over the launch bounds that a PerThread's MaxThreads repeats") {
    const auto p = LaunchParams(Dim3(1), Dim3(16, 16));
    CHECK_THROWS_WITH(launch<LaunchBounds<128>>(Exec(), "mistakes::bounds", p, body),
                      ContainsSubstring("kernel 'mistakes::bounds'") && ContainsSubstring("block of 256 threads") &&
                          ContainsSubstring("launch bounds of 128"));
  }
  SECTION("an empty grid") {
    CHECK_THROWS_WITH(launch(Exec(), "mistakes::empty", LaunchParams(Dim3(0, 4), Dim3(32)), body),
                      ContainsSubstring("kernel 'mistakes::empty'") && ContainsSubstring("grid (0, 4, 1)"));
  }
  SECTION("a block shape") {
    CHECK_THROWS_WITH(launch(Exec(), "mistakes::shape", LaunchParams(Dim3(1), Dim3(32, 33)), body),
                      ContainsSubstring("kernel 'mistakes::shape'") && ContainsSubstring("(32, 33, 1)") &&
                          ContainsSubstring("1056 threads"));
  }
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ran);
  CHECK(h(0) == 0);  // nothing launched
}

TEMPLATE_LIST_TEST_CASE("PerThread needs no block size: the default fits the largest block", "[layer][per-thread]",
                        test::Spaces) {
  using Exec = TestType;
  using B    = Block<Exec>;
  for (Dim3 blk : {Dim3(1), Dim3(1024), Dim3(32, 32), Dim3(8, 8, 16), Dim3(33, 3)}) {
    CAPTURE(blk.x, blk.y, blk.z);
    const int nt = static_cast<int>(blk.count());
    Kokkos::View<int*, typename Exec::memory_space> out("out", 2 * nt);
    launch(Exec(), "test::per_thread_default", LaunchParams(Dim3(2), blk), KOKKOS_LAMBDA(const B& b) {
      PerThread<int, B> v(b, 7), w(b);  // 7 in every thread; w uninitialised
      b.threads([&](const Thread& t) { w(t) = t.rank; });
      sync_threads(b);
      b.threads([&](const Thread& t) { v(t) += w(t) + t.gx + t.gy * 1000; });
      sync_threads(b);
      b.threads([&](const Thread& t) { out(b.block_rank() * b.num_threads() + t.rank) = v(t); });
    });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    int bad = 0;
    for (int blk_i = 0; blk_i < 2; ++blk_i)
      for (int r = 0; r < nt; ++r) {
        const int x = r % blk.x, y = (r / blk.x) % blk.y;
        bad += h(blk_i * nt + r) != 7 + r + (blk_i * blk.x + x) + y * 1000;
      }
    CHECK(bad == 0);
  }
}

TEMPLATE_LIST_TEST_CASE("A ready kernel's launch error speaks the caller's terms", "[stencil_1d][mistakes][bad-input]",
                        test::Spaces) {
  using Exec = TestType;
  using V    = Kokkos::View<float*, typename Exec::memory_space>;
  V in("in", 100), out("out", 100), w("w", 2 * 20000 + 1);
  for (auto v : {Stencil1DVariant::halo_tile, Stencil1DVariant::vectorized}) {
    CAPTURE(name(v));
    CHECK_THROWS_WITH(stencil_1d(Exec(), v, in, w, out),
                      ContainsSubstring(std::string("stencil_1d (") + name(v) + "): radius 20000 (40001 weights)") &&
                          ContainsSubstring("smaller radius") && ContainsSubstring("kernel 'scratchkit::stencil_1d_") &&
                          !ContainsSubstring("LaunchParams::fallback"));
  }
}
