// The scenario format's version 3: vehicle models, platoons and the scenario's own
// formations, read, written, and refused at their fields.

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "tests/planner/scenario/scenario_test_support.hpp"

namespace pathscope {

namespace platoon_io_test {

using Json = nlohmann::json;

/// A version 3 document: two tanks in a platoon (a custom formation), a wheeled class of
/// its own.
Json platoon_doc() {
  return Json::parse(R"({
    "format": "pathscope-scenario", "version": 3, "name": "p", "description": "",
    "world": {"width": 100, "height": 80, "cell_size": 2},
    "movement_classes": [
      {"name": "tank", "radius": 2.5, "speed": 10, "amphibious": false, "vehicle": "tracked"},
      {"name": "car", "radius": 2, "speed": 18, "amphibious": false, "vehicle": "wheeled",
       "min_turn_radius": 6, "reverse_speed": 4}
    ],
    "terrain_types": [{"name": "ground", "symbol": ".", "color": "#80a060", "cost": {"tank": 1, "car": 1}}],
    "factions": [{"name": "blue", "color": "#3060ff"}],
    "units": [{"id": 1, "faction": "blue", "class": "tank", "position": [20, 40]},
              {"id": 2, "faction": "blue", "class": "car", "position": [10, 30]}],
    "groups": [{"id": 7, "units": [1, 2], "order": {"kind": "move", "points": [[80, 40]]},
                "platoon": {"formation": "pair", "spacing": 9, "heading": 1.5, "break_when_blocked": true}}],
    "formations": [{"name": "pair", "offsets": [[0, 0], [-10, 10]]}]
  })");
}

}  // namespace platoon_io_test

TEST_CASE("scenario format 3: vehicle models, platoons and formations are read and written back the same") {
  const Result<Scenario> r = test::parse_doc(platoon_io_test::platoon_doc());
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  CHECK(r->classes[0].vehicle == VehicleModel::Tracked);
  CHECK(r->classes[1].vehicle == VehicleModel::Wheeled);
  CHECK(r->classes[1].min_turn_radius == 6.0);
  CHECK(r->classes[1].reverse_speed == 4.0);
  CHECK_FALSE(r->classes[0].min_turn_radius.has_value());
  REQUIRE(r->groups[0].platoon.has_value());
  CHECK(r->groups[0].platoon->formation == "pair");
  CHECK(r->groups[0].platoon->spacing == 9);
  CHECK(r->groups[0].platoon->heading == 1.5);
  CHECK(r->groups[0].platoon->break_when_blocked);
  REQUIRE(r->formations.size() == 1);
  CHECK(r->formations[0].offsets[1] == Vec2{-10, 10});
  CHECK(validate_scenario(*r).ok());
  const std::string text = scenario_to_json(*r);
  const Result<Scenario> again = parse_scenario(text, "again.json");
  REQUIRE(again.ok());
  CHECK(*again == *r);
  CHECK(scenario_to_json(*again) == text);
  // A platoon with the defaults writes them (a platoon is what the field says).
  Scenario plain = *r;
  plain.groups[0].platoon = PlatoonSpec{};
  plain.groups[0].units = {1};
  const nlohmann::json written = nlohmann::json::parse(scenario_to_json(plain));
  CHECK(written["groups"][0]["platoon"] == nlohmann::json::parse(R"({"formation": "wedge", "spacing": 8})"));
}

TEST_CASE("scenario format 3: a version 2 file has no platoon, and its classes steer as infantry") {
  nlohmann::json doc = platoon_io_test::platoon_doc();
  doc["version"] = 2;
  doc["movement_classes"][0].erase("vehicle");
  doc["movement_classes"][1].erase("vehicle");
  doc["movement_classes"][1].erase("min_turn_radius");
  doc["movement_classes"][1].erase("reverse_speed");
  doc["groups"][0].erase("platoon");
  doc.erase("formations");
  const Result<Scenario> r = test::parse_doc(doc);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  CHECK(r->classes[0].vehicle == VehicleModel::Infantry);
  CHECK_FALSE(r->groups[0].platoon.has_value());
  CHECK(r->formations.empty());
}

TEST_CASE("scenario format 3: bad vehicles, platoons and formations are refused at their fields") {
  using test::expect_doc_error;
  nlohmann::json doc = platoon_io_test::platoon_doc();
  nlohmann::json bad = doc;
  bad["movement_classes"][0]["vehicle"] = "hovercraft";
  expect_doc_error(bad, "t.json: movement_classes[0].vehicle", "hovercraft");
  bad = doc;
  bad["movement_classes"][1]["min_turn_radius"] = -1;
  expect_doc_error(bad, "t.json: movement_classes[1].min_turn_radius", "expected a finite number > 0");
  bad = doc;
  bad["movement_classes"][1]["reverse_speed"] = 0;
  expect_doc_error(bad, "t.json: movement_classes[1].reverse_speed", "expected a finite number > 0");
  bad = doc;
  bad["groups"][0]["platoon"]["formation"] = "phalanx";
  expect_doc_error(bad, "t.json: groups[0].platoon.formation", "no formation is named \"phalanx\"");
  bad = doc;
  bad["groups"][0]["platoon"]["formation"] = "custom";
  expect_doc_error(bad, "t.json: groups[0].platoon.formation", "no formation is named \"custom\"");
  bad = doc;
  bad["groups"][0]["platoon"]["spacing"] = 0;
  expect_doc_error(bad, "t.json: groups[0].platoon.spacing", "expected a finite number > 0");
  bad = doc;
  bad["groups"][0]["platoon"]["break_when_blocked"] = "yes";
  expect_doc_error(bad, "t.json: groups[0].platoon.break_when_blocked", "expected true or false");
  bad = doc;
  bad["groups"][0]["platoon"]["colour"] = "red";
  expect_doc_error(bad, "t.json: groups[0].platoon.colour", "unknown field \"colour\"");
  bad = doc;
  bad["formations"][0]["offsets"] = nlohmann::json::array({nlohmann::json::array({0, 0})});
  expect_doc_error(bad, "t.json: groups[0].platoon.formation", "has 1 slots for 2 units");
  bad = doc;
  bad["formations"][0]["name"] = "wedge";
  expect_doc_error(bad, "t.json: formations[0].name", "built-in formation's name");
  bad = doc;
  bad["formations"].push_back(doc["formations"][0]);
  expect_doc_error(bad, "t.json: formations[1].name", "pair");
  bad = doc;
  bad["formations"][0]["offsets"][1] = nlohmann::json::array({1e9, 0});
  expect_doc_error(bad, "t.json: formations[0].offsets[1]", "within the world's size");
  bad = doc;
  bad["formations"][0]["offsets"] = nlohmann::json::array();
  expect_doc_error(bad, "t.json: formations[0].offsets", "at least one offset");
  bad = doc;
  bad["groups"][0]["order"] = nlohmann::json::parse(R"({"kind": "patrol", "points": [[10, 10], [50, 50]]})");
  expect_doc_error(bad, "t.json: groups[0].order.kind", "a platoon takes");
}

TEST_CASE("scenario format 3: maps/sim_bridge.json, a version 2 file, loads as infantry with no platoon") {
  // Its classes are named tracked, wheeled and rotary but say no "vehicle": version 2
  // knew no vehicles, so they stay infantry (unlike the defaults, which are vehicles).
  const std::filesystem::path path = std::filesystem::path(PATHSCOPE_SOURCE_DIR) / "maps" / "sim_bridge.json";
  const Result<Scenario> r = load_scenario(path);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  bool named_as_vehicle = false;
  for (const MovementClass& c : r->classes) {
    CAPTURE(c.name);
    named_as_vehicle = named_as_vehicle || c.name == "tracked";
    CHECK(c.vehicle == VehicleModel::Infantry);
    CHECK_FALSE(c.min_turn_radius.has_value());
    CHECK_FALSE(c.reverse_speed.has_value());
  }
  CHECK(named_as_vehicle);
  REQUIRE_FALSE(r->groups.empty());
  for (const UnitGroup& g : r->groups) CHECK_FALSE(g.platoon.has_value());
  CHECK(r->formations.empty());
  CHECK(validate_scenario(*r).ok());
  // Saved, it is version 3 with none of version 3's fields.
  const std::string text = scenario_to_json(*r);
  CHECK(text.find("\"version\": 3,") != std::string::npos);
  for (const char* key :
       {"\"vehicle\"", "\"min_turn_radius\"", "\"reverse_speed\"", "\"platoon\"", "\"formations\""})
    CHECK(text.find(key) == std::string::npos);
}

TEST_CASE("scenario format 3: wrong types and huge arrays in the new fields are refused at their paths") {
  using test::expect_doc_error;
  const nlohmann::json doc = platoon_io_test::platoon_doc();
  nlohmann::json bad = doc;
  bad["movement_classes"][0]["vehicle"] = 1;
  expect_doc_error(bad, "t.json: movement_classes[0].vehicle", "expected a string, found");
  bad = doc;
  bad["movement_classes"][1]["min_turn_radius"] = "6";
  expect_doc_error(bad, "t.json: movement_classes[1].min_turn_radius", "expected a number, found");
  bad = doc;
  bad["movement_classes"][1]["reverse_speed"] = nullptr;
  expect_doc_error(bad, "t.json: movement_classes[1].reverse_speed", "expected a number, found");
  bad = doc;
  bad["groups"][0]["platoon"] = nlohmann::json::array();
  expect_doc_error(bad, "t.json: groups[0].platoon", "expected an object, found");
  bad = doc;
  bad["groups"][0]["platoon"]["heading"] = "north";
  expect_doc_error(bad, "t.json: groups[0].platoon.heading", "expected a number, found");
  bad = doc;
  bad["groups"][0]["platoon"]["formation"] = 3;
  expect_doc_error(bad, "t.json: groups[0].platoon.formation", "expected a string, found");
  bad = doc;
  bad["formations"] = nlohmann::json::object();
  expect_doc_error(bad, "t.json: formations", "expected an array, found");
  bad = doc;
  bad["formations"][0].erase("name");
  expect_doc_error(bad, "t.json: formations[0]", "missing required field \"name\"");
  bad = doc;
  bad["formations"][0]["offsets"][1] = nlohmann::json::array({1});
  expect_doc_error(bad, "t.json: formations[0].offsets[1]", "expected [x, y] numbers");
  bad = doc;
  bad["formations"][0]["offsets"] = nlohmann::json::array();
  bad["formations"][0]["offsets"].get_ref<nlohmann::json::array_t&>().resize(
      ScenarioLimits::kMaxPolygonPoints + 1, nlohmann::json::array({0, 0}));
  expect_doc_error(bad, "t.json: formations[0].offsets", "too many entries: 100001 (limit 100000)");
  CHECK(test::parse_doc(bad).error().code == ErrorCode::Limit);
}

TEST_CASE("scenario format 3: values no file can hold are refused by validation at their fields") {
  const Result<Scenario> r = test::parse_doc(platoon_io_test::platoon_doc());
  REQUIRE(r.ok());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto refused_at = [](const Scenario& s, const std::string& where) {
    const Status st = validate_scenario(s);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == where);
  };
  Scenario s = *r;
  s.classes[0].vehicle = static_cast<VehicleModel>(9);
  refused_at(s, "movement_classes[0].vehicle");
  s = *r;
  s.classes[1].min_turn_radius = inf;
  refused_at(s, "movement_classes[1].min_turn_radius");
  s = *r;
  s.classes[1].reverse_speed = nan;
  refused_at(s, "movement_classes[1].reverse_speed");
  s = *r;
  s.groups[0].platoon->heading = nan;
  refused_at(s, "groups[0].platoon.heading");
  s = *r;
  s.groups[0].platoon->spacing = inf;
  refused_at(s, "groups[0].platoon.spacing");
  s = *r;
  s.formations[0].offsets[1] = Vec2{nan, 0};
  refused_at(s, "formations[0].offsets[1]");
  s = *r;
  s.formations[0].name.clear();
  s.groups[0].platoon->formation = "wedge";
  refused_at(s, "formations[0].name");
  s = *r;
  s.formations.resize(ScenarioLimits::kMaxItems + 1);
  const Status many = validate_scenario(s);
  REQUIRE_FALSE(many.ok());
  CHECK(many.error().where == "formations");
  CHECK(many.error().code == ErrorCode::Limit);
}

}  // namespace pathscope
