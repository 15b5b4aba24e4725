// Fog of war: what factions see and remember, the world they plan with, and the planners
// that plan with it.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/belief.hpp"
#include "planner/world/planning_world.hpp"

using namespace pathscope;

namespace {

Feature wall(std::uint32_t id, const Scenario& s, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = id;
  f.terrain = *s.find_terrain("wall");
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = lo;
  f.shape.max = hi;
  return f;
}

// 100 x 60 m, blue (sight 15) with one unit at (10, 30); red without fog.
Scenario field(bool partial = false) {
  Scenario s = make_empty_scenario(100, 60, 1.0);
  s.factions = {Faction{"blue", {40, 80, 255, 255}, 15, partial, {}, {}},
                Faction{"red", {230, 40, 40, 255}, 0, false, {}, {}}};
  Unit u;
  u.id = 1;
  u.faction = "blue";
  u.position = {10, 30};
  s.units.push_back(u);
  return s;
}

double area_of(const std::vector<Feature>& pieces) {
  double a = 0;
  for (const Feature& f : pieces) a += std::abs(polygon_area(f.shape.points));
  return a;
}

}  // namespace

TEST_SUITE("fog of war") {
  TEST_CASE("a faction remembers what it saw, keeps believing it out of view, forgets what it sees gone") {
    Scenario s = field();
    s.features = {wall(1, s, {20, 25}, {22, 35}), wall(2, s, {60, 10}, {62, 50})};
    REQUIRE(observe_all(s));
    REQUIRE(s.factions[0].memory.size() == 1);  // the near wall only
    CHECK(s.factions[0].memory[0] == s.features[0]);
    CHECK(s.factions[1].memory.empty());  // no fog: nothing to remember
    CHECK_FALSE(observe_all(s));          // looking again changes nothing

    // The near wall is destroyed while the unit is away: still believed.
    s.units[0].position = {80, 55};
    s.features.erase(s.features.begin());
    observe_all(s);
    REQUIRE(s.factions[0].memory.size() == 1);
    CHECK(s.factions[0].memory[0].id == 1);
    // The unit comes back: the place is seen empty, the wall forgotten.
    s.units[0].position = {10, 30};
    observe_all(s);
    CHECK(s.factions[0].memory.empty());

    // A wall moved into view replaces its memory elsewhere.
    s.factions[0].memory = {wall(2, s, {60, 10}, {62, 50})};
    s.features[0] = wall(2, s, {18, 20}, {19, 40});
    observe_all(s);
    REQUIRE(s.factions[0].memory.size() == 1);
    CHECK(s.factions[0].memory[0].shape.min == Vec2{18, 20});
    CHECK(validate_scenario(s));
  }

  TEST_CASE("seen in part: only the parts in view are remembered, and they add up over looks") {
    Scenario s = field(true);
    s.features = {wall(7, s, {0, 0}, {100, 60})};  // the whole field is a wall
    s.units[0].position = {30, 30};
    observe_all(s);
    const double disc = std::numbers::pi * 15 * 15;
    CHECK(area_of(s.factions[0].memory) == doctest::Approx(disc).epsilon(0.02));
    CHECK(area_of(s.factions[0].memory) <= disc + 1e-6);  // never more than seen
    for (const Feature& f : s.factions[0].memory) CHECK(f.id == 7);
    // A second look elsewhere adds a second disc; the first is kept.
    s.units[0].position = {70, 30};
    observe_all(s);
    CHECK(area_of(s.factions[0].memory) == doctest::Approx(2 * disc).epsilon(0.02));
    CHECK(validate_scenario(s));
    // Whole mode believes all of it at once.
    s.factions[0].partial = false;
    s.factions[0].memory.clear();
    observe_all(s);
    CHECK(s.factions[0].memory == s.features);
  }

  TEST_CASE("shape_in_view is exact for rectangles, circles and polygons") {
    const std::vector<Vec2> c = {{0, 0}};
    Shape r;
    r.kind = ShapeKind::Rect;
    r.min = {3, 4};
    r.max = {10, 10};
    CHECK(shape_in_view(r, c, 5.0));  // its corner is exactly 5 m away
    CHECK_FALSE(shape_in_view(r, c, 4.999));
    Shape d;
    d.kind = ShapeKind::Circle;
    d.center = {10, 0};
    d.radius = 2;
    CHECK(shape_in_view(d, c, 8.0));
    CHECK_FALSE(shape_in_view(d, c, 7.999));
    Shape p;
    p.kind = ShapeKind::Polygon;
    p.points = {{-20, -20}, {20, -20}, {0, 20}};  // the centre inside it
    CHECK(shape_in_view(p, c, 0.001));
    p.points = {{6, -1}, {9, -1}, {9, 1}, {6, 1}};
    CHECK(shape_in_view(p, c, 6.0));
    CHECK_FALSE(shape_in_view(p, c, 5.999));
  }

  TEST_CASE("planners plan with a faction's belief: through an unseen wall, around a remembered one") {
    Scenario s = field();
    // A long wall across the middle that blue has never seen, and a remembered wall near
    // the goal that is no longer there.
    s.features = {wall(1, s, {50, 0}, {52, 55})};
    s.factions[0].memory = {wall(2, s, {80, 5}, {82, 60})};
    s.units[0].position = {5, 5};
    REQUIRE(validate_scenario(s));
    const PlanningWorld world(s);
    const PathQuery q{{40, 58}, {95, 58}};
    for (const PlannerInfo& info : planner_registry()) {
      if (info.name != "astar" && info.name != "visgraph" && info.name != "quadtree") continue;
      CAPTURE(info.name);
      ParamValues defaults;
      for (const ParamSpec& p : info.params) defaults.push_back(p.default_value);
      auto truth = info.create(QueryContext{world, 0, std::nullopt, defaults});
      auto blue = info.create(QueryContext{world, 0, std::size_t{0}, defaults});
      auto red = info.create(QueryContext{world, 0, std::size_t{1}, defaults});
      const PathResult t = find_path(*truth, q);
      const PathResult b = find_path(*blue, q);
      const PathResult r = find_path(*red, q);
      REQUIRE(t.status == SearchStatus::Found);
      REQUIRE(b.status == SearchStatus::Found);
      // The truth passes the wall's end (y 55 to 60) and goes straight on; blue goes
      // straight through where the wall is (unseen), then round the bottom of the wall it
      // remembers (which reaches the top edge).
      double blue_low = 60, truth_low = 60;
      for (const Vec2& p : b.points) blue_low = std::min(blue_low, p.y);
      for (const Vec2& p : t.points) truth_low = std::min(truth_low, p.y);
      CHECK(truth_low > 54);                         // never goes down: the believed wall is not there
      CHECK(blue_low < 6);                           // round the bottom of the remembered wall
      CHECK(r.length == doctest::Approx(t.length));  // red has no fog: it knows the truth
    }
  }

  TEST_CASE("the believed world follows the truth's updates, a memory change voids a faction's answer") {
    Scenario s = field();
    s.features = {wall(1, s, {20, 25}, {22, 35})};
    PlanningWorld world(s);
    const PlannerInfo* astar = find_planner("astar");
    auto blue = astar->create(QueryContext{world, 0, std::size_t{0}, {}});
    const PathQuery q{{5, 30}, {40, 30}};
    REQUIRE(find_path(*blue, q).status == SearchStatus::Found);
    CHECK(blue->result().length < 35.5);  // nothing remembered yet: (nearly) straight
    auto dependency = blue->result_dependency();
    REQUIRE(dependency != nullptr);
    observe_all(s);  // blue sees the wall
    const WorldChange change = world.update(s).value();
    bool faction_item = false;
    for (const ItemRef& r : change.items)
      faction_item = faction_item || (r.kind == ItemKind::Faction && r.id == 0);
    CHECK(faction_item);
    CHECK_FALSE(dependency->still_valid(change));
    REQUIRE(find_path(*blue, q).status == SearchStatus::Found);
    CHECK(blue->result().length > 36.5);  // round the wall it now knows
  }

  TEST_CASE("a stale bridge is planned over until seen") {
    // A river of deep water tiles (terrain: known to all) across the middle, one bridge;
    // blue's unit far from it.
    Scenario s = field();
    TileGrid river;
    river.width = 100;
    river.height = 60;
    river.terrain.assign(100 * 60, 0);
    for (int y = 0; y < 60; ++y) {
      for (int x = 45; x < 55; ++x)
        river.terrain[std::size_t(y * 100 + x)] = std::uint8_t(*s.find_terrain("deep water"));
    }
    s.tiles = river;
    s.bridges.push_back(Bridge{7, {42, 30}, {58, 30}, 4, true});
    REQUIRE(observe_all(s));  // the first look records the bridge as the map shows it
    REQUIRE(s.factions[0].bridges.size() == 1);
    CHECK(s.factions[0].bridges[0].intact);

    // Destroyed out of view: blue still believes in it.
    s.bridges[0].intact = false;
    CHECK_FALSE(observe_all(s));
    CHECK(s.factions[0].bridges[0].intact);
    CHECK(believed_scenario(s, 0).bridges[0].intact);
    CHECK_FALSE(believed_scenario(s, 1).bridges[0].intact);  // red has no fog

    PlanningWorld world(s);
    const PathQuery across{{20, 30}, {80, 30}};
    for (const char* name : {"visgraph", "astar", "quadtree", "bidirectional"}) {
      CAPTURE(name);
      const PlannerInfo* info = find_planner(name);
      REQUIRE(info);
      ParamValues defaults;
      for (const ParamSpec& p : info->params) defaults.push_back(p.default_value);
      auto blue = info->create(QueryContext{world, 0, std::size_t{0}, defaults});
      auto truth = info->create(QueryContext{world, 0, std::nullopt, defaults});
      const PathResult believed = find_path(*blue, across);
      REQUIRE(believed.status == SearchStatus::Found);  // over the bridge it believes in
      CHECK(believed.length == doctest::Approx(60.0).epsilon(0.02));
      CHECK(find_path(*truth, across).status == SearchStatus::NoPath);
    }

    // The unit walks to the river bank (12 m from the bridge's end): blue sees it gone and
    // re-plans.
    ParamValues defaults;
    for (const ParamSpec& p : find_planner("visgraph")->params) defaults.push_back(p.default_value);
    auto blue = find_planner("visgraph")->create(QueryContext{world, 0, std::size_t{0}, defaults});
    REQUIRE(find_path(*blue, across).status == SearchStatus::Found);
    const std::unique_ptr<ResultDependency> held = blue->result_dependency();
    s.units[0].position = {30, 30};
    REQUIRE(observe_all(s));
    CHECK_FALSE(s.factions[0].bridges[0].intact);
    const WorldChange change = world.update(s).value();
    CHECK_FALSE(held->still_valid(change));
    CHECK(find_path(*blue, across).status == SearchStatus::NoPath);

    // Repaired while blue looks away: still believed destroyed; seen again, intact.
    s.units[0].position = {10, 30};
    s.bridges[0].intact = true;
    observe_all(s);
    CHECK_FALSE(s.factions[0].bridges[0].intact);
    world.update(s).value();
    CHECK(find_path(*blue, across).status == SearchStatus::NoPath);
    s.units[0].position = {56, 50};  // across the river, 20 m from the deck: not in view
    observe_all(s);
    CHECK_FALSE(s.factions[0].bridges[0].intact);
    s.units[0].position = {50, 40};  // 10 m from the middle of the deck
    observe_all(s);
    CHECK(s.factions[0].bridges[0].intact);
    world.update(s).value();
    CHECK(find_path(*blue, across).status == SearchStatus::Found);
    CHECK(validate_scenario(s));
  }

  TEST_CASE("bad fog settings are refused at their field") {
    Scenario s = field();
    s.factions[0].sight = -1;
    Status bad = validate_scenario(s);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().where == "factions[0].sight");
    s = field();
    Query q;
    q.start = {1, 1};
    q.goal = {2, 2};
    q.faction = "green";
    s.queries.push_back(q);
    bad = validate_scenario(s);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().where == "queries[0].faction");
    s = field();
    Feature broken = wall(3, s, {5, 5}, {5, 9});  // zero area
    s.factions[0].memory.push_back(broken);
    bad = validate_scenario(s);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().where.rfind("factions[0].memory[0]", 0) == 0);
  }

}  // TEST_SUITE
