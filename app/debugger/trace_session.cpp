// TraceSession: recording the active query's search once per change and scrubbing the
// recording (TraceReplay, planner/core/search_trace.hpp). The planner is the same
// steppable object whether it runs to the end at once or in frame-sized slices.

#include "app/debugger/trace_session.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pathscope::app {

TraceSession::TraceSession() : trace_(std::make_unique<SearchTrace>()) {}

TraceSession::~TraceSession() = default;

// ---- Recording -------------------------------------------------------------------------

bool TraceSession::shows(const TraceRequest& r, const Scenario& scenario, std::uint64_t stamp) const {
  // Searched again, with the trace attached, only when the answer can differ: another
  // world, query, planner or parameters.
  if (!replay_ && !searching_) return false;
  if (stamp_ != stamp || r.query != request_.query || r.planner_name != request_.planner_name ||
      r.params != request_.params || r.error != request_.error) {
    return false;
  }
  return !r.query || same_problem(scenario.queries[*r.query], traced_query_);
}

void TraceSession::record(const PlanningWorld& world, PlannerCache& planners, TraceRequest request,
                          std::uint64_t stamp, double budget_ms) {
  // A stepping user (replay not at the end) keeps the step number.
  const bool had_replay = replay_ != nullptr;
  const std::uint64_t prev_step = had_replay ? replay_->step() : 0;
  const bool was_at_end = !had_replay || prev_step >= trace_->step_count();
  resume_step_ = was_at_end ? std::nullopt : std::optional<std::uint64_t>(prev_step);

  if (searching_) {  // an unfinished search: stop recording it
    searching_->set_observer(nullptr);
    searching_ = nullptr;
  }
  replay_.reset();
  has_result_ = false;
  planner_ = nullptr;
  lattice_.reset();
  micros_ = 0;
  two_sided_ = false;
  open_cache_version_ = 0;
  stamp_ = stamp;
  dependency_.reset();
  // Node ids are the planner's own (a cell index, a polygon, a graph point): another
  // planner's breakpoint would name an unrelated node.
  if (request.planner_name != request_.planner_name) breakpoint_.reset();
  request_ = std::move(request);
  class_ = 0;
  if (!request_.query) {
    settle();
    return;
  }
  const Query& q = world.scenario().queries[*request_.query];
  traced_query_ = q;
  class_ = q.movement_class < world.class_count() ? q.movement_class : 0;
  if (!request_.planner) {  // request_.error says why
    settle();
    return;
  }

  Planner* p = planners.get(world, *request_.planner, q.movement_class, request_.params, PlannerRole::Active,
                            true, world.scenario().find_faction(q.faction));
  p->set_observer(trace_.get());
  searching_ = p;
  const FrameBudget budget{DebugClock::now(), budget_ms};
  const SearchStatus status = p->start(PathQuery{q.start, q.goal});
  micros_ = micros_since(budget.start);
  ++queries_planned_;
  if (!is_finished(status) && !run_slices(budget)) return;  // the rest comes in continue_search()
  finish();
  settle();
}

bool TraceSession::continue_search(const FrameBudget& budget) {
  if (!searching_ || !run_slices(budget)) return false;
  finish();
  settle();
  return true;
}

bool TraceSession::run_slices(const FrameBudget& budget) {
  const DebugClock::time_point t0 = DebugClock::now();
  SearchStatus status = searching_->result().status;
  while (!is_finished(status)) {
    status = searching_->step(budget.slice());
    if (budget.spent()) break;
  }
  micros_ += micros_since(t0);
  return is_finished(status);
}

void TraceSession::finish() {
  Planner* p = searching_;
  searching_ = nullptr;
  p->set_observer(nullptr);
  result_ = p->result();
  has_result_ = true;
  planner_ = p;
  dependency_ = ReplanScheduler::dependency_of(*p);

  // Planners whose nodes are the cells of a uniform grid say so.
  lattice_ = p->node_lattice();

  ++trace_version_;
  for (const SearchEvent& e : trace_->events()) {
    if (e.side != 0) {
      two_sided_ = true;
      break;
    }
  }
  replay_ = std::make_unique<TraceReplay>(*trace_);
}

void TraceSession::settle() {
  if (replay_) {
    const std::uint64_t total = trace_->step_count();
    seek_quiet(!resume_step_ || *resume_step_ > total ? total : *resume_step_);
    resume_step_.reset();
    if (total == 0) playing_ = false;
  } else {
    playing_ = false;
  }
  find_breakpoint_step();
}

void TraceSession::release_planner() {
  replay_.reset();
  dependency_.reset();
  has_result_ = false;
  planner_ = nullptr;
  searching_ = nullptr;
}

void TraceSession::clear() {
  release_planner();
  request_ = TraceRequest{};
  class_ = 0;
  playing_ = false;
  breakpoint_step_.reset();
}

QueryOutcome TraceSession::outcome() const {
  QueryOutcome o;
  o.planner = traced_query_.planner;
  if (searching_) return o;  // Idle until the traced search ends
  o.status = has_result_ ? result_.status : SearchStatus::Invalid;
  if (has_result_) {
    o.length = result_.length;
    o.cost = result_.cost;
    o.expansions = result_.stats.expansions;
    o.pushes = result_.stats.pushes;
    if (result_.status == SearchStatus::Found) o.points = result_.points;
  }
  o.micros = micros_;
  o.traced = true;
  o.message = has_result_ ? result_.message : request_.error;
  return o;
}

// ---- Controls --------------------------------------------------------------------------

std::uint64_t TraceSession::step() const { return replay_ ? replay_->step() : 0; }

std::uint64_t TraceSession::total_steps() const { return replay_ ? trace_->step_count() : 0; }

void TraceSession::seek_quiet(std::uint64_t k) {
  if (replay_) replay_->seek(std::min(k, trace_->step_count()));
}

void TraceSession::step(std::uint64_t n) {
  playing_ = false;
  const std::uint64_t cur = step(), total = total_steps();
  seek_quiet(n > total - std::min(cur, total) ? total : cur + n);
}

void TraceSession::step_back(std::uint64_t n) {
  playing_ = false;
  const std::uint64_t cur = step();
  seek_quiet(cur - std::min(cur, n));
}

void TraceSession::seek(std::uint64_t k) {
  playing_ = false;
  seek_quiet(k);
}

void TraceSession::reset() {
  playing_ = false;
  carry_ = 0;
  seek_quiet(0);
}

void TraceSession::play(bool on) {
  carry_ = 0;
  if (!on || !replay_ || total_steps() == 0) {
    playing_ = false;
    return;
  }
  if (step() >= total_steps()) seek_quiet(0);
  playing_ = true;
}

void TraceSession::set_speed(double steps_per_second) {
  if (!std::isfinite(steps_per_second)) return;
  speed_ = std::clamp(steps_per_second, kMinSpeed, kMaxSpeed);
}

void TraceSession::advance(double dt_seconds) {
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

void TraceSession::set_breakpoint(std::optional<NodeId> node) {
  breakpoint_ = node;
  find_breakpoint_step();
}

void TraceSession::find_breakpoint_step() {
  breakpoint_step_.reset();
  // A node the planner does not have (its graph shrank): no breakpoint.
  if (breakpoint_ && planner_ && *breakpoint_ >= planner_->node_count()) breakpoint_.reset();
  if (!breakpoint_ || !replay_) return;
  const auto& events = trace_->events();
  for (std::uint64_t k = 0; k < trace_->step_count(); ++k) {
    const SearchEvent& e = events[trace_->step_event(k)];
    if (e.kind == SearchEventKind::Expand && e.node == *breakpoint_) {
      breakpoint_step_ = k + 1;  // closed_at: the step that expanded it
      return;
    }
  }
}

bool TraceSession::run_to_breakpoint() {
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

// ---- Views -----------------------------------------------------------------------------

SearchStatus TraceSession::status_at_step() const {
  if (!has_result_) return SearchStatus::Idle;
  // Scrubbed back, the search has not ended yet: its final status belongs to the last step.
  if (replay_ && replay_->step() < trace_->step_count()) return SearchStatus::Running;
  return result_.status;
}

const std::vector<TraceNode>& TraceSession::open_nodes() const {
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

}  // namespace pathscope::app
