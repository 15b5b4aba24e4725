#pragma once

// Comparing planners: every planner of the registry, with its default parameters, run
// on the active query, one row each (status, length, cost, expansions, wall time).
// Exact planners must agree on the cost; the debugger panel shows where they do not.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "app/debugger/planner_cache.hpp"
#include "planner/core/search.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// One registered planner run on the active query with its default parameters.
struct ComparisonRow {
  std::string name;                          ///< Registry name.
  bool exact = true;                         ///< The registry says its costs are optimal.
  SearchStatus status = SearchStatus::Idle;  ///< How the search ended.
  double length = 0;                         ///< Metres (Found only).
  double cost = 0;                           ///< Terrain-weighted metres (Found only).
  std::uint64_t expansions = 0;              ///< Nodes expanded.
  double micros = 0;                         ///< Wall time, microseconds.
  std::string message;                       ///< Why it is Invalid or NoPath, if known.
};

/// The rows of the last comparison.
class PlannerComparison {
 public:
  /// Runs every planner of `registry` on `query` of `world`, in registry order.
  /// Borrows batch planners of `planners` that already have the default parameters (it
  /// never replaces a cached planner); makes temporary ones for the rest. Empty when the
  /// query's movement class does not exist. Kept for rows().
  const std::vector<ComparisonRow>& run(const PlanningWorld& world, const Query& query,
                                        PlannerCache& planners,
                                        std::span<const PlannerInfo> registry = planner_registry());
  /// The rows of the last run() since clear().
  const std::vector<ComparisonRow>& rows() const { return rows_; }
  /// Forgets the rows (the world or the active query changed).
  void clear() { rows_.clear(); }

 private:
  std::vector<ComparisonRow> rows_;
};

}  // namespace pathscope::app
