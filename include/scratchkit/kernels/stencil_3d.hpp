// SPDX-License-Identifier: BSD-3-Clause
/// stencil 3d on the layer (native twin: src/cuda/stencil_3d.cu). (to come)
#pragma once

#include <scratchkit/launch.hpp>
