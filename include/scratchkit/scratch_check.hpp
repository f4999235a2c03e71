// SPDX-License-Identifier: BSD-3-Clause
/// The scratch checker's options and report: races, uninitialised reads and bank conflicts seen on host backends.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/errors.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace scratchkit {

/// True when this build records scratch accesses (CMake SCRATCHKIT_ENABLE_SCRATCH_CHECK).
#ifdef SCRATCHKIT_ENABLE_SCRATCH_CHECK
inline constexpr bool scratch_check_compiled = true;
#else
inline constexpr bool scratch_check_compiled = false;
#endif
/// True when the checker also sees loads and stores through raw pointers into scratch (`data()`,
/// `&s[i]`, memcpy, Kokkos atomics) by trapping them: Linux on x86-64 (docs/checker.md, "Raw pointers").
#if defined(SCRATCHKIT_ENABLE_SCRATCH_CHECK) && defined(__linux__) && defined(__x86_64__) && \
    !defined(SCRATCHKIT_NO_SCRATCH_TRAP)
inline constexpr bool scratch_check_raw_pointers = true;
#else
inline constexpr bool scratch_check_raw_pointers = false;
#endif

/// A load or a store of scratch, as Nsight Compute splits its counters (op_ld, op_st).
enum class ScratchOp { load = 0, store = 1 };

/// Bank statistics of one scratch array over a launch. A request is what the
/// active lanes of one warp do at one access site (a source-level `s[i]`, its
/// n-th execution by each lane) in one phase; a 4-byte access is served per
/// warp, an 8-byte one per half-warp, a 16-byte one per quarter-warp, each in
/// as many wavefronts as the most distinct 4-byte words any of the 32 banks
/// holds (the same word twice is a broadcast).
struct ScratchArrayConflicts {
  std::string array;               ///< "static[0] SharedArray<float, 1024>", "dynamic [0, 1040) float", ...
  long long requests[2]   = {0, 0};  ///< warp requests, [ScratchOp]
  long long wavefronts[2] = {0, 0};  ///< wavefronts they need
  long long ideal[2]      = {0, 0};  ///< wavefronts without conflicts (1, 2 or 4 a request)
  std::map<int, long long> ways[2];  ///< n -> requests whose worst bank holds n distinct words
  /// wavefronts - ideal: Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum.
  long long conflicts(ScratchOp op) const { return wavefronts[int(op)] - ideal[int(op)]; }
};

/// A source position: the access site the checker saw (file and line; the
/// column where the compiler has std::source_location), or none (file null).
struct ScratchSite {
  const char* file = nullptr;
  int line         = 0;
  int column       = 0;
  std::string str() const {
    if (!file) return "?";
    if (line <= 0) return file;  // a raw-pointer access: the instruction, "raw pointer access at <module>+0x<offset>"
    std::string s = std::string(file) + ":" + std::to_string(line);
    return column > 0 ? s + ":" + std::to_string(column) : s;
  }
};

/// What a finding is.
enum class ScratchFindingKind {
  race,                ///< one thread wrote an element another read, wrote or updated in the same phase
  uninitialised_read,  ///< a load (or atomic update) of bytes no thread of the block had stored
  misuse               ///< sync_threads inside threads(), a barrier part of the block reaches, another thread's
                       ///< PerThread slot, scratch touched outside threads()
};

/// One race, uninitialised read or misuse, as data: the text is built from it (str()).
struct ScratchFinding {
  ScratchFindingKind kind = ScratchFindingKind::race;
  std::string array;        ///< the array's name in the report ("" for a misuse without one)
  long long element = -1;   ///< element index in the array (-1: unnamed scratch, see byte)
  long long byte    = -1;   ///< byte offset in the block's scratch
  int row = -1, column = -1;  ///< in a PaddedTile: the element's row and column
  int block[3] = {0, 0, 0};   ///< the block (x, y, z)
  int phase    = 0;           ///< phases counted from 0 at the start of the block
  int thread   = -1;          ///< rank of the thread whose access completed the finding
  int other_thread = -1;      ///< race: the rank of the other thread; misuse: the PerThread slot's owner
  int thread_xyz[3] = {0, 0, 0}, other_xyz[3] = {0, 0, 0};
  std::string access;         ///< "read", "written", "updated atomically", "written through a raw pointer", ...
  std::string other_access;   ///< race: what the other thread did
  ScratchSite site;           ///< where `thread` accessed (misuse: where it happened)
  ScratchSite other_site;     ///< where `other_thread` accessed (race)
  std::string note;           ///< misuse: what was wrong; race: a hint, when the checker has one
  std::string str() const;
};

/// What the checker saw in one launch. Counts are over every block of the grid.
struct ScratchCheckReport {
  std::string label;                  ///< the kernel's label
  std::string space;                  ///< the execution space it ran on
  long long blocks   = 0;             ///< blocks checked
  long long phases   = 0;             ///< phases (code between two sync_threads), summed over blocks
  long long accesses = 0;             ///< scratch accesses through operator[] / operator() (a `+=` is two)
  long long atomics  = 0;             ///< of which atomic updates (scratchkit::atomic_*; not in the bank tables)
  long long untracked_write_bytes = 0;  ///< bytes stored through raw pointers seen by comparing bytes (where they do not trap)
  long long raw_accesses = 0;  ///< loads, stores and atomics through raw pointers, trapped (scratch_check_raw_pointers):
                               ///< one per element an instruction touches; checked for races, not banks
  long long races    = 0;             ///< elements written by one thread and accessed by another in one phase
  long long uninitialised_reads = 0;  ///< elements read before any thread of their block wrote them: one per element
  long long misuses  = 0;             ///< sync_threads inside threads(), a partial barrier, another thread's PerThread
                                      ///< slot, scratch outside threads(): one per kind and site in the launch
  std::vector<ScratchArrayConflicts> arrays;  ///< per array, in the order first seen
  std::vector<ScratchFinding> findings;  ///< the first ScratchCheck::max_findings findings, in the order found

  /// Summed over arrays: Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum.
  long long conflicts(ScratchOp op) const {
    long long n = 0;
    for (const auto& a : arrays) n += a.conflicts(op);
    return n;
  }
  /// Summed over arrays: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum.
  long long wavefronts(ScratchOp op) const {
    long long n = 0;
    for (const auto& a : arrays) n += a.wavefronts[int(op)];
    return n;
  }
  /// The first array whose name starts with `prefix`, or nullptr.
  const ScratchArrayConflicts* array(const std::string& prefix) const {
    for (const auto& a : arrays)
      if (a.array.rfind(prefix, 0) == 0) return &a;
    return nullptr;
  }
  /// The findings of one kind (among those kept).
  std::vector<ScratchFinding> of_kind(ScratchFindingKind k) const {
    std::vector<ScratchFinding> v;
    for (const auto& f : findings)
      if (f.kind == k) v.push_back(f);
    return v;
  }
  /// True when the launch had no race, no uninitialised read, no misuse and no bank conflict.
  bool clean() const {
    return races == 0 && uninitialised_reads == 0 && misuses == 0 && conflicts(ScratchOp::load) == 0 &&
           conflicts(ScratchOp::store) == 0;
  }
  /// The report as the checker prints it.
  std::string str() const;
};

/// Turns the checker on for a launch (LaunchParams::check_scratch) or for
/// every launch of a scope (ScratchCheckScope): what to do with the report.
/// \code
/// scratchkit::ScratchCheckReport rep;
/// launch(exec, "my::kernel", params.check_scratch(scratchkit::ScratchCheck().into(&rep)), body);
/// // rep.races, rep.conflicts(scratchkit::ScratchOp::load), ...
/// \endcode
struct ScratchCheck {
  bool enabled       = true;   ///< record this launch
  bool print         = true;   ///< print the report to stdout at the end of the launch
  bool throw_on_race = false;  ///< throw ScratchRaceError at the end of a launch with a race or a misuse
  int max_findings   = 8;      ///< findings kept in the report (and printed), in the order found
  ScratchCheckReport* report                = nullptr;  ///< filled at the end of the launch
  std::vector<ScratchCheckReport>* reports  = nullptr;  ///< the launch's report is appended

  ScratchCheck& into(ScratchCheckReport* r) { report = r; return *this; }
  ScratchCheck& quiet(bool q = true) { print = !q; return *this; }
  ScratchCheck& throwing(bool t = true) { throw_on_race = t; return *this; }
  ScratchCheck& keep(int n) { max_findings = n; return *this; }
};

/// A launch the checker found a race in, with ScratchCheck::throw_on_race.
class ScratchRaceError : public Error {
 public:
  explicit ScratchRaceError(const std::string& what) : Error(what) {}
};

namespace detail {
/// The checker options of the innermost ScratchCheckScope of this host thread.
inline thread_local const ScratchCheck* scratch_check_scope = nullptr;
}  // namespace detail

/// Checks every launch this host thread makes while it lives (the library's
/// own kernels included, which take no LaunchParams from their caller); a
/// launch's own LaunchParams::check_scratch wins. Reports are kept in order.
/// \code
/// scratchkit::ScratchCheckScope scope;   // prints each launch's report
/// scratchkit::gemm(exec, scratchkit::GemmVariant::tiled, 1.0f, A, B, 0.0f, C);
/// CHECK(scope.reports().at(0).races == 0);
/// \endcode
class ScratchCheckScope {
 public:
  explicit ScratchCheckScope(ScratchCheck opts = ScratchCheck()) : m_opts(opts), m_prev(detail::scratch_check_scope) {
    m_opts.reports = &m_reports;
    detail::scratch_check_scope = &m_opts;
  }
  ~ScratchCheckScope() { detail::scratch_check_scope = m_prev; }
  ScratchCheckScope(const ScratchCheckScope&)            = delete;
  ScratchCheckScope& operator=(const ScratchCheckScope&) = delete;
  /// One report per launch made in the scope, in order.
  const std::vector<ScratchCheckReport>& reports() const { return m_reports; }

 private:
  ScratchCheck m_opts;
  const ScratchCheck* m_prev;
  std::vector<ScratchCheckReport> m_reports;
};

inline std::string ScratchFinding::str() const {
  std::ostringstream os;
  auto who = [&os](int rank, const int* xyz) {
    os << "thread " << rank << " (" << xyz[0] << ", " << xyz[1] << ", " << xyz[2] << ")";
  };
  auto what = [&]() {
    os << array;
    if (element >= 0) {
      os << " element " << element;
      if (row >= 0) os << " (row " << row << ", column " << column << ")";
    } else if (byte >= 0) {
      os << " byte " << byte;
    }
  };
  const char* kinds[] = {"race", "uninitialised read", "misuse"};
  os << kinds[int(kind)] << ": block (" << block[0] << ", " << block[1] << ", " << block[2] << "), phase " << phase
     << ": ";
  if (kind == ScratchFindingKind::race) {
    what();
    os << " " << other_access << " by ";
    who(other_thread, other_xyz);
    os << " at " << other_site.str() << " and " << access << " by ";
    who(thread, thread_xyz);
    os << " at " << site.str() << " with no sync_threads between";
  } else if (kind == ScratchFindingKind::uninitialised_read) {
    what();
    os << " " << access << " by ";
    who(thread, thread_xyz);
    os << " at " << site.str() << " before any thread of the block wrote it";
  } else {
    os << note;
    if (!array.empty()) {
      os << " (";
      what();
      os << ")";
    }
    if (thread >= 0) {
      os << " by ";
      who(thread, thread_xyz);
    }
    os << " at " << site.str();
  }
  if (kind == ScratchFindingKind::race && !note.empty()) os << "; " << note;
  return os.str();
}

inline std::string ScratchCheckReport::str() const {
  std::ostringstream os;
  os << "scratchkit scratch check: kernel '" << label << "' on " << space << "\n";
  // Each count on a line of its own, with what it counts.
  auto count = [&os](const char* name, long long n, const char* what) {
    std::string head = std::string("  ") + name + ": " + std::to_string(n);
    if (head.size() < 30) head.resize(30, ' ');
    os << head << " " << what << "\n";
  };
  count("blocks", blocks, "blocks of the grid run under the checker");
  count("phases", phases, "code between two sync_threads, summed over blocks");
  count("accesses", accesses, "scratch loads and stores seen through s[i] (a += is two), atomics included");
  if (atomics) count("atomics", atomics, "of which scratchkit::atomic_* updates (not in the bank tables)");
  if (raw_accesses)
    count("raw-pointer accesses", raw_accesses,
          "loads, stores and atomics through data(), &s[i], memcpy (per element; not in the bank tables)");
  if (untracked_write_bytes)
    count("raw-pointer bytes", untracked_write_bytes,
          "bytes stored through data() or &s[i], seen by comparing bytes; loads through them are not seen");
  count("races", races, "elements one thread wrote and another accessed in one phase (once per element and phase)");
  count("uninitialised reads", uninitialised_reads,
        "elements read before any thread of their block wrote them (once per element: its first reader)");
  count("misuses", misuses, "layer used in a way a GPU does not run (once per kind and site in the launch)");
  for (const auto& f : findings) os << "  " << f.str() << "\n";
  const long long found = races + uninitialised_reads + misuses;
  if (found > static_cast<long long>(findings.size()))
    os << "  ... (" << findings.size() << " of " << found << " findings kept: ScratchCheck::max_findings)\n";
  if (!arrays.empty()) {
    os << "  bank conflicts (32 banks of 4 bytes; requests by n-way, n = most distinct words in one bank):\n";
    for (const auto& a : arrays) {
      for (int op = 0; op < 2; ++op) {
        if (a.requests[op] == 0) continue;
        os << "    " << a.array << (op == 0 ? "  ld" : "  st") << ": " << a.requests[op] << " requests, "
           << a.wavefronts[op] << " wavefronts, ideal " << a.ideal[op] << ", conflicts "
           << a.wavefronts[op] - a.ideal[op] << "  [";
        bool first = true;
        for (const auto& w : a.ways[op]) {
          os << (first ? "" : ", ") << w.first << "-way: " << w.second;
          first = false;
        }
        os << "]\n";
      }
    }
  }
  os << "  Nsight Compute: l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum " << conflicts(ScratchOp::load)
     << ", _op_st.sum " << conflicts(ScratchOp::store) << "; l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "
     << wavefronts(ScratchOp::load) << ", _op_st.sum " << wavefronts(ScratchOp::store) << "\n";
  return os.str();
}

}  // namespace scratchkit
