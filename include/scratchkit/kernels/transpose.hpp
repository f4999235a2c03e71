// SPDX-License-Identifier: BSD-3-Clause
/// Matrix transpose on the layer: out(c, r) = in(r, c) (native twin: src/cuda/transpose.cu).
#pragma once

#include <scratchkit/detail/transpose/layer.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/variants.hpp>

namespace scratchkit {

/// out(c, r) = in(r, c) for a rows x cols `in` and a cols x rows `out`, on `backend`.
///
/// Backend::layer runs on any Kokkos backend and takes any layouts: in and out
/// both row-major or both column-major (LayoutLeft: the transpose of the
/// row-major Views of the same memory), contiguous or pitched (LayoutStride
/// with a unit stride along the same axis), are the fast case; mixed orders
/// run a correct general path (docs/layouts.md). Backend::native runs the
/// CUDA twin on exec's stream and needs Kokkos::Cuda and CUDA Views both
/// contiguous row-major or both contiguous column-major (UnsupportedError
/// otherwise). An out whose elements overlap (LayoutStride) throws ShapeError. Throws ShapeError, naming all extents, when
/// out is not cols x rows, and UnsupportedError when in and out overlap
/// (no in-place transpose); both before any launch. The result is exact.
/// Asynchronous: fence exec before reading out.
/// \code
/// Kokkos::View<float**> in("in", rows, cols), out("out", cols, rows);
/// scratchkit::transpose(exec, scratchkit::TransposeVariant::tiled_padded, in, out);
/// \endcode
template <class ExecSpace, class InView, class OutView>
void transpose(const ExecSpace& exec, TransposeVariant variant, const InView& in, const OutView& out,
               Backend backend = Backend::layer) {
  static_assert(InView::rank == 2 && OutView::rank == 2, "scratchkit::transpose: in and out must be rank-2 Views");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename InView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename OutView::memory_space>::accessible,
                "scratchkit::transpose: the Views must be accessible from the execution space");
  using Scalar = typename OutView::non_const_value_type;
  static_assert(std::is_same<typename OutView::value_type, Scalar>::value,
                "scratchkit::transpose: out must be a View of non-const elements");
  static_assert(std::is_same<typename InView::non_const_value_type, Scalar>::value,
                "scratchkit::transpose: in and out must hold the same element type");
  static_assert(std::is_same<Scalar, float>::value || std::is_same<Scalar, double>::value,
                "scratchkit::transpose: float or double");
  if (out.extent(0) != in.extent(1) || out.extent(1) != in.extent(0)) {
    std::ostringstream os;
    os << "scratchkit::transpose: out must be cols x rows for a rows x cols in: in is " << in.extent(0) << " x "
       << in.extent(1) << ", out is " << out.extent(0) << " x " << out.extent(1) << " (expected " << in.extent(1)
       << " x " << in.extent(0) << ")";
    throw ShapeError(os.str());
  }
  // Headroom so that tile origin + 31 never overflows an int.
  if (in.extent(0) > static_cast<std::size_t>(INT_MAX / 2) || in.extent(1) > static_cast<std::size_t>(INT_MAX / 2)) {
    std::ostringstream os;
    os << "scratchkit::transpose: in is " << in.extent(0) << " x " << in.extent(1)
       << "; extents above INT_MAX/2 are not supported";
    throw ShapeError(os.str());
  }
  constexpr int T       = detail::transpose_tile;
  const long long tiles = static_cast<long long>(ceil_div(static_cast<long long>(in.extent(0)), T)) *
                          ceil_div(static_cast<long long>(in.extent(1)), T);
  if (tiles > INT_MAX) {
    std::ostringstream os;
    os << "scratchkit::transpose: in is " << in.extent(0) << " x " << in.extent(1) << ": " << tiles
       << " tiles of 32 x 32, more than the " << INT_MAX << " blocks a launch can have";
    throw ShapeError(os.str());
  }
  if (in.span() > 0 && out.span() > 0) {
    const auto i0 = reinterpret_cast<std::uintptr_t>(in.data()), o0 = reinterpret_cast<std::uintptr_t>(out.data());
    const auto i1 = i0 + in.span() * sizeof(Scalar), o1 = o0 + out.span() * sizeof(Scalar);
    if (i0 < o1 && o0 < i1) {
      std::ostringstream os;
      os << "scratchkit::transpose: in (" << in.label() << ") and out (" << out.label()
         << ") overlap in memory; in-place transpose is not supported";
      throw UnsupportedError(os.str());
    }
  }
  if (!detail::transpose_variant_known(variant)) {
    std::ostringstream os;
    os << "scratchkit::transpose: unknown variant " << static_cast<int>(variant);
    throw UnsupportedError(os.str());
  }
  detail::require_distinct_elements(out, "transpose", "out");
  // The transpose of column-major data is the transpose of the row-major Views of the same memory:
  // out^T (rows x cols) = (in^T)^T with in^T cols x rows (layout_map.hpp); the result is the same.
  detail::map_layouts("transpose", backend, {"in", "out"}, [&](auto, const auto& i, const auto& o) {
    detail::transpose_run(exec, variant, detail::const_view(i), o, backend);
  }, in, out);
}

}  // namespace scratchkit
