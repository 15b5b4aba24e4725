// Scenario files: `expect` blocks and the stuck parameters of `sim` are read, written in
// the canonical layout and round-trip byte-identically; bad ones are refused naming the
// field; files without them load as before.

#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "tests/planner/scenario/scenario_test_support.hpp"

using namespace pathscope;
using Json = nlohmann::json;

namespace {

// Two units on an open field: 1 moves, 2 patrols; 3 stands in a group with a move order.
Json doc() {
  return Json::parse(R"({
    "format": "pathscope-scenario", "version": 2, "name": "t", "description": "",
    "world": {"width": 40, "height": 20, "cell_size": 1},
    "factions": [{"name": "blue", "color": "#3060ff"}],
    "units": [
      {"id": 1, "faction": "blue", "class": "infantry", "position": [2, 2],
       "order": {"kind": "move", "points": [[30, 2]]}},
      {"id": 2, "faction": "blue", "class": "infantry", "position": [2, 8],
       "order": {"kind": "patrol", "points": [[2, 8], [20, 8]]}},
      {"id": 3, "faction": "blue", "class": "infantry", "position": [2, 14]}
    ],
    "groups": [{"id": 1, "units": [3], "order": {"kind": "move", "points": [[30, 14]]}}]
  })");
}

using test::expect_doc_error;
using test::parse_doc;

// Loads, saves, loads again: equal, and the second save is the same text.
std::string round_trip(const Json& j) {
  const Result<Scenario> r = parse_doc(j);
  REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
  const std::string text = scenario_to_json(*r);
  const Result<Scenario> again = parse_scenario(text, "again.json");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().to_string()));
  CHECK(*again == *r);
  CHECK(scenario_to_json(*again) == text);
  return text;
}

}  // namespace

TEST_SUITE("scenario_io") {
  TEST_CASE("expect: every kind is read, with its fields") {
    Json j = doc();
    j["expect"] = Json::parse(R"([
      {"kind": "arrive", "name": "all home", "within": 60},
      {"kind": "arrive", "units": [3], "within": 40},
      {"kind": "no_overlaps"},
      {"kind": "no_tunnelling", "within": 30},
      {"kind": "no_stuck", "units": [1, 2]},
      {"kind": "passes", "units": [2], "point": [20, 8], "radius": 1.5, "within": 50},
      {"kind": "avoids", "area": {"shape": "circle", "center": [10, 10], "radius": 2}},
      {"kind": "avoids", "units": [1], "area": {"shape": "rect", "min": [0, 18], "max": [40, 20]}}
    ])");
    const Result<Scenario> r = parse_doc(j);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    REQUIRE(r->expect.size() == 8);
    CHECK(r->expect[0].kind == ExpectKind::Arrive);
    CHECK(r->expect[0].name == "all home");
    CHECK(r->expect[0].within == 60.0);
    CHECK(r->expect[0].units.empty());
    CHECK(r->expect[1].units == std::vector<std::uint32_t>{3});
    CHECK(r->expect[2].kind == ExpectKind::NoOverlaps);
    CHECK_FALSE(r->expect[2].within.has_value());
    CHECK(r->expect[3].kind == ExpectKind::NoTunnelling);
    CHECK(r->expect[4].kind == ExpectKind::NoStuck);
    CHECK(r->expect[5].kind == ExpectKind::Passes);
    CHECK(r->expect[5].point == Vec2{20, 8});
    CHECK(r->expect[5].radius == 1.5);
    CHECK(r->expect[6].area.kind == ShapeKind::Circle);
    CHECK(r->expect[6].area.center == Vec2{10, 10});
    CHECK(r->expect[7].area.kind == ShapeKind::Rect);
    CHECK(r->expect[7].area.max == Vec2{40, 20});
    const std::string text = round_trip(j);
    CHECK(text.find(R"("expect": [
    {
      "kind": "arrive",
      "name": "all home",
      "within": 60
    },)") != std::string::npos);
    CHECK(text.find(R"("area": {
        "shape": "rect",
        "min": [0, 18],
        "max": [40, 20]
      })") != std::string::npos);
  }

  TEST_CASE("expect: one expectation may be an object, and is written as one") {
    Json j = doc();
    j["expect"] = Json::parse(R"({"kind": "no_overlaps", "within": 20})");
    const std::string text = round_trip(j);
    CHECK(text.find(R"("expect": {
    "kind": "no_overlaps",
    "within": 20
  })") != std::string::npos);
    // An array of one reads the same.
    j["expect"] = Json::array({j["expect"]});
    const Result<Scenario> r = parse_doc(j);
    REQUIRE(r.ok());
    CHECK(scenario_to_json(*r) == text);
  }

  TEST_CASE(
      "expect: files without it, and version 1 files, load with none, and the stuck defaults add nothing") {
    Json j = doc();
    j["version"] = 1;
    j["units"][0].erase("order");
    j["units"][1].erase("order");
    j.erase("groups");
    const Result<Scenario> r = parse_doc(j);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    CHECK(r->expect.empty());
    CHECK(r->sim.stuck_seconds == 10);
    CHECK(r->sim.stuck_progress == 0.5);
    const std::string text = scenario_to_json(*r);
    CHECK(text.find("\"expect\"") == std::string::npos);
    CHECK(text.find("\"sim\"") == std::string::npos);
  }

  TEST_CASE("sim: stuck_seconds and stuck_progress are read, written when not the default, and checked") {
    Json j = doc();
    j["sim"] = Json::parse(R"({"stuck_seconds": 4, "stuck_progress": 0.25})");
    const Result<Scenario> r = parse_doc(j);
    REQUIRE(r.ok());
    CHECK(r->sim.stuck_seconds == 4);
    CHECK(r->sim.stuck_progress == 0.25);
    const std::string text = round_trip(j);
    CHECK(text.find(R"("path_budget": 64,
    "stuck_seconds": 4,
    "stuck_progress": 0.25
  })") != std::string::npos);
    // Only the one set is written.
    j["sim"] = Json::parse(R"({"stuck_seconds": 4})");
    CHECK(round_trip(j).find("stuck_progress") == std::string::npos);

    j["sim"] = Json::parse(R"({"stuck_seconds": 0})");
    expect_doc_error(j, "t.json: sim.stuck_seconds", "expected a finite number > 0, found 0");
    j["sim"] = Json::parse(R"({"stuck_progress": -1})");
    expect_doc_error(j, "t.json: sim.stuck_progress", "expected a finite number > 0");
    j["sim"] = Json::parse(R"({"stuck_progress": "far"})");
    expect_doc_error(j, "t.json: sim.stuck_progress", "expected a number");
  }

  TEST_CASE("sim: density_cost and density_refresh are read, written when not the default, and checked") {
    Json j = doc();
    CHECK(parse_doc(j)->sim.density_cost == 0);
    CHECK(parse_doc(j)->sim.density_refresh == 1);
    CHECK(round_trip(j).find("density") == std::string::npos);
    j["sim"] = Json::parse(R"({"density_cost": 2.5, "density_refresh": 0.5})");
    const Result<Scenario> r = parse_doc(j);
    REQUIRE(r.ok());
    CHECK(r->sim.density_cost == 2.5);
    CHECK(r->sim.density_refresh == 0.5);
    CHECK(round_trip(j).find(R"("path_budget": 64,
    "density_cost": 2.5,
    "density_refresh": 0.5
  })") != std::string::npos);
    j["sim"] = Json::parse(R"({"density_cost": 2.5})");
    CHECK(round_trip(j).find("density_refresh") == std::string::npos);

    j["sim"] = Json::parse(R"({"density_cost": -1})");
    expect_doc_error(j, "t.json: sim.density_cost", "expected a number in [0, 100]");
    j["sim"] = Json::parse(R"({"density_cost": 101})");
    expect_doc_error(j, "t.json: sim.density_cost", "found 101");
    j["sim"] = Json::parse(R"({"density_refresh": 0})");
    expect_doc_error(j, "t.json: sim.density_refresh", "expected a number in (0, 60] seconds, found 0");
    j["sim"] = Json::parse(R"({"density_refresh": "often"})");
    expect_doc_error(j, "t.json: sim.density_refresh", "expected a number");
  }

  TEST_CASE("sim: formation_goals is on by default, written only when off, and checked") {
    Json j = doc();
    CHECK(parse_doc(j)->sim.formation_goals);
    CHECK(round_trip(j).find("formation_goals") == std::string::npos);
    j["sim"] = Json::parse(R"({"formation_goals": false})");
    const Result<Scenario> r = parse_doc(j);
    REQUIRE(r.ok());
    CHECK_FALSE(r->sim.formation_goals);
    CHECK(round_trip(j).find(R"("formation_goals": false)") != std::string::npos);
    j["sim"] = Json::parse(R"({"formation_goals": true})");
    CHECK(round_trip(j).find("formation_goals") == std::string::npos);
    j["sim"] = Json::parse(R"({"formation_goals": 1})");
    expect_doc_error(j, "t.json: sim.formation_goals", "expected true or false");
  }

  TEST_CASE("expect: bad blocks are refused, naming the field") {
    Json j = doc();
    auto with = [&j](const char* text) {
      j["expect"] = Json::parse(text);
      return j;
    };
    expect_doc_error(with(R"("all")"), "t.json: expect", "expected an object or an array, found a string");
    expect_doc_error(with(R"([{"within": 3}])"), "t.json: expect[0]", "missing required field \"kind\"");
    expect_doc_error(
        with(R"([{"kind": "teleport"}])"), "t.json: expect[0].kind",
        "expected \"arrive\", \"no_overlaps\", \"no_tunnelling\", \"no_stuck\", \"passes\" or \"avoids\"");
    expect_doc_error(with(R"({"kind": "arrive"})"), "t.json: expect", "missing required field \"within\"");
    expect_doc_error(with(R"([{"kind": "no_overlaps"}, {"kind": "no_stuck", "within": -2}])"),
                     "t.json: expect[1].within", "expected a finite number > 0, found -2");
    expect_doc_error(with(R"({"kind": "no_overlaps", "units": [1]})"), "t.json: expect.units",
                     "unknown field \"units\"");
    expect_doc_error(with(R"({"kind": "no_stuck", "radius": 1})"), "t.json: expect.radius",
                     "unknown field \"radius\"");
    expect_doc_error(with(R"([{"kind": "no_overlaps"}, {"kind": "arrive", "units": [1, 9], "within": 5}])"),
                     "t.json: expect[1].units[1]", "no unit has id 9");
    expect_doc_error(with(R"({"kind": "arrive", "units": [2], "within": 5})"), "t.json: expect.units[0]",
                     "unit 2 has no move or waypoints order, so it never arrives");
    {
      Json patrols = with(R"({"kind": "arrive", "within": 5})");
      patrols.erase("groups");
      patrols["units"][0]["order"] = patrols["units"][1]["order"];
      expect_doc_error(patrols, "t.json: expect",
                       "no unit has a move or waypoints order, so none can arrive");
    }
    expect_doc_error(with(R"({"kind": "passes", "point": [20, 8]})"), "t.json: expect",
                     "missing required field \"radius\"");
    expect_doc_error(with(R"({"kind": "passes", "point": [50, 8], "radius": 1})"), "t.json: expect.point",
                     "is outside the world");
    expect_doc_error(with(R"({"kind": "passes", "point": [20, 8], "radius": 0})"), "t.json: expect.radius",
                     "expected a finite number > 0");
    expect_doc_error(with(R"({"kind": "avoids"})"), "t.json: expect", "missing required field \"area\"");
    expect_doc_error(with(R"({"kind": "avoids", "area": {"shape": "polygon", "points": []}})"),
                     "t.json: expect.area.shape", "expected \"rect\" or \"circle\"");
    expect_doc_error(with(R"({"kind": "avoids", "area": {"shape": "rect", "min": [5, 5], "max": [4, 9]}})"),
                     "t.json: expect.area.max", "above and right of min");
    expect_doc_error(with(R"({"kind": "avoids", "area": {"shape": "circle", "center": [5, 5]}})"),
                     "t.json: expect.area", "missing required field \"radius\"");
    expect_doc_error(
        with(
            R"({"kind": "avoids", "area": {"shape": "circle", "center": [5, 5], "radius": 1, "min": [0, 0]}})"),
        "t.json: expect.area.min", "unknown field \"min\"");
  }
}
