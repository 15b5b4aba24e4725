#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::sim {

namespace {

// Scenarios that exercise every part of the state: paths queued, cooperation and its
// memory, passages' turns, bridges held, patrols, units added and removed.
std::vector<Scenario> saved_game_cases() {
  std::vector<Scenario> out;
  Scenario crossing = crossing_case(10);
  crossing.name = "crossing";
  out.push_back(crossing);
  Scenario costed = crossing_case(10);
  costed.name = "crossing with density cost";
  costed.sim.density_cost = 4;  // the cost made from the density is state too
  costed.sim.density_refresh = 0.5;
  out.push_back(costed);
  Scenario circle = circle_case(40);
  circle.name = "circle";
  circle.sim.path_budget = 3;  // requests stay queued for a while
  out.push_back(circle);
  const auto bridge = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_bridge.json");
  REQUIRE(bridge.ok());
  out.push_back(*bridge);
  const auto town = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_town.json");
  REQUIRE(town.ok());
  out.push_back(*town);
  return out;
}

}  // namespace

TEST_CASE("saved games: loading at a random step and running on gives the same hashes as never saving") {
  std::mt19937_64 rng(42);
  for (const Scenario& s : saved_game_cases()) {
    CAPTURE(s.name);
    for (int trial = 0; trial < 3; ++trial) {
      const int save_at = std::uniform_int_distribution<int>(0, 900)(rng);
      CAPTURE(save_at);
      Simulation a(s);
      for (int i = 0; i < save_at; ++i) a.step();
      if (trial == 2 && a.unit_count() > 2) {
        // Units come and go: ids and free slots are part of the state.
        (void)a.remove_unit(a.slots()[1].id);
        Unit extra;
        extra.id = 999;
        extra.position = a.slots()[0].position + Vec2{0.01, 0};
        (void)a.add_unit(extra);
        (void)a.remove_unit(a.slots()[2].id);
      }
      // Through the file format, as a user's saved game goes.
      const Scenario saved = saved_game(a);
      const std::string text = scenario_to_json(saved);
      const auto loaded = parse_scenario(text, "saved.json");
      REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? std::string() : loaded.error().to_string()));
      CHECK(scenario_to_json(*loaded) == text);  // byte-identical round trip
      Simulation b(*loaded);
      const Status restored = b.restore_state(loaded->sim_state);
      REQUIRE_MESSAGE(restored.ok(), restored.error().to_string());
      REQUIRE(b.step_count() == a.step_count());
      REQUIRE(b.state_hash() == a.state_hash());
      REQUIRE(b.world().cost_overlay() == a.world().cost_overlay());
      for (int i = 0; i < 300; ++i) {
        a.step();
        b.step();
        REQUIRE(b.state_hash() == a.state_hash());
      }
      CHECK(b.counters().collisions_found == a.counters().collisions_found);
      CHECK(b.arrived_count() == a.arrived_count());
    }
  }
}

TEST_CASE("saved games: a broken state is refused, naming the field, and nothing changes") {
  Scenario s = crossing_case(3);
  Simulation a(s);
  for (int i = 0; i < 50; ++i) a.step();
  const std::string good = a.state_json();
  Simulation b(s);
  const std::uint64_t before = b.state_hash();
  auto refused = [&](const std::string& text) {
    const Status st = b.restore_state(text);
    REQUIRE_FALSE(st.ok());
    CHECK(b.state_hash() == before);
    CHECK(b.step_count() == 0);
    return st.error().where;
  };
  CHECK(refused("{") == "sim_state");
  CHECK(refused("[]") == "sim_state");
  std::string bad_version = good;
  bad_version.replace(bad_version.find("\"version\":1"), 11, "\"version\":7");
  CHECK(refused(bad_version) == "sim_state.version");
  std::string short_unit = good;
  short_unit.replace(short_unit.find("\"units\":[["), 10, "\"units\":[[0],[");
  CHECK(refused(short_unit) == "sim_state.units[0]");
  std::string no_memory = good;
  no_memory.replace(no_memory.find("\"memory\""), 8, "\"memoir\"");
  CHECK(refused(no_memory) == "sim_state");
  // The scenario reader refuses a sim_state that is not an object.
  std::string text = scenario_to_json(s);
  text.insert(text.rfind('}'), ",\n  \"sim_state\": 3\n");
  const auto parsed = parse_scenario(text, "x.json");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.error().where.find("sim_state") != std::string::npos);
}

}  // namespace pathscope::sim
