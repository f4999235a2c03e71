#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One table from a run of perf/peers: scratchkit's ports (run_ports.sh's scratchkit.csv)
beside the RAJA Performance Suite's variants (rajaperf.sh's rajaperf.csv) of one machine
and backend, with the ratios the targets name (docs/performance.md, "Against a peer suite").

usage: summary.py PORTS_CSV SUITE_CSV [--gpu] [--host-ref VARIANT] [--csv OUT_CSV]

GPU (--gpu): layer / twin, RAJA_CUDA, Base_CUDA as speed ratios (time of the other / time
of the layer; >= 1 is the layer faster). Host: layer time / Base_OpenMP time (<= 1.1 is the
target) and layer / RAJA_OpenMP (<= 1.0); --host-ref Base_Seq for a one-thread set, beside RAJA_Seq. Checksums: every row's against the suite's Base_Seq.
"""
import argparse
import csv


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ports")
    ap.add_argument("suite")
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--host-ref", default="Base_OpenMP")
    ap.add_argument("--csv")
    a = ap.parse_args()
    t, ck = {}, {}
    for r in read(a.ports):
        if r.get("time_per_rep_s"):
            t[(r["kernel"], r["variant"])] = float(r["time_per_rep_s"])
    for r in read(a.suite):
        t[(r["kernel"], r["variant"])] = float(r["time_per_rep_s"])
        if r["variant"] == "Base_Seq":
            ck[r["kernel"]] = r["checksum"]
    kernels = ["MAT_MAT_SHARED", "MASS3DPA", "DIFFUSION3DPA"]
    raja = "RAJA_Seq" if a.host_ref == "Base_Seq" else "RAJA_OpenMP"
    others = ["scratchkit_twin", "Base_CUDA", "RAJA_CUDA"] if a.gpu else [a.host_ref, raja]
    others = [o for o in others if any(k[1] == o for k in t)]
    rows = []
    head = ["kernel", "layer (us)"] + [f"{o} (us)" for o in others]
    if a.gpu:
        head += ["layer vs twin (>= 0.98)", "vs Base_CUDA (>= 0.95)", "vs RAJA_CUDA (>= 1.0)"]
    else:
        head += [f"layer / {o} time" + (" (<= 1.1)" if o.startswith("Base") else " (<= 1.0)") for o in others]
    for k in kernels:
        lay = t.get((k, "scratchkit_layer"))
        if lay is None:
            continue
        row = [k, f"{lay * 1e6:.2f}"] + [f"{t[(k, o)] * 1e6:.2f}" if (k, o) in t else "-" for o in others]
        for o in others:
            if (k, o) not in t:
                row.append("-")
            elif a.gpu:
                row.append(f"{t[(k, o)] / lay:.3f}")
            else:
                row.append(f"{lay / t[(k, o)]:.2f}")
        rows.append(row)
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(head)
            w.writerows(rows)


if __name__ == "__main__":
    main()
