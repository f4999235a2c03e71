#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Prints the README's results table from a current set, perf/results/<gpu>/summary.csv
(perf/report.py's output): the layer's rows against the vendors and the copy, and layer/native.

    python3 perf/readme_table.py h100        # or a path to a summary.csv
    python3 perf/readme_table.py h100 --check README.md   # exit 1 unless README.md holds it
"""
import csv
import os
import sys


def load(arg):
    path = arg if arg.endswith(".csv") else os.path.join(os.path.dirname(__file__), "results", arg, "summary.csv")
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def time_of(rows, **key):
    for r in rows:
        if all(r[k] == v for k, v in key.items()) and r["time_ms"]:
            return float(r["time_ms"])
    return None


def speed(vendor, layer):
    """Vendor time over layer time (1.0: as fast as the vendor), formatted; '–' where a row is missing."""
    return "–" if vendor is None or layer is None else f"{vendor / layer:.3f}"


def n_of(size):
    return int(size.split("^")[0])


def table(rows):
    right = [r for r in rows if r["layout"] == "LayoutRight"]
    layer = [r for r in right if r["backend"] == "layer"]
    out = ["| what | layer |", "|---|---|"]

    gemm_sizes = sorted({r["size"] for r in layer if r["kernel"] == "gemm" and r["variant"] == "register_blocked"},
                        key=n_of)[-2:]
    for name, t in (("SGEMM", "float"), ("DGEMM", "double")):
        vals = [speed(time_of(right, kernel="gemm", backend="vendor", type=t, size=s),
                      time_of(layer, kernel="gemm", variant="register_blocked", type=t, size=s)) for s in gemm_sizes]
        sizes = " / ".join(s.replace("^3", "³") for s in gemm_sizes)
        out.append(f"| {name} register_blocked / cuBLAS, {sizes} | {' / '.join(vals)} |")

    best = []
    for t in ("int32", "float"):
        cub = time_of(right, kernel="reduce_sum", backend="vendor", type=t)
        times = [float(r["time_ms"]) for r in layer if r["kernel"] == "reduce_sum" and r["type"] == t]
        best.append(speed(cub, min(times) if times else None))
    out.append(f"| best reduction / CUB (int32, float) | {', '.join(best)} |")

    hist = [r["size"] for r in layer if r["kernel"] == "histogram" and r["size"].endswith("_256bins")]
    if hist:
        out.append("| histogram 256 bins / CUB | " + speed(time_of(right, kernel="histogram", backend="vendor", size=hist[0]),
                                                       time_of(layer, kernel="histogram", size=hist[0])) + " |")

    pct = []
    for kernel, variant in (("stencil_1d_r3", "vectorized"), ("transpose", "tiled_padded"),
                            ("stencil_3d_7pt", "z_streaming")):
        vals = [next((f"{float(r['pct_of_ceiling']):.1f}" for r in layer if r["kernel"] == kernel and
                      r["variant"] == variant and r["type"] == t and r["pct_of_ceiling"]), "–")
                for t in ("float", "double")]
        pct.append(" / ".join(vals))
    out.append("| 1-D vectorized, transpose tiled_padded, 3-D z_streaming, % of copy (float / double) | "
               + ", ".join(pct) + " |")

    ratios = [float(r["ratio_layer_over_native"]) for r in rows
              if r["backend"] == "layer" and r["ratio_layer_over_native"]]
    low = sorted(x for x in ratios if x < 0.98)
    below = f"; below: {low[0]:.2f}–{low[-1]:.2f}" if low else ""
    out.append(f"| layer / native twin | ≥ 0.98 on {len(ratios) - len(low)} of {len(ratios)} rows{below} |")
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--check"):
        sys.exit(__doc__)
    text = table(load(sys.argv[1]))
    if len(sys.argv) == 2:
        print(text)
    else:
        with open(sys.argv[3], encoding="utf-8") as f:
            if text not in f.read():
                sys.exit(f"{sys.argv[3]} does not hold the table of {sys.argv[1]} (perf/readme_table.py):\n{text}")
