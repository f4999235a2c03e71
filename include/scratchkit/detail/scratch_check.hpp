// SPDX-License-Identifier: BSD-3-Clause
/// The scratch checker's recorder: hooks the layer calls on host backends, compiled in by SCRATCHKIT_ENABLE_SCRATCH_CHECK.
#pragma once

#include <scratchkit/scratch_check.hpp>

/// SCRATCHKIT_SCRATCH_CHECK_HOOKS: 1 where the hooks record (host code of a
/// checking build); device passes see none, so GPU code is unchanged.
#if defined(SCRATCHKIT_ENABLE_SCRATCH_CHECK) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__) && \
    !defined(__SYCL_DEVICE_ONLY__)
#define SCRATCHKIT_SCRATCH_CHECK_HOOKS 1
#else
#define SCRATCHKIT_SCRATCH_CHECK_HOOKS 0
#endif

#if SCRATCHKIT_SCRATCH_CHECK_HOOKS
#include <scratchkit/detail/scratch_trap.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace scratchkit {
namespace detail {
namespace scheck {

template <class T>
const char* type_name() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same<U, float>::value) return "float";
  else if constexpr (std::is_same<U, double>::value) return "double";
  else if constexpr (std::is_same<U, int>::value) return "int";
  else if constexpr (std::is_same<U, unsigned>::value) return "unsigned";
  else if constexpr (std::is_same<U, long>::value) return "long";
  else if constexpr (std::is_same<U, unsigned long>::value) return "unsigned long";
  else if constexpr (std::is_same<U, long long>::value) return "long long";
  else if constexpr (std::is_same<U, unsigned long long>::value) return "unsigned long long";
  else if constexpr (std::is_same<U, char>::value) return "char";
  else if constexpr (std::is_same<U, short>::value) return "short";
  else return sizeof(U) == 4 ? "T4" : sizeof(U) == 8 ? "T8" : sizeof(U) == 16 ? "T16" : "T";
}

/// One launch under the checker: options, and the report the blocks merge into.
class LaunchCheck {
 public:
  LaunchCheck(const ScratchCheck& opts, std::string label, std::string space, int warp = 32)
      : m_opts(opts), m_warp(warp) {
    m_report.label = std::move(label);
    m_report.space = std::move(space);
  }
  /// Lanes of the launch's warps: sync_warp orders the accesses of one warp's lanes.
  int warp() const { return m_warp; }
  const ScratchCheck& options() const { return m_opts; }
  std::mutex& mutex() { return m_mutex; }
  ScratchCheckReport& report() { return m_report; }
  /// The entry of `name` in the report's array table.
  ScratchArrayConflicts& array(const std::string& name) {
    for (auto& a : m_report.arrays)
      if (a.array == name) return a;
    m_report.arrays.emplace_back();
    m_report.arrays.back().array = name;
    return m_report.arrays.back();
  }
  /// True the first time `key` (a misuse's kind and site, an uninitialised element) is seen in the
  /// launch: one finding each.
  bool first(const std::string& key) { return m_keys.insert(key).second; }
  /// After the launch: prints, stores, throws as the options ask.
  void finish() {
    const std::string text = m_report.str();
    if (m_opts.print) std::fputs(text.c_str(), stdout), std::fflush(stdout);
    if (m_opts.report) *m_opts.report = m_report;
    if (m_opts.reports) m_opts.reports->push_back(m_report);
    if (m_opts.throw_on_race && (m_report.races > 0 || m_report.misuses > 0)) throw ScratchRaceError(text);
  }

 private:
  ScratchCheck m_opts;
  int m_warp;
  std::mutex m_mutex;
  ScratchCheckReport m_report;
  std::set<std::string> m_keys;
};

/// A name that outlives the host thread that made it (a finding's site keeps the pointer).
inline const char* intern(const std::string& name) {
  static std::mutex m;
  static auto* names = new std::unordered_set<std::string>();  // never freed: a report may outlive statics
  std::lock_guard<std::mutex> lock(m);
  return names->insert(name).first->c_str();
}

/// What a hooked access does (the proxy of scratch_ref.hpp knows; a `T&` access does not: unknown).
/// load_kept: a load by an element whose store may follow (std::swap): recorded with it.
enum class Op : unsigned char { load, store, rmw, atomic, address, unknown, load_kept };

/// Records one block at a time for the host thread that runs it: every
/// logical thread's accesses, phase by phase.
class Recorder {
 public:
  // -- block -------------------------------------------------------------
  /// Returns the scratch the block is to use: where raw-pointer accesses trap (scratch_trap.hpp),
  /// the read-write view of memory mapped twice, whose inaccessible view `raw_view` hands out; else `base`.
  char* begin_block(LaunchCheck* lc, char* base, std::size_t bytes, int bx, int by, int bz, int tx, int ty) {
    m_prot = nullptr;
#if SCRATCHKIT_SCRATCH_TRAP
    char* rw = nullptr;
    if (char* prot = trap::arm(bytes, &rw, &Recorder::raw_sink, this)) m_prot = prot, base = rw;
#endif
    m_launch = lc;
    m_warp   = lc->warp();
    m_base   = base;
    m_bytes  = bytes;
    m_bidx[0] = bx, m_bidx[1] = by, m_bidx[2] = bz;
    m_bdim[0] = tx, m_bdim[1] = ty;
    m_rank   = -1;
    m_arrays.clear();
    m_statics = 0;
    if (m_shadow.size() < bytes) m_shadow.resize(bytes);
    ++m_block_stamp;
    // Poison: what raw-pointer stores leave is then seen as a change of the bytes.
    std::memset(base, poison, bytes);
    m_copy.assign(base, base + bytes);
    m_phase = 0;
    m_max_rank = -1;
    m_uninit_seen.clear();
    m_misuse_seen.clear();
    m_blocks_local = 1;
    m_phases_local = 0;
    m_raw_load.size = 0;
    begin_phase();
    return m_base;
  }
  void end_block() {
    flush_raw();
#if SCRATCHKIT_SCRATCH_TRAP
    if (m_prot) trap::disarm();
#endif
    end_phase();
    flush();
    m_launch = nullptr;
  }
  /// The address `data()` and `&s[i]` hand out for the block's `p`: in the inaccessible view, where
  /// accesses trap and are recorded; `p` itself where they do not trap.
  template <class T>
  T* raw_view(T* p) const {
    const char* c = reinterpret_cast<const char*>(p);
    if (!m_prot || c < m_base || c > m_base + m_bytes) return p;  // one past the end: end()
    return reinterpret_cast<T*>(m_prot + (c - m_base));
  }

  // -- arrays --------------------------------------------------------------
  void add_array(const void* p, std::size_t bytes, std::size_t elem, int pitch, std::string name, bool is_static) {
    const std::size_t off = offset_of(p);
    if (off == npos) return;
    for (auto& a : m_arrays)
      if (a.begin == off && a.end == off + bytes) {
        if (is_static) return;  // a PaddedTile renames its storage below, a repeated get() changes nothing
        a.elem = elem, a.pitch = pitch, a.name = std::move(name);
        return;
      }
    m_arrays.push_back(Array{off, off + bytes, elem, pitch, std::move(name)});
  }
  /// Names the static array just taken: "static[i] <what>".
  void add_static(const void* p, std::size_t bytes, std::size_t elem, const std::string& what) {
    std::string name = "static[" + std::to_string(m_statics++) + "] " + what;
    add_array(p, bytes, elem, 0, std::move(name), false);
  }
  /// Gives an array already taken (a PaddedTile's storage) its own name and pitch.
  void rename(const void* p, std::size_t bytes, std::size_t elem, int pitch, const std::string& what) {
    const std::size_t off = offset_of(p);
    for (auto& a : m_arrays)
      if (a.begin == off && a.end == off + bytes) {
        const std::size_t sp = a.name.find(' ');
        a.name  = a.name.substr(0, sp) + " " + what;
        a.pitch = pitch;
        a.elem  = elem;
      }
  }

  /// A floating-point array taken: its bytes no thread stored yet hold a NaN (quiet, as float and as
  /// double), so an uninitialised read shows in results; integer arrays keep 0xA5 bytes.
  void poison_float(const void* p, std::size_t bytes) {
    const std::size_t off = offset_of(p);
    if (off == npos) return;
    static constexpr unsigned char nan_bytes[4] = {0xA5, 0xA5, 0xFD, 0xFF};  // 0xFFFDA5A5, little-endian
    for (std::size_t i = off; i < off + bytes && i < m_bytes; ++i) {
      const Byte& b = m_shadow[i];
      if (b.init_stamp == m_block_stamp || (b.phase_stamp == m_stamp && (b.first_w >= 0 || b.first_a >= 0)))
        continue;
      m_base[i] = static_cast<char>(nan_bytes[i % 4]);
      m_copy[i] = nan_bytes[i % 4];
    }
  }

  // -- logical threads -------------------------------------------------------
  void begin_thread(int rank) {
    m_rank = rank;
    if (rank > m_max_rank) m_max_rank = rank;
    m_last_site = 0;
    m_pending.size = 0;
    m_addressed.clear();
  }
  void end_thread() {
    flush_raw();
    resolve();
    diff_region();
    m_rank = -1;
  }
  /// An access whose kind the hook knows (the proxy of scratch_ref.hpp, the library's atomics).
  /// The proxy's own open access (its construction) becomes this one.
  void access(const void* p, std::size_t n, Op op, const ScratchSite& where) {
    flush_raw();
    const std::size_t off = offset_of(p);
    if (off == npos || off + n > m_bytes || n > 16) return;
    const int site = site_id(where);
    if (m_rank < 0) {
      body_access(off, site);
      return;
    }
    const bool own = m_pending.size == n && m_pending.off == off && m_pending.site == site;
    if (op == Op::load_kept) {  // the element's open access is a load (or, taken before, was resolved as one)
      if (own) m_pending.loaded = true;
      return;
    }
    if (own) {
      m_pending.size = 0;
      if (m_pending.loaded && op == Op::store) op = Op::rmw;
    } else {
      resolve();
    }
    if (op == Op::address) {  // &s[i]: stores through it are found by the diff, and named after it
      m_addressed.push_back(Addressed{off, n, site});
      return;
    }
    record(off, n, op, site);
  }
  /// An element taken (`s[i]`: the proxy's construction, or a `T&` of class type): a load, or a
  /// store if its bytes differ at the thread's next access, unless the proxy says what it does first.
  void open(const void* p, std::size_t n, const ScratchSite& where) {
    flush_raw();
    const std::size_t off = offset_of(p);
    if (off == npos || off + n > m_bytes || n > 16) return;
    const int site = site_id(where);
    if (m_rank < 0) {
      body_access(off, site);
      return;
    }
    resolve();
    m_pending.off  = off;
    m_pending.size = n;
    m_pending.site = site;
    m_pending.loaded = false;
    std::memcpy(m_pending.before, m_base + off, n);
  }
  void touch(const void* p, std::size_t n) { open(p, n, ScratchSite{}); }
  /// The scratch element just touched through a `T&` is updated atomically (a library-internal shared atomic).
  void atomic(const void* p) {
    if (m_rank >= 0 && m_pending.size != 0 && offset_of(p) == m_pending.off) m_pending.atomic = true;
  }
  /// PerThread slot of logical thread `owner` used by the current logical thread.
  void per_thread(int owner, const ScratchSite& where) {
    if (owner == m_rank) return;
    const int site = site_id(where);
    if (!m_misuse_seen.insert(misuse_key(m_rank < 0 ? 3 : 2, site, 0)).second) return;
    ScratchFinding f = make(ScratchFindingKind::misuse, npos, m_rank, site);
    f.other_thread = owner;
    xyz(owner, f.other_xyz);
    f.note = m_rank < 0 ? "PerThread slot of thread " + std::to_string(owner) +
                              " used in the kernel body, outside threads() (on a GPU every thread runs this code)"
                        : "PerThread slot of thread " + std::to_string(owner) +
                              " used by another thread (on a GPU a PerThread value is the thread's register: "
                              "share values through scratch and a sync_threads)";
    misuse(std::move(f), m_rank < 0 ? 3 : 2);
  }
  /// sync_threads. From the kernel body: the end of a phase. From inside threads(...): one
  /// logical thread at the barrier, which orders nothing on a host (a finding at the phase's end).
  void sync() {
    flush_raw();
    if (m_rank >= 0) {
      if (m_inner.empty()) m_inner_site = m_last_site, m_inner_first = m_rank;
      ++m_inner[m_rank];
      return;
    }
    end_phase();
    begin_phase();
  }
  /// sync_warp: lanes of one warp see each other's earlier accesses.
  void sync_warp() {
    flush_raw();
    ++m_wsync;
  }

#if SCRATCHKIT_SCRATCH_TRAP
  static void raw_sink(void* self, const trap::RawAccess& a) { static_cast<Recorder*>(self)->raw(a); }
  /// An access through a raw pointer, reported by the fault handler (scratch_trap.hpp): recorded
  /// as the proxy's are, element by element, with the instruction (or the `&s[i]` it came from) as site.
  void raw(const trap::RawAccess& a) {
    if (!m_prot || a.addr < m_prot) return;
    std::size_t off = static_cast<std::size_t>(a.addr - m_prot);
    if (off >= m_bytes) return;
    std::size_t n = a.size;
    if (n == 0) {  // not decoded: the element at the address
      const int ar = array_of(off);
      n = ar < 0 ? 1 : m_arrays[ar].elem, off = element_start(off);
    }
    if (off + n > m_bytes) n = m_bytes - off;
    const int site = raw_site(a.pc, off);
    if (m_rank < 0) {
      body_access(off, site);
      return;
    }
    resolve();
    // A plain load may be the first half of an atomic update's compare-and-swap loop (Kokkos'
    // floating-point atomics): kept until the next access shows which.
    if (a.kind == trap::RawAccess::load) {
      flush_raw();
      m_raw_load = RawLoad{off, n, site};
      return;
    }
    if (a.kind == trap::RawAccess::atomic && m_raw_load.size && m_raw_load.off == off && m_raw_load.size == n)
      m_raw_load.size = 0;
    flush_raw();
    const Op op = a.kind == trap::RawAccess::atomic ? Op::atomic : a.kind == trap::RawAccess::rmw ? Op::rmw : Op::store;
    raw_record(off, n, op, site);
  }
#endif

 private:
  static constexpr unsigned char poison = 0xA5;
  static constexpr std::size_t npos     = ~std::size_t(0);

  struct Array {
    std::size_t begin, end, elem;
    int pitch;
    std::string name;
  };
  // Who did what to a byte in the current phase: two of each kind of access, with the
  // sync_warp count and the access site of each (sites index m_sites).
  struct Slot {
    int rank = -1, ws = 0, site = 0;
  };
  struct Byte {
    unsigned phase_stamp = 0;  // the slots below are this phase's when it matches
    unsigned init_stamp  = 0;  // written in this block before the current phase
    unsigned race_stamp  = 0;  // a race on this byte already counted in this phase
    unsigned store_stamp = 0;  // a tracked store by store_rank in this phase: not a raw-pointer store
    int store_rank = -1;
    Slot w[2], r[2], a[2];     // writers, readers, atomic updaters
    int first_w = -1, first_a = -1;  // the first thread to store / update it in this phase
    bool many_w = false, many_a = false;  // and whether another did too
  };
  struct Access {  // one load or store for the bank tables
    int rank, site, occ;
    std::uint32_t off;
    std::uint8_t size;
    bool write;
    int array;
  };
  struct Candidate {  // a read of bytes not written before this phase
    std::size_t off, size;
    int rank, site;
    bool atomic;
  };
  struct Pending {
    std::size_t off = 0, size = 0;
    int site = 0;
    bool atomic = false, loaded = false;
    unsigned char before[16];
  };
  struct Addressed {
    std::size_t off, size;
    int site;
  };
  struct Stats {
    long long requests[2] = {0, 0}, wavefronts[2] = {0, 0}, ideal[2] = {0, 0};
    std::map<int, long long> ways[2];
  };

  std::size_t offset_of(const void* p) const {
    const char* c = static_cast<const char*>(p);
    if (m_prot && c >= m_prot && c < m_prot + m_bytes) return static_cast<std::size_t>(c - m_prot);
    if (c < m_base || c >= m_base + m_bytes) return npos;
    return static_cast<std::size_t>(c - m_base);
  }
  int array_of(std::size_t off) const {
    int best = -1;
    for (std::size_t i = 0; i < m_arrays.size(); ++i) {
      const Array& a = m_arrays[i];
      if (off >= a.begin && off < a.end &&
          (best < 0 || a.end - a.begin < m_arrays[best].end - m_arrays[best].begin))
        best = static_cast<int>(i);
    }
    return best;
  }
  // The offset of the first byte of the element at `off` (the byte itself in unnamed scratch).
  std::size_t element_start(std::size_t off) const {
    const int a = array_of(off);
    if (a < 0) return off;
    const Array& ar = m_arrays[a];
    return ar.begin + (off - ar.begin) / ar.elem * ar.elem;
  }
  std::string array_name(int a) const { return a < 0 ? std::string("unnamed scratch") : m_arrays[a].name; }
  int site_id(const ScratchSite& s) {
    if (!s.file) return 0;
    const std::uint64_t key = reinterpret_cast<std::uintptr_t>(s.file) * 0x9E3779B97F4A7C15ull ^
                              (std::uint64_t(s.line) << 20) ^ std::uint64_t(s.column);
    auto it = m_site_ids.find(key);
    if (it != m_site_ids.end()) return it->second;
    m_sites.push_back(s);
    const int id = static_cast<int>(m_sites.size()) - 1;
    m_site_ids.emplace(key, id);
    return id;
  }
  static std::uint64_t misuse_key(int kind, int site, int rank) {
    return (std::uint64_t(kind) << 60) ^ (std::uint64_t(std::uint32_t(site)) << 24) ^ std::uint64_t(rank + 1);
  }
  void xyz(int rank, int* out) const {
    if (rank < 0) return;
    out[0] = rank % m_bdim[0], out[1] = (rank / m_bdim[0]) % m_bdim[1], out[2] = rank / (m_bdim[0] * m_bdim[1]);
  }
  // A finding at byte `off` (npos: none) by `rank` at `site`, its array and element filled in.
  ScratchFinding make(ScratchFindingKind kind, std::size_t off, int rank, int site) const {
    ScratchFinding f;
    f.kind = kind;
    f.block[0] = m_bidx[0], f.block[1] = m_bidx[1], f.block[2] = m_bidx[2];
    f.phase  = m_phase;
    f.thread = rank;
    xyz(rank, f.thread_xyz);
    f.site = m_sites[site];
    if (off != npos) {
      f.byte = static_cast<long long>(off);
      const int a = array_of(off);
      f.array = array_name(a);
      if (a >= 0) {
        const Array& ar = m_arrays[a];
        f.element = static_cast<long long>((off - ar.begin) / ar.elem);
        if (ar.pitch > 0) f.row = static_cast<int>(f.element / ar.pitch), f.column = static_cast<int>(f.element % ar.pitch);
      }
    }
    return f;
  }
  void keep(ScratchFinding&& f) {
    if (static_cast<int>(m_findings.size()) < m_launch->options().max_findings) m_findings.push_back(std::move(f));
  }
  void misuse(ScratchFinding&& f, int kind) { m_misuse_findings.emplace_back(kind, std::move(f)); }
  void body_access(std::size_t off, int site) {
    if (!m_misuse_seen.insert(misuse_key(1, site, 0)).second) return;
    ScratchFinding f = make(ScratchFindingKind::misuse, off, -1, site);
    f.note = "scratch touched in the kernel body, outside threads() (on a GPU every thread runs this code, on a "
             "host backend one; put it in b.threads(...) or b.once(...))";
    misuse(std::move(f), 1);
  }

  void begin_phase() {
    ++m_stamp;
    m_wsync = 0;
    m_accesses.clear();
    m_written.clear();
    m_candidates.clear();
    m_occ.clear();
    m_inner.clear();
  }
  // sync_threads reached inside threads(...) in this phase: one finding for the phase.
  void inner_syncs() {
    const int plane = m_bdim[0] * m_bdim[1];
    const int threads = (m_max_rank / plane + 1) * plane;
    int reached = 0, least = 1 << 30, most = 0;
    for (const auto& kv : m_inner) ++reached, least = std::min(least, kv.second), most = std::max(most, kv.second);
    const bool all = reached == threads && least == most;
    const int kind = all ? 4 : 5;
    if (!m_misuse_seen.insert(misuse_key(kind, m_inner_site, 0)).second) return;
    ScratchFinding f = make(ScratchFindingKind::misuse, npos, m_inner_first, m_inner_site);
    const std::string where = m_inner_site ? "; the barrier comes after the scratch access" : "; the barrier is reached";
    if (all)
      f.note = "sync_threads() called inside threads(...) (by all " + std::to_string(threads) + " threads, " +
               std::to_string(most) + " time(s) each): threads(...) runs the block's threads one after another "
               "on a host backend, so this barrier orders nothing there; end the threads(...) call, call "
               "sync_threads(b) from the kernel body and go on in a new threads(...) (this phase's races and "
               "uninitialised reads are not reported)" + where;
    else
      f.note = "a barrier reached by " + std::to_string(reached) + " of the block's " + std::to_string(threads) +
               " threads (sync_threads() inside threads(...) or once(...), under a condition): on a GPU every "
               "thread of the block must reach each sync_threads (else it hangs or is undefined); call it from "
               "the kernel body (this phase's races and uninitialised reads are not reported)" + where;
    misuse(std::move(f), kind);
  }

  Byte& byte(std::size_t off) {
    Byte& b = m_shadow[off];
    if (b.phase_stamp != m_stamp) {
      b.phase_stamp = m_stamp;
      for (int i = 0; i < 2; ++i) b.w[i].rank = b.r[i].rank = b.a[i].rank = -1;
      b.first_w = b.first_a = -1;
      b.many_w = b.many_a = false;
    }
    return b;
  }
  static const char* did(int kind) {
    return kind == 0 ? "written" : kind == 1 ? "read" : kind == 2 ? "updated atomically" : "written through a raw pointer";
  }
  // kind: 0 store, 1 load, 2 atomic, 3 raw-pointer store.
  void race(std::size_t off, const Slot& first, int first_kind, int kind, int site) {
    Byte& b = m_shadow[off];
    if (b.race_stamp == m_stamp || !m_inner.empty()) return;
    // One race per element and phase: mark every byte of the element.
    const int a = array_of(off);
    std::size_t e0 = off, e1 = off + 1;
    if (a >= 0) {
      const Array& ar = m_arrays[a];
      e0 = ar.begin + (off - ar.begin) / ar.elem * ar.elem;
      e1 = std::min(ar.end, e0 + ar.elem);
    }
    for (std::size_t i = e0; i < e1; ++i) m_shadow[i].race_stamp = m_stamp;
    ++m_races;
    ScratchFinding f = make(ScratchFindingKind::race, off, m_rank, site);
    f.access       = did(kind);
    f.other_thread = first.rank;
    xyz(first.rank, f.other_xyz);
    f.other_access = did(first_kind);
    f.other_site   = m_sites[first.site];
    if (kind == 3 || first_kind == 3)
      f.note = "a raw-pointer store is seen only where it changes the bytes; if these are Kokkos::atomic_* updates, "
               "use scratchkit::atomic_add(s[i], v) and friends, which the checker knows";
    keep(std::move(f));
  }
  // Accesses of one phase by threads s.rank (at sync_warp count s.ws) and t (now) conflict
  // unless they are the same thread, or lanes of one warp with a sync_warp between.
  bool apart(const Slot& s, int t) const {
    return s.rank >= 0 && s.rank != t && !(s.rank / m_warp == t / m_warp && s.ws != m_wsync);
  }
  bool before(const Slot& s, int t) const {
    return s.rank < 0 || s.rank == t || (s.rank / m_warp == t / m_warp && s.ws != m_wsync);
  }
  void put(Slot* slots, int t, int site) {
    if (before(slots[0], t)) slots[0] = Slot{t, m_wsync, site};
    else if (slots[1].rank < 0 || before(slots[1], t)) slots[1] = Slot{t, m_wsync, site};
  }
  // kind: 0 store, 3 raw-pointer store.
  void write_byte(std::size_t off, int t, int site, int kind) {
    Byte& b = byte(off);
    bool raced = false;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.w[i], t)) race(off, b.w[i], 0, kind, site), raced = true;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.a[i], t)) race(off, b.a[i], 2, kind, site), raced = true;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.r[i], t)) race(off, b.r[i], 1, kind, site), raced = true;
    if (b.first_w < 0 && b.first_a < 0) m_written.push_back(off);
    if (b.first_w < 0) b.first_w = t;
    else if (b.first_w != t) b.many_w = true;
    put(b.w, t, site);
    // Reads ordered before this write (same thread, or an earlier warp step) are done with.
    for (int i = 0; i < 2; ++i)
      if (before(b.r[i], t)) b.r[i].rank = -1;
  }
  void read_byte(std::size_t off, int t, int site) {
    Byte& b = byte(off);
    bool raced = false;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.w[i], t)) race(off, b.w[i], 0, 1, site), raced = true;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.a[i], t)) race(off, b.a[i], 2, 1, site), raced = true;
    put(b.r, t, site);
  }
  void atomic_byte(std::size_t off, int t, int site) {
    Byte& b = byte(off);
    bool raced = false;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.w[i], t)) race(off, b.w[i], 0, 2, site), raced = true;
    for (int i = 0; i < 2 && !raced; ++i)
      if (apart(b.r[i], t)) race(off, b.r[i], 1, 2, site), raced = true;
    if (b.first_w < 0 && b.first_a < 0) m_written.push_back(off);
    if (b.first_a < 0) b.first_a = t;
    else if (b.first_a != t) b.many_a = true;
    put(b.a, t, site);
  }
  // Bytes [off, off + n) not stored before this phase, nor earlier in it by t: a candidate uninitialised read.
  void check_init(std::size_t off, std::size_t n, int t, int site, bool atomic) {
    for (std::size_t i = off; i < off + n; ++i) {
      const Byte& b = m_shadow[i];
      if (b.init_stamp == m_block_stamp) continue;
      const bool own = b.phase_stamp == m_stamp && (b.w[0].rank == t || b.w[1].rank == t || b.a[0].rank == t ||
                                                    b.a[1].rank == t);
      if (!own) {
        m_candidates.push_back(Candidate{off, n, t, site, atomic});
        return;
      }
    }
  }
  // raw: through a raw pointer (trapped): counted apart, and not in the bank tables.
  void record(std::size_t off, std::size_t n, Op op, int site, bool raw = false) {
    const int t = m_rank;
    if (site) m_last_site = site;
    ++(raw ? m_raw_local : m_accesses_local);
    if (op == Op::atomic) {
      // Atomics do not race with each other; they read what they update, and initialise it.
      if (!raw) ++m_atomics_local;
      check_init(off, n, t, site, true);
      for (std::size_t i = off; i < off + n; ++i) atomic_byte(i, t, site), stored(i);
      return;
    }
    const int occ = m_occ[(std::uint64_t(std::uint32_t(site)) << 32) | std::uint32_t(t)]++;
    const int a   = array_of(off);
    if (op == Op::load || op == Op::rmw) {
      if (!raw)
        m_accesses.push_back(Access{t, site, occ, static_cast<std::uint32_t>(off), static_cast<std::uint8_t>(n), false, a});
      check_init(off, n, t, site, false);
      for (std::size_t i = off; i < off + n; ++i) read_byte(i, t, site);
    }
    if (op == Op::store || op == Op::rmw) {
      if (op == Op::rmw) ++(raw ? m_raw_local : m_accesses_local);  // a load and a store, as the GPU issues them
      if (!raw)
        m_accesses.push_back(Access{t, site, occ, static_cast<std::uint32_t>(off), static_cast<std::uint8_t>(n), true, a});
      for (std::size_t i = off; i < off + n; ++i) write_byte(i, t, site, 0), stored(i);
    }
  }
  // A raw access of n bytes at off: one record per element it covers, so that each element has its findings.
  void raw_record(std::size_t off, std::size_t n, Op op, int site) {
    const std::size_t end = off + n;
    while (off < end) {
      const int ar = array_of(off);
      std::size_t stop = end;
      if (ar >= 0) stop = std::min(end, element_start(off) + m_arrays[ar].elem);
      else if (stop > off + 16) stop = off + 16;
      record(off, stop - off, op, site, true);
      off = stop;
    }
  }
  // The raw load kept by raw(): a load after all.
  void flush_raw() {
    if (m_raw_load.size == 0) return;
    const RawLoad l = m_raw_load;
    m_raw_load.size = 0;
    raw_record(l.off, l.size, Op::load, l.site);
  }
  // The site of a raw access: the `&s[i]` the thread took the element's address at, else the instruction.
  int raw_site(const void* pc, std::size_t off) {
    for (const Addressed& ad : m_addressed)
      if (off >= ad.off && off < ad.off + ad.size) return ad.site;
#if SCRATCHKIT_SCRATCH_TRAP
    auto it = m_pc_sites.find(pc);
    if (it != m_pc_sites.end()) return it->second;
    char name[256];
    trap::describe(pc, name, sizeof name);
    const int id = site_id(ScratchSite{intern(std::string("raw pointer access at ") + name), 0, 0});
    m_pc_sites.emplace(pc, id);
    return id;
#else
    (void)pc;
    return 0;
#endif
  }
  void stored(std::size_t i) {
    Byte& b = m_shadow[i];
    b.store_stamp = m_stamp;
    b.store_rank  = m_rank;
  }
  // The `T&` access of this thread still open: a store if it changed the bytes, else a load.
  void resolve() {
    if (m_pending.size == 0) return;
    const std::size_t off = m_pending.off, n = m_pending.size;
    m_pending.size = 0;
    if (m_pending.atomic) {
      m_pending.atomic = false;
      record(off, n, Op::atomic, m_pending.site);
    } else {
      const bool changed = std::memcmp(m_base + off, m_pending.before, n) != 0;
      record(off, n, changed ? (m_pending.loaded ? Op::rmw : Op::store) : Op::load, m_pending.site);
    }
  }
  // Bytes the thread changed that no tracked access stored: stores through raw pointers.
  void diff_region() {
    if (std::memcmp(m_base, m_copy.data(), m_bytes) == 0) return;
    for (std::size_t i = 0; i < m_bytes; ++i) {
      if (m_base[i] == static_cast<char>(m_copy[i])) continue;
      m_copy[i] = static_cast<unsigned char>(m_base[i]);
      const Byte& b = m_shadow[i];
      if (b.store_stamp == m_stamp && b.store_rank == m_rank) continue;  // a tracked store or atomic
      int site = 0;
      for (const Addressed& ad : m_addressed)
        if (i >= ad.off && i < ad.off + ad.size) site = ad.site;
      ++m_untracked_local;
      write_byte(i, m_rank, site, 3);
    }
  }
  void end_phase() {
    if (!m_inner.empty()) {
      inner_syncs();
      m_candidates.clear();
    }
    for (const Candidate& c : m_candidates) {
      bool uninit = false, other = false;
      for (std::size_t i = c.off; i < c.off + c.size; ++i) {
        const Byte& b = m_shadow[i];
        if (b.init_stamp == m_block_stamp) continue;
        uninit = true;
        // Stored by another thread in this phase: a race, or ordered by sync_warp: no uninitialised read.
        if (b.phase_stamp == m_stamp &&
            ((b.first_w >= 0 && (b.first_w != c.rank || b.many_w)) ||
             (!c.atomic && b.first_a >= 0 && (b.first_a != c.rank || b.many_a))))
          other = true;
      }
      if (!uninit || other) continue;  // written by another thread in this phase: a race, reported as one
      if (!m_uninit_seen.insert(element_start(c.off)).second) continue;  // one finding per element: its first reader
      ScratchFinding f = make(ScratchFindingKind::uninitialised_read, c.off, c.rank, c.site);
      f.access = c.atomic ? "updated atomically" : "read";
      m_uninit_findings.push_back(std::move(f));
    }
    for (std::size_t off : m_written) m_shadow[off].init_stamp = m_block_stamp;
    banks();
    ++m_phases_local;
    ++m_phase;
  }

  // A warp's request: its lanes' n-th execution of one access site, one op, one array.
  void banks() {
    std::sort(m_accesses.begin(), m_accesses.end(), [](const Access& a, const Access& b) {
      const int wa = a.rank / 32, wb = b.rank / 32;
      if (wa != wb) return wa < wb;
      if (a.site != b.site) return a.site < b.site;
      if (a.occ != b.occ) return a.occ < b.occ;
      if (a.write != b.write) return a.write < b.write;
      if (a.array != b.array) return a.array < b.array;
      return a.rank < b.rank;
    });
    std::size_t i = 0;
    while (i < m_accesses.size()) {
      std::size_t j = i + 1;
      const Access& a = m_accesses[i];
      while (j < m_accesses.size() && m_accesses[j].rank / 32 == a.rank / 32 && m_accesses[j].site == a.site &&
             m_accesses[j].occ == a.occ && m_accesses[j].write == a.write && m_accesses[j].array == a.array)
        ++j;
      request(i, j);
      i = j;
    }
  }
  void request(std::size_t i, std::size_t j) {
    const Access& a = m_accesses[i];
    std::size_t size = 0;
    for (std::size_t q = i; q < j; ++q) size = std::max<std::size_t>(size, m_accesses[q].size);
    // Lanes served together: the warp (<= 4 bytes), half-warps (8), quarter-warps (16).
    const int lanes = size <= 4 ? 32 : size <= 8 ? 16 : 8;
    int waves = 0, ideal = 0, worst = 0;
    for (int g = 0; g < 32 / lanes; ++g) {
      std::uint32_t words[32 * 4];
      int nw = 0;
      for (std::size_t q = i; q < j; ++q) {
        const Access& x = m_accesses[q];
        if ((x.rank % 32) / lanes != g) continue;
        for (std::uint32_t w = x.off / 4; w <= (x.off + x.size - 1) / 4; ++w) words[nw++] = w;
      }
      if (nw == 0) continue;
      std::sort(words, words + nw);
      nw = static_cast<int>(std::unique(words, words + nw) - words);
      int per_bank[32] = {};
      int most = 0;
      for (int q = 0; q < nw; ++q) most = std::max(most, ++per_bank[words[q] % 32]);
      waves += most;
      ideal += 1;
      worst = std::max(worst, most);
    }
    Stats& s = m_stats[a.array];
    const int op = a.write ? 1 : 0;
    s.requests[op] += 1;
    s.wavefronts[op] += waves;
    s.ideal[op] += ideal;
    s.ways[op][worst] += 1;
  }

  void flush() {
    std::lock_guard<std::mutex> lock(m_launch->mutex());
    ScratchCheckReport& r = m_launch->report();
    r.blocks += m_blocks_local;
    r.phases += m_phases_local;
    r.accesses += m_accesses_local;
    r.atomics += m_atomics_local;
    r.untracked_write_bytes += m_untracked_local;
    r.raw_accesses += m_raw_local;
    r.races += m_races;
    // One uninitialised read per element in the launch: its first reader, in the first block that read it.
    for (auto& f : m_uninit_findings) {
      const std::string at = f.element >= 0 ? std::to_string(f.element) : "byte " + std::to_string(f.byte);
      if (!m_launch->first("uninit:" + f.array + ":" + at)) continue;
      ++r.uninitialised_reads;
      if (static_cast<int>(r.findings.size()) < m_launch->options().max_findings) r.findings.push_back(std::move(f));
    }
    m_uninit_findings.clear();
    for (auto& kf : m_misuse_findings) {
      ScratchFinding& f = kf.second;
      if (!m_launch->first("misuse:" + std::to_string(kf.first) + ":" + f.site.str())) continue;
      ++r.misuses;
      if (static_cast<int>(r.findings.size()) < m_launch->options().max_findings) r.findings.push_back(std::move(f));
    }
    m_misuse_findings.clear();
    for (auto& f : m_findings)
      if (static_cast<int>(r.findings.size()) < m_launch->options().max_findings) r.findings.push_back(std::move(f));
    for (auto& kv : m_stats) {
      ScratchArrayConflicts& c = m_launch->array(array_name(kv.first));
      for (int op = 0; op < 2; ++op) {
        c.requests[op] += kv.second.requests[op];
        c.wavefronts[op] += kv.second.wavefronts[op];
        c.ideal[op] += kv.second.ideal[op];
        for (const auto& w : kv.second.ways[op]) c.ways[op][w.first] += w.second;
      }
    }
    m_stats.clear();
    m_findings.clear();
    m_races = m_uninit = m_accesses_local = m_untracked_local = m_atomics_local = m_raw_local = 0;
  }

  struct RawLoad {
    std::size_t off = 0, size = 0;
    int site = 0;
  };
  LaunchCheck* m_launch = nullptr;
  char* m_base          = nullptr;  // the block's scratch, as the checker reads and writes it
  char* m_prot          = nullptr;  // its inaccessible view, where raw-pointer accesses trap (or none)
  RawLoad m_raw_load;
  std::unordered_map<const void*, int> m_pc_sites;  // instruction -> site of its raw accesses
  std::size_t m_bytes   = 0;
  int m_bidx[3] = {0, 0, 0}, m_bdim[2] = {1, 1};
  int m_rank = -1, m_phase = 0, m_statics = 0, m_wsync = 0;
  int m_warp = 32;  // lanes ordered by sync_warp; banks stay counted per 32 lanes, as NVIDIA serves them
  int m_max_rank = -1, m_last_site = 0, m_inner_site = 0, m_inner_first = -1;
  std::map<int, int> m_inner;                 // rank -> sync_threads reached inside threads(...) this phase
  std::unordered_set<std::size_t> m_uninit_seen;  // elements found uninitialised in this block (its first reader)
  unsigned m_stamp = 0, m_block_stamp = 0;
  std::vector<Byte> m_shadow;
  std::vector<unsigned char> m_copy;
  std::vector<Array> m_arrays;
  std::vector<Access> m_accesses;
  std::vector<std::size_t> m_written;
  std::vector<Candidate> m_candidates;
  std::vector<Addressed> m_addressed;
  std::unordered_map<std::uint64_t, int> m_occ;  // (site, rank) -> executions of the site so far in the phase
  std::unordered_set<std::uint64_t> m_misuse_seen;  // one misuse finding per kind and site a block
  std::vector<ScratchSite> m_sites{ScratchSite{}};  // site 0: unknown
  std::unordered_map<std::uint64_t, int> m_site_ids;
  Pending m_pending;
  std::map<int, Stats> m_stats;
  std::vector<ScratchFinding> m_findings;
  std::vector<std::pair<int, ScratchFinding>> m_misuse_findings;  // (kind, finding): one per kind and site a launch
  std::vector<ScratchFinding> m_uninit_findings;  // one per element a launch (flush)  // (kind, finding): one per kind and site a launch
  long long m_races = 0, m_uninit = 0, m_accesses_local = 0, m_untracked_local = 0,
            m_atomics_local = 0, m_raw_local = 0;
  long long m_blocks_local = 0, m_phases_local = 0;
};

/// The recorder of the block this host thread runs, or nullptr.
inline thread_local Recorder* active = nullptr;
#if defined(__GNUC__)
#define SCRATCHKIT_SCHECK_COLD __attribute__((noinline, cold))
#else
#define SCRATCHKIT_SCHECK_COLD
#endif
/// The launch this host thread is starting (launch() sets it for launch_with).
inline thread_local LaunchCheck* launching = nullptr;

inline Recorder& recorder() {
  static thread_local Recorder r;
  return r;
}

/// Records one block while it lives (BlockFunctor, on host backends).
class BlockRun {
 public:
  BlockRun(LaunchCheck* lc, char* base, std::size_t bytes, int bx, int by, int bz, int tx, int ty) : m_scratch(base) {
    if (!lc) return;
    m_on = true;
    m_scratch = recorder().begin_block(lc, base, bytes, bx, by, bz, tx, ty);
    active = &recorder();
  }
  /// The scratch the block runs on (scratch_trap.hpp's inaccessible view, where raw pointers are seen).
  char* scratch() const { return m_scratch; }
  ~BlockRun() {
    if (!m_on) return;
    active = nullptr;
    recorder().end_block();
  }
  BlockRun(const BlockRun&)            = delete;
  BlockRun& operator=(const BlockRun&) = delete;

 private:
  char* m_scratch;
  bool m_on = false;
};

/// Whether this host thread's block is recorded. Declared `const` to the compiler: it is set
/// before a block's body (a call of its own, host_block_body) starts and cleared after it ends, so
/// within the body it does not change, and the compiler may test it once per loop of logical
/// threads and keep the untested loop vectorised (docs/checker.md, "What it costs").
#if defined(__GNUC__)
__attribute__((const, noinline))
#endif
inline bool recording() noexcept {
  return active != nullptr;
}
SCRATCHKIT_SCHECK_COLD inline void begin_thread_slow(int rank) { active->begin_thread(rank); }
SCRATCHKIT_SCHECK_COLD inline void end_thread_slow() { active->end_thread(); }
SCRATCHKIT_SCHECK_COLD inline void sync_slow() { active->sync(); }
SCRATCHKIT_SCHECK_COLD inline void sync_warp_slow() { active->sync_warp(); }
SCRATCHKIT_SCHECK_COLD inline void touch_slow(const void* p, std::size_t n) { active->touch(p, n); }
inline void touch(const void* p, std::size_t n) {
  if (__builtin_expect(recording(), 0)) touch_slow(p, n);
}
inline void begin_thread(int rank) {
  if (__builtin_expect(recording(), 0)) begin_thread_slow(rank);
}
inline void end_thread() {
  if (__builtin_expect(recording(), 0)) end_thread_slow();
}
inline void sync() {
  if (__builtin_expect(recording(), 0)) sync_slow();
}
inline void sync_warp() {
  if (__builtin_expect(recording(), 0)) sync_warp_slow();
}
/// A raw pointer into the recorded block's scratch, as `data()` and `&s[i]` hand it out (Recorder::raw_view).
template <class T>
SCRATCHKIT_SCHECK_COLD T* raw_view_slow(T* p) {
  return active ? active->raw_view(p) : p;
}
template <class T>
inline T* raw_view(T* p) {
  return __builtin_expect(recording(), 0) ? raw_view_slow(p) : p;
}
inline void atomic(const void* p) {
  if (active) active->atomic(p);
}
inline void access(const void* p, std::size_t n, Op op, const ScratchSite& site) {
  if (active) active->access(p, n, op, site);
}
inline void per_thread(int owner, const ScratchSite& site) {
  if (active) active->per_thread(owner, site);
}
template <class T>
inline void static_array(const T* p, std::size_t n, const char* kind) {
  if (!active) return;
  std::ostringstream os;
  os << kind << "<" << type_name<T>() << ", " << n << ">";
  active->add_static(p, n * sizeof(T), sizeof(T), os.str());
  if (std::is_floating_point<T>::value) active->poison_float(p, n * sizeof(T));
}
template <class T>
inline void padded_tile(const T* p, int rows, int cols, int pad) {
  if (!active) return;
  std::ostringstream os;
  os << "PaddedTile<" << type_name<T>() << ", " << rows << ", " << cols << ", " << pad << ">";
  active->rename(p, std::size_t(rows) * (cols + pad) * sizeof(T), sizeof(T), cols + pad, os.str());
  if (std::is_floating_point<T>::value) active->poison_float(p, std::size_t(rows) * (cols + pad) * sizeof(T));
}
template <class T>
inline void halo_tile(const T* p, std::size_t n, int pitch, int nx, int ny, int nz, int rx, int ry, int rz, int pad,
                      bool three_d) {
  if (!active) return;
  std::ostringstream os;
  os << "HaloTile<" << type_name<T>() << ", " << nx << "x" << ny;
  if (three_d) os << "x" << nz;
  os << ", R " << rx << "x" << ry;
  if (three_d) os << "x" << rz;
  os << ", pad " << pad << ">";
  active->rename(p, n * sizeof(T), sizeof(T), pitch, os.str());
  if (std::is_floating_point<T>::value) active->poison_float(p, n * sizeof(T));
}
template <class T>
inline void dynamic_part(const T* p, std::size_t offset, std::size_t n, bool whole) {
  if (!active) return;
  std::ostringstream os;
  if (whole)
    os << "dynamic pool (" << type_name<T>() << ")";
  else
    os << "dynamic [" << offset << ", " << offset + n * sizeof(T) << ") " << type_name<T>();
  active->add_array(p, n * sizeof(T), sizeof(T), 0, os.str(), false);
  if (std::is_floating_point<T>::value) active->poison_float(p, n * sizeof(T));
}

}  // namespace scheck
}  // namespace detail
}  // namespace scratchkit

#define SCRATCHKIT_SCRATCH_TOUCH(p, n) ::scratchkit::detail::scheck::touch(p, n)
#define SCRATCHKIT_SCRATCH_BEGIN_THREAD(r) ::scratchkit::detail::scheck::begin_thread(r)
#define SCRATCHKIT_SCRATCH_END_THREAD() ::scratchkit::detail::scheck::end_thread()
#define SCRATCHKIT_SCRATCH_SYNC() ::scratchkit::detail::scheck::sync()
#define SCRATCHKIT_SCRATCH_SYNC_WARP() ::scratchkit::detail::scheck::sync_warp()
#define SCRATCHKIT_SCRATCH_ATOMIC(p) ::scratchkit::detail::scheck::atomic(p)
#define SCRATCHKIT_SCRATCH_STATIC(T, p, n, kind) ::scratchkit::detail::scheck::static_array<T>(p, n, kind)
#define SCRATCHKIT_SCRATCH_PADDED(T, p, r, c, pad) ::scratchkit::detail::scheck::padded_tile<T>(p, r, c, pad)
#define SCRATCHKIT_SCRATCH_DYNAMIC(T, p, off, n, whole) ::scratchkit::detail::scheck::dynamic_part<T>(p, off, n, whole)
#define SCRATCHKIT_SCRATCH_HALO(T, p, n, pitch, nx, ny, nz, rx, ry, rz, pad, three_d) \
  ::scratchkit::detail::scheck::halo_tile<T>(p, n, pitch, nx, ny, nz, rx, ry, rz, pad, three_d)
#define SCRATCHKIT_SCRATCH_RECORDING() (::scratchkit::detail::scheck::recording())
// A loop of logical threads compiled twice, for a recorded block and for one that is not: in
// the second copy every hook's recording() test is known false and the loop is the plain one.
#define SCRATCHKIT_SCRATCH_VERSIONED(...)             \
  if (::scratchkit::detail::scheck::recording()) {    \
    __VA_ARGS__                                       \
  } else {                                            \
    __VA_ARGS__                                       \
  }
#else
#define SCRATCHKIT_SCRATCH_TOUCH(p, n) ((void)0)
#define SCRATCHKIT_SCRATCH_BEGIN_THREAD(r) ((void)0)
#define SCRATCHKIT_SCRATCH_END_THREAD() ((void)0)
#define SCRATCHKIT_SCRATCH_SYNC() ((void)0)
#define SCRATCHKIT_SCRATCH_SYNC_WARP() ((void)0)
#define SCRATCHKIT_SCRATCH_ATOMIC(p) ((void)0)
#define SCRATCHKIT_SCRATCH_STATIC(T, p, n, kind) ((void)0)
#define SCRATCHKIT_SCRATCH_PADDED(T, p, r, c, pad) ((void)0)
#define SCRATCHKIT_SCRATCH_DYNAMIC(T, p, off, n, whole) ((void)0)
#define SCRATCHKIT_SCRATCH_HALO(T, p, n, pitch, nx, ny, nz, rx, ry, rz, pad, three_d) ((void)0)
#define SCRATCHKIT_SCRATCH_RECORDING() false
#define SCRATCHKIT_SCRATCH_VERSIONED(...) __VA_ARGS__
#endif
