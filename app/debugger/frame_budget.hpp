#pragma once

// The time one frame may spend searching. With a budget, planners are stepped in slices
// of kSliceExpansions until it is used up, so that edits on big maps keep the window
// responsive; with none (0 ms) every search runs to its end at once.

#include <chrono>
#include <cstdint>

namespace pathscope::app {

/// The clock of every debugger timing (wall time, never used for results).
using DebugClock = std::chrono::steady_clock;

/// Microseconds since `t0`.
inline double micros_since(DebugClock::time_point t0) {
  return std::chrono::duration<double, std::micro>(DebugClock::now() - t0).count();
}

/// One frame's share of searching, measured from `start`.
struct FrameBudget {
  /// Expansions per Planner::step() call while a budget is set.
  static constexpr std::uint64_t kSliceExpansions = 4096;
  /// Expansions per call without a budget (the search runs to its end anyway).
  static constexpr std::uint64_t kWholeExpansions = std::uint64_t(1) << 20;

  DebugClock::time_point start = DebugClock::now();  ///< When the frame's work began.
  double ms = 0;                                     ///< Milliseconds allowed; 0 = no limit.

  /// True when a budget is set and the time since `start` used it up.
  bool spent() const { return ms > 0 && micros_since(start) >= ms * 1000.0; }
  /// Expansions to ask of one step() call.
  std::uint64_t slice() const { return ms > 0 ? kSliceExpansions : kWholeExpansions; }
};

}  // namespace pathscope::app
