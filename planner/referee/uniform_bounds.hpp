#pragma once

// The conformance suite's radius-0 uniform-cost bounds: every planner of a registry on
// generated worlds of one cost everywhere (obstacles of several shapes and densities, and
// Moving AI-style maps: random cells, rooms, mazes, thin walls at any angle), queried
// with its radius 0 (the parameters its entry declares for it, RefereeSpec::radius_zero),
// its path refereed (legality, cost) and its cost compared with grid A*'s optimum on the
// same cells: at most RefereeSpec::uniform_bound times it. A planner whose cost is in
// another model, whose entry says why it is not checked (RefereeSpec::uniform_skip), or
// whose clearance stays above 0 with those parameters is skipped, with the reason.
// Used by tests/planner/referee/uniform_bounds_test.cpp and `pathscope bench conformance`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::referee {

/// Which uniform worlds and queries the bounds are measured on.
struct UniformBoundOptions {
  std::uint64_t first_world = 0;  ///< Seed of the first generated world.
  int worlds = 20;                ///< Worlds first_world, first_world + 1, ...
  int queries_per_world = 6;
  /// Kept examples of violations, per planner (costs above the bound at most half of them).
  std::size_t max_examples = 4;
};

/// Where a planner's worst ratio was measured: enough to build the world and the query again.
struct UniformWorst {
  std::uint64_t seed = 0;  ///< uniform_world(seed).
  PathQuery query{};
  double cost = 0;       ///< The referee's cost of the planner's path.
  double reference = 0;  ///< Grid A*'s optimum.
};

/// What the uniform radius-0 worlds found for one planner.
struct PlannerUniformBound {
  std::string planner;
  std::string skipped;  ///< Why it was not checked; empty: checked.
  double bound = 0;     ///< The bound it declares (RefereeSpec::uniform_bound; 0: none).
  int queries = 0;
  int found = 0;
  int refused = 0;                    ///< Invalid, or no path.
  int refused_solvable = 0;           ///< No path where grid A* finds one.
  int illegal = 0;                    ///< Found paths the referee finds illegal (with no clearance).
  int cost_disagree = 0;              ///< Reported cost differs from the referee's.
  int bound_checked = 0;              ///< Costs compared with grid A*'s.
  int over_bound = 0;                 ///< Costs above bound x grid A*'s.
  int over_105 = 0;                   ///< Costs above 1.05 x grid A*'s (the issue's any-angle bound).
  double worst_ratio = 0;             ///< max referee cost / grid A*'s optimum.
  double sum_ratio = 0;               ///< Sum of the ratios compared (mean = sum_ratio / bound_checked).
  std::optional<UniformWorst> worst;  ///< Where worst_ratio was measured.
  std::vector<std::string> examples;  ///< The first few violations, one line each.

  /// Violations of every kind.
  int violations() const { return refused_solvable + illegal + cost_disagree + over_bound; }
};

/// The kinds of uniform world, by seed % 5.
enum class UniformWorldKind : std::uint8_t {
  Scatter,  ///< Rectangles, discs and triangles off the cell lines, 3% to 30% of the area.
  Random,   ///< Moving AI's random maps: each cell blocked with probability 10% to 40%.
  Rooms,    ///< Moving AI's room maps: rooms of 4 to 12 cells, walls with doors of 1 to 3 cells.
  Maze,     ///< Moving AI's mazes: corridors 1 to 4 cells wide.
  Walls,    ///< Thin walls at any angle (polygons), a few discs, tile wall runs.
};

/// Lowercase name of a kind ("scatter", "random", "rooms", "maze", "walls").
const char* to_string(UniformWorldKind kind);

/// The kind of world a seed generates.
UniformWorldKind uniform_world_kind(std::uint64_t seed);

/// The generated world of a seed: 24 to 64 cells a side of 1 m, one terrain on every
/// passable cell (ground, or now and then rough ground everywhere: one multiplier), walls
/// and obstacle features of its kind. No roads, bridges, water, threats or allies.
/// Deterministic.
Scenario uniform_world(std::uint64_t seed);

/// Runs every planner of `registry` with its radius 0 over the options' uniform worlds
/// (class 0); one entry per planner, in registry order. `astar` (grid A*) must be in the
/// registry: it is the reference (without it every planner is skipped). Deterministic.
std::vector<PlannerUniformBound> run_uniform_bounds(std::span<const PlannerInfo> registry,
                                                    const UniformBoundOptions& options);

}  // namespace pathscope::referee
