// SPDX-License-Identifier: BSD-3-Clause
/// The native checks (native_checks.hpp) and the declarations of the kernels whose layers include
/// them all; a kernel added through the table (cmake/kernels.txt) includes native_checks.hpp and
/// its own native header instead.
#pragma once

#include <scratchkit/detail/native_checks.hpp>
#include <scratchkit/native/collectives.hpp>
#include <scratchkit/native/gemm.hpp>
#include <scratchkit/native/histogram.hpp>
#include <scratchkit/native/reduce.hpp>
#include <scratchkit/native/stencil_1d.hpp>
#include <scratchkit/native/stencil_3d.hpp>
#include <scratchkit/native/transpose.hpp>
#include <scratchkit/variants.hpp>
