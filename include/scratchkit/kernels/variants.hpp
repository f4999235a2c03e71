// SPDX-License-Identifier: BSD-3-Clause
/// Forwards to <scratchkit/variants.hpp>, where the variant names now live (below every layer).
#pragma once

#include <scratchkit/variants.hpp>
