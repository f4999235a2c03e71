// SPDX-License-Identifier: BSD-3-Clause
/// Backend traits and small portable helpers shared by the layer's headers.
#pragma once

#include <scratchkit/config.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

/// Aborts the program from host or device code with a message, which ends
/// with a newline (Kokkos' host abort writes it as given), followed on the
/// host by the kernel and block of detail::FailSite where one is set.
#define SCRATCHKIT_ABORT(msg) ::scratchkit::detail::abort_line(msg)

namespace scratchkit {
namespace detail {

/// Host backends: the kernel label and block the calling thread runs, for the
/// messages of SCRATCHKIT_ABORT and SCRATCHKIT_FAIL; set by a FailSiteScope
/// around a block's body (none set: the messages name neither). GPU messages
/// name the hardware block and thread instead (SCRATCHKIT_FAIL).
struct FailSite {
  const char* label = nullptr;
  int x = 0, y = 0, z = 0;
};
#if !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__))
inline FailSite*& fail_site() {
  static thread_local FailSite* s = nullptr;
  return s;
}
/// Sets the calling thread's FailSite for its lifetime (host code only).
class FailSiteScope {
 public:
  FailSiteScope(const char* label, int x, int y, int z) : m_site{label, x, y, z}, m_prev(fail_site()) {
    fail_site() = &m_site;
  }
  ~FailSiteScope() { fail_site() = m_prev; }
  FailSiteScope(const FailSiteScope&)            = delete;
  FailSiteScope& operator=(const FailSiteScope&) = delete;

 private:
  FailSite m_site;
  FailSite* m_prev;
};
/// msg, the FailSite if set, and a newline, into buf (at most n bytes).
inline void fail_line(char* buf, std::size_t n, const char* msg) {
  std::size_t len = std::strlen(msg);
  while (len > 0 && msg[len - 1] == '\n') --len;  // one newline, whatever the message ends with
  const FailSite* s = fail_site();
  if (s != nullptr && s->label != nullptr)
    std::snprintf(buf, n, "%.*s (kernel '%s', block (%d, %d, %d))\n", static_cast<int>(len), msg, s->label, s->x,
                  s->y, s->z);
  else
    std::snprintf(buf, n, "%.*s\n", static_cast<int>(len), msg);
}
#endif

/// SCRATCHKIT_ABORT's body: on GPUs Kokkos' device abort (CUDA's assertion
/// report ends its line and names block and thread); on the host the message
/// through fail_line.
KOKKOS_INLINE_FUNCTION void abort_line(const char* msg) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__)
  ::Kokkos::abort(msg);
#else
  char buf[1024];
  fail_line(buf, sizeof buf, msg);
  ::Kokkos::abort(buf);
#endif
}

}  // namespace detail
}  // namespace scratchkit

#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
/// Checks cond on every access when bounds checks are on; compiles to nothing otherwise.
#define SCRATCHKIT_BOUNDS_CHECK(cond, msg) \
  do {                                     \
    if (!(cond)) SCRATCHKIT_ABORT(msg);    \
  } while (0)
#else
#define SCRATCHKIT_BOUNDS_CHECK(cond, msg) \
  do {                                     \
  } while (0)
#endif

/// SCRATCHKIT_FAIL(fmt, ...): stops the program with a printf-style message
/// that names the values at fault. In GPU device code the message is printed
/// with the device's printf and the kernel traps (the host then sees a failed
/// launch, the message is in the output); on the host it is formatted and
/// handed to Kokkos::abort. Arguments must be printf-safe on both sides: pass
/// integers as int or long long (%d, %lld), never size_t.
#if defined(__CUDA_ARCH__)
#define SCRATCHKIT_TRAP_() __trap()
#else
#define SCRATCHKIT_TRAP_() __builtin_trap()
#endif
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
// The hardware block and thread: the layer's block_idx() is the league rank in grid order, which a
// kernel with a one-dimensional grid and no team loop sees as blockIdx.x.
#define SCRATCHKIT_FAIL(...)                                                                         \
  do {                                                                                               \
    printf(__VA_ARGS__);                                                                             \
    printf(" (GPU blockIdx (%d, %d, %d), threadIdx (%d, %d, %d))\n", static_cast<int>(blockIdx.x),   \
           static_cast<int>(blockIdx.y), static_cast<int>(blockIdx.z), static_cast<int>(threadIdx.x), \
           static_cast<int>(threadIdx.y), static_cast<int>(threadIdx.z));                             \
    SCRATCHKIT_TRAP_();                                                                              \
  } while (0)
#elif defined(__SYCL_DEVICE_ONLY__)
#define SCRATCHKIT_FAIL(...) SCRATCHKIT_ABORT("scratchkit: a scratch check failed (values printed on CUDA and HIP only)")
#else
#define SCRATCHKIT_FAIL(...)                                                       \
  do {                                                                             \
    char scratchkit_fail_msg_[512];                                                \
    std::snprintf(scratchkit_fail_msg_, sizeof scratchkit_fail_msg_, __VA_ARGS__); \
    SCRATCHKIT_ABORT(scratchkit_fail_msg_);  /* adds the FailSite and the newline */ \
  } while (0)
#endif

/// SCRATCHKIT_REQUIRE(cond, msg): a check of the launch plan made inside a
/// kernel (scratch declared beyond what the launch planned). On host backends
/// and with SCRATCHKIT_ENABLE_BOUNDS_CHECK it aborts with msg. In GPU device
/// code otherwise it traps: Kokkos::abort there is a printf call, whose
/// argument buffer and calling convention cost every kernel a stack frame,
/// registers and a dozen instructions before its first load even when the
/// check passes (perf/NOTES.md); a trap is one predicated instruction.
#if defined(SCRATCHKIT_ENABLE_BOUNDS_CHECK) || \
    !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
#define SCRATCHKIT_REQUIRE(cond, msg)   \
  do {                                  \
    if (!(cond)) SCRATCHKIT_ABORT(msg); \
  } while (0)
#elif defined(__CUDA_ARCH__)
#define SCRATCHKIT_REQUIRE(cond, msg) \
  do {                                \
    if (!(cond)) __trap();            \
  } while (0)
#else
#define SCRATCHKIT_REQUIRE(cond, msg) \
  do {                                \
    if (!(cond)) __builtin_trap();    \
  } while (0)
#endif

/// SCRATCHKIT_HOST_CHECK(cond, msg): a check that host backends always make
/// and GPU device code makes only with SCRATCHKIT_ENABLE_BOUNDS_CHECK (the
/// condition is already checked on the host before the launch).
#if defined(SCRATCHKIT_ENABLE_BOUNDS_CHECK) || \
    !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__))
#define SCRATCHKIT_HOST_CHECK(cond, msg) \
  do {                                   \
    if (!(cond)) SCRATCHKIT_ABORT(msg);  \
  } while (0)
#else
#define SCRATCHKIT_HOST_CHECK(cond, msg) \
  do {                                   \
  } while (0)
#endif

/// The same three checks with a printf-style message naming the values
/// (SCRATCHKIT_FAIL): `SCRATCHKIT_REQUIRE_V(off <= n, "scratchkit: %lld past %lld", a, b)`.
#define SCRATCHKIT_CHECK_V_(cond, ...)         \
  do {                                         \
    if (!(cond)) SCRATCHKIT_FAIL(__VA_ARGS__); \
  } while (0)
#define SCRATCHKIT_NO_CHECK_V_(cond, ...) \
  do {                                    \
  } while (0)
#ifdef SCRATCHKIT_ENABLE_BOUNDS_CHECK
#define SCRATCHKIT_BOUNDS_CHECK_V SCRATCHKIT_CHECK_V_
#else
#define SCRATCHKIT_BOUNDS_CHECK_V SCRATCHKIT_NO_CHECK_V_
#endif
#if defined(SCRATCHKIT_ENABLE_BOUNDS_CHECK) || \
    !(defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || defined(__SYCL_DEVICE_ONLY__))
#define SCRATCHKIT_REQUIRE_V SCRATCHKIT_CHECK_V_
#define SCRATCHKIT_HOST_CHECK_V SCRATCHKIT_CHECK_V_
#else
// GPU release builds: the plan check traps (one predicated instruction, see
// SCRATCHKIT_REQUIRE), the host-checked one compiles to nothing.
#define SCRATCHKIT_REQUIRE_V(cond, ...) \
  do {                                  \
    if (!(cond)) SCRATCHKIT_TRAP_();    \
  } while (0)
#define SCRATCHKIT_HOST_CHECK_V SCRATCHKIT_NO_CHECK_V_
#endif

namespace scratchkit {
namespace detail {

/// True for execution spaces that cannot touch host memory (CUDA, HIP, SYCL):
/// there one logical thread is one hardware thread of the team.
template <class ExecSpace>
struct is_gpu_space
    : std::integral_constant<
          bool, !Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible> {};

/// Alignment every block's scratch base is raised to (TMA-style destinations).
constexpr std::size_t base_alignment = 128;

KOKKOS_INLINE_FUNCTION constexpr std::size_t round_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

KOKKOS_INLINE_FUNCTION constexpr bool is_pow2(std::size_t a) { return a != 0 && (a & (a - 1)) == 0; }

/// p, with the fact that it is Align-aligned handed to the device compiler.
/// A native `__shared__` array is placed by the compiler, which knows its
/// alignment and vectorises row accesses (ld.shared.v4); a scratch pointer
/// computed at run time needs the fact stated, or every access stays scalar
/// (docs/performance.md, "Launch and scratch"). Host code gets p unchanged, so host tests
/// still check the alignment at run time instead of assuming it.
template <std::size_t Align, class T>
KOKKOS_FORCEINLINE_FUNCTION T* assume_aligned(T* p) {
#if defined(__CUDA_ARCH__)
  return static_cast<T*>(__builtin_assume_aligned(p, Align));
#else
  return p;
#endif
}

/// p, a pointer into level-0 scratch (shared memory on CUDA), with its origin
/// hidden from the optimiser (an empty asm on its 32-bit shared offset): same
/// address, same state space, but no longer an expression of the other
/// scratch pointers. For a kernel where nvcc folds one scratch array's address
/// into another's and recomputes it inside conditionals, turning predicated
/// loads into branches (the 1-D vectorized stencil's weights; docs/performance.md, "1-D stencil").
template <class T>
KOKKOS_FORCEINLINE_FUNCTION const T* opaque_shared(const T* p) {
#if defined(__CUDA_ARCH__)
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("" : "+r"(s));
  return static_cast<const T*>(__cvta_shared_to_generic(s));
#else
  return p;
#endif
}

}  // namespace detail
}  // namespace scratchkit
