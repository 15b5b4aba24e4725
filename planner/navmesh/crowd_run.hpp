#pragma once

// A scenario's units run under DetourCrowd as a run of their own: the world, the crowd
// (navmesh_crowd.hpp) and its referee (crowd_referee.hpp) together, stepped by the
// scenario's fixed dt. The window runs one beside the unit simulation ("two runs, the
// same orders"): each step of the simulation steps it once, and each order given to
// units goes to their agents too.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/navmesh/crowd_referee.hpp"
#include "planner/navmesh/navmesh_crowd.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// DetourCrowd's run of a scenario's units, with its referee.
class CrowdRun {
 public:
  /// Builds the world, the meshes and the agents from `scenario` (its units as placed,
  /// their orders' last points as targets): an error naming the unit or class when
  /// NavmeshCrowd::create refuses.
  static Result<std::unique_ptr<CrowdRun>> create(Scenario scenario, const CrowdSettings& settings = {});
  CrowdRun(const CrowdRun&) = delete;
  CrowdRun& operator=(const CrowdRun&) = delete;

  /// One step of the scenario's dt, then the referee's check.
  void step();
  /// Sends the agents of `units` (indices into Scenario::units) to `goal`, world metres;
  /// how many took it (NavmeshCrowd::move_to: a goal in another terrain group is refused).
  std::size_t order(std::span<const std::size_t> units, Vec2 goal);

  /// The agents, in the scenario's unit order.
  std::span<const CrowdAgent> agents() const { return crowd_->agents(); }
  /// What the referee counted since the start.
  const CrowdCounts& counts() const { return referee_->counts(); }
  /// Goal errors now.
  CrowdGoals goals() const { return referee_->goals(crowd_->agents()); }
  /// Steps made, and seconds simulated (steps x dt).
  std::uint64_t steps() const { return crowd_->steps(); }
  double time() const { return double(crowd_->steps()) * dt_; }
  /// Agents standing more than `metres` from where they were placed.
  std::size_t moved(double metres) const;
  /// The scenario it runs.
  const Scenario& scenario() const { return world_->scenario(); }

 private:
  explicit CrowdRun(Scenario scenario);

  std::unique_ptr<PlanningWorld> world_;
  std::unique_ptr<NavmeshCrowd> crowd_;
  std::unique_ptr<CrowdReferee> referee_;
  std::vector<Vec2> placed_;
  double dt_ = 0;
};

}  // namespace pathscope
