// SPDX-License-Identifier: BSD-3-Clause
/// Launch description (grid, block shape, scratch) and launch() onto a Kokkos TeamPolicy; LaunchParams and
/// LaunchPlan are defined below the launch path, in detail/launch/params.hpp.
#pragma once

#include <scratchkit/block.hpp>
#include <scratchkit/detail/launch/limits.hpp>
#include <scratchkit/detail/launch/params.hpp>
#include <scratchkit/detail/launch/plan.hpp>
#include <scratchkit/detail/launch/team_loop.hpp>
#include <scratchkit/dynamic_shared_array.hpp>
#include <scratchkit/errors.hpp>
#include <scratchkit/launch_bounds.hpp>
#include <scratchkit/scratch_check.hpp>
#include <scratchkit/shared_array.hpp>
#include <scratchkit/tuning/hook.hpp>

#include <climits>
#include <cstdlib>
#include <sstream>
#include <string>

/// Linkage of the library's kernel functions (header templates whose bodies are KOKKOS_LAMBDAs): internal,
/// so that each translation unit keeps its own nvcc lambda wrapper (docs/user-guide.md, "Kernels in headers").
/// Defined empty on the command line it restores external linkage (the ctest lambda_wrapper_linkage then fails).
#ifndef SCRATCHKIT_KERNEL_LINKAGE
#define SCRATCHKIT_KERNEL_LINKAGE static
#endif

namespace scratchkit {

namespace detail {
/// The tuning hook's answer for a launch of `kernel` with parameters p and bounds Bounds.
template <class ExecSpace, class Bounds>
tuning::LaunchTuning ask_launch_tuning(const char* label, tuning::Kernel kernel, const LaunchParams& p) {
  return ask_tuning_hook([&] {
    constexpr bool driver = block_driver_launch<ExecSpace, Bounds>;
    return tuning_request<ExecSpace>(label, kernel, p, Bounds::team_loop && !driver, driver,
                                     p.requested_blocks_per_team());
  });
}
}  // namespace detail

/// Validates a launch and computes its mapping onto a Kokkos TeamPolicy.
/// Throws LaunchError (naming the requested and allowed values) for a block
/// shape the backend cannot run, an empty grid (unless allowed) or one too large, scratch over the limit, or
/// dynamic partitions past the pool. Nothing is launched. `Bounds`: the
/// launch bounds launch() will be given (they decide, on CUDA, which driver
/// runs the launch and so its level-0 limit).
/// `label` (optional): the kernel, named in every error (launch() passes its own).
/// With a tuning hook installed (tuning/hook.hpp) it asks the hook, as launch() does, and
/// gives the plan launch() takes with its answer.
template <class ExecSpace, class Bounds = NoLaunchBounds>
LaunchPlan plan_launch(const LaunchParams& p, const char* label = nullptr) {
  const tuning::LaunchTuning t = detail::ask_launch_tuning<ExecSpace, Bounds>(label, tuning::Kernel::user, p);
  return detail::make_launch_plan<ExecSpace, Bounds>(p, label, detail::launch_settings(p, t, label));
}

/// Whether the scratch of a launch with these parameters fits in level 0 on
/// ExecSpace for a launch with these bounds, as plan_launch will count it:
/// what a kernel that picks its tile size at run time asks (as a native one
/// reads cudaDeviceProp::sharedMemPerBlockOptin). Checks nothing else, and asks no tuning
/// hook (an override only ever leaves more room).
template <class ExecSpace, class Bounds = NoLaunchBounds>
bool fits_level0(const LaunchParams& p) {
  if (p.static_bytes() > detail::absurd_scratch || p.dynamic_bytes() > detail::absurd_scratch) return false;
  return detail::scratch_request(p) <= detail::level0_max<ExecSpace, Bounds>(static_cast<int>(p.block().count()));
}

namespace detail {
/// The launch bounds of a body whose Block has a static shape: the shape's threads where the call
/// gives none (`__launch_bounds__(X * Y * Z)`); bounds below the shape do not compile.
template <class Bounds, class Shape>
struct shape_bounds {
  using type = Bounds;
};
template <unsigned M, unsigned B, bool K, bool T, int X, int Y, int Z>
struct shape_bounds<LaunchBounds<M, B, K, T>, Box<X, Y, Z>> {
  static_assert(M == 0 || M >= static_cast<unsigned>(X * Y * Z),
                "scratchkit::launch: LaunchBounds' MaxThreads is below the threads of the body's BlockShape");
  using type = LaunchBounds<(M == 0 ? static_cast<unsigned>(X * Y * Z) : M), (B == 0 ? 1u : B), K, T>;
};
template <class Bounds, class F>
using body_bounds_t = typename shape_bounds<Bounds, body_shape_t<F>>::type;

/// launch()'s MaxFallback when the call names none: level 1 for a run-time shape; level 0 alone
/// for a static shape, whose scratch is fixed where the kernel is written (one body a policy).
inline constexpr ScratchFallback fallback_by_shape = static_cast<ScratchFallback>(-1);
template <ScratchFallback M, class F>
inline constexpr ScratchFallback body_fallback_v =
    M != fallback_by_shape ? M : (is_box<body_shape_t<F>>::value ? ScratchFallback::none : ScratchFallback::level1);

/// A body that takes `const Block<E, S>&`: E is the launch's space, and a static S is the launch's block.
template <class ExecSpace, class F>
void check_body_block(const char* label, const LaunchParams& p) {
  using Arg = std::remove_cv_t<std::remove_reference_t<typename body_argument<decltype(&F::operator())>::type>>;
  static_assert(std::is_same<typename Arg::execution_space, ExecSpace>::value,
                "scratchkit::launch: the body takes a Block of another execution space than the launch's");
  using Shape = typename Arg::shape_type;
  if constexpr (is_box<Shape>::value) {
    const Dim3 b = p.block();
    if (b.x != Shape::x || b.y != Shape::y || b.z != Shape::z) {
      std::ostringstream err;
      err << "scratchkit: cannot launch kernel '" << label << "': its body takes a Block of BlockShape<" << Shape::x
          << ", " << Shape::y << ", " << Shape::z << "> but LaunchParams gives a block of " << dim_str(b)
          << " (give LaunchParams the shape: LaunchParams(grid, Block::shape_type()))";
      throw LaunchError(err.str());
    }
  }
}

/// launch() with the tuning hook's answer t already asked: the one place a launch reads it.
template <class Bounds, ScratchFallback MaxFallback, class ExecSpace, class F>
void launch_tuned(const ExecSpace& exec, const char* label, const LaunchParams& p, const F& body,
                  const tuning::LaunchTuning& t) {
  if constexpr (is_box<body_shape_t<F>>::value) check_body_block<ExecSpace, F>(label, p);
  LaunchPlan plan = make_launch_plan<ExecSpace, Bounds>(p, label, launch_settings(p, t, label));
  if (Bounds::max_threads > 0 && plan.logical_threads > static_cast<long long>(Bounds::max_threads)) {
    std::ostringstream err;
    err << "scratchkit: cannot launch kernel '" << label << "': block of " << plan.logical_threads << " threads "
        << dim_str(p.block()) << " is over its launch bounds of " << Bounds::max_threads << " threads";
    throw LaunchError(err.str());
  }
  // Only a launch that allowed it reaches here with an empty grid (plan_launch
  // throws otherwise, as CUDA rejects a zero grid); it has still had every
  // other check, and launches nothing.
  if (plan.league_size == 0) return;
  const ScratchCheck* check = p.scratch_check().enabled ? &p.scratch_check() : scratch_check_scope;
  if (check != nullptr && check->enabled) {
    check_scratch_launch<Bounds, MaxFallback == ScratchFallback::level1>(exec, label, p, plan, body, *check);
    return;
  }
  if (plan.scratch_level == 0) {
    launch_at_level<Bounds, 0>(exec, label, p, plan, body);
  } else if constexpr (MaxFallback == ScratchFallback::level1) {
    launch_at_level<Bounds, 1>(exec, label, p, plan, body);
  } else {
    throw level0_only_error(label, plan.scratch_bytes, is_box<body_shape_t<F>>::value);
  }
}

/// launch() of the library's `kernel` (tuning::Kernel): asks the hook once, then launches.
template <class Bounds, ScratchFallback MaxFallback, class ExecSpace, class F>
void launch_kernel(const ExecSpace& exec, const char* label, tuning::Kernel kernel, const LaunchParams& p,
                   const F& body) {
  launch_tuned<Bounds, MaxFallback>(exec, label, p, body, ask_launch_tuning<ExecSpace, Bounds>(label, kernel, p));
}
}  // namespace detail

/// Launches `body(const Block<ExecSpace>&)` once per block of the grid on
/// `exec`, as a Kokkos::parallel_for over a TeamPolicy named `label`.
/// Asynchronous like any Kokkos kernel: fence `exec` before reading results.
/// `Bounds` (optional, first template argument) sets launch bounds:
/// `launch<LaunchBounds<256, 2>>(exec, label, params, body)`.
/// `MaxFallback` (optional, second) is the furthest ScratchFallback this call
/// may ask for at run time: the default compiles the body for level-0 and
/// level-1 scratch (static shapes: below); ScratchFallback::none compiles the level-0 kernel only
/// (half the device code), and a LaunchParams asking for level 1 is refused.
/// With a tuning hook installed (tuning/hook.hpp) the launch asks it once, before planning.
/// A body that takes `const Block<ExecSpace, BlockShape<X, Y, Z>>&` gets a block whose shape is
/// a compile-time constant, and launch bounds of X * Y * Z threads where `Bounds` sets none; a
/// LaunchParams whose block is not X x Y x Z is refused (LaunchError) before the launch.
/// Such a body is compiled for level-0 scratch alone unless the call names
/// `ScratchFallback::level1` (a LaunchParams asking for level 1 is then refused, saying so).
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = detail::fallback_by_shape, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const char* label, const LaunchParams& p, const F& body) {
  using Shape = detail::body_shape_t<F>;
  if constexpr (detail::is_box<Shape>::value) {
    if (p.block_from_body()) {
      LaunchParams q = p;
      launch<Bounds, MaxFallback>(exec, label, q.impl_set_block(Dim3(Shape::x, Shape::y, Shape::z)), body);
      return;
    }
  }
  detail::launch_kernel<detail::body_bounds_t<Bounds, F>, detail::body_fallback_v<MaxFallback, F>>(
      exec, label, tuning::Kernel::user, p, body);
}

/// launch() with a label built at run time.
template <class Bounds = NoLaunchBounds, ScratchFallback MaxFallback = detail::fallback_by_shape, class ExecSpace,
          class F>
void launch(const ExecSpace& exec, const std::string& label, const LaunchParams& p, const F& body) {
  launch<Bounds, MaxFallback>(exec, label.c_str(), p, body);
}

/// ceil(a / b) for sizes, as grid arithmetic needs it.
KOKKOS_INLINE_FUNCTION constexpr int ceil_div(long long a, long long b) {
  return static_cast<int>((a + b - 1) / b);
}

}  // namespace scratchkit
