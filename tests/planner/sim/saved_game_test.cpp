#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/sim_fields.hpp"
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

TEST_CASE("saved games: loading at a random step and running on gives the same hashes as never saving" *
          doctest::test_suite("sim-long")) {
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
        extra.position = a.slots()[0].body.position + Vec2{0.01, 0};
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
  bad_version.replace(bad_version.find("\"version\":3"), 11, "\"version\":7");
  CHECK(refused(bad_version) == "sim_state.version");
  {
    // Version 2 kept three more counters (the step's own overlaps and tunnelling): read
    // and dropped, the same state; one missing is refused.
    nlohmann::json v2 = nlohmann::json::parse(good);
    v2["version"] = 2;
    nlohmann::json& counters = v2["counters"];
    REQUIRE(counters.size() == 4);
    counters.insert(counters.begin() + 1, {1, 0.25, 2});
    Simulation c(s);
    REQUIRE(c.restore_state(v2.dump()).ok());
    CHECK(c.state_hash() == a.state_hash());
    CHECK(nlohmann::json::parse(c.state_json()) == nlohmann::json::parse(good));
    counters.erase(counters.end() - 1);
    CHECK(refused(v2.dump()).rfind("sim_state.counters", 0) == 0);
  }
  std::string short_unit = good;
  short_unit.replace(short_unit.find("\"units\":[{"), 10, "\"units\":[[0],{");
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

TEST_CASE("saved games: a hand-edited state naming what is not there is refused, naming the field") {
  using Json = nlohmann::json;
  Scenario s = crossing_case(3);
  Simulation a(s);
  for (int i = 0; i < 60; ++i) a.step();
  const Json good = Json::parse(a.state_json());
  REQUIRE(good["units"].size() >= 2);
  Simulation b(s);
  const std::uint64_t before = b.state_hash();
  // Refused, naming `where` and a message holding `what`; b unchanged.
  auto refused = [&](const Json& state, const std::string& where, const std::string& what) {
    const Status st = b.restore_state(state.dump());
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == where);
    CHECK_MESSAGE(st.error().message.find(what) != std::string::npos, st.error().message);
    CHECK(b.state_hash() == before);
    CHECK(b.step_count() == 0);
  };
  {
    Json bad = good;
    bad["units"][1]["coop"]["lent_index"] = 99;
    bad["units"][1]["coop"]["lent"] = true;
    refused(bad, "sim_state.units[1]", "lent rank names slot 99");
  }
  {
    Json bad = good;
    bad["units"][1]["route"]["order_point"] = good["units"][1]["route"]["order"]["points"].size();
    refused(bad, "sim_state.units[1]", "order point index");
  }
  {
    Json bad = good;
    bad["units"][1]["route"]["patrol_step"] = 3;
    refused(bad, "sim_state.units[1].route.patrol_step", "expected 1 or -1");
  }
  {
    Json bad = good;
    bad["units"][1]["faction"] = 9;
    refused(bad, "sim_state.units[1]", "faction 9");
  }
  {
    Json bad = good;
    bad["units"][1]["coop"]["yield"] = 1;  // Wait
    bad["units"][1]["coop"]["yield_to"] = Json::array({99, 0});
    refused(bad, "sim_state.units[1]", "yield_to names slot 99");
  }
  {
    Json bad = good;
    bad["memory"].push_back(Json::array({0, 0, 99, 0, 1.5, 1}));
    refused(bad, "sim_state.memory[" + std::to_string(good["memory"].size()) + "]", "names a slot");
  }
  {
    Json bad = good;
    bad["collisions"].push_back(Json::array({99, 0, 1, 0, 1, 1, 0.0, 1.0, 1.0, 0, 0, 1.0, 1.0}));
    refused(bad, "sim_state.collisions[" + std::to_string(good["collisions"].size()) + "]", "names a slot");
  }
  {
    Json bad = good;
    bad["path_requests"].push_back(Json::array({99, 0, 0, 1.0, 1.0, 2.0, 2.0}));
    refused(bad, "sim_state.path_requests[" + std::to_string(good["path_requests"].size()) + "]",
            "names no slot");
  }
  {
    Json bad = good;
    bad["density"]["width"] = 3;
    bad["density"]["height"] = 3;
    refused(bad, "sim_state.density", "the world's grid has");
  }
  {
    Json bad = good;
    bad["bridges"] = Json::array({Json::array({77, 1})});
    refused(bad, "sim_state.bridges[0]", "bridge 77 is not in the scenario");
  }
  // The untouched state is taken.
  CHECK(b.restore_state(good.dump()).ok());
  CHECK(b.state_hash() == a.state_hash());
}

TEST_CASE("saved games: every field of every unit reads back bit for bit, and a version 1 save still loads") {
  const auto bridge = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/sim_bridge.json");
  REQUIRE(bridge.ok());
  Simulation fresh(*bridge);
  for (int i = 0; i < 300; ++i) fresh.step();
  auto same_units = [](const Simulation& a, const Simulation& b) {
    REQUIRE(a.slots().size() == b.slots().size());
    for (std::size_t k = 0; k < a.slots().size(); ++k) {
      CAPTURE(k);
      CHECK(fields::first_difference(a.slots()[k], b.slots()[k]) == "");
    }
  };
  // This version's save (units as named fields), read back: every field the field list
  // names is equal, not only the hashed ones.
  {
    Simulation b(*bridge);
    REQUIRE(b.restore_state(fresh.state_json()).ok());
    same_units(fresh, b);
    CHECK(b.state_json() == fresh.state_json());
  }
  // A save written by version 1 (units as tapes) at step 300 of the same run, by
  // `pathscope simulate maps/sim_bridge.json --steps 300 --save-state`.
  const auto old = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/tests/data/saved_game_v1.json");
  REQUIRE(old.ok());
  REQUIRE(nlohmann::json::parse(old->sim_state)["version"] == 1);
  Simulation b(*old);
  const Status st = b.restore_state(old->sim_state);
  REQUIRE_MESSAGE(st.ok(), st.error().to_string());
  REQUIRE(b.step_count() == 300);
  same_units(fresh, b);
  CHECK(b.state_hash() == fresh.state_hash());
  for (int i = 0; i < 150; ++i) {
    fresh.step();
    b.step();
  }
  CHECK(b.state_hash() == fresh.state_hash());
  same_units(fresh, b);
}

}  // namespace pathscope::sim
