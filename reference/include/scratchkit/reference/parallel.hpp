// SPDX-License-Identifier: BSD-3-Clause
/// Host threads for the references and random fills of large inputs: the
/// perf harness checks every row of a 2^28-element comparison on the host,
/// where one thread spends seconds per row on the fill and the reference.
///
/// Work is cut into fixed chunks, so results never depend on how many threads
/// ran them. Uses std::thread: the scratchkit target links Threads::Threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <sched.h>
#endif

namespace scratchkit {
namespace check {
namespace detail {

/// Threads for host checks: the CPUs this process may run on (its affinity
/// mask on Linux, where an OpenMP or MPI launcher may have narrowed it;
/// std::thread::hardware_concurrency() elsewhere), at most 64;
/// SCRATCHKIT_CHECK_THREADS=N overrides it (read once per process).
inline unsigned check_threads() {
  static const unsigned n = [] {
    if (const char* v = std::getenv("SCRATCHKIT_CHECK_THREADS")) {
      const int k = std::atoi(v);
      if (k >= 1) return static_cast<unsigned>(k);
    }
    unsigned hw = std::thread::hardware_concurrency();
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) hw = static_cast<unsigned>(CPU_COUNT(&set));
#endif
    return std::min(hw == 0 ? 1u : hw, 64u);
  }();
  return n;
}

/// Calls f(begin, end, c) for chunk c = [c * chunk, min(n, (c + 1) * chunk))
/// of [0, n), each chunk once, on up to check_threads() threads; returns when
/// all are done. f must not throw (it runs on other threads).
template <class F>
void for_chunks(std::size_t n, std::size_t chunk, const F& f) {
  if (n == 0) return;
  const std::size_t nchunks = (n + chunk - 1) / chunk;
  const std::size_t nt      = std::min<std::size_t>(nchunks, check_threads());
  const auto one            = [&](std::size_t c) { f(c * chunk, std::min(n, (c + 1) * chunk), c); };
  if (nt <= 1) {
    for (std::size_t c = 0; c < nchunks; ++c) one(c);
    return;
  }
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t c = next++; c < nchunks; c = next++) one(c);
  };
  std::vector<std::thread> pool;
  pool.reserve(nt - 1);
  try {
    for (std::size_t t = 1; t < nt; ++t) pool.emplace_back(work);
  } catch (...) {
    // No more threads to be had (a process limit): the ones started and
    // this thread share the chunks.
  }
  work();
  for (auto& th : pool) th.join();
}

}  // namespace detail
}  // namespace check
}  // namespace scratchkit
