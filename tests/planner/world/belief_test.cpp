// Fog of war: what factions see and remember, the world they plan with, and the planners
// that plan with it.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "planner/core/geometry.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
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
  s.factions = {Faction{"blue", {40, 80, 255, 255}, 15, partial, {}, {}, {}},
                Faction{"red", {230, 40, 40, 255}, 0, false, {}, {}, {}}};
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

namespace belief_test {

// A tile grid of `w` x `h` cells of terrain 0 with the cells of [x0, x1) x [y0, y1) set to
// terrain `t`.
TileGrid tile_block(int w, int h, int x0, int y0, int x1, int y1, std::uint8_t t) {
  TileGrid g;
  g.width = w;
  g.height = h;
  g.terrain.assign(std::size_t(w) * std::size_t(h), 0);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) g.terrain[std::size_t(y) * std::size_t(w) + x] = t;
  }
  return g;
}

// Brute-force reference for line of sight, sharing nothing with the grid walk: the
// segment from the eye to a cell centre sampled every `h` metres. Blocked for sure when a
// sample lies inside a blocking cell's square shrunk by h; clear for sure when no sample
// lies within h of one (a point of the segment is within h/2 of a sample). The eye's cell
// and the target are never in the way.
struct SampledSight {
  bool surely_blocked = false;
  bool surely_clear = true;
};
SampledSight sampled_sight(Vec2 eye, int tx, int ty, const std::vector<std::uint8_t>& blockers, int w,
                           int hgt, double cs, double h) {
  const Vec2 to{(tx + 0.5) * cs, (ty + 0.5) * cs};
  const int ex = int(std::floor(eye.x / cs)), ey = int(std::floor(eye.y / cs));
  const double len = std::hypot(to.x - eye.x, to.y - eye.y);
  const int n = std::max(1, int(std::ceil(len / h)));
  SampledSight out;
  for (int i = 0; i <= n; ++i) {
    const double t = double(i) / n;
    const Vec2 p{eye.x + (to.x - eye.x) * t, eye.y + (to.y - eye.y) * t};
    const int px = int(std::floor(p.x / cs)), py = int(std::floor(p.y / cs));
    for (int y = py - 1; y <= py + 1; ++y) {
      for (int x = px - 1; x <= px + 1; ++x) {
        if (x < 0 || y < 0 || x >= w || y >= hgt) continue;
        if ((x == ex && y == ey) || (x == tx && y == ty)) continue;
        if (!blockers[std::size_t(y) * std::size_t(w) + x]) continue;
        const double lx = x * cs, hx = (x + 1) * cs, ly = y * cs, hy = (y + 1) * cs;
        if (p.x > lx + h && p.x < hx - h && p.y > ly + h && p.y < hy - h) out.surely_blocked = true;
        if (p.x > lx - h && p.x < hx + h && p.y > ly - h && p.y < hy + h) out.surely_clear = false;
      }
    }
  }
  return out;
}

}  // namespace belief_test

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
    // The whole field is rough ground (it does not block sight).
    s.features = {wall(7, s, {0, 0}, {100, 60})};
    s.features[0].terrain = *s.find_terrain("rough");
    s.units[0].position = {30.5, 30.5};
    observe_all(s);
    // The view is the cells whose centres lie within 15 m, cut by the circle: the disc
    // less at most the cells across its rim (their centres outside), about 2 pi r x 0.25.
    const double disc = std::numbers::pi * 15 * 15;
    CHECK(area_of(s.factions[0].memory) == doctest::Approx(disc).epsilon(0.05));
    CHECK(area_of(s.factions[0].memory) <= disc + 1e-6);  // never more than seen
    for (const Feature& f : s.factions[0].memory) CHECK(f.id == 7);
    // A second look elsewhere adds a second disc; the first is kept.
    const double first = area_of(s.factions[0].memory);
    s.units[0].position = {70.5, 30.5};
    observe_all(s);
    CHECK(area_of(s.factions[0].memory) == doctest::Approx(2 * first).epsilon(1e-6));
    CHECK(validate_scenario(s));
    // Whole mode believes all of it at once.
    s.factions[0].partial = false;
    s.factions[0].memory.clear();
    observe_all(s);
    CHECK(s.factions[0].memory == s.features);
  }

  TEST_CASE("shape_in_view: a shape is in view when its interior overlaps a seen cell") {
    FactionView v;
    v.width = 10;
    v.height = 10;
    v.cell_size = 1;
    v.sight = 5;
    v.seen.assign(100, 0);
    v.seen[3 * 10 + 4] = 1;  // the cell [4, 5] x [3, 4]
    Shape r;
    r.kind = ShapeKind::Rect;
    r.min = {4.5, 3.5};
    r.max = {9, 9};
    CHECK(shape_in_view(r, v));
    r.min = {5, 4};  // touches the cell's corner only
    CHECK_FALSE(shape_in_view(r, v));
    Shape d;
    d.kind = ShapeKind::Circle;
    d.center = {6, 3.5};
    d.radius = 1.001;
    CHECK(shape_in_view(d, v));
    d.radius = 1.0;  // touches its side only
    CHECK_FALSE(shape_in_view(d, v));
    Shape p;
    p.kind = ShapeKind::Polygon;
    p.points = {{-20, -20}, {20, -20}, {0, 20}};  // around the cell
    CHECK(shape_in_view(p, v));
    p.points = {{5, 0}, {9, 0}, {9, 9}, {5, 9}};
    CHECK_FALSE(shape_in_view(p, v));
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
    s.factions[0].tiles = river.terrain;  // blue's map shows the river
    s.bridges.push_back(Bridge{7, {42, 30}, {58, 30}, 4, true});
    observe_all(s);
    CHECK(s.factions[0].bridges.empty());  // not seen yet: not known
    s.units[0].position = {30, 30};
    REQUIRE(observe_all(s));  // from the bank: seen intact
    REQUIRE(s.factions[0].bridges.size() == 1);
    CHECK(s.factions[0].bridges[0].intact);

    // Destroyed out of view: blue still believes in it.
    s.units[0].position = {10, 30};
    observe_all(s);
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

  TEST_CASE("line of sight: a wall between a unit and a feature hides it") {
    for (const bool partial : {false, true}) {
      CAPTURE(partial);
      Scenario s = field(partial);
      Feature rock = wall(2, s, {19, 29}, {21, 31});  // 10 m east of the unit
      s.features = {wall(1, s, {14, 20}, {15, 40}), rock};
      observe_all(s);
      // The wall's face is seen; the rock behind it is not.
      REQUIRE_FALSE(s.factions[0].memory.empty());
      for (const Feature& m : s.factions[0].memory) CHECK(m.id == 1);
      if (partial) {
        // Only the face: one cell deep, within the sight circle (at most 2 x 15 m tall).
        CHECK(area_of(s.factions[0].memory) <= 30.0 + 1e-6);
      }
      // Without the wall the rock is seen.
      s.features = {rock};
      s.factions[0].memory.clear();
      observe_all(s);
      REQUIRE(s.factions[0].memory.size() == 1);
      CHECK(s.factions[0].memory[0].id == 2);
    }
    // Water, swamp and roads do not block sight; an impassable tile does.
    Scenario s = field();
    s.features = {wall(2, s, {19, 29}, {21, 31})};
    s.tiles = belief_test::tile_block(100, 60, 14, 20, 15, 40, std::uint8_t(*s.find_terrain("deep water")));
    observe_all(s);
    CHECK(s.factions[0].memory.size() == 1);
    s.factions[0].memory.clear();
    s.tiles = belief_test::tile_block(100, 60, 14, 20, 15, 40, std::uint8_t(*s.find_terrain("wall")));
    observe_all(s);
    CHECK(s.factions[0].memory.empty());
  }

  TEST_CASE("line of sight equals a sampled brute force on random maps") {
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::size_t cells = 0, unsure = 0, visible = 0;
    for (int map = 0; map < 30; ++map) {
      const double cs = map % 3 == 0 ? 0.5 : map % 3 == 1 ? 1.0 : 2.0;
      const int w = 24 + int(unit(rng) * 16), h = 18 + int(unit(rng) * 12);
      const double density = 0.05 + 0.25 * unit(rng);
      std::vector<std::uint8_t> blockers(std::size_t(w) * std::size_t(h));
      for (std::uint8_t& b : blockers) b = unit(rng) < density;
      for (int look = 0; look < 3; ++look) {
        FactionView v;
        v.width = w;
        v.height = h;
        v.cell_size = cs;
        v.sight = cs * (3 + 9 * unit(rng));
        v.seen.assign(blockers.size(), 0);
        // Eyes anywhere, and some exactly on grid lines and corners (the walk's ties).
        Vec2 eye{unit(rng) * w * cs, unit(rng) * h * cs};
        if (look == 1) eye = {std::floor(eye.x / cs) * cs, std::floor(eye.y / cs) * cs};
        if (look == 2) eye.x = std::floor(eye.x / cs) * cs;
        add_line_of_sight(eye, blockers, v);
        for (int y = 0; y < h; ++y) {
          for (int x = 0; x < w; ++x) {
            const Vec2 c{(x + 0.5) * cs, (y + 0.5) * cs};
            const double d = std::hypot(c.x - eye.x, c.y - eye.y);
            if (d > v.sight * (1 + 1e-12)) {
              CHECK_FALSE(v.sees(x, y));  // never beyond sight
              continue;
            }
            if (d > v.sight * (1 - 1e-12)) continue;  // on the rim: either
            ++cells;
            const belief_test::SampledSight ref =
                belief_test::sampled_sight(eye, x, y, blockers, w, h, cs, cs / 64);
            const bool seen = v.sees(x, y);
            visible += seen;
            if (!ref.surely_blocked && !ref.surely_clear) ++unsure;
            if (seen && ref.surely_blocked)
              FAIL_CHECK("seen through a wall: map " << map << " cell " << x << "," << y);
            if (!seen && ref.surely_clear)
              FAIL_CHECK("hidden with a clear line: map " << map << " cell " << x << "," << y);
          }
        }
      }
    }
    MESSAGE("cells " << cells << ", visible " << visible << ", within 1/64 cell of a blocking square "
                     << unsure);
    CHECK(cells > 5000);
    CHECK(visible > cells / 10);
    CHECK(unsure < cells / 10);  // the tolerance band stays thin
  }

  TEST_CASE("tiles under fog: a wall never seen is planned through until seen, then the unit re-plans") {
    // 60 x 40 m; a wall of tiles at x 30 from the top down to y 35 (a gap at the bottom).
    Scenario s = make_empty_scenario(60, 40, 1.0);
    s.tiles = belief_test::tile_block(60, 40, 30, 0, 31, 35, std::uint8_t(*s.find_terrain("wall")));
    s.factions = {Faction{"blue", {40, 80, 255, 255}, 10, false, {}, {}, {}}};
    Unit u;
    u.id = 1;
    u.faction = "blue";
    u.position = {5.5, 20.5};
    s.units.push_back(u);
    observe_all(s);
    REQUIRE(s.factions[0].tiles.size() == 60 * 40);
    CHECK(s.factions[0].tiles[20 * 60 + 5] == 0);                      // seen: ground
    CHECK(s.factions[0].tiles[20 * 60 + 30] == Faction::kUnseenTile);  // the wall: unseen
    CHECK(believed_scenario(s, 0).tiles->terrain[20 * 60 + 30] == 0);  // believed ground
    REQUIRE(validate_scenario(s));

    PlanningWorld world(s);
    const PathQuery q{{5.5, 20.5}, {55.5, 20.5}};
    auto blue = find_planner("astar")->create(QueryContext{world, 0, std::size_t{0}, {}});
    auto truth = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    REQUIRE(find_path(*blue, q).status == SearchStatus::Found);
    CHECK(blue->result().length == doctest::Approx(50.0));  // straight through the unknown wall
    REQUIRE(find_path(*truth, q).status == SearchStatus::Found);
    CHECK(truth->result().length > 55);  // round the bottom
    const std::unique_ptr<ResultDependency> held = blue->result_dependency();
    const PlanningWorld* believed = &believed_world(world, 0);

    // The unit walks up to the wall and sees part of it (rows 11 to 30).
    s.units[0].position = {25.5, 20.5};
    REQUIRE(observe_all(s));
    CHECK(s.factions[0].tiles[20 * 60 + 30] == *s.find_terrain("wall"));
    CHECK(s.factions[0].tiles[2 * 60 + 30] == Faction::kUnseenTile);  // the top: still unseen
    const WorldChange change = world.update(s).value();
    CHECK_FALSE(held->still_valid(change));
    CHECK(&believed_world(world, 0) == believed);  // updated in place, not made again
    const PathQuery from_here{{25.5, 20.5}, {55.5, 20.5}};
    REQUIRE(find_path(*blue, from_here).status == SearchStatus::Found);
    const PathResult replanned = blue->result();
    CHECK(replanned.length > 30.5);  // round the part it has seen
    // The new path never crosses a wall cell blue has seen.
    for (std::size_t i = 1; i < replanned.points.size(); ++i) {
      const Vec2 a = replanned.points[i - 1], b = replanned.points[i];
      for (int k = 0; k <= 64; ++k) {
        const Vec2 p = a + (b - a) * (k / 64.0);
        const int x = int(std::floor(p.x)), y = int(std::floor(p.y));
        if (x < 0 || y < 0 || x >= 60 || y >= 40) continue;
        CHECK(s.factions[0].tiles[std::size_t(y) * 60 + x] != *s.find_terrain("wall"));
      }
    }
    // Once it has seen all of the wall, blue plans as the truth does. From 5 m away a
    // scout sees the wall's cells within about 5 rows of its own (the others lie behind
    // their neighbours): four more scouts cover rows 0 to 34.
    std::uint32_t id = 2;
    for (const double y : {5.5, 12.5, 28.5, 35.5}) {
      Unit scout = u;
      scout.id = id++;
      scout.position = {25.5, y};
      s.units.push_back(scout);
    }
    observe_all(s);
    for (int y = 0; y < 35; ++y)
      CHECK(s.factions[0].tiles[std::size_t(y) * 60 + 30] == *s.find_terrain("wall"));
    world.update(s).value();
    REQUIRE(find_path(*blue, q).status == SearchStatus::Found);
    REQUIRE(find_path(*truth, q).status == SearchStatus::Found);
    CHECK(blue->result().length == doctest::Approx(truth->result().length));
  }

  TEST_CASE("a bridge laid out of view is unknown until a unit sees it along a clear line") {
    // A river of deep water across the middle that blue's map shows; a wall of tiles
    // west of the bridge hides it from the unit on the west bank.
    Scenario s = field();
    s.tiles = belief_test::tile_block(100, 60, 45, 0, 55, 60, std::uint8_t(*s.find_terrain("deep water")));
    for (int y = 20; y < 40; ++y)
      s.tiles->terrain[std::size_t(y) * 100 + 39] = std::uint8_t(*s.find_terrain("wall"));
    s.factions[0].tiles = s.tiles->terrain;  // blue's map: the terrain as it is
    s.units[0].position = {35.5, 30.5};
    observe_all(s);
    s.bridges.push_back(Bridge{7, {42, 30}, {58, 30}, 4, true});  // laid while blue looks
    observe_all(s);
    CHECK(s.factions[0].bridges.empty());  // within sight, behind the wall
    CHECK(believed_scenario(s, 0).bridges.empty());
    PlanningWorld world(s);
    const PathQuery across{{41.5, 30.5}, {80.5, 30.5}};
    auto blue = find_planner("astar")->create(QueryContext{world, 0, std::size_t{0}, {}});
    auto truth = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    CHECK(find_path(*blue, across).status == SearchStatus::NoPath);
    CHECK(find_path(*truth, across).status == SearchStatus::Found);
    // Round the wall's end, the bridge is in a clear line.
    s.units[0].position = {41.5, 36.5};
    REQUIRE(observe_all(s));
    REQUIRE(s.factions[0].bridges.size() == 1);
    CHECK(s.factions[0].bridges[0] == s.bridges[0]);
    world.update(s).value();
    REQUIRE(find_path(*blue, across).status == SearchStatus::Found);
    CHECK(blue->result().length == doctest::Approx(truth->result().length));
  }

  TEST_CASE("tile memory saves and loads, and files without it load as nothing seen") {
    Scenario s = field();
    s.tiles = belief_test::tile_block(100, 60, 45, 0, 55, 60, std::uint8_t(*s.find_terrain("deep water")));
    observe_all(s);
    REQUIRE(s.factions[0].tiles.size() == 6000);
    const std::string text = scenario_to_json(s);
    const Result<Scenario> back = parse_scenario(text, "memory");
    REQUIRE(back);
    CHECK(back->factions[0].tiles == s.factions[0].tiles);
    CHECK(scenario_to_json(*back) == text);  // save, load, save: byte-identical
    Scenario old = s;
    old.factions[0].tiles.clear();
    const Result<Scenario> older = parse_scenario(scenario_to_json(old), "old");
    REQUIRE(older);
    CHECK(older->factions[0].tiles.empty());
    // A memory of the wrong size is refused at its field.
    s.factions[0].tiles.pop_back();
    const Status bad = validate_scenario(s);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().where == "factions[0].tiles");
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
