#include "planner/sim/path_service.hpp"

#include <algorithm>

#include "planner/core/default_planner.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

PathService::PathService(const PlanningWorld& world) : world_(world) {}
PathService::~PathService() = default;

void PathService::request(const PathRequest& request) {
  cancel(request.unit);
  const std::uint32_t slot = request.unit.index;
  queue_.push_back(Queued{request, ++ticket_[slot]});
  queued_[slot] = 1;
  ++pending_;
}

void PathService::cancel(UnitId unit) {
  const std::uint32_t slot = unit.index;
  if (ticket_.size() <= slot) {
    ticket_.resize(slot + 1, 0);
    queued_.resize(slot + 1, 0);
  }
  if (queued_[slot]) {
    queued_[slot] = 0;
    --pending_;
    ++ticket_[slot];  // the queued entry is stale now
  }
}

std::vector<PathRequest> PathService::queued() const {
  std::vector<PathRequest> out;
  out.reserve(pending_);
  for (const Queued& q : queue_) {
    if (q.ticket == ticket_[q.request.unit.index] && queued_[q.request.unit.index]) out.push_back(q.request);
  }
  return out;
}

void PathService::clear() {
  queue_.clear();
  std::fill(queued_.begin(), queued_.end(), 0);
  pending_ = 0;
}

void PathService::world_changed(bool rebuilt) {
  if (rebuilt) planners_.clear();
}

Planner* PathService::planner_for(std::size_t movement_class) {
  if (planners_.size() <= movement_class) planners_.resize(movement_class + 1);
  std::unique_ptr<Planner>& slot = planners_[movement_class];
  if (!slot) {
    const std::string& name = world_.scenario().classes[movement_class].planner;
    const PlannerInfo* info = find_planner(name);
    if (!info) info = find_planner(kDefaultPlanner);
    if (!info) return nullptr;
    Result<ParamValues> params = resolve_params(*info, {});
    if (!params.ok()) return nullptr;
    slot = info->create(QueryContext{world_, movement_class, std::nullopt, params.value()});
  }
  return slot.get();
}

std::vector<PathAnswer> PathService::answer(int budget) {
  std::vector<PathAnswer> answers;
  while (budget > 0 && !queue_.empty()) {
    const Queued q = queue_.front();
    queue_.pop_front();
    const PathRequest& r = q.request;
    if (q.ticket != ticket_[r.unit.index]) continue;  // replaced or cancelled
    queued_[r.unit.index] = 0;
    --pending_;
    --budget;
    PathAnswer a;
    a.unit = r.unit;
    Planner* planner = planner_for(r.movement_class);
    if (!planner) {
      a.status = SearchStatus::Invalid;
      a.message = "no planner for movement class " + std::to_string(r.movement_class);
    } else {
      SearchStatus s = planner->start(PathQuery{r.start, r.goal});
      while (s == SearchStatus::Running) s = planner->step(1u << 20);
      a.status = s;
      const PathResult& res = planner->result();
      if (s == SearchStatus::Found) a.points = res.points;
      a.message = res.message;
    }
    answers.push_back(std::move(a));
  }
  return answers;
}

}  // namespace pathscope::sim
