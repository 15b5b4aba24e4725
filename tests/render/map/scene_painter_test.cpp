#include "render/map/scene_painter.hpp"

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "planner/scenario/scenario_validate.hpp"
#include "planner/world/belief.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/render/draw_list_test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;
using pathscope::render::test_support::shapes;

namespace {

// 32 x 24 m, two features (a wall rect, a concave nebula polygon), one road, an intact
// and a destroyed bridge, a threat and an ally, two units, two queries.
Scenario painter_scenario() {
  Scenario s = make_empty_scenario(32, 24, 1);
  s.name = "painter test";
  const std::size_t wall = s.find_terrain("wall").value();
  const std::size_t nebula = s.find_terrain("nebula").value();
  Feature block{1, "block", wall, {}};
  block.shape.kind = ShapeKind::Rect;
  block.shape.min = {4, 4};
  block.shape.max = {8, 10};
  Feature cloud{2, "cloud", nebula, {}};
  cloud.shape.kind = ShapeKind::Polygon;
  cloud.shape.points = {{14, 4}, {20, 4}, {20, 10}, {17, 7}, {14, 10}};
  s.features = {block, cloud};
  s.roads = {Road{1, {{0, 20}, {16, 18}, {31, 20}}, 3, 1.5}};
  s.bridges = {Bridge{1, {22, 2}, {22, 8}, 4, true}, Bridge{2, {26, 12}, {26, 20}, 4, false}};
  s.factions = {Faction{"blue", {40, 80, 255, 255}, 0, false, {}, {}, {}},
                Faction{"red", {230, 40, 40, 255}, 0, false, {}, {}, {}}};
  s.threats = {Influence{1, {24, 14}, 4, 1, "red"}};
  s.allies = {Influence{2, {6, 18}, 3, 1, "blue"}};
  s.units = {Unit{1, "blue", 0, {2, 2}, 0}, Unit{2, "red", 1, {30, 22}, 3.14159}};
  s.queries = {Query{"across", {2.5, 12.5}, {29.5, 12.5}, 0, "astar", {}, std::nullopt, {}},
               Query{"short", {1.5, 1.5}, {3.5, 3.5}, 0, "dijkstra", {}, std::nullopt, {}}};
  return s;
}

const PlanningWorld& painter_world() {
  static const std::unique_ptr<PlanningWorld> world = [] {
    Scenario s = painter_scenario();
    const Status valid = validate_scenario(s);
    if (!valid) FAIL("test scenario is invalid: " << valid.error().to_string());
    return std::make_unique<PlanningWorld>(std::move(s));
  }();
  return *world;
}

Color pixel(const ImagePrim& img, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * 4;
  return {img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]};
}

}  // namespace

TEST_SUITE("render") {
  TEST_CASE("layer sets parse names, all, default and none, unknown names list the known ones") {
    CHECK(LayerSet::parse(std::string_view("all"))->size() == kLayerCount);
    CHECK(LayerSet::parse(std::string_view("none"))->size() == 0);
    const auto some = LayerSet::parse(std::string_view("roads, path,closed"));
    REQUIRE(some.ok());
    CHECK(some->to_string() == "roads,closed,path");
    CHECK(*LayerSet::parse(std::string_view("default")) == LayerSet::defaults());
    CHECK_FALSE(LayerSet::defaults().contains(Layer::CostHeat));
    CHECK(LayerSet::defaults().contains(Layer::Path));
    CHECK(*LayerSet::parse(std::vector<std::string>{}) == LayerSet::defaults());
    CHECK(LayerSet::parse(std::vector<std::string>{"tiles", "units,markers"})->size() == 3);

    const auto bad = LayerSet::parse(std::string_view("tiles,rivers"));
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where == "layers");
    CHECK(bad.error().message.find("'rivers'") != std::string::npos);
    CHECK(bad.error().message.find("partial_path") != std::string::npos);
  }

  TEST_CASE("the map layers draw what they should") {
    const PlanningWorld& world = painter_world();
    const Scenario& s = world.scenario();
    DrawList list;
    paint_world(world, 0, LayerSet::all(), list);

    // Tiles: one image of one pixel per cell in terrain colours, plus the world border.
    const auto images = shapes<ImagePrim>(list, Layer::Tiles);
    REQUIRE(images.size() == 1);
    const ImagePrim& tiles = *images[0];
    CHECK(tiles.width == 32);
    CHECK(tiles.height == 24);
    CHECK(tiles.max == Vec2(32, 24));
    CHECK(pixel(tiles, 5, 5) == s.terrains[s.find_terrain("wall").value()].color);
    CHECK(pixel(tiles, 0, 0) == s.terrains[0].color);
    CHECK(shapes<RectPrim>(list, Layer::Tiles).size() == 1);

    // Two features: a fill and an outline each; the polygon keeps its points.
    CHECK(list.count(Layer::Features) == 4);
    CHECK(list.count(Layer::Features, PrimitiveKind::Rect) == 2);
    const auto polys = shapes<PolygonPrim>(list, Layer::Features);
    REQUIRE(polys.size() == 1);
    CHECK(polys[0]->points == s.features[1].shape.points);
    CHECK_FALSE(polys[0]->triangles.empty());  // Concave, but simple: it is filled.
    const auto outlines = shapes<PolylinePrim>(list, Layer::Features);
    REQUIRE(outlines.size() == 1);
    CHECK(outlines[0]->closed);

    // Roads keep their world width.
    const auto roads = shapes<PolylinePrim>(list, Layer::Roads);
    REQUIRE(roads.size() == 1);
    CHECK(roads[0]->points == s.roads[0].points);
    CHECK(roads[0]->world_width == 3);

    // The intact bridge is one deck; the destroyed one is dashed in red.
    const auto& bridges = list.layer(Layer::Bridges);
    REQUIRE(bridges.size() >= 3);
    CHECK(std::get<LinePrim>(bridges[0].shape).world_width == 4);
    CHECK(bridges[0].color == palette::kBridge);
    for (std::size_t i = 1; i < bridges.size(); ++i) {
      CHECK(bridges[i].color == palette::kBridgeDestroyed);
      CHECK(std::get<LinePrim>(bridges[i].shape).world_width == 0);
    }

    // One threat (red) and one ally (green): a fill and a ring each.
    const auto& zones = list.layer(Layer::Influences);
    REQUIRE(zones.size() == 4);
    CHECK(zones[1].color.r == palette::kThreat.r);
    CHECK(zones[3].color.g == palette::kAlly.g);
    CHECK(std::get<CirclePrim>(zones[0].shape).radius == 4);

    // Units: body, outline, heading. Heading 0 points along +x.
    CHECK(list.count(Layer::Units, PrimitiveKind::Circle) == 4);
    const auto headings = shapes<LinePrim>(list, Layer::Units);
    REQUIRE(headings.size() == 2);
    CHECK(headings[0]->b.x > headings[0]->a.x);
    CHECK(headings[0]->b.y == doctest::Approx(headings[0]->a.y));
    CHECK(list.layer(Layer::Units)[0].color == s.factions[0].color);

    // Every query's start and goal, and the names.
    CHECK(list.count(Layer::Markers, PrimitiveKind::Circle) == 8);
    std::vector<std::string> texts;
    for (const auto* t : shapes<TextPrim>(list, Layer::Labels)) texts.push_back(t->text);
    std::sort(texts.begin(), texts.end());
    CHECK(texts == std::vector<std::string>{"across", "block", "cloud", "short"});

    // Cost heat and regions: one image each; blocked cells are dark in the heat map.
    const auto heat = shapes<ImagePrim>(list, Layer::CostHeat);
    REQUIRE(heat.size() == 1);
    CHECK(pixel(*heat[0], 5, 5).r < 40);
    CHECK(pixel(*heat[0], 0, 0).g > pixel(*heat[0], 0, 0).r);  // Cheapest ground is green.
    CHECK(list.count(Layer::Regions, PrimitiveKind::Image) == 1);
  }

  TEST_CASE(
      "the knowledge layer draws each fogged faction's view, what it remembers and the tiles it has not "
      "seen") {
    Scenario s = painter_scenario();
    CHECK(s.factions[0].sight == 0);
    {
      const PlanningWorld world(s);
      DrawList list;
      paint_world(world, 0, LayerSet::all(), list);
      CHECK(list.count(Layer::Knowledge) == 0);  // no faction has fog of war
    }
    s.factions[0].sight = 5;
    s.factions[0].memory = {s.features[0]};
    // A tile grid: blue has seen its top row only, and remembers one tile wrongly.
    TileGrid tiles;
    tiles.width = 32;
    tiles.height = 24;
    tiles.terrain.assign(32 * 24, 0);
    s.tiles = tiles;
    s.factions[0].tiles.assign(32 * 24, Faction::kUnseenTile);
    for (std::size_t x = 0; x < 32; ++x) s.factions[0].tiles[x] = 0;
    s.factions[0].tiles[5] = std::uint8_t(s.find_terrain("rough").value());
    REQUIRE(validate_scenario(s));
    const PlanningWorld world(s);
    DrawList list;
    paint_world(world, 0, LayerSet::all(), list);
    std::size_t units = 0;
    for (const Unit& u : s.units) units += u.faction == s.factions[0].name;
    REQUIRE(units > 0);
    // A sight ring per unit of the faction.
    CHECK(list.count(Layer::Knowledge, PrimitiveKind::Circle) == units);
    const auto rings = shapes<CirclePrim>(list, Layer::Knowledge);
    CHECK(rings[0]->radius == 5);
    // Filled: the unseen tiles (23 rows), the cells in view, the remembered wall (4 x 6 m).
    const FactionView view = faction_view(s, 0, sight_blockers(s, world.raster()));
    CHECK(view.sees(4, 4));        // the wall's corner cell, its face
    CHECK_FALSE(view.sees(5, 5));  // behind it
    CHECK(view.sees(2, 6));
    double filled = 0, outlined = 0;
    for (const RectPrim* r : shapes<RectPrim>(list, Layer::Knowledge)) {
      (r->filled ? filled : outlined) += (r->max.x - r->min.x) * (r->max.y - r->min.y);
    }
    CHECK(filled == doctest::Approx(32.0 * 23 + double(view.count()) + 24));
    CHECK(outlined == doctest::Approx(1.0 + 24));  // the wrong tile, the remembered wall
    CHECK(list.layer(Layer::Knowledge).back().color.b == s.factions[0].color.b);
  }

  TEST_CASE("only the selected query is marked") {
    DrawList list;
    paint_world(painter_world(), 0, LayerSet::all(), list, WorldPaintParams{1});
    const auto marks = shapes<CirclePrim>(list, Layer::Markers);
    REQUIRE(marks.size() == 4);
    CHECK(marks[0]->center == painter_world().scenario().queries[1].start);
    CHECK(marks[2]->center == painter_world().scenario().queries[1].goal);
  }

  TEST_CASE("disabled layers draw nothing") {
    DrawList list;
    paint_world(painter_world(), 0, LayerSet(), list);
    CHECK(list.empty());

    LayerSet roads_only;
    roads_only.set(Layer::Roads);
    paint_world(painter_world(), 0, roads_only, list);
    CHECK(list.size() == list.count(Layer::Roads));
    CHECK(list.count(Layer::Roads) == 1);

    list.clear();
    paint_world(painter_world(), 0, LayerSet::defaults(), list);
    CHECK(list.count(Layer::CostHeat) == 0);
    CHECK(list.count(Layer::Regions) == 0);
    CHECK(list.count(Layer::Tiles) == 2);
  }
}
