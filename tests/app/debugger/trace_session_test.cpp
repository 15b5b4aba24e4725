// The trace session: every control equals a TraceReplay seek, breakpoints, playing at a
// speed, and recording on its own (errors, the traced row).

#include "app/debugger/trace_session.hpp"

#include "app/debugger/search_debugger.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

TEST_SUITE("debugger") {
  TEST_CASE("step, step_back, seek and reset equal TraceReplay seeks") {
    const Scenario s = debugger_scenario();
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.replay() != nullptr);

    // A reference recording of the same query.
    const PlanningWorld world(s);
    auto planner = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    SearchTrace trace;
    planner->set_observer(&trace);
    find_path(*planner, PathQuery{s.queries[0].start, s.queries[0].goal});
    TraceReplay ref(trace);
    REQUIRE(trace.expansion_count() == dbg.total_steps());
    const std::uint64_t total = dbg.total_steps();
    REQUIRE(total > 20);

    dbg.reset();
    ref.seek(0);
    check_same_state(*dbg.replay(), ref);
    dbg.step(1);
    ref.seek(1);
    check_same_state(*dbg.replay(), ref);
    dbg.step(10);
    ref.seek(11);
    check_same_state(*dbg.replay(), ref);
    dbg.step_back(4);
    ref.seek(7);
    check_same_state(*dbg.replay(), ref);
    dbg.step_back(100);
    ref.seek(0);
    check_same_state(*dbg.replay(), ref);
    dbg.seek(total / 2);
    ref.seek(total / 2);
    check_same_state(*dbg.replay(), ref);
    dbg.step(total * 3);
    ref.seek(total);
    check_same_state(*dbg.replay(), ref);
    CHECK(dbg.step() == total);
    dbg.set_step_size(13);
    dbg.reset();
    dbg.step(dbg.step_size());
    CHECK(dbg.step() == 13);

    // The open list view is the replay's, sorted by f.
    const std::vector<TraceNode>& open = dbg.open_nodes();
    const std::vector<TraceNode> expected = dbg.replay()->open_nodes();
    REQUIRE(open.size() == expected.size());
    for (std::size_t i = 0; i < open.size(); ++i) CHECK(open[i].node == expected[i].node);
    for (std::size_t i = 1; i < open.size(); ++i) CHECK(open[i - 1].f() <= open[i].f());
  }

  TEST_CASE("a jps query steps forwards and backwards through its jump points like any planner") {
    Scenario s = ascii_scenario({
        "........................",
        "........#...............",
        "........#.......#.......",
        "........#.......#.......",
        "..###...#.......#.......",
        "................#.......",
        "........................",
    });
    s.queries = {Query{"jumps", cell_center(s, 1, 1), cell_center(s, 22, 5), 0, "jps", {}, std::nullopt, {}}};
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.replay() != nullptr);

    const PlanningWorld world(s);
    auto planner = find_planner("jps")->create(QueryContext{world, 0, std::nullopt, {}});
    SearchTrace trace;
    planner->set_observer(&trace);
    REQUIRE(find_path(*planner, PathQuery{s.queries[0].start, s.queries[0].goal}).status ==
            SearchStatus::Found);
    TraceReplay ref(trace);
    const std::uint64_t total = dbg.total_steps();
    REQUIRE(total == trace.expansion_count());
    REQUIRE(total > 3);
    for (const std::uint64_t k :
         {std::uint64_t(1), total / 2, total, std::uint64_t(2), std::uint64_t(0), total}) {
      dbg.seek(k);
      ref.seek(k);
      check_same_state(*dbg.replay(), ref);
    }
    dbg.reset();
    dbg.step(3);
    dbg.step_back(1);
    ref.seek(2);
    check_same_state(*dbg.replay(), ref);
  }

  TEST_CASE("the status shown is where the search stands at the replay's step, the final one at the last") {
    // Query 0 finds a path; query 1's goal is walled in: no_path.
    Scenario s = ascii_scenario({
        "........",
        "....###.",
        "....#.#.",
        "....###.",
    });
    s.queries = {
        Query{"found", cell_center(s, 0, 0), cell_center(s, 7, 3), 0, "astar", {}, std::nullopt, {}},
        Query{"walled in", cell_center(s, 0, 0), cell_center(s, 5, 2), 0, "dijkstra", {}, std::nullopt, {}}};
    EditorState state = open_state(s);
    SearchDebugger dbg;
    CHECK(dbg.status_at_step() == SearchStatus::Idle);  // nothing recorded yet
    CHECK(dbg.step_status().empty());
    dbg.sync(state);
    const std::uint64_t total = dbg.total_steps();
    REQUIRE(total > 3);
    REQUIRE(dbg.result()->status == SearchStatus::Found);
    CHECK(dbg.status_at_step() == SearchStatus::Found);  // the finished search is shown
    CHECK(dbg.step_status() == "found");

    dbg.seek(2);
    CHECK(dbg.status_at_step() == SearchStatus::Running);
    CHECK(dbg.step_status() == "running, step 2 of " + std::to_string(total));
    dbg.reset();
    CHECK(dbg.step_status() == "running, step 0 of " + std::to_string(total));
    dbg.seek(total - 1);
    CHECK(dbg.status_at_step() == SearchStatus::Running);
    dbg.step(1);
    CHECK(dbg.status_at_step() == SearchStatus::Found);
    CHECK(dbg.step_status() == "found");
    CHECK(dbg.session().status_at_step() == SearchStatus::Found);

    // The regions tell at once that the goal cannot be reached: step 0 is the last one.
    state.active_query = 1;
    dbg.sync(state);
    REQUIRE(dbg.result()->status == SearchStatus::NoPath);
    CHECK(dbg.total_steps() == 0);
    CHECK(dbg.status_at_step() == SearchStatus::NoPath);
    CHECK(dbg.step_status() == "no_path");
  }

  TEST_CASE("a breakpoint stops playing and run_to_breakpoint at the node's closed_at") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    const std::vector<NodeId> path = dbg.result()->nodes;
    REQUIRE(path.size() > 6);
    const NodeId node = path[path.size() / 2];
    const std::uint64_t closed_at = dbg.replay()->find(0, node)->closed_at;
    REQUIRE(closed_at < dbg.total_steps());

    dbg.set_breakpoint(node);
    CHECK(dbg.breakpoint_step() == closed_at);
    dbg.reset();
    dbg.set_speed(1e6);
    dbg.play(true);
    dbg.update(10.0);
    CHECK_FALSE(dbg.playing());
    CHECK(dbg.step() == closed_at);
    REQUIRE(dbg.replay()->find(0, node) != nullptr);
    CHECK(dbg.replay()->find(0, node)->closed_at == dbg.step());
    CHECK(dbg.replay()->current() == node);

    // Playing on from the breakpoint runs to the end.
    dbg.play(true);
    dbg.update(10.0);
    CHECK(dbg.step() == dbg.total_steps());
    CHECK_FALSE(dbg.playing());

    dbg.reset();
    CHECK(dbg.run_to_breakpoint());
    CHECK(dbg.step() == closed_at);

    // A wall cell is never expanded: no breakpoint step, running goes to the end.
    dbg.set_breakpoint(dbg.node_at(cell_center(state.doc->scenario(), 11, 5)));
    CHECK_FALSE(dbg.breakpoint_step().has_value());
    dbg.reset();
    CHECK_FALSE(dbg.run_to_breakpoint());
    CHECK(dbg.step() == dbg.total_steps());
  }

  TEST_CASE("update(dt) advances speed * dt expansions and carries the fraction") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.total_steps() > 20);
    dbg.set_speed(100);
    dbg.update(1.0);  // not playing: nothing moves
    CHECK(dbg.step() == dbg.total_steps());
    dbg.play(true);  // at the end: starts again from step 0
    CHECK(dbg.playing());
    CHECK(dbg.step() == 0);
    dbg.update(0.05);
    CHECK(dbg.step() == 5);
    dbg.update(0.005);
    CHECK(dbg.step() == 5);
    dbg.update(0.005);
    CHECK(dbg.step() == 6);
    dbg.update(0.1);
    CHECK(dbg.step() == 16);
    dbg.play(false);
    dbg.update(1.0);
    CHECK(dbg.step() == 16);
    dbg.play(true);
    dbg.update(1e3);
    CHECK(dbg.step() == dbg.total_steps());
    CHECK_FALSE(dbg.playing());
    dbg.set_speed(1e9);
    CHECK(dbg.speed() == SearchDebugger::kMaxSpeed);
    dbg.set_speed(0);
    CHECK(dbg.speed() == SearchDebugger::kMinSpeed);
  }

  TEST_CASE("TraceSession on its own: records a request, reports its error, and gives the traced row") {
    const Scenario s = debugger_scenario();
    const PlanningWorld world(s);
    PlannerCache cache;
    TraceSession session;
    CHECK_FALSE(session.shows(TraceRequest{}, s, 0));  // nothing recorded yet

    TraceRequest request;
    request.query = 0;
    request.planner_name = "astar";
    request.planner = find_planner("astar");
    session.record(world, cache, request, 1, 0);
    CHECK_FALSE(session.searching());
    REQUIRE(session.result() != nullptr);
    CHECK(session.result()->status == SearchStatus::Found);
    CHECK(session.step() == session.total_steps());
    CHECK(session.total_steps() > 0);
    CHECK(session.shows(request, s, 1));
    CHECK_FALSE(session.shows(request, s, 2));  // another world
    CHECK(session.valid_at(1));
    CHECK(session.dependency() != nullptr);
    CHECK(session.queries_planned() == 1);
    const QueryOutcome row = session.outcome();
    CHECK(row.traced);
    CHECK(row.planner == "astar");
    CHECK(row.status == SearchStatus::Found);
    CHECK(row.length == session.result()->length);
    const std::uint64_t version = session.trace_version();

    // A request that cannot be planned: no trace, its error shown and in the row.
    TraceRequest broken = request;
    broken.planner = nullptr;
    broken.planner_name = "nope";
    broken.error = "queries[0].planner: unknown planner \"nope\"";
    session.record(world, cache, broken, 1, 0);
    CHECK(session.result() == nullptr);
    CHECK(session.replay() == nullptr);
    CHECK(session.error() == broken.error);
    CHECK(session.outcome().status == SearchStatus::Invalid);
    CHECK(session.outcome().message == broken.error);
    CHECK(session.trace_version() == version);

    // Released planners take the replay with them; clear() forgets the query.
    session.record(world, cache, request, 1, 0);
    session.release_planner();
    CHECK(session.replay() == nullptr);
    CHECK_FALSE(session.shows(request, s, 1));
    session.clear();
    CHECK_FALSE(session.active_query().has_value());
  }

}  // TEST_SUITE
