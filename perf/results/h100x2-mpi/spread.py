#!/usr/bin/env python3
"""Spread between MPI ranks per case and per kernel, from scratchkit-bench --ranks-out CSV files.

spread = (max - min) / min of the per-rank medians. Prints the per-kernel table (cases, largest spread,
median spread, how often each rank is the slowest) and every case above the threshold (default 5 %).
Usage: spread.py ranks-main.csv [ranks-slow.csv ...] [--over 0.05]
"""
import csv
import statistics
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
over = 0.05
if "--over" in sys.argv:
    over = float(sys.argv[sys.argv.index("--over") + 1])
    args = [a for a in args if a != sys.argv[sys.argv.index("--over") + 1]]
rows = {}
for f in args:
    for r in csv.DictReader(open(f)):
        key = (r["kernel"], r["variant"], r["backend"], r["type"], r.get("layout", ""), r["size"])
        rows[key] = r  # later files win, as in report.py
per_kernel = {}
above = []
for key, r in rows.items():
    lo, hi = float(r["min_ms"]), float(r["max_ms"])
    s = (hi - lo) / lo if lo > 0 else 0.0
    per_kernel.setdefault(key[0], []).append((s, key, r))
    if s > over:
        above.append((s, key, r))
print("| kernel | cases | largest spread | median spread | slowest rank 0 / 1 | largest at |")
print("|---|---:|---:|---:|---|---|")
for k, v in sorted(per_kernel.items()):
    v.sort(key=lambda t: t[0], reverse=True)
    slow = [t[2]["slowest_rank"] for t in v]
    s0, key, r = v[0]
    print(f"| {k} | {len(v)} | {100*s0:.2f} % | {100*statistics.median([t[0] for t in v]):.2f} % | "
          f"{slow.count('0')} / {slow.count('1')} | {'/'.join(key[1:])} ({float(r['min_ms']):.4g} / {float(r['max_ms']):.4g} ms) |")
print(f"\ncases: {len(rows)}; above {100*over:.0f} %: {len(above)}")
for s, key, r in sorted(above, reverse=True):
    print(f"- {'/'.join(key)}: {100*s:.1f} % (min {r['min_ms']} ms, max {r['max_ms']} ms, slowest rank {r['slowest_rank']}, {r['check']})")
