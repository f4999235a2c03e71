// SPDX-License-Identifier: BSD-3-Clause
/// Exceptions thrown on the host, before any launch, for bad input.
#pragma once

#include <stdexcept>
#include <string>

namespace scratchkit {

/// Base of every scratchkit exception.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// A launch that cannot run as described: block shape, grid, scratch bytes.
/// Thrown before the launch; the message names the requested and allowed values.
class LaunchError : public Error {
 public:
  explicit LaunchError(const std::string& what) : Error(what) {}
};

/// Arguments whose shapes or sizes do not fit together (a GEMM with
/// A.extent(1) != B.extent(0), say). The message names the extents.
class ShapeError : public Error {
 public:
  explicit ShapeError(const std::string& what) : Error(what) {}
};

/// A backend or variant that this build does not provide.
class UnsupportedError : public Error {
 public:
  explicit UnsupportedError(const std::string& what) : Error(what) {}
};

}  // namespace scratchkit
