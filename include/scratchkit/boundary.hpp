// SPDX-License-Identifier: BSD-3-Clause
/// Boundary: what a halo load writes for points outside the grid (no Kokkos, no CUDA: native twins name it too).
#pragma once

namespace scratchkit {

/// What HaloTile::load writes for a tile point outside the grid (per dimension: a point is
/// outside when any of its coordinates is).
/// - leave: nothing (the element keeps what scratch held: under the scratch checker a read of it
///   is an uninitialised read);
/// - zero: `T{}` (zero for arithmetic types, every member zero for a struct);
/// - clamp: the nearest grid point (each coordinate clamped to [0, n - 1]);
/// - periodic: the grid point of each coordinate modulo its extent (any radius).
enum class Boundary { leave, zero, clamp, periodic };

inline const char* name(Boundary b) {
  switch (b) {
    case Boundary::leave: return "leave";
    case Boundary::zero: return "zero";
    case Boundary::clamp: return "clamp";
    case Boundary::periodic: return "periodic";
  }
  return "?";
}

}  // namespace scratchkit
