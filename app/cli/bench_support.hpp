#pragma once

// What the `pathscope bench ...` commands share: wall-clock timing (benchmarks only:
// never a result), medians, and a planner's named statistic.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/search.hpp"

namespace pathscope::app::bench {

using Clock = std::chrono::steady_clock;

/// A word of the shell, quoted (for the peers a side-by-side bench runs).
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Milliseconds since `t0`.
inline double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Nanoseconds on the steady clock: the clock the planner's benchmark figures are timed
/// with (BenchClock).
inline std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

/// The median of `v` (the upper one of an even count); 0 when empty.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

/// The planner-specific figure `name` of a result's stats, 0 when it has none.
inline double stat(const PathResult& r, std::string_view name) {
  for (const auto& [key, value] : r.stats.extra) {
    if (key == name) return value;
  }
  return 0;
}

}  // namespace pathscope::app::bench
