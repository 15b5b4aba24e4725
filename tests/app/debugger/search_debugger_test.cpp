// The search debugger: re-planning on document edits (and back on undo), every control
// equal to a TraceReplay seek, breakpoints, playing at a speed, node descriptions and
// the planner comparison.

#include "app/debugger/search_debugger.hpp"

#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;

namespace {

// A 24 x 12 map with a wall in the middle that leaves gaps at the top and bottom, some
// rough and swamp ground, and two queries across it.
Scenario debugger_scenario() {
  Scenario s = test::ascii_scenario({
      "........................",
      "........................",
      "...........#............",
      "...rrr.....#.....sss....",
      "...rrr.....#.....sss....",
      "...........#............",
      "...........#............",
      "...........#............",
      "...ss......#......rr....",
      "...........#............",
      "........................",
      "........................",
  });
  s.queries = {
      Query{"across", test::cell_center(s, 1, 5), test::cell_center(s, 22, 6), 0, "astar", {}, std::nullopt},
      Query{"both ways",
            test::cell_center(s, 2, 10),
            test::cell_center(s, 21, 1),
            0,
            "bidirectional",
            {},
            std::nullopt}};
  return s;
}

EditorState open_state(Scenario s) {
  EditorState state;
  state.open_document(std::make_unique<Document>(std::move(s)));
  return state;
}

// A wall feature over column 11 from the top down to row 10: only the bottom row still
// crosses the wall, a detour for the queries that used the top gap.
Feature cutting_wall(const Scenario& s) {
  Feature f;
  f.id = 7;
  f.name = "cut";
  f.terrain = s.find_terrain("wall").value();
  f.shape.kind = ShapeKind::Rect;
  f.shape.min = {11, 0};
  f.shape.max = {12, 11};
  return f;
}

void check_same_state(const TraceReplay& a, const TraceReplay& b) {
  REQUIRE(a.step() == b.step());
  const std::vector<TraceNode> na = a.nodes(), nb = b.nodes();
  REQUIRE(na.size() == nb.size());
  for (std::size_t i = 0; i < na.size(); ++i) {
    CHECK(na[i].node == nb[i].node);
    CHECK(na[i].side == nb[i].side);
    CHECK(na[i].g == nb[i].g);
    CHECK(na[i].h == nb[i].h);
    CHECK(na[i].parent == nb[i].parent);
    CHECK(na[i].opened_at == nb[i].opened_at);
    CHECK(na[i].closed_at == nb[i].closed_at);
  }
  CHECK(a.current() == b.current());
  CHECK(a.partial_path() == b.partial_path());
  CHECK(a.path() == b.path());
}

}  // namespace

TEST_SUITE("debugger") {
  TEST_CASE("sync re-plans after a document edit and undo restores the exact length") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.world() != nullptr);
    REQUIRE(dbg.result() != nullptr);
    REQUIRE(dbg.result()->status == SearchStatus::Found);
    const double before = dbg.result()->length;
    REQUIRE(dbg.query_results().size() == 2);
    CHECK(dbg.query_results()[0].length == before);
    CHECK(dbg.query_results()[1].status == SearchStatus::Found);
    CHECK(dbg.step() == dbg.total_steps());  // the finished search
    CHECK(dbg.last_plan_ms() >= 0);

    // Nothing changed: no new trace.
    const std::uint64_t version = dbg.trace_version();
    dbg.sync(state);
    CHECK(dbg.trace_version() == version);

    REQUIRE(state.doc->apply("add wall", [&](Scenario& s) { s.features.push_back(cutting_wall(s)); }));
    dbg.sync(state);
    REQUIRE(dbg.result()->status == SearchStatus::Found);
    const double cut = dbg.result()->length;
    CHECK(cut > before + 0.5);
    CHECK(dbg.query_results()[0].length == cut);
    CHECK(dbg.trace_version() > version);

    state.doc->undo();
    dbg.sync(state);
    CHECK(dbg.result()->length == before);
    CHECK(dbg.query_results()[0].length == before);
  }

  TEST_CASE("planner objects are kept while the world stays; the replay keeps a stepping user's step") {
    Scenario s = debugger_scenario();
    s.queries.push_back(s.queries[0]);
    s.queries.back().goal = test::cell_center(s, 20, 2);
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    const std::uint64_t created = dbg.planners_created();
    // The traced astar of the active query, and astar and bidirectional for the others.
    CHECK(created == 3);

    state.active_query = 2;  // same planner and class as query 0: no new planner object
    dbg.sync(state);
    CHECK(dbg.active_query() == 2u);
    CHECK(dbg.planners_created() == created);

    // A stepping user keeps the step number across a re-plan.
    state.active_query = 0;
    dbg.sync(state);
    dbg.seek(5);
    REQUIRE(state.doc->apply("add wall", [&](Scenario& sc) { sc.features.push_back(cutting_wall(sc)); }));
    dbg.sync(state);
    CHECK(dbg.step() == 5);
    // At the end, the new trace is shown at its end.
    dbg.seek(dbg.total_steps());
    state.doc->undo();
    dbg.sync(state);
    CHECK(dbg.step() == dbg.total_steps());

    // Another document: everything is planned again.
    state.open_document(std::make_unique<Document>(debugger_scenario()));
    dbg.sync(state);
    CHECK(dbg.planners_created() > created);
    CHECK(dbg.active_query() == 0u);
  }

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
    dbg.set_breakpoint(dbg.node_at(test::cell_center(state.doc->scenario(), 11, 5)));
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

  TEST_CASE("compare_planners: one row per registry entry; exact planners agree on cost") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    const std::vector<ComparisonRow> rows = dbg.compare_planners();
    REQUIRE(rows.size() == planner_registry().size());
    double exact_cost = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(rows[i].name);
      CHECK(rows[i].name == planner_registry()[i].name);
      CHECK(rows[i].status == SearchStatus::Found);
      CHECK(rows[i].expansions > 0);
      if (!rows[i].exact) continue;
      if (exact_cost < 0) exact_cost = rows[i].cost;
      CHECK(rows[i].cost == doctest::Approx(exact_cost).epsilon(1e-12));
    }
    CHECK(exact_cost == doctest::Approx(dbg.result()->cost).epsilon(1e-12));
    CHECK(dbg.last_comparison().size() == rows.size());
    // The active planner survives the comparison (node positions still work).
    REQUIRE(dbg.planner() != nullptr);
    CHECK(dbg.node_position(0).has_value());
  }

  TEST_CASE("a planner override re-plans the active query only") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    const double cost = dbg.result()->cost;
    const std::uint64_t astar_expansions = dbg.result()->stats.expansions;
    dbg.set_planner_override("dijkstra", {});
    dbg.sync(state);
    CHECK(dbg.active_planner() == "dijkstra");
    CHECK(dbg.result()->cost == doctest::Approx(cost).epsilon(1e-12));
    CHECK(dbg.result()->stats.expansions > astar_expansions);
    CHECK(dbg.query_results()[0].planner == "astar");  // per-query results use the queries' own planners

    dbg.set_planner_override("weighted_astar", {1e9});  // clamped to the ParamSpec range
    dbg.sync(state);
    REQUIRE(dbg.active_params().size() == 1);
    CHECK(dbg.active_params()[0] == find_planner("weighted_astar")->params[0].max_value);
    dbg.clear_planner_override();
    dbg.sync(state);
    CHECK(dbg.active_planner() == "astar");
    CHECK(dbg.result()->stats.expansions == astar_expansions);
  }

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

    const std::string wall = dbg.describe_node(dbg.node_at(test::cell_center(s, 11, 4)).value());
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

  TEST_CASE("a scenario without queries, and no document, leave the debugger empty") {
    Scenario s = debugger_scenario();
    s.queries.clear();
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    CHECK(dbg.world() != nullptr);
    CHECK_FALSE(dbg.active_query().has_value());
    CHECK(dbg.result() == nullptr);
    CHECK(dbg.total_steps() == 0);
    dbg.step(3);
    dbg.play(true);
    CHECK_FALSE(dbg.playing());
    CHECK(dbg.compare_planners().empty());
    CHECK(dbg.node_at({3.5, 3.5}).has_value());  // cells are still described
    render::DrawList out;
    dbg.paint(render::LayerSet::all(), out, 10);
    CHECK(out.empty());

    EditorState none;
    dbg.sync(none);
    CHECK(dbg.world() == nullptr);
  }

TEST_CASE("with a frame budget the search runs in slices and ends with the same result") {
  std::mt19937_64 rng(11);
  Scenario s = test::ascii_scenario(test::random_rows(rng, 200, 150, 0.2, true));
  s.queries = {Query{"long", test::cell_center(s, 0, 0), test::cell_center(s, 199, 149), 0, "astar", {}, std::nullopt}};
  // Make sure both ends are open ground.
  s.tiles->terrain.front() = 0;
  s.tiles->terrain.back() = 0;
  EditorState state = open_state(s);

  SearchDebugger whole;
  whole.sync(state);
  REQUIRE_FALSE(whole.searching());
  REQUIRE(whole.result() != nullptr);

  SearchDebugger sliced;
  sliced.set_frame_budget_ms(1e-6);  // one slice per call
  sliced.sync(state);
  CHECK(sliced.searching());
  CHECK(sliced.result() == nullptr);
  int frames = 0;
  while (sliced.searching() && frames < 100000) {
    sliced.update(0.016);
    ++frames;
  }
  REQUIRE_FALSE(sliced.searching());
  CHECK(frames > 1);
  REQUIRE(sliced.result() != nullptr);
  CHECK(sliced.result()->status == whole.result()->status);
  CHECK(sliced.result()->nodes == whole.result()->nodes);
  CHECK(sliced.result()->stats.expansions == whole.result()->stats.expansions);
  CHECK(sliced.total_steps() == whole.total_steps());
  CHECK(sliced.step() == sliced.total_steps());

  // An edit of the map while a sliced search runs restarts it in the new world; undo
  // brings the first answer back.
  const std::uint32_t cell = 200 * 70 + 100;
  const std::vector<TileChange> swamp{TileChange{cell, state.doc->scenario().tiles->terrain[cell], 3}};
  REQUIRE(state.doc->apply_tiles("swamp", swamp).ok());
  sliced.sync(state);
  CHECK(sliced.searching());
  sliced.update(0.016);
  state.doc->undo();
  sliced.sync(state);
  CHECK(sliced.searching());
  while (sliced.searching()) sliced.update(0.016);
  CHECK(sliced.result()->nodes == whole.result()->nodes);
  // Comparing planners finishes a running search first.
  REQUIRE(state.doc->apply_tiles("swamp", swamp).ok());
  sliced.sync(state);
  CHECK(sliced.searching());
  const auto rows = sliced.compare_planners();
  CHECK_FALSE(sliced.searching());
  CHECK(rows.size() == planner_registry().size());
  CHECK(sliced.result()->nodes == whole.result()->nodes);
}

TEST_CASE("edits nothing rasterises keep the trace and the other queries' answers") {
  Scenario s = debugger_scenario();
  s.queries.push_back(s.queries[0]);
  s.queries.back().goal = test::cell_center(s, 20, 2);
  EditorState state = open_state(s);
  SearchDebugger dbg;
  dbg.sync(state);
  dbg.seek(4);
  const std::uint64_t version = dbg.trace_version();
  const std::uint64_t planned = dbg.queries_planned();

  // A new name: nothing is planned again and the replay stays where the user left it.
  REQUIRE(state.doc->apply("rename", [](Scenario& sc) { sc.name = "renamed"; }).ok());
  dbg.sync(state);
  CHECK(dbg.trace_version() == version);
  CHECK(dbg.step() == 4);
  CHECK(dbg.queries_planned() == planned);

  // Moving query 2's goal plans query 2 only.
  REQUIRE(state.doc->apply("move goal", [&](Scenario& sc) { sc.queries[2].goal = test::cell_center(sc, 20, 9); }).ok());
  dbg.sync(state);
  CHECK(dbg.trace_version() == version);
  CHECK(dbg.queries_planned() == planned + 1);
  REQUIRE(dbg.query_results().size() == 3);
  CHECK(dbg.query_results()[2].status == SearchStatus::Found);

  // Deleting query 1 shifts the rows but plans nothing again.
  REQUIRE(state.doc->apply("delete", [](Scenario& sc) { sc.queries.erase(sc.queries.begin() + 1); }).ok());
  dbg.sync(state);
  CHECK(dbg.queries_planned() == planned + 1);
  REQUIRE(dbg.query_results().size() == 2);
  CHECK(dbg.query_results()[1].status == SearchStatus::Found);
  CHECK(dbg.trace_version() == version);

  // A wall plans everything again.
  REQUIRE(state.doc->apply("add wall", [](Scenario& sc) { sc.features.push_back(cutting_wall(sc)); }).ok());
  dbg.sync(state);
  CHECK(dbg.trace_version() > version);
  CHECK(dbg.queries_planned() == planned + 3);
}

TEST_CASE("after random edits, the debugger's answers equal a fresh debugger's, with and without a budget") {
  std::mt19937_64 rng(5);
  Scenario s = test::ascii_scenario(test::random_rows(rng, 80, 60, 0.2, true));
  std::uniform_int_distribution<int> ux(0, 79), uy(0, 59);
  for (int i = 0; i < 6; ++i) {
    s.queries.push_back(Query{"", test::cell_center(s, ux(rng), uy(rng)), test::cell_center(s, ux(rng), uy(rng)), 0,
                              i % 2 ? "bidirectional" : "astar", {}, std::nullopt});
  }
  EditorState state = open_state(s);
  SearchDebugger kept, sliced;
  sliced.set_frame_budget_ms(1e-6);
  for (int edit = 0; edit < 30; ++edit) {
    const int kind = int(rng() % 3);
    const int x = ux(rng), y = uy(rng);
    if (kind == 0) {  // paint a 3x3 patch
      const auto t = std::uint8_t(rng() % state.doc->scenario().terrains.size());
      std::vector<TileChange> changes;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3 && x + dx < 80 && y + dy < 60; ++dx) {
          const auto cell = std::uint32_t((y + dy) * 80 + x + dx);
          changes.push_back(TileChange{cell, state.doc->scenario().tiles->terrain[cell], t});
        }
      REQUIRE(state.doc->apply_tiles("paint", changes).ok());
    }
    const Status applied = state.doc->apply("edit",
                        [&](Scenario& sc) {
                          if (kind == 0) {
                            sc.name = "painted";
                          } else if (kind == 1) {  // a wall feature
                            Feature f = cutting_wall(sc);
                            f.id = std::uint32_t(1000 + edit);
                            f.shape.min = {x, y};
                            f.shape.max = {std::min(80.0, x + 1.0 + double(rng() % 12)), y + 1.0};
                            sc.features.push_back(f);
                          } else {  // move a query's start
                            sc.queries[rng() % sc.queries.size()].start = test::cell_center(sc, x, y);
                          }
                        });
    const std::string why = applied.ok() ? std::string() : applied.error().to_string();
    INFO(why);
    REQUIRE(applied.ok());
    if (edit % 7 == 3) state.doc->undo();
    state.active_query = std::size_t(rng() % 6);
    kept.sync(state);
    sliced.sync(state);
    int frames = 0;
    while (sliced.busy() && frames < 1000000) {
      sliced.update(0.016);
      ++frames;
    }
    SearchDebugger fresh;
    fresh.sync(state);
    REQUIRE(kept.query_results().size() == fresh.query_results().size());
    REQUIRE(sliced.query_results().size() == fresh.query_results().size());
    for (std::size_t i = 0; i < fresh.query_results().size(); ++i) {
      CAPTURE(i);
      for (const SearchDebugger* d : {&kept, &sliced}) {
        const QueryOutcome& a = d->query_results()[i];
        const QueryOutcome& b = fresh.query_results()[i];
        CHECK(a.status == b.status);
        CHECK(a.cost == b.cost);
        CHECK(a.length == b.length);
        CHECK(a.expansions == b.expansions);
        CHECK(a.pushes == b.pushes);
      }
    }
    REQUIRE(kept.result() != nullptr);
    REQUIRE(sliced.result() != nullptr);
    CHECK(kept.result()->nodes == fresh.result()->nodes);
    CHECK(sliced.result()->nodes == fresh.result()->nodes);
    CHECK(kept.total_steps() == fresh.total_steps());
    if (sliced.result()->status == SearchStatus::Found) CHECK(sliced.total_steps() == fresh.total_steps());
  }
  // Edits far from a search keep its answer: fewer searches than queries times edits.
  CHECK(kept.queries_planned() < 30 * 6);
  MESSAGE("searches run for 30 edits x 6 queries: " << kept.queries_planned());
}

TEST_CASE("a search is kept only while an edit changes no cell it expanded, no neighbour and no heuristic") {
  // A corridor search: A* expands the cells of row 5 between start and goal only.
  std::vector<std::string> rows(11, std::string(40, '.'));
  Scenario s = test::ascii_scenario(rows);
  s.terrains.push_back(TerrainType{"road", 'o', Color{200, 200, 200, 255}, {0.5}, ""});
  s.queries = {Query{"row", test::cell_center(s, 5, 5), test::cell_center(s, 30, 5), 0, "astar", {}, std::nullopt}};
  EditorState state = open_state(s);
  SearchDebugger dbg;
  dbg.sync(state);
  REQUIRE(dbg.result()->status == SearchStatus::Found);
  const auto paint = [&](int x, int y, const char* terrain) {
    const auto cell = std::uint32_t(y * 40 + x);
    const auto t = std::uint8_t(state.doc->scenario().find_terrain(terrain).value());
    REQUIRE(state.doc->apply_tiles("paint", {TileChange{cell, state.doc->scenario().tiles->terrain[cell], t}}).ok());
    dbg.sync(state);
  };
  const auto same_as_fresh = [&] {
    SearchDebugger fresh;
    fresh.sync(state);
    CHECK(dbg.result()->nodes == fresh.result()->nodes);
    CHECK(dbg.result()->stats.expansions == fresh.result()->stats.expansions);
    CHECK(dbg.result()->stats.pushes == fresh.result()->stats.pushes);
  };

  // Far from the corridor: kept.
  std::uint64_t version = dbg.trace_version();
  paint(20, 10, "wall");
  CHECK(dbg.trace_version() == version);
  same_as_fresh();

  // Two rows away, so that only the ring of cells around the edit touches the searched
  // row: the moves of row-5 cells do not change (a wall at distance 2 blocks nothing),
  // but the ring is conservative and re-plans; the answer is the same.
  paint(15, 7, "wall");
  same_as_fresh();

  // Diagonally next to the corridor: the diagonal moves of the expanded cells change.
  version = dbg.trace_version();
  const std::uint64_t pushes = dbg.result()->stats.pushes;
  paint(12, 6, "wall");
  CHECK(dbg.trace_version() > version);
  CHECK(dbg.result()->stats.pushes < pushes);
  same_as_fresh();

  // A cheaper terrain anywhere lowers every heuristic value: re-planned.
  version = dbg.trace_version();
  paint(38, 0, "road");
  CHECK(dbg.trace_version() > version);
  same_as_fresh();
}

}  // TEST_SUITE
