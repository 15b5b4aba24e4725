// MapImages: images kept across world updates equal freshly painted ones, and pixels
// outside an update's `changed` rectangle are the previous version's.

#include "render/map/map_images.hpp"

#include <doctest/doctest.h>

#include <random>

#include "planner/world/planning_world.hpp"
#include "render/core/layer_set.hpp"
#include "tests/test_maps.hpp"

namespace pathscope::render {
namespace {

const ImagePrim& image_of(const DrawList& list, Layer layer) {
  const std::vector<const Primitive*> found = list.find(layer, PrimitiveKind::Image);
  REQUIRE(found.size() == 1);
  return std::get<ImagePrim>(found.front()->shape);
}

LayerSet raster_layers() {
  LayerSet layers;
  layers.set(Layer::Tiles);
  layers.set(Layer::CostHeat);
  layers.set(Layer::Regions);
  return layers;
}

}  // namespace

TEST_CASE("map images kept across edits equal fresh ones and change only inside `changed`") {
  std::mt19937_64 rng(31);
  Scenario s = test::ascii_scenario(test::random_rows(rng, 48, 36, 0.25, true));
  PlanningWorld world(s);
  MapImages kept;
  DrawList before;
  kept.paint(world, 0, raster_layers(), before);
  std::uniform_int_distribution<int> ux(0, 47), uy(0, 35), terrain(0, 4), size(0, 4);
  int partial = 0;
  for (int edit = 0; edit < 60; ++edit) {
    // Paint a patch of tiles: walls split regions (renumbering far away), swamp and
    // rough move the heat map's scale now and then.
    const int x0 = ux(rng), y0 = uy(rng), w = size(rng), h = size(rng);
    const auto t = std::uint8_t(terrain(rng));
    for (int y = y0; y <= std::min(35, y0 + h); ++y)
      for (int x = x0; x <= std::min(47, x0 + w); ++x) s.tiles->terrain[std::size_t(y * 48 + x)] = t;
    const WorldChange change = world.update(s).value();
    kept.invalidate(change.cells);
    const std::uint64_t painted = kept.pixels_painted();

    DrawList now, fresh;
    kept.paint(world, 0, raster_layers(), now);
    MapImages().paint(world, 0, raster_layers(), fresh);
    for (const Layer layer : {Layer::Tiles, Layer::CostHeat, Layer::Regions}) {
      CAPTURE(to_string(layer));
      const ImagePrim& a = image_of(now, layer);
      const ImagePrim& b = image_of(fresh, layer);
      const ImagePrim& old = image_of(before, layer);
      REQUIRE(a.rgba == b.rgba);
      if (a.version == old.version) {
        CHECK(a.rgba == old.rgba);
        continue;
      }
      REQUIRE(a.base_version == old.version);
      for (int y = 0; y < a.height; ++y) {
        for (int x = 0; x < a.width; ++x) {
          if (a.changed.contains(x, y)) continue;
          const std::size_t i = 4 * std::size_t(y * a.width + x);
          REQUIRE(std::equal(&a.rgba[i], &a.rgba[i] + 4, &old.rgba[i]));
        }
      }
      if (a.changed.width() * a.changed.height() < a.width * a.height) ++partial;
    }
    // The terrain image repaints the changed cells only.
    CHECK(kept.pixels_painted() - painted <= std::uint64_t(3 * 48 * 36));
    const CellRect tiles_changed = image_of(now, Layer::Tiles).changed;
    if (image_of(now, Layer::Tiles).version != image_of(before, Layer::Tiles).version) {
      CHECK(tiles_changed.intersected(change.cells) == tiles_changed);
    }
    before = now;
  }
  CHECK(partial > 60);  // most updates were partial
}

TEST_CASE("another class or an invalidated world repaints whole images") {
  std::mt19937_64 rng(32);
  Scenario s = test::ascii_scenario(test::random_rows(rng, 20, 10, 0.25, true));
  s.classes.push_back(MovementClass{.name = "hover", .radius = 0.4, .speed = 1.0, .amphibious = true});
  for (TerrainType& t : s.terrains) t.cost.push_back(t.cost[0]);
  PlanningWorld world(s);
  MapImages images;
  DrawList a, b, c;
  images.paint(world, 0, raster_layers(), a);
  images.paint(world, 1, raster_layers(), b);
  CHECK(image_of(b, Layer::CostHeat).base_version == 0);
  CHECK(image_of(b, Layer::Tiles).version == image_of(a, Layer::Tiles).version);  // tiles are per world
  images.invalidate_all();
  images.paint(world, 1, raster_layers(), c);
  CHECK(image_of(c, Layer::Tiles).base_version == 0);
  CHECK(image_of(c, Layer::Tiles).changed == CellRect{0, 0, 20, 10});
  CHECK(image_of(c, Layer::Tiles).rgba == image_of(a, Layer::Tiles).rgba);
}

}  // namespace pathscope::render
