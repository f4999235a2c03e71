#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Turns scratchkit-bench's Google Benchmark JSON into the comparison:

  report.py BENCH_JSON [BENCH_JSON ...] [--out DIR] [--plots] [--require-pass] [--cv-limit PCT]

Several JSON files (one run split with --only, to fit a time limit) are
merged in the order given; the context comes from the first.

writes DIR/summary.csv (columns: kernel,variant,backend,type,layout,size,
time_ms,gbps,gflops,pct_of_ceiling,ratio_layer_over_native,
ratio_layout_over_right,ratio_over_vendor,ratio_layer_over_plain,check,
cv_pct,spread),
DIR/summary.md and,
with --plots, DIR/pct_of_ceiling_<kernel>.png; prints the markdown table.
For a sweep (kernels at several sizes: scratchkit-bench --sweep) also
DIR/sweep.md (per size: the fastest layer variant against the vendor, or
against the copy nearest in bytes, with the 0.9 target) and, with --plots,
DIR/sweep_<kernel>.png (GB/s, or GFLOP/s for GEMM, against size).

pct_of_ceiling: GEMM rows against cuBLAS of the same type and size (the FLOP
ceiling measured in the same run); every other row against the copy
bandwidth measured in the same run (bytes read + written), using the
kernel's minimal bytes; with copies of several sizes (--sweep), the copy
nearest to the row in bytes. ratio_layer_over_native: native time / layer time
for the same kernel, variant, type, layout and size (1.0: the layer is as
fast; below 1: slower). ratio_layout_over_right: this row's time / the time
of the LayoutRight row of the same kernel, variant, backend, type and size
(the issue-20 target for LayoutLeft: <= 1.05). ratio_over_vendor: the time
of the vendor row (backend "vendor": CUB) of the same kernel, variant, type,
layout and size / this row's time (1.0: as fast as the vendor; below 1:
slower; the block-collective tile kernels name their CUB rows alike, the
issue-22 target: >= 0.95). layout: the Views' layout
(LayoutRight, LayoutLeft, LayoutStride); case names are
kernel/variant/backend/type/layout/size (older JSONs without the layout part
read as LayoutRight). ratio_layer_over_plain (host backends): this layer
row's time / the time of the plain Kokkos row of the same kernel, type,
layout and size (backend "plain-kokkos", perf/plain_kokkos.hpp; for the
reductions and tile collectives Kokkos' parallel_reduce / team_scan /
team_reduce rows, "kokkos-builtin"; 1.0: as fast; the issue-49 target <= 1.5);
with plain rows, DIR/host.md has per kernel, type, layout and size the
fastest layer variant against the plain row and the copy (the issue-38
targets: within 1.5x of plain Kokkos (issue 49; the histogram 1.25x of its fastest plain row, ScatterView), and the host BLAS where there is one, bandwidth kernels >= 40 % of the copy).
--require-pass exits 1 unless every row is PASSED or
SKIPPED and at least one row exists."""
import math
import argparse
import csv
import json
import sys
from pathlib import Path

COLUMNS = ["kernel", "variant", "backend", "type", "layout", "size", "time_ms", "gbps", "gflops",
           "pct_of_ceiling", "ratio_layer_over_native", "ratio_layout_over_right", "ratio_over_vendor", "ratio_layer_over_plain", "check",
           "cv_pct", "spread"]
LAYOUTS = ("LayoutRight", "LayoutLeft", "LayoutStride")
# A row's time or a baseline's with a coefficient of variation (stddev / mean of the repetitions)
# above this many percent makes the ratios built on it meaningless: they are flagged, not hidden.
CV_LIMIT = 10.0

LEGEND = """\
How to read it:
- check: correctness, not speed. PASSED: the row's output matched the host reference
  (exactly for integer results, within a rounding-error bound of the summation depth for
  floating point); FAILED: it did not, or the case could not run (scratchkit-bench prints
  why); SKIPPED: that variant/backend/type is not built or not run here.
- time (ms): the median of the repetitions (device time on CUDA). GB/s, GFLOP/s: the
  kernel's minimal bytes read + written, or FLOPs, over that time.
- % of ceiling: GEMM rows: GFLOP/s in % of the vendor GEMM (cuBLAS) of the same type and
  size; other rows: GB/s in % of the fastest copy of the run (with copies of several sizes,
  the copy nearest in bytes). Empty without a ceiling row in the run (no copy row: an --only
  without copy/; no vendor GEMM: no CUDA). Above 100: the ceiling was measured low (see spread).
- layer/native: the native CUDA twin's time / the layer's (same kernel, variant, type,
  layout, size): above 1 the layer is faster, below 1 slower.
- time / LayoutRight: this row's time / its LayoutRight row's (target: <= 1.05 for LayoutLeft).
- vendor time / time: the vendor's (CUB, cuBLAS) time / this row's: 1 as fast, below 1
  slower (target for the tile collectives: >= 0.95).
- layer / plain (host backends): the layer's time / plain Kokkos' (below 1: faster;
  target <= 1.5, the histogram <= 1.25 of its fastest plain row).
- spread: CV (stddev / mean of the repetitions) above {limit:g} % of this row or of the row a
  ratio divides by, and which ratio it spoils: that ratio is noise, not a result; re-run
  on a quiet machine or with more --reps.
- targets (host.md, sweep.md): speed targets, "met" or "MISSED". A MISSED target is a row
  slower than its goal, not a failed check.
"""


def parse_name(name):
    """(kernel, variant, backend, type, layout, size) of a case name, or None."""
    parts = name.split("/")
    if len(parts) >= 6 and parts[4] in LAYOUTS:
        return tuple(parts[:6])
    if len(parts) >= 5:
        return tuple(parts[:4]) + ("LayoutRight", parts[4])
    return None


def load_rows(paths):
    datas = [json.loads(Path(p).read_text()) for p in paths]
    data = datas[0]
    rows, order = {}, []
    for b in (b for d in datas for b in d.get("benchmarks", [])):
        key = parse_name(b.get("run_name", b["name"]))
        if key is None:
            continue
        if key not in rows:
            order.append(key)
            rows[key] = {"kernel": key[0], "variant": key[1], "backend": key[2], "type": key[3], "layout": key[4],
                         "size": key[5], "time_ms": None, "gbps": None, "gflops": None, "check": "SKIPPED"}
        r = rows[key]
        if b.get("error_occurred"):
            # the harness marks a case that could not run as "FAILED: <why>"
            r["check"] = "FAILED" if str(b.get("error_message", "")).startswith("FAILED") else "SKIPPED"
            continue
        agg = b.get("aggregate_name") if b.get("run_type") == "aggregate" else None
        if agg == "cv":  # a fraction of the mean
            r["cv"] = 100.0 * b["real_time"]
            continue
        if agg in ("mean", "stddev"):  # Google Benchmark before 1.6 has no cv aggregate
            r["_" + agg] = b["real_time"]
            continue
        if agg is not None and agg != "median":
            continue
        unit = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        t = b["real_time"] * unit
        r["time_ms"] = t
        r["check"] = b.get("label", "") or "SKIPPED"
        bytes_, flops = b.get("bytes", 0.0), b.get("flops", 0.0)
        r["gbps"] = bytes_ / (t * 1e6) if t > 0 else None
        r["gflops"] = flops / (t * 1e6) if t > 0 and flops > 0 else None
    for r in rows.values():
        if r.get("cv") is None and r.get("_mean") and r.get("_stddev") is not None:
            r["cv"] = 100.0 * r["_stddev"] / r["_mean"]
        r.setdefault("cv", None)
    return data.get("context", {}), [rows[k] for k in order]


def derive(rows, cv_limit=CV_LIMIT):
    copy_rows = [r for r in rows if r["kernel"] == "copy" and r["gbps"]]
    copy_best = max(copy_rows, key=lambda r: r["gbps"]) if copy_rows else None
    copy_gbps = copy_best["gbps"] if copy_best else None
    # A sweep (scratchkit-bench --sweep) has copies of many sizes: each row's
    # ceiling is then the copy whose bytes are nearest to its own (log scale),
    # so that small sizes are held to what a copy of their size reaches.
    by_size = {}
    for r in rows:
        if r["kernel"] == "copy" and r["gbps"] and r["time_ms"]:
            b, g = r["gbps"] * r["time_ms"] * 1e6, r["gbps"]
            if r["size"] not in by_size or g > by_size[r["size"]][1]:
                by_size[r["size"]] = (b, g, r)  # the fastest copy of each size
    copies = list(by_size.values())

    def copy_ceiling(r):
        """The copy row r is held to."""
        if len(copies) < 2 or not r["time_ms"]:
            return copy_best
        b = r["gbps"] * r["time_ms"] * 1e6
        return min(copies, key=lambda c: abs(math.log(c[0] / b)))[2]
    gemm_ceiling = {}
    for r in rows:
        if r["kernel"] == "gemm" and r["backend"] == "vendor" and r["gflops"]:
            gemm_ceiling[(r["type"], r["size"])] = r
    by_key = {(r["kernel"], r["variant"], r["backend"], r["type"], r["layout"], r["size"]): r for r in rows
              if r["time_ms"]}
    for r in rows:
        bases = []  # (what the baseline is, its row, the ratio it divides)
        pct = None
        if r["kernel"] == "copy":
            pct = 100.0 if r["gbps"] else None
        elif r["kernel"] == "gemm":
            ceil = gemm_ceiling.get((r["type"], r["size"]))
            pct = 100.0 * r["gflops"] / ceil["gflops"] if ceil and r["gflops"] else None
            if pct is not None and ceil is not r:
                bases.append(("vendor GEMM", ceil, "% of ceiling"))
        elif copy_gbps and r["gbps"]:
            ceil = copy_ceiling(r)
            pct = 100.0 * r["gbps"] / ceil["gbps"]
            bases.append(("copy", ceil, "% of ceiling"))
        r["pct_of_ceiling"] = pct
        ratio = None
        if r["backend"] in ("layer", "native"):
            other = "native" if r["backend"] == "layer" else "layer"
            lt = by_key.get((r["kernel"], r["variant"], "layer", r["type"], r["layout"], r["size"]))
            nt = by_key.get((r["kernel"], r["variant"], "native", r["type"], r["layout"], r["size"]))
            if lt and nt:
                ratio = nt["time_ms"] / lt["time_ms"]
                bases.append((other, nt if other == "native" else lt, "layer/native"))
        r["ratio_layer_over_native"] = ratio
        rr = by_key.get((r["kernel"], r["variant"], r["backend"], r["type"], "LayoutRight", r["size"]))
        r["ratio_layout_over_right"] = (r["time_ms"] / rr["time_ms"] if rr and r["time_ms"]
                                        and r["layout"] != "LayoutRight" else None)
        if r["ratio_layout_over_right"] is not None:
            bases.append(("LayoutRight", rr, "time / LayoutRight"))
        vr = by_key.get((r["kernel"], r["variant"], "vendor", r["type"], r["layout"], r["size"]))
        r["ratio_over_vendor"] = (vr["time_ms"] / r["time_ms"] if vr and r["time_ms"] and r["backend"] != "vendor"
                                  else None)
        if r["ratio_over_vendor"] is not None:
            bases.append(("vendor", vr, "vendor time / time"))
        pr = plain_row(rows, r)
        r["ratio_layer_over_plain"] = (r["time_ms"] / pr["time_ms"] if pr and r["time_ms"] and r["backend"] == "layer"
                                       else None)
        if r["ratio_layer_over_plain"] is not None:
            bases.append(("plain", pr, "layer / plain"))
        r["spread"] = spread_note(r, bases, cv_limit)
    return rows


def spread_note(r, bases, limit):
    """Which of the row's numbers its own spread or a baseline's spoils: "" where none is above limit %."""
    notes = []
    if r.get("cv") is not None and r["cv"] > limit and r["time_ms"]:
        notes.append(f"own CV {r['cv']:.0f}%")
    seen = set()
    for what, b, ratio in bases:
        if b is not r and b.get("cv") is not None and b["cv"] > limit and (what, ratio) not in seen:
            seen.add((what, ratio))
            notes.append(f"{what} CV {b['cv']:.0f}% (spoils {ratio})")
    return "; ".join(notes)


def plain_row(rows, r):
    """The plain Kokkos yardstick for row r's kernel, type, layout and size: the fastest "plain-kokkos"
    row, else the "kokkos-builtin" row of the same variant (tile collectives), else of any variant
    (parallel_reduce); None without one."""
    same = [x for x in rows if x["kernel"] == r["kernel"] and x["type"] == r["type"] and x["layout"] == r["layout"]
            and x["size"] == r["size"] and x["time_ms"]]
    for pick in (lambda x: x["backend"] == "plain-kokkos",
                 lambda x: x["backend"] == "kokkos-builtin" and x["variant"] == r["variant"],
                 lambda x: x["backend"] == "kokkos-builtin" and not x["variant"].startswith("raw_kokkos")):
        got = [x for x in same if pick(x)]
        if got:
            return min(got, key=lambda x: x["time_ms"])
    return None


def plain_time(rows, r):
    p = plain_row(rows, r)
    return p["time_ms"] if p else None


# Bandwidth-bound kernels, by name prefix (every stencil: stencil_1d_r3, stencil_2d_*, stencil_3d_7pt).
BANDWIDTH_KERNELS = ("reduce_sum", "stencil_", "transpose")


def host_table(rows, tally):
    """Per kernel, type, layout and size with a plain Kokkos row: the fastest layer variant against it
    and against the copy and the host BLAS (issue-38 and issue-49 targets); each target met or MISSED
    is counted in tally ("met", "MISSED")."""
    lines = ["| kernel | type | layout | size | best layer variant | layer ms | plain Kokkos | plain ms "
             "| layer / plain | layer % copy | plain % copy | targets | host BLAS ms | layer % BLAS |",
             "|---|---|---|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|"]
    groups = {}
    for r in rows:
        if r["backend"] == "layer" and r["time_ms"]:
            groups.setdefault((r["kernel"], r["type"], r["layout"], r["size"]), []).append(r)
    for (kernel, typ, layout, size), sel in groups.items():
        best = min(sel, key=lambda r: r["time_ms"])
        if kernel in ("tile_scan",):  # scan kinds are separate variants: one line per kind
            kinds = {}
            for r in sel:
                kinds.setdefault(r["variant"], []).append(r)
            bests = [min(v, key=lambda r: r["time_ms"]) for v in kinds.values()]
        else:
            bests = [best]
        for b in bests:
            pt = plain_time(rows, b)
            if pt is None:
                continue
            prow = [x for x in rows if x["kernel"] == kernel and x["type"] == typ and x["layout"] == layout
                    and x["size"] == size and x["backend"] in ("plain-kokkos", "kokkos-builtin") and x["time_ms"] == pt]
            p = prow[0] if prow else None
            ratio = b["time_ms"] / pt
            # issue 49: within 1.5x of plain Kokkos (histogram: >= 0.8x its fastest plain row, ScatterView)
            limit = 1.25 if kernel == "histogram" else 1.5
            ok = [f"{limit}x " + tick(tally, ratio <= limit)]
            vrow = [x for x in rows if x["kernel"] == kernel and x["type"] == typ and x["layout"] == layout
                    and x["size"] == size and x["backend"] == "vendor" and x["time_ms"]]
            vt = min(x["time_ms"] for x in vrow) if vrow else None
            if kernel.startswith(BANDWIDTH_KERNELS) and b["pct_of_ceiling"] is not None:
                ok.append("40% " + tick(tally, b["pct_of_ceiling"] >= 40.0))
            noisy = [b["spread"]] if b.get("spread") else []
            if p and p.get("cv") is not None and p["cv"] > tally["cv_limit"] and "plain CV" not in b.get("spread", ""):
                noisy.append(f"plain CV {p['cv']:.0f}%")
            if noisy:
                ok.append("spread: " + "; ".join(noisy))
            lines.append(f"| {kernel} | {typ} | {layout} | {size} | {b['variant']} | {fmt(b['time_ms'], 4)} | "
                         f"{p['variant'] if p else ''} | {fmt(pt, 4)} | {fmt(ratio, 2)} | "
                         f"{fmt(b['pct_of_ceiling'], 1)} | {fmt(p['pct_of_ceiling'] if p else None, 1)} | "
                         f"{', '.join(ok)} | {fmt(vt, 4)} | {fmt(100.0 * vt / b['time_ms'] if vt else None, 1)} |")
    return "\n".join(lines) + "\n"


def tick(tally, ok):
    """ "met" or "MISSED", counted in tally."""
    word = "met" if ok else "MISSED"
    tally[word] += 1
    return word


def fmt(v, digits):
    return "" if v is None else f"{v:.{digits}f}"


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([r["kernel"], r["variant"], r["backend"], r["type"], r["layout"], r["size"],
                        fmt(r["time_ms"], 6), fmt(r["gbps"], 3), fmt(r["gflops"], 3), fmt(r["pct_of_ceiling"], 2),
                        fmt(r["ratio_layer_over_native"], 4), fmt(r["ratio_layout_over_right"], 4),
                        fmt(r["ratio_over_vendor"], 4), fmt(r["ratio_layer_over_plain"], 4), r["check"],
                        fmt(r.get("cv"), 2), r.get("spread", "")])


def markdown(context, rows, verdict, cv_limit):
    lines = []
    for k in ("scratchkit", "device", "sizes", "repetitions", "date", "host_name"):
        if k in context:
            lines.append(f"- {k}: {context[k]}")
    lines.append("")
    lines.append("| kernel | variant | backend | type | layout | size | time (ms) | GB/s | GFLOP/s | % of ceiling "
                 "| layer/native | time / LayoutRight | vendor time / time | layer / plain | check | spread |")
    lines.append("|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        lines.append(f"| {r['kernel']} | {r['variant']} | {r['backend']} | {r['type']} | {r['layout']} | {r['size']} | "
                     f"{fmt(r['time_ms'], 4)} | {fmt(r['gbps'], 1)} | {fmt(r['gflops'], 1)} | "
                     f"{fmt(r['pct_of_ceiling'], 1)} | {fmt(r['ratio_layer_over_native'], 3)} | "
                     f"{fmt(r['ratio_layout_over_right'], 3)} | {fmt(r['ratio_over_vendor'], 3)} | "
                     f"{fmt(r['ratio_layer_over_plain'], 2)} | {r['check']} | {r.get('spread', '')} |")
    lines.append("")
    lines.append(LEGEND.format(limit=cv_limit))
    lines.append(verdict)
    return "\n".join(lines) + "\n"


def verdict_line(rows, tally, cv_limit):
    """One line: the checks (correctness), the speed targets met and MISSED, the rows flagged for spread."""
    count = {k: sum(1 for r in rows if r["check"] == k) for k in ("PASSED", "FAILED", "SKIPPED")}
    other = len(rows) - sum(count.values())
    checks = (f"checks (correctness): {count['PASSED']} PASSED, {count['FAILED'] + other} FAILED, "
              f"{count['SKIPPED']} SKIPPED")
    where = [w for w in ("host.md", "sweep.md") if tally["files"].get(w)]
    if tally["met"] + tally["MISSED"]:
        targets = (f"speed targets: {tally['met']} met, {tally['MISSED']} MISSED"
                   f" ({', '.join(where)})")
    else:
        targets = "speed targets: none evaluated (host.md needs plain Kokkos rows, sweep.md a --sweep run)"
    noisy = sum(1 for r in rows if r.get("spread"))
    spread = (f"{noisy} rows with a CV above {cv_limit:g} % in their spread column (their ratios are noise)"
              if noisy else f"no CV above {cv_limit:g} %")
    return f"{len(rows)} rows; {checks}; {targets}; {spread}"


def pyplot():
    """matplotlib.pyplot on the Agg backend, or None (with a note) where matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("report.py: matplotlib not found, no plots (apt install python3-matplotlib)", file=sys.stderr)
        return None
    return plt


def plots(rows, out):
    has_copy = any(r["kernel"] == "copy" and r["gbps"] for r in rows)
    kernels = []
    for kernel in sorted({r["kernel"] for r in rows if r["kernel"] != "copy"}):
        if any(r["kernel"] == kernel and r["pct_of_ceiling"] is not None for r in rows):
            kernels.append(kernel)
            continue
        why = ("no vendor GEMM row (cuBLAS: CUDA builds with a GPU) to hold it to" if kernel == "gemm" else
               "no copy row in the run (scratchkit-bench --only without copy/: add ',copy/')"
               if not has_copy else "no row with a measured time")
        print(f"report.py: no pct_of_ceiling_{kernel}.png: no % of ceiling, {why}", file=sys.stderr)
    if not kernels:
        return []
    plt = pyplot()
    if plt is None:
        return []
    written = []
    for kernel in kernels:
        sel = [r for r in rows if r["kernel"] == kernel and r["pct_of_ceiling"] is not None]
        labels = [f"{r['variant']}\n{r['backend']} {r['type']} {r['layout'].replace('Layout', '')} {r['size']}"
                  for r in sel]
        colors = {"layer": "tab:blue", "native": "tab:orange", "vendor": "tab:green",
                  "kokkos-builtin": "tab:purple", "ceiling": "tab:gray"}
        fig, ax = plt.subplots(figsize=(max(6, 0.55 * len(sel) + 2), 4.5))
        ax.bar(range(len(sel)), [r["pct_of_ceiling"] for r in sel],
               color=[colors.get(r["backend"], "tab:gray") for r in sel])
        ax.set_xticks(range(len(sel)))
        ax.set_xticklabels(labels, rotation=70, ha="right", fontsize=7)
        ax.axhline(100, color="k", lw=0.8, ls="--")
        ax.set_ylabel("% of ceiling")
        ax.set_title(f"{kernel}: % of ceiling (blue layer, orange native, green vendor)")
        fig.tight_layout()
        path = Path(out) / f"pct_of_ceiling_{kernel}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def is_sweep(rows):
    """True when some kernel row appears at three sizes or more (scratchkit-bench --sweep;
    the --full comparison has two GEMM sizes)."""
    sizes = {}
    for r in rows:
        if r["kernel"] != "copy":
            sizes.setdefault((r["kernel"], r["variant"], r["backend"], r["type"], r["layout"]), set()).add(r["size"])
    return any(len(v) > 2 for v in sizes.values())


def row_bytes(r):
    return r["gbps"] * r["time_ms"] * 1e6 if r["gbps"] and r["time_ms"] else None


def sweep_table(rows, tally):
    """Per kernel, type, layout and size: the fastest layer variant against the
    vendor row of the same size (CUB, cuBLAS) where there is one, else against
    the copy nearest in bytes (pct_of_ceiling); the issue-24 target is 0.9
    (counted in tally)."""
    groups = {}
    for r in rows:
        if r["kernel"] != "copy" and r["time_ms"]:
            groups.setdefault((r["kernel"], r["type"], r["layout"], r["size"]), []).append(r)
    lines = ["| kernel | type | layout | size | bytes | best layer variant | layer time (ms) | vendor time (ms) "
             "| best layer / vendor or copy | native best / vendor or copy | target 0.9 |",
             "|---|---|---|---|---:|---|---:|---:|---:|---:|---|"]
    for (kernel, typ, layout, size), sel in groups.items():
        layer = [r for r in sel if r["backend"] == "layer"]
        native = [r for r in sel if r["backend"] == "native"]
        vendor = [r for r in sel if r["backend"] == "vendor"]
        if not layer:
            continue
        best = min(layer, key=lambda r: r["time_ms"])
        nbest = min(native, key=lambda r: r["time_ms"]) if native else None
        if vendor:
            v = min(vendor, key=lambda r: r["time_ms"])
            ratio, vt = v["time_ms"] / best["time_ms"], v["time_ms"]
            nratio = v["time_ms"] / nbest["time_ms"] if nbest else None
        else:
            vt = None
            ratio = best["pct_of_ceiling"] / 100.0 if best["pct_of_ceiling"] is not None else None
            nratio = nbest["pct_of_ceiling"] / 100.0 if nbest and nbest["pct_of_ceiling"] is not None else None
        b = row_bytes(best)
        ok = "" if ratio is None else tick(tally, ratio >= 0.9)
        lines.append(f"| {kernel} | {typ} | {layout} | {size} | {fmt(b, 0)} | {best['variant']} | "
                     f"{fmt(best['time_ms'], 4)} | {fmt(vt, 4)} | {fmt(ratio, 3)} | {fmt(nratio, 3)} | {ok} |")
    return "\n".join(lines) + "\n"


def sweep_plots(rows, out):
    """Throughput against bytes moved (GFLOP/s against n for GEMM), one line per
    variant, backend, type and layout: sweep_<kernel>.png."""
    plt = pyplot()
    if plt is None:
        return []
    written = []
    copy = sorted(((row_bytes(r), r["gbps"]) for r in rows if r["kernel"] == "copy" and row_bytes(r)))
    for kernel in sorted({r["kernel"] for r in rows if r["kernel"] != "copy"}):
        gemm = kernel == "gemm"
        lines = {}
        for r in rows:
            if r["kernel"] != kernel or not r["time_ms"]:
                continue
            x = row_bytes(r) if not gemm else (r["gflops"] * r["time_ms"] * 1e6 / 2) ** (1 / 3) if r["gflops"] else None
            y = r["gflops"] if gemm else r["gbps"]
            if x and y:
                lines.setdefault((r["variant"], r["backend"], r["type"], r["layout"]), []).append((x, y))
        if not lines:
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        styles = {"layer": "-", "native": "--", "vendor": ":", "kokkos-builtin": "-."}
        for (variant, backend, typ, layout), pts in sorted(lines.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], styles.get(backend, "-"), marker=".",
                    label=f"{variant} {backend} {typ} {layout.replace('Layout', '')}")
        if copy and not gemm:
            ax.plot([c[0] for c in copy], [c[1] for c in copy], "k-", lw=2, label="copy (same bytes)")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("n (C is n x n x n)" if gemm else "bytes moved")
        ax.set_ylabel("GFLOP/s" if gemm else "GB/s")
        ax.set_title(f"{kernel}: throughput against size")
        ax.legend(fontsize=6, ncol=2)
        fig.tight_layout()
        path = Path(out) / f"sweep_{kernel}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(prog="report.py", description=__doc__ + "\n\n" + LEGEND.format(limit=CV_LIMIT),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", metavar="BENCH_JSON",
                    help="scratchkit-bench's --benchmark_out JSON (several: one run split with --only, merged in order)")
    ap.add_argument("--out", default=".", metavar="DIR",
                    help="where summary.csv, summary.md (host.md, sweep.md, plots) go (default: .)")
    ap.add_argument("--plots", action="store_true",
                    help="also write pct_of_ceiling_<kernel>.png (sweep_<kernel>.png for a sweep) with matplotlib; "
                         "a kernel without a %% of ceiling (no copy row in the run) gets none, and the reason is printed")
    ap.add_argument("--require-pass", action="store_true",
                    help="exit 1 unless there is a row and every row's check is PASSED or SKIPPED (correctness only: "
                         "MISSED speed targets do not fail it)")
    ap.add_argument("--cv-limit", type=float, default=CV_LIMIT, metavar="PCT",
                    help="flag a row in its spread column when its CV or the CV of a row it is divided by is above "
                         "PCT %% (default: %(default)g)")
    a = ap.parse_args()
    context, rows = load_rows(a.json)
    rows = derive(rows, a.cv_limit)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    write_csv(rows, out / "summary.csv")
    tally = {"met": 0, "MISSED": 0, "cv_limit": a.cv_limit, "files": {}}
    extra = []
    if any(r["backend"] == "plain-kokkos" for r in rows):
        before = tally["met"] + tally["MISSED"]
        extra.append(("host.md", host_table(rows, tally)))
        tally["files"]["host.md"] = tally["met"] + tally["MISSED"] - before
    if is_sweep(rows):
        before = tally["met"] + tally["MISSED"]
        extra.append(("sweep.md", sweep_table(rows, tally)))
        tally["files"]["sweep.md"] = tally["met"] + tally["MISSED"] - before
    verdict = verdict_line(rows, tally, a.cv_limit)
    md = markdown(context, rows, verdict, a.cv_limit)
    (out / "summary.md").write_text(md)
    print(md)
    for name, text in extra:
        text += "\ntargets: speed goals, met or MISSED (see summary.md, How to read it); not the correctness check.\n"
        (out / name).write_text(text)
        print(text)
    if a.plots:
        written = plots(rows, out) + (sweep_plots(rows, out) if is_sweep(rows) else [])
        for p in written:
            print(f"plot: {p}")
        if not written:
            print("report.py: --plots wrote no plot (reasons above)", file=sys.stderr)
    bad = [r for r in rows if r["check"] not in ("PASSED", "SKIPPED")]
    if bad:
        print(f"report.py: {len(bad)} rows not PASSED: "
              + ", ".join("/".join([r['kernel'], r['variant'], r['backend'], r['type'], r['layout']])
                          for r in bad[:10]))
    # The last line: what a script may quote (scripts/quickstart.sh does).
    print(f"report.py: {verdict}")
    if a.require_pass and (not rows or bad):
        sys.exit(1)


if __name__ == "__main__":
    main()
