#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The host scratch checker against the GPU tools, on a machine with an NVIDIA GPU:
# each test kernel of tests/support/checker_kernels.hpp runs on the host under the
# checker (scratchkit_checker_cases), and its CUDA twin (tests/checker_twins.cu)
# under compute-sanitizer racecheck and initcheck and Nsight Compute's
# shared-memory counters; then the occupancy formula against CUDA's occupancy API.
# Writes one comparison log.
#
#   scripts/checker_gpu_check.sh [BUILD_DIR] [LOG]
#
# BUILD_DIR: a configured scratchkit build with the tests (default build-test, as
# `scripts/quickstart.sh test` leaves it); scratchkit_checker_cases is built there.
# LOG (default tests/results/checker-gpu-check.log). Environment: ARCH (default
# sm_90), NVCC, COMPUTE_SANITIZER, NCU (default: from PATH or /usr/local/cuda/bin);
# HOST_CASES, the output of scratchkit_checker_cases run elsewhere (the checker's verdicts do not
# depend on the machine), instead of building it in BUILD_DIR; RAW_DIR, a folder for the tools' raw output.
set -euo pipefail
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$src/build-test}"
log="${2:-$src/tests/results/checker-gpu-check.log}"
arch="${ARCH:-sm_90}"
cuda_bin=/usr/local/cuda/bin
tool() { command -v "$1" 2>/dev/null || echo "$cuda_bin/$1"; }
nvcc="${NVCC:-$(tool nvcc)}"
sanitizer="${COMPUTE_SANITIZER:-$(tool compute-sanitizer)}"
ncu="${NCU:-$(tool ncu)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum

echo "== building the CUDA twins ($arch) and the host cases"
"$nvcc" -std=c++17 -O2 -arch="$arch" -lineinfo -I"$src/include" "$src/tests/checker_twins.cu" -o "$work/twins"
host="$work/host.txt"
if [ -n "${HOST_CASES:-}" ]; then
  cp "$HOST_CASES" "$host"
  build="$HOST_CASES (run elsewhere)"
else
  [ -d "$build" ] || { echo "checker_gpu_check: no build directory $build (run scripts/quickstart.sh test first)" >&2; exit 1; }
  cmake --build "$build" --target scratchkit_checker_cases -j "${JOBS:-$(nproc)}"
  cases_bin="$(find "$build" -name scratchkit_checker_cases -type f -perm -u+x | head -n 1)"
  "$cases_bin" > "$host"
fi

mkdir -p "$(dirname "$log")"
{
  echo "# scratchkit host scratch checker vs. GPU tools"
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  echo "# $("$nvcc" --version | tail -n 1); $("$sanitizer" --version 2>/dev/null | head -n 1); $("$ncu" --version 2>/dev/null | tail -n 1)"
  echo "# host: scratchkit_checker_cases from $build"
  echo
  echo "races: elements the checker reports racing / elements racecheck's hazards touch (hazard addresses / element size);"
  echo "'same' when the two sets are equal. Bank counts: the checker / Nsight Compute."
  echo
  printf '%-20s %-34s %-22s %-24s %-24s %-24s %-24s\n' case "race elements: checker / racecheck" "uninit: ch / initcheck" \
    "ld conflicts: ch / ncu" "st conflicts: ch / ncu" "ld wavefronts: ch / ncu" "st wavefronts: ch / ncu"
} > "$log"

field() { sed -n "s/.*\b$2=\([0-9-]*\).*/\1/p" <<< "$1"; }
# The tools may read stdin: the cases come on fd 3.
while read -r line <&3; do
  c="${line%% *}"
  # racecheck: hazards reported (errors + warnings); initcheck: errors.
  "$sanitizer" --tool racecheck --racecheck-report hazard --print-limit 1000000 "$work/twins" "$c" > "$work/$c.race" 2>&1 || true
  "$sanitizer" --tool initcheck "$work/twins" "$c" > "$work/$c.init" 2>&1 || true
  hazards="$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$work/$c.race" | tail -n 1)"
  [ -n "$hazards" ] || hazards="$(grep -c 'Race reported\|Potential .* hazard\|Error: Race' "$work/$c.race" || true)"
  init="$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$work/$c.init" | tail -n 1)"
  "$ncu" --csv --metrics "$metrics" "$work/twins" "$c" > "$work/$c.ncu" 2> "$work/$c.ncu.err" || true
  read -r nld nst nwld nwst < <(python3 - "$work/$c.ncu" <<'PY'
import csv, sys
sums = {}
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 3]
if rows:
    head = rows[0]
    mi, vi = head.index("Metric Name"), head.index("Metric Value")
    for r in rows[1:]:
        try:
            sums[r[mi]] = sums.get(r[mi], 0) + float(r[vi].replace(",", ""))
        except ValueError:
            pass
keys = ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
print(" ".join(str(int(sums[k])) if k in sums else "?" for k in keys))
PY
)
  # racecheck's hazards name shared-memory byte addresses: the elements they touch (every case's racing
  # array is its only __shared__ array, at address 0; doubles are 8 bytes).
  esize=4
  [ "$c" = doubles ] && esize=8
  read -r rc_n rc_same < <(python3 - "$work/$c.race" "$esize" "$(sed -n 's/.*race_elements=\([0-9,-]*\).*/\1/p' <<< "$line")" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
size = int(sys.argv[2])
rc = {int(a, 16) // size for a in re.findall(r"__shared__ (?:memory )?(?:at )?0x([0-9a-fA-F]+)", text)}
ours = set() if sys.argv[3] in ("", "-") else {int(x) for x in sys.argv[3].split(",")}
print(len(rc), "same" if rc == ours else "differ:checker-only=%s,racecheck-only=%s" % (
    ",".join(map(str, sorted(ours - rc)[:8])) or "-", ",".join(map(str, sorted(rc - ours)[:8])) or "-"))
PY
)
  ours_n="$(sed -n 's/.*race_elements=\([0-9,-]*\).*/\1/p' <<< "$line" | awk -F, '$0 == "-" {print 0; next} {print NF}')"
  printf '%-20s %-34s %-22s %-24s %-24s %-24s %-24s\n' "$c" "$ours_n / $rc_n ($rc_same; ${hazards:-?} hazards)" \
    "$(field "$line" uninit) / ${init:-?}" "$(field "$line" ld_conflicts) / $nld" "$(field "$line" st_conflicts) / $nst" \
    "$(field "$line" ld_wavefronts) / $nwld" "$(field "$line" st_wavefronts) / $nwst" >> "$log"
  [ -z "${RAW_DIR:-}" ] || cp "$work/$c.race" "$work/$c.ncu" "$RAW_DIR/" 2>/dev/null || true
done 3< "$host"

{
  echo
  echo "## racecheck / initcheck excerpts (first hazard or error of each case)"
  for f in "$work"/*.race "$work"/*.init; do
    first="$(grep -m 1 -A 3 'Error\|Warning\|hazard' "$f" | head -n 4 || true)"
    [ -z "$first" ] || printf '%s:\n%s\n' "$(basename "$f")" "$first"
  done
  echo
  echo "## occupancy: scratchkit's formula (detail/occupancy.hpp) vs cudaOccupancyMaxActiveBlocksPerMultiprocessor"
  rc=0
  "$work/twins" occupancy || rc=$?
  [ "$rc" = 0 ] || echo "(exit code $rc: 1 = some rows differ, 77 = no GPU)"
} >> "$log" 2>&1
echo "== log: $log"
cat "$log"
