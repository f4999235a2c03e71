// SPDX-License-Identifier: BSD-3-Clause
// histogram: layer against the host reference, native twin bit for bit. (to come)
#include "test_support.hpp"
