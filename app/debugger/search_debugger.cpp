// SearchDebugger: planning, replaying and comparing searches for the editor.
//
// Every control is a seek over the recorded trace (TraceReplay, search_trace.hpp): the
// planner runs once per change, with a SearchTrace attached, and stepping, playing and
// scrubbing only move the replay. Planner objects are cached per (planner, movement
// class) while the world stays the same, so their search memory is allocated once
// (planner/search.hpp: a planner answers many queries).

#include "app/debugger/search_debugger.hpp"

#include "render/map/scene_painter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <utility>

namespace pathscope::app {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

template <typename... Args>
std::string format(const char* fmt, Args... args) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string step_text(std::uint64_t step) {
  return step == kNeverStep ? std::string("-") : std::to_string(step);
}

}  // namespace

SearchDebugger::SearchDebugger() : trace_(std::make_unique<SearchTrace>()) {}

SearchDebugger::~SearchDebugger() {
  // Planners borrow the world: drop them first.
  replay_.reset();
  active_planner_ = nullptr;
  planners_.clear();
}

// ---- Keeping up with the editor ----------------------------------------------------

void SearchDebugger::set_planner_override(const std::string& name, ParamValues params) {
  override_name_ = name;
  if (const PlannerInfo* info = find_planner(name)) {
    params.resize(info->params.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < params.size(); ++i) {
      const ParamSpec& spec = info->params[i];
      params[i] = std::isfinite(params[i]) ? std::clamp(params[i], spec.min_value, spec.max_value)
                                           : spec.default_value;
    }
  }
  override_params_ = std::move(params);
}

void SearchDebugger::clear_planner_override() {
  override_name_.clear();
  override_params_.clear();
}

namespace {

// The fields of a query that decide its answer (its name does not).
bool same_problem(const Query& a, const Query& b) {
  return a.start == b.start && a.goal == b.goal && a.movement_class == b.movement_class && a.planner == b.planner &&
         a.params == b.params;
}

}  // namespace

void SearchDebugger::drop_planners() {
  replay_.reset();
  has_result_ = false;
  active_planner_ = nullptr;
  searching_ = nullptr;
  batch_planner_ = nullptr;
  planners_.clear();
}

void SearchDebugger::sync(const EditorState& state) {
  if (!state.doc) {
    if (!synced_ && !world_) return;
    drop_planners();
    world_.reset();
    outcomes_.clear();
    planned_.clear();
    pending_.clear();
    pending_next_ = 0;
    comparison_.clear();
    active_.reset();
    active_name_.clear();
    active_params_.clear();
    playing_ = false;
    synced_ = false;
    return;
  }
  const Document& doc = *state.doc;
  const Scenario& scenario = doc.scenario();
  const bool doc_changed =
      !synced_ || !world_ || doc.revision() != revision_ || state.doc_serial != doc_serial_;

  std::optional<std::size_t> active;
  if (!scenario.queries.empty()) active = std::min(state.active_query, scenario.queries.size() - 1);

  // The planner choice for the active query.
  std::string name;
  ParamValues params;
  std::string choice_error;
  if (active) {
    const Query& q = scenario.queries[*active];
    const std::string where = "queries[" + std::to_string(*active) + "]";
    if (!override_name_.empty()) {
      name = override_name_;
      params = override_params_;
      if (!find_planner(name)) choice_error = "unknown planner \"" + name + "\"";
    } else {
      name = q.planner;
      if (const PlannerInfo* info = find_planner(name)) {
        Result<ParamValues> resolved = resolve_params(*info, q.params, where);
        if (resolved) {
          params = std::move(resolved).value();
        } else {
          choice_error = resolved.error().to_string();
        }
      } else {
        choice_error = where + ".planner: unknown planner \"" + name + "\"";
      }
    }
  }

  if (!doc_changed && active == active_ && name == active_name_ && params == active_params_) return;

  const Clock::time_point t0 = Clock::now();
  last_world_ms_ = 0;
  if (doc_changed) {
    if (world_ && synced_ && state.doc_serial == doc_serial_) {
      // The same document edited: update the world in place, cells the edit touched only.
      const WorldChange change = world_->update(scenario);
      if (change.rebuilt) drop_planners();
      if (!change.none()) carry_over(change);
      if (change.rebuilt) {
        map_images_.invalidate_all();
      } else {
        map_images_.invalidate(change.cells);
      }
    } else {
      drop_planners();
      world_.reset();  // free the old world's memory before building the new one
      world_ = std::make_unique<PlanningWorld>(scenario);
      ++world_stamp_;
      map_images_.invalidate_all();
    }
    last_world_ms_ = micros_since(t0) / 1000.0;
    revision_ = doc.revision();
    doc_serial_ = state.doc_serial;
  }
  const Scenario& s = world_->scenario();

  // The active query is searched again, with the trace attached, only when its answer
  // can differ: another world, query, planner or parameters.
  const bool retrace = (!replay_ && !searching_) || world_stamp_ != traced_stamp_ || active != active_ ||
                       name != active_name_ || params != active_params_ || choice_error != error_ ||
                       (active && !same_problem(s.queries[*active], traced_query_));
  if (retrace) comparison_.clear();
  active_ = active;
  active_name_ = std::move(name);
  active_params_ = std::move(params);
  error_ = std::move(choice_error);
  schedule_queries();

  plan_ms_ = 0;
  if (retrace) {
    const bool had_replay = replay_ != nullptr;
    const std::uint64_t prev_step = had_replay ? replay_->step() : 0;
    const bool was_at_end = !had_replay || prev_step >= trace_->expansion_count();
    resume_step_ = was_at_end ? std::nullopt : std::optional<std::uint64_t>(prev_step);
    record_active();
    if (!searching_) after_search();
  } else {
    fill_active_row();  // the active query may have moved in the list
  }
  if (!searching_) continue_batch(t0);
  note_plan_time(t0);
  synced_ = true;
}

SearchDebugger::Footprint SearchDebugger::footprint_of(const Planner& planner, std::size_t movement_class) const {
  Footprint f;
  if (planner.result().status != SearchStatus::Found) return f;  // only found paths are kept
  if (!planner.expanded_cells(f.bits)) return f;
  const CostGrid& grid = world_->grid(movement_class);
  f.movement_class = movement_class;
  f.min_multiplier = grid.min_multiplier();
  return f;
}

bool SearchDebugger::unaffected(const Footprint& f, const WorldChange& change) const {
  if (f.bits.empty() || change.rebuilt || f.movement_class >= world_->class_count()) return false;
  const CostGrid& grid = world_->grid(f.movement_class);
  if (grid.min_multiplier() != f.min_multiplier) return false;  // every heuristic value changed
  if (f.bits.size() != (grid.cell_count() + 63) / 64) return false;
  // change.cells already holds the ring of cells whose moves changed around the edit.
  for (int y = change.cells.y0; y < change.cells.y1; ++y) {
    for (int x = change.cells.x0; x < change.cells.x1; ++x) {
      const std::uint32_t c = grid.index(x, y);
      if (f.bits[c >> 6] >> (c & 63) & 1) return false;
    }
  }
  return true;
}

void SearchDebugger::carry_over(const WorldChange& change) {
  // Answers the edit cannot change stay valid in the new world.
  const std::uint64_t old = world_stamp_++;
  for (Planned& p : planned_) {
    if (p.done && p.stamp == old && unaffected(p.footprint, change)) p.stamp = world_stamp_;
  }
  if (traced_stamp_ == old && !searching_ && has_result_ && unaffected(traced_footprint_, change)) {
    traced_stamp_ = world_stamp_;
  }
}

void SearchDebugger::note_plan_time(Clock::time_point t0) {
  plan_ms_ += micros_since(t0) / 1000.0;
  if (!busy()) last_plan_ms_ = plan_ms_;
}

void SearchDebugger::schedule_queries() {
  // Outcomes planned in the same world for the same problem are kept (matched by value,
  // so adding or deleting a query elsewhere re-plans nothing else); the rest wait in
  // pending_ and run in scenario order.
  const Scenario& s = world_->scenario();
  const bool active_traced = override_name_.empty();
  std::vector<QueryOutcome> outcomes(s.queries.size());
  std::vector<Planned> planned(s.queries.size());
  std::vector<bool> used(planned_.size(), false);
  pending_.clear();
  pending_next_ = 0;
  batch_planner_ = nullptr;
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& q = s.queries[i];
    planned[i].query = q;
    planned[i].stamp = world_stamp_;
    if (active_traced && active_ == i) continue;  // filled from the traced run
    bool kept = false;
    for (std::size_t k = 0; k < planned_.size() && !kept; ++k) {
      if (used[k] || !planned_[k].done || planned_[k].stamp != world_stamp_ ||
          !same_problem(planned_[k].query, q)) {
        continue;
      }
      used[k] = true;
      outcomes[i] = outcomes_[k];
      planned[i].done = true;
      planned[i].footprint = std::move(planned_[k].footprint);
      kept = true;
    }
    if (!kept) {
      outcomes[i].planner = q.planner;
      pending_.push_back(i);
    }
  }
  outcomes_ = std::move(outcomes);
  planned_ = std::move(planned);
}

bool SearchDebugger::continue_batch(Clock::time_point frame_start) {
  // One query at a time, in slices when there is a frame budget.
  while (pending_next_ < pending_.size()) {
    const std::size_t i = pending_[pending_next_];
    QueryOutcome& o = outcomes_[i];
    if (!batch_planner_) {
      batch_micros_ = 0;
      const Clock::time_point t0 = Clock::now();
      batch_planner_ = start_query(i, o);
      batch_micros_ += micros_since(t0);
    }
    if (batch_planner_) {
      const Clock::time_point t0 = Clock::now();
      SearchStatus status = batch_planner_->result().status;
      while (!is_finished(status)) {
        status = batch_planner_->step(frame_budget_ms_ > 0 ? kSliceExpansions : std::uint64_t(1) << 20);
        if (frame_budget_ms_ > 0 && !is_finished(status) &&
            micros_since(frame_start) >= frame_budget_ms_ * 1000.0) {
          break;
        }
      }
      batch_micros_ += micros_since(t0);
      if (!is_finished(status)) return false;
      const PathResult& r = batch_planner_->result();
      o.status = r.status;
      o.length = r.length;
      o.cost = r.cost;
      o.expansions = r.stats.expansions;
      o.pushes = r.stats.pushes;
      o.message = r.message;
      o.micros = batch_micros_;
      planned_[i].footprint = footprint_of(*batch_planner_, world_->scenario().queries[i].movement_class);
      batch_planner_ = nullptr;
    }
    planned_[i].done = true;
    ++pending_next_;
    if (frame_budget_ms_ > 0 && micros_since(frame_start) >= frame_budget_ms_ * 1000.0) {
      return pending_next_ >= pending_.size();
    }
  }
  return true;
}

Planner* SearchDebugger::start_query(std::size_t i, QueryOutcome& o) {
  const Query& q = world_->scenario().queries[i];
  const std::string where = "queries[" + std::to_string(i) + "]";
  o.planner = q.planner;
  o.status = SearchStatus::Invalid;
  const PlannerInfo* info = find_planner(q.planner);
  if (!info) {
    o.message = where + ".planner: unknown planner \"" + q.planner + "\"";
    return nullptr;
  }
  if (q.movement_class >= world_->class_count()) {
    o.message = where + ".movement_class: no such movement class";
    return nullptr;
  }
  Result<ParamValues> params = resolve_params(*info, q.params, where);
  if (!params) {
    o.message = params.error().to_string();
    return nullptr;
  }
  Planner* p = planner_for(*info, q.movement_class, *params, Role::Batch, true);
  p->start(PathQuery{q.start, q.goal});
  ++queries_planned_;
  return p;
}

void SearchDebugger::fill_active_row() {
  if (!active_ || !override_name_.empty() || *active_ >= outcomes_.size()) return;
  QueryOutcome& o = outcomes_[*active_];
  o = QueryOutcome{};
  o.planner = world_->scenario().queries[*active_].planner;
  if (searching_) return;  // Idle until the traced search ends
  o.status = has_result_ ? result_.status : SearchStatus::Invalid;
  o.length = result_.length;
  o.cost = result_.cost;
  o.expansions = result_.stats.expansions;
  o.pushes = result_.stats.pushes;
  o.micros = active_micros_;
  o.traced = true;
  o.message = has_result_ ? result_.message : error_;
  planned_[*active_].done = true;
  planned_[*active_].footprint = traced_footprint_;
}

void SearchDebugger::after_search() {
  fill_active_row();
  if (searching_) return;

  if (replay_) {
    const std::uint64_t total = trace_->expansion_count();
    seek_quiet(!resume_step_ || *resume_step_ > total ? total : *resume_step_);
    resume_step_.reset();
    if (total == 0) playing_ = false;
  } else {
    playing_ = false;
  }
  find_breakpoint_step();
}

Planner* SearchDebugger::planner_for(const PlannerInfo& info, std::size_t movement_class, const ParamValues& params,
                                     Role role, bool may_replace) {
  for (CachedPlanner& c : planners_) {
    if (c.name != info.name || c.movement_class != movement_class || c.role != role) continue;
    if (c.params == params) return c.planner.get();
    if (!may_replace) return nullptr;
    c.planner.reset();  // free its search memory before allocating the new one's
    c.planner = info.create(QueryContext{*world_, movement_class, std::nullopt, params});
    c.params = params;
    ++planners_created_;
    return c.planner.get();
  }
  planners_.push_back(
      CachedPlanner{info.name, movement_class, params, role, info.create(QueryContext{*world_, movement_class, std::nullopt, params})});
  ++planners_created_;
  return planners_.back().planner.get();
}

void SearchDebugger::record_active() {
  if (searching_) {  // an unfinished search: stop recording it
    searching_->set_observer(nullptr);
    searching_ = nullptr;
  }
  replay_.reset();
  has_result_ = false;
  active_planner_ = nullptr;
  active_is_grid_ = false;
  active_micros_ = 0;
  two_sided_ = false;
  open_cache_version_ = 0;
  traced_stamp_ = world_stamp_;
  traced_footprint_ = Footprint{};
  if (!active_) {
    active_class_ = 0;
    return;
  }
  const Query& q = world_->scenario().queries[*active_];
  traced_query_ = q;
  active_class_ = q.movement_class < world_->class_count() ? q.movement_class : 0;
  if (!error_.empty()) return;
  const PlannerInfo* info = find_planner(active_name_);
  if (!info) {
    error_ = "unknown planner \"" + active_name_ + "\"";
    return;
  }
  if (q.movement_class >= world_->class_count()) {
    error_ = "queries[" + std::to_string(*active_) + "].movement_class: no such movement class";
    return;
  }
  Planner* p = planner_for(*info, q.movement_class, active_params_, Role::Active, true);
  p->set_observer(trace_.get());
  searching_ = p;
  const Clock::time_point t0 = Clock::now();
  SearchStatus status = p->start(PathQuery{q.start, q.goal});
  active_micros_ = micros_since(t0);
  ++queries_planned_;
  if (!is_finished(status) && !continue_search(t0)) return;  // the rest comes in update()
  finish_active();
}

bool SearchDebugger::continue_search(Clock::time_point frame_start) {
  // With a budget, expand in slices until the frame's time is used up; without one, to
  // the end. The planner is the same steppable object either way.
  Planner* p = searching_;
  const Clock::time_point t0 = Clock::now();
  SearchStatus status = p->result().status;
  while (!is_finished(status)) {
    status = p->step(frame_budget_ms_ > 0 ? kSliceExpansions : std::uint64_t(1) << 20);
    if (frame_budget_ms_ > 0 && micros_since(frame_start) >= frame_budget_ms_ * 1000.0) break;
  }
  active_micros_ += micros_since(t0);
  return is_finished(status);
}

void SearchDebugger::finish_active() {
  Planner* p = searching_;
  searching_ = nullptr;
  p->set_observer(nullptr);
  result_ = p->result();
  has_result_ = true;
  active_planner_ = p;
  traced_footprint_ = footprint_of(*p, active_class_);

  const CostGrid& grid = world_->grid(active_class_);
  const std::size_t n = grid.cell_count();
  active_is_grid_ = p->node_count() == n && n > 0 && p->node_position(0) == grid.center(0) &&
                    p->node_position(NodeId(n - 1)) == grid.center(std::uint32_t(n - 1));

  ++trace_version_;
  for (const SearchEvent& e : trace_->events()) {
    if (e.side != 0) {
      two_sided_ = true;
      break;
    }
  }
  replay_ = std::make_unique<TraceReplay>(*trace_);
}

// ---- Controls ------------------------------------------------------------------------

std::uint64_t SearchDebugger::step() const { return replay_ ? replay_->step() : 0; }

std::uint64_t SearchDebugger::total_steps() const { return replay_ ? trace_->expansion_count() : 0; }

void SearchDebugger::seek_quiet(std::uint64_t k) {
  if (replay_) replay_->seek(std::min(k, trace_->expansion_count()));
}

void SearchDebugger::step(std::uint64_t n) {
  playing_ = false;
  const std::uint64_t cur = step(), total = total_steps();
  seek_quiet(n > total - std::min(cur, total) ? total : cur + n);
}

void SearchDebugger::step_back(std::uint64_t n) {
  playing_ = false;
  const std::uint64_t cur = step();
  seek_quiet(cur - std::min(cur, n));
}

void SearchDebugger::seek(std::uint64_t k) {
  playing_ = false;
  seek_quiet(k);
}

void SearchDebugger::reset() {
  playing_ = false;
  carry_ = 0;
  seek_quiet(0);
}

void SearchDebugger::play(bool on) {
  carry_ = 0;
  if (!on || !replay_ || total_steps() == 0) {
    playing_ = false;
    return;
  }
  if (step() >= total_steps()) seek_quiet(0);
  playing_ = true;
}

void SearchDebugger::set_speed(double expansions_per_second) {
  if (!std::isfinite(expansions_per_second)) return;
  speed_ = std::clamp(expansions_per_second, kMinSpeed, kMaxSpeed);
}

void SearchDebugger::update(double dt_seconds) {
  if (busy()) {
    const Clock::time_point t0 = Clock::now();
    if (searching_ && continue_search(t0)) {
      finish_active();
      after_search();
    }
    if (!searching_) continue_batch(t0);
    note_plan_time(t0);
    if (searching_) return;
  }
  if (!playing_ || !replay_ || !(dt_seconds > 0)) return;
  carry_ += speed_ * dt_seconds;
  // A hair of tolerance so that speed * dt landing a rounding error below an integer
  // (100 * 0.07 = 7.000000000000001 vs 6.999...) still advances the whole count.
  const double whole = std::floor(carry_ + 1e-9);
  carry_ = std::max(0.0, carry_ - whole);
  if (whole < 1) return;
  const std::uint64_t cur = step(), total = total_steps();
  const std::uint64_t room = total - std::min(cur, total);
  std::uint64_t target = whole >= double(room) ? total : cur + static_cast<std::uint64_t>(whole);
  if (breakpoint_step_ && *breakpoint_step_ > cur && *breakpoint_step_ <= target) {
    target = *breakpoint_step_;
    playing_ = false;
    carry_ = 0;
  }
  if (target >= total) {
    target = total;
    playing_ = false;
    carry_ = 0;
  }
  replay_->seek(target);
}

void SearchDebugger::set_breakpoint(std::optional<NodeId> node) {
  breakpoint_ = node;
  find_breakpoint_step();
}

void SearchDebugger::find_breakpoint_step() {
  breakpoint_step_.reset();
  if (!breakpoint_ || !replay_) return;
  const auto& events = trace_->events();
  for (std::uint64_t k = 0; k < trace_->expansion_count(); ++k) {
    if (events[trace_->expand_event(k)].node == *breakpoint_) {
      breakpoint_step_ = k + 1;  // closed_at: the step that expanded it
      return;
    }
  }
}

bool SearchDebugger::run_to_breakpoint() {
  playing_ = false;
  carry_ = 0;
  if (!replay_) return false;
  if (breakpoint_step_) {
    seek_quiet(*breakpoint_step_);
    return true;
  }
  seek_quiet(total_steps());
  return false;
}

// ---- Views ---------------------------------------------------------------------------

std::size_t SearchDebugger::movement_class() const { return active_class_; }

const std::vector<TraceNode>& SearchDebugger::open_nodes() const {
  if (!replay_) {
    open_cache_.clear();
    open_cache_version_ = 0;
    return open_cache_;
  }
  if (open_cache_version_ != trace_version_ || open_cache_step_ != replay_->step()) {
    open_cache_ = replay_->open_nodes();
    open_cache_version_ = trace_version_;
    open_cache_step_ = replay_->step();
  }
  return open_cache_;
}

// ---- Nodes ---------------------------------------------------------------------------

bool SearchDebugger::grid_nodes() const { return active_planner_ == nullptr || active_is_grid_; }

std::optional<NodeId> SearchDebugger::node_at(Vec2 world) const {
  if (!world_) return std::nullopt;
  const CostGrid& grid = world_->grid(active_class_);
  if (grid_nodes()) {
    if (const auto cell = grid.cell_at(world)) return NodeId(*cell);
    return std::nullopt;
  }
  // Other graphs: the nearest node the search touched, within one cell.
  if (!replay_) return std::nullopt;
  std::optional<NodeId> best;
  double best_d2 = grid.cell_size() * grid.cell_size();
  for (const TraceNode& n : replay_->nodes()) {
    const Vec2 d = active_planner_->node_position(n.node) - world;
    const double d2 = d.x * d.x + d.y * d.y;
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = n.node;
    }
  }
  return best;
}

std::optional<Vec2> SearchDebugger::node_position(NodeId node) const {
  if (!world_) return std::nullopt;
  if (active_planner_) {
    if (node >= active_planner_->node_count()) return std::nullopt;
    return active_planner_->node_position(node);
  }
  const CostGrid& grid = world_->grid(active_class_);
  if (node >= grid.cell_count()) return std::nullopt;
  return grid.center(node);
}

std::string SearchDebugger::node_label(NodeId node) const {
  if (node == kNoNode) return "-";
  if (world_ && grid_nodes()) {
    const CostGrid& grid = world_->grid(active_class_);
    if (node < grid.cell_count()) {
      const glm::ivec2 c = grid.cell(node);
      return "cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
    }
  }
  return "node " + std::to_string(node);
}

std::string SearchDebugger::describe_node(NodeId node) const {
  const std::optional<Vec2> pos = node_position(node);
  if (!pos) return "no such node";
  const CostGrid& grid = world_->grid(active_class_);
  const Scenario& s = world_->scenario();
  std::string out = node_label(node) + format(", world (%.2f, %.2f) m", pos->x, pos->y);
  if (const auto cell = grid.cell_at(*pos)) {
    const TerrainRaster& raster = world_->raster();
    const std::size_t t = raster.terrain(*cell);
    out += "\nterrain " + (t < s.terrains.size() ? s.terrains[t].name : std::string("?"));
    if (raster.bridge(*cell)) out += " (bridge deck)";
    if (raster.road_factor(*cell) > 1.0f) {
      out += format(" (road, costs / %.2f)", double(raster.road_factor(*cell)));
    }
    const std::string& class_name = s.classes[active_class_].name;
    out += grid.passable(*cell) ? format("\ncost x%.3g", grid.multiplier(*cell)) + " for " + class_name
                                : "\nimpassable for " + class_name;
    const std::uint32_t region = world_->regions(active_class_).region(*cell);
    out += region == RegionMap::kBlocked ? std::string(", no region") : ", region " + std::to_string(region);
  }
  if (!replay_) return out;
  for (std::uint8_t side = 0; side < (two_sided_ ? 2 : 1); ++side) {
    out += '\n';
    if (two_sided_) out += side == 0 ? "forward: " : "backward: ";
    const TraceNode* n = replay_->find(side, node);
    if (!n) {
      out += "not reached at step " + std::to_string(replay_->step());
      continue;
    }
    out += format("g %.3f, h %.3f, f %.3f", n->g, n->h, n->f());
    out += "\n  parent " + node_label(n->parent);
    out += ", opened at step " + step_text(n->opened_at);
    out += n->closed() ? ", closed at step " + step_text(n->closed_at) : std::string(", open");
  }
  return out;
}

// ---- Comparison ----------------------------------------------------------------------

void SearchDebugger::complete_search() {
  if (!busy()) return;
  const double budget = frame_budget_ms_;
  frame_budget_ms_ = 0;
  update(0);
  frame_budget_ms_ = budget;
}

std::vector<ComparisonRow> SearchDebugger::compare_planners() {
  complete_search();  // the comparison borrows the cached planners
  comparison_.clear();
  if (!world_ || !active_) return comparison_;
  const Query& q = world_->scenario().queries[*active_];
  if (q.movement_class >= world_->class_count()) return comparison_;
  for (const PlannerInfo& info : planner_registry()) {
    ComparisonRow row;
    row.name = info.name;
    row.exact = info.exact;
    ParamValues defaults;
    for (const ParamSpec& spec : info.params) defaults.push_back(spec.default_value);
    // Never replace a cached planner here: the active one is borrowed for node positions.
    std::unique_ptr<Planner> temporary;
    Planner* p = planner_for(info, q.movement_class, defaults, Role::Batch, false);
    if (!p) {
      temporary = info.create(QueryContext{*world_, q.movement_class, std::nullopt, defaults});
      ++planners_created_;
      p = temporary.get();
    }
    const Clock::time_point t0 = Clock::now();
    const PathResult& r = find_path(*p, PathQuery{q.start, q.goal});
    row.micros = micros_since(t0);
    row.status = r.status;
    row.length = r.length;
    row.cost = r.cost;
    row.expansions = r.stats.expansions;
    row.message = r.message;
    comparison_.push_back(std::move(row));
  }
  return comparison_;
}

// ---- Drawing -------------------------------------------------------------------------

render::TraceGeometry SearchDebugger::geometry() const {
  const CostGrid& grid = world_->grid(active_class_);
  if (grid_nodes()) return render::grid_trace_geometry(grid);
  const WorldInfo& w = world_->scenario().world;
  return render::graph_trace_geometry(*active_planner_, grid.cell_size(), {0, 0}, {w.width, w.height});
}

void SearchDebugger::paint_map(const render::LayerSet& layers, render::DrawList& out) {
  if (!world_) return;
  render::WorldPaintParams params;
  params.query = active_;
  params.images = &map_images_;
  render::paint_world(*world_, movement_class(), layers, out, params);
}

void SearchDebugger::paint(const render::LayerSet& layers, render::DrawList& out, double pixels_per_metre) {
  if (!replay_ || !has_result_ || !world_) return;
  render::TracePaintParams params;
  params.trace_version = trace_version_;
  params.pixels_per_metre = pixels_per_metre;
  params.path_points = std::span<const Vec2>(result_.points);
  painter_.paint(*trace_, *replay_, geometry(), layers, out, params);
}

}  // namespace pathscope::app
