# SPDX-License-Identifier: BSD-3-Clause
"""Spack recipe for scratchkit (spack 1.x package API v2)."""

import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Scratchkit(CMakePackage, CudaPackage):
    """Performance-portable GPU shared memory: CUDA SharedArray /
    DynamicSharedArray / sync_threads semantics on Kokkos team scratch, with
    classic shared-memory kernels written on the layer and in native CUDA,
    cross-checked, and a harness that compares them with cuBLAS, CUB and the
    hardware limits."""

    # Sites point `git` at their mirror of the project, or use
    # `spack develop scratchkit@0.1.0 path=<checkout>` (see spack.yaml).
    maintainers("scratchkit")
    license("BSD-3-Clause")

    version("main", branch="main")
    version("0.1.0")

    # --- variants (each maps to one SCRATCHKIT_ENABLE_* CMake option) ---------
    # `cuda` and `cuda_arch` come from CudaPackage.
    variant("mpi", default=False, description="MPI mode of the perf harness (one rank per GPU)")
    variant("benchmarks", default=False, description="Build the comparison / benchmark programs (perf/)")
    variant("tests", default=False, description="Build the Catch2 test suite")
    variant("bounds_check", default=False, description="Check every scratch access at run time")

    depends_on("cxx", type="build")
    depends_on("cmake@3.25:", type="build")

    depends_on("kokkos@3.4:5")
    # The layer runs on whatever Kokkos backend is there; +cuda builds the
    # native kernels and needs a Kokkos with CUDA for the same (single) arch.
    with when("+cuda"):
        depends_on("kokkos+cuda+wrapper")
        for _arch in CudaPackage.cuda_arch_values:
            depends_on(f"kokkos cuda_arch={_arch}", when=f"cuda_arch={_arch}")
    conflicts("+cuda cuda_arch=none", msg="scratchkit +cuda needs a cuda_arch (e.g. cuda_arch=90)")
    # Kokkos is built for one architecture: scratchkit takes exactly one as well.
    for _i, _a in enumerate(CudaPackage.cuda_arch_values):
        for _b in CudaPackage.cuda_arch_values[_i + 1 :]:
            conflicts(f"cuda_arch={_a},{_b}", msg="scratchkit (like Kokkos) supports one cuda_arch at a time")

    depends_on("mpi", when="+mpi")
    depends_on("benchmark", when="+benchmarks")
    depends_on("catch2@3:", when="+tests")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("SCRATCHKIT_ENABLE_CUDA", "cuda"),
            self.define_from_variant("SCRATCHKIT_ENABLE_MPI", "mpi"),
            self.define_from_variant("SCRATCHKIT_ENABLE_PERF", "benchmarks"),
            self.define_from_variant("SCRATCHKIT_ENABLE_TESTS", "tests"),
            self.define_from_variant("SCRATCHKIT_ENABLE_BOUNDS_CHECK", "bounds_check"),
            # The install test and the in-tree example need the build tree;
            # spack's own tests below build the examples against the prefix.
            self.define("SCRATCHKIT_ENABLE_INSTALL_TEST", False),
            self.define("SCRATCHKIT_ENABLE_EXAMPLES", False),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", spec.variants["cuda_arch"].value[0]))
        if spec.satisfies("^kokkos+cuda"):
            # A Kokkos built with nvcc_wrapper compiles Kokkos sources through it.
            args.append(self.define("CMAKE_CXX_COMPILER", spec["kokkos"].kokkos_cxx))
        return args

    # --- install-time test: build and run the consumer example against the prefix
    @run_after("install")
    def cache_consumer(self):
        cache_extra_test_sources(self, [join_path("examples", "consumer"), join_path("examples", "heat3d")])

    def _build_example(self, name):
        src = join_path(self.test_suite.current_test_cache_dir, "examples", name)
        build = join_path(os.getcwd(), f"{name}-build")
        cmake = which(self.spec["cmake"].prefix.bin.cmake)
        args = [
            "-S", src, "-B", build,
            f"-DCMAKE_PREFIX_PATH={self.prefix};{self.spec['kokkos'].prefix}",
        ]
        if self.spec.satisfies("+cuda"):
            args.append(f"-DCMAKE_CUDA_ARCHITECTURES={self.spec.variants['cuda_arch'].value[0]}")
        if self.spec.satisfies("^kokkos+cuda"):
            args.append(f"-DCMAKE_CXX_COMPILER={self.spec['kokkos'].kokkos_cxx}")
        cmake(*args)
        cmake("--build", build)
        return which(join_path(build, name))

    def test_consumer(self):
        """build examples/consumer with find_package(scratchkit) and run it"""
        out = self._build_example("consumer")(output=str.split, error=str.split)
        assert "consumer: tiled GEMM" in out and "OK" in out, out

    def test_heat3d(self):
        """build examples/heat3d with find_package(scratchkit); check the analytic decay"""
        out = self._build_example("heat3d")("48", "300", "0.1", output=str.split, error=str.split)
        assert out.strip().endswith("OK"), out
