#pragma once

// The scenario's units moved by DetourCrowd (Recast/Detour's crowd) on each movement
// class's navmesh: the crowd game programmers know, run on the same orders as the unit
// simulation so that the two can be compared side by side (`pathscope bench sim --crowd
// detour`). One dtCrowd per movement class that has units: agents of different classes
// do not see each other (DetourCrowd runs on one navmesh, and each class has its own).
// Each agent heads for its order's last point (its group's when the unit has none);
// patrols and formation slots are not modelled.

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/navmesh/navmesh.hpp"
#include "planner/world/planning_world.hpp"

class dtCrowd;

namespace pathscope {

/// How the crowd's agents are set up (DetourCrowd's own parameters, from the classes).
struct CrowdSettings {
  /// Mesh build parameters; the radius is each class's (NavmeshParams::radius < 0).
  NavmeshParams mesh{};
  /// DetourCrowd's obstacle-avoidance quality, 0 (low) to 3 (high), as in Recast's demo.
  int avoidance_quality = 2;
  /// Separation weight (DetourCrowd's, with DT_CROWD_SEPARATION).
  double separation_weight = 2;
};

/// One agent as the crowd last moved it.
struct CrowdAgent {
  std::size_t unit = 0;            ///< Index into Scenario::units.
  std::size_t movement_class = 0;  ///< The unit's class.
  double radius = 0;               ///< The class's hard radius, metres (DetourCrowd's agent radius).
  Vec2 previous{0, 0};             ///< Where it stood before the last step.
  Vec2 position{0, 0};             ///< Where it stands.
  bool has_goal = false;           ///< It was given a target.
  Vec2 goal{0, 0};                 ///< Its order's last point (has_goal).
};

/// The units of a world's scenario as DetourCrowd agents.
class NavmeshCrowd {
 public:
  /// Builds each class's navmesh and crowd and places the units: an error (naming the
  /// unit or class) when a mesh cannot be built or a unit stands off its class's mesh.
  static Result<std::unique_ptr<NavmeshCrowd>> create(const PlanningWorld& world,
                                                      const CrowdSettings& settings);
  ~NavmeshCrowd();
  NavmeshCrowd(const NavmeshCrowd&) = delete;
  NavmeshCrowd& operator=(const NavmeshCrowd&) = delete;

  /// Advances every crowd by `dt` seconds (dtCrowd::update).
  void step(double dt);
  /// Sends unit `unit`'s agent (index into Scenario::units) to `goal`, world metres, on
  /// the polygons of its terrain group: false, and the agent stops, when the goal lies in
  /// another group, in a cell its class cannot enter or off its mesh (or no such unit).
  bool move_to(std::size_t unit, Vec2 goal);
  /// The agents, in the scenario's unit order.
  std::span<const CrowdAgent> agents() const { return agents_; }
  /// Steps made.
  std::size_t steps() const { return steps_; }

 private:
  struct ClassCrowd;
  explicit NavmeshCrowd(const PlanningWorld& world);
  // Sends agent `idx` of `cc` to `goal`, on its terrain group's polygons; false (and no
  // target) when the goal is in another group, in a closed cell or off the mesh.
  bool target(ClassCrowd& cc, int idx, Vec2 goal) const;

  const PlanningWorld& world_;
  std::vector<std::unique_ptr<ClassCrowd>> crowds_;
  std::vector<CrowdAgent> agents_;
  std::vector<std::pair<std::size_t, int>> where_;  // per unit: index into crowds_, agent index
  std::size_t steps_ = 0;
};

}  // namespace pathscope
