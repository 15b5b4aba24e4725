// Seed 000's region-insertion build equals the bottom-up build from the rasterised grid,
// leaf for leaf, for every movement class: on random scenarios of tiles, polygons,
// rectangles, circles (obstacles and slow terrain), containers, roads and bridges, at cell sizes
// that are and are not exact in binary, with shapes snapped to cell corners (where the
// coverage rule's edge cases live) and free; and on the shipped maps.

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <set>
#include <tuple>

#include <glm/common.hpp>

#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/region_insertion.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/planner/quadtree/quadtree_test_support.hpp"
#include "tests/test_maps.hpp"

using namespace pathscope;

namespace {

using LeafKey = std::tuple<int, int, int, double, std::uint16_t>;

std::set<LeafKey> keys(const std::vector<QuadLeaf>& leaves) {
  std::set<LeafKey> out;
  for (const QuadLeaf& l : leaves) out.emplace(l.x, l.y, l.size, l.multiplier, l.key);
  return out;
}

// The two builds of every class of `s` agree.
void check_same(const Scenario& s) {
  const PlanningWorld world(s);
  for (std::size_t c = 0; c < s.classes.size(); ++c) {
    CAPTURE(c);
    const Quadtree bottom_up(world.grid(c));
    RegionInsertionStats stats;
    const std::vector<QuadLeaf> inserted = build_by_region_insertion(s, world.grid(c), &stats);
    CHECK(inserted.size() == bottom_up.leaf_count());
    CHECK(keys(inserted) == keys(bottom_up.leaves()));
    CHECK(stats.regions >= s.features.size());
  }
}

Scenario random_scenario(std::mt19937_64& rng, int round) {
  const int w = 12 + int(rng() % 40), h = 12 + int(rng() % 40);
  Scenario s = test::ascii_scenario(test::block_rows(rng, w, h, 4, 8, true));
  s.classes.push_back(MovementClass{.name = "hover", .radius = 0.4, .speed = 1.0, .amphibious = true});
  for (TerrainType& t : s.terrains)
    t.cost.push_back(t.cost[0] ? std::optional<double>(*t.cost[0] * 0.5 + 0.25) : std::nullopt);
  // Cell sizes exact and inexact in binary; the world keeps the tile grid inside it.
  const double cell[] = {1.0, 0.5, 0.7, 2.5, 0.3};
  const double cs = cell[round % 5];
  s.world.cell_size = cs;
  s.world.width = w * cs + (round % 3 == 0 ? cs * 0.4 : 0.0);  // sometimes a sliver of a column
  s.world.height = h * cs;
  const bool snapped = round % 2 == 0;  // on cell corners: the rule's edge cases
  std::uniform_real_distribution<double> ux(0, s.world.width), uy(0, s.world.height), base_size(0.3, 7.0);
  const auto point = [&] {
    Vec2 p{ux(rng), uy(rng)};
    if (snapped) p = glm::floor(p / cs) * cs;
    return glm::clamp(p, Vec2{0, 0}, Vec2{s.world.width, s.world.height});
  };
  const std::size_t kinds[] = {1, 1, 2, 3, 4};  // wall (an obstacle), rough, swamp, water
  // Containers (seed 004) in most rounds: one to three, of wall or of swamp, anywhere in
  // the list (they are painted after the tiles all the same), larger than the rest.
  const int containers = round % 4 == 3 ? 0 : 1 + int(rng() % 3);
  const std::size_t container_terrain = (round / 2) % 2 == 0 ? 1 : 3;
  std::uniform_real_distribution<double> large(4.0, 20.0);
  for (int f = 0; f < 6 + containers; ++f) {
    Feature feature;
    feature.id = std::uint32_t(f + 1);
    feature.terrain = kinds[rng() % 5];
    const bool container = f >= 6;
    if (container) {
      feature.container = true;
      feature.terrain = container_terrain;
    }
    const auto size = [&](std::mt19937_64& g) { return container ? large(g) : base_size(g); };
    const Vec2 c = point();
    switch (rng() % 3) {
      case 0: {
        feature.shape.kind = ShapeKind::Rect;
        Vec2 d{size(rng), size(rng)};
        if (snapped) d = glm::max(glm::floor(d / cs), Vec2{1, 1}) * cs;
        feature.shape.min = c;
        feature.shape.max = glm::min(c + d, Vec2{s.world.width, s.world.height});
        if (feature.shape.max.x <= c.x || feature.shape.max.y <= c.y) continue;
        break;
      }
      case 1:
        feature.shape.kind = ShapeKind::Circle;
        feature.shape.center = c;
        feature.shape.radius = snapped ? std::max(1.0, std::floor(size(rng))) * cs : size(rng);
        break;
      default: {  // a star around c: simple, points kept in the world
        feature.shape.kind = ShapeKind::Polygon;
        const int n = 3 + int(rng() % 6);
        for (int k = 0; k < n; ++k) {
          const double a = 2 * std::numbers::pi * (k + 0.5) / n;
          Vec2 p = c + size(rng) * Vec2{std::cos(a), std::sin(a)};
          if (snapped) p = glm::round(p / cs) * cs;
          p = glm::clamp(p, Vec2{0, 0}, Vec2{s.world.width, s.world.height});
          if (!feature.shape.points.empty() && p == feature.shape.points.back()) continue;
          feature.shape.points.push_back(p);
        }
        break;
      }
    }
    if (container) {
      s.features.insert(s.features.begin() + std::ptrdiff_t(rng() % (s.features.size() + 1)), feature);
    } else {
      s.features.push_back(feature);
    }
  }
  Road road;
  road.id = 1;
  road.points = {point(), point(), point()};
  road.width = snapped ? 2 * cs : base_size(rng);
  road.speed_factor = 2;
  s.roads.push_back(road);
  Road other = road;
  other.id = 2;
  other.points = {point(), point()};
  other.speed_factor = 1.25;
  s.roads.push_back(other);
  Bridge bridge;
  bridge.id = 1;
  bridge.a = point();
  bridge.b = point();
  bridge.width = snapped ? 2 * cs : base_size(rng);
  bridge.intact = round % 4 != 1;
  s.bridges.push_back(bridge);
  return s;
}

}  // namespace

TEST_SUITE("quadtree") {
  TEST_CASE("region insertion (the seed's top-down build) equals the bottom-up build from the grid") {
    std::mt19937_64 rng(2191);
    int checked = 0;
    for (int round = 0; round < 120; ++round) {
      Scenario s = random_scenario(rng, round);
      // Drop what the validator refuses (a star folded on itself after snapping, a point
      // repeated): the builds are compared on valid scenarios only.
      std::erase_if(s.features, [&](const Feature& f) {
        Scenario one = s;
        one.features = {f};
        return !validate_scenario(one).ok();
      });
      if (!validate_scenario(s).ok()) continue;
      CAPTURE(round);
      check_same(s);
      ++checked;
    }
    CHECK(checked >= 100);
  }

  TEST_CASE("region insertion equals the bottom-up build on the shipped maps") {
    for (const char* name : {"maps/armada.json", "maps/default.json", "maps/walled_compound.json"}) {
      CAPTURE(name);
      const Result<Scenario> s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/" + name);
      REQUIRE(s.ok());
      check_same(*s);
    }
  }

  TEST_CASE("region insertion splits only where a region's edge passes") {
    // One nebula disc on open space: the root is split only along the disc's rim, so the
    // cells decided one by one are those the rim crosses, not the whole map.
    Scenario s = test::ascii_scenario(std::vector<std::string>(64, std::string(64, '.')));
    Feature disc;
    disc.id = 1;
    disc.terrain = 3;  // swamp
    disc.shape.kind = ShapeKind::Circle;
    disc.shape.center = {32, 32};
    disc.shape.radius = 20;
    s.features.push_back(disc);
    const PlanningWorld world(s);
    RegionInsertionStats stats;
    const std::vector<QuadLeaf> leaves = build_by_region_insertion(s, world.grid(0), &stats);
    CHECK(keys(leaves) == keys(Quadtree(world.grid(0)).leaves()));
    CHECK(stats.cell_decisions < 64 * 64 / 4);
    CHECK(stats.cell_decisions > 2 * std::numbers::pi * 20 / 2);
  }

}  // TEST_SUITE
