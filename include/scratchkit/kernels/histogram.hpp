// SPDX-License-Identifier: BSD-3-Clause
/// histogram on the layer (native twin: src/cuda/histogram.cu). (to come)
#pragma once

#include <scratchkit/launch.hpp>
