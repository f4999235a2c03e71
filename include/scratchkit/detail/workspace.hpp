// SPDX-License-Identifier: BSD-3-Clause
/// The layer's workspace: one buffer per memory space, kept between calls (the reductions' partials,
/// the host histogram's per-block counts).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <mutex>

namespace scratchkit {
namespace detail {

/// 16 bytes, 16-byte aligned: the element of the workspace.
struct alignas(16) WorkspaceWord {
  unsigned char b[16];
};

/// Buffer in MemSpace, kept between calls and grown when a call needs more:
/// no allocation per call. Released by a Kokkos finalize hook, so it never
/// outlives Kokkos. A call holds mutex() from its first launch on the buffer
/// until that work is done (fenced), so concurrent host threads take turns.
template <class MemSpace>
class Workspace {
 public:
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  /// At least `bytes` bytes, 16-byte aligned, contents undefined (call with mutex() held).
  static char* get(std::size_t bytes) {
    State& s = state();
    if (s.buffer.extent(0) * sizeof(WorkspaceWord) < bytes) {
      if (!s.hooked) {
        Kokkos::push_finalize_hook([] {
          state().buffer = Buffer();
          state().hooked = false;
        });
        s.hooked = true;
      }
      s.buffer = Buffer();  // free the smaller one first
      s.buffer = Buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "scratchkit::workspace"),
                        (bytes + sizeof(WorkspaceWord) - 1) / sizeof(WorkspaceWord));
    }
    return reinterpret_cast<char*>(s.buffer.data());
  }
  /// The buffer as the last get() left it, for the work of a call that holds mutex() (its kernels'
  /// threads on host backends, which do not hold it themselves); nullptr before any get().
  static char* data() { return reinterpret_cast<char*>(state().buffer.data()); }

 private:
  using Buffer = Kokkos::View<WorkspaceWord*, MemSpace>;
  struct State {
    Buffer buffer;
    bool hooked = false;
  };
  static State& state() {
    static State s;
    return s;
  }
};

}  // namespace detail
}  // namespace scratchkit
