// SPDX-License-Identifier: BSD-3-Clause
// transpose: layer against the host reference, native twin bit for bit. (to come)
#include "test_support.hpp"
