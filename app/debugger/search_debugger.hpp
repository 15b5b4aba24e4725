#pragma once

// The search debugger's logic (no window code): keeps a PlanningWorld in step with the
// open document, plans every query of the scenario, records the active query's search
// as a SearchTrace and scrubs it with a TraceReplay (step, step back, seek, play at a
// speed, run to a breakpoint). It also describes nodes for tooltips and compares every
// registered planner on the active query. The panel (debugger_panel.hpp) and
// `pathscope render --step` drive it; both draw through render::TracePainter.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/core/search.hpp"
#include "planner/core/search_trace.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"
#include "render/map/map_images.hpp"
#include "render/search/trace_painter.hpp"

namespace pathscope::app {

/// One query of the scenario planned with its own planner and parameters.
struct QueryOutcome {
  std::string planner;                       ///< Registry name used.
  SearchStatus status = SearchStatus::Idle;  ///< Invalid also when the planner could not be set up.
  double length = 0;                         ///< Metres (Found only).
  double cost = 0;                           ///< Terrain-weighted metres (Found only).
  std::uint64_t expansions = 0;
  std::uint64_t pushes = 0;
  double micros = 0;    ///< Wall time of start + steps, microseconds.
  bool traced = false;  ///< Taken from the active query's traced run (slower).
  std::string message;  ///< Why it is Invalid or NoPath, if known.
};

/// One registered planner run on the active query with its default parameters.
struct ComparisonRow {
  std::string name;   ///< Registry name.
  bool exact = true;  ///< The registry says its costs are optimal.
  SearchStatus status = SearchStatus::Idle;
  double length = 0;  ///< Metres (Found only).
  double cost = 0;    ///< Terrain-weighted metres (Found only).
  std::uint64_t expansions = 0;
  double micros = 0;  ///< Wall time, microseconds.
  std::string message;
};

/// Plans the document's queries and replays the active one. Call sync() every frame
/// (cheap when nothing changed), then the controls, then paint().
class SearchDebugger {
 public:
  /// Expansions per second when playing, by default.
  static constexpr double kDefaultSpeed = 200;
  /// Limits of set_speed(), expansions per second.
  static constexpr double kMinSpeed = 1;
  static constexpr double kMaxSpeed = 1e6;

  SearchDebugger();
  ~SearchDebugger();
  SearchDebugger(const SearchDebugger&) = delete;
  SearchDebugger& operator=(const SearchDebugger&) = delete;

  // ---- Keeping up with the editor ------------------------------------------------

  /// Re-plans when the document revision, doc_serial, the active query or the planner
  /// choice changed: rebuilds the world (document changes only), plans every query
  /// (world changes only) and records the active query's search. The replay then shows
  /// the end of the new trace, or keeps its step number if the user was stepping
  /// (replay not at the end) and that step still exists.
  void sync(const EditorState& state);

  /// Plans the active query with `name` (a registry name) and `params` (in ParamSpec
  /// order; missing values take defaults, values are clamped to the spec's range)
  /// instead of the query's own planner. Applied at the next sync().
  void set_planner_override(const std::string& name, ParamValues params);
  /// Goes back to the query's own planner and parameters (at the next sync()).
  void clear_planner_override();
  /// The override's planner name, "" when the query's own planner is used.
  const std::string& planner_override() const { return override_name_; }

  // ---- Debugger controls: all of them seek the recorded trace ----------------------

  /// Moves `n` expansions forward (clamped to the end) and pauses.
  void step(std::uint64_t n);
  /// Moves `n` expansions back (clamped to 0) and pauses.
  void step_back(std::uint64_t n);
  /// Shows the state after `k` expansions (clamped to total_steps()) and pauses.
  void seek(std::uint64_t k);
  /// Back to step 0 (only the start node open) and pauses.
  void reset();
  /// Starts or stops playing. Starting at the end rewinds to step 0 first.
  void play(bool on);
  /// Replay speed in expansions per second, clamped to [kMinSpeed, kMaxSpeed].
  void set_speed(double expansions_per_second);
  /// Advances the replay while playing by speed * dt expansions, carrying the fraction
  /// to the next call; stops at the end or at the breakpoint's step.
  void update(double dt_seconds);
  /// Breaks when `node` is expanded (nullopt clears).
  void set_breakpoint(std::optional<NodeId> node);
  /// Seeks to the breakpoint's step (its closed_at), or to the end when the node is never
  /// expanded; pauses. Returns true when the replay stopped at the breakpoint.
  bool run_to_breakpoint();

  /// Expansions shown (0 .. total_steps()).
  std::uint64_t step() const;
  /// Expansions of the recorded search.
  std::uint64_t total_steps() const;
  /// True while update() advances the replay.
  bool playing() const { return playing_; }
  /// True while the active query's search is still running in frame-sized slices
  /// (update() continues it; views show the map without the search until it ends).
  bool searching() const { return searching_ != nullptr; }
  /// True while any planning of the last change is unfinished: the active search or
  /// other queries waiting for their slices (their rows say "idle" until then).
  bool busy() const { return searching_ != nullptr || pending_next_ < pending_.size(); }
  /// Queries of the last change not planned yet.
  std::size_t pending_queries() const { return pending_.size() - pending_next_; }
  /// Milliseconds of searching per sync()/update() call; 0 (the default) searches to the
  /// end at once. The window sets a budget so that edits on big maps stay responsive.
  void set_frame_budget_ms(double ms) { frame_budget_ms_ = ms > 0 ? ms : 0; }
  /// Expansions per second.
  double speed() const { return speed_; }
  /// Expansions of one "step N" (the panel's and the shortcuts' N, at least 1).
  std::uint64_t step_size() const { return step_size_; }
  void set_step_size(std::uint64_t n) { step_size_ = n > 0 ? n : 1; }
  /// The breakpoint's node, if any.
  std::optional<NodeId> breakpoint() const { return breakpoint_; }
  /// Step at which the breakpoint's node is first expanded (its closed_at), or nullopt
  /// when it is not set or never expanded in the current trace.
  std::optional<std::uint64_t> breakpoint_step() const { return breakpoint_step_; }

  // ---- Views ----------------------------------------------------------------------

  /// The world of the document (nullptr before the first sync with a document).
  const PlanningWorld* world() const { return world_.get(); }
  /// The active query (clamped index), or nullopt when the scenario has none.
  std::optional<std::size_t> active_query() const { return active_; }
  /// Movement class of the active query (0 when none): the one the map is drawn for.
  std::size_t movement_class() const;
  /// Planner name and parameters used for the active query ("" when none).
  const std::string& active_planner() const { return active_name_; }
  const ParamValues& active_params() const { return active_params_; }
  /// The planner object of the active query (for node positions), or nullptr.
  const Planner* planner() const { return active_planner_; }
  /// The finished result of the active query (stats, path), or nullptr.
  const PathResult* result() const { return has_result_ ? &result_ : nullptr; }
  /// Wall time of the traced search of the active query, microseconds.
  double active_micros() const { return active_micros_; }
  /// Why the active query could not be planned ("" when it was).
  const std::string& error() const { return error_; }
  /// The recorded search of the active query, or nullptr.
  const SearchTrace* trace() const { return has_result_ ? trace_.get() : nullptr; }
  /// The replay at step(), or nullptr.
  const TraceReplay* replay() const { return replay_.get(); }
  /// Increases every time the trace is recorded again.
  std::uint64_t trace_version() const { return trace_version_; }
  /// Open nodes at step() sorted by f, then h, then id (cached per step).
  const std::vector<TraceNode>& open_nodes() const;
  /// Results of every query with its own planner, in scenario order. A query is planned
  /// again only when the world changed where planners look or the query itself changed;
  /// the active query's row comes from its traced run, marked `traced`.
  const std::vector<QueryOutcome>& query_results() const { return outcomes_; }
  /// Milliseconds of computing the last finished re-plan took (world update, every
  /// query that had to be planned again, the traced search), summed over its slices.
  double last_plan_ms() const { return last_plan_ms_; }
  /// Milliseconds of that spent building the world (0 when it was kept).
  double last_world_ms() const { return last_world_ms_; }
  /// Planner objects created so far (the cache keeps one per planner and class).
  std::uint64_t planners_created() const { return planners_created_; }
  /// Queries planned so far, traced or not (answers kept across edits are not counted:
  /// an edit that changes no cell a query's search expanded keeps its answer).
  std::uint64_t queries_planned() const { return queries_planned_; }

  // ---- Nodes ----------------------------------------------------------------------

  /// The node under a world point: for grid planners the cell (passable or not);
  /// otherwise the nearest node touched by the search within one cell.
  std::optional<NodeId> node_at(Vec2 world) const;
  /// World position of a node of the active planner.
  std::optional<Vec2> node_position(NodeId node) const;
  /// Short name: "cell (x, y)" for grid planners, "node N" otherwise.
  std::string node_label(NodeId node) const;
  /// Several lines: cell and world coordinates, terrain, cost multiplier for the active
  /// query's class, region, and, if the search touched it by step(): g, h, f, parent,
  /// opened at / closed at step (each side of a bidirectional search).
  std::string describe_node(NodeId node) const;

  // ---- Comparison -----------------------------------------------------------------

  /// Runs every planner of planner_registry() with default parameters on the active
  /// query; one row per registry entry, in registry order. Kept for last_comparison().
  std::vector<ComparisonRow> compare_planners();
  /// The rows of the last compare_planners() since the world or active query changed.
  const std::vector<ComparisonRow>& last_comparison() const { return comparison_; }

  // ---- Drawing --------------------------------------------------------------------

  /// Appends the map in `layers` (render::paint_world for movement_class(), markers of
  /// the active query only). Its raster images are kept between calls and repainted
  /// only where the world changed, so an edit costs the cells it touched.
  void paint_map(const render::LayerSet& layers, render::DrawList& out);
  /// Pixels of map images repainted so far (see render::MapImages).
  std::uint64_t map_pixels_painted() const { return map_images_.pixels_painted(); }

  /// Appends the search overlay at step() (render::TracePainter) to `out`; what it
  /// draws changes only with trace_version(), step() and `layers`. The map is drawn separately
  /// with render::paint_world(world(), movement_class(), ...). `pixels_per_metre` (the
  /// camera zoom) matters only for non-grid planners: 0 = draw their node sets as images.
  void paint(const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre = 0);

 private:
  using Clock = std::chrono::steady_clock;

  // The active query's traced search has planners of its own, so that the batch of other
  // queries never disturbs the nodes the replay shows.
  enum class Role { Active, Batch };
  struct CachedPlanner {
    std::string name;
    std::size_t movement_class = 0;
    ParamValues params;
    Role role = Role::Batch;
    std::unique_ptr<Planner> planner;
  };
  // The grid cells a finished search expanded. While an edit changes none of them (nor
  // their neighbours, nor the grid's smallest multiplier) the search would run the same
  // (Planner::expanded_cells), so its answer is kept.
  struct Footprint {
    std::vector<std::uint64_t> bits;  // one bit per cell; empty: unknown
    std::size_t movement_class = 0;
    double min_multiplier = 0;
  };
  // What each row of outcomes_ was planned from.
  struct Planned {
    Query query;
    std::uint64_t stamp = 0;  // the world_stamp_ it is valid for
    bool done = false;
    Footprint footprint;
  };

  Planner* planner_for(const PlannerInfo& info, std::size_t movement_class, const ParamValues& params, Role role,
                       bool may_replace);
  void drop_planners();
  Footprint footprint_of(const Planner& planner, std::size_t movement_class) const;
  bool unaffected(const Footprint& footprint, const WorldChange& change) const;
  void carry_over(const WorldChange& change);
  void schedule_queries();
  Planner* start_query(std::size_t index, QueryOutcome& outcome);
  bool continue_batch(Clock::time_point frame_start);
  void note_plan_time(Clock::time_point t0);
  void record_active();
  bool continue_search(Clock::time_point frame_start);
  void finish_active();
  void fill_active_row();
  void after_search();
  void complete_search();
  void seek_quiet(std::uint64_t k);
  void find_breakpoint_step();
  bool grid_nodes() const;
  render::TraceGeometry geometry() const;

  // What the current state was built from.
  bool synced_ = false;
  std::uint64_t revision_ = 0;
  std::uint64_t doc_serial_ = 0;
  std::optional<std::size_t> active_;
  std::string active_name_;
  ParamValues active_params_;
  std::size_t active_class_ = 0;

  std::string override_name_;
  ParamValues override_params_;

  // The cache borrows world_, so it is declared after it and cleared before it changes.
  std::unique_ptr<PlanningWorld> world_;
  std::vector<CachedPlanner> planners_;
  std::uint64_t planners_created_ = 0;
  std::uint64_t queries_planned_ = 0;
  Planner* active_planner_ = nullptr;
  bool active_is_grid_ = false;

  std::uint64_t world_stamp_ = 0;   // changes whenever planners may answer differently
  std::uint64_t traced_stamp_ = 0;  // the world_stamp_ the recorded trace is valid for
  Footprint traced_footprint_;
  Query traced_query_;              // the active query as traced

  std::vector<QueryOutcome> outcomes_;
  std::vector<Planned> planned_;
  std::vector<std::size_t> pending_;  // queries to plan, in order
  std::size_t pending_next_ = 0;
  Planner* batch_planner_ = nullptr;  // the pending query in progress
  double batch_micros_ = 0;
  double plan_ms_ = 0;  // computing time of the re-plan in progress
  std::vector<ComparisonRow> comparison_;

  std::unique_ptr<SearchTrace> trace_;
  std::unique_ptr<TraceReplay> replay_;
  std::uint64_t trace_version_ = 0;
  bool two_sided_ = false;
  PathResult result_;
  bool has_result_ = false;
  Planner* searching_ = nullptr;               // the active search while it runs in slices
  double frame_budget_ms_ = 0;
  std::optional<std::uint64_t> resume_step_;   // step to show again after a re-plan
  static constexpr std::uint64_t kSliceExpansions = 4096;
  double active_micros_ = 0;
  std::string error_;

  bool playing_ = false;
  double speed_ = kDefaultSpeed;
  double carry_ = 0;
  std::uint64_t step_size_ = 100;
  std::optional<NodeId> breakpoint_;
  std::optional<std::uint64_t> breakpoint_step_;

  double last_plan_ms_ = 0;
  double last_world_ms_ = 0;

  mutable std::vector<TraceNode> open_cache_;
  mutable std::uint64_t open_cache_step_ = 0;
  mutable std::uint64_t open_cache_version_ = 0;  // 0 = empty

  render::TracePainter painter_;
  render::MapImages map_images_;
};

}  // namespace pathscope::app
