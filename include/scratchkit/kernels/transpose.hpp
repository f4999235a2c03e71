// SPDX-License-Identifier: BSD-3-Clause
/// transpose on the layer (native twin: src/cuda/transpose.cu). (to come)
#pragma once

#include <scratchkit/launch.hpp>
