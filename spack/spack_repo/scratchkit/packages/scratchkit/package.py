# SPDX-License-Identifier: BSD-3-Clause
"""Spack recipe for scratchkit (spack 1.x package API v2)."""

import os
import re

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Scratchkit(CMakePackage, CudaPackage):
    """Performance-portable GPU shared memory: CUDA SharedArray /
    DynamicSharedArray / sync_threads semantics on Kokkos team scratch, with
    classic shared-memory kernels written on the layer and in native CUDA,
    cross-checked, and a harness that compares them with cuBLAS, CUB and the
    hardware limits."""

    # The repository is not published yet: the address below is where it is to
    # be published. Until then (or for a site's own mirror) point spack at a
    # clone in packages.yaml,
    #   packages: {scratchkit: {package_attributes: {git: "file:///path/to/scratchkit"}}}
    # or build a checkout with `spack develop -p <checkout> scratchkit@main`.
    homepage = "https://github.com/scratchkit/scratchkit"
    git = "https://github.com/scratchkit/scratchkit.git"

    license("BSD-3-Clause")

    version("main", branch="main")

    # --- variants (each maps to one CMake option) ----------------------------
    # `cuda` comes from CudaPackage. `cuda_arch` is redeclared single-valued, as
    # Kokkos' recipe does: Kokkos is built for one architecture, so scratchkit
    # takes exactly one as well.
    variant(
        "cuda_arch",
        description="CUDA architecture (exactly one, the one Kokkos is built for)",
        values=("none",) + CudaPackage.cuda_arch_values,
        default="none",
        multi=False,
        sticky=True,
        when="+cuda",
    )
    conflicts("cuda_arch=none", when="+cuda", msg="scratchkit +cuda needs a cuda_arch (e.g. cuda_arch=90)")

    variant("shared", default=True, description="Build a shared library (BUILD_SHARED_LIBS)")
    variant("mpi", default=False, description="MPI mode of the perf harness (one rank per GPU)")
    variant("benchmarks", default=False, description="Build the comparison / benchmark programs (perf/)")
    variant("tests", default=False, description="Build the Catch2 test suite")
    variant("bounds_check", default=False, description="Check every scratch access at run time")
    variant(
        "scratch_check",
        default=False,
        description="Compile in the host scratch checker (races, uninitialised reads, bank conflicts; "
        "SCRATCHKIT_ENABLE_SCRATCH_CHECK), switched on per launch",
    )
    variant(
        "eti",
        default=True,
        description="Compile the public kernels into the library for Kokkos' default execution spaces "
        "(SCRATCHKIT_ENABLE_ETI: a caller's translation unit compiles the call only)",
    )
    variant(
        "kokkos_internals_driver",
        default=False,
        when="+cuda",
        description="Launch level-0 block kernels through scratchkit's driver on Kokkos internals "
        "(SCRATCHKIT_KOKKOS_CUDA_DRIVER; a configure-time probe must accept the Kokkos in use). "
        "Needs Kokkos 4.0-4.6 (tested: 4.6.01): Kokkos 4.7 and 5 changed the internals it uses. "
        "With CUDA 13 spack's Kokkos recipe builds no such Kokkos: only an external Kokkos 4.6 fits",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")

    # Tested with Kokkos 3.4.01 (Serial, Debian's libtrilinos-kokkos-dev),
    # 4.6.01 (CUDA 13.0, built with Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE),
    # 4.7.01 and 5.0.99 (a develop snapshot after 5.0.0; C++20) on Serial,
    # OpenMP and CUDA 13.0. A Kokkos that spack builds with CUDA 13 is 4.7.01
    # or newer: Kokkos' own recipe refuses kokkos@:4.7.0 with ^cuda@13.
    depends_on("kokkos@3.4:5")
    # The layer runs on whatever Kokkos backend is there; +cuda builds the
    # native kernels and needs a Kokkos with CUDA for the same arch (built with
    # nvcc_wrapper, +wrapper, or as CMake's CUDA language, +cmake_lang).
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
    # Kokkos' recipe builds +cuda only with nvcc_wrapper or as CMake's CUDA
    # language (or with clang); say so at concretization, not at its build.
    # Whenever Kokkos has CUDA, ~cuda too: the layer's sources include Kokkos.
    requires(
        "^kokkos+wrapper",
        "^kokkos+cmake_lang",
        policy="any_of",
        when="^kokkos+cuda",
        msg="a kokkos+cuda must be built with +wrapper or +cmake_lang (scratchkit compiles Kokkos "
        "sources with nvcc_wrapper or as CMake's CUDA language, with +cuda or ~cuda alike)",
    )
    # A shared libscratchkit links Kokkos: a static Kokkos must then be PIC.
    requires(
        "^kokkos+shared",
        "^kokkos+pic",
        policy="any_of",
        when="+shared",
        msg="scratchkit +shared needs a shared or position-independent (+pic) Kokkos; use ~shared",
    )
    # The driver on Kokkos internals (include/scratchkit/detail/cuda_block_launch.hpp)
    # compiles against Kokkos 4.6's internals (tested: 4.6.01 with CUDA 13.0):
    # Kokkos 4.7.01 and 5.0.99 changed CudaParallelLaunch::get_cuda_func_attributes'
    # signature, so there its configure-time probe fails, after Kokkos was built.
    # Say so at concretization. Kokkos' recipe refuses kokkos@:4.7.0 with
    # ^cuda@13, so with CUDA 13 spack can build no Kokkos the driver accepts:
    # it needs a Kokkos 4.6 built outside spack and declared as an external.
    # (The probe still decides for the older 4.x and a 4.6.99 develop snapshot.)
    requires(
        "^kokkos@4.0:4.6",
        when="+kokkos_internals_driver",
        msg="+kokkos_internals_driver compiles against Kokkos 4.0-4.6 internals only (4.7 and 5 changed "
        "them); with CUDA 13 spack builds no such Kokkos: declare a Kokkos 4.6 as an external",
    )

    depends_on("mpi", when="+mpi")
    depends_on("benchmark", when="+benchmarks")
    depends_on("catch2@3:", when="+tests")

    # The stand-alone tests compile the examples with spack's compiler.
    test_requires_compiler = True

    def _kokkos_cxx(self):
        """The C++ compiler Kokkos' sources need: nvcc_wrapper for a
        kokkos+cuda+wrapper, otherwise none beyond the package's own."""
        spec = self.spec
        if not spec.satisfies("^kokkos+cuda+wrapper"):
            return None
        if "kokkos-nvcc-wrapper" in spec:
            # a Kokkos that spack built: Kokkos' recipe names its wrapper
            return self["kokkos"].kokkos_cxx
        # An external Kokkos has no dependencies, so no kokkos-nvcc-wrapper node
        # (Kokkos' kokkos_cxx would fail on it): Kokkos installs nvcc_wrapper in
        # its own prefix; else the compiler it was configured with, as its
        # CMake package records it, if that is an nvcc_wrapper.
        prefix = spec["kokkos"].prefix
        candidates = [join_path(prefix.bin, "nvcc_wrapper")]
        for libdir in ("lib64", "lib"):
            config = join_path(prefix, libdir, "cmake", "Kokkos", "KokkosConfigCommon.cmake")
            if os.path.isfile(config):
                with open(config) as f:
                    m = re.search(r'^\s*set\(Kokkos_CXX_COMPILER\s+"([^"]+)"\)', f.read(), re.M | re.I)
                if m and os.path.basename(m.group(1)) == "nvcc_wrapper":
                    candidates.append(m.group(1))
        for cxx in candidates:
            if os.access(cxx, os.X_OK):
                return cxx
        raise InstallError(
            f"kokkos+cuda+wrapper at {prefix} (an external): no nvcc_wrapper found "
            f"(looked for {', '.join(candidates)}); declare the Kokkos that was built with it"
        )

    def setup_build_environment(self, env):
        # What kokkos-nvcc-wrapper gives the dependents of a Kokkos that spack
        # built, for an external +wrapper Kokkos (which has no such node).
        spec = self.spec
        if spec.satisfies("^kokkos+cuda+wrapper") and "kokkos-nvcc-wrapper" not in spec:
            if "cuda" in spec:
                env.set("CUDA_ROOT", spec["cuda"].prefix)
            env.set("NVCC_WRAPPER_DEFAULT_COMPILER", self["cxx"].cxx)

    def _cuda_args(self, cxx):
        """CMake arguments for CUDA and Kokkos' compiler; cxx: the C++ compiler
        when Kokkos does not need its own (None: spack's, in a build)."""
        spec = self.spec
        args = []
        # (a Kokkos external has no dependencies: ~cuda on it has no cuda node)
        if "cuda" in spec and (spec.satisfies("+cuda") or spec.satisfies("^kokkos+cuda+cmake_lang")):
            args.append(self.define("CMAKE_CUDA_COMPILER", spec["cuda"].prefix.bin.nvcc))
            args.append(self.define("CUDAToolkit_ROOT", spec["cuda"].prefix))
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", spec.variants["cuda_arch"].value))
        elif spec.satisfies("^kokkos+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", spec["kokkos"].variants["cuda_arch"].value))
        if self._kokkos_cxx() or cxx:
            args.append(self.define("CMAKE_CXX_COMPILER", self._kokkos_cxx() or cxx))
        if "cxxstd" in spec["kokkos"].variants:
            # scratchkit is C++17 and C++20; Kokkos 5 needs 20.
            args.append(self.define("CMAKE_CXX_STANDARD", spec["kokkos"].variants["cxxstd"].value))
        return args

    def cmake_args(self):
        args = [
            self.define("Kokkos_ROOT", self["kokkos"].prefix),
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define_from_variant("SCRATCHKIT_ENABLE_CUDA", "cuda"),
            self.define_from_variant("SCRATCHKIT_ENABLE_MPI", "mpi"),
            self.define_from_variant("SCRATCHKIT_ENABLE_PERF", "benchmarks"),
            self.define_from_variant("SCRATCHKIT_ENABLE_TESTS", "tests"),
            self.define_from_variant("SCRATCHKIT_ENABLE_BOUNDS_CHECK", "bounds_check"),
            self.define_from_variant("SCRATCHKIT_ENABLE_SCRATCH_CHECK", "scratch_check"),
            self.define_from_variant("SCRATCHKIT_ENABLE_ETI", "eti"),
            # The install test and the in-tree example need the build tree;
            # spack's own tests below build the examples against the prefix.
            self.define("SCRATCHKIT_ENABLE_INSTALL_TEST", False),
            self.define("SCRATCHKIT_ENABLE_EXAMPLES", False),
        ]
        if self.spec.satisfies("+cuda"):
            args.append(self.define_from_variant("SCRATCHKIT_KOKKOS_CUDA_DRIVER", "kokkos_internals_driver"))
        else:
            args.append(self.define("SCRATCHKIT_KOKKOS_CUDA_DRIVER", False))
        return args + self._cuda_args(cxx=None)

    # --- stand-alone tests: build the examples against the prefix and run them
    examples = ("consumer", "heat3d")

    @run_after("install")
    def cache_examples(self):
        cache_extra_test_sources(self, [join_path("examples", name) for name in self.examples])

    def _gpu_present(self):
        return os.path.isdir("/proc/driver/nvidia/gpus") and bool(os.listdir("/proc/driver/nvidia/gpus"))

    def _example(self, name):
        """Builds examples/<name> with find_package(scratchkit) (once per test
        stage) and returns its executable."""
        exe = join_path(os.getcwd(), f"{name}-build", name)
        if os.path.exists(exe):
            return which(exe, required=True)
        src = join_path(self.test_suite.current_test_cache_dir, "examples", name)
        cmake = which(self.spec["cmake"].prefix.bin.cmake, required=True)
        args = [
            "-S",
            src,
            "-B",
            f"{name}-build",
            self.define("CMAKE_PREFIX_PATH", f"{self.prefix};{self['kokkos'].prefix}"),
        ]
        # spack's compiler (a cxx dependency; test_requires_compiler), not a c++ on PATH
        args += self._cuda_args(cxx=self["cxx"].cxx)
        cmake(*args)
        cmake("--build", f"{name}-build")
        return which(exe, required=True)

    def _run(self, name, *argv):
        exe = self._example(name)
        if self.spec.satisfies("^kokkos+cuda") and not self._gpu_present():
            raise SkipTest(f"{name} built against the installed prefix; not run: no NVIDIA GPU here")
        # stdout only: a Kokkos may print warnings on stderr (an OpenMP Kokkos
        # its OMP_PROC_BIND advice, after the program's last line), which go
        # to the test log as they are and are not checked.
        out = exe(*argv, output=str)
        print(out, end="")
        return out

    def test_consumer(self):
        """build examples/consumer with find_package(scratchkit) and run it"""
        out = self._run("consumer")
        assert "consumer: tiled GEMM" in out and "OK" in out, out

    def test_heat3d(self):
        """build examples/heat3d with find_package(scratchkit); check the analytic decay"""
        out = self._run("heat3d", "48", "300", "0.1")
        assert out.strip().endswith("OK"), out
