#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Counts the lines of each tutorial kernel on the layer and of its CUDA twin.

The counted region of a file lies between its `// [count-begin]` and
`// [count-end]` lines: the kernel and its launch, with the same scope in both
files (the layer's host function with its lambda and LaunchParams; the CUDA
__global__ kernel and the host function that launches it). Counted: non-blank
lines that are not only a comment. Prints one row per kernel and exits 1 if a
layer kernel takes more than --max-ratio (1.2) times its twin's lines.

With --doc FILE it also checks that each counted region appears verbatim
in FILE (docs/tutorial.md), so that the tutorial shows the code that runs.

With --kernels NAME... it counts those kernels of DIR instead of the
tutorial's (examples/rajaperf uses it for its ports).

usage: count_lines.py [DIR] [--max-ratio R] [--markdown] [--doc FILE] [--kernels NAME...]
"""
import argparse
import os
import sys

KERNELS = [("sgemm", "16x16 tiled SGEMM"), ("stencil2d", "2-D 5-point stencil, halo tile"),
           ("scan", "256-wide block scan (Hillis-Steele)")]


def region(path):
    """The counted region's lines, as written."""
    out, inside = [], False
    with open(path, encoding="utf-8") as f:
        for raw in f:
            s = raw.strip()
            if s in ("// [count-begin]", "// [count-end]"):
                inside = s == "// [count-begin]"
                continue
            if inside:
                out.append(raw.rstrip())
    return "\n".join(out).strip("\n")


def count(path):
    lines, inside, found = 0, False, False
    with open(path, encoding="utf-8") as f:
        for raw in f:
            s = raw.strip()
            if s == "// [count-begin]":
                inside, found = True, True
                continue
            if s == "// [count-end]":
                inside = False
                continue
            if inside and s and not s.startswith("//"):
                lines += 1
    if not found:
        sys.exit(f"count_lines.py: no // [count-begin] marker in {path}")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--max-ratio", type=float, default=1.2)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--doc")
    ap.add_argument("--kernels", nargs="+")
    a = ap.parse_args()
    kernels = [(k, k) for k in a.kernels] if a.kernels else KERNELS
    worst = 0.0
    stale = []
    if a.doc:
        with open(a.doc, encoding="utf-8") as f:
            doc = f.read()
        for name, _ in kernels:
            for ext in (".cpp", ".cu"):
                if region(os.path.join(a.dir, name + ext)) not in doc:
                    stale.append(name + ext)
        for s in stale:
            print(f"{a.doc} does not show the kernel of {s} as it is in the file")
    if a.markdown:
        print("| kernel | layer (`.cpp`) | CUDA (`.cu`) | ratio |\n|---|---|---|---|")
    for name, what in kernels:
        layer, cuda = count(os.path.join(a.dir, name + ".cpp")), count(os.path.join(a.dir, name + ".cu"))
        ratio = layer / cuda
        worst = max(worst, ratio)
        if a.markdown:
            print(f"| {what} | {layer} | {cuda} | {ratio:.2f} |")
        else:
            print(f"{name:14s} layer {layer:3d} lines, CUDA {cuda:3d} lines, ratio {ratio:.2f}  ({what})")
    within = worst <= a.max_ratio
    if not a.markdown:
        print(f"largest ratio {worst:.2f}: {'within' if within else 'OVER'} the target of {a.max_ratio}")
    return 0 if within and not stale else 1


if __name__ == "__main__":
    sys.exit(main())
