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
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <type_traits>
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
  /// After the launch: prints, stores, throws as the options ask.
  void finish() {
    const std::string text = m_report.str();
    if (m_opts.print) std::fputs(text.c_str(), stdout), std::fflush(stdout);
    if (m_opts.report) *m_opts.report = m_report;
    if (m_opts.reports) m_opts.reports->push_back(m_report);
    if (m_opts.throw_on_race && m_report.races > 0) throw ScratchRaceError(text);
  }

 private:
  ScratchCheck m_opts;
  int m_warp;
  std::mutex m_mutex;
  ScratchCheckReport m_report;
};

/// Records one block at a time for the host thread that runs it: every
/// logical thread's accesses, phase by phase.
class Recorder {
 public:
  // -- block -------------------------------------------------------------
  void begin_block(LaunchCheck* lc, char* base, std::size_t bytes, int bx, int by, int bz, int tx, int ty) {
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
    // Poison: a first write is then seen as a change of the bytes.
    std::memset(base, poison, bytes);
    m_copy.assign(base, base + bytes);
    m_phase = 0;
    m_blocks_local = 1;
    m_phases_local = 0;
    begin_phase();
  }
  void end_block() {
    end_phase();
    flush();
    m_launch = nullptr;
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

  // -- logical threads -------------------------------------------------------
  void begin_thread(int rank) {
    m_rank = rank;
    m_pending.size = 0;
  }
  void end_thread() {
    resolve();
    diff_region();
    m_rank = -1;
  }
  void touch(const void* p, std::size_t n) {
    if (m_rank < 0) return;  // kernel-body code outside threads(): not a logical thread's access
    const std::size_t off = offset_of(p);
    if (off == npos || off + n > m_bytes || n > 16) return;
    resolve();
    m_pending.off  = off;
    m_pending.size = n;
    std::memcpy(m_pending.before, m_base + off, n);
  }
  /// The scratch element just touched is updated atomically (a shared atomic).
  void atomic(const void* p) {
    if (m_rank >= 0 && m_pending.size != 0 && offset_of(p) == m_pending.off) m_pending.atomic = true;
  }
  void sync() {
    end_phase();
    begin_phase();
  }
  /// sync_warp: lanes of one warp see each other's earlier accesses.
  void sync_warp() { ++m_wsync; }

 private:
  static constexpr unsigned char poison = 0xA5;
  static constexpr std::size_t npos     = ~std::size_t(0);

  struct Array {
    std::size_t begin, end, elem;
    int pitch;
    std::string name;
  };
  struct Byte {
    unsigned phase_stamp = 0;  // the fields below are this phase's when it matches
    unsigned init_stamp  = 0;  // written in this block before the current phase
    unsigned race_stamp  = 0;  // a race on this byte already counted in this phase
    int writer = -1, writer2 = -1, reader = -1, reader2 = -1;
    int writer_ws = 0, writer2_ws = 0, reader_ws = 0, reader2_ws = 0;  // sync_warp count at the access
  };
  struct Access {
    int rank, k;
    std::uint32_t off;
    std::uint8_t size;
    bool write;
    int array;
  };
  struct Candidate {  // a read of bytes not written before this phase
    std::size_t off, size;
    int rank;
  };
  struct Pending {
    std::size_t off = 0, size = 0;
    bool atomic = false;
    unsigned char before[16];
  };
  struct Stats {
    long long requests[2] = {0, 0}, wavefronts[2] = {0, 0}, ideal[2] = {0, 0};
    std::map<int, long long> ways[2];
  };

  std::size_t offset_of(const void* p) const {
    const char* c = static_cast<const char*>(p);
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
  std::string array_name(int a) const { return a < 0 ? std::string("unnamed scratch") : m_arrays[a].name; }
  std::string element(std::size_t off) const {
    const int a = array_of(off);
    std::ostringstream os;
    os << array_name(a);
    if (a >= 0) {
      const Array& ar = m_arrays[a];
      const std::size_t i = (off - ar.begin) / ar.elem;
      os << " element " << i;
      if (ar.pitch > 0) os << " (row " << i / ar.pitch << ", column " << i % ar.pitch << ")";
    } else {
      os << " byte " << off;
    }
    return os.str();
  }
  std::string thread(int rank) const {
    std::ostringstream os;
    const int x = rank % m_bdim[0], y = (rank / m_bdim[0]) % m_bdim[1], z = rank / (m_bdim[0] * m_bdim[1]);
    os << "thread " << rank << " (" << x << ", " << y << ", " << z << ")";
    return os.str();
  }
  std::string where() const {
    std::ostringstream os;
    os << "block (" << m_bidx[0] << ", " << m_bidx[1] << ", " << m_bidx[2] << "), phase " << m_phase;
    return os.str();
  }
  void finding(const std::string& what) {
    if (static_cast<int>(m_findings.size()) < m_launch->options().max_findings) m_findings.push_back(what);
  }

  void begin_phase() {
    ++m_stamp;
    m_wsync = 0;
    m_accesses.clear();
    m_written.clear();
    m_candidates.clear();
    m_k.assign(1024, 0);  // BlockLimits::max_threads: one access counter per logical thread
  }

  Byte& byte(std::size_t off) {
    Byte& b = m_shadow[off];
    if (b.phase_stamp != m_stamp) {
      b.phase_stamp = m_stamp;
      b.writer = b.writer2 = b.reader = b.reader2 = -1;
    }
    return b;
  }
  void race(std::size_t off, int first, const char* first_did, int second, const char* second_did) {
    Byte& b = m_shadow[off];
    if (b.race_stamp == m_stamp) return;
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
    finding("race: " + where() + ": " + element(off) + " " + first_did + " by " + thread(first) + " and " +
            second_did + " by " + thread(second) + " with no sync_threads between");
  }
  // Accesses of one phase by threads r (at sync_warp count rw) and t (now) conflict
  // unless they are the same thread, or lanes of one warp with a sync_warp between.
  bool apart(int r, int rw, int t) const {
    return r >= 0 && r != t && !(r / m_warp == t / m_warp && rw != m_wsync);
  }
  bool before(int r, int rw, int t) const { return r < 0 || r == t || (r / m_warp == t / m_warp && rw != m_wsync); }
  void write_byte(std::size_t off, int t) {
    Byte& b = byte(off);
    if (apart(b.writer, b.writer_ws, t)) race(off, b.writer, "written", t, "written");
    else if (apart(b.writer2, b.writer2_ws, t)) race(off, b.writer2, "written", t, "written");
    else if (apart(b.reader, b.reader_ws, t)) race(off, b.reader, "read", t, "written");
    else if (apart(b.reader2, b.reader2_ws, t)) race(off, b.reader2, "read", t, "written");
    if (b.writer < 0) m_written.push_back(off);
    if (before(b.writer, b.writer_ws, t)) b.writer = t, b.writer_ws = m_wsync;
    else if (b.writer2 < 0 || before(b.writer2, b.writer2_ws, t)) b.writer2 = t, b.writer2_ws = m_wsync;
    // Reads ordered before this write (same thread, or an earlier warp step) are done with.
    if (before(b.reader, b.reader_ws, t)) b.reader = -1;
    if (before(b.reader2, b.reader2_ws, t)) b.reader2 = -1;
  }
  void read_byte(std::size_t off, int t) {
    Byte& b = byte(off);
    if (apart(b.writer, b.writer_ws, t)) race(off, b.writer, "written", t, "read");
    else if (apart(b.writer2, b.writer2_ws, t)) race(off, b.writer2, "written", t, "read");
    if (before(b.reader, b.reader_ws, t)) b.reader = t, b.reader_ws = m_wsync;
    else if (b.reader2 < 0 || before(b.reader2, b.reader2_ws, t)) b.reader2 = t, b.reader2_ws = m_wsync;
  }
  void resolve() {
    if (m_pending.size == 0) return;
    const std::size_t off = m_pending.off, n = m_pending.size;
    m_pending.size = 0;
    const bool write = std::memcmp(m_base + off, m_pending.before, n) != 0;
    const int t = m_rank;
    ++m_accesses_local;
    if (m_pending.atomic) {
      // Atomics do not race with each other; they initialise what they update.
      m_pending.atomic = false;
      ++m_atomics_local;
      for (std::size_t i = off; i < off + n; ++i) {
        Byte& b = byte(i);
        if (b.writer < 0) m_written.push_back(i), b.writer = t, b.writer_ws = m_wsync;
        m_copy[i] = static_cast<unsigned char>(m_base[i]);
      }
      return;
    }
    m_accesses.push_back(Access{t, m_k[t]++, static_cast<std::uint32_t>(off), static_cast<std::uint8_t>(n), write,
                                array_of(off)});
    if (write) {
      for (std::size_t i = off; i < off + n; ++i) write_byte(i, t);
    } else {
      bool uninit = false;
      for (std::size_t i = off; i < off + n; ++i) {
        read_byte(i, t);
        const Byte& b = m_shadow[i];
        if (b.init_stamp != m_block_stamp && b.writer != t) uninit = true;
      }
      if (uninit) m_candidates.push_back(Candidate{off, n, t});
    }
  }
  // Bytes the thread changed that no tracked access wrote: stores through raw pointers.
  void diff_region() {
    if (std::memcmp(m_base, m_copy.data(), m_bytes) == 0) return;
    for (std::size_t i = 0; i < m_bytes; ++i) {
      if (m_base[i] == static_cast<char>(m_copy[i])) continue;
      Byte& b = byte(i);
      if (b.writer != m_rank) ++m_untracked_local;
      write_byte(i, m_rank);
      m_copy[i] = static_cast<unsigned char>(m_base[i]);
    }
  }
  void end_phase() {
    for (const Candidate& c : m_candidates) {
      bool uninit = false, other = false;
      for (std::size_t i = c.off; i < c.off + c.size; ++i) {
        const Byte& b = m_shadow[i];
        if (b.init_stamp == m_block_stamp) continue;
        uninit = true;
        if (b.phase_stamp == m_stamp && ((b.writer >= 0 && b.writer != c.rank) || b.writer2 >= 0)) other = true;
      }
      if (!uninit || other) continue;  // written by another thread in this phase: a race, reported as one
      ++m_uninit;
      finding("uninitialised read: " + where() + ": " + element(c.off) + " read by " + thread(c.rank) +
              " before any thread of the block wrote it");
    }
    for (std::size_t off : m_written) m_shadow[off].init_stamp = m_block_stamp;
    banks();
    ++m_phases_local;
    ++m_phase;
  }

  // Groups each warp's k-th accesses (same op, same array) into requests and counts their wavefronts.
  void banks() {
    std::sort(m_accesses.begin(), m_accesses.end(), [](const Access& a, const Access& b) {
      const int wa = a.rank / 32, wb = b.rank / 32;
      if (wa != wb) return wa < wb;
      if (a.k != b.k) return a.k < b.k;
      if (a.write != b.write) return a.write < b.write;
      if (a.array != b.array) return a.array < b.array;
      return a.rank < b.rank;
    });
    std::size_t i = 0;
    while (i < m_accesses.size()) {
      std::size_t j = i + 1;
      const Access& a = m_accesses[i];
      while (j < m_accesses.size() && m_accesses[j].rank / 32 == a.rank / 32 && m_accesses[j].k == a.k &&
             m_accesses[j].write == a.write && m_accesses[j].array == a.array)
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
    r.races += m_races;
    r.uninitialised_reads += m_uninit;
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
    m_races = m_uninit = m_accesses_local = m_untracked_local = m_atomics_local = 0;
  }

  LaunchCheck* m_launch = nullptr;
  char* m_base          = nullptr;
  std::size_t m_bytes   = 0;
  int m_bidx[3] = {0, 0, 0}, m_bdim[2] = {1, 1};
  int m_rank = -1, m_phase = 0, m_statics = 0, m_wsync = 0;
  int m_warp = 32;  // lanes ordered by sync_warp; banks stay counted per 32 lanes, as NVIDIA serves them
  unsigned m_stamp = 0, m_block_stamp = 0;
  std::vector<Byte> m_shadow;
  std::vector<unsigned char> m_copy;
  std::vector<Array> m_arrays;
  std::vector<Access> m_accesses;
  std::vector<std::size_t> m_written;
  std::vector<Candidate> m_candidates;
  std::vector<int> m_k;
  Pending m_pending;
  std::map<int, Stats> m_stats;
  std::vector<std::string> m_findings;
  long long m_races = 0, m_uninit = 0, m_accesses_local = 0, m_untracked_local = 0, m_atomics_local = 0;
  long long m_blocks_local = 0, m_phases_local = 0;
};

/// The recorder of the block this host thread runs, or nullptr.
inline thread_local Recorder* active = nullptr;
/// The launch this host thread is starting (launch() sets it for launch_with).
inline thread_local LaunchCheck* launching = nullptr;

inline Recorder& recorder() {
  static thread_local Recorder r;
  return r;
}

/// Records one block while it lives (BlockFunctor, on host backends).
class BlockRun {
 public:
  BlockRun(LaunchCheck* lc, char* base, std::size_t bytes, int bx, int by, int bz, int tx, int ty) {
    if (!lc) return;
    m_on = true;
    recorder().begin_block(lc, base, bytes, bx, by, bz, tx, ty);
    active = &recorder();
  }
  ~BlockRun() {
    if (!m_on) return;
    active = nullptr;
    recorder().end_block();
  }
  BlockRun(const BlockRun&)            = delete;
  BlockRun& operator=(const BlockRun&) = delete;

 private:
  bool m_on = false;
};

inline void touch(const void* p, std::size_t n) {
  if (active) active->touch(p, n);
}
inline void begin_thread(int rank) {
  if (active) active->begin_thread(rank);
}
inline void end_thread() {
  if (active) active->end_thread();
}
inline void sync() {
  if (active) active->sync();
}
inline void sync_warp() {
  if (active) active->sync_warp();
}
inline void atomic(const void* p) {
  if (active) active->atomic(p);
}
template <class T>
inline void static_array(const T* p, std::size_t n, const char* kind) {
  if (!active) return;
  std::ostringstream os;
  os << kind << "<" << type_name<T>() << ", " << n << ">";
  active->add_static(p, n * sizeof(T), sizeof(T), os.str());
}
template <class T>
inline void padded_tile(const T* p, int rows, int cols, int pad) {
  if (!active) return;
  std::ostringstream os;
  os << "PaddedTile<" << type_name<T>() << ", " << rows << ", " << cols << ", " << pad << ">";
  active->rename(p, std::size_t(rows) * (cols + pad) * sizeof(T), sizeof(T), cols + pad, os.str());
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
#define SCRATCHKIT_SCRATCH_RECORDING() (::scratchkit::detail::scheck::active != nullptr)
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
#define SCRATCHKIT_SCRATCH_RECORDING() false
#endif
