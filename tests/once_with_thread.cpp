// SPDX-License-Identifier: BSD-3-Clause
// Block::once given a callable that takes a Thread, as threads(f) would: must not compile, and
// the error must be Block::once's static_assert saying what to write (test once_takes_no_thread).
#include <scratchkit/scratchkit.hpp>

#include <Kokkos_Core.hpp>

void once_with_thread(Kokkos::View<int*> out) {
  using Block = scratchkit::Block<Kokkos::DefaultHostExecutionSpace>;
  scratchkit::launch(Kokkos::DefaultHostExecutionSpace(), "once_with_thread", scratchkit::LaunchParams(1, 32),
                     [=](const Block& b) { b.once([&](const scratchkit::Thread& t) { out(0) = t.rank; }); });
}
