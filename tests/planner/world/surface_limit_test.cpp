// The raster's surface table (TerrainRaster::kMaxSurfaces ids). A valid scenario always
// fits it; a cost overlay whose factors would need more surfaces is a Limit error that
// leaves the world as it was, from set_cost_overlay() and from update().

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/world/rasterize.hpp"
#include "tests/test_maps.hpp"

namespace pathscope {
namespace surface_limit_test {

// Open ground, w x h cells of 1 m, with one terrain: the raster's table starts with one id.
Scenario ground(int w, int h) {
  Scenario s =
      test::ascii_scenario(std::vector<std::string>(std::size_t(h), std::string(std::size_t(w), '.')));
  s.terrains.resize(1);
  return s;
}

// Factor 1 on cell 0 and one of its own on every other cell: 1 + k / 2^17, exact in float.
std::vector<float> distinct_factors(std::size_t cells) {
  std::vector<float> f(cells);
  for (std::size_t k = 0; k < cells; ++k) f[k] = 1.0f + float(k) / 131072.0f;
  return f;
}

// Every cell of two rasters holds the same surface.
bool same_cells(const TerrainRaster& a, const TerrainRaster& b) {
  if (a.cell_count() != b.cell_count()) return false;
  for (std::size_t c = 0; c < a.cell_count(); ++c) {
    if (a.surface_at(c) != b.surface_at(c)) return false;
  }
  return true;
}

}  // namespace surface_limit_test

using namespace surface_limit_test;

TEST_CASE("surface limit: the most terrains and road factors a scenario may have fit the table") {
  // 64 terrains in 1 m columns (the validator's limit) under 255 roads of distinct speed
  // factors (its limit), one per row above row 0: every (terrain, factor) pair, 64 x 256.
  Scenario s = ground(64, 256);
  const TerrainType base = s.terrains[0];
  s.terrains.clear();
  const std::string symbols =
      "!#$%&()*+,-/:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";
  for (std::size_t t = 0; t < ScenarioLimits::kMaxTerrainTypes; ++t) {
    TerrainType terrain = base;
    terrain.name = "t" + std::to_string(t);
    terrain.symbol = symbols[t];
    s.terrains.push_back(terrain);
  }
  s.tiles.reset();
  for (std::uint32_t t = 0; t < 64; ++t) {
    Feature f;
    f.id = t + 1;
    f.terrain = t;
    f.shape.kind = ShapeKind::Rect;
    f.shape.min = {double(t), 0};
    f.shape.max = {double(t + 1), 256};
    s.features.push_back(f);
  }
  for (std::uint32_t y = 1; y < 256; ++y) {
    s.roads.push_back(Road{y, {{0, y + 0.5}, {64, y + 0.5}}, 0.5, 1 + y / 256.0});
  }
  REQUIRE(validate_scenario(s).ok());
  const PlanningWorld world(s);
  CHECK(world.raster().surface_count() == 64 * 256);
  CHECK(world.raster().terrain(std::size_t(200 * 64 + 17)) == 17);
  CHECK(world.raster().road_factor(std::size_t(200 * 64 + 17)) == float(1 + 200 / 256.0));
}

TEST_CASE("surface limit: a cost overlay over the limit is an error and changes nothing") {
  // 256 x 257 cells of ground: an overlay with a factor of its own on each cell needs
  // 65,792 surfaces.
  PlanningWorld world(ground(256, 257));
  const std::size_t cells = world.raster().cell_count();
  REQUIRE(cells == 65792);
  const Result<WorldChange> all = world.set_cost_overlay(distinct_factors(cells));
  REQUIRE_FALSE(all.ok());
  CHECK(all.error().code == ErrorCode::Limit);
  CHECK(all.error().where == "cost overlay");
  CHECK(
      all.error().to_string() ==
      "cost overlay: more than 65,536 distinct surfaces (combinations of terrain, road speed factor, bridge "
      "deck and cost factor): use fewer distinct cost factors");
  CHECK(world.cost_overlay().empty());
  CHECK(world.revision() == 0);
  CHECK(same_cells(world.raster(), rasterize(world.scenario())));

  // The first 65,536 cells: ground and 65,535 factors fill the table exactly.
  std::vector<float> fits = distinct_factors(cells);
  for (std::size_t k = 65536; k < cells; ++k) fits[k] = 1.0f;
  const Result<WorldChange> full = world.set_cost_overlay(fits);
  REQUIRE(full.ok());
  CHECK(world.raster().surface_count() == 65536);
  CHECK(world.cost_overlay() == fits);
  CHECK(world.raster().surface_at(65535).cost_factor == fits[65535]);

  // One cell more is one surface too many; the overlay stays as it was.
  std::vector<float> one_more = fits;
  one_more[65536] = 3.0f;
  const Result<WorldChange> over = world.set_cost_overlay(one_more);
  REQUIRE_FALSE(over.ok());
  CHECK(over.error().where == "cost overlay");
  CHECK(world.cost_overlay() == fits);
  CHECK(world.raster().surface_at(65536).cost_factor == 1.0f);
}

TEST_CASE("surface limit: an update whose cells need more surfaces under the overlay changes nothing") {
  const Scenario before = ground(256, 257);
  PlanningWorld world(before);
  std::vector<float> fits = distinct_factors(world.raster().cell_count());
  for (std::size_t k = 65536; k < fits.size(); ++k) fits[k] = 1.0f;
  REQUIRE(world.set_cost_overlay(fits).ok());
  const std::uint32_t on_road = 11 * 256 + 5;
  const double multiplier = world.grid(0).multiplier(on_road);  // a built grid stays as it was too
  const std::uint64_t revision = world.revision();
  const TerrainRaster kept = world.raster();

  // A road across rows 10 to 12 makes (ground, road, factor) surfaces: no room for them.
  Scenario road = before;
  road.roads.push_back(Road{1, {{0, 11.5}, {256, 11.5}}, 3, 1.5});
  REQUIRE(validate_scenario(road).ok());
  const Result<WorldChange> in_place = world.update(road);
  REQUIRE_FALSE(in_place.ok());
  CHECK(in_place.error().where == "cost overlay");
  CHECK(world.scenario() == before);
  CHECK(world.revision() == revision);
  CHECK(world.cost_overlay() == fits);
  CHECK(same_cells(world.raster(), kept));
  CHECK(world.grid(0).multiplier(on_road) == multiplier);

  // A rebuild (another terrain table) keeps the overlay: over the limit the same way.
  Scenario retyped = road;
  retyped.terrains.push_back(retyped.terrains[0]);
  retyped.terrains.back().name = "more ground";
  retyped.terrains.back().symbol = 'g';
  REQUIRE(validate_scenario(retyped).ok());
  const Result<WorldChange> rebuilt = world.update(retyped);
  REQUIRE_FALSE(rebuilt.ok());
  CHECK(world.scenario() == before);
  CHECK(same_cells(world.raster(), kept));

  // With room made (the overlay off those rows), the same edit goes through and equals
  // a fresh world with the same overlay.
  for (std::size_t k = 9 * 256; k < 14 * 256; ++k) fits[k] = 1.0f;
  REQUIRE(world.set_cost_overlay(fits).ok());
  REQUIRE(world.update(road).ok());
  PlanningWorld fresh(road);
  REQUIRE(fresh.set_cost_overlay(fits).ok());
  CHECK(same_cells(world.raster(), fresh.raster()));
}

}  // namespace pathscope
