#pragma once

// The planner registry: every planner is listed once, here, with its parameters. The
// CLI and the app enumerate it, so a new planner appears everywhere with no other change.

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/world/planning_world.hpp"
#include "planner/core/result.hpp"
#include "planner/core/search.hpp"

namespace pathscope {

/// A numeric parameter a planner accepts (booleans are 0/1).
struct ParamSpec {
  std::string name;         ///< snake_case, e.g. "weight".
  std::string description;  ///< One line, for tooltips and --help.
  double default_value = 0;
  double min_value = 0;     ///< Inclusive.
  double max_value = 0;     ///< Inclusive.
};

/// Resolved parameter values, in the order of PlannerInfo::params.
using ParamValues = std::vector<double>;

/// One registered planner.
struct PlannerInfo {
  std::string name;         ///< Registry name, e.g. "astar".
  std::string summary;      ///< One line.
  bool exact = true;        ///< Guarantees optimal costs (ground-truth checks apply).
  std::vector<ParamSpec> params;
  /// Creates a planner for one class of a world. The world must outlive the planner.
  std::function<std::unique_ptr<Planner>(const PlanningWorld&, std::size_t movement_class, const ParamValues&)> create;
};

/// All planners, in a fixed order.
std::span<const PlannerInfo> planner_registry();

/// The planner named `name`, or nullptr.
const PlannerInfo* find_planner(std::string_view name);

/// Defaults overridden by `overrides`; an unknown name or an out-of-range value is an
/// error whose `where` is `where_prefix` + ".params." + name.
Result<ParamValues> resolve_params(const PlannerInfo& info, std::span<const PlannerParam> overrides,
                                   const std::string& where_prefix = "params");

}  // namespace pathscope
