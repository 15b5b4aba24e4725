// The re-plan scheduler: answers an edit cannot change are kept, the others planned again
// (in slices with a frame budget) and equal to a fresh debugger's; the validity decision
// and the planner choice with its error messages.

#include "app/debugger/replan_scheduler.hpp"

#include "app/debugger/search_debugger.hpp"
#include "planner/core/planner_registry.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include "planner/grid/grid_dependency.hpp"

#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

TEST_SUITE("debugger") {
  TEST_CASE("edits nothing rasterises keep the trace and the other queries' answers") {
    Scenario s = debugger_scenario();
    s.queries.push_back(s.queries[0]);
    s.queries.back().goal = cell_center(s, 20, 2);
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
    REQUIRE(state.doc->apply("move goal", [&](Scenario& sc) { sc.queries[2].goal = cell_center(sc, 20, 9); })
                .ok());
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

  TEST_CASE(
      "after random edits, the debugger's answers equal a fresh debugger's, with and without a budget") {
    std::mt19937_64 rng(5);
    Scenario s = ascii_scenario(random_rows(rng, 80, 60, 0.2, true));
    std::uniform_int_distribution<int> ux(0, 79), uy(0, 59);
    for (int i = 0; i < 6; ++i) {
      s.queries.push_back(Query{"",
                                cell_center(s, ux(rng), uy(rng)),
                                cell_center(s, ux(rng), uy(rng)),
                                0,
                                i % 2 ? "bidirectional" : "astar",
                                {},
                                std::nullopt,
                                {}});
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
      const Status applied = state.doc->apply("edit", [&](Scenario& sc) {
        if (kind == 0) {
          sc.name = "painted";
        } else if (kind == 1) {  // a wall feature
          Feature f = cutting_wall(sc);
          f.id = std::uint32_t(1000 + edit);
          f.shape.min = {x, y};
          f.shape.max = {std::min(80.0, x + 1.0 + double(rng() % 12)), y + 1.0};
          sc.features.push_back(f);
        } else {  // move a query's start
          sc.queries[rng() % sc.queries.size()].start = cell_center(sc, x, y);
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

  TEST_CASE(
      "a search is kept only while an edit changes no cell it expanded, no neighbour and no heuristic") {
    // A corridor search: A* expands the cells of row 5 between start and goal only.
    std::vector<std::string> rows(11, std::string(40, '.'));
    Scenario s = ascii_scenario(rows);
    s.terrains.push_back(TerrainType{"road", 'o', Color{200, 200, 200, 255}, {0.5}, ""});
    s.queries = {Query{"row", cell_center(s, 5, 5), cell_center(s, 30, 5), 0, "astar", {}, std::nullopt, {}}};
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    REQUIRE(dbg.result()->status == SearchStatus::Found);
    const auto paint = [&](int x, int y, const char* terrain) {
      const auto cell = std::uint32_t(y * 40 + x);
      const auto t = std::uint8_t(state.doc->scenario().find_terrain(terrain).value());
      REQUIRE(
          state.doc->apply_tiles("paint", {TileChange{cell, state.doc->scenario().tiles->terrain[cell], t}})
              .ok());
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

  TEST_CASE("still_valid: an answer holds while a change misses its expanded cells and the heuristic scale") {
    const Scenario s = debugger_scenario();
    PlanningWorld world(s);
    auto planner = find_planner("astar")->create(QueryContext{world, 0, std::nullopt, {}});
    REQUIRE(find_path(*planner, PathQuery{s.queries[0].start, s.queries[0].goal}).status ==
            SearchStatus::Found);
    const AnswerDependency dep = ReplanScheduler::dependency_of(*planner);
    REQUIRE(dep != nullptr);
    const auto* cells = dynamic_cast<const ExpandedCellsDependency*>(dep.get());
    REQUIRE(cells != nullptr);
    const std::vector<std::uint64_t>& bits = cells->bits();
    const auto expanded = [&](int x, int y) {
      const std::uint32_t c = world.grid(0).index(x, y);
      return (bits[c >> 6] >> (c & 63) & 1) != 0;
    };
    // The search from (1, 5) to (22, 6) never looks at the bottom-left corner.
    REQUIRE_FALSE(expanded(0, 10));
    REQUIRE_FALSE(expanded(1, 10));
    REQUIRE_FALSE(expanded(0, 11));
    REQUIRE_FALSE(expanded(1, 11));
    REQUIRE(expanded(2, 5));
    const auto paint = [&](Scenario& next, int x, int y, const char* terrain) {
      next.tiles->terrain[std::size_t(y * next.tiles->width + x)] =
          std::uint8_t(next.find_terrain(terrain).value());
      return world.update(next).value();
    };
    Scenario next = s;
    const WorldChange far = paint(next, 0, 11, "wall");
    CHECK(ReplanScheduler::still_valid(dep, far));
    const WorldChange near = paint(next, 2, 4, "wall");  // its ring holds expanded cells
    CHECK_FALSE(ReplanScheduler::still_valid(dep, near));
    WorldChange rebuilt = far;
    rebuilt.rebuilt = true;
    CHECK_FALSE(ReplanScheduler::still_valid(dep, rebuilt));
    CHECK_FALSE(ReplanScheduler::still_valid(nullptr, far));

    // A cheaper terrain far away changes the heuristic's scale: nothing is kept.
    Scenario roads = s;
    roads.terrains.push_back(TerrainType{"road", 'o', Color{200, 200, 200, 255}, {0.5}, ""});
    PlanningWorld road_world(roads);
    auto road_planner = find_planner("astar")->create(QueryContext{road_world, 0, std::nullopt, {}});
    find_path(*road_planner, PathQuery{s.queries[0].start, s.queries[0].goal});
    const AnswerDependency scaled = ReplanScheduler::dependency_of(*road_planner);
    REQUIRE(scaled != nullptr);
    Scenario road_far = roads;
    road_far.tiles->terrain[std::size_t(11 * road_far.tiles->width)] =
        std::uint8_t(roads.terrains.size() - 1);
    const WorldChange road = road_world.update(road_far).value();
    REQUIRE_FALSE(road.rebuilt);
    CHECK_FALSE(ReplanScheduler::still_valid(scaled, road));

    // Only found paths are kept: a goal in the wall leaves no dependency.
    find_path(*planner, PathQuery{s.queries[0].start, cell_center(s, 11, 5)});
    CHECK(ReplanScheduler::dependency_of(*planner) == nullptr);
  }

  TEST_CASE("ReplanScheduler on its own: every query planned in slices, kept while the problem stays") {
    Scenario s = debugger_scenario();
    s.queries.push_back(s.queries[0]);
    s.queries.back().planner = "nope";
    const PlanningWorld world(s);
    PlannerCache cache;
    ReplanScheduler scheduler;
    scheduler.schedule(world.scenario(), std::nullopt);
    CHECK(scheduler.pending() == 3);
    CHECK(scheduler.busy());
    int calls = 0;
    while (!scheduler.run(world, cache, FrameBudget{DebugClock::now(), 1e-6}) && calls < 100000) ++calls;
    CHECK_FALSE(scheduler.busy());
    REQUIRE(scheduler.outcomes().size() == 3);
    CHECK(scheduler.outcomes()[0].status == SearchStatus::Found);
    CHECK(scheduler.outcomes()[1].status == SearchStatus::Found);
    CHECK(scheduler.outcomes()[2].status == SearchStatus::Invalid);
    CHECK(scheduler.outcomes()[2].message.find("queries[2].planner: unknown planner \"nope\" (known: ") == 0);
    CHECK(scheduler.queries_planned() == 2);

    // The same problems in the same world: nothing to plan; the traced row is left out.
    scheduler.schedule(world.scenario(), 0);
    CHECK(scheduler.pending() == 0);
    CHECK(scheduler.outcomes()[2].status == SearchStatus::Invalid);  // kept too: it would fail again
    CHECK(scheduler.outcomes()[0].status == SearchStatus::Idle);
    CHECK(scheduler.outcomes()[1].status == SearchStatus::Found);
    QueryOutcome traced;
    traced.planner = "astar";
    traced.status = SearchStatus::Found;
    traced.traced = true;
    scheduler.take_traced_row(0, traced, false, nullptr);
    CHECK(scheduler.outcomes()[0].traced);

    // Another world: everything again.
    scheduler.world_replaced();
    scheduler.schedule(world.scenario(), std::nullopt);
    CHECK(scheduler.pending() == 3);
    scheduler.clear();
    CHECK(scheduler.outcomes().empty());
    CHECK_FALSE(scheduler.busy());
  }

  TEST_CASE("choose_query_planner: own planner, override, and errors that name the field") {
    Scenario s = debugger_scenario();
    s.queries[0].planner = "weighted_astar";
    s.queries[0].params = {PlannerParam{"weight", 2.0}};
    Result<PlannerChoice> own = choose_query_planner(s, 0);
    REQUIRE(own.ok());
    CHECK(own->info->name == "weighted_astar");
    CHECK(own->params == ParamValues{2.0});

    Result<PlannerChoice> over = choose_query_planner(s, 0, "weighted_astar", {5.0});
    REQUIRE(over.ok());
    CHECK(over->params == ParamValues{5.0});
    Result<PlannerChoice> other = choose_query_planner(s, 0, "dijkstra", {});
    REQUIRE(other.ok());
    CHECK(other->info->name == "dijkstra");

    Result<PlannerChoice> unknown = choose_query_planner(s, 0, "nope", {});
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().to_string().find("planner override: unknown planner \"nope\" (known: \"") == 0);
    s.queries[1].planner = "teleport";
    Result<PlannerChoice> bad = choose_query_planner(s, 1);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where == "queries[1].planner");
    s.queries[1].planner = "astar";
    s.queries[1].movement_class = 9;
    Result<PlannerChoice> no_class = choose_query_planner(s, 1);
    REQUIRE_FALSE(no_class.ok());
    CHECK(no_class.error().to_string() == "queries[1].movement_class: no such movement class");
  }

}  // TEST_SUITE
