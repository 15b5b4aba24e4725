// SearchDebugger: the planner choice for the active query, and the order in which a
// sync() or update() drives the parts (world, scheduler, trace session).
//
// Every control is a seek over the recorded trace (TraceReplay, search_trace.hpp): the
// planner runs once per change, with a SearchTrace attached, and stepping, playing and
// scrubbing only move the replay.

#include "app/debugger/search_debugger.hpp"

#include "app/editor/tools/item_edit.hpp"
#include "render/search/query_paths_painter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>

namespace pathscope::app {

// ---- Planner choice --------------------------------------------------------------------

void SearchDebugger::set_planner_override(const std::string& name, ParamValues params) {
  override_name_ = name;
  if (const PlannerInfo* info = find_planner(name, registry_)) {
    params.resize(info->params.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamSpec& spec = info->params[i];
      params[i] = std::isfinite(params[i]) ? std::clamp(params[i], spec.min_value, spec.max_value)
                                           : spec.default_value;
      if (!spec.choices.empty()) params[i] = std::round(params[i]);  // one of the choices
    }
  }
  override_params_ = std::move(params);
}

void SearchDebugger::clear_planner_override() {
  override_name_.clear();
  override_params_.clear();
}

std::string SearchDebugger::override_note() const {
  if (override_name_.empty()) return "";
  const PlanningWorld* w = world();
  const std::optional<std::size_t> q = active_query();
  const bool known = w && q && *q < w->scenario().queries.size();
  const std::string own = known ? w->scenario().queries[*q].planner : "none";
  if (own == override_name_) return "planner: " + own + ", parameters overridden (query asks its own)";
  return "planner: " + override_name_ + " (override; query asks " + own + ")";
}

TraceRequest SearchDebugger::request_for(const Scenario& s, std::size_t active_query) const {
  TraceRequest r;
  if (s.queries.empty()) return r;
  r.query = std::min(active_query, s.queries.size() - 1);
  r.planner_name = override_name_.empty() ? s.queries[*r.query].planner : override_name_;
  Result<PlannerChoice> choice =
      choose_query_planner(s, *r.query, override_name_, override_params_, registry_);
  if (!choice) {
    r.error = choice.error().to_string();
    return r;
  }
  r.planner = choice->info;
  r.params = std::move(choice->params);
  return r;
}

// ---- Keeping up with the editor ----------------------------------------------------

void SearchDebugger::release_planners() {
  session_.release_planner();
  scheduler_.release_planner();
}

void SearchDebugger::clear() {
  session_.clear();  // forgets its planners, as scheduler_.clear() does
  scheduler_.clear();
  comparison_.clear();
  world_sync_.clear();
}

void SearchDebugger::sync(const EditorState& state) {
  if (!state.doc) {
    if (world_sync_.world()) clear();
    return;
  }
  // An override is a choice made for one document: another one starts without it.
  if (doc_serial_ && *doc_serial_ != state.doc_serial) clear_planner_override();
  doc_serial_ = state.doc_serial;
  TraceRequest request = request_for(state.doc->scenario(), state.active_query);
  const bool doc_changed = world_sync_.outdated(state);
  const TraceRequest& shown = session_.request();
  if (!doc_changed && request.query == shown.query && request.planner_name == shown.planner_name &&
      request.params == shown.params) {
    return;
  }

  const FrameBudget budget{DebugClock::now(), frame_budget_ms_};
  last_world_ms_ = 0;
  if (doc_changed) {
    const WorldSyncResult synced = world_sync_.sync(state);
    world_error_ = synced.status ? std::string() : synced.status.error().to_string();
    if (synced.planners_dropped) release_planners();
    // The comparison keeps the rows whose answers the edit cannot change.
    if (synced.replaced || synced.planners_dropped) {
      comparison_.clear();
    } else {
      comparison_.carry_over(synced.change);
    }
    if (synced.replaced) {
      scheduler_.world_replaced();
    } else if (!synced.change.none()) {
      // Answers the edit cannot change stay valid in the new world, the traced one too.
      const std::uint64_t before = scheduler_.carry_over(synced.change);
      if (session_.valid_at(before) && ReplanScheduler::still_valid(session_.dependency(), synced.change)) {
        session_.restamp(scheduler_.stamp());
      }
    }
    painter_.world_changed(synced);
    last_world_ms_ = micros_since(budget.start) / 1000.0;
  }
  const PlanningWorld& world = *world_sync_.world();

  const bool retrace = !session_.shows(request, world.scenario(), scheduler_.stamp());
  if (!request.query || !comparison_.ran_on(world.scenario().queries[*request.query])) comparison_.clear();
  // With an override the active query's own answer is planned with the others.
  scheduler_.schedule(world.scenario(), override_name_.empty() ? request.query : std::nullopt);
  plan_ms_ = 0;
  if (retrace) {
    session_.record(world, world_sync_.planners(), std::move(request), scheduler_.stamp(), frame_budget_ms_);
  }
  fill_traced_row();  // the active query may also have moved in the list
  if (!session_.searching()) scheduler_.run(world, world_sync_.planners(), budget);
  note_plan_time(budget.start);
}

void SearchDebugger::update(double dt_seconds) {
  if (busy()) {
    const FrameBudget budget{DebugClock::now(), frame_budget_ms_};
    const PlanningWorld& world = *world_sync_.world();
    if (session_.searching() && session_.continue_search(budget)) fill_traced_row();
    if (!session_.searching()) scheduler_.run(world, world_sync_.planners(), budget);
    note_plan_time(budget.start);
    if (session_.searching()) return;
  }
  session_.advance(dt_seconds);
}

void SearchDebugger::fill_traced_row() {
  const std::optional<std::size_t> q = session_.active_query();
  if (!q || !override_name_.empty()) return;
  scheduler_.take_traced_row(*q, session_.outcome(), !session_.searching(), session_.dependency());
}

void SearchDebugger::note_plan_time(DebugClock::time_point t0) {
  plan_ms_ += micros_since(t0) / 1000.0;
  if (!busy()) last_plan_ms_ = plan_ms_;
}

void SearchDebugger::complete_search() {
  if (!busy()) return;
  const double budget = frame_budget_ms_;
  frame_budget_ms_ = 0;
  update(0);
  frame_budget_ms_ = budget;
}

// ---- Views -----------------------------------------------------------------------------

std::string SearchDebugger::step_status() const {
  if (searching()) return "searching...";
  const SearchStatus status = status_at_step();
  if (status == SearchStatus::Idle) return "";
  if (status != SearchStatus::Running) return to_string(status);
  return "running, step " + std::to_string(step()) + " of " + std::to_string(total_steps());
}

// ---- Comparison ------------------------------------------------------------------------

std::vector<ComparisonRow> SearchDebugger::compare_planners() {
  complete_search();  // the comparison borrows the cached planners
  comparison_.clear();
  const PlanningWorld* w = world();
  const std::optional<std::size_t> q = session_.active_query();
  if (!w || !q) return comparison_.rows();
  return comparison_.run(*w, w->scenario().queries[*q], world_sync_.planners(), registry_);
}

const std::vector<ComparisonRow>& SearchDebugger::refresh_comparison() {
  complete_search();  // the comparison borrows the cached planners
  const PlanningWorld* w = world();
  const std::optional<std::size_t> q = session_.active_query();
  if (!w || !q) {
    comparison_.clear();
    return comparison_.rows();
  }
  return comparison_.refresh(*w, w->scenario().queries[*q], world_sync_.planners(), registry_);
}

void SearchDebugger::paint_comparison(const render::LayerSet& layers, render::DrawList& out) const {
  const std::vector<render::ComparedPath> paths = comparison_.paths();
  render::paint_compared_paths(paths, comparison_.selected(), layers, out);
}

// ---- Drawing ---------------------------------------------------------------------------

void SearchDebugger::paint_map(const render::LayerSet& layers, render::DrawList& out) {
  if (const PlanningWorld* w = world()) painter_.paint_map(*w, movement_class(), active_query(), layers, out);
}

void SearchDebugger::paint(const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre) {
  if (const PlanningWorld* w = world()) {
    // With an override the trace is another planner's: the query's own answer is one of the others.
    const std::optional<std::size_t> traced = override_name_.empty() ? active_query() : std::nullopt;
    painter_.paint_search(*w, session_, scheduler_.outcomes(), traced, layers, out, pixels_per_metre);
    // A query planned as a faction: the path on the world as it is, beside it.
    if (layers.contains(render::Layer::AllPaths) && active_query()) {
      const std::vector<Vec2>& truth = truth_path();
      if (truth.size() >= 2) {
        const render::QueryPath path{
            truth, "query " + std::to_string(tools::query_number(*active_query())) + " as it is"};
        render::paint_query_paths(std::span<const render::QueryPath>(&path, 1), layers, out);
      }
    }
  }
}

const std::vector<Vec2>& SearchDebugger::truth_path() {
  const PlanningWorld* w = world();
  const std::optional<std::size_t> active = active_query();
  if (!w || !active || *active >= w->scenario().queries.size()) {
    truth_points_.clear();
    truth_query_.reset();
    return truth_points_;
  }
  const Scenario& s = w->scenario();
  const Query& q = s.queries[*active];
  if (truth_query_ && *truth_query_ == q && truth_index_ == *active && truth_stamp_ == scheduler_.stamp()) {
    return truth_points_;
  }
  truth_query_ = q;
  truth_index_ = *active;
  truth_stamp_ = scheduler_.stamp();
  truth_points_.clear();
  const std::optional<std::size_t> faction = s.find_faction(q.faction);
  if (!faction || !(s.factions[*faction].sight > 0)) return truth_points_;
  const Result<PlannerChoice> choice = choose_query_planner(s, *active);
  if (!choice) return truth_points_;
  // A planner of its own, dropped at once: nothing borrowed outlives this call.
  const std::unique_ptr<Planner> planner =
      choice->info->create(QueryContext{*w, q.movement_class, std::nullopt, choice->params});
  const PathResult& r = find_path(*planner, PathQuery{q.start, q.goal});
  if (r.status == SearchStatus::Found) truth_points_ = r.points;
  return truth_points_;
}

std::size_t SearchDebugger::paint_node_links(NodeId node, const render::LayerSet& layers,
                                             render::DrawList& out) const {
  const Planner* planner = session_.planner();
  return planner ? render::paint_node_links(*planner, node, layers, out) : 0;
}

render::StructurePaintStats SearchDebugger::paint_structure(const render::LayerSet& layers, const Box2& view,
                                                            render::DrawList& out) {
  const PlanningWorld* w = world();
  last_structure_ =
      w ? painter_.paint_structure(*w, session_, layers, view, out) : render::StructurePaintStats{};
  return last_structure_;
}

std::optional<NodeId> SearchDebugger::node_at(Vec2 point, double tolerance) const {
  const PlanningWorld* w = world();
  if (tolerance < 0) tolerance = w ? w->scenario().world.cell_size : 1.0;
  return inspector().node_at(point, tolerance);
}

}  // namespace pathscope::app
