// Scenario files: every kind of bad input is rejected with the right JSON path and a
// message naming the problem; save -> load -> save is byte-identical (the default map
// and random scenarios holding every kind of item); saving is atomic.

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include <glm/common.hpp>
#include <nlohmann/json.hpp>

#include "planner/scenario/scenario_io.hpp"
#include "tests/planner/core/read_only_folder.hpp"
#include "tests/planner/scenario/scenario_test_support.hpp"
#include "tests/test_files.hpp"

using namespace pathscope;
using Json = nlohmann::json;

namespace {

// A small valid scenario holding one of every kind of item.
Json base_doc() {
  return Json::parse(R"({
    "format": "pathscope-scenario", "version": 1, "name": "t", "description": "d",
    "world": {"width": 64, "height": 48, "cell_size": 1},
    "seed": 7,
    "tiles": {"width": 4, "height": 2, "rows": ["4.", "2T2."]},
    "features": [
      {"id": 1, "terrain": "wall", "shape": "polygon", "points": [[1, 1], [5, 1], [5, 5]]},
      {"id": 2, "terrain": "wall", "shape": "rect", "min": [10, 10], "max": [12, 12]},
      {"id": 3, "terrain": "nebula", "shape": "circle", "center": [20, 20], "radius": 3}
    ],
    "threats": [{"id": 1, "center": [30, 30], "radius": 5, "faction": "red"}],
    "allies": [{"id": 1, "center": [10, 30], "radius": 5, "strength": 2, "faction": "blue"}],
    "roads": [{"id": 1, "points": [[0, 40], [60, 40]]}],
    "bridges": [{"id": 1, "a": [30, 35], "b": [30, 45]}],
    "factions": [{"name": "blue", "color": "#3060ff"}, {"name": "red", "color": "#e04040"}],
    "units": [{"id": 1, "faction": "blue", "class": "tracked", "position": [5, 20]}],
    "queries": [{"start": [2, 30], "goal": [40, 30], "class": "infantry",
                 "planner": "weighted_astar", "params": {"weight": 2}}],
    "viewer": {"center": [32, 24], "zoom": 4, "layers": ["tiles", "path"]}
  })");
}

// The default movement classes as a "movement_classes" array (names as the defaults, so
// the default terrains still apply).
Json default_classes_doc() {
  Json classes = Json::array();
  for (const MovementClass& c : default_movement_classes()) {
    classes.push_back(
        {{"name", c.name}, {"radius", c.radius}, {"speed", c.speed}, {"amphibious", c.amphibious}});
    static constexpr const char* kVehicles[] = {"infantry", "tracked", "wheeled", "rotary"};
    if (c.vehicle != VehicleModel::Infantry)
      classes.back()["vehicle"] = kVehicles[static_cast<int>(c.vehicle)];
  }
  return classes;
}

using test::expect_doc_error;
using test::parse_doc;

void expect_error_text(const std::string& text, const std::string& where, const std::string& message_part) {
  const Result<Scenario> r = parse_scenario(text, "t.json");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().where == where);
  INFO("message: " << r.error().message);
  CHECK(r.error().message.find(message_part) != std::string::npos);
}

using test::read_file;

// A fresh empty directory for one test case.
std::filesystem::path scenario_dir(const std::string& name) { return test::fresh_dir("scenario_io_" + name); }

std::size_t count_entries(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// A random valid scenario with every kind of item and awkward numbers.
Scenario random_scenario(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto integer = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto byte = [&] { return static_cast<std::uint8_t>(integer(0, 255)); };

  Scenario s;
  s.name = "random " + std::to_string(seed) + " \"quoted\" \xc3\xa9";
  s.description = "line 1\nline 2\ttab";
  s.world = WorldInfo{uniform(50, 200), uniform(50, 200), uniform(0.25, 2)};
  s.seed = rng();
  const int class_count = integer(1, 4);
  for (int c = 0; c < class_count; ++c) {
    MovementClass mc{"class " + std::to_string(c), uniform(0.1, 3), uniform(0.5, 50), integer(0, 1) == 1};
    // The simulation's limits (version 2): each set or derived.
    auto maybe = [&](double lo, double hi) {
      return integer(0, 1) ? std::optional<double>(uniform(lo, hi)) : std::nullopt;
    };
    mc.acceleration = maybe(0.01, 100);
    mc.deceleration = maybe(0.01, 100);
    mc.turn_rate = maybe(0.01, 20);
    mc.hard_radius = maybe(0.05, 3);
    if (integer(0, 1)) mc.soft_radius = mc.hard_radius.value_or(mc.radius) * uniform(1, 3);
    if (integer(0, 1)) mc.hard_aspect = uniform(0.05, 1);
    if (integer(0, 1)) mc.priority = integer(-1000, 1000);
    const char* planners[] = {"astar", "dijkstra", "weighted_astar"};
    mc.planner = planners[integer(0, 2)];
    s.classes.push_back(mc);
  }
  const std::string symbols = ".#rTS~%@";
  const int terrain_count = integer(2, static_cast<int>(symbols.size()));
  for (int t = 0; t < terrain_count; ++t) {
    TerrainType type;
    type.name = "terrain " + std::to_string(t);
    type.symbol = symbols[static_cast<std::size_t>(t)];
    type.color = Color{byte(), byte(), byte(), integer(0, 1) ? std::uint8_t{255} : byte()};
    type.group = integer(0, 3) == 0 ? "water" : "";
    for (int c = 0; c < class_count; ++c) {
      type.cost.push_back(integer(0, 4) == 0 ? std::nullopt : std::optional<double>(uniform(0.01, 100)));
    }
    s.terrains.push_back(type);
  }
  const glm::ivec2 grid = s.grid_size();
  TileGrid tiles;
  tiles.width = integer(1, grid.x - 1);
  tiles.height = integer(1, grid.y - 1);
  for (int i = 0; i < tiles.width * tiles.height; ++i) {
    // Runs of random length, so both counted and single runs occur.
    const auto k = static_cast<std::uint8_t>(integer(0, terrain_count - 1));
    const int run = integer(1, 12);
    for (int j = 0; j < run && i < tiles.width * tiles.height; ++j, ++i) tiles.terrain.push_back(k);
    --i;
  }
  s.tiles = tiles;

  const double w = s.world.width, h = s.world.height;
  auto point = [&] { return Vec2{uniform(0, w), uniform(0, h)}; };
  std::uint32_t id = 1;
  for (int f = 0; f < 12; ++f) {
    Feature feature;
    feature.id = id += static_cast<std::uint32_t>(integer(1, 1000));
    feature.name = f % 2 ? "feature " + std::to_string(f) : "";
    feature.terrain = static_cast<std::size_t>(integer(0, terrain_count - 1));
    switch (f % 3) {
      case 0: {  // star-shaped, hence simple
        feature.shape.kind = ShapeKind::Polygon;
        const Vec2 c{w / 2, h / 2};
        const int n = integer(3, 20);
        for (int k = 0; k < n; ++k) {
          const double a = 2 * std::numbers::pi * (k + uniform(0.1, 0.9)) / n;
          const double r = uniform(1, std::min(w, h) / 2 - 1);
          feature.shape.points.push_back(c + r * Vec2{std::cos(a), std::sin(a)});
        }
        break;
      }
      case 1: {
        feature.shape.kind = ShapeKind::Rect;
        const Vec2 a = point(), b = point();
        feature.shape.min = glm::min(a, b);
        feature.shape.max = glm::max(a, b);
        break;
      }
      default:
        feature.shape.kind = ShapeKind::Circle;
        feature.shape.center = point();
        feature.shape.radius = uniform(0.001, 50);
        break;
    }
    if (f % 4 == 1) feature.velocity = {uniform(-20, 20), uniform(-20, 20)};
    if (f % 5 == 3) {  // containers share one terrain
      feature.container = true;
      feature.terrain = static_cast<std::size_t>(terrain_count - 1);
    }
    s.features.push_back(feature);
  }
  // Red plans under fog of war: what it saw of the first features, whole or in part.
  std::vector<Feature> seen(s.features.begin(),
                            s.features.begin() + std::ptrdiff_t(std::min<std::size_t>(2, s.features.size())));
  for (Feature& f : seen) {
    f.velocity = {0, 0};
    f.container = false;  // containers are terrain, never remembered
  }
  s.factions = {Faction{"blue", Color{48, 96, 255, 255}, 0, false, {}, {}, {}},
                Faction{"red", Color{224, 64, 64, 128}, uniform(1, 50), integer(0, 1) == 1, seen, {}, {}}};
  // Red's tile memory: what it saw of the tiles, some never seen (written as spaces).
  for (const std::uint8_t t : tiles.terrain) {
    s.factions[1].tiles.push_back(integer(0, 2) == 0 ? Faction::kUnseenTile : t);
  }
  for (std::uint32_t i = 0; i < 3; ++i) {
    s.threats.push_back(Influence{i, point(), uniform(0.5, 30), uniform(0, 5), i == 0 ? "" : "red"});
    s.allies.push_back(Influence{i + 10, point(), uniform(0.5, 30), uniform(0, 5), "blue"});
    Road road{i, {point(), point(), point()}, uniform(0.5, 10), uniform(1, 3)};
    s.roads.push_back(road);
    s.bridges.push_back(Bridge{i, point(), point(), uniform(1, 10), i != 1});
    s.units.push_back(Unit{i + 100, i % 2 ? "red" : "blue",
                           static_cast<std::size_t>(integer(0, class_count - 1)), point(),
                           uniform(-std::numbers::pi, std::numbers::pi)});
  }
  // Orders of every kind, with the point counts their kinds need.
  auto random_order = [&] {
    Order o;
    o.kind = static_cast<OrderKind>(integer(0, 4));
    const int n = o.kind == OrderKind::Move        ? 1
                  : o.kind == OrderKind::Waypoints ? integer(1, 4)
                  : o.kind == OrderKind::Patrol    ? integer(2, 5)
                                                   : 0;
    for (int k = 0; k < n; ++k) o.points.push_back(point());
    if (integer(0, 1)) o.patrol = PatrolMode::BackForth;  // kept even when not a patrol
    return o;
  };
  for (Unit& u : s.units) u.order = random_order();
  s.groups.push_back(UnitGroup{7, "escort", {102, 100}, random_order()});
  s.groups.push_back(UnitGroup{3, "", {}, integer(0, 1) ? random_order() : Order{}});
  if (integer(0, 3) != 0) {
    s.sim = SimSettings{.dt = uniform(1e-4, 1),
                        .continuous = integer(0, 1) == 1,
                        .prevention = integer(0, 1) == 1,
                        .cooperation = integer(0, 1) == 1,
                        .passages = integer(0, 1) == 1,
                        .formation_goals = integer(0, 1) == 1,
                        .detours = integer(0, 1) == 1,
                        .avoidance = static_cast<AvoidanceMode>(integer(0, 2)),
                        .memory_seconds = uniform(0, 30),
                        .prediction_seconds = uniform(0.01, 10),
                        .path_budget = integer(1, 1'000'000),
                        .stuck_seconds = integer(0, 1) ? uniform(0.1, 60) : SimSettings{}.stuck_seconds,
                        .stuck_progress = integer(0, 1) ? uniform(0.01, 5) : SimSettings{}.stuck_progress,
                        .density_cost = integer(0, 1) ? uniform(0, 100) : SimSettings{}.density_cost,
                        .density_refresh = integer(0, 1) ? uniform(0.01, 60) : SimSettings{}.density_refresh};
  }
  // Expectations of every kind (none, one, or several: one is written as an object).
  const int expectations = integer(0, 6);
  for (int k = 0; k < expectations; ++k) {
    Expectation e;
    e.kind = static_cast<ExpectKind>(integer(0, 5));
    if (integer(0, 1)) e.name = "check " + std::to_string(k);
    if (e.kind == ExpectKind::Arrive || integer(0, 1)) e.within = uniform(0.5, 300);
    // Something must be able to arrive: unit 101 is in no group.
    if (e.kind == ExpectKind::Arrive) s.units[1].order = Order{OrderKind::Move, {point()}, PatrolMode::Loop};
    if (e.kind != ExpectKind::Arrive && e.kind != ExpectKind::NoOverlaps &&
        e.kind != ExpectKind::NoTunnelling && integer(0, 1)) {
      e.units = {101, 100};
    }
    if (e.kind == ExpectKind::Passes) {
      e.point = point();
      e.radius = uniform(0.1, 10);
    }
    if (e.kind == ExpectKind::Avoids) {
      if (integer(0, 1)) {
        e.area = Shape{.kind = ShapeKind::Circle,
                       .points = {},
                       .min = {0, 0},
                       .max = {0, 0},
                       .center = point(),
                       .radius = uniform(0.1, 10)};
      } else {
        const Vec2 a = point();
        e.area = Shape{.kind = ShapeKind::Rect,
                       .points = {},
                       .min = a,
                       .max = a + Vec2{uniform(0.1, 5), uniform(0.1, 5)},
                       .center = {0, 0},
                       .radius = 0};
      }
    }
    s.expect.push_back(e);
  }
  // Red remembers two of the bridges, one otherwise than it is.
  s.factions[1].bridges = {s.bridges[0], s.bridges[2]};
  s.factions[1].bridges[1].intact = !s.factions[1].bridges[1].intact;
  s.queries.push_back(Query{"plain", point(), point(), 0, "astar", {}, std::nullopt, {}});
  s.queries.push_back(Query{"",
                            point(),
                            point(),
                            static_cast<std::size_t>(class_count - 1),
                            "weighted_astar",
                            {PlannerParam{"weight", uniform(1, 10)}},
                            uniform(0, 500),
                            "red"});
  s.queries.push_back(Query{"", point(), point(), 0, "dijkstra", {}, 0.0, {}});
  s.viewer.center = Vec2{uniform(-10, 10), uniform(-10, 10)};
  s.viewer.zoom = uniform(0.1, 40);
  s.viewer.layers = {"tiles", "features", "path"};
  return s;
}

}  // namespace

TEST_SUITE("scenario_io") {
  // ---- Round trips --------------------------------------------------------------------

  TEST_CASE("scenario_io: the base document loads with its defaults filled in") {
    const Result<Scenario> r = parse_doc(base_doc());
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    const Scenario& s = *r;
    CHECK(s.classes == default_movement_classes());
    CHECK(s.terrains == default_terrain_types());
    CHECK(s.seed == 7);
    REQUIRE(s.tiles.has_value());
    CHECK(s.tiles->terrain == std::vector<std::uint8_t>{0, 0, 0, 0, 2, 2, 0, 0});
    CHECK(s.roads[0].width == 4);
    CHECK(s.roads[0].speed_factor == 1.5);
    CHECK(s.bridges[0].width == 6);
    CHECK(s.bridges[0].intact);
    CHECK(s.threats[0].strength == 1);
    CHECK(s.units[0].heading == 0);
    CHECK(s.units[0].movement_class == 1);
    CHECK(s.features[0].name.empty());
    CHECK(s.features[2].terrain == *s.find_terrain("nebula"));
    CHECK(s.queries[0].params == std::vector<PlannerParam>{{"weight", 2}});

    Json minimal = {
        {"format", "pathscope-scenario"}, {"version", 1}, {"world", {{"width", 10}, {"height", 5}}}};
    const Result<Scenario> m = parse_doc(minimal);
    REQUIRE(m.ok());
    CHECK(m->seed == 1);
    CHECK(m->world.cell_size == 1);
    CHECK(m->name.empty());
    CHECK(m->grid_size() == glm::ivec2{10, 5});
    CHECK_FALSE(m->tiles.has_value());
    CHECK(validate_scenario(*m).ok());
  }

  TEST_CASE("scenario_io: maps/default.json loads, validates and re-saves byte-identically") {
    const std::filesystem::path path = std::filesystem::path(PATHSCOPE_SOURCE_DIR) / "maps" / "default.json";
    const Result<Scenario> r = load_scenario(path);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    CHECK(validate_scenario(*r).ok());
    CHECK(scenario_to_json(*r) == read_file(path));
    CHECK(r->classes == default_movement_classes());
    CHECK(r->terrains == default_terrain_types());
    CHECK(r->queries.size() == 3);
    CHECK(r->bridges.size() == 2);
    const Result<Scenario> again = parse_scenario(scenario_to_json(*r), "again");
    REQUIRE(again.ok());
    CHECK(*again == *r);
  }

  TEST_CASE(
      "scenario_io: every shipped map loads, and its saved text loads back equal and re-saves identically") {
    std::size_t maps = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::path(PATHSCOPE_SOURCE_DIR) / "maps")) {
      if (entry.path().extension() != ".json") continue;
      const std::string name = entry.path().filename().string();
      CAPTURE(name);
      ++maps;
      const Result<Scenario> r = load_scenario(entry.path());
      REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
      const std::string text = scenario_to_json(*r);
      const Result<Scenario> again = parse_scenario(text, name);
      REQUIRE(again.ok());
      CHECK(*again == *r);
      CHECK(scenario_to_json(*again) == text);
    }
    CHECK(maps >= 10);
  }

  TEST_CASE(
      "scenario_io: containers round-trip, and disagreeing terrains are refused at features[i].terrain") {
    Json doc = base_doc();
    doc["features"][1]["container"] = true;
    doc["features"][2]["container"] = false;  // written only when true
    const Result<Scenario> r = parse_doc(doc);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    CHECK(r->features[1].container);
    CHECK_FALSE(r->features[0].container);
    CHECK_FALSE(r->features[2].container);
    const std::string text = scenario_to_json(*r);
    CHECK(text.find("\"container\": true") != std::string::npos);
    CHECK(text.find("\"container\": false") == std::string::npos);
    const Result<Scenario> again = parse_scenario(text, "t.json");
    REQUIRE(again.ok());
    CHECK(*again == *r);
    CHECK(scenario_to_json(*again) == text);

    // A second container of another terrain: refused at its terrain, naming the first's.
    doc["features"][2]["container"] = true;  // nebula, where features[1] is wall
    expect_doc_error(doc, "t.json: features[2].terrain", "the first container's is \"wall\"");
    doc["features"][2]["terrain"] = "wall";
    CHECK(parse_doc(doc).ok());
    doc["features"][0]["container"] = "yes";
    expect_doc_error(doc, "t.json: features[0].container", "");
  }

  TEST_CASE("scenario_io: random scenarios round-trip exactly") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      CAPTURE(seed);
      const Scenario s = random_scenario(seed);
      const Status valid = validate_scenario(s);
      REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().to_string()));
      const std::string text = scenario_to_json(s);
      const Result<Scenario> loaded = parse_scenario(text, "random");
      REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().to_string()));
      CHECK(*loaded == s);
      CHECK(scenario_to_json(*loaded) == text);
    }
  }

  TEST_CASE("scenario_io: the saved layout keeps number arrays and point lists on one line") {
    Scenario s = make_empty_scenario(10, 10, 0.5);
    s.features.push_back(
        Feature{4, "", 7, Shape{ShapeKind::Polygon, {{1, 1}, {2.5, 1}, {2, 0.1}}, {}, {}, {}, 0}});
    s.terrains[0].color.a = 0x80;
    s.tiles = TileGrid{3, 1, {0, 0, 1}};
    s.viewer.center = Vec2{-0.0, 1e-7};
    const std::string text = scenario_to_json(s);
    CHECK(text.find("\"points\": [[1, 1], [2.5, 1], [2, 0.1]]") != std::string::npos);
    CHECK(text.find("\"center\": [0, 1e-07]") != std::string::npos);
    CHECK(text.find("\"color\": \"#7f9f5f80\"") != std::string::npos);
    CHECK(text.find("\"rows\": [\n      \"2.r\"\n    ]") != std::string::npos);
    CHECK(text.find("\"threats\"") == std::string::npos);  // empty sections are omitted
    CHECK(text.rfind("{\n  \"format\": \"pathscope-scenario\",\n  \"version\": 3,\n", 0) == 0);
    const Result<Scenario> loaded = parse_scenario(text, "layout");
    REQUIRE(loaded.ok());
    CHECK(scenario_to_json(*loaded) == text);
  }

  // ---- Malformed JSON and the header ----------------------------------------------------

  TEST_CASE("scenario_io: malformed JSON reports file:line:col") {
    expect_error_text("{\n  \"format\": x\n}", "t.json:2:13", "invalid literal");
    expect_error_text("{\"format\": \"pathscope-scenario\",", "t.json:1:33", "unexpected end of input");
    expect_error_text("", "t.json:1:1", "unexpected end of input");
    expect_error_text("{} {}", "t.json:1:4", "expected end of input");
    expect_error_text("[1, 2]", "t.json", "expected a JSON object at the top level");
  }

  TEST_CASE("scenario_io: duplicate keys and deep nesting are rejected") {
    expect_error_text(R"({"format": "pathscope-scenario", "format": "x"})", "t.json: format",
                      "duplicate key \"format\"");
    std::string deep = "{\"format\": \"pathscope-scenario\", \"version\": 1, \"name\": ";
    for (int i = 0; i < 100; ++i) deep += "[";
    const Result<Scenario> r = parse_scenario(deep, "t.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where.rfind("t.json: name[0][0]", 0) == 0);
    CHECK(r.error().code == ErrorCode::Limit);
    CHECK(r.error().message.find("nesting deeper than") != std::string::npos);
  }

  TEST_CASE("scenario_io: wrong format name") {
    Json doc = base_doc();
    doc["format"] = "something-else";
    expect_doc_error(doc, "t.json: format",
                     "expected \"pathscope-scenario\", found a string \"something-else\"");
    CHECK(parse_doc(doc).error().code == ErrorCode::Schema);
  }

  TEST_CASE("scenario_io: version newer than 3") {
    Json doc = base_doc();
    doc["version"] = 4;
    expect_doc_error(doc, "t.json: version", "version 4 is newer than this program reads (3)");
    doc["version"] = 0;
    expect_doc_error(doc, "t.json: version", "expected version 1");
    doc["version"] = "1";
    expect_doc_error(doc, "t.json: version", "expected an integer");
  }

  TEST_CASE("scenario_io: missing required fields") {
    for (const char* key : {"format", "version", "world"}) {
      CAPTURE(key);
      Json doc = base_doc();
      doc.erase(key);
      expect_doc_error(doc, "t.json", std::string("missing required field \"") + key + "\"");
    }
    Json doc = base_doc();
    doc["world"].erase("height");
    expect_doc_error(doc, "t.json: world", "missing required field \"height\"");
    doc = base_doc();
    doc["features"][1].erase("max");
    expect_doc_error(doc, "t.json: features[1]", "missing required field \"max\"");
    doc = base_doc();
    doc["units"][0].erase("faction");
    expect_doc_error(doc, "t.json: units[0]", "missing required field \"faction\"");
  }

  // ---- Types and unknown fields ---------------------------------------------------------

  TEST_CASE("scenario_io: wrong types") {
    Json doc = base_doc();
    doc["world"]["width"] = "wide";
    expect_doc_error(doc, "t.json: world.width", "expected a number, found a string \"wide\"");
    CHECK(parse_doc(doc).error().code == ErrorCode::Schema);

    doc = base_doc();
    doc["features"][0]["points"][2] = "x";
    expect_doc_error(doc, "t.json: features[0].points[2]", "expected [x, y] numbers");
    doc["features"][0]["points"][2] = Json::array({1, 2, 3});
    expect_doc_error(doc, "t.json: features[0].points[2]", "expected [x, y] numbers");

    doc = base_doc();
    doc["bridges"][0]["intact"] = 1;
    expect_doc_error(doc, "t.json: bridges[0].intact", "expected true or false, found a number 1");

    doc = base_doc();
    doc["features"] = Json::object();
    expect_doc_error(doc, "t.json: features", "expected an array, found an object");

    doc = base_doc();
    doc["units"][0]["id"] = 1.5;
    expect_doc_error(doc, "t.json: units[0].id", "expected an integer");
    doc["units"][0]["id"] = -1;
    expect_doc_error(doc, "t.json: units[0].id", "expected an integer >= 0");
    doc["units"][0]["id"] = 4294967296ULL;
    expect_doc_error(doc, "t.json: units[0].id", "out of range");

    doc = base_doc();
    doc["factions"][0]["color"] = "#12345";
    expect_doc_error(doc, "t.json: factions[0].color", "expected a colour \"#rrggbb\" or \"#rrggbbaa\"");

    doc = base_doc();
    doc["queries"][0]["params"] = Json::object({{"weight", "heavy"}});
    expect_doc_error(doc, "t.json: queries[0].params.weight", "expected a number");
  }

  TEST_CASE("scenario_io: unknown fields are rejected, never dropped") {
    Json doc = base_doc();
    doc["terrain_types"] = Json::array();
    for (const TerrainType& t : default_terrain_types()) {
      Json cost = Json::object();
      const auto classes = default_movement_classes();
      for (std::size_t c = 0; c < classes.size(); ++c) {
        cost[classes[c].name] = t.cost[c] ? Json(*t.cost[c]) : Json("impassable");
      }
      doc["terrain_types"].push_back(
          {{"name", t.name}, {"symbol", std::string(1, t.symbol)}, {"color", "#102030"}, {"cost", cost}});
    }
    REQUIRE(parse_doc(doc).ok());
    doc["terrain_types"][1]["colour"] = "#ffffff";
    expect_doc_error(doc, "t.json: terrain_types[1].colour",
                     "unknown field \"colour\" (known: name, symbol, color, group, cost)");
    CHECK(parse_doc(doc).error().code == ErrorCode::Schema);

    doc = base_doc();
    doc["extra"] = 1;
    expect_doc_error(doc, "t.json: extra", "unknown field \"extra\"");

    doc = base_doc();
    doc["features"][0]["radius"] = 2;  // a circle's field on a polygon
    expect_doc_error(
        doc, "t.json: features[0].radius",
        "unknown field \"radius\" (known: id, name, terrain, shape, points, velocity, container)");

    doc = base_doc();
    doc["viewer"]["rotation"] = 0;
    expect_doc_error(doc, "t.json: viewer.rotation", "unknown field \"rotation\"");

    doc = base_doc();
    doc["world"]["depth"] = 3;
    expect_doc_error(doc, "t.json: world.depth", "unknown field \"depth\"");
  }

  // ---- Names and references -------------------------------------------------------------

  TEST_CASE("scenario_io: unknown terrain, class and faction names list the known ones") {
    Json doc = base_doc();
    doc["features"][0]["terrain"] = "lava";
    expect_doc_error(doc, "t.json: features[0].terrain",
                     "unknown terrain \"lava\" (known: \"ground\", \"rough\"");

    doc = base_doc();
    doc["units"][0]["class"] = "tank";
    expect_doc_error(doc, "t.json: units[0].class",
                     "unknown movement class \"tank\" (known: \"infantry\", \"tracked\"");

    doc = base_doc();
    doc["queries"][0]["class"] = "boat";
    expect_doc_error(doc, "t.json: queries[0].class", "unknown movement class \"boat\"");

    doc = base_doc();
    doc["units"][0]["faction"] = "green";
    expect_doc_error(doc, "t.json: units[0].faction", "unknown faction \"green\" (known: \"blue\", \"red\")");

    doc = base_doc();
    doc["threats"][0]["faction"] = "green";
    expect_doc_error(doc, "t.json: threats[0].faction", "unknown faction \"green\"");

    doc = base_doc();
    doc["features"][0]["shape"] = "hexagon";
    expect_doc_error(doc, "t.json: features[0].shape", "expected \"polygon\", \"rect\" or \"circle\"");
  }

  TEST_CASE("scenario_io: duplicate ids within an array") {
    Json doc = base_doc();
    doc["features"][2]["id"] = 1;
    expect_doc_error(doc, "t.json: features[2].id", "duplicate id 1 (also used by features[0])");
    doc = base_doc();
    doc["roads"].push_back(doc["roads"][0]);
    expect_doc_error(doc, "t.json: roads[1].id", "duplicate id 1");
    // Ids are per array: threat 1 and ally 1 may coexist (as in the base document).
    CHECK(parse_doc(base_doc()).ok());
  }

  TEST_CASE("scenario_io: duplicate names of classes, terrains and factions") {
    Json doc = base_doc();
    doc["factions"][1]["name"] = "blue";
    expect_doc_error(doc, "t.json: factions[1].name", "duplicate name \"blue\" (also used by factions[0])");

    doc = base_doc();
    doc["movement_classes"] =
        Json::parse(R"([{"name": "a", "radius": 1, "speed": 1}, {"name": "a", "radius": 1, "speed": 2}])");
    doc["terrain_types"] =
        Json::parse(R"([{"name": "g", "symbol": ".", "color": "#000000", "cost": {"a": 1}}])");
    expect_doc_error(doc, "t.json: movement_classes[1].name", "duplicate name \"a\"");

    doc["movement_classes"] = Json::parse(R"([{"name": "a", "radius": 1, "speed": 1}])");
    doc["terrain_types"] = Json::parse(R"([{"name": "g", "symbol": ".", "color": "#000000", "cost": {"a": 1}},
                                         {"name": "g", "symbol": "x", "color": "#000000", "cost": {"a": 1}}])");
    expect_doc_error(doc, "t.json: terrain_types[1].name", "duplicate name \"g\"");

    doc["terrain_types"][1]["name"] = "h";
    doc["terrain_types"][1]["symbol"] = ".";
    expect_doc_error(doc, "t.json: terrain_types[1].symbol",
                     "duplicate symbol '.' (also used by terrain_types[0])");
  }

  TEST_CASE("scenario_io: terrain symbols and costs") {
    Json doc = base_doc();
    doc["movement_classes"] = Json::parse(
        R"([{"name": "foot", "radius": 1, "speed": 1}, {"name": "hover", "radius": 1, "speed": 1}])");
    doc["terrain_types"] = Json::parse(
        R"([{"name": "ground", "symbol": ".", "color": "#000000", "cost": {"foot": 1, "hover": 1}},
                                         {"name": "wall", "symbol": "T", "color": "#000000", "cost": {"foot": "impassable", "hover": 2}},
                                         {"name": "nebula", "symbol": "N", "color": "#000000", "cost": {"foot": 2, "hover": 2}}])");
    doc["units"][0]["class"] = "foot";
    doc["queries"][0]["class"] = "foot";
    REQUIRE(parse_doc(doc).ok());

    Json bad = doc;
    bad["terrain_types"][2]["cost"]["hover"] = -1;
    expect_doc_error(bad, "t.json: terrain_types[2].cost.hover",
                     "expected a number > 0 or \"impassable\", found -1");
    bad["terrain_types"][2]["cost"]["hover"] = 0;
    expect_doc_error(bad, "t.json: terrain_types[2].cost.hover", "expected a number > 0 or \"impassable\"");
    bad["terrain_types"][2]["cost"]["hover"] = "blocked";
    expect_doc_error(bad, "t.json: terrain_types[2].cost.hover", "expected a number > 0 or \"impassable\"");
    bad["terrain_types"][2]["cost"]["hover"] = 2e6;
    expect_doc_error(bad, "t.json: terrain_types[2].cost.hover", "exceeds the largest multiplier");

    bad = doc;
    bad["terrain_types"][2]["cost"].erase("hover");
    expect_doc_error(bad, "t.json: terrain_types[2].cost", "missing cost for movement class \"hover\"");
    bad["terrain_types"][2]["cost"]["boat"] = 1;
    expect_doc_error(bad, "t.json: terrain_types[2].cost.boat",
                     "unknown field \"boat\" (known: foot, hover)");

    for (const char* symbol : {"3", " ", "ab", "", "\x7f"}) {
      CAPTURE(symbol);
      bad = doc;
      bad["terrain_types"][1]["symbol"] = symbol;
      const Result<Scenario> r = parse_doc(bad);
      REQUIRE_FALSE(r.ok());
      CHECK(r.error().where == "t.json: terrain_types[1].symbol");
    }

    // Without terrain_types, custom classes have no costs: the defaults cannot apply.
    bad = doc;
    bad.erase("terrain_types");
    expect_doc_error(bad, "t.json",
                     "\"terrain_types\": it is required when movement_classes are not the defaults");
  }

  // ---- Numbers, sizes and limits ---------------------------------------------------------

  TEST_CASE("scenario_io: NaN and infinity (1e999) are rejected at their field") {
    std::string text = base_doc().dump();
    const std::string needle = "\"radius\":3";
    REQUIRE(text.find(needle) != std::string::npos);
    text.replace(text.find(needle), needle.size(), "\"radius\":1e999");
    const Result<Scenario> r = parse_scenario(text, "t.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where == "t.json: features[2].radius");
    CHECK(r.error().message.find("1e999 is out of range") != std::string::npos);
    CHECK(r.error().code == ErrorCode::Value);

    text = base_doc().dump();
    const std::string zoom = "\"zoom\":4";
    text.replace(text.find(zoom), zoom.size(), "\"zoom\":-1e999");
    expect_error_text(text, "t.json: viewer.zoom", "out of range");

    // NaN has no JSON spelling; it is caught by validation of edited scenarios.
    Scenario s = *parse_doc(base_doc());
    s.units[0].position.x = std::nan("");
    const Status st = validate_scenario(s);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == "units[0].position");
    s = *parse_doc(base_doc());
    s.roads[0].width = std::numeric_limits<double>::infinity();
    CHECK(validate_scenario(s).error().where == "roads[0].width");
  }

  TEST_CASE("scenario_io: non-positive sizes") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"/world/width", "world.width"},
        {"/world/height", "world.height"},
        {"/features/2/radius", "features[2].radius"},
        {"/threats/0/radius", "threats[0].radius"},
        {"/roads/0/width", "roads[0].width"},
        {"/bridges/0/width", "bridges[0].width"},
        {"/viewer/zoom", "viewer.zoom"},
    };
    for (const auto& [pointer, where] : cases) {
      for (double v : {0.0, -2.0}) {
        CAPTURE(pointer);
        Json doc = base_doc();
        doc[Json::json_pointer(pointer)] = v;
        expect_doc_error(doc, "t.json: " + where, "expected a finite number > 0");
      }
    }
    Json doc = base_doc();
    doc["movement_classes"] = Json::array();
    for (const MovementClass& c : default_movement_classes()) {
      doc["movement_classes"].push_back({{"name", c.name}, {"radius", c.radius}, {"speed", c.speed}});
    }
    REQUIRE(parse_doc(doc).ok());
    doc["movement_classes"][3]["speed"] = 0;
    expect_doc_error(doc, "t.json: movement_classes[3].speed", "expected a finite number > 0, found 0");
    doc["movement_classes"][3]["speed"] = 1;
    doc["movement_classes"][0]["radius"] = -0.5;
    expect_doc_error(doc, "t.json: movement_classes[0].radius", "found -0.5");
    doc = base_doc();
    doc["tiles"]["width"] = 0;
    expect_doc_error(doc, "t.json: tiles.width", "expected an integer > 0");
    doc = base_doc();
    doc["threats"][0]["strength"] = -1;
    expect_doc_error(doc, "t.json: threats[0].strength", "expected a finite number >= 0");
    doc = base_doc();
    doc["queries"][0]["expected_length"] = -1;
    expect_doc_error(doc, "t.json: queries[0].expected_length", "expected a finite number >= 0");
  }

  TEST_CASE("scenario_io: cell size, grid size and world size limits") {
    Json doc = base_doc();
    doc["world"]["cell_size"] = 0.0001;
    expect_doc_error(doc, "t.json: world.cell_size", "below the smallest cell size");

    doc = base_doc();
    doc["world"]["width"] = 10000;
    doc["world"]["cell_size"] = 1;
    expect_doc_error(doc, "t.json: world.cell_size", "the grid would be 10000 x 48 cells; the limit is 8192");
    CHECK(parse_doc(doc).error().code == ErrorCode::Limit);
    doc["world"]["width"] = 8192;  // exactly at the limit is fine
    CHECK(parse_doc(doc).ok());
    doc["world"]["width"] = 8192.5;  // ceil(8192.5) = 8193 cells
    expect_doc_error(doc, "t.json: world.cell_size", "8193 x 48");

    doc = base_doc();
    doc["world"]["width"] = 2e6;
    doc["world"]["cell_size"] = 1000;
    expect_doc_error(doc, "t.json: world.width", "exceeds the largest world side");
    CHECK(parse_doc(doc).error().code == ErrorCode::Limit);

    // Rounding must not add a sliver cell: 3 m of 0.1 m cells is 30 cells.
    Scenario s = make_empty_scenario(3, 0.7, 0.1);
    CHECK(s.grid_size() == glm::ivec2{30, 7});
  }

  TEST_CASE("scenario_io: coordinates outside the world") {
    Json doc = base_doc();
    doc["features"][0]["points"][1] = {70, 1};
    expect_doc_error(doc, "t.json: features[0].points[1]",
                     "point (70, 1) is outside the world [0, 64] x [0, 48]");
    doc = base_doc();
    doc["features"][1]["min"] = {-1, 10};
    expect_doc_error(doc, "t.json: features[1].min", "outside the world");
    doc = base_doc();
    doc["features"][2]["center"] = {20, 48.5};
    expect_doc_error(doc, "t.json: features[2].center", "outside the world");
    for (const auto& [pointer, where] :
         std::vector<std::pair<std::string, std::string>>{{"/roads/0/points/1", "roads[0].points[1]"},
                                                          {"/bridges/0/b", "bridges[0].b"},
                                                          {"/units/0/position", "units[0].position"},
                                                          {"/queries/0/goal", "queries[0].goal"},
                                                          {"/threats/0/center", "threats[0].center"}}) {
      doc = base_doc();
      doc[Json::json_pointer(pointer)] = {100, 1};
      expect_doc_error(doc, "t.json: " + where, "outside the world");
    }
    // A circle whose centre is inside may extend past the edge; points on the edge are inside.
    doc = base_doc();
    doc["features"][2]["center"] = {63, 47};
    doc["features"][2]["radius"] = 10;
    doc["features"][0]["points"] = Json::parse("[[0, 0], [64, 0], [64, 48]]");
    CHECK(parse_doc(doc).ok());
  }

  TEST_CASE("scenario_io: polygon shape checks") {
    Json doc = base_doc();
    doc["features"][0]["points"] = Json::parse("[[1, 1], [5, 1]]");
    expect_doc_error(doc, "t.json: features[0].points", "expected at least 3 points, found 2");

    doc["features"][0]["points"] = Json::parse("[[0, 0], [4, 4], [4, 0], [0, 4]]");  // bowtie
    expect_doc_error(doc, "t.json: features[0].points",
                     "self-intersecting polygon: edge 0 (points[0] to points[1]) and edge 2 (points[2] to "
                     "points[3]) intersect");

    doc["features"][0]["points"] = Json::parse("[[0, 0], [4, 0], [2, 0], [2, 2]]");  // folds back on itself
    expect_doc_error(doc, "t.json: features[0].points", "self-intersecting polygon: edge 0");

    doc["features"][0]["points"] = Json::parse("[[0, 0], [4, 0], [4, 0], [4, 4]]");  // repeated vertex
    expect_doc_error(doc, "t.json: features[0].points[2]", "repeats points[1]");

    doc["features"][0]["points"] = Json::parse("[[0, 0], [1, 1], [2, 2]]");  // collinear
    CHECK_FALSE(parse_doc(doc).ok());

    std::string many = "[";
    for (std::size_t i = 0; i <= ScenarioLimits::kMaxPolygonPoints; ++i) many += (i ? ",[1,1]" : "[1,1]");
    many += "]";
    doc["features"][0]["points"] = Json::parse(many);
    expect_doc_error(doc, "t.json: features[0].points", "too many entries: 100001 (limit 100000)");
    CHECK(parse_doc(doc).error().code == ErrorCode::Limit);
  }

  TEST_CASE("scenario_io: rect with min >= max") {
    Json doc = base_doc();
    doc["features"][1]["max"] = {10, 12};
    expect_doc_error(doc, "t.json: features[1].max",
                     "expected max > min in both x and y, found min (10, 10) and max (10, 12)");
    doc["features"][1]["max"] = {5, 5};
    expect_doc_error(doc, "t.json: features[1].max", "expected max > min");
  }

  TEST_CASE("scenario_io: too many items") {
    Json doc = base_doc();
    doc["units"] = Json::array();
    doc["units"].get_ref<Json::array_t&>().resize(ScenarioLimits::kMaxItems + 1, Json(0));
    expect_doc_error(doc, "t.json: units", "too many entries: 1000001 (limit 1000000)");
    CHECK(parse_doc(doc).error().code == ErrorCode::Limit);

    Scenario s = *parse_doc(base_doc());
    s.factions.resize(ScenarioLimits::kMaxItems + 1);
    const Status st = validate_scenario(s);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == "factions");
    CHECK(st.error().code == ErrorCode::Limit);
  }

  TEST_CASE("scenario_io: too many terrain types or movement classes") {
    Json doc = base_doc();
    doc["movement_classes"] = Json::array();
    for (int i = 0; i < 17; ++i)
      doc["movement_classes"].push_back({{"name", "c" + std::to_string(i)}, {"radius", 1}, {"speed", 1}});
    expect_doc_error(doc, "t.json: movement_classes", "too many entries: 17 (limit 16)");

    doc = base_doc();
    doc["terrain_types"] = Json::array();
    const std::string symbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!$%&()*+,-/:;<=>?@";
    Json cost = Json::object();
    for (const MovementClass& c : default_movement_classes()) cost[c.name] = 1;
    for (int i = 0; i < 65; ++i) {
      doc["terrain_types"].push_back({{"name", "t" + std::to_string(i)},
                                      {"symbol", std::string(1, symbols[static_cast<std::size_t>(i)])},
                                      {"color", "#000000"},
                                      {"cost", cost}});
    }
    expect_doc_error(doc, "t.json: terrain_types", "too many entries: 65 (limit 64)");
    doc["terrain_types"].erase(64);
    doc.erase("features");
    doc.erase("tiles");
    CHECK(parse_doc(doc).ok());

    Scenario s = make_empty_scenario(10, 10, 1);
    s.classes.clear();
    CHECK(validate_scenario(s).error().message == "expected at least one movement class");
  }

  // ---- Tiles ----------------------------------------------------------------------------

  TEST_CASE("scenario_io: tile rows") {
    Json doc = base_doc();
    doc["tiles"]["rows"] = {"4."};
    expect_doc_error(doc, "t.json: tiles.rows", "expected 2 rows (tiles.height), found 1");

    doc = base_doc();
    doc["tiles"]["rows"][1] = "2T.";
    expect_doc_error(doc, "t.json: tiles.rows[1]", "row has 3 cells, expected 4");

    doc["tiles"]["rows"][1] = "2T3.";
    expect_doc_error(doc, "t.json: tiles.rows[1]", "row is longer than tiles.width (4 cells)");

    doc["tiles"]["rows"][1] = "2TQ.";
    expect_doc_error(doc, "t.json: tiles.rows[1]",
                     "unknown terrain symbol 'Q' at column 2 (character 2); known symbols: . r T S N w W #");

    doc["tiles"]["rows"][1] = "3.1r2";
    expect_doc_error(doc, "t.json: tiles.rows[1]", "run count at character 4 has no terrain symbol");

    doc["tiles"]["rows"][1] = "0.4.";
    expect_doc_error(doc, "t.json: tiles.rows[1]", "run count 0 at character 0");

    doc["tiles"]["rows"][1] = "99999999999999999999.";
    expect_doc_error(doc, "t.json: tiles.rows[1]", "exceeds the row width");

    doc["tiles"]["rows"][1] = "..TT";  // counts are optional
    CHECK(parse_doc(doc).ok());

    doc = base_doc();
    doc["tiles"]["width"] = 65;
    doc["tiles"]["rows"] = {"65.", "65."};
    expect_doc_error(doc, "t.json: tiles.width", "wider than the world");

    doc = base_doc();
    doc["tiles"]["height"] = 9000;
    expect_doc_error(doc, "t.json: tiles.height", "exceeds the limit of 8192");
  }

  // ---- Queries, roads, bridges ------------------------------------------------------------

  TEST_CASE("scenario_io: query planner and parameters") {
    Json doc = base_doc();
    doc["queries"][0]["planner"] = "teleport";
    expect_doc_error(doc, "t.json: queries[0].planner", "unknown planner \"teleport\" (known: \"astar\"");

    doc = base_doc();
    doc["queries"][0]["params"]["weight"] = 0.5;
    expect_doc_error(doc, "t.json: queries[0].params.weight", "");

    doc = base_doc();
    doc["queries"][0]["params"]["speed"] = 1;
    expect_doc_error(doc, "t.json: queries[0].params.speed", "speed");

    doc = base_doc();
    doc["queries"][0].erase("planner");
    doc["queries"][0].erase("params");
    const Result<Scenario> r = parse_doc(doc);
    REQUIRE(r.ok());
    CHECK(r->queries[0].planner == "astar");
    CHECK(r->queries[0].params.empty());

    Scenario s = *r;
    s.queries[0].params = {PlannerParam{"b", 1}, PlannerParam{"a", 1}};
    s.queries[0].planner = "weighted_astar";
    CHECK(validate_scenario(s).error().message == "parameters must be unique and sorted by name");
  }

  TEST_CASE("scenario_io: a start or goal inside a wall is not a load error") {
    Json doc = base_doc();
    doc["queries"][0]["start"] = {11, 11};  // inside the rect wall
    doc["queries"][0]["goal"] = {3, 2};     // inside the polygon wall
    CHECK(parse_doc(doc).ok());
  }

  TEST_CASE("scenario_io: roads and bridges") {
    Json doc = base_doc();
    doc["roads"][0]["points"] = Json::parse("[[0, 40]]");
    expect_doc_error(doc, "t.json: roads[0].points", "expected at least 2 points, found 1");
    doc = base_doc();
    doc["roads"][0]["speed_factor"] = 0.5;
    expect_doc_error(doc, "t.json: roads[0].speed_factor", "expected a finite number >= 1, found 0.5");
    doc = base_doc();
    doc["bridges"][0]["b"] = {30, 35};
    expect_doc_error(doc, "t.json: bridges[0].b", "bridge ends coincide at (30, 35)");
    // Distinct speed factors are bounded (the raster's 16-bit surface ids); repeats are free.
    doc = base_doc();
    doc["roads"][0]["speed_factor"] = 1.0;  // the same as the first added below
    const Json road = doc["roads"][0];
    for (int i = 0; i < 300; ++i) {
      Json r = road;
      r["id"] = 1000 + i;
      r["speed_factor"] = 1.0 + (i % 255) * 0.01;
      doc["roads"].push_back(r);
    }
    CHECK(parse_doc(doc).ok());
    Json more = road;
    more["id"] = 5000;
    more["speed_factor"] = 9.5;
    doc["roads"].push_back(more);
    expect_doc_error(doc, "t.json: roads[301].speed_factor", "more than 255 distinct road speed factors");
  }

  // ---- Version 2: the unit simulation's fields ---------------------------------------------

  TEST_CASE(
      "scenario_io: a version 1 file loads with version 2's fields at their defaults and saves as version "
      "3") {
    const Result<Scenario> r = parse_doc(base_doc());  // version 1
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    CHECK(r->classes == default_movement_classes());
    CHECK_FALSE(r->classes[0].acceleration.has_value());
    CHECK_FALSE(r->classes[0].soft_radius.has_value());
    CHECK(r->classes[0].hard_aspect == 1);
    CHECK(r->classes[0].priority == 0);
    CHECK(r->classes[0].planner == "astar");
    CHECK(r->units[0].order == Order{});
    CHECK(r->groups.empty());
    CHECK(r->sim == SimSettings{});
    // Saved as version 3; the defaults add no field, so nothing else changes.
    const std::string text = scenario_to_json(*r);
    CHECK(text.find("\"version\": 3,") != std::string::npos);
    for (const char* key :
         {"\"acceleration\"", "\"hard_aspect\"", "\"priority\"", "\"order\"", "\"groups\"", "\"sim\""}) {
      const std::string field = key;
      CAPTURE(field);
      CHECK(text.find(key) == std::string::npos);
    }
    const Result<Scenario> again = parse_scenario(text, "again");
    REQUIRE(again.ok());
    CHECK(*again == *r);
  }

  TEST_CASE("scenario_io: version 2's fields are read, and written in the canonical layout") {
    Json doc = base_doc();
    doc["version"] = 2;
    doc["movement_classes"] = default_classes_doc();
    doc["movement_classes"][0].update(Json::parse(R"({"acceleration": 3, "deceleration": 6, "turn_rate": 4.5,
        "hard_radius": 0.4, "soft_radius": 0.9, "hard_aspect": 0.5, "priority": -3, "planner": "dijkstra"})"));
    doc["units"][0]["order"] =
        Json::parse(R"({"kind": "patrol", "points": [[5, 20], [40, 20]], "patrol": "back_forth"})");
    doc["units"].push_back(Json::parse(R"({"id": 2, "faction": "red", "class": "infantry", "position": [8, 8],
        "order": {"kind": "stop"}})"));
    doc["groups"] = Json::parse(
        R"([{"id": 4, "name": "pair", "units": [2, 1], "order": {"kind": "move", "points": [[60, 5]]}}])");
    doc["sim"] = Json::parse(R"({"dt": 0.02, "avoidance": "steering_arcs", "path_budget": 8})");
    const Result<Scenario> r = parse_doc(doc);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().to_string()));
    const MovementClass& c = r->classes[0];
    CHECK(c.acceleration == 3.0);
    CHECK(c.deceleration == 6.0);
    CHECK(c.turn_rate == 4.5);
    CHECK(c.hard_radius == 0.4);
    CHECK(c.soft_radius == 0.9);
    CHECK(c.hard_aspect == 0.5);
    CHECK(c.priority == -3);
    CHECK(c.planner == "dijkstra");
    CHECK(r->classes[1] == default_movement_classes()[1]);
    CHECK(r->units[0].order == Order{OrderKind::Patrol, {{5, 20}, {40, 20}}, PatrolMode::BackForth});
    CHECK(r->units[1].order == Order{OrderKind::Stop, {}, PatrolMode::Loop});
    REQUIRE(r->groups.size() == 1);
    CHECK(r->groups[0] == UnitGroup{4, "pair", {2, 1}, Order{OrderKind::Move, {{60, 5}}, PatrolMode::Loop}});
    SimSettings sim;
    sim.dt = 0.02;
    sim.avoidance = AvoidanceMode::SteeringArcs;
    sim.path_budget = 8;
    CHECK(r->sim == sim);

    const std::string text = scenario_to_json(*r);
    CHECK(text.find(R"("amphibious": false,
      "acceleration": 3,
      "deceleration": 6,
      "turn_rate": 4.5,
      "hard_radius": 0.4,
      "soft_radius": 0.9,
      "hard_aspect": 0.5,
      "priority": -3,
      "planner": "dijkstra"
    },)") != std::string::npos);
    CHECK(text.find(R"("heading": 0,
      "order": {
        "kind": "patrol",
        "points": [[5, 20], [40, 20]],
        "patrol": "back_forth"
      }
    },)") != std::string::npos);
    CHECK(text.find(R"("order": {
        "kind": "stop"
      })") != std::string::npos);
    CHECK(text.find(R"("groups": [
    {
      "id": 4,
      "name": "pair",
      "units": [2, 1],
      "order": {
        "kind": "move",
        "points": [[60, 5]]
      }
    }
  ],
  "sim": {
    "dt": 0.02,
    "continuous": true,
    "prevention": true,
    "cooperation": true,
    "passages": true,
    "avoidance": "steering_arcs",
    "memory_seconds": 2,
    "prediction_seconds": 1,
    "path_budget": 8
  },
  "queries": [)") != std::string::npos);
    const Result<Scenario> again = parse_scenario(text, "again");
    REQUIRE(again.ok());
    CHECK(*again == *r);
    CHECK(scenario_to_json(*again) == text);
  }

  TEST_CASE("scenario_io: movement class limits are refused at their field") {
    struct Case {
      const char* key;
      Json value;
      const char* message;
    };
    const Case cases[] = {
        {"acceleration", 0, "expected a finite number > 0, found 0"},
        {"deceleration", -1, "expected a finite number > 0, found -1"},
        {"turn_rate", 0, "expected a finite number > 0"},
        {"hard_radius", 0, "expected a finite number > 0"},
        {"soft_radius", 0.25, "expected a finite number >= the hard radius (0.5 m), found 0.25"},
        {"hard_aspect", 0, "expected a number in (0, 1], found 0"},
        {"hard_aspect", 1.5, "expected a number in (0, 1], found 1.5"},
        {"priority", 1001, "expected an integer in [-1000, 1000], found 1001"},
        {"priority", -1001, "found -1001"},
        {"priority", 2.5, "expected an integer, found a number 2.5"},
        {"priority", 10000000000LL, "out of range"},
        {"planner", "", "expected a non-empty name"},
        {"planner", "teleport", "unknown planner \"teleport\" (known: \"astar\""},
        {"acceleration", "fast", "expected a number"},
    };
    for (const Case& c : cases) {
      const std::string key = c.key, value = c.value.dump();
      CAPTURE(key);
      CAPTURE(value);
      Json doc = base_doc();
      doc["movement_classes"] = default_classes_doc();
      doc["movement_classes"][0][c.key] = c.value;
      expect_doc_error(doc, std::string("t.json: movement_classes[0].") + c.key, c.message);
    }
    // The soft radius is measured against the hard radius when one is given.
    Json doc = base_doc();
    doc["movement_classes"] = default_classes_doc();
    doc["movement_classes"][2]["hard_radius"] = 3;
    doc["movement_classes"][2]["soft_radius"] = 2.5;
    expect_doc_error(doc, "t.json: movement_classes[2].soft_radius", "the hard radius (3 m), found 2.5");
    doc["movement_classes"][2]["soft_radius"] = 3;
    CHECK(parse_doc(doc).ok());
    doc["movement_classes"][2]["top_speed"] = 3;
    expect_doc_error(
        doc, "t.json: movement_classes[2].top_speed",
        "unknown field \"top_speed\" (known: name, radius, speed, amphibious, acceleration, deceleration, "
        "turn_rate, hard_radius, soft_radius, hard_aspect, priority, planner, vehicle, min_turn_radius, "
        "reverse_speed)");
  }

  TEST_CASE(
      "scenario_io: the sizes that drive a simulation's work have upper bounds, refused at their field") {
    struct Case {
      const char* key;
      double value;
      const char* message;
    };
    const Case cases[] = {
        {"hard_radius", 1000, "expected a number in (0, 64] m, found 1000"},
        {"hard_radius", 64.5, "expected a number in (0, 64] m, found 64.5"},
        {"radius", 1000, "expected a number in (0, 64] m, found 1000"},
        {"soft_radius", 1000, "expected a number in [the hard radius (2.5 m), 128] m, found 1000"},
        {"speed", 5000, "expected a number in (0, 1000] m/s, found 5000"},
        {"acceleration", 2e6, "expected a number in (0, 1000000] m/s^2, found 2e+06"},
        {"deceleration", 2e6, "expected a number in (0, 1000000] m/s^2, found 2e+06"},
        {"turn_rate", 5000, "expected a number in (0, 1000] radians per second, found 5000"},
    };
    for (const Case& c : cases) {
      const std::string key = c.key;
      CAPTURE(key);
      Json doc = base_doc();
      doc["movement_classes"] = default_classes_doc();
      doc["movement_classes"][1][c.key] = c.value;
      expect_doc_error(doc, std::string("t.json: movement_classes[1].") + c.key, c.message);
      CHECK(parse_doc(doc).error().code == ErrorCode::Limit);
      CHECK(parse_doc(doc).error().to_string().find("t.json: movement_classes[1]." + key) == 0);
    }
    // The bounds themselves are allowed.
    Json doc = base_doc();
    doc["movement_classes"] = default_classes_doc();
    for (const auto& [key, value] :
         {std::pair{"radius", 64.0}, std::pair{"hard_radius", 64.0}, std::pair{"soft_radius", 128.0},
          std::pair{"speed", 1000.0}, std::pair{"acceleration", 1e6}, std::pair{"deceleration", 1e6},
          std::pair{"turn_rate", 1000.0}}) {
      doc["movement_classes"][1][key] = value;
    }
    const Result<Scenario> at_bounds = parse_doc(doc);
    CHECK_MESSAGE(at_bounds.ok(), (at_bounds ? std::string() : at_bounds.error().to_string()));

    // The number of units: checked on the model (a file that large is slow to build here).
    Scenario s = *parse_doc(base_doc());
    const Unit unit = s.units[0];
    s.units.assign(100'001, unit);
    for (std::size_t i = 0; i < s.units.size(); ++i) s.units[i].id = std::uint32_t(i + 1);
    const Status many = validate_scenario(s);
    REQUIRE_FALSE(many.ok());
    CHECK(many.error().where == "units");
    CHECK(many.error().code == ErrorCode::Limit);
    CHECK(many.error().message == "too many units: 100001 (limit 100000)");
    s.units.pop_back();
    CHECK(validate_scenario(s).ok());
  }

  TEST_CASE("scenario_io: orders need the points their kind takes, inside the world") {
    struct Case {
      const char* order;
      const char* where;
      const char* message;
    };
    const Case cases[] = {
        {R"({"kind": "move"})", "units[0].order.points", "a move order has exactly 1 point, found 0"},
        {R"({"kind": "move", "points": [[1, 1], [2, 2]]})", "units[0].order.points",
         "exactly 1 point, found 2"},
        {R"({"kind": "waypoints", "points": []})", "units[0].order.points", "at least 1 point, found 0"},
        {R"({"kind": "patrol", "points": [[1, 1]]})", "units[0].order.points",
         "a patrol has at least 2 points, found 1"},
        {R"({"kind": "stop", "points": [[1, 1]]})", "units[0].order.points",
         "a stop order has no points, found 1"},
        {R"({"kind": "none", "points": [[1, 1]]})", "units[0].order.points",
         "no order has no points, found 1"},
        {R"({"kind": "waypoints", "points": [[1, 1], [65, 1]]})", "units[0].order.points[1]",
         "point (65, 1) is outside the world [0, 64] x [0, 48]"},
        {R"({"kind": "teleport"})", "units[0].order.kind",
         "expected \"none\", \"move\", \"waypoints\", \"patrol\" or \"stop\", found \"teleport\""},
        {R"({"kind": "patrol", "points": [[1, 1], [2, 2]], "patrol": "pingpong"})", "units[0].order.patrol",
         "expected \"loop\" or \"back_forth\", found \"pingpong\""},
        {R"({"points": [[1, 1]]})", "units[0].order", "missing required field \"kind\""},
        {R"({"kind": "move", "points": [[1, 1]], "speed": 2})", "units[0].order.speed",
         "unknown field \"speed\""},
        {R"("move")", "units[0].order", "expected an object"},
    };
    for (const Case& c : cases) {
      const std::string order = c.order;
      CAPTURE(order);
      Json doc = base_doc();
      doc["units"][0]["order"] = Json::parse(c.order);
      expect_doc_error(doc, std::string("t.json: ") + c.where, c.message);
    }
    for (const char* ok :
         {R"({"kind": "none"})", R"({"kind": "stop"})", R"({"kind": "move", "points": [[64, 48]]})",
          R"({"kind": "waypoints", "points": [[0, 0]]})",
          R"({"kind": "patrol", "points": [[1, 1], [2, 2]], "patrol": "loop"})"}) {
      const std::string order = ok;
      CAPTURE(order);
      Json doc = base_doc();
      doc["units"][0]["order"] = Json::parse(ok);
      CHECK(parse_doc(doc).ok());
    }
  }

  TEST_CASE("scenario_io: groups name existing units, each in at most one group, with a valid order") {
    Json doc = base_doc();
    doc["units"].push_back(
        Json::parse(R"({"id": 2, "faction": "red", "class": "infantry", "position": [8, 8]})"));
    doc["groups"] = Json::parse(R"([{"id": 1, "units": [1]}, {"id": 5, "name": "b", "units": [2],
                                     "order": {"kind": "waypoints", "points": [[3, 3]]}}])");
    REQUIRE(parse_doc(doc).ok());

    Json bad = doc;
    bad["groups"][1]["id"] = 1;
    expect_doc_error(bad, "t.json: groups[1].id", "duplicate id 1 (also used by groups[0])");
    bad = doc;
    bad["groups"][1]["units"] = {2, 9};
    expect_doc_error(bad, "t.json: groups[1].units[1]", "no unit has id 9");
    bad = doc;
    bad["groups"][1]["units"] = {2, 1};
    expect_doc_error(bad, "t.json: groups[1].units[1]",
                     "unit 1 is already in a group (at groups[0].units[0])");
    bad = doc;
    bad["groups"][1]["units"] = {2, 2};
    expect_doc_error(bad, "t.json: groups[1].units[1]",
                     "unit 2 is already in a group (at groups[1].units[0])");
    bad = doc;
    bad["groups"][1]["order"]["points"][0] = {3, -1};
    expect_doc_error(bad, "t.json: groups[1].order.points[0]", "is outside the world");
    bad = doc;
    bad["groups"][1]["order"] = Json::parse(R"({"kind": "patrol", "points": [[3, 3]]})");
    expect_doc_error(bad, "t.json: groups[1].order.points", "a patrol has at least 2 points, found 1");
    bad = doc;
    bad["groups"][0].erase("units");
    expect_doc_error(bad, "t.json: groups[0]", "missing required field \"units\"");
    bad = doc;
    bad["groups"][0]["units"] = {-1};
    expect_doc_error(bad, "t.json: groups[0].units[0]", "expected an integer >= 0");
    bad = doc;
    bad["groups"][0]["leader"] = 1;
    expect_doc_error(bad, "t.json: groups[0].leader",
                     "unknown field \"leader\" (known: id, name, units, order, platoon)");
  }

  TEST_CASE("scenario_io: simulation settings are refused outside their ranges") {
    struct Case {
      const char* key;
      Json value;
      const char* message;
    };
    const Case cases[] = {
        {"dt", 0, "expected a number in [1e-04, 1] seconds, found 0"},
        {"dt", 1.5, "found 1.5"},
        {"dt", 5e-5, "found 5e-05"},
        {"memory_seconds", -1, "expected a finite number >= 0 seconds, found -1"},
        {"prediction_seconds", 0, "expected a number in (0, 10] seconds, found 0"},
        {"prediction_seconds", 10.5, "found 10.5"},
        {"path_budget", 0, "expected an integer in [1, 1000000] path requests per step, found 0"},
        {"path_budget", 1000001, "found 1000001"},
        {"path_budget", 2.5, "expected an integer"},
        {"avoidance", "flocking",
         "expected \"none\", \"potential_field\" or \"steering_arcs\", found \"flocking\""},
        {"continuous", 1, "expected true or false"},
        {"formation_goals", "yes", "expected true or false"},
        {"detours", 0, "expected true or false"},
        {"gravity", 9.8, "unknown field \"gravity\""},
    };
    for (const Case& c : cases) {
      const std::string key = c.key, value = c.value.dump();
      CAPTURE(key);
      CAPTURE(value);
      Json doc = base_doc();
      doc["sim"] = Json::object({{c.key, c.value}});
      expect_doc_error(doc, std::string("t.json: sim.") + c.key, c.message);
    }
    Json doc = base_doc();
    doc["sim"] =
        Json::parse(R"({"dt": 1e-4, "memory_seconds": 0, "prediction_seconds": 10, "path_budget": 1000000})");
    CHECK(parse_doc(doc).ok());
    doc["sim"] = Json::parse(R"({"dt": 1, "path_budget": 1, "avoidance": "potential_field"})");
    CHECK(parse_doc(doc).ok());
    doc["sim"] = Json::object();  // every default; not written back
    const Result<Scenario> r = parse_doc(doc);
    REQUIRE(r.ok());
    CHECK(r->sim == SimSettings{});
    CHECK(scenario_to_json(*r).find("\"sim\"") == std::string::npos);
  }

  // ---- Files ----------------------------------------------------------------------------

  TEST_CASE("scenario_io: load_scenario reports missing files as Io errors") {
    const auto dir = scenario_dir("load_missing");
    const Result<Scenario> r = load_scenario(dir / "nope.json");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == ErrorCode::Io);
    CHECK(r.error().where == (dir / "nope.json").string());
    CHECK(load_scenario(dir).error().code == ErrorCode::Io);  // a directory
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("scenario_io: a scenario refused when saved names the file and the field") {
    // A unit moved outside the world after loading (as an edit or a simulation might):
    // the refusal says which file was not written and which unit is where.
    const auto dir = scenario_dir("save_unit_outside");
    Scenario s = *parse_doc(base_doc());
    REQUIRE_FALSE(s.units.empty());
    s.units[0].position = Vec2{1e6, 1e6};
    const auto target = dir / "game.json";
    const Status st = save_scenario(s, target);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == target.string() + ": units[0].position");
    CHECK(st.error().message == "not saved: point (1e+06, 1e+06) is outside the world [0, 64] x [0, 48]");
    CHECK_FALSE(std::filesystem::exists(target));
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("scenario_io: saving into a missing directory fails and leaves nothing") {
    const auto dir = scenario_dir("save_missing_dir");
    const Scenario s = *parse_doc(base_doc());
    const auto target = dir / "missing" / "a.json";
    const Status st = save_scenario(s, target);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().code == ErrorCode::Io);
    CHECK(st.error().where == target.string());
    CHECK_FALSE(std::filesystem::exists(dir / "missing"));
    CHECK(count_entries(dir) == 0);
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("scenario_io: saving over a file replaces it and leaves no temporary") {
    const auto dir = scenario_dir("save_replace");
    const auto target = dir / "a.json";
    { std::ofstream(target) << "old contents"; }
    const Scenario s = *parse_doc(base_doc());
    REQUIRE(save_scenario(s, target).ok());
    CHECK(read_file(target) == scenario_to_json(s));
    CHECK(count_entries(dir) == 1);
    const Result<Scenario> loaded = load_scenario(target);
    REQUIRE(loaded.ok());
    CHECK(*loaded == s);

    // An invalid scenario is not written; the old file stays intact.
    Scenario bad = s;
    bad.world.width = -1;
    const Status st = save_scenario(bad, target);
    REQUIRE_FALSE(st.ok());
    CHECK(st.error().where == target.string() + ": world.width");
    CHECK(st.error().message.rfind("not saved: ", 0) == 0);
    CHECK(read_file(target) == scenario_to_json(s));
    CHECK(count_entries(dir) == 1);

    // A target that cannot be replaced (a non-empty directory): Io error, temp removed.
    std::filesystem::create_directories(dir / "b.json" / "inside");
    const Status blocked = save_scenario(s, dir / "b.json");
    REQUIRE_FALSE(blocked.ok());
    CHECK(blocked.error().code == ErrorCode::Io);
    CHECK(blocked.error().where == (dir / "b.json").string());
    CHECK(count_entries(dir) == 2);
    CHECK(std::filesystem::is_directory(dir / "b.json" / "inside"));
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("scenario_io: saving into an unwritable folder reports the path and keeps the old file") {
    const auto dir = scenario_dir("save_read_only");
    const auto target = dir / "a.json";
    const Scenario s = *parse_doc(base_doc());
    REQUIRE(save_scenario(s, target).ok());
    Scenario changed = s;
    changed.name = "changed";
    Status st = Ok{};
    bool effective = false;
    {
      const pathscope::test::ReadOnlyFolder read_only(dir);
      effective = read_only.effective();
      if (effective) st = save_scenario(changed, target);
    }
    if (!effective) {
      MESSAGE("the folder stays writable here (root without seteuid): check skipped");
    } else {
      REQUIRE_FALSE(st.ok());
      CHECK(st.error().code == ErrorCode::Io);
      CHECK(st.error().where == target.string());
      CHECK(st.error().to_string().find(target.string()) != std::string::npos);
      CHECK(read_file(target) == scenario_to_json(s));
      CHECK(count_entries(dir) == 1);
    }
    std::filesystem::remove_all(dir);
  }

  TEST_CASE("scenario_io: to_string(ErrorCode)") {
    CHECK(std::string(to_string(ErrorCode::Io)) == "io");
    CHECK(std::string(to_string(ErrorCode::Parse)) == "parse");
    CHECK(std::string(to_string(ErrorCode::Schema)) == "schema");
    CHECK(std::string(to_string(ErrorCode::Value)) == "value");
    CHECK(std::string(to_string(ErrorCode::Limit)) == "limit");
    CHECK(std::string(to_string(ErrorCode::Query)) == "query");
  }

}  // TEST_SUITE
