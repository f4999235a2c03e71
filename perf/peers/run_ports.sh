#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs scratchkit's ports of the RAJA Performance Suite's shared-memory kernels
# (examples/rajaperf) at the suite's default sizes, with the suite's inputs and reps, and
# writes what perf/peers/rajaperf.sh compare reads:
#
#   perf/peers/run_ports.sh BUILD_DIR OUTDIR [--twin]
#
# BUILD_DIR: a scratchkit build with the examples (rajaperf_<kernel> under examples/rajaperf/).
# OUTDIR gets ports.log (the ports' own output) and scratchkit.csv with the columns
# kernel,variant,backend,size,reps,time_per_rep_s,gflops,checksum. --twin also runs the CUDA
# twins (a GPU build). The host backend's threads come from OMP_NUM_THREADS / OMP_PROC_BIND.
set -euo pipefail
build="$1"
out="$2"
shift 2
mkdir -p "$out"
: >"$out/ports.log"
for k in mat_mat_shared mass3dpa diffusion3dpa; do
  exe="$build/examples/rajaperf/rajaperf_$k"
  [ -x "$exe" ] || { echo "run_ports: $exe not built" >&2; exit 1; }
  echo "== $k $*" >>"$out/ports.log"
  "$exe" --bench "$@" >>"$out/ports.log" 2>&1 || { tail -n 20 "$out/ports.log"; exit 1; }
done
python3 - "$out/ports.log" "$out/scratchkit.csv" <<'PY'
import sys
rows, sums = {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if not f or f[0] not in ("ROW", "CHECKSUM"):
        continue
    kv = dict(x.split("=", 1) for x in f[1:])
    key = (kv["kernel"], kv["variant"])
    if f[0] == "ROW":
        rows[key] = kv
    else:
        sums[key] = kv["checksum"]
with open(sys.argv[2], "w") as o:
    o.write("kernel,variant,backend,size,reps,time_per_rep_s,gflops,checksum\n")
    for key in sorted(set(rows) | set(sums)):
        r = rows.get(key, {})
        o.write(",".join([key[0], key[1], r.get("backend", ""), r.get("size", ""), r.get("reps", ""),
                          r.get("time_per_rep_s", ""), r.get("gflops", ""), sums.get(key, "")]) + "\n")
PY
cat "$out/scratchkit.csv"
