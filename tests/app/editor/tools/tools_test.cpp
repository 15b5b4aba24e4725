#include "app/editor/tool.hpp"
#include "app/editor/tools/item_edit.hpp"
#include "app/editor/tools/tool_factories.hpp"
#include "planner/world/rasterize.hpp"

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <memory>
#include <set>
#include <string>

using namespace pathscope;
using namespace pathscope::app;

namespace {

using Kind = Selection::Kind;

// An editor on an empty 100 x 80 m world of 1 m cells. At 10 px per metre the pick
// radius is 0.6 m.
struct ToolRig {
  EditorState state;
  std::unique_ptr<ToolContext> ctx;

  ToolRig() {
    state.open_document(std::make_unique<Document>(make_empty_scenario(100, 80, 1)));
    ctx = std::make_unique<ToolContext>(ToolContext{state, *state.doc, 10.0});
  }
  const Scenario& scenario() const { return state.doc->scenario(); }
  Document& doc() { return *state.doc; }

  static PointerEvent at(Vec2 p, bool shift = false) {
    PointerEvent e;
    e.world = p;
    e.shift = shift;
    return e;
  }
  void click(Tool& tool, Vec2 p, bool shift = false) {
    tool.on_hover(*ctx, at(p, shift));
    tool.on_press(*ctx, at(p, shift));
    tool.on_release(*ctx, at(p, shift));
  }
  // Press at `from`, `steps` drag events along the way to `to`, release at `to`.
  void drag(Tool& tool, Vec2 from, Vec2 to, int steps = 8, bool shift = false) {
    tool.on_press(*ctx, at(from, shift));
    for (int k = 1; k <= steps; ++k) tool.on_drag(*ctx, at(from + (to - from) * (double(k) / steps), shift));
    tool.on_release(*ctx, at(to, shift));
  }
  bool key(Tool& tool, ToolKey k) { return tool.on_key(*ctx, k); }
  // The newest message contains `text` and has `severity` (refused edits are errors).
  bool reported(const std::string& text, Severity severity = Severity::Error) const {
    return !state.messages.empty() && state.messages.back().text.find(text) != std::string::npos &&
           state.messages.back().severity == severity;
  }
};

bool near(Vec2 a, Vec2 b) { return glm::length(a - b) < 1e-9; }

Feature square_polygon(std::uint32_t id) {
  Feature f;
  f.id = id;
  f.terrain = 7;
  f.shape.kind = ShapeKind::Polygon;
  f.shape.points = {{10, 10}, {20, 10}, {20, 20}, {10, 20}};
  return f;
}

}  // namespace

TEST_SUITE("tools") {
  TEST_CASE("the registry lists every tool once, with unique shortcuts") {
    const std::vector<std::string> expected = {"select", "polygon", "rect", "circle", "brush", "region",
                                               "threat", "ally",    "road", "bridge", "query", "units"};
    REQUIRE(tool_registry().size() == expected.size());
    std::set<char> keys;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const ToolInfo& info = tool_registry()[i];
      CHECK(info.name == expected[i]);
      CHECK(info.create() != nullptr);
      CHECK(keys.insert(info.shortcut).second);
      CHECK(find_tool(info.name) == &info);
    }
    CHECK(find_tool("lasso") == nullptr);
  }

  TEST_CASE("polygon: clicks and Enter add an obstacle, clicking the first point closes") {
    ToolRig rig;
    auto tool = tools::make_polygon_tool();
    for (Vec2 p : {Vec2{10, 10}, Vec2{30, 10}, Vec2{30, 25}, Vec2{10, 25}}) rig.click(*tool, p);
    CHECK(rig.scenario().features.empty());  // not closed yet
    CHECK(rig.key(*tool, ToolKey::Enter));
    REQUIRE(rig.scenario().features.size() == 1);
    const Feature& f = rig.scenario().features[0];
    CHECK(f.shape.kind == ShapeKind::Polygon);
    CHECK(f.shape.points.size() == 4);
    CHECK(f.terrain == rig.state.paint.obstacle_terrain);
    CHECK(rig.scenario().terrains[f.terrain].name == "wall");
    CHECK(rig.doc().history_size() == 1);
    CHECK(rig.state.selection == Selection{Kind::Feature, f.id, -1});

    for (Vec2 p : {Vec2{50, 50}, Vec2{60, 50}, Vec2{55, 60}, Vec2{50.2, 50.1}}) rig.click(*tool, p);
    REQUIRE(rig.scenario().features.size() == 2);
    CHECK(rig.scenario().features[1].shape.points.size() == 3);
    CHECK(rig.scenario().features[1].id != rig.scenario().features[0].id);

    SUBCASE("Escape cancels, Delete drops the last point, too few points are reported") {
      rig.click(*tool, {70, 70});
      rig.click(*tool, {80, 70});
      CHECK(rig.key(*tool, ToolKey::Delete));
      CHECK(rig.key(*tool, ToolKey::Enter));
      CHECK(rig.reported("at least 3 points", Severity::Warning));  // The draft stays: click on.
      CHECK(rig.key(*tool, ToolKey::Escape));
      CHECK_FALSE(rig.key(*tool, ToolKey::Escape));  // nothing left to cancel
      CHECK(rig.scenario().features.size() == 2);
    }
  }

  TEST_CASE("polygon: a double-click on the last point closes without a duplicate vertex") {
    ToolRig rig;
    auto tool = tools::make_polygon_tool();
    rig.click(*tool, {10, 10});
    rig.click(*tool, {10.1, 10});  // a second click on the same point adds nothing
    rig.click(*tool, {30, 10});
    rig.click(*tool, {20, 30});
    rig.click(*tool, {20.2, 30.1});               // the double-click's second press closes
    CHECK_FALSE(rig.key(*tool, ToolKey::Enter));  // and the Enter that follows has nothing to do
    REQUIRE(rig.scenario().features.size() == 1);
    CHECK(rig.scenario().features[0].shape.points == std::vector<Vec2>{{10, 10}, {30, 10}, {20, 30}});
  }

  TEST_CASE("polygon: a self-intersecting polygon is refused with the validator's message") {
    ToolRig rig;
    auto tool = tools::make_polygon_tool();
    for (Vec2 p : {Vec2{10, 10}, Vec2{30, 30}, Vec2{30, 10}, Vec2{10, 30}}) rig.click(*tool, p);
    CHECK(rig.key(*tool, ToolKey::Enter));
    CHECK(rig.scenario().features.empty());
    CHECK(rig.doc().history_size() == 0);
    CHECK(rig.reported("self-intersecting"));
    CHECK(rig.reported("features[0].points"));
  }

  TEST_CASE("polygon: points outside the world are clamped onto it") {
    ToolRig rig;
    auto tool = tools::make_polygon_tool();
    for (Vec2 p : {Vec2{-5, -5}, Vec2{120, 0}, Vec2{50, 90}}) rig.click(*tool, p);
    CHECK(rig.key(*tool, ToolKey::Enter));
    REQUIRE(rig.scenario().features.size() == 1);
    const auto& pts = rig.scenario().features[0].shape.points;
    CHECK(pts[0] == Vec2{0, 0});
    CHECK(pts[1] == Vec2{100, 0});
    CHECK(pts[2] == Vec2{50, 80});
  }

  TEST_CASE("rect and circle: a drag adds the shape, a click adds nothing") {
    ToolRig rig;
    auto rect = tools::make_rect_tool();
    rig.drag(*rect, {30, 40}, {10, 20});
    REQUIRE(rig.scenario().features.size() == 1);
    const Shape& r = rig.scenario().features[0].shape;
    CHECK(r.kind == ShapeKind::Rect);
    CHECK(r.min == Vec2{10, 20});
    CHECK(r.max == Vec2{30, 40});
    rig.click(*rect, {50, 50});
    CHECK(rig.scenario().features.size() == 1);

    auto circle = tools::make_circle_tool();
    rig.drag(*circle, {50, 50}, {53, 54});
    REQUIRE(rig.scenario().features.size() == 2);
    const Shape& c = rig.scenario().features[1].shape;
    CHECK(c.kind == ShapeKind::Circle);
    CHECK(c.center == Vec2{50, 50});
    CHECK(c.radius == doctest::Approx(5));
    CHECK(rig.doc().history_size() == 2);
  }

  TEST_CASE("region: polygons and shift-drag circles of the region terrain") {
    ToolRig rig;
    rig.state.paint.region_terrain = 4;  // nebula
    auto tool = tools::make_region_tool();
    for (Vec2 p : {Vec2{10, 10}, Vec2{30, 10}, Vec2{20, 30}}) rig.click(*tool, p);
    CHECK(rig.key(*tool, ToolKey::Enter));
    rig.drag(*tool, {60, 40}, {60, 50}, 4, true);
    REQUIRE(rig.scenario().features.size() == 2);
    CHECK(rig.scenario().features[0].terrain == 4);
    CHECK(rig.scenario().features[1].terrain == 4);
    CHECK(rig.scenario().features[1].shape.kind == ShapeKind::Circle);
    CHECK(rig.scenario().features[1].shape.radius == doctest::Approx(10));
  }

  TEST_CASE(
      "region over walls: wall shapes stay walls unless Keep walls is off, replaced wall cells are said") {
    ToolRig rig;
    // A wall square (cells 10..19) and a wall row of the tile grid (row 40).
    Scenario walled = make_empty_scenario(100, 80, 1);
    walled.features.push_back(square_polygon(1));
    TileGrid grid;
    grid.width = 100;
    grid.height = 80;
    grid.terrain.assign(100 * 80, 0);
    for (int x = 0; x < 100; ++x) grid.terrain[std::size_t(40 * 100 + x)] = 7;
    walled.tiles = grid;
    rig.state.open_document(std::make_unique<Document>(walled));
    rig.ctx = std::make_unique<ToolContext>(ToolContext{rig.state, *rig.state.doc, 10.0});
    REQUIRE(rasterize(rig.scenario()).terrain(std::size_t(40 * 100 + 35)) == 7);
    const auto terrain_at = [&](int x, int y) {
      return int(rasterize(rig.scenario()).terrain(std::size_t(y * 100 + x)));
    };
    REQUIRE(terrain_at(15, 15) == 7);
    const std::size_t messages = rig.state.messages.size();
    rig.state.paint.region_terrain = 3;  // swamp
    auto tool = tools::make_region_tool();
    const auto square = [&](double x0, double y0, double x1, double y1) {
      for (Vec2 p : {Vec2{x0, y0}, Vec2{x1, y0}, Vec2{x1, y1}, Vec2{x0, y1}}) rig.click(*tool, p);
      REQUIRE(rig.key(*tool, ToolKey::Enter));
    };
    // A swamp over the wall square: the wall stays, the swamp is round it, nothing to say.
    CHECK(rig.state.paint.region_keeps_walls);
    square(5, 5, 25, 25);
    REQUIRE(rig.scenario().features.size() == 2);
    CHECK(rig.scenario().features[0].terrain == 3);  // beneath the wall
    CHECK(terrain_at(15, 15) == 7);
    CHECK(terrain_at(7, 7) == 3);
    CHECK(rig.state.messages.size() == messages);
    // A swamp across the tile grid's wall row: 20 wall cells become swamp, and it says so.
    square(30, 35, 50, 45);
    CHECK(terrain_at(35, 40) == 3);
    CHECK(rig.reported("replaces 20 wall cells of the tile grid", Severity::Warning));
    CHECK(rig.reported("Ctrl+Z undoes it", Severity::Warning));
    rig.doc().undo();
    CHECK(terrain_at(35, 40) == 7);
    // Keep walls off: the swamp paints over the wall square, said with the cells replaced;
    // undo gives the wall back.
    rig.state.paint.region_keeps_walls = false;
    square(8, 8, 22, 22);
    CHECK(rig.scenario().features.back().terrain == 3);
    CHECK(terrain_at(15, 15) == 3);
    CHECK(rig.reported("replaces 100 wall cells", Severity::Warning));
    rig.doc().undo();
    CHECK(terrain_at(15, 15) == 7);
  }

  TEST_CASE("brush: the first stroke creates the grid, a stroke is one undo step") {
    ToolRig rig;
    rig.state.paint.brush_terrain = 3;  // swamp
    rig.state.paint.brush_size = 3;
    auto tool = tools::make_brush_tool();
    REQUIRE_FALSE(rig.scenario().tiles);

    rig.drag(*tool, {10.5, 10.5}, {30.5, 10.5}, 5);  // big steps: the brush fills the gaps
    REQUIRE(rig.scenario().tiles);
    const TileGrid& grid = *rig.scenario().tiles;
    CHECK(grid.width == 100);
    CHECK(grid.height == 80);
    CHECK(rig.doc().history_size() == 2);  // the grid, then the stroke
    int painted = 0;
    for (std::uint8_t t : grid.terrain) painted += t == 3;
    CHECK(painted == 23 * 3);  // a 3-cell band: columns 9..31, rows 9..11
    for (int x = 9; x <= 31; ++x) {
      CAPTURE(x);
      CHECK(grid.terrain[std::size_t(9 * 100 + x)] == 3);
      CHECK(grid.terrain[std::size_t(11 * 100 + x)] == 3);
    }
    rig.doc().undo();
    REQUIRE(rig.scenario().tiles);
    for (std::uint8_t t : rig.scenario().tiles->terrain) REQUIRE(t == 0);
    rig.doc().undo();
    CHECK_FALSE(rig.scenario().tiles);
  }

  TEST_CASE("brush: a stroke over painted cells undoes to the exact previous cells") {
    ToolRig rig;
    REQUIRE(rig.doc().ensure_tile_grid());
    auto tool = tools::make_brush_tool();
    rig.state.paint.brush_terrain = 2;
    rig.state.paint.brush_size = 1;
    rig.drag(*tool, {5.5, 5.5}, {15.5, 5.5});
    const std::vector<std::uint8_t> before = rig.scenario().tiles->terrain;
    const std::size_t steps = rig.doc().history_size();

    rig.state.paint.brush_terrain = 5;
    rig.state.paint.brush_size = 4;
    rig.state.paint.brush_round = true;
    // Back and forth over the same cells: one stroke.
    tool->on_press(*rig.ctx, ToolRig::at({8, 6}));
    for (double x : {9.0, 12.0, 7.0, 20.0, 8.0}) tool->on_drag(*rig.ctx, ToolRig::at({x, 6}));
    tool->on_release(*rig.ctx, ToolRig::at({8, 6}));
    CHECK(rig.doc().history_size() == steps + 1);
    CHECK(rig.scenario().tiles->terrain != before);

    rig.doc().undo();
    CHECK(rig.scenario().tiles->terrain == before);
  }

  TEST_CASE("brush: square and round footprints") {
    ToolRig rig;
    REQUIRE(rig.doc().ensure_tile_grid());
    auto tool = tools::make_brush_tool();
    rig.state.paint.brush_terrain = 1;
    rig.state.paint.brush_size = 4;
    auto count = [&] {
      int n = 0;
      for (std::uint8_t t : rig.scenario().tiles->terrain) n += t == 1;
      return n;
    };
    rig.click(*tool, {20, 20});
    CHECK(count() == 16);
    rig.doc().undo();
    rig.state.paint.brush_round = true;
    rig.click(*tool, {20, 20});
    CHECK(count() == 12);  // the four corner cells lie outside the disc
    rig.doc().undo();
    rig.state.paint.brush_size = 1;
    rig.click(*tool, {0.2, 79.9});  // the cell under the pointer, at the grid's corner
    CHECK(count() == 1);
    CHECK(rig.scenario().tiles->terrain[79 * 100] == 1);
  }

  TEST_CASE("threat and ally: drag sets the radius, a click reuses it, strength from settings") {
    ToolRig rig;
    rig.state.paint.influence_strength = 2.5;
    auto threat = tools::make_threat_tool();
    rig.drag(*threat, {40, 40}, {40, 52});
    REQUIRE(rig.scenario().threats.size() == 1);
    CHECK(rig.scenario().threats[0].center == Vec2{40, 40});
    CHECK(rig.scenario().threats[0].radius == doctest::Approx(12));
    CHECK(rig.scenario().threats[0].strength == 2.5);
    rig.click(*threat, {70, 20});
    REQUIRE(rig.scenario().threats.size() == 2);
    CHECK(rig.scenario().threats[1].radius == doctest::Approx(12));
    CHECK(rig.scenario().threats[1].id != rig.scenario().threats[0].id);

    auto ally = tools::make_ally_tool();
    rig.drag(*ally, {10, 10}, {13, 14});
    REQUIRE(rig.scenario().allies.size() == 1);
    CHECK(rig.scenario().allies[0].radius == doctest::Approx(5));
    CHECK(rig.state.selection == Selection{Kind::Ally, rig.scenario().allies[0].id, -1});
  }

  TEST_CASE("road: clicks and Enter, or a second click on the last point") {
    ToolRig rig;
    rig.state.paint.road_width = 3;
    rig.state.paint.road_speed_factor = 2;
    auto tool = tools::make_road_tool();
    rig.click(*tool, {5, 5});
    CHECK(rig.key(*tool, ToolKey::Enter));
    CHECK(rig.reported("at least 2 points", Severity::Warning));
    CHECK(rig.scenario().roads.empty());
    rig.click(*tool, {50, 5});
    rig.click(*tool, {50, 40});
    CHECK(rig.key(*tool, ToolKey::Enter));
    REQUIRE(rig.scenario().roads.size() == 1);
    const Road& road = rig.scenario().roads[0];
    CHECK(road.points == std::vector<Vec2>{{5, 5}, {50, 5}, {50, 40}});
    CHECK(road.width == 3);
    CHECK(road.speed_factor == 2);

    rig.click(*tool, {60, 60});
    rig.click(*tool, {70, 60});
    rig.click(*tool, {70.1, 60});  // a double-click ends the road
    REQUIRE(rig.scenario().roads.size() == 2);
    CHECK(rig.scenario().roads[1].points.size() == 2);
    CHECK(rig.doc().history_size() == 2);
  }

  TEST_CASE("bridge and query: a drag adds them with the settings") {
    ToolRig rig;
    rig.state.paint.bridge_width = 8;
    rig.state.paint.bridge_intact = false;
    auto bridge = tools::make_bridge_tool();
    rig.drag(*bridge, {20, 30}, {20, 45});
    REQUIRE(rig.scenario().bridges.size() == 1);
    const Bridge& b = rig.scenario().bridges[0];
    CHECK(b.a == Vec2{20, 30});
    CHECK(b.b == Vec2{20, 45});
    CHECK(b.width == 8);
    CHECK_FALSE(b.intact);

    rig.state.paint.query_class = 2;
    auto query = tools::make_query_tool();
    rig.drag(*query, {5, 5}, {95, 75});
    rig.drag(*query, {5, 70}, {150, 70});  // the goal is clamped to the world
    REQUIRE(rig.scenario().queries.size() == 2);
    const Query& q = rig.scenario().queries[0];
    CHECK(q.start == Vec2{5, 5});
    CHECK(q.goal == Vec2{95, 75});
    CHECK(q.movement_class == 2);
    CHECK(q.planner == "astar");
    CHECK(rig.scenario().queries[1].goal == Vec2{100, 70});
    CHECK(rig.state.active_query == 1);
  }

  TEST_CASE("queries are numbered from 1 everywhere: the query tool's names, labels and descriptions agree") {
    ToolRig rig;
    auto query = tools::make_query_tool();
    for (int i = 0; i < 4; ++i) rig.drag(*query, {5, 5 + 10.0 * i}, {95, 5 + 10.0 * i});
    REQUIRE(rig.scenario().queries.size() == 4);
    const Scenario& s = rig.scenario();
    CHECK(tools::query_number(3) == 4);
    CHECK(s.queries[3].name == "query 4");
    CHECK(tools::query_label(s, 3) == "query 4");  // the default name is not repeated
    CHECK(tools::describe(Selection{Kind::QueryGoal, 3, -1}) == "query 4 goal");
    CHECK(tools::describe(Selection{Kind::QueryStart, 0, -1}) == "query 1 start");

    REQUIRE(rig.doc().apply("Rename", [](Scenario& e) {
      e.queries[2].name = "across the river";
      e.queries[1].name.clear();
    }));
    CHECK(tools::query_label(rig.scenario(), 2) == "query 3: across the river");
    CHECK(tools::query_label(rig.scenario(), 1) == "query 2");
    // After deleting query 1 the numbers follow the positions; names stay names.
    REQUIRE(tools::delete_selection(rig.doc(), Selection{Kind::QueryStart, 0, -1}));
    CHECK(tools::query_label(rig.scenario(), 2) == "query 3: query 4");
  }

  TEST_CASE("select: dragging a feature moves it as one undo step") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) { s.features.push_back(square_polygon(4)); }));
    const Feature original = rig.scenario().features[0];
    auto tool = tools::make_select_tool();
    rig.drag(*tool, {15, 15}, {25, 18});
    CHECK(rig.state.selection == Selection{Kind::Feature, 4, -1});
    const auto& pts = rig.scenario().features[0].shape.points;
    CHECK(pts[0] == Vec2{20, 13});
    CHECK(pts[2] == Vec2{30, 23});
    CHECK(rig.doc().history_size() == 2);
    rig.doc().undo();
    CHECK(rig.scenario().features[0] == original);

    SUBCASE("a move is clamped at the world's edge") {
      rig.drag(*tool, {15, 15}, {-50, 15});
      CHECK(rig.scenario().features[0].shape.points[0] == Vec2{0, 10});
    }
    SUBCASE("a click on empty ground clears the selection") {
      rig.click(*tool, {80, 70});
      CHECK(rig.state.selection.empty());
    }
  }

  TEST_CASE("select: Delete removes the item, a vertex delete keeps 3 vertices") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.features.push_back(square_polygon(1));
      Feature other = square_polygon(2);
      for (Vec2& p : other.shape.points) p += Vec2{40, 0};
      s.features.push_back(other);
    }));
    auto tool = tools::make_select_tool();
    rig.click(*tool, {55, 15});
    CHECK(rig.state.selection == Selection{Kind::Feature, 2, -1});
    CHECK(rig.key(*tool, ToolKey::Delete));
    REQUIRE(rig.scenario().features.size() == 1);
    CHECK(rig.scenario().features[0].id == 1);
    CHECK(rig.state.selection.empty());

    rig.click(*tool, {15, 15});      // the polygon
    rig.click(*tool, {20.2, 20.1});  // its vertex 2
    CHECK(rig.state.selection == Selection{Kind::Feature, 1, 2});
    CHECK(rig.key(*tool, ToolKey::Delete));
    CHECK(rig.scenario().features[0].shape.points == std::vector<Vec2>{{10, 10}, {20, 10}, {10, 20}});
    CHECK(rig.state.selection == Selection{Kind::Feature, 1, -1});

    rig.click(*tool, {10, 10});
    CHECK(rig.state.selection.vertex == 0);
    CHECK(rig.key(*tool, ToolKey::Delete));
    CHECK(rig.scenario().features[0].shape.points.size() == 3);
    CHECK(rig.reported("at least 3 vertices"));
  }

  TEST_CASE("select: vertex drag, shift+click inserts a vertex, rims and corners resize") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.features.push_back(square_polygon(1));
      s.threats.push_back(Influence{1, {60, 40}, 10, 1, ""});
      Feature box;
      box.id = 2;
      box.terrain = 7;
      box.shape.kind = ShapeKind::Rect;
      box.shape.min = {70, 60};
      box.shape.max = {80, 70};
      s.features.push_back(box);
    }));
    auto tool = tools::make_select_tool();
    rig.click(*tool, {15, 15});
    rig.drag(*tool, {20, 20}, {24, 26});  // vertex 2
    CHECK(rig.scenario().features[0].shape.points[2] == Vec2{24, 26});

    const std::size_t steps = rig.doc().history_size();
    rig.drag(*tool, {15, 10}, {15, 6}, 4, true);  // insert on edge 0, drag it out
    CHECK(rig.scenario().features[0].shape.points.size() == 5);
    CHECK(rig.scenario().features[0].shape.points[1] == Vec2{15, 6});
    CHECK(rig.doc().history_size() == steps + 1);
    rig.doc().undo();
    CHECK(rig.scenario().features[0].shape.points.size() == 4);

    rig.click(*tool, {60, 40});           // the threat, by its centre
    rig.drag(*tool, {70, 40}, {75, 40});  // its rim
    CHECK(rig.scenario().threats[0].radius == doctest::Approx(15));
    CHECK(rig.scenario().threats[0].center == Vec2{60, 40});

    rig.click(*tool, {75, 65});
    rig.drag(*tool, {80, 70}, {90, 75});  // the max corner
    CHECK(rig.scenario().features[1].shape.min == Vec2{70, 60});
    CHECK(rig.scenario().features[1].shape.max == Vec2{90, 75});
  }

  TEST_CASE("select: bridge ends, units and road vertices") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.bridges.push_back(Bridge{5, {20, 20}, {20, 40}, 6, true});
      s.roads.push_back(Road{6, {{50, 10}, {70, 10}}, 4, 1.5});
      s.factions.push_back(Faction{"blue", {}, 0, false, {}, {}, {}});
      s.units.push_back(Unit{7, "blue", 0, {80, 60}, 0});
    }));
    auto tool = tools::make_select_tool();
    rig.click(*tool, {21, 30});  // the deck
    CHECK(rig.state.selection == Selection{Kind::Bridge, 5, -1});
    rig.drag(*tool, {20, 40}, {25, 45});  // end b
    CHECK(rig.scenario().bridges[0].a == Vec2{20, 20});
    CHECK(rig.scenario().bridges[0].b == Vec2{25, 45});

    rig.drag(*tool, {80, 60}, {85, 62});
    CHECK(rig.state.selection == Selection{Kind::Unit, 7, -1});
    CHECK(rig.scenario().units[0].position == Vec2{85, 62});

    rig.click(*tool, {60, 11});
    rig.click(*tool, {70, 10});
    CHECK(rig.state.selection == Selection{Kind::Road, 6, 1});
    CHECK(rig.key(*tool, ToolKey::Delete));
    CHECK(rig.scenario().roads[0].points.size() == 2);
    CHECK(rig.reported("at least 2 vertices"));
    CHECK(rig.key(*tool, ToolKey::Escape));
    CHECK(rig.state.selection.empty());
  }

  TEST_CASE(
      "unit orders: a kind change (the inspector's combo) brings the points its kind needs and is one undo "
      "step") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.factions.push_back(Faction{"blue", {}, 0, false, {}, {}, {}});
      s.units.push_back(Unit{7, "blue", 0, {80, 60}, 0});
    }));
    const Vec2 here{80, 60};
    auto set_kind = [&](OrderKind kind) {
      return rig.doc().apply("Edit unit 7 order",
                             [&](Scenario& e) { tools::set_order_kind(e.units[0].order, kind, here); });
    };
    REQUIRE(set_kind(OrderKind::Patrol));
    CHECK(rig.scenario().units[0].order == Order{OrderKind::Patrol, {here, here}, PatrolMode::Loop});
    REQUIRE(rig.doc().apply("Edit", [](Scenario& e) {
      e.units[0].order.points = {{1, 2}, {3, 4}, {5, 6}};
      e.units[0].order.patrol = PatrolMode::BackForth;
    }));
    REQUIRE(set_kind(OrderKind::Waypoints));  // keeps its points (and the patrol mode)
    CHECK(rig.scenario().units[0].order ==
          Order{OrderKind::Waypoints, {{1, 2}, {3, 4}, {5, 6}}, PatrolMode::BackForth});
    REQUIRE(set_kind(OrderKind::Move));  // keeps the first
    CHECK(rig.scenario().units[0].order.points == std::vector<Vec2>{{1, 2}});
    REQUIRE(set_kind(OrderKind::Stop));
    CHECK(rig.scenario().units[0].order.points.empty());
    REQUIRE(set_kind(OrderKind::Waypoints));
    CHECK(rig.scenario().units[0].order.points == std::vector<Vec2>{here});
    CHECK(rig.doc().undo_label() == "Edit unit 7 order");
    rig.doc().undo();
    CHECK(rig.scenario().units[0].order == Order{OrderKind::Stop, {}, PatrolMode::BackForth});
    // A move order with no point would be refused by validation; set_order_kind never makes one.
    const Status refused = rig.doc().apply("Edit", [](Scenario& e) {
      e.units[0].order = Order{OrderKind::Move, {}, {}};
    });
    REQUIRE_FALSE(refused);
    CHECK(refused.error().where == "units[0].order.points");
  }

  TEST_CASE("select: deleting a unit takes it out of its group") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.factions.push_back(Faction{"blue", {}, 0, false, {}, {}, {}});
      s.units.push_back(Unit{7, "blue", 0, {80, 60}, 0});
      s.units.push_back(Unit{8, "blue", 0, {20, 60}, 0});
      s.groups.push_back(UnitGroup{1, "pair", {8, 7}, Order{OrderKind::Move, {{50, 50}}, PatrolMode::Loop}});
    }));
    REQUIRE(tools::delete_selection(rig.doc(), Selection{Kind::Unit, 7, -1}));
    REQUIRE(rig.scenario().units.size() == 1);
    CHECK(rig.scenario().groups[0].units == std::vector<std::uint32_t>{8});
    rig.doc().undo();
    CHECK(rig.scenario().groups[0].units == std::vector<std::uint32_t>{8, 7});
  }

  TEST_CASE("select: dragging a query start edits live and is one undo step") {
    ToolRig rig;
    REQUIRE(rig.doc().apply("Add", [](Scenario& s) {
      s.queries.push_back(Query{"q", {10, 10}, {90, 70}, 0, "astar", {}, std::nullopt, {}});
    }));
    auto tool = tools::make_select_tool();
    const std::size_t steps = rig.doc().history_size();
    const std::uint64_t revision = rig.doc().revision();
    tool->on_press(*rig.ctx, ToolRig::at({10.1, 10}));
    CHECK(rig.state.selection == Selection{Kind::QueryStart, 0, -1});
    tool->on_drag(*rig.ctx, ToolRig::at({20, 10}));
    CHECK(near(rig.scenario().queries[0].start, {19.9, 10}));  // applied while dragging
    const std::uint64_t mid = rig.doc().revision();
    CHECK(mid > revision);
    tool->on_drag(*rig.ctx, ToolRig::at({30.1, 20}));
    CHECK(rig.doc().revision() > mid);
    tool->on_release(*rig.ctx, ToolRig::at({30.1, 20}));
    CHECK(near(rig.scenario().queries[0].start, {30, 20}));
    CHECK(rig.scenario().queries[0].goal == Vec2{90, 70});
    CHECK(rig.doc().history_size() == steps + 1);
    rig.doc().undo();
    CHECK(rig.scenario().queries[0].start == Vec2{10, 10});

    SUBCASE("Delete on a marker removes its query") {
      rig.click(*tool, {90, 70});
      CHECK(rig.state.selection == Selection{Kind::QueryGoal, 0, -1});
      CHECK(rig.key(*tool, ToolKey::Delete));
      CHECK(rig.scenario().queries.empty());
    }
  }
}
