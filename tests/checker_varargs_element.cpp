// SPDX-License-Identifier: BSD-3-Clause
// A scratch element passed through a user's own `...`: in a build with the scratch checker s[i] is
// a proxy, whose bytes are not the element's value, so the call does not compile (Clang refuses a
// non-trivial object through `...`; GCC, which would pass it silently, is made to by
// detail/scratch_ref.hpp). printf, std::printf and Kokkos::printf take it (test_scratch_check_idioms.cpp).
// Test checker_refuses_varargs_element; built only by it.
#include <scratchkit/scratchkit.hpp>

#include <cstdarg>

void log_values(const char* format, ...);

void kernel_with_varargs_element() {
  using E = Kokkos::DefaultHostExecutionSpace;
  using B = scratchkit::Block<E>;
  using S = scratchkit::SharedArray<float, 64>;
  scratchkit::launch(E(), "varargs_element", scratchkit::LaunchParams(scratchkit::Dim3(1), scratchkit::Dim3(64)).uses<S>(),
                     KOKKOS_LAMBDA(const B& b) {
                       S s(b);
                       b.threads([&](const scratchkit::Thread& t) { log_values("%f", s[t.rank]); });
                     });
}
