// Restored state is checked in one pass before it is taken (sim_state.cpp): the hostile
// saved games of issue 33, each refused naming the JSON path, where they used to crash,
// corrupt memory, abort or be accepted.

#include <cstddef>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "planner/sim/sim_cases.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

namespace {

using Json = nlohmann::json;

// Where fields sit in a unit's tape (sim_state.cpp, write_unit; docs/formats-sim.md).
struct TapeAt {
  std::size_t position = 6;
  std::size_t state = 12;
  std::size_t order_kind = 13;
  std::size_t order_points = 15;
  std::size_t order_point = 0;
  std::size_t path = 0;
  std::size_t last_passage = 0;
};

TapeAt tape_at(const Json& u) {
  TapeAt f;
  std::size_t at = f.order_points;
  at += 1 + 2 * u[at].get<std::size_t>();
  f.order_point = at;
  at += 2;  // order point, patrol step
  f.path = at;
  at += 1 + 2 * u[at].get<std::size_t>();
  at += 1;                                 // waypoint
  at += 1 + 6 * u[at].get<std::size_t>();  // predicted: x y, heading, speed, time, waypoint
  at += 2;                                 // arrived, arrived time
  at += 26;                                // yield ... the chosen move, from prediction
  at += 1 + 2 * u[at].get<std::size_t>();  // yield path
  at += 5;                                 // tunnelled, last re-path, platoon, last bridge, bridge time
  f.last_passage = at;
  return f;
}

// A simulation to restore into, and a state of the same scenario saved after `steps`.
struct Fixture {
  Scenario scenario;
  Json good;
  explicit Fixture(Scenario s, int steps = 60) : scenario(std::move(s)) {
    Simulation a(scenario);
    for (int i = 0; i < steps; ++i) a.step();
    good = Json::parse(a.state_json());
  }
  // The refusal of `state`; fails the test if it is accepted (and never steps it).
  Error refusal(const Json& state) const {
    Simulation b(scenario);
    const std::uint64_t before = b.state_hash();
    const Status st = b.restore_state(state.dump());
    REQUIRE_MESSAGE(!st.ok(), "accepted: " << state.dump().substr(0, 200));
    CHECK(b.state_hash() == before);  // nothing changed
    CHECK(b.step_count() == 0);
    CHECK_MESSAGE(st.error().to_string().find("json.exception") == std::string::npos, st.error().to_string());
    return st.error();
  }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("restore checks: a move or patrol order with no points, on its way, is refused") {
  Fixture fx(crossing_case(3));
  for (const int kind : {1, 3}) {  // move, patrol
    CAPTURE(kind);
    Json bad = fx.good;
    Json& u = bad["units"][1];
    const TapeAt f = tape_at(u);
    const std::size_t n = u[f.order_points].get<std::size_t>();
    u.erase(u.begin() + static_cast<std::ptrdiff_t>(f.order_points) + 1,
            u.begin() + static_cast<std::ptrdiff_t>(f.order_points + 1 + 2 * n));
    u[f.order_points] = 0;
    u[f.order_kind] = kind;
    u[f.order_point - 2 * n] = 0;
    u[f.state] = 3;  // increment_waypoint: the next step reads order.points[order_point]
    const Error e = fx.refusal(bad);
    CHECK(e.where == "sim_state.units[1]");
    CHECK_MESSAGE(has(e.message, "with 0 points"), e.message);
  }
  // A stop order (no points) on its way to an order point.
  Json bad = fx.good;
  Json& u = bad["units"][2];
  const TapeAt f = tape_at(u);
  const std::size_t n = u[f.order_points].get<std::size_t>();
  u.erase(u.begin() + static_cast<std::ptrdiff_t>(f.order_points) + 1,
          u.begin() + static_cast<std::ptrdiff_t>(f.order_points + 1 + 2 * n));
  u[f.order_points] = 0;
  u[f.order_kind] = 4;  // stop
  u[f.order_point - 2 * n] = 0;
  u[f.state] = 2;  // moving
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[2]");
  CHECK_MESSAGE(has(e.message, "no order point"), e.message);
}

TEST_CASE("restore checks: a last passage without passage maps is refused") {
  // Saved before the first step: no passage maps yet, so no unit can have a last passage.
  Fixture fx(crossing_case(3), 0);
  REQUIRE(fx.good["passage_maps"] == false);
  Json bad = fx.good;
  Json& u = bad["units"][0];
  u[tape_at(u).last_passage] = 5;
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[0]");
  CHECK_MESSAGE(has(e.message, "last passage 5"), e.message);
  CHECK_MESSAGE(has(e.message, "passage_maps"), e.message);
}

TEST_CASE("restore checks: a density cost beyond what sim.density_cost makes is refused") {
  Scenario s = crossing_case(3);
  s.sim.density_cost = 4;
  Fixture fx(s, 10);
  for (const double factor : {1e300, 1e30, 5.5, 0.5}) {
    CAPTURE(factor);
    Json bad = fx.good;
    bad["density_cost"] = Json::array({0, factor});
    const Error e = fx.refusal(bad);
    CHECK(e.where == "sim_state.density_cost[1]");
    CHECK_MESSAGE(has(e.message, "factor: expected a number in [1, 5]"), e.message);
  }
  // The largest factor the density cost makes (1 + density_cost) is taken.
  Json fine = fx.good;
  fine["density_cost"] = Json::array({0, 5.0});
  Simulation b(s);
  CHECK(b.restore_state(fine.dump()).ok());
}

TEST_CASE("restore checks: NaN, infinite or huge positions, path points and order points are refused") {
  Fixture fx(crossing_case(3));
  const TapeAt f = tape_at(fx.good["units"][1]);
  REQUIRE(fx.good["units"][1][f.path].get<std::size_t>() > 0);
  struct Case {
    std::size_t at;
    Json value;
    const char* field;
    const char* what;
  };
  const Case cases[] = {
      {f.position, "nan", "position", "expected a finite number, found nan"},
      {f.position + 1, "-inf", "position", "expected a finite number, found -inf"},
      {f.position + 2, 1e308, "previous position", "is outside"},
      {f.path + 1, "inf", "path", "expected a finite number, found inf"},
      {f.path + 2, 1e300, "path", "is outside"},
      {f.order_points + 1, "nan", "order points", "expected a finite number"},
      {f.order_points + 2, -1e300, "order points", "is outside"},
      {10, "nan", "heading", "expected a finite number"},
      {11, 1e300, "speed", "expected a number in [0, "},
  };
  for (const Case& c : cases) {
    CAPTURE(c.at);
    CAPTURE(c.field);
    Json bad = fx.good;
    bad["units"][1][c.at] = c.value;
    const Error e = fx.refusal(bad);
    // A point is refused at its y, when both are read.
    CHECK_MESSAGE(has(e.where, "sim_state.units[1]["), e.where);
    CHECK_MESSAGE(has(e.message, std::string(c.field) + ": "), e.message);
    CHECK_MESSAGE(has(e.message, c.what), e.message);
  }
}

TEST_CASE("restore checks: a unit outside the world is refused") {
  Fixture fx(crossing_case(3));
  Json bad = fx.good;
  bad["units"][1][6] = 1e6;
  bad["units"][1][7] = 1e6;
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[1][7]");
  CHECK_MESSAGE(has(e.message, "position: (1000000, 1000000) is outside [0, "), e.message);
  // Through a saved game's file, the refusal names the file (the caller prefixes it, as
  // `pathscope simulate` does) and the JSON path.
  Simulation a(fx.scenario);
  for (int i = 0; i < 60; ++i) a.step();
  Scenario saved = saved_game(a);
  saved.sim_state = bad.dump();
  const auto loaded = parse_scenario(scenario_to_json(saved), "saved.json");
  REQUIRE(loaded.ok());
  Simulation b(*loaded);
  const Status st = b.restore_state(loaded->sim_state);
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().where == "sim_state.units[1][7]");
}

TEST_CASE("restore checks: two live units with one scenario id are refused (the save could not be read)") {
  Fixture fx(crossing_case(3));
  Json bad = fx.good;
  bad["units"][2][3] = bad["units"][1][3];
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[2]");
  CHECK_MESSAGE(has(e.message, "also units[1]"), e.message);
}

TEST_CASE("restore checks: a refusal names the JSON path and never shows a parser's exception") {
  Fixture fx(crossing_case(3));
  {
    Json bad = fx.good;
    bad["passage_maps"] = 3;
    const Error e = fx.refusal(bad);
    CHECK(e.to_string() == "sim_state.passage_maps: expected 0/1 or a boolean, found 3");
  }
  {
    // 0 and 1 read as the flag.
    Json fine = fx.good;
    fine["passage_maps"] = fine["passage_maps"].get<bool>() ? 1 : 0;
    Simulation b(fx.scenario);
    CHECK(b.restore_state(fine.dump()).ok());
  }
  // Every top-level field of the wrong type, or missing.
  for (const auto& [key, value] : fx.good.items()) {
    for (const Json& wrong : {Json("x"), Json(-1), Json(1.5), Json::object(), Json(nullptr), Json(true)}) {
      if (wrong == value) continue;
      CAPTURE(key);
      CAPTURE(wrong.dump());
      Json bad = fx.good;
      bad[key] = wrong;
      Simulation b(fx.scenario);
      const Status st = b.restore_state(bad.dump());
      // (A few values read the same: `passage_maps` true as 1, say.)
      if (st.ok()) continue;
      CHECK_MESSAGE(has(st.error().where, "sim_state"), st.error().to_string());
      CHECK_MESSAGE(!has(st.error().to_string(), "json.exception"), st.error().to_string());
    }
    Json bad = fx.good;
    bad.erase(key);
    Simulation b(fx.scenario);
    const Status st = b.restore_state(bad.dump());
    if (st.ok()) continue;  // optional fields
    CHECK_MESSAGE(has(st.error().message, "missing field \"" + key + "\""), st.error().to_string());
  }
  // Every item of a unit's tape, and of the density's fields, of the wrong type.
  const Json& tape = fx.good["units"][1];
  for (std::size_t k = 0; k < tape.size(); ++k) {
    CAPTURE(k);
    Json bad = fx.good;
    bad["units"][1][k] = "x";
    const Error e = fx.refusal(bad);
    CHECK(e.where == "sim_state.units[1][" + std::to_string(k) + "]");
  }
  for (const char* key : {"width", "height", "cell_size", "max_value"}) {
    CAPTURE(key);
    Json bad = fx.good;
    bad["density"][key] = "x";
    const Error e = fx.refusal(bad);
    CHECK(e.where == std::string("sim_state.density.") + key);
  }
  const Error e = fx.refusal(Json::parse("{\"version\": 1, \"units\": 3}"));
  CHECK(e.to_string() == "sim_state.units: expected a list, found 3");
  Simulation b(fx.scenario);
  const Status st = b.restore_state("{\"version\": 1,");
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().where == "sim_state");
  CHECK_MESSAGE(!has(st.error().to_string(), "json.exception"), st.error().to_string());
}

}  // namespace pathscope::sim
