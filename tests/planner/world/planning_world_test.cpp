// PlanningWorld::update(): an updated world equals one built from scratch, and planners
// kept across updates answer like fresh ones.

#include <doctest/doctest.h>

#include "planner/grid/grid_dependency.hpp"

#include <algorithm>
#include <random>

#include "planner/core/planner_registry.hpp"
#include "planner/core/search.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/world/rasterize.hpp"
#include "tests/test_maps.hpp"

namespace pathscope {
namespace {

// Two classes (the second amphibious) so that groups and per-class costs both matter.
Scenario base_scenario(std::mt19937_64& rng, int w, int h) {
  Scenario s = test::ascii_scenario(test::random_rows(rng, w, h, 0.15, true));
  s.classes.push_back(MovementClass{.name = "hover", .radius = 0.4, .speed = 1.0, .amphibious = true});
  for (TerrainType& t : s.terrains)
    t.cost.push_back(t.cost[0] ? std::optional<double>(*t.cost[0] * 0.5 + 0.25) : std::nullopt);
  return s;
}

Vec2 random_point(std::mt19937_64& rng, const Scenario& s) {
  std::uniform_real_distribution<double> ux(0, s.world.width), uy(0, s.world.height);
  return {ux(rng), uy(rng)};
}

// One random edit of the kinds the editor makes: paint tiles, add, move or delete a
// feature, add or delete a road, add a bridge or toggle one.
void random_edit(std::mt19937_64& rng, Scenario& s) {
  std::uniform_int_distribution<int> kind(0, 7);
  std::uniform_int_distribution<int> terrain(0, int(s.terrains.size()) - 1);
  std::uniform_real_distribution<double> size(0.5, 5.0);
  switch (kind(rng)) {
    case 0: {  // brush
      TileGrid& t = *s.tiles;
      const Vec2 p = random_point(rng, s);
      const int r = int(size(rng));
      const auto tt = std::uint8_t(terrain(rng));
      for (int y = int(p.y) - r; y <= int(p.y) + r; ++y) {
        for (int x = int(p.x) - r; x <= int(p.x) + r; ++x) {
          if (x >= 0 && y >= 0 && x < t.width && y < t.height) t.terrain[std::size_t(y * t.width + x)] = tt;
        }
      }
      break;
    }
    case 1: {  // rectangle feature
      const Vec2 p = random_point(rng, s);
      Feature f;
      f.terrain = std::size_t(terrain(rng));
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = p;
      f.shape.max = p + Vec2(size(rng), size(rng));
      s.features.insert(s.features.begin() + std::ptrdiff_t(rng() % (s.features.size() + 1)), f);
      break;
    }
    case 2: {  // circle or polygon feature
      const Vec2 p = random_point(rng, s);
      Feature f;
      f.terrain = std::size_t(terrain(rng));
      if (rng() % 2) {
        f.shape.kind = ShapeKind::Circle;
        f.shape.center = p;
        f.shape.radius = size(rng);
      } else {
        f.shape.kind = ShapeKind::Polygon;
        const double r = size(rng);
        f.shape.points = {p, p + Vec2(r, 0.3), p + Vec2(r * 0.6, r)};
      }
      s.features.push_back(f);
      break;
    }
    case 3:  // move a feature
      if (!s.features.empty()) {
        Feature& f = s.features[rng() % s.features.size()];
        const Vec2 d{size(rng) - 2.5, size(rng) - 2.5};
        f.shape.min += d;
        f.shape.max += d;
        f.shape.center += d;
        for (Vec2& q : f.shape.points) q += d;
      }
      break;
    case 4:  // delete a feature
      if (!s.features.empty())
        s.features.erase(s.features.begin() + std::ptrdiff_t(rng() % s.features.size()));
      break;
    case 5: {  // road
      if (!s.roads.empty() && rng() % 3 == 0) {
        s.roads.erase(s.roads.begin() + std::ptrdiff_t(rng() % s.roads.size()));
      } else {
        const Vec2 a = random_point(rng, s);
        s.roads.push_back(Road{0,
                               {a, a + Vec2(size(rng) * 2, size(rng)), a + Vec2(size(rng) * 3, -size(rng))},
                               size(rng) * 0.5,
                               1.0 + size(rng) * 0.2});
      }
      break;
    }
    case 6: {  // bridge, or toggle one
      if (!s.bridges.empty() && rng() % 2) {
        Bridge& b = s.bridges[rng() % s.bridges.size()];
        b.intact = !b.intact;
      } else {
        const Vec2 a = random_point(rng, s);
        s.bridges.push_back(Bridge{0, a, a + Vec2(size(rng) * 2, size(rng)), size(rng) * 0.5, true});
      }
      break;
    }
    default:  // a change nothing rasterises: a query
      s.queries.push_back(
          Query{"", random_point(rng, s), random_point(rng, s), 0, "astar", {}, std::nullopt, {}});
      break;
  }
}

void check_same(const PlanningWorld& updated, const PlanningWorld& fresh) {
  const TerrainRaster& a = updated.raster();
  const TerrainRaster& b = fresh.raster();
  // Surface ids may differ (they are numbered as rasterisation meets them); what they
  // stand for may not.
  REQUIRE(a.cell_count() == b.cell_count());
  for (std::size_t i = 0; i < b.cell_count(); ++i) REQUIRE(a.surface_at(i) == b.surface_at(i));
  for (std::size_t id = 0; id < b.surface_count(); ++id) {
    if (b.cells_with(SurfaceId(id)) == 0) continue;
    std::uint32_t cells = 0;
    for (std::size_t k = 0; k < a.surface_count(); ++k) {
      if (a.surface(SurfaceId(k)) == b.surface(SurfaceId(id))) cells += a.cells_with(SurfaceId(k));
    }
    REQUIRE(cells == b.cells_with(SurfaceId(id)));
  }
  for (std::size_t c = 0; c < fresh.class_count(); ++c) {
    const CostGrid& ga = updated.grid(c);
    const CostGrid& gb = fresh.grid(c);
    REQUIRE(ga.min_multiplier() == gb.min_multiplier());
    for (std::uint32_t i = 0; i < gb.cell_count(); ++i) {
      REQUIRE(ga.multiplier(i) == gb.multiplier(i));
      REQUIRE(ga.moves(i) == gb.moves(i));
    }
    const RegionMap& ra = updated.regions(c);
    const RegionMap& rb = fresh.regions(c);
    REQUIRE(ra.region_count() == rb.region_count());
    for (std::uint32_t i = 0; i < gb.cell_count(); ++i) REQUIRE(ra.region(i) == rb.region(i));
  }
}

}  // namespace

TEST_CASE("an updated world equals a world built from scratch, edit after edit") {
  std::mt19937_64 rng(2026);
  for (int map = 0; map < 12; ++map) {
    Scenario s = base_scenario(rng, 24 + map, 18 + map % 5);
    PlanningWorld world(s);
    // Build one class before the edits and the other only later, so both the in-place
    // update and the lazy build after updates are covered.
    (void)world.grid(0);
    for (int edit = 0; edit < 40; ++edit) {
      const Scenario before = s;
      random_edit(rng, s);
      const std::uint64_t revision = world.revision();
      const WorldChange change = world.update(s).value();
      CHECK_FALSE(change.rebuilt);
      const PlanningWorld fresh(s);
      // Every cell outside the reported rectangle is the same as before the edit.
      const PlanningWorld old(before);
      for (std::uint32_t i = 0; i < fresh.grid(0).cell_count(); ++i) {
        const glm::ivec2 c = fresh.grid(0).cell(i);
        if (change.cells.contains(c.x, c.y)) continue;
        REQUIRE(fresh.raster().surface_at(i) == old.raster().surface_at(i));
        REQUIRE(fresh.grid(0).moves(i) == old.grid(0).moves(i));
        REQUIRE(fresh.grid(0).multiplier(i) == old.grid(0).multiplier(i));
      }
      CHECK((world.revision() != revision) == !change.none());
      check_same(world, fresh);
    }
  }
}

TEST_CASE("a cost overlay multiplies passable cells' costs, keeps their ground, and survives edits") {
  std::mt19937_64 rng(11);
  Scenario s = base_scenario(rng, 30, 20);
  PlanningWorld world(s);
  const PlanningWorld plain(s);
  (void)world.grid(0);
  std::vector<float> overlay(world.raster().cell_count(), 1.0f);
  std::uniform_int_distribution<int> level(0, 4);
  for (float& f : overlay) f = 1.0f + 0.5f * float(level(rng));
  const std::uint64_t revision = world.revision();
  const WorldChange change = world.set_cost_overlay(overlay).value();
  CHECK_FALSE(change.none());
  CHECK(world.revision() != revision);
  for (std::size_t c = 0; c < world.class_count(); ++c) {
    const CostGrid& g = world.grid(c);
    const CostGrid& p = plain.grid(c);
    for (std::uint32_t i = 0; i < g.cell_count(); ++i) {
      REQUIRE(g.moves(i) == p.moves(i));
      REQUIRE(g.ground_multiplier(i) == p.multiplier(i));
      REQUIRE(g.multiplier(i) == (p.passable(i) ? p.multiplier(i) * double(overlay[i]) : 0.0));
    }
  }
  // The same overlay again changes nothing.
  CHECK(world.set_cost_overlay(overlay).value().none());
  // Edits keep it: the world equals a fresh one of the edited scenario with the overlay.
  for (int edit = 0; edit < 30; ++edit) {
    random_edit(rng, s);
    (void)world.update(s).value();
    REQUIRE(world.cost_overlay() == overlay);
    PlanningWorld fresh(s);
    (void)fresh.set_cost_overlay(overlay).value();
    check_same(world, fresh);
  }
  // Cleared, it is a plain world again.
  CHECK_FALSE(world.set_cost_overlay({}).value().none());
  CHECK(world.cost_overlay().empty());
  check_same(world, PlanningWorld(s));
}

TEST_CASE("a new grid size, terrain table or class list rebuilds the world") {
  std::mt19937_64 rng(7);
  Scenario s = base_scenario(rng, 20, 16);
  PlanningWorld world(s);
  (void)world.grid(1);

  Scenario terrain = s;
  terrain.terrains[2].cost[0] = 9.0;
  WorldChange change = world.update(terrain).value();
  CHECK(change.rebuilt);
  check_same(world, PlanningWorld(terrain));

  Scenario classes = terrain;
  classes.classes[1].amphibious = false;
  CHECK(world.update(classes).value().rebuilt);
  check_same(world, PlanningWorld(classes));

  Scenario bigger = test::ascii_scenario(test::random_rows(rng, 30, 12, 0.2, true));
  change = world.update(bigger).value();
  CHECK(change.rebuilt);
  CHECK(change.cells == CellRect{0, 0, 30, 12});
  check_same(world, PlanningWorld(bigger));
}

TEST_CASE("a query moved or added changes no cell") {
  std::mt19937_64 rng(11);
  Scenario s = base_scenario(rng, 20, 16);
  PlanningWorld world(s);
  s.queries.push_back(Query{"q", {1.5, 1.5}, {10.5, 8.5}, 0, "astar", {}, std::nullopt, {}});
  const std::uint64_t revision = world.revision();
  const WorldChange change = world.update(s).value();
  CHECK(change.none());
  CHECK(world.revision() == revision);
}

TEST_CASE("an edit that changes no expanded cell replays a grid search exactly") {
  // Planner::result_dependency of the grid planners: the cells whose moves and
  // neighbours a search read, and the heuristic's scale.
  std::mt19937_64 rng(123);
  int kept_answers = 0;
  for (const PlannerInfo& info : planner_registry()) {
    if (info.family != "grid") continue;  // other families test their own dependencies
    Scenario s = base_scenario(rng, 60, 45);
    PlanningWorld world(s);
    std::unique_ptr<Planner> planner =
        info.create(QueryContext{world, 0, std::nullopt, resolve_params(info, {}).value()});
    std::vector<std::uint64_t> bits;
    for (int round = 0; round < 40; ++round) {
      const PathQuery q{random_point(rng, s), random_point(rng, s)};
      const PathResult before = find_path(*planner, q);
      if (before.status != SearchStatus::Found) continue;
      const std::unique_ptr<ResultDependency> dependency = planner->result_dependency();
      const auto* cells = dynamic_cast<const ExpandedCellsDependency*>(dependency.get());
      REQUIRE(cells != nullptr);
      bits = cells->bits();
      std::vector<std::uint32_t> expanded;
      for (std::uint32_t c = 0; c < world.grid(0).cell_count(); ++c) {
        if (bits[c >> 6] >> (c & 63) & 1) expanded.push_back(c);
      }
      // Every expansion is a different cell, except that both sides of a bidirectional
      // search may expand the same one.
      CHECK(expanded.size() <= before.stats.expansions);
      CHECK(expanded.size() * 2 >= before.stats.expansions);
      const double min_multiplier = world.grid(0).min_multiplier();
      random_edit(rng, s);
      const WorldChange change = world.update(s).value();
      const bool touched = std::any_of(expanded.begin(), expanded.end(), [&](std::uint32_t c) {
        const glm::ivec2 xy = world.grid(0).cell(c);
        return change.cells.contains(xy.x, xy.y);
      });
      // The dependency's answer is exactly this rule.
      CHECK(dependency->still_valid(change) ==
            !(touched || world.grid(0).min_multiplier() != min_multiplier));
      if (touched || world.grid(0).min_multiplier() != min_multiplier) continue;
      ++kept_answers;
      const PathResult after = find_path(*planner, q);
      CAPTURE(info.name);
      REQUIRE(after.status == before.status);
      CHECK(after.cost == before.cost);
      CHECK(after.nodes == before.nodes);
      CHECK(after.stats.expansions == before.stats.expansions);
      const std::unique_ptr<ResultDependency> again = planner->result_dependency();
      REQUIRE(again != nullptr);
      CHECK(dynamic_cast<const ExpandedCellsDependency&>(*again).bits() == bits);
    }
  }
  CHECK(kept_answers > 20);
}

TEST_CASE("planners kept across world updates answer like fresh ones") {
  std::mt19937_64 rng(99);
  Scenario s = base_scenario(rng, 40, 30);
  PlanningWorld world(s);
  for (const PlannerInfo& info : planner_registry()) {
    std::unique_ptr<Planner> kept =
        info.create(QueryContext{world, 0, std::nullopt, resolve_params(info, {}).value()});
    for (int edit = 0; edit < 25; ++edit) {
      random_edit(rng, s);
      REQUIRE_FALSE(world.update(s).value().rebuilt);
      const PlanningWorld fresh_world(s);
      std::unique_ptr<Planner> fresh =
          info.create(QueryContext{fresh_world, 0, std::nullopt, resolve_params(info, {}).value()});
      const PathQuery q{random_point(rng, s), random_point(rng, s)};
      const PathResult a = find_path(*kept, q);
      const PathResult b = find_path(*fresh, q);
      CAPTURE(info.name);
      REQUIRE(a.status == b.status);
      CHECK(a.cost == b.cost);
      CHECK(a.stats.expansions == b.stats.expansions);
      CHECK(a.nodes == b.nodes);
    }
  }
}

}  // namespace pathscope
