#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every relative link of the user's pages resolves: README.md, CONTRIBUTING.md (if any) and
docs/*.md, links [text](target) and reference definitions [label]: target, outside code blocks
and code spans. A target is a path from the page's folder (an #anchor after it is not checked);
web addresses and in-page anchors are left alone. So does every repository path named in a code
span outside code blocks (`tests/results/h100/`, `perf/report.py`): a span that is one word
starting with a top folder of the repository, without placeholders (<...>, *, {...}).

  check_links.py [REPO_ROOT]     exit 1 and one line per dangling link if any
"""
import re
import sys
from pathlib import Path

INLINE = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
TOP = ("tests", "perf", "docs", "scripts", "include", "src", "cmake", "examples", "reference", "spack", ".ci")
SPAN = re.compile(r"`([^`\s]+)`")


def pages(root):
    for name in ("README.md", "CONTRIBUTING.md"):
        if (root / name).is_file():
            yield root / name
    yield from sorted((root / "docs").glob("*.md"))


def links(text):
    """(line number, target, from_root) of every link outside fenced code and code spans, and of
    every repository path in a code span (from_root: relative to the repository, not the page)."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if re.match(r"^\s*(```|~~~)", line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in SPAN.finditer(line):
            w = m.group(1).rstrip(".,;:")
            if w.split("/", 1)[0] in TOP and "/" in w and not re.search(r"[<>*{}$]|\.\.\.", w):
                yield n, w.split(":", 1)[0], True  # path:line
        bare = re.sub(r"`[^`]*`", "", line)
        for m in INLINE.finditer(bare):
            yield n, m.group(1), False
        m = REFDEF.match(bare)
        if m:
            yield n, m.group(1), False


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    bad, checked = [], 0
    for page in pages(root):
        for n, target, from_root in links(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue  # https:, mailto:, an anchor of this page
            path = target.split("#", 1)[0].split("?", 1)[0]
            base = root if from_root else page.parent
            checked += 1
            if not (base / path).exists():
                bad.append(f"{page.relative_to(root)}:{n}: {target}")
    for b in bad:
        print(b)
    print(f"check_links: {checked} relative links and repository paths, {len(bad)} dangling")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
