#pragma once

// Checks DetourCrowd's agents after every step, by its own geometry (it shares nothing with
// DetourCrowd nor with the unit simulation's referee): pairs of agents whose circles
// overlap, moves that cross a cell the agent's class cannot enter, centres inside such
// cells, moves longer than the class's speed allows (jumps), and how far each agent
// stands from its goal. The same figures as the
// simulation's referee reports for our units, so that `bench sim --crowd detour` puts the
// two side by side.

#include <cstdint>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "planner/navmesh/navmesh_crowd.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// What the crowd referee found over the steps it checked.
struct CrowdCounts {
  std::uint64_t steps = 0;          ///< Steps checked.
  std::uint64_t hard_overlaps = 0;  ///< Agent pairs whose circles overlapped after a step (each pair once).
  double max_overlap_m = 0;         ///< The deepest such overlap, metres.
  std::uint64_t tunnelled = 0;  ///< Agents whose move crossed a cell their class cannot enter (each once).
  std::uint64_t inside_walls =
      0;                      ///< Agents whose centre ended a step strictly inside such a cell (each once).
  std::uint64_t jumps = 0;    ///< Agents that moved farther in one step than their class's speed allows
                              ///< plus their diameter (a push apart moves an agent less; each once).
  double longest_step_m = 0;  ///< The longest move of any agent in one step, metres.
  double seconds_to_arrive =
      -1;  ///< When every agent with a goal first stood within tolerance of it; -1 not yet.
};

/// Goal errors now, of the agents with a goal.
struct CrowdGoals {
  std::size_t ordered = 0;
  std::size_t at_goal = 0;
  double at_goal_pct = 0;
  double mean_goal_error_m = 0;
  double max_goal_error_m = 0;
  double tolerance_m = 0;
};

class CrowdReferee {
 public:
  /// Overlaps shallower than `overlap_tolerance_m` are contact, not overlap.
  CrowdReferee(const PlanningWorld& world, double goal_tolerance_m = 0.5, double overlap_tolerance_m = 1e-6);

  /// Checks the agents after a step (call once after every step, from the first), the
  /// step lasting `dt` seconds.
  void check_step(std::span<const CrowdAgent> agents, double dt);
  const CrowdCounts& counts() const { return counts_; }
  CrowdGoals goals(std::span<const CrowdAgent> agents) const;

 private:
  bool closed(std::size_t movement_class, int x, int y) const;
  bool move_crosses_closed(const CrowdAgent& a) const;

  const PlanningWorld& world_;
  double goal_tolerance_m_;
  double overlap_tolerance_m_;
  CrowdCounts counts_;
  std::set<std::pair<std::size_t, std::size_t>> overlapped_;
  std::vector<std::uint8_t> tunnelled_, inside_, jumped_;
  std::vector<std::uint32_t> bucket_order_;
};

}  // namespace pathscope
