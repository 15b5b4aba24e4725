#pragma once

// The planner registry: every planner is listed once, with its family and parameters.
// The CLI and the app enumerate it, so a new planner appears everywhere with no other
// change. This header declares the registry's types and lookups; each family declares
// its entries against its typed parameters (planner_entry.hpp, the family's
// `*_registry.cpp`), and planner/registry/planner_list.cpp lists the families.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/core/search.hpp"
#include "planner/core/types.hpp"

namespace pathscope {

class PlanningWorld;

/// A numeric parameter a planner accepts (booleans are 0/1).
struct ParamSpec {
  std::string name;         ///< snake_case, e.g. "weight".
  std::string description;  ///< One line, for tooltips and --help.
  double default_value = 0;
  double min_value = 0;  ///< Inclusive.
  double max_value = 0;  ///< Inclusive.
  /// An enumeration's names, one per whole value from min_value to max_value in order
  /// (the UI offers them as a list); empty: any number in the range.
  std::vector<std::string> choices = {};
};

/// Resolved parameter values, in the order of PlannerInfo::params.
using ParamValues = std::vector<double>;

/// Everything a planner is created for: one world, one movement class, one side's
/// knowledge, and resolved parameters. The world must outlive the planner.
struct QueryContext {
  const PlanningWorld& world;
  std::size_t movement_class = 0;  ///< Index into Scenario::classes.
  /// Index into Scenario::factions whose knowledge the planner plans with (fog of war);
  /// nullopt: the planner sees the whole world as it is.
  std::optional<std::size_t> faction;
  ParamValues params;  ///< In the order of PlannerInfo::params.
};

/// What a planner's reported `cost` measures, for the path referee (planner/referee/).
enum class CostModel : std::uint8_t {
  /// The world's cost model: each metre of the path times the multiplier of the cell it
  /// runs through (roads and bridges as rasterised). The referee recomputes it exactly.
  Terrain,
  /// Another model (RefereeSpec::note says which and why); the referee reports its own
  /// terrain cost beside it but does not compare.
  Other,
};

/// How the path referee checks a planner's answers, declared with the planner.
struct RefereeSpec {
  CostModel cost = CostModel::Terrain;
  /// The cost is that of the path with every point moved to its cell's centre (moves
  /// between cell centres, as the grid planners count them), not of the polyline itself.
  bool cell_centres = false;
  /// With CostModel::Other: what the cost means and why the referee does not compare it.
  std::string note;
  /// What it promises of its costs with its default parameters: at most `bound` times
  /// the cheapest path of moves between cell centres for the same world, class and query
  /// (grid A*'s optimum; for a planner keeping a clearance, the cheapest such moves that
  /// keep it). 1: optimal on those moves; paths not bound to them may cost less. 0: no
  /// promise (a cost in another model). Checked by the conformance suite
  /// (planner/referee/conformance.hpp).
  double bound = 0;
  /// What it promises on worlds of one cost everywhere (walls and obstacles of any shape
  /// on ground of one multiplier) queried with its radius 0 (`radius_zero`): at most
  /// `uniform_bound` times grid A*'s optimum on the same cells. 0: no promise, and
  /// `uniform_skip` says why. Checked by the conformance suite
  /// (planner/referee/uniform_bounds.hpp).
  double uniform_bound = 0;
  /// Parameter values that make its radius 0 (e.g. {{"radius", 0}}) for that check;
  /// empty: its defaults (a planner keeping no clearance).
  std::vector<PlannerParam> radius_zero = {};
  /// Why it is not checked on uniform radius-0 worlds (another cost model, a clearance
  /// that cannot be 0); empty: it is.
  std::string uniform_skip = {};
};

/// One registered planner.
struct PlannerInfo {
  std::string name;     ///< Registry name, e.g. "astar".
  std::string family;   ///< The folder it lives in: "grid", "quadtree", "visgraph", ...
  std::string summary;  ///< One line.
  bool exact = true;    ///< Guarantees optimal costs (ground-truth checks apply).
  /// What `cost` means for this planner, e.g. "metres of terrain-weighted travel".
  std::string cost_units;
  std::vector<ParamSpec> params;
  /// Creates a planner for a context; it answers many queries.
  std::function<std::unique_ptr<Planner>(const QueryContext&)> create;
  /// How the path referee checks its answers (cost model, cell centres).
  RefereeSpec referee{};
  /// Metres the planner's paths keep from obstacles for a context whose values passed
  /// check_params (its own declaration, from its typed parameters, the class's radius
  /// where they say so); empty: none, its paths may touch obstacles.
  std::function<double(const QueryContext&)> clearance = {};
  /// A rule between parameter values each in its range (tactical's c1 + c2 = 1), run by
  /// resolve_params and check_params; empty: none. The message names the parameters.
  std::function<Status(std::span<const double>)> check = {};
};

/// All planners, in a fixed order (defined in planner/registry/planner_list.cpp).
std::span<const PlannerInfo> planner_registry();

/// The planner named `name` in `registry`, or nullptr.
const PlannerInfo* find_planner(std::string_view name,
                                std::span<const PlannerInfo> registry = planner_registry());

/// The planner named `name`, or an error at `where`: unknown planner "x" (known: a, b).
Result<const PlannerInfo*> require_planner(std::string_view name, const std::string& where,
                                           std::span<const PlannerInfo> registry = planner_registry());

/// Defaults overridden by `overrides`; an unknown name or an out-of-range value is an
/// error whose `where` is `where_prefix` + ".params." + name, or for a command-line
/// option (a prefix starting with "--") `where_prefix` + " " + name. The planner's rule
/// between parameters (PlannerInfo::check) is then an error at `where_prefix` + ".params"
/// (or the option), naming the planner and the parameters.
Result<ParamValues> resolve_params(const PlannerInfo& info, std::span<const PlannerParam> overrides,
                                   const std::string& where_prefix = "params");

/// Whether `values` are a full list for `info`: one per parameter, each in its range
/// (a whole value for an enumeration), and the planner's rule between them. Errors name
/// the planner and the parameter, at `where`.
Status check_params(const PlannerInfo& info, std::span<const double> values,
                    const std::string& where = "params");

/// The planner for `context`, or the error of check_params for its values.
Result<std::unique_ptr<Planner>> make_planner(const PlannerInfo& info, const QueryContext& context,
                                              const std::string& where = "params");

/// Metres `info`'s paths keep from obstacles for `context` (checked values); 0 for a
/// planner declaring none.
double declared_clearance(const PlannerInfo& info, const QueryContext& context);

/// A planner and its parameter values, chosen for one query.
struct PlannerChoice {
  const PlannerInfo* info = nullptr;
  ParamValues params;
};

/// Where a choice comes from: a query's own planner and parameters, optionally
/// overridden (a command line's --planner / --param, the debugger's planner menu).
struct PlannerChoiceRequest {
  std::string_view query_planner;                 ///< The query's planner name.
  std::span<const PlannerParam> query_params;     ///< The query's parameter overrides.
  std::string query_where;                        ///< e.g. "queries[2]" (errors add ".planner").
  std::string_view override_planner;              ///< "" = the query's own.
  std::span<const PlannerParam> override_params;  ///< Laid over the query's (same name wins).
  std::string override_where = "--planner";       ///< Where an unknown override is reported.
  std::string override_params_where = "--param";  ///< Where a bad override parameter is reported.
  std::span<const PlannerInfo> registry = planner_registry();  ///< Where names are looked up.
};

/// Resolves the planner for a query: the override if given, else the query's planner;
/// the query's parameters apply only when its own planner is used, the override
/// parameters on top. Errors name the field (queries[i].planner, --planner, ...).
Result<PlannerChoice> choose_planner(const PlannerChoiceRequest& request);

}  // namespace pathscope
