#pragma once

// The conformance suite: every planner of a registry, on generated worlds (tiles of several
// costs, walls, obstacle features aligned to the cells and not, slow regions, a road, a
// bridge over deep water, threats and allies) and random queries between cell centres. For
// each planner and query it checks, with code that shares nothing with the planners:
//  - a path found is legal and its reported cost equals the path referee's
//    (path_referee.hpp, kCostTolerance), in the model the planner declares
//    (PlannerInfo::referee); a cost in another model is not compared;
//  - stepping (a few expansions at a time) equals one shot;
//  - node_at() round-trips with node_geometry() on the path's nodes and a sample of ids;
//  - replay of the trace equals the live run, both ways: a search's trace, recorded in one
//    shot, equals the trace of the same search stepped one expansion at a time, and a
//    TraceReplay of it seeked forward to the end, back to the start and forward again
//    shows, at each step, the nodes (g, h, parent, closed) the live planner showed there;
//  - after a random edit of the world (PlanningWorld::update, as the editor makes them),
//    an answer its result_dependency() keeps is legal in the edited world and costs what
//    a fresh planner's search there costs;
//  - its structure views (visit_structure, visit_path_structure) hand a visitor no more
//    items than the budget its full() sets, for several budgets;
//  - a planner keeping a radius finds a path whenever moves between cell centres that keep
//    the radius join start and goal (a breadth-first search of its own);
//  - its cost is within the bound it declares (RefereeSpec::bound) of a reference: grid
//    A*'s optimum on the same world and class, or for a planner keeping a clearance, the
//    cheapest moves between cell centres that keep it (a Dijkstra search of its own).
// Used by tests/planner/conformance_test.cpp and `pathscope bench conformance`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario.hpp"

namespace pathscope::referee {

/// Which worlds and queries the suite runs.
struct ConformanceOptions {
  std::uint64_t first_world = 0;  ///< Seed of the first generated world.
  int worlds = 6;                 ///< Worlds first_world, first_world + 1, ...
  int queries_per_world = 4;
  /// Kept examples of each kind of violation, per planner.
  std::size_t max_examples = 4;
  /// Queries per world whose trace is replayed and compared with the live run, step by step.
  int replays_per_world = 1;
  /// Random edits per world after each of which every planner's answer is checked again.
  int edits_per_world = 3;
};

/// What the suite found for one planner.
struct PlannerConformance {
  std::string planner;
  int queries = 0;
  int found = 0;
  int refused = 0;                    ///< Invalid, or no path.
  int illegal = 0;                    ///< Found paths the referee finds illegal.
  int cost_disagree = 0;              ///< Reported cost differs from the referee's.
  int cost_skipped = 0;               ///< Cost in another model: not compared.
  int stepping_differs = 0;           ///< Stepped search differs from one shot.
  int node_at_fails = 0;              ///< node_at() does not round-trip with node_geometry().
  int no_path_solvable = 0;           ///< No path where one keeping the radius exists.
  int over_bound = 0;                 ///< Cost above its declared bound x grid A*'s.
  int bound_checked = 0;              ///< Queries whose cost was compared with grid A*'s.
  int replay_differs = 0;             ///< Searches whose replayed trace differs from the live run.
  int replays = 0;                    ///< Searches replayed and compared.
  int stale_kept = 0;                 ///< Kept answers illegal or dearer/cheaper than a fresh search.
  int kept = 0;                       ///< Answers their dependency kept after an edit.
  int invalidated = 0;                ///< Answers voided after an edit (or with no dependency).
  int over_budget = 0;                ///< Structure views that handed out more items than their budget.
  int budgets_checked = 0;            ///< Structure views walked with a budget.
  double worst_cost_error = 0;        ///< max |reported - referee| / max(1, referee).
  double worst_ratio = 0;             ///< max cost / grid A*'s cost, where checked.
  double bound = 0;                   ///< The bound it declares (0: none).
  std::vector<std::string> examples;  ///< The first few violations, one line each.

  /// Violations of every kind (what makes the suite fail).
  int violations() const {
    return illegal + cost_disagree + stepping_differs + node_at_fails + no_path_solvable + over_bound +
           replay_differs + stale_kept + over_budget;
  }
};

/// The generated world of a seed. `weighted`: tiles and features of several costs and a
/// road; otherwise uniform ground with walls and obstacles (so the uniform-cost planners
/// answer too). Deterministic.
Scenario conformance_world(std::uint64_t seed, bool weighted);

/// Grid A*'s cost for each of `queries` on `world` for `movement_class` (default
/// parameters): the optimum the bounds compare with. Empty where it finds no path, and for
/// every query when `astar` is null.
std::vector<std::optional<double>> grid_optima(const PlannerInfo* astar, const PlanningWorld& world,
                                               std::size_t movement_class,
                                               std::span<const PathQuery> queries);

/// Runs every planner of `registry` (with default parameters) over the options' worlds;
/// one entry per planner, in registry order. `astar` (grid A*) must be in the registry
/// for the bound checks (they are skipped without it). Deterministic.
std::vector<PlannerConformance> run_conformance(std::span<const PlannerInfo> registry,
                                                const ConformanceOptions& options);

}  // namespace pathscope::referee
