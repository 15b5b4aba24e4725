// ReplanScheduler: keeping answers an edit cannot change, and planning the rest in
// slices.
//
// Each planner says what its answer depends on (Planner::result_dependency; grid
// planners: the cells they expanded and the scale of their heuristic, so an edit that
// changes none of those keeps the answer). A planner that declares nothing is planned
// again after every change.

#include "app/debugger/replan_scheduler.hpp"

#include <utility>

namespace pathscope::app {
bool same_problem(const Query& a, const Query& b) {
  return a.start == b.start && a.goal == b.goal && a.movement_class == b.movement_class &&
         a.planner == b.planner && a.params == b.params;
}

Result<PlannerChoice> choose_query_planner(const Scenario& scenario, std::size_t index,
                                           std::string_view override_name, const ParamValues& override_params,
                                           std::span<const PlannerInfo> registry) {
  const Query& q = scenario.queries[index];
  const std::string where = "queries[" + std::to_string(index) + "]";
  // The override's values are positional; choose_planner takes them by name.
  std::vector<PlannerParam> by_name;
  if (const PlannerInfo* info = override_name.empty() ? nullptr : find_planner(override_name, registry)) {
    for (std::size_t i = 0; i < info->params.size() && i < override_params.size(); ++i) {
      by_name.push_back(PlannerParam{info->params[i].name, override_params[i]});
    }
  }
  PlannerChoiceRequest request{q.planner, q.params, where, override_name, by_name};
  request.override_where = "planner override";
  request.override_params_where = "planner override";
  request.registry = registry;
  Result<PlannerChoice> choice = choose_planner(request);
  if (!choice) return choice;
  if (q.movement_class >= scenario.classes.size()) {
    return make_error(ErrorCode::Value, where + ".movement_class", "no such movement class");
  }
  return choice;
}

// ---- Validity of kept answers --------------------------------------------------------

AnswerDependency ReplanScheduler::dependency_of(const Planner& planner) {
  if (planner.result().status != SearchStatus::Found) return nullptr;  // only found paths are kept
  return planner.result_dependency();
}

bool ReplanScheduler::still_valid(const AnswerDependency& dependency, const WorldChange& change) {
  return dependency != nullptr && !change.rebuilt && dependency->still_valid(change);
}

void ReplanScheduler::world_replaced() {
  ++stamp_;
  // Nothing is kept, and dependencies may borrow the old world.
  for (Planned& p : planned_) p.dependency.reset();
}

std::uint64_t ReplanScheduler::carry_over(const WorldChange& change) {
  const std::uint64_t before = stamp_++;
  for (Planned& p : planned_) {
    if (p.done && p.stamp == before && still_valid(p.dependency, change)) p.stamp = stamp_;
  }
  return before;
}

// ---- Scheduling ----------------------------------------------------------------------

void ReplanScheduler::schedule(const Scenario& s, std::optional<std::size_t> traced) {
  std::vector<QueryOutcome> outcomes(s.queries.size());
  std::vector<Planned> planned(s.queries.size());
  std::vector<bool> used(planned_.size(), false);
  pending_.clear();
  next_ = 0;
  batch_planner_ = nullptr;
  for (std::size_t i = 0; i < s.queries.size(); ++i) {
    const Query& q = s.queries[i];
    planned[i].query = q;
    planned[i].stamp = stamp_;
    if (traced == i) continue;  // filled from the traced run
    bool kept = false;
    for (std::size_t k = 0; k < planned_.size() && !kept; ++k) {
      if (used[k] || !planned_[k].done || planned_[k].stamp != stamp_ ||
          !same_problem(planned_[k].query, q)) {
        continue;
      }
      used[k] = true;
      outcomes[i] = outcomes_[k];
      planned[i].done = true;
      planned[i].dependency = std::move(planned_[k].dependency);
      kept = true;
    }
    if (!kept) {
      outcomes[i].planner = q.planner;
      pending_.push_back(i);
    }
  }
  outcomes_ = std::move(outcomes);
  planned_ = std::move(planned);
  ++version_;
}

void ReplanScheduler::take_traced_row(std::size_t index, QueryOutcome row, bool final,
                                      AnswerDependency dependency) {
  if (index >= outcomes_.size()) return;
  outcomes_[index] = std::move(row);
  ++version_;
  if (!final) return;
  planned_[index].done = true;
  planned_[index].dependency = std::move(dependency);
}

void ReplanScheduler::clear() {
  outcomes_.clear();
  ++version_;
  planned_.clear();
  pending_.clear();
  next_ = 0;
  batch_planner_ = nullptr;
}

// ---- Planning in slices --------------------------------------------------------------

bool ReplanScheduler::run(const PlanningWorld& world, PlannerCache& planners, const FrameBudget& budget) {
  while (next_ < pending_.size()) {
    const std::size_t i = pending_[next_];
    QueryOutcome& o = outcomes_[i];
    if (!batch_planner_) {
      batch_micros_ = 0;
      const DebugClock::time_point t0 = DebugClock::now();
      batch_planner_ = start_query(world, planners, i, o);
      batch_micros_ += micros_since(t0);
    }
    if (batch_planner_) {
      const DebugClock::time_point t0 = DebugClock::now();
      SearchStatus status = batch_planner_->result().status;
      while (!is_finished(status)) {
        status = batch_planner_->step(budget.slice());
        if (!is_finished(status) && budget.spent()) break;
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
      o.points = r.status == SearchStatus::Found ? r.points : std::vector<Vec2>{};
      o.micros = batch_micros_;
      planned_[i].dependency = dependency_of(*batch_planner_);
      batch_planner_ = nullptr;
    }
    planned_[i].done = true;
    ++version_;
    ++next_;
    if (budget.spent()) return next_ >= pending_.size();
  }
  return true;
}

Planner* ReplanScheduler::start_query(const PlanningWorld& world, PlannerCache& planners, std::size_t i,
                                      QueryOutcome& o) {
  const Query& q = world.scenario().queries[i];
  o.planner = q.planner;
  o.status = SearchStatus::Invalid;
  Result<PlannerChoice> choice = choose_query_planner(world.scenario(), i);
  if (!choice) {
    o.message = choice.error().to_string();
    return nullptr;
  }
  Planner* p = planners.get(world, *choice->info, q.movement_class, choice->params, PlannerRole::Batch, true,
                            world.scenario().find_faction(q.faction));
  p->start(PathQuery{q.start, q.goal});
  ++queries_planned_;
  return p;
}

}  // namespace pathscope::app
