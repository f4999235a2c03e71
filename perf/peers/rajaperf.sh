#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
#
# Builds, runs and compares against the RAJA Performance Suite (LLNL/RAJAPerf,
# tested at 9af20b3f, 2024-10-10, with RAJA 378199aa, camp d580fd8f,
# desul 6114dd25, blt 9ff77344), restricted to the three kernels scratchkit
# ports: Basic_MAT_MAT_SHARED, Apps_MASS3DPA and Apps_DIFFUSION3DPA.
# No suite code lives in scratchkit: the user names a checkout (with its
# submodules filled in) and this script patches it with rajaperf.patch.
#
# usage:
#   rajaperf.sh build SRC BUILD_DIR [openmp|cuda]
#       Applies rajaperf.patch to SRC (idempotent; never downloads), configures
#       and builds raja-perf.exe only: Seq+OpenMP, or CUDA+OpenMP+Seq with a
#       static RAJA and a static CUDA runtime (CUDA_ARCH, default 90 = sm_90).
#       Env: CXX (g++), CUDA_HOME (/usr/local/cuda), CUDA_ARCH (90), JOBS (2).
#   rajaperf.sh run EXE OUTDIR [VARIANT...]
#       Runs the three kernels at the suite's default sizes and reps, one pass,
#       in VARIANTs (default: those of Base_Seq Base_OpenMP RAJA_OpenMP
#       Base_CUDA RAJA_CUDA that EXE has). Leaves the suite's reports
#       (RAJAPerf-timing-Average.csv, -checksum.txt, -kernels.csv, ...) and
#       OUTDIR/rajaperf.csv (kernel,variant,time_per_rep_s,gflops,checksum)
#       plus OUTDIR/rajaperf-sizes.csv (kernel,problem_size,n,reps,flops_per_rep).
#       OMP_NUM_THREADS / OMP_PROC_BIND are passed through from the caller;
#       RAJAPERF_ARGS (unset by default) adds suite options, e.g. for a quick
#       test '--sizefact 0.01' (then the sizes are no longer the defaults).
#   rajaperf.sh compare RAJAPERF_CSV SCRATCHKIT_CSV
#       For each row of SCRATCHKIT_CSV (kernel,variant,checksum), compares its
#       checksum with the suite's Base_Seq checksum of that kernel: prints both,
#       |diff| and |diff|/|ref|, PASSED if |diff|/|ref| <= 1e-12 (else FAILED);
#       exits 1 if any row FAILED or has no reference.
#
# What the numbers are (read in the 2024 suite's src/common):
#   * time_per_rep_s: the suite times the whole rep loop of a variant
#     (startTimer before `for irep < run_reps`, stopTimer after; KernelBase::
#     recordExecTime adds it to tot_time); RAJAPerf-timing-Average.csv prints
#     tot_time / npasses, i.e. the time of ALL reps of one pass, with 6 fixed
#     decimals; -sp (show progress) prints the same time with 6 significant
#     digits on stdout (kept as rajaperf-stdout.txt), which we prefer. We
#     divide by the "Reps" column of RAJAPerf-kernels.csv.
#   * gflops: "FLOPS/rep" of RAJAPerf-kernels.csv (the kernel's setFLOPsPerRep)
#     / time_per_rep_s / 1e9.
#   * checksum (DataUtils.cpp calcChecksumImpl + each kernel's updateChecksum):
#       cksum = scale * sum_{j=0}^{len-1} (|sin(j+1)| + 0.5) * y[j]
#     accumulated in long double with Kahan compensation over the output array
#     y (MAT_MAT_SHARED: C, N*N entries; MASS3DPA/DIFFUSION3DPA: Y,
#     D1D^3*NE entries); scale = 1e-6 * (default size / actual size) for
#     MAT_MAT_SHARED, 1 for MASS3DPA and DIFFUSION3DPA. It is printed with
#     20 significant digits in RAJAPerf-checksum.txt; we copy it verbatim.
#   * The 2024 suite has no checksum pass/fail: Executor::writeChecksumReport
#     prints only "Checksum Diff (vs. first variant listed)" (ref - cksum, or
#     with several MPI ranks max/stddev of it); its only tolerance,
#     --pass-fail-tol, is a timing slowdown tolerance for the FOM report.
#     So `compare` states its own: relative difference <= 1e-12. The default
#     inputs are constants (A=B=1 for MAT_MAT_SHARED; B=Bt=G=D=X=1 for the
#     PA kernels), so every output is an exact small integer in double and
#     all variants should agree exactly; 1e-12 leaves room only for the
#     rounding of the long-double Kahan sum.
# Default sizes (2024 suite): MAT_MAT_SHARED N=1000 (5 reps), MASS3DPA
#   NE=8000 (Q1D=5, D1D=4; 50 reps), DIFFUSION3DPA NE=15625 (Q1D=4, D1D=3;
#   50 reps).
# The patched build contains only these kernels and DAXPY (the suite's warmup
# kernel for the Launch feature); options that walk all kernels
# (--print-kernels, -f/-ef feature selection) exit with a message.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PATCH="$HERE/rajaperf.patch"
KERNELS=(MAT_MAT_SHARED MASS3DPA DIFFUSION3DPA)
ALL_VARIANTS=(Base_Seq Base_OpenMP RAJA_OpenMP Base_CUDA RAJA_CUDA)

die() { echo "rajaperf.sh: $*" >&2; exit 1; }
usage() { sed -n '3,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2; }

cmd_build() {
  [[ $# -ge 2 ]] || usage
  local src build mode
  src="$(cd "$1" && pwd)" || die "no such directory: $1"
  build="$2"; mode="${3:-openmp}"
  [[ -f "$src/src/common/RAJAPerfSuite.cpp" ]] || die "$src is not a RAJAPerf checkout"
  local missing=() d
  for d in blt/SetupBLT.cmake tpl/RAJA/CMakeLists.txt tpl/RAJA/blt/SetupBLT.cmake \
           tpl/RAJA/tpl/camp/CMakeLists.txt tpl/RAJA/tpl/desul/CMakeLists.txt; do
    [[ -f "$src/$d" ]] || missing+=("${d%/*}")
  done
  [[ ${#missing[@]} -eq 0 ]] || die "$src lacks submodule(s): ${missing[*]} (run 'git submodule update --init --recursive' there, or fill them from mirrors: blt 9ff77344, tpl/RAJA 378199aa, tpl/RAJA/blt 9ff77344, tpl/RAJA/tpl/camp d580fd8f, tpl/RAJA/tpl/desul 6114dd25; tpl/kokkos, tpl/RAJA/tpl/cub and rocPRIM are not needed)"

  # Apply the patch once: skip if it reverses cleanly (already applied).
  if (cd "$src" && patch -p1 -R --dry-run -s -f < "$PATCH" >/dev/null 2>&1); then
    echo "rajaperf.sh: patch already applied in $src"
  else
    (cd "$src" && patch -p1 --dry-run -s -f < "$PATCH" >/dev/null) \
      || die "rajaperf.patch does not apply to $src (expected RAJAPerf 9af20b3f with RAJA 378199aa)"
    (cd "$src" && patch -p1 -s -f < "$PATCH")
    echo "rajaperf.sh: applied rajaperf.patch to $src"
  fi

  local cxx="${CXX:-g++}" cc="${CC:-gcc}" jobs="${JOBS:-2}"
  local common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc"
    -DENABLE_OPENMP=On -DBUILD_SHARED_LIBS=Off -DENABLE_KOKKOS=Off
    -DENABLE_TESTS=Off -DENABLE_EXAMPLES=Off -DENABLE_EXERCISES=Off -DENABLE_DOCS=Off
    -DENABLE_BENCHMARKS=Off -DRAJA_ENABLE_TESTS=Off -DRAJA_ENABLE_EXAMPLES=Off
    -DRAJA_ENABLE_EXERCISES=Off -DRAJA_ENABLE_REPRODUCERS=Off)
  case "$mode" in
    openmp) cmake -S "$src" -B "$build" "${common[@]}" -DENABLE_CUDA=Off ;;
    cuda)
      local cuda="${CUDA_HOME:-/usr/local/cuda}" cub
      # CUDA >= 13 keeps CUB/Thrust under include/cccl; RAJA's FindCUB looks for cub/cub.cuh.
      if [[ -f "$cuda/include/cccl/cub/cub.cuh" ]]; then cub="$cuda/include/cccl"; else cub="$cuda/include"; fi
      cmake -S "$src" -B "$build" "${common[@]}" -DENABLE_CUDA=On \
        -DCMAKE_CUDA_COMPILER="$cuda/bin/nvcc" -DCMAKE_CUDA_HOST_COMPILER="$cxx" \
        -DCUDA_TOOLKIT_ROOT_DIR="$cuda" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" \
        -DCMAKE_CUDA_RUNTIME_LIBRARY=Static -DRAJA_ENABLE_EXTERNAL_CUB=On -DCUB_DIR="$cub" ;;
    *) die "mode must be openmp or cuda, not '$mode'" ;;
  esac
  cmake --build "$build" --target raja-perf.exe -j "$jobs"
  echo "rajaperf.sh: built $build/bin/raja-perf.exe"
}

cmd_run() {
  [[ $# -ge 2 ]] || usage
  local exe outdir; exe="$(readlink -f "$1")"; outdir="$2"; shift 2
  [[ -x "$exe" ]] || die "not executable: $exe"
  mkdir -p "$outdir"; outdir="$(cd "$outdir" && pwd)"
  local variants=("$@")
  if [[ ${#variants[@]} -eq 0 ]]; then
    # Ask the suite which of the candidates this binary has: a dry run lists
    # the unbuilt ones under invalid_variant_input.
    local invalid
    invalid="$("$exe" --dryrun -k "${KERNELS[@]}" -v "${ALL_VARIANTS[@]}" 2>&1 \
      | awk '/^ invalid_variant_input =/{f=1;next} /^ [a-z_]+ =/{f=0} f{gsub(/[ \t]/,""); if($0!="")print}')"
    local v
    for v in "${ALL_VARIANTS[@]}"; do
      grep -qx "$v" <<<"$invalid" || variants+=("$v")
    done
    [[ ${#variants[@]} -gt 0 ]] || die "$exe has none of ${ALL_VARIANTS[*]}"
  fi
  echo "rajaperf.sh: running ${KERNELS[*]} in ${variants[*]} (OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset} OMP_PROC_BIND=${OMP_PROC_BIND:-unset})"
  # shellcheck disable=SC2086 # RAJAPERF_ARGS is split on purpose
  "$exe" -k "${KERNELS[@]}" -v "${variants[@]}" --npasses 1 --repfact 1 -sp \
    --outdir "$outdir" --outfile RAJAPerf ${RAJAPERF_ARGS:-} 2>&1 | tee "$outdir/rajaperf-stdout.txt"
  [[ -f "$outdir/RAJAPerf-timing-Average.csv" ]] || die "the suite wrote no timing report (see $outdir/rajaperf-stdout.txt)"
  python3 - "$outdir" <<'PY'
import csv, os, re, sys
out = sys.argv[1]
short = lambda k: re.sub(r'^(Basic|Apps|Lcals|Polybench|Stream|Algorithm|Comm)_', '', k)
rows = lambda path: [[c.strip() for c in r] for r in csv.reader(open(path))]
# kernels.csv: problem size, reps, FLOPS/rep
kr = rows(os.path.join(out, 'RAJAPerf-kernels.csv'))
hi = next(i for i, r in enumerate(kr) if r and r[0] == 'Kernels')
h = kr[hi]
info = {}
for r in kr[hi + 1:]:
    if len(r) == len(h) and r[0]:
        d = dict(zip(h, r))
        info[short(r[0])] = (int(d['Problem size']), int(d['Reps']), float(d['FLOPS/rep']))
# timing: row 1 variant names, row 2 tuning names, then one row per kernel
tr = rows(os.path.join(out, 'RAJAPerf-timing-Average.csv'))
var, tun = tr[1], tr[2]
times = {}
for r in tr[3:]:
    if not r or not r[0]:
        continue
    for c in range(1, len(r)):
        if r[c] and r[c] != 'Not run':
            times[(short(r[0]), var[c], tun[c])] = float(r[c])
# checksum.txt: "<Kernel>" header line, then "<Variant>-<tuning>  <cksum>  <diff>"
cks, cur = {}, None
for line in open(os.path.join(out, 'RAJAPerf-checksum.txt')):
    t = line.split()
    if len(t) == 1 and re.match(r'^[A-Z][A-Za-z]*_\w+$', t[0]):
        cur = short(t[0])
    elif cur and len(t) >= 2 and '-' in t[0] and re.match(r'^[-+0-9.eE]+$', t[1]):
        v, tn = t[0].split('-', 1)
        cks[(cur, v, tn)] = t[1]
# The CSV prints seconds with 6 fixed decimals (a 1 ms GPU rep loop keeps 3-4
# digits); -sp prints the same timer (the one pass's rep loop) with 6
# significant digits: prefer it.
cur = var_ = None
started = False
for line in open(os.path.join(out, 'rajaperf-stdout.txt')):
    if line.startswith('Running specified kernels'):
        started = True
    if not started:
        continue
    m = re.match(r'^Run kernel -- (\S+)', line)
    if m:
        cur = short(m.group(1)); continue
    m = re.match(r'^\tRunning (\S+) variant', line)
    if m:
        var_ = m.group(1); continue
    m = re.match(r'^\t\tRunning (\S+) tuning -- (\S+) sec', line)
    if m and cur and var_:
        times[(cur, var_, m.group(1))] = float(m.group(2))
with open(os.path.join(out, 'rajaperf.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['kernel', 'variant', 'time_per_rep_s', 'gflops', 'checksum'])
    # A GPU variant has one block-size tuning per kernel here (block_256 for
    # MAT_MAT_SHARED, block_25 for MASS3DPA, block_64 for DIFFUSION3DPA):
    # the variant is named plainly unless a kernel ran several tunings of it.
    ntun = {}
    for (k, v, tn) in times:
        ntun[(k, v)] = ntun.get((k, v), 0) + 1
    for (k, v, tn), t in times.items():
        size, reps, flops = info[k]
        tpr = t / reps
        name = v if ntun[(k, v)] == 1 else f'{v}-{tn}'
        w.writerow([k, name, f'{tpr:.6e}', f'{flops / tpr / 1e9:.4f}', cks.get((k, v, tn), '')])
with open(os.path.join(out, 'rajaperf-sizes.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['kernel', 'problem_size', 'n', 'n_meaning', 'reps', 'flops_per_rep'])
    q3 = {'MASS3DPA': 5 ** 3, 'DIFFUSION3DPA': 4 ** 3}   # MPA_Q1D=5, DPA_Q1D=4
    for k, (size, reps, flops) in info.items():
        if k == 'MAT_MAT_SHARED':
            n, m = round(size ** 0.5), 'N (matrix N x N)'
        else:
            n, m = size // q3.get(k, 1), 'NE (elements; size = NE*Q1D^3)'
        w.writerow([k, size, n, m, reps, f'{flops:.0f}'])
print(open(os.path.join(out, 'rajaperf.csv')).read(), end='')
PY
}

cmd_compare() {
  [[ $# -eq 2 ]] || usage
  python3 - "$1" "$2" <<'PY'
import csv, re, sys
from decimal import Decimal, getcontext
getcontext().prec = 40
TOL = Decimal('1e-12')       # relative; see the header of rajaperf.sh
short = lambda k: re.sub(r'^(BASIC|APPS)_', '', k.strip().upper())
ref = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r['variant'].strip() in ('Base_Seq', 'Base_Seq-default') and r['checksum'].strip():
        ref[short(r['kernel'])] = r['checksum'].strip()
bad = 0
print(f"{'kernel':15} {'variant':22} {'scratchkit checksum':>28} {'RAJAPerf Base_Seq':>28} {'abs diff':>10} {'rel diff':>10}  result (rel <= 1e-12)")
for r in csv.DictReader(open(sys.argv[2])):
    k, v, c = short(r['kernel']), r['variant'].strip(), r['checksum'].strip()
    if r.get('backend'):
        v = f"{v}/{r['backend'].strip()}"
    if k not in ref:
        print(f"{k:15} {v:22} {c:>28} {'(none)':>28} {'':>10} {'':>10}  FAILED (no Base_Seq reference)")
        bad += 1
        continue
    a, b = Decimal(c), Decimal(ref[k])
    d = abs(a - b)
    rel = d / abs(b) if b != 0 else (Decimal(0) if d == 0 else Decimal('Infinity'))
    ok = rel <= TOL
    bad += not ok
    print(f"{k:15} {v:22} {c:>28} {ref[k]:>28} {float(d):10.3e} {float(rel):10.3e}  {'PASSED' if ok else 'FAILED'}")
sys.exit(1 if bad else 0)
PY
}

case "${1:-}" in
  build) shift; cmd_build "$@" ;;
  run) shift; cmd_run "$@" ;;
  compare) shift; cmd_compare "$@" ;;
  *) usage ;;
esac
