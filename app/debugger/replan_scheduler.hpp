#pragma once

// Which of the scenario's queries must be planned again after a change, and planning
// them in frame-budget slices. Each finished answer is kept with what it depends on
// (dependency_of: the planner's ResultDependency); after a world change, still_valid() decides
// whether the answer holds. Those two functions are the whole validity rule. The active
// query's row is filled from the traced run (TraceSession) instead.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/debugger/frame_budget.hpp"
#include "app/debugger/planner_cache.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/core/world_change.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// One query of the scenario planned with its own planner and parameters.
struct QueryOutcome {
  std::string planner;                       ///< Registry name used.
  SearchStatus status = SearchStatus::Idle;  ///< Invalid also when the planner could not be set up.
  double length = 0;                         ///< Metres (Found only).
  double cost = 0;                           ///< Terrain-weighted metres (Found only).
  std::uint64_t expansions = 0;              ///< Nodes expanded.
  std::uint64_t pushes = 0;                  ///< Open-list pushes.
  double micros = 0;                         ///< Wall time of start + steps, microseconds.
  bool traced = false;                       ///< Taken from the active query's traced run (slower).
  std::string message;                       ///< Why it is Invalid or NoPath, if known.
  std::vector<Vec2> points;                  ///< The path's world polyline, metres (Found only).
};

/// What a finished answer depends on, shared by the scheduler's row and the trace
/// session; nullptr: unknown, so any change may alter the answer. It may borrow the
/// world it was taken in: ask it only about changes of that world.
using AnswerDependency = std::shared_ptr<const ResultDependency>;

/// The fields of a query that decide its answer (its name does not).
bool same_problem(const Query& a, const Query& b);

/// The planner and parameters for query `index` of `scenario` (the index must exist): the
/// query's own, or `override_name` with `override_params` (values in ParamSpec order, in
/// range) when given; the movement class is checked too. Errors name the field, e.g.
/// queries[2].planner: unknown planner "x" (known: ...).
Result<PlannerChoice> choose_query_planner(const Scenario& scenario, std::size_t index,
                                           std::string_view override_name = {},
                                           const ParamValues& override_params = {},
                                           std::span<const PlannerInfo> registry = planner_registry());

/// Plans the queries a change may have affected, in scenario order, in slices.
class ReplanScheduler {
 public:
  /// What `planner`'s finished search depends on: nullptr unless it Found a path and
  /// declares a Planner::result_dependency() (grid planners: the answer holds while a
  /// change touches no expanded cell, nor the ring of cells whose moves changed, and
  /// leaves the grid's smallest multiplier alone).
  static AnswerDependency dependency_of(const Planner& planner);
  /// THE decision whether an answer stays valid after `change` (the world already
  /// updated in place): never after a rebuild or without a dependency.
  static bool still_valid(const AnswerDependency& dependency, const WorldChange& change);

  /// Identifies the world answers are valid for; changes whenever planners may answer
  /// differently.
  std::uint64_t stamp() const { return stamp_; }
  /// Another world object: no answer is kept.
  void world_replaced();
  /// The world was updated in place by `change`: answers it cannot alter stay valid in
  /// the new stamp. Returns the stamp before the change.
  std::uint64_t carry_over(const WorldChange& change);
  /// Lists `scenario`'s queries again: answers planned for the same problem in the
  /// current stamp are kept (matched by value, so adding or deleting a query elsewhere
  /// plans nothing again); the others wait for run(). `traced`: the query whose row
  /// comes from take_traced_row() instead.
  void schedule(const Scenario& scenario, std::optional<std::size_t> traced);
  /// Plans waiting queries, one at a time, until none is left or `budget` is spent (a
  /// query may be left half-planned and continued at the next call). Returns true when
  /// none is left.
  bool run(const PlanningWorld& world, PlannerCache& planners, const FrameBudget& budget);
  /// Sets row `index` from the traced run; once that run ended (`final`), the row is
  /// kept like the others, with the run's `dependency`.
  void take_traced_row(std::size_t index, QueryOutcome row, bool final, AnswerDependency dependency);
  /// Forgets the planner in progress (the planner cache was cleared); the query it
  /// planned starts again at the next run().
  void release_planner() { batch_planner_ = nullptr; }
  /// Forgets every row (no document).
  void clear();

  /// Rows of every query, in scenario order ("idle" while waiting).
  const std::vector<QueryOutcome>& outcomes() const { return outcomes_; }
  /// Increases whenever outcomes() may have changed (for caches of what is drawn from it).
  std::uint64_t version() const { return version_; }
  /// True while queries wait for run().
  bool busy() const { return next_ < pending_.size(); }
  /// Queries waiting or in progress.
  std::size_t pending() const { return pending_.size() - next_; }
  /// Queries whose planning started in run() so far.
  std::uint64_t queries_planned() const { return queries_planned_; }

 private:
  // What each row of outcomes_ was planned from.
  struct Planned {
    Query query;
    std::uint64_t stamp = 0;  // the stamp_ it is valid for
    bool done = false;
    AnswerDependency dependency;
  };

  Planner* start_query(const PlanningWorld& world, PlannerCache& planners, std::size_t index,
                       QueryOutcome& outcome);

  std::uint64_t stamp_ = 0;
  std::vector<QueryOutcome> outcomes_;
  std::vector<Planned> planned_;
  std::vector<std::size_t> pending_;  // queries to plan, in order
  std::size_t next_ = 0;              // first of pending_ not finished
  Planner* batch_planner_ = nullptr;  // the pending query in progress (borrowed from the cache)
  double batch_micros_ = 0;
  std::uint64_t queries_planned_ = 0;
  std::uint64_t version_ = 0;
};

}  // namespace pathscope::app
