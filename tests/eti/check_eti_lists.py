#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The kernel table's ETI lists (cmake/kernels.txt: what the library instantiates) against the
extern declarations at the end of each include/scratchkit/detail/<kernel>/layer.hpp (what callers
then leave to the library): every (macro, element type) in one must be in the other, or a caller
links against an instantiation the library lacks, or compiles one it has.

  check_eti_lists.py SOURCE_DIR [TABLE]      TABLE defaults to SOURCE_DIR/cmake/kernels.txt
"""
import pathlib
import re
import sys


def table_entries(path):
    """{kernel: {macro: set of types}} from the table's eti column."""
    out = {}
    for line in path.read_text().splitlines():
        if re.match(r"^\s*(#|$)", line):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 5:
            sys.exit(f"{path}: a row has 5 fields, not {len(fields)}: {line}")
        kernel, eti = fields[0], fields[1]
        out[kernel] = {}
        for entry in ([] if eti == "-" else eti.split()):
            macro, _, types = entry.partition(":")
            out[kernel][macro] = set(types.split(","))
    return out


def macros(text):
    """{name: (params, body)} of the #defines in text, continuation lines joined."""
    text = re.sub(r"\\\n", " ", text)
    found = {}
    for m in re.finditer(r"^#define\s+(\w+)\(([^)]*)\)(.*)$", text, re.M):
        found[m.group(1)] = ([p.strip() for p in m.group(2).split(",")], m.group(3))
    return found


def leaves(name, defs, seen=()):
    """The instantiation macros (those that write `template`) that `name` expands to."""
    if name in seen or name not in defs:
        return set()
    body = defs[name][1]
    if re.search(r"\btemplate\b", body):
        return {name}
    called = [c for c in re.findall(r"\b(SCRATCHKIT_ETI_\w+)\s*\(", body) if c in defs and c != name]
    if not called:
        return set()
    return set().union(*(leaves(c, defs, seen + (name,)) for c in called))


def extern_entries(layer):
    """{macro: set of types} declared extern by the layer (its SCRATCHKIT_ETI_LAYOUTS lines)."""
    text = layer.read_text()
    defs = macros(text)
    out = {}
    joined = re.sub(r"\\\n", " ", text)
    for m in re.finditer(r"SCRATCHKIT_ETI_LAYOUTS\(\s*(\w+)\s*,\s*E\s*,\s*([\w:]+)\s*\)", joined):
        for leaf in leaves(m.group(1), defs):
            out.setdefault(leaf, set()).add(m.group(2))
    return out


def main():
    src = pathlib.Path(sys.argv[1])
    table = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else src / "cmake" / "kernels.txt"
    problems = []
    rows = table_entries(table)
    for kernel, want in rows.items():
        layer = src / "include" / "scratchkit" / "detail" / kernel / "layer.hpp"
        if not layer.exists():
            problems.append(f"{kernel}: no {layer.relative_to(src)}")
            continue
        have = extern_entries(layer)
        for macro in sorted(set(want) | set(have)):
            w, h = want.get(macro, set()), have.get(macro, set())
            if w != h:
                problems.append(f"{kernel}: {macro}: the table instantiates {sorted(w) or 'nothing'}, "
                                f"{layer.relative_to(src)} declares extern {sorted(h) or 'nothing'}")
    # A layer with extern declarations that no table row lists.
    for layer in sorted((src / "include" / "scratchkit" / "detail").glob("*/layer.hpp")):
        if layer.parent.name not in rows and extern_entries(layer):
            problems.append(f"{layer.relative_to(src)} declares extern instantiations but "
                            f"{table.name} has no row {layer.parent.name}")
    n = sum(len(v) for v in rows.values())
    if problems:
        print("\n".join(problems))
        print(f"eti lists: {len(problems)} disagreement(s)")
        return 1
    print(f"eti lists: {len(rows)} kernels, {n} instantiation macros: the table and the extern lists agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
