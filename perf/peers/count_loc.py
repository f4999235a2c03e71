#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Counts the lines of code a reader must read in given pieces of source.

usage: count_loc.py [--label NAME] [--show] SPEC [SPEC ...] [-- [--label NAME] SPEC ...]

A SPEC is one of
  FILE:FIRST-LAST      lines FIRST..LAST (1-based, inclusive)
  FILE:define:NAME     the `#define NAME` macro with its continuation lines
  FILE:func:NAME       the function NAME: from its signature (with the
                       `template <...>` / `__launch_bounds__` lines just above
                       it) to the brace that closes its body. The first
                       definition (a line with `NAME(` that is followed by a
                       `{` before any `;`) is taken.
Groups separated by `--` are counted separately, each with its own total.

Counted: non-blank lines that are not only a comment (`//...` or inside
`/* ... */`); a macro's trailing `\\` is ignored, so a line holding only `\\`
is blank. The same rule as examples/tutorial/count_lines.py, so the suite's
kernels and scratchkit's ports can be counted the same way.
With --show, prints each counted line with its file:line.
"""
import re
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def code_lines(lines, first):
    """(lineno, text) of the lines that count, from lines[] starting at 1-based `first`."""
    out, in_block = [], False
    for i, raw in enumerate(lines):
        s = raw.rstrip()
        if s.endswith("\\"):
            s = s[:-1]
        # strip comments, keeping code around them
        code, j = "", 0
        while j < len(s):
            if in_block:
                k = s.find("*/", j)
                if k < 0:
                    j = len(s)
                else:
                    in_block, j = False, k + 2
            elif s.startswith("/*", j):
                in_block, j = True, j + 2
            elif s.startswith("//", j):
                break
            elif s[j] in "\"'":  # skip string/char literals
                q, k = s[j], j + 1
                while k < len(s) and s[k] != q:
                    k += 2 if s[k] == "\\" else 1
                code += s[j:k + 1]
                j = k + 1
            else:
                code += s[j]
                j += 1
        if code.strip():
            out.append((first + i, raw.rstrip()))
    return out


def resolve(spec):
    """(path, first, last) for a SPEC."""
    m = re.match(r"^(.*):(\d+)-(\d+)$", spec)
    if m:
        return m.group(1), int(m.group(2)), int(m.group(3))
    m = re.match(r"^(.*):(define|func):(\w+)$", spec)
    if not m:
        sys.exit(f"count_loc.py: bad SPEC {spec!r}")
    path, kind, name = m.groups()
    lines = read(path)
    if kind == "define":
        for i, l in enumerate(lines):
            if re.match(r"^\s*#\s*define\s+" + name + r"\b", l):
                j = i
                while lines[j].rstrip().endswith("\\"):
                    j += 1
                return path, i + 1, j + 1
        sys.exit(f"count_loc.py: no #define {name} in {path}")
    for i, l in enumerate(lines):
        if not re.search(r"(^|[\s:*&])" + name + r"\s*\(", l) or re.match(r"^\s*(//|#)", l):
            continue
        # a definition: a '{' comes before any ';'
        text = "\n".join(lines[i:])
        b, sc = text.find("{"), text.find(";")
        if b < 0 or (0 <= sc < b):
            continue
        start = i
        while start > 0 and re.match(r"^\s*(template\s*<|__launch_bounds__|__global__|static|inline)", lines[start - 1]):
            start -= 1
        # walk from the first '{' to its match
        depth, full = 0, "\n".join(lines)
        p = sum(len(x) + 1 for x in lines[:i]) + b
        while p < len(full):
            c = full[p]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    break
            p += 1
        end = full.count("\n", 0, p) + 1
        return path, start + 1, end
    sys.exit(f"count_loc.py: no definition of {name}( in {path}")


def main(argv):
    groups, cur = [], {"label": None, "specs": []}
    show, it = False, iter(argv)
    for a in it:
        if a == "--":
            groups.append(cur)
            cur = {"label": None, "specs": []}
        elif a == "--label":
            cur["label"] = next(it)
        elif a == "--show":
            show = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            cur["specs"].append(a)
    groups.append(cur)
    for g in groups:
        if not g["specs"]:
            continue
        total = 0
        print(f"== {g['label'] or 'group'}")
        for spec in g["specs"]:
            path, a, b = resolve(spec)
            lines = read(path)[a - 1:b]
            counted = code_lines(lines, a)
            total += len(counted)
            print(f"  {len(counted):5d}  {path}:{a}-{b}  ({spec.rsplit(':', 2)[-1] if ':define:' in spec or ':func:' in spec else 'range'})")
            if show:
                for n, t in counted:
                    print(f"         {n:5d}| {t}")
        print(f"  {total:5d}  total {g['label'] or ''}".rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
