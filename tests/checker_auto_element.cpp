// SPDX-License-Identifier: BSD-3-Clause
// A scratch element kept in `auto` and updated: in a build with the scratch checker, s[i] is a
// proxy, and updating a named proxy would write shared memory instead of a local copy, so it stops
// at a static_assert that says what to write (test checker_refuses_auto_element; built only by it).
#include <scratchkit/scratchkit.hpp>

void kernel_with_auto_element() {
  using E = Kokkos::DefaultHostExecutionSpace;
  using B = scratchkit::Block<E>;
  using S = scratchkit::SharedArray<float, 64>;
  scratchkit::launch(E(), "auto_element", scratchkit::LaunchParams(scratchkit::Dim3(1), scratchkit::Dim3(64)).uses<S>(),
                     KOKKOS_LAMBDA(const B& b) {
                       S s(b);
                       b.threads([&](const scratchkit::Thread& t) {
                         auto v = s[t.rank];
                         v += 1.0f;
                       });
                     });
}
