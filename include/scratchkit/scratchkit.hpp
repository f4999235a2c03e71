// SPDX-License-Identifier: BSD-3-Clause
/// Umbrella header: the shared-memory layer and the kernels written on it.
#pragma once

#include <scratchkit/config.hpp>
#include <scratchkit/version.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>
#include <scratchkit/block.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/per_thread.hpp>
#include <scratchkit/padded_tile.hpp>
#include <scratchkit/halo_tile.hpp>
#include <scratchkit/atomic.hpp>
#include <scratchkit/launch_bounds.hpp>
#include <scratchkit/launch.hpp>
#include <scratchkit/scratch_check.hpp>
#include <scratchkit/occupancy.hpp>
#include <scratchkit/tuning/hook.hpp>
#include <scratchkit/warp.hpp>
#include <scratchkit/block_collectives.hpp>
#include <scratchkit/kernels/all.hpp>  // every kernel of cmake/kernels.txt (generated at configure time)
#include <scratchkit/kernels/defaults.hpp>
