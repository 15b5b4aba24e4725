#include "planner/navmesh/crowd_run.hpp"

#include <cmath>
#include <utility>

namespace pathscope {

CrowdRun::CrowdRun(Scenario scenario)
    : world_(std::make_unique<PlanningWorld>(std::move(scenario))), dt_(world_->scenario().sim.dt) {}

Result<std::unique_ptr<CrowdRun>> CrowdRun::create(Scenario scenario, const CrowdSettings& settings) {
  std::unique_ptr<CrowdRun> run(new CrowdRun(std::move(scenario)));
  Result<std::unique_ptr<NavmeshCrowd>> made = NavmeshCrowd::create(*run->world_, settings);
  if (!made) return made.error();
  run->crowd_ = std::move(made).value();
  run->referee_ = std::make_unique<CrowdReferee>(*run->world_);
  for (const CrowdAgent& a : run->crowd_->agents()) run->placed_.push_back(a.position);
  return run;
}

void CrowdRun::step() {
  crowd_->step(dt_);
  referee_->check_step(crowd_->agents(), dt_);
}

std::size_t CrowdRun::order(std::span<const std::size_t> units, Vec2 goal) {
  std::size_t taken = 0;
  for (const std::size_t u : units) taken += crowd_->move_to(u, goal) ? 1 : 0;
  return taken;
}

std::size_t CrowdRun::moved(double metres) const {
  std::size_t n = 0;
  const std::span<const CrowdAgent> agents = crowd_->agents();
  for (std::size_t i = 0; i < agents.size(); ++i) {
    const Vec2 d = agents[i].position - placed_[i];
    n += std::hypot(d.x, d.y) > metres ? 1 : 0;
  }
  return n;
}

}  // namespace pathscope
