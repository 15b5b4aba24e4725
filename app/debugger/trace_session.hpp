#pragma once

// The active query's traced search and its replay. The planner runs once per change
// with a SearchTrace attached (in frame-budget slices if asked); every control then is
// a seek of a TraceReplay over that recording: step, step back, seek, reset, play at a
// speed, breakpoints on a node and run to the breakpoint. A step is one expansion or
// one refinement (SearchTrace::step_count).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/debugger/frame_budget.hpp"
#include "app/debugger/planner_cache.hpp"
#include "app/debugger/replan_scheduler.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::app {

/// What the session is asked to trace: the active query and its planner choice.
struct TraceRequest {
  std::optional<std::size_t> query;      ///< Index into the scenario's queries; nullopt: none.
  std::string planner_name;              ///< Registry name asked for ("" without a query).
  const PlannerInfo* planner = nullptr;  ///< The registry entry; nullptr when `error` says why.
  ParamValues params;                    ///< Resolved, in ParamSpec order.
  std::string error;                     ///< Why the query cannot be planned ("" when it can).
};

/// Records the active query's search and replays it.
class TraceSession {
 public:
  /// Steps per second when playing, by default.
  static constexpr double kDefaultSpeed = 200;
  /// Limits of set_speed(), steps per second.
  static constexpr double kMinSpeed = 1;
  static constexpr double kMaxSpeed = 1e6;

  TraceSession();
  ~TraceSession();
  TraceSession(const TraceSession&) = delete;
  TraceSession& operator=(const TraceSession&) = delete;

  // ---- Recording -------------------------------------------------------------------

  /// True when the session already holds (or is recording) `request` on the same
  /// problem of `scenario` in the world of `stamp` (ReplanScheduler::stamp()).
  bool shows(const TraceRequest& request, const Scenario& scenario, std::uint64_t stamp) const;
  /// Records `request` in `world` (its query must exist there) for `stamp`, with planners
  /// from `planners` (role Active). With `budget_ms` > 0 the search runs in slices and
  /// continue_search() goes on with it. The replay then shows the end of the new trace,
  /// or keeps its step if the user was stepping (not at the end) and that step exists.
  void record(const PlanningWorld& world, PlannerCache& planners, TraceRequest request, std::uint64_t stamp,
              double budget_ms);
  /// Continues a search recorded in slices; returns true when it ended in this call.
  bool continue_search(const FrameBudget& budget);
  /// Forgets the planners (their cache was cleared), the replay and the dependency,
  /// which may borrow them or their world.
  void release_planner();
  /// Back to no query (no document): nothing recorded, not playing.
  void clear();
  /// True when the finished trace is valid in the world of `stamp`.
  bool valid_at(std::uint64_t stamp) const { return has_result_ && !searching_ && stamp_ == stamp; }
  /// Keeps the finished trace valid in the world of `stamp` (its answer survived a change).
  void restamp(std::uint64_t stamp) { stamp_ = stamp; }
  /// What the finished search depends on (nullptr while none).
  const AnswerDependency& dependency() const { return dependency_; }
  /// The active query's row for the per-query table, marked `traced` (Idle while
  /// searching).
  QueryOutcome outcome() const;
  /// Traced searches started so far.
  std::uint64_t queries_planned() const { return queries_planned_; }

  // ---- Controls: all of them seek the recorded trace --------------------------------

  /// Moves `n` steps forward (clamped to the end) and pauses.
  void step(std::uint64_t n);
  /// Moves `n` steps back (clamped to 0) and pauses.
  void step_back(std::uint64_t n);
  /// Shows the state after `k` steps (clamped to total_steps()) and pauses.
  void seek(std::uint64_t k);
  /// Back to step 0 (only the start node open) and pauses.
  void reset();
  /// Starts or stops playing. Starting at the end rewinds to step 0 first.
  void play(bool on);
  /// Replay speed in steps per second, clamped to [kMinSpeed, kMaxSpeed].
  void set_speed(double steps_per_second);
  /// Advances the replay while playing by speed * dt steps, carrying the fraction
  /// to the next call; stops at the end or at the breakpoint's step.
  void advance(double dt_seconds);
  /// Breaks when `node` (of the active planner) is expanded; nullopt clears. A node the
  /// planner does not have is no breakpoint, and recording another planner clears it.
  void set_breakpoint(std::optional<NodeId> node);
  /// Seeks to the breakpoint's step (its closed_at), or to the end when the node is never
  /// expanded; pauses. Returns true when the replay stopped at the breakpoint.
  bool run_to_breakpoint();
  /// Steps of one "step N" (at least 1).
  void set_step_size(std::uint64_t n) { step_size_ = n > 0 ? n : 1; }

  // ---- Views ------------------------------------------------------------------------

  /// Steps shown (0 .. total_steps()).
  std::uint64_t step() const;
  /// Steps of the recorded search (0 while none).
  std::uint64_t total_steps() const;
  /// True while advance() moves the replay.
  bool playing() const { return playing_; }
  /// True while the search runs in slices (nothing to replay until it ends).
  bool searching() const { return searching_ != nullptr; }
  /// Steps per second.
  double speed() const { return speed_; }
  /// Steps of one "step N".
  std::uint64_t step_size() const { return step_size_; }
  /// The breakpoint's node, if any.
  std::optional<NodeId> breakpoint() const { return breakpoint_; }
  /// Step at which the breakpoint's node is first expanded (its closed_at), or nullopt
  /// when it is not set or never expanded in the current trace.
  std::optional<std::uint64_t> breakpoint_step() const { return breakpoint_step_; }
  /// The request last recorded.
  const TraceRequest& request() const { return request_; }
  /// The active query (index), if any.
  std::optional<std::size_t> active_query() const { return request_.query; }
  /// Movement class of the active query (0 when none or out of range).
  std::size_t movement_class() const { return class_; }
  /// The planner that made the finished trace (for node positions), or nullptr.
  const Planner* planner() const { return planner_; }
  /// The grid the planner's nodes are the cells of, if it declares one (nullopt before a
  /// trace finished and for graph planners).
  const std::optional<NodeLattice>& lattice() const { return lattice_; }
  /// The finished result (stats, path), or nullptr.
  const PathResult* result() const { return has_result_ ? &result_ : nullptr; }
  /// Where the search stands at step(): Running before the last recorded step, the
  /// result's status at it (also when nothing was expanded); Idle while there is no
  /// finished result (nothing recorded, or still searching).
  SearchStatus status_at_step() const;
  /// Wall time of the traced search, microseconds.
  double micros() const { return micros_; }
  /// Why the active query could not be planned ("" when it was).
  const std::string& error() const { return request_.error; }
  /// The recorded search, or nullptr until it ended.
  const SearchTrace* trace() const { return has_result_ ? trace_.get() : nullptr; }
  /// The replay at step(), or nullptr.
  const TraceReplay* replay() const { return replay_.get(); }
  /// Increases every time a trace is recorded (never reset).
  std::uint64_t trace_version() const { return trace_version_; }
  /// True when the trace has events of a backward side (bidirectional search).
  bool two_sided() const { return two_sided_; }
  /// Open nodes at step() sorted by f, then h, then id (cached per step).
  const std::vector<TraceNode>& open_nodes() const;

 private:
  bool run_slices(const FrameBudget& budget);
  void finish();
  void settle();
  void seek_quiet(std::uint64_t k);
  void find_breakpoint_step();

  TraceRequest request_;
  Query traced_query_;  // the active query as traced
  std::size_t class_ = 0;
  std::uint64_t stamp_ = 0;  // the scheduler stamp the trace is valid for
  AnswerDependency dependency_;
  std::uint64_t queries_planned_ = 0;

  std::unique_ptr<SearchTrace> trace_;
  std::unique_ptr<TraceReplay> replay_;
  std::uint64_t trace_version_ = 0;
  bool two_sided_ = false;
  PathResult result_;
  bool has_result_ = false;
  const Planner* planner_ = nullptr;  // borrowed from the cache
  std::optional<NodeLattice> lattice_;
  Planner* searching_ = nullptr;              // the search while it runs in slices (borrowed)
  std::optional<std::uint64_t> resume_step_;  // step to show again after a re-plan
  double micros_ = 0;

  bool playing_ = false;
  double speed_ = kDefaultSpeed;
  double carry_ = 0;
  std::uint64_t step_size_ = 100;
  std::optional<NodeId> breakpoint_;
  std::optional<std::uint64_t> breakpoint_step_;

  mutable std::vector<TraceNode> open_cache_;
  mutable std::uint64_t open_cache_step_ = 0;
  mutable std::uint64_t open_cache_version_ = 0;  // 0 = empty
};

}  // namespace pathscope::app
