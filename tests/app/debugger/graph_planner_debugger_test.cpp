// The debugger drives a planner that is not a grid through the same code as the grid
// planners: the test-only explicit-graph planner (polygon and point nodes), chosen from
// a registry that holds it, is recorded, stepped, scrubbed back, hit-tested, inspected,
// given a breakpoint picked on the map, and painted (search overlay and structure).

#include <doctest/doctest.h>

#include "app/debugger/search_debugger.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"
#include "tests/planner/core/graph_test_planner.hpp"

using namespace pathscope;

namespace {

// A 40 x 30 m open map with one query from room F to room E of the test graph.
Scenario graph_scenario() {
  Scenario s = test::ascii_scenario(std::vector<std::string>(30, std::string(40, '.')));
  s.queries = {Query{"rooms", {4, 22}, {33, 28}, 0, "astar", {}, std::nullopt, {}}};
  return s;
}

}  // namespace

TEST_SUITE("debugger") {
  TEST_CASE("a non-grid planner is recorded, stepped, inspected and painted like a grid planner") {
    app::EditorState state = test::open_state(graph_scenario());
    app::SearchDebugger dbg(test::test_registry());
    dbg.set_planner_override("test_graph", {});
    dbg.sync(state);
    REQUIRE(dbg.error().empty());
    REQUIRE(dbg.session().result() != nullptr);
    CHECK(dbg.session().result()->status == SearchStatus::Found);
    CHECK_FALSE(dbg.session().lattice().has_value());

    // Steps are expansions and the two refinement stages.
    const SearchTrace& trace = *dbg.session().trace();
    CHECK(dbg.total_steps() == trace.expansion_count() + 2);

    // Stepping forward and back through the same replay code.
    dbg.seek(0);
    dbg.step(2);
    CHECK(dbg.step() == 2);
    dbg.step_back(1);
    CHECK(dbg.step() == 1);

    // Hit-testing uses the planner's shapes: the hexagon (room C) and a doorway point.
    CHECK(dbg.node_at({16, 18}) == NodeId(4));
    CHECK(dbg.node_at({25.3, 18.2}, 0.5) == NodeId(5));
    CHECK_FALSE(dbg.node_at({39, 1}, 0.5).has_value());
    CHECK(dbg.node_label(4) == "polygon 4");
    CHECK(dbg.node_label(5) == "point 5");
    const std::string text = dbg.describe_node(10);
    CAPTURE(text);
    CHECK(text.find("polygon 10") != std::string::npos);
    CHECK(text.find("vertices") != std::string::npos);
    CHECK(text.find("closed at step 1") != std::string::npos);
    const std::optional<NodeGeometry> hexagon = dbg.node_geometry(4);
    REQUIRE(hexagon.has_value());
    CHECK(hexagon->polygon.size() == 6);

    // A breakpoint picked on the map (inside room D) stops the replay where D is expanded.
    dbg.arm_breakpoint_pick(true);
    dbg.pick_breakpoint({32, 18}, 0.5);
    CHECK_FALSE(dbg.breakpoint_pick_armed());
    REQUIRE(dbg.breakpoint() == NodeId(6));
    REQUIRE(dbg.breakpoint_step().has_value());
    dbg.seek(0);
    CHECK(dbg.run_to_breakpoint());
    CHECK(dbg.step() == *dbg.breakpoint_step());
    CHECK(dbg.session().replay()->current() == 6);

    // At the last refinement the refinement polyline is drawn; nodes in their shapes.
    dbg.seek(dbg.total_steps() - 1);
    render::DrawList search;
    dbg.paint(render::LayerSet::all(), search, 20.0);
    CHECK(search.count(render::Layer::Refinement, render::PrimitiveKind::Polyline) == 1);
    CHECK(search.count(render::Layer::Closed, render::PrimitiveKind::Polygon) >= 3);

    // The structure view: six rooms and thirteen links, within the view box.
    render::DrawList structure;
    const render::StructurePaintStats all =
        dbg.paint_structure(render::LayerSet::all(), Box2{{0, 0}, {40, 30}}, structure);
    CHECK(all.cells == 6);
    CHECK(all.edges == 13);
    render::DrawList corner;
    const render::StructurePaintStats some =
        dbg.paint_structure(render::LayerSet::all(), Box2{{0, 0}, {8, 8}}, corner);
    CHECK(some.cells == 1);  // room A only
    CHECK(some.edges < all.edges);
  }

  TEST_CASE("planner comparison runs every planner of the debugger's registry") {
    app::EditorState state = test::open_state(graph_scenario());
    app::SearchDebugger dbg(test::test_registry());
    dbg.sync(state);
    const std::vector<app::ComparisonRow> rows = dbg.compare_planners();
    REQUIRE(rows.size() == test::test_registry().size());
    CHECK(rows.back().name == "test_graph");
    CHECK(rows.back().status == SearchStatus::Found);
    CHECK(rows.front().name == "astar");
    CHECK(rows.front().status == SearchStatus::Found);
  }

}  // TEST_SUITE
