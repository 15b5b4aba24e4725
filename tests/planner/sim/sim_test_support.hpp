#pragma once
// Small helpers the simulation's tests share: open maps, a higher-priority class, a
// jump no step would make (through the saved state), and a step the referee checks.

#include <cstddef>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim::test_support {

/// `h` rows of `w` open cells.
inline std::vector<std::string> open_rows(int w, int h) {
  return std::vector<std::string>(std::size_t(h), std::string(std::size_t(w), '.'));
}

/// Appends a class like class 0 (the same terrain costs) named `name` with `priority`;
/// returns its index.
inline std::uint16_t add_class_like_first(Scenario& s, const std::string& name, int priority) {
  s.classes.push_back(s.classes[0]);
  s.classes.back().name = name;
  s.classes.back().priority = priority;
  for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
  return static_cast<std::uint16_t>(s.classes.size() - 1);
}

/// Class 1, "guard": class 0 with priority 5, so no unit of class 0 moves a guard aside.
inline void add_guard_class(Scenario& s) { add_class_like_first(s, "guard", 5); }

/// Puts the unit in `slot` at `to` (its previous position too), as if it had jumped
/// there, through the saved state: the simulation itself never does this, and the unit's
/// flags stay as they were.
inline void teleport(Simulation& sim, std::size_t slot, Vec2 to) {
  nlohmann::json state = nlohmann::json::parse(sim.state_json());
  nlohmann::json& unit = state["units"][slot];
  REQUIRE(unit["id"][0].get<std::size_t>() == slot);
  unit["body"]["position"] = nlohmann::json::array({to.x, to.y});
  unit["body"]["previous"] = nlohmann::json::array({to.x, to.y});
  REQUIRE(sim.restore_state(state.dump()).ok());
}

/// Steps `sim` once and has `referee` check the step: the step keeps no count of
/// overlaps or tunnelling, the referee (sim_referee.hpp) counts them from outside.
inline void step_checked(Simulation& sim, SimReferee& referee) {
  sim.step();
  referee.check_step(sim);
}

}  // namespace pathscope::sim::test_support
