// The search debugger as its callers drive it: the planner override, an empty scenario
// and no document, and a search that runs in frame-budget slices.

#include "app/debugger/search_debugger.hpp"
#include "app/editor/structure_cache.hpp"

#include "planner/core/planner_registry.hpp"
#include "planner/scenario/scenario_io.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

TEST_SUITE("debugger") {
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

  TEST_CASE("a breakpoint belongs to its planner: a planner switch clears it, a node it lacks is none") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    // A cell near the goal of the astar query: its id is the cell's row-major index.
    const std::optional<NodeId> cell = dbg.node_at(cell_center(state.doc->scenario(), 20, 6));
    REQUIRE(cell.has_value());
    dbg.set_breakpoint(cell);
    REQUIRE(dbg.breakpoint() == cell);
    dbg.set_planner_override("dijkstra", {});
    dbg.sync(state);
    // Dijkstra's nodes are cells too, but a breakpoint is set on one planner's nodes.
    CHECK_FALSE(dbg.breakpoint().has_value());
    dbg.set_planner_override("visgraph", {});
    dbg.sync(state);
    dbg.set_breakpoint(NodeId(100000));  // more than the graph's points
    CHECK_FALSE(dbg.breakpoint().has_value());
    CHECK_FALSE(dbg.breakpoint_step().has_value());
  }

  TEST_CASE("the planner override stays with its document: another document opens without it") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    CHECK(dbg.override_note().empty());
    dbg.set_planner_override("dijkstra", {});
    dbg.sync(state);
    REQUIRE(dbg.active_planner() == "dijkstra");
    CHECK(dbg.override_note() == "planner: dijkstra (override; query asks astar)");

    // Edits of the same document keep it.
    REQUIRE(state.doc->apply("add wall", [&](Scenario& s) { s.features.push_back(cutting_wall(s)); }));
    dbg.sync(state);
    CHECK(dbg.planner_override() == "dijkstra");
    CHECK(dbg.active_planner() == "dijkstra");

    // Another document (a new doc_serial): the query's own planner again.
    const std::uint64_t serial = state.doc_serial;
    state.open_document(std::make_unique<Document>(debugger_scenario()));
    REQUIRE(state.doc_serial != serial);
    dbg.sync(state);
    CHECK(dbg.planner_override().empty());
    CHECK(dbg.override_note().empty());
    CHECK(dbg.active_planner() == "astar");

    // Only the parameters: said so.
    state.active_query = 1;
    dbg.set_planner_override("bidirectional", {});
    dbg.sync(state);
    CHECK(dbg.override_note() == "planner: bidirectional, parameters overridden (query asks its own)");
    state.active_query = 0;

    // Closing the document and opening another one also drops it.
    dbg.set_planner_override("dijkstra", {});
    dbg.sync(state);
    REQUIRE(dbg.active_planner() == "dijkstra");
    state.doc.reset();
    dbg.sync(state);
    state.open_document(std::make_unique<Document>(debugger_scenario()));
    dbg.sync(state);
    CHECK(dbg.planner_override().empty());
    CHECK(dbg.active_planner() == "astar");
  }

  TEST_CASE("the all_paths layer draws one polyline per other query's path found, none when it is off") {
    Scenario s = debugger_scenario();
    s.queries.push_back(
        Query{"third", cell_center(s, 0, 0), cell_center(s, 23, 11), 0, "astar", {}, std::nullopt, {}});
    // A goal inside the wall: no path, so nothing to draw for it.
    s.queries.push_back(
        Query{"", cell_center(s, 1, 1), cell_center(s, 11, 4), 0, "astar", {}, std::nullopt, {}});
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    const std::vector<QueryOutcome>& rows = dbg.query_results();
    REQUIRE(rows.size() == 4);
    REQUIRE(rows[1].status == SearchStatus::Found);
    REQUIRE(rows[2].status == SearchStatus::Found);
    REQUIRE(rows[3].status != SearchStatus::Found);
    CHECK(rows[1].points.size() >= 2);
    CHECK(rows[3].points.empty());

    render::LayerSet layers = render::LayerSet::defaults();
    layers.set(render::Layer::AllPaths);
    render::DrawList out;
    dbg.paint(layers, out);
    // Queries 2 and 3 (indexes 1 and 2); the active query's path is the path layer's.
    const auto paths = out.find(render::Layer::AllPaths, render::PrimitiveKind::Polyline);
    REQUIRE(paths.size() == 2);
    CHECK(std::get<render::PolylinePrim>(paths[0]->shape).points == rows[1].points);
    CHECK(std::get<render::PolylinePrim>(paths[1]->shape).points == rows[2].points);
    CHECK(out.count(render::Layer::Path, render::PrimitiveKind::Polyline) == 1);
    std::vector<std::string> labels;
    for (const render::Primitive* p : out.find(render::Layer::Labels, render::PrimitiveKind::Text)) {
      labels.push_back(std::get<render::TextPrim>(p->shape).text);
    }
    CHECK(labels == std::vector<std::string>{"query 2", "query 3"});

    // Off (the default): none.
    out.clear();
    dbg.paint(render::LayerSet::defaults(), out);
    CHECK(out.count(render::Layer::AllPaths) == 0);
    CHECK(out.count(render::Layer::Path) == 1);

    // With an override the active query's own answer is one of the others too.
    const std::uint64_t version = dbg.results_version();
    dbg.set_planner_override("dijkstra", {});
    dbg.sync(state);
    CHECK(dbg.results_version() != version);
    out.clear();
    dbg.paint(layers, out);
    CHECK(out.count(render::Layer::AllPaths, render::PrimitiveKind::Polyline) == 3);
  }

  TEST_CASE("a query planned as a faction has the path on the world as it is beside it (all_paths)") {
    const Result<Scenario> s = load_scenario(std::string(PATHSCOPE_SOURCE_DIR) + "/maps/fog_of_war.json");
    REQUIRE(s.ok());
    EditorState state = open_state(*s);
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.active_query() == std::size_t{0});  // blue, as it believes
    const std::vector<QueryOutcome>& rows = dbg.query_results();
    REQUIRE(rows.size() == 3);
    REQUIRE(rows[1].status == SearchStatus::Found);  // the same trip, as it is
    const std::vector<Vec2>& truth = dbg.truth_path();
    CHECK(truth == rows[1].points);
    CHECK(polyline_length(truth) == doctest::Approx(104.0));
    CHECK(polyline_length(truth) < dbg.result()->length - 50);  // blue's detour is long

    render::LayerSet layers = render::LayerSet::defaults();
    layers.set(render::Layer::AllPaths);
    render::DrawList out;
    dbg.paint(layers, out);
    std::vector<std::string> labels;
    for (const render::Primitive* p : out.find(render::Layer::Labels, render::PrimitiveKind::Text)) {
      labels.push_back(std::get<render::TextPrim>(p->shape).text);
    }
    CHECK(std::find(labels.begin(), labels.end(), "query 1 as it is") != labels.end());
    bool drawn = false;
    for (const render::Primitive* p : out.find(render::Layer::AllPaths, render::PrimitiveKind::Polyline)) {
      drawn = drawn || std::get<render::PolylinePrim>(p->shape).points == truth;
    }
    CHECK(drawn);

    // A query without a faction has none.
    state.active_query = 1;
    dbg.sync(state);
    CHECK(dbg.truth_path().empty());
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
    Scenario s = ascii_scenario(random_rows(rng, 200, 150, 0.2, true));
    s.queries = {
        Query{"long", cell_center(s, 0, 0), cell_center(s, 199, 149), 0, "astar", {}, std::nullopt, {}}};
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

  TEST_CASE("an unknown planner is reported once, with the known names, for the override and for a query") {
    Scenario s = debugger_scenario();
    s.queries[1].planner = "teleport";
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.set_planner_override("nope", {});
    dbg.sync(state);
    CHECK(dbg.result() == nullptr);
    CHECK(dbg.error().find("unknown planner \"nope\" (known: \"astar\"") != std::string::npos);
    dbg.clear_planner_override();
    dbg.sync(state);
    CHECK(dbg.error().empty());
    REQUIRE(dbg.query_results().size() == 2);
    CHECK(dbg.query_results()[1].status == SearchStatus::Invalid);
    CHECK(dbg.query_results()[1].message.find("queries[1].planner: unknown planner \"teleport\" (known: ") ==
          0);
    state.active_query = 1;
    dbg.sync(state);
    CHECK(dbg.error() == dbg.query_results()[1].message);
  }

}  // TEST_SUITE

TEST_SUITE("debugger") {
  TEST_CASE("structure cache: a frame with nothing changed, a step or a small pan reuse the list") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    StructureCache cache;
    std::size_t painted_primitives = 0;
    // The editor's frame: key from the document, the search and the layers.
    const auto frame = [&](const Box2& view) {
      const StructureKey key{state.doc_serial, state.doc->revision(), dbg.trace_version(),
                             render::LayerSet::all().bits(), -1};
      return cache.update(key, view, [&](const Box2& region, render::DrawList& out) {
        dbg.paint_structure(render::LayerSet::all(), region, out);
        painted_primitives = out.size();
      });
    };
    const Box2 view{{4, 2}, {12, 8}};
    CHECK(frame(view));
    CHECK(cache.paints() == 1);
    REQUIRE_FALSE(cache.list().empty());
    CHECK(cache.list().size() == painted_primitives);
    // The region: the view grown by half its size (8 x 6 m) on every side.
    CHECK(cache.region().lo.x == doctest::Approx(0));
    CHECK(cache.region().lo.y == doctest::Approx(-1));
    CHECK(cache.region().hi.x == doctest::Approx(16));
    CHECK(cache.region().hi.y == doctest::Approx(11));
    const render::DrawList* list = &cache.list();
    const std::size_t size = cache.list().size();

    // A second frame, nothing changed: the same list, nothing painted.
    CHECK_FALSE(frame(view));
    CHECK(cache.paints() == 1);
    CHECK(&cache.list() == list);
    CHECK(cache.list().size() == size);
    // Stepping the replay does not change the planner's structure.
    dbg.seek(3);
    CHECK_FALSE(frame(view));
    // A pan that stays inside the region, a zoom within a factor of 2: kept.
    CHECK_FALSE(frame(Box2{{7, 4}, {15, 10}}));
    CHECK_FALSE(frame(Box2{{5, 3}, {10, 7}}));
    CHECK(cache.paints() == 1);
    // Out of the region, or zoomed in 4 times: painted again.
    CHECK(frame(Box2{{12, 2}, {20, 8}}));
    CHECK(frame(Box2{{13, 3}, {15, 4.5}}));
    CHECK(cache.paints() == 3);
    // A wall: the world and the search change, the structure is painted again.
    REQUIRE(state.doc->apply("add wall", [](Scenario& sc) { sc.features.push_back(cutting_wall(sc)); }).ok());
    dbg.sync(state);
    CHECK(frame(Box2{{13, 3}, {15, 4.5}}));
    CHECK(cache.paints() == 4);
    CHECK_FALSE(frame(Box2{{13, 3}, {15, 4.5}}));
  }
}
