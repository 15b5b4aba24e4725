#pragma once

// A memory budget for the structures planners build from a world (visibility graphs,
// ...): what they would need is estimated before and while building, and a structure
// over the budget is refused with a Limit error naming the budget, instead of ending the
// program when memory runs out.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "planner/core/result.hpp"

namespace pathscope {

/// Bytes in a mebibyte (budgets are set and reported in MiB).
inline constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
/// The budget of one planner structure unless a planner parameter says otherwise: 2 GiB,
/// well under the memory of a machine that runs the largest worlds (8192 cells a side).
inline constexpr std::uint64_t kDefaultMemoryBudget = 2048 * kMiB;

/// The bytes one planner structure may take.
struct MemoryBudget {
  std::uint64_t bytes = kDefaultMemoryBudget;  ///< The budget, bytes (> 0).

  /// A budget of `mib` mebibytes (a planner parameter; rounded to whole bytes, at least 1).
  static MemoryBudget from_mib(double mib) {
    const double bytes = std::round(mib * double(kMiB));
    return MemoryBudget{bytes < 1 ? 1 : (bytes > 1e18 ? std::uint64_t(1e18) : std::uint64_t(bytes))};
  }

  /// True when `estimate` bytes fit.
  bool fits(std::uint64_t estimate) const { return estimate <= bytes; }

  /// Ok when `estimate` bytes fit; otherwise a Limit error at `where`: "<what> would need
  /// ~X MiB, over the memory budget of Y MiB; <advice>".
  Status check(std::uint64_t estimate, std::string_view what, std::string_view advice,
               std::string where = {}) const {
    if (fits(estimate)) return Ok{};
    return make_error(ErrorCode::Limit, std::move(where),
                      std::string(what) + " would need ~" + mib_text(estimate) +
                          " MiB, over the memory budget of " + mib_text(bytes) + " MiB; " +
                          std::string(advice));
  }

  /// `b` bytes in MiB, rounded up to a whole number (at least 1 for any b > 0).
  static std::string mib_text(std::uint64_t b) { return std::to_string((b + kMiB - 1) / kMiB); }
};

}  // namespace pathscope
