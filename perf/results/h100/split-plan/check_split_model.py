#!/usr/bin/env python3
"""Scores split-K plans against the tuner's measured split counts (float few_type, 64 x 64 tiles,
slices of 16, 4 blocks per SM, 132 SMs): for each size, the TFLOP/s of the count a plan picks over
the best measured count. `model` is detail::gemm_split_plan as of this folder (a copy of its
arithmetic), `resident` the plan before it (as many splits as the resident blocks hold).

    python3 check_split_model.py split-counts-float-sc-*.txt split-counts-float-ar-*.txt   # the fit
    python3 check_split_model.py holdout-float-*.txt                                       # hold-out
"""
import re
import sys

SMS, MB, BM, BN, BK = 132, 4, 64, 64, 16


def model(n, block_cost=10, waves=4, min_slices=4, max_splits=16):
    nk, tiles = -(-n // BK), (-(-n // BM)) * (-(-n // BN))
    smax = min(waves * SMS * MB // tiles, nk // min_slices, max_splits)
    if smax < 2:
        return 1

    def cost(s, per):
        b = -(-tiles * s // SMS)
        eff = 10 if b >= MB else (7 if b == MB - 1 else 6)
        return b * (per + block_cost) * 10, eff

    s, best = 1, cost(1, nk)
    for c in range(2, smax + 1):
        per = -(-nk // c)
        if -(-nk // per) != c:
            continue
        t = cost(c, per)
        if t[0] * best[1] < best[0] * t[1]:
            s, best = c, t
    return s


def resident(n):
    nk, tiles = -(-n // BK), (-(-n // BM)) * (-(-n // BN))
    s = min(SMS * MB // tiles, nk // 4, 16)
    if s < 2:
        return 1
    per = -(-nk // s)
    return -(-nk // per)


def main(files):
    runs = {}
    line = re.compile(r"float\s+(\d+)\^3\s+.*?(plan|   ) split (\d+) x (\d+)\s+[\d.]+ ms\s+([\d.]+) TFLOP")
    for f in files:
        seen = {}
        for text in open(f):
            m = line.match(text)
            if m and m.group(2) != "plan":
                seen.setdefault((int(m.group(1)), int(m.group(3))), float(m.group(5)))
        for k, v in seen.items():
            runs.setdefault(k[0], {}).setdefault(k[1], []).append(v)
    scores = {"model": [], "resident": []}
    print(" size  best count (TFLOP/s)   model: count, of best   resident: count, of best")
    for n in sorted(runs):
        t = {s: sum(v) / len(v) for s, v in runs[n].items()}
        best = max(t, key=t.get)
        row = f"{n:5d}  {best:2d} ({t[best]:6.2f})"
        for name, pick in (("model", model(n)), ("resident", resident(n))):
            q = t[pick] / t[best] if pick in t else None
            if q is not None:
                scores[name].append(q)
            row += f"   {name}: {pick:2d}, " + (f"{q:.3f}" if q is not None else "not measured")
        print(row)
    for name, q in scores.items():
        if q:
            print(f"{name}: mean {sum(q) / len(q):.3f} of the best, worst {min(q):.3f} ({len(q)} sizes)")


if __name__ == "__main__":
    main(sys.argv[1:])
