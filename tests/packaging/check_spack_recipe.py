#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks that the spack recipe, spack.yaml and the README agree with the
CMake options (read from a configured build's CMakeCache.txt).

  check_spack_recipe.py SOURCE_DIR CMAKE_CACHE

The recipe is parsed with Python's ast (no spack needed): every
SCRATCHKIT_* name it defines must be a CMake cache option, every
SCRATCHKIT_ENABLE_* option must be set by the recipe, every variant the
issue names must exist, the repo must have the spack 1.x layout."""
import ast
import re
import sys
from pathlib import Path


def fail(msg):
    print(f"FAILED: {msg}")
    sys.exit(1)


def main():
    src, cache = Path(sys.argv[1]), Path(sys.argv[2])
    repo = src / "spack" / "spack_repo" / "scratchkit"
    recipe = repo / "packages" / "scratchkit" / "package.py"
    for p in (repo / "repo.yaml", recipe, src / "spack.yaml"):
        if not p.is_file():
            fail(f"missing {p.relative_to(src)}")
    repo_yaml = (repo / "repo.yaml").read_text()
    if not re.search(r"^\s+namespace:\s*scratchkit\s*$", repo_yaml, re.M) or not re.search(
        r"^\s+api:\s*v2\.\d+\s*$", repo_yaml, re.M
    ):
        fail("repo.yaml needs 'namespace: scratchkit' and 'api: v2.x'")

    tree = ast.parse(recipe.read_text(), filename=str(recipe))
    cls = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Scratchkit"), None)
    if cls is None:
        fail("no class Scratchkit in the recipe")
    bases = {b.id for b in cls.bases if isinstance(b, ast.Name)}
    if not {"CMakePackage", "CudaPackage"} <= bases:
        fail(f"Scratchkit must derive from CMakePackage and CudaPackage, has {sorted(bases)}")

    variants, defined, depends = set(), {}, []
    for node in ast.walk(cls):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        if fn == "variant" and args:
            variants.add(args[0])
        elif fn == "define_from_variant" and len(args) == 2:
            defined[args[0]] = args[1]
        elif fn == "define" and args and isinstance(args[0], str):
            defined[args[0]] = None
        elif fn == "depends_on" and args:
            depends.append(args[0])
    variants |= {"cuda", "cuda_arch"}  # from CudaPackage

    cache_opts = {}
    for line in cache.read_text().splitlines():
        m = re.match(r"^(SCRATCHKIT_[A-Z_]+):BOOL=(.*)$", line)
        if m:
            cache_opts[m.group(1)] = m.group(2)
    if not cache_opts:
        fail(f"no SCRATCHKIT_* options in {cache}")

    errors = []
    for name in defined:
        if name.startswith("SCRATCHKIT_") and name not in cache_opts:
            errors.append(f"recipe sets {name}, which is not a CMake option")
    for name in cache_opts:
        if name.startswith("SCRATCHKIT_ENABLE_") and name not in defined:
            errors.append(f"CMake option {name} is not set by the recipe")
    for name, var in defined.items():
        if var is not None and var not in variants:
            errors.append(f"{name} comes from variant '{var}', which the recipe does not declare")
    for v in ("cuda", "mpi", "benchmarks", "tests"):
        if v not in variants:
            errors.append(f"variant '{v}' missing")
    if "cxx" not in depends:
        errors.append('missing depends_on("cxx", type="build")')
    if not any(d.startswith("kokkos") for d in depends):
        errors.append("no Kokkos dependency")

    spack_yaml = (src / "spack.yaml").read_text()
    for needle in ("unify: true", "view: true", "cuda_arch=90", "catch2", "benchmark", "spack_repo/scratchkit"):
        if needle not in spack_yaml:
            errors.append(f"spack.yaml lacks '{needle}'")
    readme = (src / "README.md").read_text()
    for needle in ("spack repo add", "spack install scratchkit +cuda cuda_arch=90"):
        if needle not in readme:
            errors.append(f"README lacks '{needle}'")
    for name in cache_opts:
        if name.startswith("SCRATCHKIT_ENABLE_") and name not in readme:
            errors.append(f"README does not document {name}")

    if errors:
        fail("\n  ".join(errors))
    print(f"OK: {len(defined)} CMake definitions, variants {sorted(variants)}, "
          f"{len(cache_opts)} SCRATCHKIT options agree")


if __name__ == "__main__":
    main()
