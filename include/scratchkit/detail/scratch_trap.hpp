// SPDX-License-Identifier: BSD-3-Clause
/// The scratch checker's traps for raw-pointer accesses to a checked block's scratch (Linux, x86-64).
#pragma once

// The scratch is mapped twice: read-write for the checker and `s[i]`, inaccessible where `data()`
// and `&s[i]` point, so each access through a raw pointer faults and is recorded, then single-steps
// with its page open (docs/checker.md, "Raw pointers"); unchecked launches never map it so.

#include <cstddef>

#if defined(__linux__) && defined(__x86_64__) && !defined(SCRATCHKIT_NO_SCRATCH_TRAP)
#define SCRATCHKIT_SCRATCH_TRAP 1
#include <cpuid.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#else
#define SCRATCHKIT_SCRATCH_TRAP 0
#endif

namespace scratchkit {
namespace detail {
namespace scheck {
namespace trap {

/// One access through the protected view, decoded from the instruction that made it.
struct RawAccess {
  enum Kind : unsigned char { load, store, rmw, atomic };
  const char* addr;  ///< the first byte, in the protected view
  std::size_t size;  ///< bytes; 0 where the instruction was not decoded (the element at addr is taken)
  Kind kind;
  const void* pc;    ///< the instruction
};
/// Where a thread's faults go: the recorder of its block.
using Sink = void (*)(void* ctx, const RawAccess&);

#if SCRATCHKIT_SCRATCH_TRAP

/// What a faulting instruction does to memory.
struct Insn {
  unsigned size = 0;       // operand bytes (0: not decoded)
  bool rmw      = false;   // reads and writes its memory operand
  bool lock     = false;   // a LOCK prefix, or xchg with memory: atomic
  unsigned char str = 0;   // a string instruction: its opcode (A4 movs, A6 cmps, AA stos, AC lods, AE scas)
  bool rep      = false;   // with a REP prefix: RCX iterations
  unsigned char mask = 0;  // EVEX opmask register (0: none)
  unsigned elem = 0;       // EVEX: bytes per masked element
};

/// Decodes the memory operand's size and use for the forms compilers and libc emit on scratch:
/// mov, ALU, movzx/movsx, SSE/AVX/AVX-512 moves and arithmetic, FMA, broadcasts, string ops.
inline Insn decode(const unsigned char* p) {
  Insn in;
  bool opsz = false, rexw = false, bcast = false;
  unsigned char rep = 0;
  for (;; ++p) {
    const unsigned char b = *p;
    if (b == 0xF0) in.lock = true;
    else if (b == 0xF2 || b == 0xF3) rep = b;
    else if (b == 0x66) opsz = true;
    else if (b == 0x67 || b == 0x2E || b == 0x36 || b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65) continue;
    else break;
  }
  if ((*p & 0xF0) == 0x40) rexw = (*p & 8) != 0, ++p;
  int map = 0, vl = 0;
  int pp = rep == 0xF3 ? 2 : rep == 0xF2 ? 3 : opsz ? 1 : 0;
  if (*p == 0xC5) {
    vl = (p[1] >> 2) & 1, pp = p[1] & 3, map = 1, p += 2;
  } else if (*p == 0xC4) {
    map = p[1] & 0x1F, rexw = (p[2] & 0x80) != 0, vl = (p[2] >> 2) & 1, pp = p[2] & 3, p += 3;
  } else if (*p == 0x62) {
    map = p[1] & 7, rexw = (p[2] & 0x80) != 0, pp = p[2] & 3, vl = (p[3] >> 5) & 3, in.mask = p[3] & 7;
    bcast = (p[3] & 0x10) != 0;
    p += 4;
  } else if (*p == 0x0F) {
    ++p, map = 1;
    if (*p == 0x38) ++p, map = 2;
    else if (*p == 0x3A) ++p, map = 3;
  }
  const unsigned char op = *p;
  const int reg          = (p[1] >> 3) & 7;  // ModRM.reg, where the opcode takes a ModRM byte
  const unsigned osz     = rexw ? 8 : opsz ? 2 : 4;
  const unsigned vec     = 16u << vl;
  const unsigned sc      = pp == 2 ? 4 : pp == 3 ? 8 : vec;  // none/66: packed; F3: ss; F2: sd
  unsigned& s            = in.size;
  if (map == 0) {
    if (op < 0x40 && (op & 7) < 4) {  // add or adc sbb and sub xor cmp, r/m and r
      s = (op & 1) ? osz : 1, in.rmw = (op & 2) == 0 && (op & 0x38) != 0x38;
    } else if (op == 0x84 || op == 0x85 || op == 0x88 || op == 0x89 || op == 0x8A || op == 0x8B) {
      s = (op & 1) ? osz : 1;
    } else if (op == 0x86 || op == 0x87) {
      s = (op & 1) ? osz : 1, in.rmw = in.lock = true;
    } else if (op == 0x63) {
      s = 4;
    } else if (op == 0x80 || op == 0x81 || op == 0x83) {
      s = op == 0x80 ? 1 : osz, in.rmw = reg != 7;
    } else if (op == 0xC6 || op == 0xC7) {
      s = op == 0xC6 ? 1 : osz;
    } else if (op == 0xF6 || op == 0xF7) {
      s = op == 0xF6 ? 1 : osz, in.rmw = reg == 2 || reg == 3;
    } else if (op == 0xFE || op == 0xFF) {
      s = op == 0xFE ? 1 : (reg >= 2 && reg <= 6) ? 8 : osz, in.rmw = reg <= 1;
    } else if (op == 0xC0 || op == 0xC1 || (op >= 0xD0 && op <= 0xD3)) {
      s = (op & 1) ? osz : 1, in.rmw = true;
    } else if ((op >= 0xA4 && op <= 0xA7) || (op >= 0xAA && op <= 0xAF)) {
      s = (op & 1) ? osz : 1, in.str = op & 0xFE, in.rep = rep != 0;
    } else if (op == 0xD9) {
      s = 4;  // fld / fst m32
    } else if (op == 0xDD) {
      s = 8;
    }
  } else if (map == 1) {
    if (op == 0x10 || op == 0x11 || op == 0xC2 || (op >= 0x51 && op <= 0x5F && op != 0x5A && op != 0x5B)) s = sc;
    else if (op == 0x5A) s = pp == 2 ? 4 : pp == 3 ? 8 : pp == 0 ? vec / 2 : vec;
    else if (op == 0x12 || op == 0x13 || op == 0x16 || op == 0x17) s = pp == 2 ? vec : 8;
    else if (op == 0x14 || op == 0x15 || op == 0x28 || op == 0x29 || op == 0x2B || op == 0x5B || op == 0xC6) s = vec;
    else if (op == 0x2A) s = pp >= 2 ? osz : 8;
    else if (op == 0x2C || op == 0x2D) s = pp == 3 ? 8 : 4;
    else if (op == 0x2E || op == 0x2F) s = pp == 1 ? 8 : 4;
    else if (op == 0x6E || op == 0x7E) s = (op == 0x7E && pp == 2) ? 8 : rexw ? 8 : 4;
    else if (op == 0x6F || op == 0x7F || op == 0xE7) s = pp == 0 ? 8 : vec;
    else if (op == 0xD6) s = 8;
    else if (op == 0xB6 || op == 0xBE) s = 1;
    else if (op == 0xB7 || op == 0xBF || op == 0xC4) s = 2;
    else if (op == 0xB0 || op == 0xC0) s = 1, in.rmw = true;
    else if (op == 0xB1 || op == 0xC1) s = osz, in.rmw = true;
    else if (op == 0xC7 && reg == 1) s = rexw ? 16 : 8, in.rmw = true;
    else if (op == 0xAF || op == 0xC3 || (op >= 0x40 && op <= 0x4F)) s = osz;
    else if ((op >= 0x60 && op <= 0x6D) || (op >= 0x70 && op <= 0x76) || (op >= 0xD0 && op <= 0xFE)) s = pp == 1 ? vec : 8;
  } else if (map == 2) {
    if (op == 0x18 || op == 0x58) s = 4;
    else if (op == 0x19 || op == 0x59) s = 8;
    else if (op == 0x1A || op == 0x5A) s = 16;
    else if (op == 0x78) s = 1;
    else if (op == 0x79) s = 2;
    else if ((op >= 0x20 && op <= 0x25) || (op >= 0x30 && op <= 0x35)) {
      static constexpr unsigned char div[6] = {2, 4, 8, 2, 4, 2};
      s = vec / div[op & 0xF];
    } else if (op >= 0x96 && op <= 0xBF) {
      const int lo = op & 0xF;
      s = (op >= 0x99 && (lo == 9 || lo == 0xB || lo == 0xD || lo == 0xF)) ? (rexw ? 8 : 4) : vec;
    } else if (op <= 0x17 || (op >= 0x1C && op <= 0x1E) || (op >= 0x28 && op <= 0x2F) || (op >= 0x36 && op <= 0x40)) {
      s = vec;
    }
  } else if (map == 3) {
    if (op == 0x14 || op == 0x20) s = 1;
    else if (op == 0x15) s = 2;
    else if (op == 0x16 || op == 0x22) s = rexw ? 8 : 4;
    else if (op == 0x17 || op == 0x21 || op == 0x0A) s = 4;
    else if (op == 0x0B) s = 8;
    else if (op == 0x18 || op == 0x19 || op == 0x38 || op == 0x39) s = 16;
    else if (op == 0x06 || op == 0x46) s = 32;
    else if ((op >= 0x08 && op <= 0x0F) || op == 0x40) s = vec;
  }
  if (bcast && s) s = rexw ? 8 : 4, in.mask = 0;  // EVEX embedded broadcast: one element read
  if (in.mask) {
    // EVEX moves under a mask touch only the elements whose bit is set: their size.
    in.elem = (map == 1 && (op == 0x6F || op == 0x7F)) ? (pp == 3 ? (rexw ? 2 : 1) : (rexw ? 8 : 4))
                                                      : (rexw ? 8 : 4);
  }
  return in;
}

/// Per host thread; trivially constructible, so the signal handlers may read it.
struct State {
  char* prot   = nullptr;  // the inaccessible view of the thread's scratch arena
  char* rw     = nullptr;  // the read-write view of the same memory
  std::size_t cap = 0;     // bytes mapped (whole pages)
  std::size_t len = 0;     // bytes of the recorded block
  bool armed    = false;   // a recorded block runs: faults in [prot, prot + len) are its accesses
  bool stepping = false;   // an instruction is being single-stepped with pages opened
  bool string_op = false;  // it is a REP string instruction (a trap after each iteration)
  char* open_lo = nullptr;
  char* open_hi = nullptr;
  const unsigned char* step_pc = nullptr;
  Sink sink = nullptr;
  void* ctx = nullptr;
};
inline thread_local State state;

struct Handlers {
  std::mutex m;
  struct sigaction old_segv {}, old_trap {};
  long page = 0;
  unsigned k_offset = 0;  // XSAVE offset of the AVX-512 opmask registers in a signal frame (0: none)
};
inline Handlers& handlers() {
  static Handlers h;
  return h;
}

inline void chain(const struct sigaction& old, int sig, siginfo_t* si, void* uc) {
  if (old.sa_flags & SA_SIGINFO) {
    if (old.sa_sigaction) return old.sa_sigaction(sig, si, uc);
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN && old.sa_handler) {
    return old.sa_handler(sig);
  }
  // The default action: let the instruction fault again with it.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigaction(sig, &dfl, nullptr);
}

inline void open_pages(State& s, const char* lo, const char* hi) {
  const std::uintptr_t pg = static_cast<std::uintptr_t>(handlers().page);
  char* a = s.prot + ((reinterpret_cast<std::uintptr_t>(lo) - reinterpret_cast<std::uintptr_t>(s.prot)) / pg) * pg;
  char* b = s.prot + ((reinterpret_cast<std::uintptr_t>(hi) - reinterpret_cast<std::uintptr_t>(s.prot) + pg - 1) / pg) * pg;
  if (a < s.prot) a = s.prot;
  if (b > s.prot + s.cap) b = s.prot + s.cap;
  if (s.open_hi > s.open_lo) {  // a second page of the same instruction
    if (s.open_lo < a) a = s.open_lo;
    if (s.open_hi > b) b = s.open_hi;
  }
  mprotect(a, static_cast<std::size_t>(b - a), PROT_READ | PROT_WRITE);
  s.open_lo = a, s.open_hi = b;
}

inline void report(State& s, const char* addr, std::size_t n, RawAccess::Kind k, const void* pc) {
  if (n == 0 || addr + n <= s.prot || addr >= s.prot + s.len) return;
  s.sink(s.ctx, RawAccess{addr, n, k, pc});
}

/// The bytes of an EVEX masked access: one report per run of set mask bits.
inline void report_masked(State& s, const ucontext_t* uc, const Insn& in, const char* addr, RawAccess::Kind k,
                          const void* pc) {
  const unsigned off = handlers().k_offset;
  std::uint64_t mask = ~std::uint64_t(0);
  if (off && uc->uc_mcontext.fpregs)
    mask = reinterpret_cast<const std::uint64_t*>(reinterpret_cast<const char*>(uc->uc_mcontext.fpregs) + off)[in.mask];
  const unsigned n = in.size / in.elem;
  // The fault address is the first unmasked element's: the operand starts `lead` elements before.
  unsigned lead = 0;
  while (lead < n && !((mask >> lead) & 1)) ++lead;
  const char* base = addr - std::size_t(lead) * in.elem;
  for (unsigned e = 0; e < n;) {
    if (!((mask >> e) & 1)) {
      ++e;
      continue;
    }
    unsigned f = e;
    while (f < n && ((mask >> f) & 1)) ++f;
    report(s, base + std::size_t(e) * in.elem, std::size_t(f - e) * in.elem, k, pc);
    e = f;
  }
}

inline void on_segv(int sig, siginfo_t* si, void* ctx) {
  State& s = state;
  char* a  = static_cast<char*>(si->si_addr);
  if (!s.armed || !s.prot || a < s.prot || a >= s.prot + s.cap) return chain(handlers().old_segv, sig, si, ctx);
  auto* uc = static_cast<ucontext_t*>(ctx);
  greg_t* g = uc->uc_mcontext.gregs;
  const auto* pc = reinterpret_cast<const unsigned char*>(g[REG_RIP]);
  const bool write = (g[REG_ERR] & 2) != 0;
  const Insn in = decode(pc);
  if (in.str) {
    // The whole string operation at once: its source and destination ranges, then the arena
    // stays open until the instruction is done (a trap after each iteration).
    const std::size_t count = in.rep ? static_cast<std::size_t>(g[REG_RCX]) : 1;
    const std::size_t bytes = count * in.size;
    const bool down = (g[REG_EFL] & 0x400) != 0;
    auto range = [&](greg_t r) {
      const char* p0 = reinterpret_cast<const char*>(r);
      return down ? p0 - (bytes - in.size) : p0;
    };
    if (in.str == 0xA4 || in.str == 0xA6 || in.str == 0xAC) report(s, range(g[REG_RSI]), bytes, RawAccess::load, pc);
    if (in.str == 0xA4 || in.str == 0xAA) report(s, range(g[REG_RDI]), bytes, RawAccess::store, pc);
    if (in.str == 0xA6 || in.str == 0xAE) report(s, range(g[REG_RDI]), bytes, RawAccess::load, pc);
    s.open_lo = s.open_hi = nullptr;
    open_pages(s, s.prot, s.prot + s.cap);
    s.string_op = true;
  } else {
    const RawAccess::Kind k = in.lock ? RawAccess::atomic : in.rmw ? RawAccess::rmw
                                                                   : write ? RawAccess::store : RawAccess::load;
    if (!s.stepping) s.open_lo = s.open_hi = nullptr;
    if (in.mask && in.elem && in.size) {
      report_masked(s, uc, in, a, k, pc);
    } else {
      // Undecoded: the element at the address (the recorder knows its size).
      const std::size_t n = in.size ? in.size : 0;
      if (a < s.prot + s.len) s.sink(s.ctx, RawAccess{a, n, k, pc});
    }
    open_pages(s, a, a + (in.size ? in.size : 16));
    s.string_op = false;
  }
  s.stepping = true;
  s.step_pc  = pc;
  g[REG_EFL] |= 0x100;  // the trap flag: SIGTRAP after this one instruction
}

inline void on_trap(int sig, siginfo_t* si, void* ctx) {
  State& s = state;
  if (!s.stepping) return chain(handlers().old_trap, sig, si, ctx);
  greg_t* g = static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs;
  if (s.string_op && reinterpret_cast<const unsigned char*>(g[REG_RIP]) == s.step_pc) return;  // the next iteration
  mprotect(s.open_lo, static_cast<std::size_t>(s.open_hi - s.open_lo), PROT_NONE);
  s.open_lo = s.open_hi = nullptr;
  s.stepping = s.string_op = false;
  g[REG_EFL] &= ~greg_t(0x100);
}

/// Puts the handlers in place where another (a test framework's, per test case) replaced them.
inline void install() {
  Handlers& h = handlers();
  std::lock_guard<std::mutex> lock(h.m);
  if (!h.page) {
    h.page = sysconf(_SC_PAGESIZE);
    unsigned eax, ebx, ecx, edx;
    // AVX-512 opmask state (XSAVE component 5): where a signal frame keeps k0..k7.
    if (__get_cpuid_count(0xD, 5, &eax, &ebx, &ecx, &edx) && eax >= 64) h.k_offset = ebx;
  }
  struct sigaction cur {};
  sigaction(SIGSEGV, nullptr, &cur);
  if (!((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == &on_segv)) {
    struct sigaction sa {};
    sa.sa_sigaction = &on_segv;
    sa.sa_flags     = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &h.old_segv);
  }
  sigaction(SIGTRAP, nullptr, &cur);
  if (!((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == &on_trap)) {
    struct sigaction sa {};
    sa.sa_sigaction = &on_trap;
    sa.sa_flags     = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTRAP, &sa, &h.old_trap);
  }
}

/// Maps (or reuses) this thread's arena for a block of `bytes` and arms the handlers: returns the
/// inaccessible view for the block's addresses and sets `*rw` to the read-write one; nullptr
/// where the mapping fails (the checker then keeps the block's own scratch).
inline char* arm(std::size_t bytes, char** rw, Sink sink, void* ctx) {
  State& s = state;
  install();
  const std::size_t pg   = static_cast<std::size_t>(handlers().page);
  const std::size_t need = ((bytes ? bytes : 1) + pg - 1) / pg * pg;
  if (need > s.cap) {
    if (s.prot) munmap(s.prot, s.cap), munmap(s.rw, s.cap);
    s.prot = s.rw = nullptr, s.cap = 0;
    const int fd = static_cast<int>(syscall(SYS_memfd_create, "scratchkit-scratch", 1u /* MFD_CLOEXEC */));
    if (fd < 0) return nullptr;
    void* w = MAP_FAILED;
    void* p = MAP_FAILED;
    if (ftruncate(fd, static_cast<off_t>(need)) == 0) {
      w = mmap(nullptr, need, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      p = mmap(nullptr, need, PROT_NONE, MAP_SHARED, fd, 0);
    }
    close(fd);
    if (w == MAP_FAILED || p == MAP_FAILED) {
      if (w != MAP_FAILED) munmap(w, need);
      if (p != MAP_FAILED) munmap(p, need);
      return nullptr;
    }
    s.rw = static_cast<char*>(w), s.prot = static_cast<char*>(p), s.cap = need;
  }
  s.len = bytes, s.sink = sink, s.ctx = ctx, s.armed = true;
  *rw = s.rw;
  return s.prot;
}
inline void disarm() { state.armed = false; }

/// "module+0xoffset" of an instruction (addr2line -e module offset gives its line).
inline void describe(const void* pc, char* out, std::size_t n) {
  Dl_info info{};
  if (dladdr(pc, &info) && info.dli_fname) {
    const char* name = info.dli_fname;
    for (const char* c = name; *c; ++c)
      if (*c == '/') name = c + 1;
    std::snprintf(out, n, "%s+0x%lx", name,
                  static_cast<unsigned long>(reinterpret_cast<std::uintptr_t>(pc) -
                                             reinterpret_cast<std::uintptr_t>(info.dli_fbase)));
  } else {
    std::snprintf(out, n, "pc 0x%lx", static_cast<unsigned long>(reinterpret_cast<std::uintptr_t>(pc)));
  }
}

#endif  // SCRATCHKIT_SCRATCH_TRAP

}  // namespace trap
}  // namespace scheck
}  // namespace detail
}  // namespace scratchkit
