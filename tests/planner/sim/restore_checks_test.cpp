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

// The JSON path a refusal names for a JSON pointer into the state ("/units/1/body/position/0"
// is "sim_state.units[1].body.position[0]").
std::string path_of(const std::string& pointer) {
  std::string out = "sim_state";
  std::size_t at = 1;
  while (at <= pointer.size()) {
    const std::size_t end = std::min(pointer.find('/', at), pointer.size());
    const std::string part = pointer.substr(at, end - at);
    const bool index = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + part + "]" : "." + part;
    at = end + 1;
  }
  return out;
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
    Json& route = bad["units"][1]["route"];
    route["order"]["points"] = Json::array();
    route["order"]["kind"] = kind;
    route["order_point"] = 0;
    route["state"] = 3;  // increment_waypoint: the next step reads order.points[order_point]
    const Error e = fx.refusal(bad);
    CHECK(e.where == "sim_state.units[1]");
    CHECK_MESSAGE(has(e.message, "with 0 points"), e.message);
  }
  // A stop order (no points) on its way to an order point.
  Json bad = fx.good;
  Json& route = bad["units"][2]["route"];
  route["order"]["points"] = Json::array();
  route["order"]["kind"] = 4;  // stop
  route["order_point"] = 0;
  route["state"] = 2;  // moving
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[2]");
  CHECK_MESSAGE(has(e.message, "no order point"), e.message);
}

TEST_CASE("restore checks: a last passage without passage maps is refused") {
  // Saved before the first step: no passage maps yet, so no unit can have a last passage.
  Fixture fx(crossing_case(3), 0);
  REQUIRE(fx.good["passage_maps"] == false);
  Json bad = fx.good;
  bad["units"][0]["sim"]["last_passage"] = 5;
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[0]");
  CHECK_MESSAGE(has(e.message, "last passage 5"), e.message);
  CHECK_MESSAGE(has(e.message, "passage_maps"), e.message);
}

TEST_CASE("restore checks: a last bridge or passage is -1 or an index, nothing else") {
  Fixture fx(crossing_case(3));
  for (const char* field : {"last_bridge", "last_passage"}) {
    for (const std::int64_t value : {std::int64_t{-2}, std::int64_t{-1000}, std::int64_t{1} << 32}) {
      CAPTURE(field);
      CAPTURE(value);
      Json bad = fx.good;
      bad["units"][0]["sim"][field] = value;
      const Error e = fx.refusal(bad);
      CHECK(e.where == std::string("sim_state.units[0].sim.") + field);
      CHECK_MESSAGE(has(e.message, "expected -1 (none) or an index"), e.message);
    }
  }
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
  REQUIRE(fx.good["units"][1]["route"]["path"].size() > 0);
  REQUIRE(fx.good["units"][1]["route"]["order"]["points"].size() > 0);
  struct Case {
    const char* pointer;
    Json value;
    const char* where;  // after "sim_state.units[1]."
    const char* what;
  };
  const Case cases[] = {
      {"/units/1/body/position/0", "nan", "body.position[0]", "expected a finite number, found nan"},
      {"/units/1/body/position/1", "-inf", "body.position[1]", "expected a finite number, found -inf"},
      {"/units/1/body/previous/1", 1e308, "body.previous", "is outside"},
      {"/units/1/route/path/0/1", "inf", "route.path[0][1]", "expected a finite number, found inf"},
      {"/units/1/route/path/0/0", 1e300, "route.path[0]", "is outside"},
      {"/units/1/route/order/points/0/1", "nan", "route.order.points[0][1]", "expected a finite number"},
      {"/units/1/route/order/points/0/0", -1e300, "route.order.points[0]", "is outside"},
      {"/units/1/body/heading", "nan", "body.heading", "expected a finite number"},
      {"/units/1/body/speed", 1e300, "body.speed", "expected a number in [0, "},
  };
  for (const Case& c : cases) {
    CAPTURE(c.pointer);
    Json bad = fx.good;
    bad[Json::json_pointer(c.pointer)] = c.value;
    const Error e = fx.refusal(bad);
    CHECK(e.where == std::string("sim_state.units[1].") + c.where);
    CHECK_MESSAGE(has(e.message, c.what), e.message);
  }
}

TEST_CASE("restore checks: a unit outside the world is refused") {
  Fixture fx(crossing_case(3));
  Json bad = fx.good;
  bad["units"][1]["body"]["position"] = Json::array({1e6, 1e6});
  const Error e = fx.refusal(bad);
  CHECK(e.where == "sim_state.units[1].body.position");
  CHECK_MESSAGE(has(e.message, "(1000000, 1000000) is outside [0, "), e.message);
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
  CHECK(st.error().where == "sim_state.units[1].body.position");
}

TEST_CASE("restore checks: two live units with one scenario id are refused (the save could not be read)") {
  Fixture fx(crossing_case(3));
  Json bad = fx.good;
  bad["units"][2]["scenario_id"] = bad["units"][1]["scenario_id"];
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
  // Every value of a unit, of the wrong type, is refused naming its JSON path; every
  // field of a unit, missing, is refused naming it.
  const Json flat = fx.good["units"][1].flatten();
  REQUIRE(flat.size() > 60);
  for (const auto& [pointer, value] : flat.items()) {
    CAPTURE(pointer);
    Json bad = fx.good;
    bad[Json::json_pointer("/units/1" + pointer)] = "x";
    const Error e = fx.refusal(bad);
    CHECK(e.where == path_of("/units/1" + pointer));
  }
  for (const auto& [key, value] : fx.good["units"][1].items()) {
    CAPTURE(key);
    Json bad = fx.good;
    bad["units"][1].erase(key);
    const Error e = fx.refusal(bad);
    CHECK(e.where == "sim_state.units[1]");
    CHECK_MESSAGE(has(e.message, "missing field \"" + key + "\""), e.message);
  }
  // The density's fields, of the wrong type.
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
