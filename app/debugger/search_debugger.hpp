#pragma once

// The search debugger (no window code): one object that the panel (debugger_panel.hpp),
// the editor and `pathscope render --step` drive. It wires the parts, each in its own
// file: WorldSync keeps a PlanningWorld in step with the document, ReplanScheduler
// plans the queries a change may have affected, TraceSession records and replays the
// active query's search, NodeInspector describes nodes, PlannerComparison runs every
// planner on the active query and DebuggerPainter turns it all into draw lists. Here
// live the planner choice for the active query and the order of a sync() or update().

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "app/debugger/debugger_painter.hpp"
#include "app/debugger/node_inspection.hpp"
#include "app/debugger/planner_comparison.hpp"
#include "app/debugger/replan_scheduler.hpp"
#include "app/debugger/trace_session.hpp"
#include "app/debugger/world_sync.hpp"
#include "app/editor/editor_state.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/core/search_trace.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::app {

/// Plans the document's queries and replays the active one. Call sync() every frame
/// (cheap when nothing changed), then the controls and update(), then paint().
class SearchDebugger {
 public:
  /// Steps per second when playing, by default.
  static constexpr double kDefaultSpeed = TraceSession::kDefaultSpeed;
  /// Limits of set_speed(), steps per second.
  static constexpr double kMinSpeed = TraceSession::kMinSpeed;
  static constexpr double kMaxSpeed = TraceSession::kMaxSpeed;

  /// A debugger choosing planners from `registry` (which must outlive it).
  explicit SearchDebugger(std::span<const PlannerInfo> registry = planner_registry()) : registry_(registry) {}
  SearchDebugger(const SearchDebugger&) = delete;
  SearchDebugger& operator=(const SearchDebugger&) = delete;

  // ---- Keeping up with the editor ------------------------------------------------

  /// Re-plans when the document revision, doc_serial, the active query or the planner
  /// choice changed: updates the world (document changes only), plans the queries whose
  /// answers may differ and records the active query's search (TraceSession::record).
  /// Another document (a doc_serial other than the last sync's) drops the planner
  /// override first: it was chosen for the document before.
  void sync(const EditorState& state);
  /// Continues unfinished planning within the frame budget, then advances the replay
  /// while playing by speed * dt steps (TraceSession::advance).
  void update(double dt_seconds);
  /// Plans the active query with `name` (a registry name) and `params` (in ParamSpec
  /// order; missing values take defaults, values are clamped to the spec's range, an
  /// enumeration's rounded to one of its choices)
  /// instead of the query's own planner. Applied at the next sync(); kept while the
  /// same document stays open.
  void set_planner_override(const std::string& name, ParamValues params);
  /// Goes back to the query's own planner and parameters (at the next sync()).
  void clear_planner_override();
  /// The override's planner name, "" when the query's own planner is used.
  const std::string& planner_override() const { return override_name_; }
  /// What the override does, for a warning beside the planner choice: "planner: dijkstra
  /// (override; query asks astar)", or "planner: astar, parameters overridden (query asks
  /// its own)" when only the parameters differ; "" without an override.
  std::string override_note() const;
  /// Milliseconds of searching per sync()/update() call; 0 (the default) searches to the
  /// end at once. The window sets a budget so that edits on big maps stay responsive.
  void set_frame_budget_ms(double ms) { frame_budget_ms_ = ms > 0 ? ms : 0; }
  /// True while any planning of the last change is unfinished: the active search or
  /// other queries waiting for their slices (their rows say "idle" until then).
  bool busy() const { return session_.searching() || scheduler_.busy(); }
  /// True while the active query's search runs in slices (views show the map without it).
  bool searching() const { return session_.searching(); }
  /// Queries of the last change not planned yet.
  std::size_t pending_queries() const { return scheduler_.pending(); }

  // ---- The parts ------------------------------------------------------------------

  /// The active query's recording and replay (controls, trace, result).
  const TraceSession& session() const { return session_; }
  /// The other queries' answers.
  const ReplanScheduler& scheduler() const { return scheduler_; }
  /// Node lookup and descriptions for the active search (borrows this debugger).
  NodeInspector inspector() const { return NodeInspector(world(), session_); }

  // ---- Debugger controls (TraceSession) -----------------------------------------------

  void step(std::uint64_t n) { session_.step(n); }                    ///< See TraceSession::step.
  void step_back(std::uint64_t n) { session_.step_back(n); }          ///< See TraceSession::step_back.
  void seek(std::uint64_t k) { session_.seek(k); }                    ///< See TraceSession::seek.
  void reset() { session_.reset(); }                                  ///< See TraceSession::reset.
  void play(bool on) { session_.play(on); }                           ///< See TraceSession::play.
  void set_speed(double eps) { session_.set_speed(eps); }             ///< See TraceSession::set_speed.
  void set_step_size(std::uint64_t n) { session_.set_step_size(n); }  ///< See TraceSession.
  /// Breaks when `node` is expanded (nullopt clears).
  void set_breakpoint(std::optional<NodeId> node) { session_.set_breakpoint(node); }
  /// See TraceSession::run_to_breakpoint.
  bool run_to_breakpoint() { return session_.run_to_breakpoint(); }

  std::uint64_t step() const { return session_.step(); }                ///< Steps shown.
  std::uint64_t total_steps() const { return session_.total_steps(); }  ///< Steps recorded.
  bool playing() const { return session_.playing(); }                   ///< See TraceSession::playing.
  double speed() const { return session_.speed(); }                     ///< Steps per second.
  std::uint64_t step_size() const { return session_.step_size(); }      ///< Steps of "step N".
  /// Arms (or disarms) picking the breakpoint's node with the next click on the map.
  void arm_breakpoint_pick(bool armed) { pick_armed_ = armed; }
  /// True while the next click on the map picks the breakpoint.
  bool breakpoint_pick_armed() const { return pick_armed_; }
  /// Sets the breakpoint at the node under `world` (point nodes within `tolerance`
  /// metres; none there clears it) and disarms picking.
  void pick_breakpoint(Vec2 world, double tolerance) {
    pick_armed_ = false;
    set_breakpoint(node_at(world, tolerance));
  }
  /// The breakpoint's node, if any.
  std::optional<NodeId> breakpoint() const { return session_.breakpoint(); }
  /// See TraceSession::breakpoint_step.
  std::optional<std::uint64_t> breakpoint_step() const { return session_.breakpoint_step(); }

  // ---- Views ----------------------------------------------------------------------

  /// The world of the document (nullptr before the first sync with a document).
  const PlanningWorld* world() const { return world_sync_.world(); }
  /// The active query (clamped index), or nullopt when the scenario has none.
  std::optional<std::size_t> active_query() const { return session_.active_query(); }
  /// Movement class of the active query (0 when none): the one the map is drawn for.
  std::size_t movement_class() const { return session_.movement_class(); }
  /// Planner name and parameters used for the active query ("" when none).
  const std::string& active_planner() const { return session_.request().planner_name; }
  const ParamValues& active_params() const { return session_.request().params; }
  /// The planner object of the active query (for node positions), or nullptr.
  const Planner* planner() const { return session_.planner(); }
  /// The finished result of the active query (stats, path), or nullptr.
  const PathResult* result() const { return session_.result(); }
  /// See TraceSession::status_at_step.
  SearchStatus status_at_step() const { return session_.status_at_step(); }
  /// The search's status as the replay shows it: "running, step K of N" before the
  /// last step, the final status ("found", "no_path", ...) at it, "searching..." while
  /// the search runs in slices and "" with nothing recorded.
  std::string step_status() const;
  /// Wall time of the traced search of the active query, microseconds.
  double active_micros() const { return session_.micros(); }
  /// Why the active query could not be planned ("" when it was), or why the document's
  /// world could not be updated (WorldSyncResult::status).
  const std::string& error() const { return world_error_.empty() ? session_.error() : world_error_; }
  /// The recorded search of the active query, or nullptr.
  const SearchTrace* trace() const { return session_.trace(); }
  /// The replay at step(), or nullptr.
  const TraceReplay* replay() const { return session_.replay(); }
  /// Increases every time the trace is recorded again.
  std::uint64_t trace_version() const { return session_.trace_version(); }
  /// Open nodes at step() sorted by f, then h, then id (cached per step).
  const std::vector<TraceNode>& open_nodes() const { return session_.open_nodes(); }
  /// Results of every query with its own planner, in scenario order. A query is planned
  /// again only when the world changed where its search looked or the query itself
  /// changed; the active query's row comes from its traced run, marked `traced`.
  const std::vector<QueryOutcome>& query_results() const { return scheduler_.outcomes(); }
  /// Milliseconds of computing the last finished re-plan took (world update, every
  /// query that had to be planned again, the traced search), summed over its slices.
  double last_plan_ms() const { return last_plan_ms_; }
  /// Milliseconds of that spent updating or building the world (0 when it was kept).
  double last_world_ms() const { return last_world_ms_; }
  /// Planner objects created so far (the cache keeps one per planner, class and role).
  std::uint64_t planners_created() const { return world_sync_.planners().created(); }
  /// Queries planned so far, traced or not (answers kept across edits are not counted).
  std::uint64_t queries_planned() const { return scheduler_.queries_planned() + session_.queries_planned(); }

  // ---- Nodes (NodeInspector) --------------------------------------------------------

  /// See NodeInspector::node_at; `tolerance` (metres) for point nodes, by default one cell.
  std::optional<NodeId> node_at(Vec2 world, double tolerance = -1) const;
  /// See NodeInspector::node_geometry.
  std::optional<NodeGeometry> node_geometry(NodeId node) const { return inspector().node_geometry(node); }
  /// See NodeInspector::node_position.
  std::optional<Vec2> node_position(NodeId node) const { return inspector().node_position(node); }
  /// See NodeInspector::node_label.
  std::string node_label(NodeId node) const { return inspector().node_label(node); }
  /// See NodeInspector::describe.
  std::string describe_node(NodeId node) const { return inspector().describe(node); }

  // ---- Comparison (PlannerComparison) -----------------------------------------------

  /// Finishes unfinished planning, then runs every planner of planner_registry() with
  /// default parameters on the active query; one row per registry entry, in order.
  std::vector<ComparisonRow> compare_planners();
  /// As compare_planners(), but runs again only the planners whose answers the edits
  /// since the last comparison may have changed (PlannerComparison::refresh()).
  const std::vector<ComparisonRow>& refresh_comparison();
  /// The rows of the last compare_planners() since the world or active query changed.
  const std::vector<ComparisonRow>& last_comparison() const { return comparison_.rows(); }
  /// The last comparison: its rows, selection, notes and reasons.
  const PlannerComparison& comparison() const { return comparison_; }
  /// Selects row `row` of the last comparison (nullopt: none); its path is highlighted.
  void select_compared(std::optional<std::size_t> row) { comparison_.select(row); }
  /// Appends every compared planner's path in its colour, the selected one highlighted
  /// (render::paint_compared_paths, layer ComparedPaths); nothing before a comparison.
  void paint_comparison(const render::LayerSet& layers, render::DrawList& out) const;

  // ---- Drawing (DebuggerPainter) ----------------------------------------------------

  /// Appends the map in `layers` (render::paint_world for movement_class(), markers of
  /// the active query only). Its raster images are kept between calls and repainted
  /// only where the world changed, so an edit costs the cells it touched.
  void paint_map(const render::LayerSet& layers, render::DrawList& out);
  /// Pixels of map images repainted so far (see render::MapImages).
  std::uint64_t map_pixels_painted() const { return painter_.map_pixels_painted(); }
  /// Appends the other queries' paths (layer AllPaths, from query_results()) and the
  /// search overlay at step() (render::TracePainter) to `out`; what it draws changes only
  /// with trace_version(), results_version(), step() and `layers`. `pixels_per_metre`
  /// (the camera zoom) matters only for non-grid planners: 0 = node sets as images.
  void paint(const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre = 0);
  /// Increases whenever query_results() may have changed (a query planned, kept or dropped).
  std::uint64_t results_version() const { return scheduler_.version(); }
  /// Appends the active planner's structure inside `view` (world box; empty = the whole
  /// world) on the layers planner_cells, planner_edges and planner_aux of `layers`.
  render::StructurePaintStats paint_structure(const render::LayerSet& layers, const Box2& view,
                                              render::DrawList& out);
  /// Appends the links of `node` of the active planner, highlighted on planner_edges (a
  /// picked node: the breakpoint's, in the window); returns how many.
  std::size_t paint_node_links(NodeId node, const render::LayerSet& layers, render::DrawList& out) const;
  /// What the last paint_structure() drew (and whether it reached its limit).
  const render::StructurePaintStats& last_structure() const { return last_structure_; }

  /// The active query's path on the world as it is, when the query plans as a faction
  /// with fog of war (its own planner and parameters, no faction); empty otherwise or
  /// when none is found. Planned once per world stamp and query, not per frame.
  const std::vector<Vec2>& truth_path();

 private:
  TraceRequest request_for(const Scenario& scenario, std::size_t active_query) const;
  void release_planners();
  void clear();
  void fill_traced_row();
  void note_plan_time(DebugClock::time_point t0);
  void complete_search();

  std::span<const PlannerInfo> registry_;
  bool pick_armed_ = false;
  // truth_path()'s answer and what it was planned for.
  std::vector<Vec2> truth_points_;
  std::optional<Query> truth_query_;
  std::size_t truth_index_ = 0;
  std::uint64_t truth_stamp_ = 0;
  render::StructurePaintStats last_structure_;
  std::string override_name_;
  ParamValues override_params_;
  std::optional<std::uint64_t> doc_serial_;  // EditorState::doc_serial of the last sync with a document
  double frame_budget_ms_ = 0;
  double plan_ms_ = 0;  // computing time of the re-plan in progress
  double last_plan_ms_ = 0;
  double last_world_ms_ = 0;
  std::string world_error_;  // the last sync's world error ("" when none)

  // The world (and the planners that borrow it) is declared first, so it is destroyed
  // last: the parts below hold pointers to those planners.
  WorldSync world_sync_;
  ReplanScheduler scheduler_;
  TraceSession session_;
  PlannerComparison comparison_;
  DebuggerPainter painter_;
};

}  // namespace pathscope::app
