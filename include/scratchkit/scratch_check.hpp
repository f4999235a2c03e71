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

/// A load or a store of scratch, as Nsight Compute splits its counters (op_ld, op_st).
enum class ScratchOp { load = 0, store = 1 };

/// Bank statistics of one scratch array over a launch. A request is the
/// k-th access of the threads of one warp in one phase; a 4-byte access is
/// served per warp, an 8-byte one per half-warp, a 16-byte one per
/// quarter-warp, each in as many wavefronts as the most distinct 4-byte words
/// any of the 32 banks holds (the same word twice is a broadcast).
struct ScratchArrayConflicts {
  std::string array;               ///< "static[0] SharedArray<float, 1024>", "dynamic [0, 1040) float", ...
  long long requests[2]   = {0, 0};  ///< warp requests, [ScratchOp]
  long long wavefronts[2] = {0, 0};  ///< wavefronts they need
  long long ideal[2]      = {0, 0};  ///< wavefronts without conflicts (1, 2 or 4 a request)
  std::map<int, long long> ways[2];  ///< n -> requests whose worst bank holds n distinct words
  /// wavefronts - ideal: Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum.
  long long conflicts(ScratchOp op) const { return wavefronts[int(op)] - ideal[int(op)]; }
};

/// What the checker saw in one launch. Counts are over every block of the grid.
struct ScratchCheckReport {
  std::string label;                  ///< the kernel's label
  std::string space;                  ///< the execution space it ran on
  long long blocks   = 0;             ///< blocks checked
  long long phases   = 0;             ///< phases (code between two sync_threads), summed over blocks
  long long accesses = 0;             ///< scratch accesses through operator[] / operator()
  long long atomics  = 0;             ///< of which atomic updates (not in the bank tables)
  long long untracked_write_bytes = 0;  ///< bytes written through raw pointers (data()): checked for races, not for banks
  long long races    = 0;             ///< elements written by one thread and accessed by another in one phase
  long long uninitialised_reads = 0;  ///< reads of bytes no thread of the block had written in this launch
  std::vector<ScratchArrayConflicts> arrays;  ///< per array, in the order first seen
  std::vector<std::string> findings;  ///< the first races and uninitialised reads, spelled out

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
  /// True when the launch had no race, no uninitialised read and no bank conflict.
  bool clean() const {
    return races == 0 && uninitialised_reads == 0 && conflicts(ScratchOp::load) == 0 &&
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
  bool throw_on_race = false;  ///< throw ScratchRaceError at the end of a launch with a race
  int max_findings   = 8;      ///< races and uninitialised reads spelled out in full
  ScratchCheckReport* report                = nullptr;  ///< filled at the end of the launch
  std::vector<ScratchCheckReport>* reports  = nullptr;  ///< the launch's report is appended

  ScratchCheck& into(ScratchCheckReport* r) { report = r; return *this; }
  ScratchCheck& quiet(bool q = true) { print = !q; return *this; }
  ScratchCheck& throwing(bool t = true) { throw_on_race = t; return *this; }
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

inline std::string ScratchCheckReport::str() const {
  std::ostringstream os;
  os << "scratchkit scratch check: kernel '" << label << "' on " << space << ": " << blocks << " blocks, " << phases
     << " phases, " << accesses << " accesses";
  if (atomics) os << " (" << atomics << " atomic)";
  if (untracked_write_bytes) os << ", " << untracked_write_bytes << " bytes written through raw pointers";
  os << "\n  races: " << races << ", uninitialised reads: " << uninitialised_reads << "\n";
  for (const auto& f : findings) os << "  " << f << "\n";
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
  os << "  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum " << conflicts(ScratchOp::load)
     << ", _op_st.sum " << conflicts(ScratchOp::store) << "; l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum "
     << wavefronts(ScratchOp::load) << "\n";
  return os.str();
}

}  // namespace scratchkit
