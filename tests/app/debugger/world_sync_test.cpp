// World sync: the world follows the document (edits in place, undo, another document),
// planner objects live as long as the world, and the facade re-plans after edits.

#include "app/debugger/world_sync.hpp"

#include "app/debugger/search_debugger.hpp"
#include "planner/core/planner_registry.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

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

  TEST_CASE("planner objects are kept while the world stays, the replay keeps a stepping user's step") {
    Scenario s = debugger_scenario();
    s.queries.push_back(s.queries[0]);
    s.queries.back().goal = cell_center(s, 20, 2);
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

  TEST_CASE("WorldSync updates the same document's world in place and builds another for another document") {
    EditorState state = open_state(debugger_scenario());
    WorldSync sync;
    CHECK(sync.world() == nullptr);
    CHECK(sync.outdated(state));
    WorldSyncResult r = sync.sync(state);
    CHECK(r.changed);
    CHECK(r.replaced);
    const PlanningWorld* world = sync.world();
    REQUIRE(world != nullptr);
    CHECK_FALSE(sync.outdated(state));
    CHECK_FALSE(sync.sync(state).changed);  // up to date: nothing

    const PlannerInfo& astar = *find_planner("astar");
    Planner* p = sync.planners().get(*world, astar, 0, {}, PlannerRole::Batch, true);
    REQUIRE(p != nullptr);
    CHECK(sync.planners().created() == 1);

    // A wall: the world is updated in place, the changed cells are reported and the
    // planners borrowing it are kept.
    REQUIRE(state.doc->apply("add wall", [](Scenario& s) { s.features.push_back(cutting_wall(s)); }).ok());
    CHECK(sync.outdated(state));
    r = sync.sync(state);
    CHECK(r.changed);
    CHECK_FALSE(r.replaced);
    CHECK_FALSE(r.planners_dropped);
    CHECK_FALSE(r.change.rebuilt);
    CHECK(r.change.cells.contains(11, 0));
    CHECK(sync.world() == world);
    CHECK(sync.planners().get(*world, astar, 0, {}, PlannerRole::Batch, true) == p);
    CHECK(sync.planners().created() == 1);

    // A new name: the document changed, nothing planners read did.
    REQUIRE(state.doc->apply("rename", [](Scenario& s) { s.name = "renamed"; }).ok());
    r = sync.sync(state);
    CHECK(r.changed);
    CHECK(r.change.none());
    CHECK_FALSE(r.planners_dropped);

    // Another movement class table: the world rebuilds, the planners are dropped.
    REQUIRE(state.doc->apply("faster", [](Scenario& s) { s.classes[0].speed = 2.0; }).ok());
    r = sync.sync(state);
    CHECK(r.change.rebuilt);
    CHECK(r.planners_dropped);

    // Another document: a new world.
    state.open_document(std::make_unique<Document>(debugger_scenario()));
    CHECK(sync.outdated(state));
    r = sync.sync(state);
    CHECK(r.replaced);
    CHECK(r.planners_dropped);
    REQUIRE(sync.world() != nullptr);
    sync.planners().get(*sync.world(), astar, 0, {}, PlannerRole::Batch, true);
    CHECK(sync.planners().created() == 2);  // counted across worlds

    sync.clear();
    CHECK(sync.world() == nullptr);
    CHECK(sync.outdated(state));
  }

  TEST_CASE(
      "PlannerCache: one planner per name, class and role, other parameters replace it only when allowed") {
    const PlanningWorld world(debugger_scenario());
    const PlannerInfo& weighted = *find_planner("weighted_astar");
    PlannerCache cache;
    Planner* batch = cache.get(world, weighted, 0, {1.5}, PlannerRole::Batch, true);
    Planner* active = cache.get(world, weighted, 0, {1.5}, PlannerRole::Active, true);
    REQUIRE(batch != nullptr);
    REQUIRE(active != nullptr);
    CHECK(batch != active);
    CHECK(cache.get(world, weighted, 0, {1.5}, PlannerRole::Batch, false) == batch);
    CHECK(cache.get(world, weighted, 0, {3.0}, PlannerRole::Batch, false) == nullptr);
    CHECK(cache.created() == 2);
    CHECK(cache.get(world, weighted, 0, {3.0}, PlannerRole::Batch, true) != nullptr);
    CHECK(cache.created() == 3);
    const std::unique_ptr<Planner> temporary = cache.make(world, weighted, 0, {2.0});
    CHECK(temporary != nullptr);
    CHECK(cache.created() == 4);
    cache.clear();
    CHECK(cache.created() == 4);
  }

}  // TEST_SUITE
