// The structure painter and the refinement shapes of the trace painter: each role of
// structure on its own layer, nothing on a layer that is off, the path's corridor and
// portals apart from the planner's own structure, and a refinement's graph and regions
// only at the replay steps of their refinements. Planners come from the registry, so
// these tests know no planner family.

#include "render/search/structure_painter.hpp"

#include "planner/core/planner_registry.hpp"
#include "planner/core/search_trace.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "render/search/trace_painter.hpp"
#include "tests/test_maps.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::render;

namespace {

Scenario overlay_map() { return test::ascii_scenario(test::bent_rows()); }

// One traced query of a registered planner.
struct Traced {
  std::unique_ptr<PlanningWorld> world;
  std::unique_ptr<Planner> planner;
  SearchTrace trace;
  PathResult result;

  Traced(Scenario s, const char* name, Vec2 start, Vec2 goal)
      : world(std::make_unique<PlanningWorld>(std::move(s))) {
    const PlannerInfo* info = find_planner(name);
    REQUIRE(info != nullptr);
    ParamValues values;
    for (const ParamSpec& p : info->params) values.push_back(p.default_value);
    planner = info->create(QueryContext{*world, 0, std::nullopt, values});
    planner->set_observer(&trace);
    result = find_path(*planner, PathQuery{start, goal});
    planner->set_observer(nullptr);
  }
};

// Counts what a planner gives, by role.
struct Count final : StructureVisitor {
  std::size_t cells = 0, corridor = 0, edges = 0, directed = 0, portals = 0, aux = 0;
  void cell(const StructureCell& c) override { ++(c.role == StructureRole::Corridor ? corridor : cells); }
  void edge(const StructureEdge& e) override {
    ++edges;
    directed += e.directed ? 1 : 0;
  }
  void shape(const StructureShape& s) override { ++(s.role == StructureRole::Portal ? portals : aux); }
};

LayerSet without(Layer layer) {
  LayerSet set = LayerSet::all();
  set.set(layer, false);
  return set;
}

const Box2 kView{{0, 0}, {16, 8}};

}  // namespace

TEST_SUITE("render") {
  TEST_CASE("structure: cells, edges and the path's corridor and portals each on their own layer") {
    Traced t(overlay_map(), "quadtree", test::cell_center(overlay_map(), 0, 0),
             test::cell_center(overlay_map(), 15, 7));
    REQUIRE(t.result.status == SearchStatus::Found);
    Count own, path;
    t.planner->visit_structure(kView, own);
    t.planner->visit_path_structure(path);
    REQUIRE(own.cells > 0);
    REQUIRE(own.directed > 0);
    REQUIRE(path.corridor == t.result.nodes.size());
    REQUIRE(path.portals == t.result.nodes.size() - 1);

    StructurePaintParams params;
    params.view = kView;
    DrawList out;
    const StructurePaintStats shown = paint_structure(*t.planner, LayerSet::all(), out, params);
    CHECK(shown.cells == own.cells);
    CHECK(shown.edges == own.edges);
    // The planner's own shapes are its landmarks (rings); the portals are the path's.
    REQUIRE(own.aux > 0);
    CHECK(own.portals == 0);
    CHECK(shown.shapes == own.aux);
    CHECK(out.count(Layer::PlannerCells, PrimitiveKind::Rect) == 2 * own.cells);  // fill and outline
    CHECK(out.count(Layer::PlannerEdges, PrimitiveKind::Line) == own.edges);
    // One-way links: their own colour and an arrow head each.
    CHECK(out.count(Layer::PlannerEdges, PrimitiveKind::Polygon) == own.directed);
    std::size_t one_way = 0;
    for (const Primitive* p : out.find(Layer::PlannerEdges, PrimitiveKind::Line)) {
      one_way += p->color == structure_palette::kEdgeDirected ? 1 : 0;
    }
    CHECK(one_way == own.directed);
    CHECK(out.count(Layer::PlannerAux) == own.aux);
    CHECK(out.count(Layer::PlannerCorridor) == 0);
    CHECK(out.count(Layer::PlannerPortals) == 0);

    DrawList corridor;
    const StructurePaintStats p = paint_path_structure(*t.planner, LayerSet::all(), corridor);
    CHECK(p.cells == path.corridor);
    CHECK(p.shapes == path.portals);
    CHECK(corridor.count(Layer::PlannerCorridor, PrimitiveKind::Rect) == 2 * path.corridor);
    CHECK(corridor.count(Layer::PlannerPortals, PrimitiveKind::Polyline) == path.portals);
    CHECK(corridor.size() == 2 * path.corridor + path.portals);

    // A layer that is off gets nothing; the others are unchanged.
    for (const Layer layer : {Layer::PlannerCells, Layer::PlannerEdges}) {
      DrawList some;
      paint_structure(*t.planner, without(layer), some, params);
      CHECK(some.count(layer) == 0);
      CHECK(some.size() > 0);
    }
    DrawList no_corridor, no_portals, none;
    paint_path_structure(*t.planner, without(Layer::PlannerCorridor), no_corridor);
    CHECK(no_corridor.count(Layer::PlannerCorridor) == 0);
    CHECK(no_corridor.count(Layer::PlannerPortals) == path.portals);
    paint_path_structure(*t.planner, without(Layer::PlannerPortals), no_portals);
    CHECK(no_portals.count(Layer::PlannerPortals) == 0);
    CHECK(no_portals.count(Layer::PlannerCorridor) == 2 * path.corridor);
    paint_structure(*t.planner, LayerSet{}, none, params);
    paint_path_structure(*t.planner, LayerSet{}, none);
    CHECK(none.empty());
  }

  TEST_CASE(
      "a picked node's links: exactly the visibility graph's links of that corner, a cell's legal moves") {
    Scenario s = make_empty_scenario(40, 30, 1.0);
    const std::size_t wall = *s.find_terrain("wall");
    const Vec2 boxes[][2] = {
        {{5, 5}, {12, 9}}, {{20, 4}, {24, 20}}, {{28, 18}, {35, 26}}, {{8, 16}, {14, 22}}};
    std::uint32_t id = 1;
    for (const auto& b : boxes) {
      Feature f;
      f.id = id++;
      f.terrain = wall;
      f.shape.kind = ShapeKind::Rect;
      f.shape.min = b[0];
      f.shape.max = b[1];
      s.features.push_back(f);
    }
    const PlanningWorld world(s);
    VisGraphParams params;
    params.radius = 0.5;
    VisGraphPlanner planner(world, 0, params);
    REQUIRE(find_path(planner, PathQuery{{2, 2}, {38, 28}}).status == SearchStatus::Found);
    const visgraph::VisibilityGraph& graph = planner.map().graph();
    REQUIRE(graph.node_count() >= 16);
    std::size_t total = 0;
    for (std::uint32_t c = 0; c < graph.node_count(); ++c) {
      DrawList out;
      const std::size_t n = paint_node_links(planner, c, LayerSet::all(), out);
      CAPTURE(c);
      CHECK(n == graph.links(c).size());
      CHECK(out.count(Layer::PlannerEdges) == n + 1);  // the links and the ring
      total += n;
    }
    CHECK(total == 2 * graph.link_count());
    DrawList hidden;
    CHECK(paint_node_links(planner, 0, without(Layer::PlannerEdges), hidden) == 0);
    CHECK(hidden.count(Layer::PlannerEdges) == 0);

    // A grid cell in the open has its eight moves; one beside a wall fewer.
    auto astar = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    const CostGrid& grid = world.grid(0);
    DrawList open_cell, wall_cell;
    CHECK(paint_node_links(*astar, grid.index(2, 2), LayerSet::all(), open_cell) == 8);
    CHECK(paint_node_links(*astar, grid.index(4, 6), LayerSet::all(), wall_cell) == 5);  // wall at x >= 5
  }

  TEST_CASE("structure: a grid planner has no path structure") {
    Traced t(overlay_map(), "astar", test::cell_center(overlay_map(), 0, 0),
             test::cell_center(overlay_map(), 15, 7));
    REQUIRE(t.result.status == SearchStatus::Found);
    DrawList out;
    CHECK(paint_path_structure(*t.planner, LayerSet::all(), out).cells == 0);
    CHECK(out.empty());
  }

  TEST_CASE("structure shapes: each role on its layer, links with arrow heads") {
    const std::vector<Vec2> pts{{0, 0}, {4, 0}, {4, 0}, {4, 3}};
    const struct {
      StructureRole role;
      Layer layer;
    } cases[] = {
        {StructureRole::Structure, Layer::PlannerAux},    {StructureRole::Corridor, Layer::PlannerCorridor},
        {StructureRole::Portal, Layer::PlannerPortals},   {StructureRole::Graph, Layer::RefinementGraph},
        {StructureRole::Region, Layer::RefinementRegion}, {StructureRole::Detail, Layer::PlannerDetail}};
    for (const auto& c : cases) {
      CHECK(role_layer(c.role, Layer::PlannerAux) == c.layer);
      DrawList out;
      CHECK(paint_structure_shape({StructureShape::Kind::Links, "links", pts, 0, 0, c.role}, LayerSet::all(),
                                  out, 1.0));
      CHECK(out.count(c.layer, PrimitiveKind::Line) == 2);
      CHECK(out.count(c.layer, PrimitiveKind::Polygon) == 2);
      CHECK(out.size() == 4);
      DrawList off;
      CHECK_FALSE(paint_structure_shape({StructureShape::Kind::Links, "links", pts, 0, 0, c.role},
                                        without(c.layer), off, 1.0));
      CHECK(off.empty());
    }
    // A region polygon is filled and outlined.
    DrawList region;
    paint_structure_shape({StructureShape::Kind::Polygon, "wedge", std::span<const Vec2>(pts).first(3), 0, 0,
                           StructureRole::Region},
                          LayerSet::all(), region, 1.0);
    CHECK(region.count(Layer::RefinementRegion, PrimitiveKind::Polygon) == 1);
    CHECK(region.count(Layer::RefinementRegion, PrimitiveKind::Polyline) == 1);
  }

  TEST_CASE("refinement shapes: the step-1 graph and the visibility regions only at their steps") {
    Traced t(overlay_map(), "quadtree", test::cell_center(overlay_map(), 0, 0),
             test::cell_center(overlay_map(), 15, 7));
    REQUIRE(t.result.status == SearchStatus::Found);
    const TraceGeometry geometry = planner_trace_geometry(*t.planner, kView);
    TraceReplay replay(t.trace);
    TracePainter painter;
    TracePaintParams params;
    params.pixels_per_metre = 20;
    params.path_points = t.result.points;

    const std::uint64_t expansions = t.trace.expansion_count();
    std::size_t graph_steps = 0, region_steps = 0;
    for (std::uint64_t step = 0; step <= t.trace.step_count(); ++step) {
      replay.seek(step);
      DrawList out;
      painter.paint(t.trace, replay, geometry, LayerSet::all(), out, params);
      const Refinement* r = replay.refinement();
      const bool final = !replay.path().empty();
      const std::size_t graph = out.count(Layer::RefinementGraph),
                        region = out.count(Layer::RefinementRegion);
      if (step <= expansions || final) {
        // The search, and the final path: no refinement shapes.
        CHECK(graph == 0);
        CHECK(region == 0);
        continue;
      }
      REQUIRE(r != nullptr);
      if (r->stage == "portal A*") {
        ++graph_steps;
        CHECK(graph > 0);
        CHECK(region == 0);
        // Start, goal, both ends and the crossing of every portal.
        CHECK(out.count(Layer::RefinementGraph, PrimitiveKind::Circle) ==
              2 + 3 * (t.result.nodes.size() - 1));
      } else if (r->stage == "visibility region" || r->stage == "last visible point") {
        ++region_steps;
        CHECK(graph == 0);
        CHECK(region > 0);
        CHECK(out.count(Layer::RefinementRegion, PrimitiveKind::Circle) == 1);  // the last visible point
      } else {
        CHECK(graph == 0);
        CHECK(region == 0);
      }
      // Off means off.
      LayerSet off = LayerSet::all();
      off.set(Layer::RefinementGraph, false);
      off.set(Layer::RefinementRegion, false);
      DrawList hidden;
      painter.paint(t.trace, replay, geometry, off, hidden, params);
      CHECK(hidden.count(Layer::RefinementGraph) == 0);
      CHECK(hidden.count(Layer::RefinementRegion) == 0);
      CHECK(hidden.count(Layer::Refinement) == out.count(Layer::Refinement));
    }
    CHECK(graph_steps == 1);
    CHECK(region_steps >= t.result.nodes.size());
  }
}
