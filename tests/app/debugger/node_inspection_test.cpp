// Node inspection: the node under a point, its position, label and description.

#include "app/debugger/node_inspection.hpp"

#include "app/debugger/search_debugger.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

TEST_SUITE("debugger") {
  TEST_CASE("node_at and describe_node: cell, terrain, cost, region and the search's g, h, f") {
    const Scenario s = debugger_scenario();
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    const NodeId expanded = dbg.result()->nodes[3];
    const Vec2 p = dbg.node_position(expanded).value();
    REQUIRE(dbg.node_at(p) == expanded);
    CHECK_FALSE(dbg.node_at({-1, 3}).has_value());

    const std::string text = dbg.describe_node(expanded);
    CAPTURE(text);
    CHECK(text.find("cell (") != std::string::npos);
    CHECK(text.find("world (") != std::string::npos);
    CHECK(text.find("terrain ground") != std::string::npos);
    CHECK(text.find("cost x1 for unit") != std::string::npos);
    CHECK(text.find("region 0") != std::string::npos);
    CHECK(text.find("g ") != std::string::npos);
    CHECK(text.find(", h ") != std::string::npos);
    CHECK(text.find(", f ") != std::string::npos);
    CHECK(text.find("parent cell (") != std::string::npos);
    CHECK(text.find("closed at step " + std::to_string(dbg.replay()->find(0, expanded)->closed_at)) !=
          std::string::npos);

    const std::string wall = dbg.describe_node(dbg.node_at(cell_center(s, 11, 4)).value());
    CHECK(wall.find("terrain wall") != std::string::npos);
    CHECK(wall.find("impassable") != std::string::npos);
    CHECK(wall.find("not reached") != std::string::npos);

    dbg.reset();  // at step 0 only the start is known
    CHECK(dbg.describe_node(expanded).find("not reached at step 0") != std::string::npos);

    // Bidirectional: both sides are described.
    state.active_query = 1;
    dbg.sync(state);
    REQUIRE(dbg.active_planner() == "bidirectional");
    CHECK(dbg.step() == 0);  // the user was stepping (at step 0): the step is kept
    dbg.seek(dbg.total_steps());
    const std::string both = dbg.describe_node(dbg.result()->nodes[1]);
    CAPTURE(both);
    CHECK(both.find("forward: g ") != std::string::npos);
    CHECK(both.find("backward: ") != std::string::npos);
  }

  TEST_CASE("NodeInspector without a world or a search") {
    const TraceSession session;
    const NodeInspector none(nullptr, session);
    CHECK_FALSE(none.node_at({1, 1}, 1.0).has_value());
    CHECK_FALSE(none.node_position(0).has_value());
    CHECK(none.node_label(kNoNode) == "-");
    CHECK(none.node_label(3) == "node 3");
    CHECK(none.describe(0) == "no such node");

    // A world but no search yet: grid cells are still found and described.
    const Scenario s = debugger_scenario();
    const PlanningWorld world(s);
    const NodeInspector cells(&world, session);
    const std::optional<NodeId> node = cells.node_at(cell_center(s, 2, 3), 1.0);
    REQUIRE(node.has_value());
    CHECK(cells.node_label(*node) == "cell (2, 3)");
    CHECK(cells.node_position(*node) == cell_center(s, 2, 3));
    const std::string text = cells.describe(*node);
    CAPTURE(text);
    CHECK(text.find("terrain ground") != std::string::npos);
    CHECK(text.find("g ") == std::string::npos);  // nothing searched
  }

}  // TEST_SUITE
