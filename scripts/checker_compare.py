#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The scratch checker's verdicts beside the GPU tools', case by case (scripts/checker_gpu_check.sh).

    checker_compare.py HOST_CASES RAW_DIR

HOST_CASES: the output of scratchkit_checker_cases (one line per case: races=, uninit=, the bank
counts, race_elements=). RAW_DIR: for each case, <case>.race (compute-sanitizer racecheck with
--racecheck-report hazard), <case>.init (initcheck) and <case>.ncu (ncu --csv with the four
shared-memory metrics). racecheck names shared-memory byte addresses; the elements they touch are
(address - reserved) / element size: every case's racing array is its only __shared__ array, placed
after the block's reserved shared memory (RESERVED_SHARED bytes, default 1024: sm_80 and later).
Prints one table; exit status 1 when a race set or a bank count differs.
"""
import csv
import os
import re
import sys

METRICS = [
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
]
ELEMENT_SIZE = {"doubles": 8}
# Cases whose race sets differ by design (docs/checker.md, "Where it differs from the GPU tools"):
# not counted as differences; the note is printed.
KNOWN = {
    "warp_war": "checker stricter: racecheck sees a warp's lanes in lockstep, only warp edges",
    "atomic_then_read": "racecheck does not see atomic-then-plain-read hazards",
}


def fields(line):
    name, *rest = line.split()
    return name, dict(kv.split("=", 1) for kv in rest if "=" in kv)


def racecheck(path, esize, reserved):
    if not os.path.exists(path):
        return None, None
    text = open(path, errors="replace").read()
    addrs = [int(a, 16) for a in re.findall(r"hazard detected at __shared__ 0x([0-9a-fA-F]+)", text)]
    return {(a - reserved) // esize for a in addrs}, len(addrs)


def initcheck(path):
    if not os.path.exists(path):
        return "?"
    m = re.findall(r"ERROR SUMMARY: (\d+) error", open(path, errors="replace").read())
    return m[-1] if m else "?"


def ncu(path):
    sums = {}
    if os.path.exists(path):
        rows = [r for r in csv.reader(open(path, errors="replace")) if len(r) > 3]
        if rows and "Metric Name" in rows[0]:
            mi, vi = rows[0].index("Metric Name"), rows[0].index("Metric Value")
            for r in rows[1:]:
                try:
                    sums[r[mi]] = sums.get(r[mi], 0) + int(float(r[vi].replace(",", "")))
                except ValueError:
                    pass
    return [sums.get(k) for k in METRICS]


def main():
    host, raw = sys.argv[1], sys.argv[2]
    reserved = int(os.environ.get("RESERVED_SHARED", "1024"))
    print("race elements: the elements the checker reports racing / those racecheck's hazards touch,")
    print("'same' when the sets are equal; racecheck counts a hazard per byte. Bank counts: checker / Nsight Compute.")
    print()
    head = ["case", "race elements: ch / racecheck", "uninit: ch / initcheck", "ld conflicts", "st conflicts",
            "ld wavefronts", "st wavefronts", "known difference"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    differ = 0
    for line in open(host):
        if "races=" not in line:
            continue
        name, f = fields(line)
        ours = set() if f.get("race_elements", "-") in ("", "-") else {int(x) for x in f["race_elements"].split(",")}
        rc, hazards = racecheck(os.path.join(raw, name + ".race"), ELEMENT_SIZE.get(name, 4), reserved)
        if rc is None:
            race_cell = "%d / ?" % len(ours)
        else:
            same = rc == ours
            differ += not same and name not in KNOWN
            race_cell = "%d / %d (%s; %d hazards)" % (len(ours), len(rc), "same" if same else "differ", hazards)
        nums = ncu(os.path.join(raw, name + ".ncu"))
        keys = ["ld_conflicts", "st_conflicts", "ld_wavefronts", "st_wavefronts"]
        cells = []
        for k, v in zip(keys, nums):
            cells.append("%s / %s" % (f.get(k, "?"), "?" if v is None else v))
            if v is not None and str(v) != f.get(k):
                cells[-1] = "**" + cells[-1] + "**"
        row = [name, race_cell, "%s / %s" % (f.get("uninit", "?"), initcheck(os.path.join(raw, name + ".init")))] + cells
        row.append(KNOWN.get(name, ""))
        print("| " + " | ".join(row) + " |")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
