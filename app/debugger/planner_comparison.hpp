#pragma once

// Comparing planners: every planner of the registry, with its default parameters, run
// on the active query, one row each: status, path, length, expansions, wall time, its
// own cost in its own model and, from the path referee (planner/referee), the cost of the
// path in the world's one model (metres x terrain multiplier), its legality and how near
// it comes to walls. Each row has a colour (its path on the map, layer compared_paths);
// one row may be selected (highlighted on the map). Notes say where a row cannot be
// compared with the baseline (the selected row, else the first exact planner that found
// a path): not found, another radius, a cost in another model, an illegal path. When
// two planners' terrain costs differ by more than kMarkedDifference, explain_difference()
// gives the likely reason (a gap narrower than the other's radius, an inexact planner,
// any-angle moves, another cost model). After an edit, carry_over() keeps the rows whose
// planner says its answer still holds (Planner::result_dependency()) and refresh() runs
// only the others again. No window code.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/debugger/planner_cache.hpp"
#include "planner/core/search.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"
#include "render/search/comparison_painter.hpp"

namespace pathscope::app {

/// Terrain costs that differ by more than this share of the smaller one differ "a lot":
/// explain_difference() gives a reason for them.
inline constexpr double kMarkedDifference = 0.05;

/// One registered planner run on the active query with its default parameters.
struct ComparisonRow {
  std::string name;                           ///< Registry name.
  bool exact = true;                          ///< The registry says its costs are optimal.
  Color color;                                ///< Its path's colour on the map (comparison_color()).
  SearchStatus status = SearchStatus::Idle;   ///< How the search ended.
  double length = 0;                          ///< Metres (Found only).
  double cost = 0;                            ///< Its own reported cost, in its own model (Found only).
  CostModel cost_model = CostModel::Terrain;  ///< The model of `cost` (PlannerInfo::referee.cost).
  std::string cost_units;                     ///< What `cost` measures (PlannerInfo::cost_units).
  bool grid_moves = false;  ///< Its cost counts moves between cell centres (a grid path, 8 directions).
  /// Metres it keeps from walls: its radius parameter (-1 there: the class's radius);
  /// 0 for planners that plan for a point (the grid, quadtree and tactical families).
  double radius = 0;
  std::uint64_t expansions = 0;  ///< Nodes expanded.
  double micros = 0;             ///< Wall time, microseconds.
  std::string message;           ///< Why it is Invalid or NoPath, if known.
  std::vector<Vec2> points;      ///< The path, world metres (Found only).
  /// The referee's cost of the path in the world's one model (metres x terrain multiplier,
  /// cell centres for grid paths); nullopt when not found or not refereed.
  std::optional<double> terrain_cost;
  bool legal = true;      ///< The referee finds no violation at the planner's own clearance.
  std::string violation;  ///< The referee's first violation when not legal.
  /// Metres from the path to the nearest blocked cell or the world's edge, measured up to
  /// the largest radius of the comparison (infinity: never that near).
  double min_clearance = std::numeric_limits<double>::infinity();
  /// A point where the path comes nearer walls than the largest radius of the comparison.
  std::optional<Vec2> narrowest;

  /// True when the row has a path to compare.
  bool found() const { return status == SearchStatus::Found; }
};

/// The colour of the registry's `index`-th planner: distinct for the first 12, then repeated.
Color comparison_color(std::size_t index);

/// The rows of the last comparison, and the row selected in its view.
class PlannerComparison {
 public:
  /// Runs every planner of `registry` on `query` of `world`, in registry order, and
  /// referees each path found. Borrows batch planners of `planners` that already have the
  /// default parameters (it never replaces a cached planner); makes temporary ones for the
  /// rest. Empty when the query's movement class does not exist. Kept for rows(); clears
  /// the selection.
  const std::vector<ComparisonRow>& run(const PlanningWorld& world, const Query& query,
                                        PlannerCache& planners,
                                        std::span<const PlannerInfo> registry = planner_registry());
  /// As run(), but keeps the rows carry_over() found still valid for the same query and
  /// runs only the planners of the others (all of them when the query or the registry
  /// differs from the last run's, or nothing was run). Keeps the selection.
  const std::vector<ComparisonRow>& refresh(const PlanningWorld& world, const Query& query,
                                            PlannerCache& planners,
                                            std::span<const PlannerInfo> registry = planner_registry());
  /// The world changed in place by `change`: marks the rows whose planner's answer may no
  /// longer hold (its result_dependency() says so, or it has none) for refresh().
  void carry_over(const WorldChange& change);
  /// True when there are no rows, or some are marked by carry_over().
  bool needs_run() const;
  /// True when the rows were run on `query` (same start, goal, class and faction).
  bool ran_on(const Query& query) const;
  /// Planner searches run by run() and refresh() since construction.
  std::uint64_t planner_runs() const { return runs_; }
  /// The rows of the last run() since clear().
  const std::vector<ComparisonRow>& rows() const { return rows_; }
  /// Forgets the rows and the selection (the world or the active query changed).
  void clear() {
    rows_.clear();
    dependencies_.clear();
    stale_.clear();
    query_.reset();
    selected_.reset();
    ++version_;
  }
  /// Selects row `row` (nullopt, or a row out of range: none); its path is highlighted.
  void select(std::optional<std::size_t> row);
  /// The selected row, if any.
  std::optional<std::size_t> selected() const { return selected_; }
  /// The row others are compared with: the selected one if it found a path, else the
  /// first exact planner that found one, else the first that found one.
  std::optional<std::size_t> baseline() const;
  /// What makes row `row` not comparable with the baseline, short (the first clause of
  /// a message), "; "-separated: not found ("invalid: jps needs uniform costs"), another
  /// radius ("radius: 0.50 m (astar: a point)"), a cost in another model ("own cost:
  /// threat-weighted travel"), an illegal path; "" when nothing does.
  std::string note(std::size_t row) const;
  /// The cost of row `row` relative to the baseline's, terrain costs: 0.12 = 12 % more;
  /// nullopt when either has no terrain cost.
  std::optional<double> relative_cost(std::size_t row) const;
  /// For every row whose terrain cost differs from the baseline's by more than
  /// kMarkedDifference: one line naming both, the difference and its likely reason.
  std::vector<std::string> differences() const;
  /// The paths to draw (render::paint_compared_paths), one per row, in row order.
  std::vector<render::ComparedPath> paths() const;
  /// Increases whenever rows or the selection change (for views that cache drawing).
  std::uint64_t version() const { return version_; }

 private:
  std::vector<ComparisonRow> rows_;
  std::vector<std::unique_ptr<ResultDependency>> dependencies_;  ///< Per row; nullptr: none.
  std::vector<bool> stale_;                                      ///< Per row: its answer may no longer hold.
  std::optional<Query> query_;                                   ///< The query the rows answer.
  std::optional<std::size_t> selected_;
  std::uint64_t version_ = 0;
  std::uint64_t runs_ = 0;
};

/// Why `a` and `b` (two found rows) differ in terrain cost by more than kMarkedDifference
/// (the cheaper one's path through a gap narrower than the other's radius, an illegal
/// path, an inexact planner, any-angle against grid moves, another cost model); "" when
/// they do not differ that much or either has no terrain cost.
std::string explain_difference(const ComparisonRow& a, const ComparisonRow& b);

}  // namespace pathscope::app
