// Planner comparison: every registered planner on the active query.

#include "app/debugger/planner_comparison.hpp"

#include "app/debugger/search_debugger.hpp"
#include "planner/core/planner_registry.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace pathscope;
using namespace pathscope::app;
using namespace pathscope::test;

TEST_SUITE("debugger") {
  TEST_CASE("compare_planners: one row per registry entry, exact planners agree on cost") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    const std::vector<ComparisonRow> rows = dbg.compare_planners();
    REQUIRE(rows.size() == planner_registry().size());
    double exact_cost = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(rows[i].name);
      CHECK(rows[i].name == planner_registry()[i].name);
      // The map has terrain costs, which the jump point searches refuse.
      if (rows[i].name == "jps" || rows[i].name == "jps_block" || rows[i].name == "jps_plus") {
        CHECK(rows[i].status == SearchStatus::Invalid);
        CHECK(rows[i].message.find("use astar") != std::string::npos);
        continue;
      }
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

  TEST_CASE("compare_planners: on ground of one cost, jps agrees with the other exact planners") {
    Scenario s = debugger_scenario();
    for (std::uint8_t& t : s.tiles->terrain) {
      if (s.terrains[t].name != "wall") t = 0;  // rough and swamp become ground
    }
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    const std::vector<ComparisonRow> rows = dbg.compare_planners();
    double exact_cost = -1;
    bool jps = false;
    for (const ComparisonRow& row : rows) {
      CAPTURE(row.name);
      if (!row.exact) continue;
      REQUIRE(row.status == SearchStatus::Found);
      if (exact_cost < 0) exact_cost = row.cost;
      CHECK(row.cost == doctest::Approx(exact_cost).epsilon(1e-12));
      jps = jps || row.name == "jps";
    }
    CHECK(jps);
  }

  TEST_CASE("PlannerComparison borrows cached planners with default parameters and never replaces one") {
    const Scenario s = debugger_scenario();
    const PlanningWorld world(s);
    PlannerCache cache;
    // A cached batch planner with other parameters must survive the comparison.
    Planner* custom = cache.get(world, *find_planner("weighted_astar"), 0, {4.0}, PlannerRole::Batch, true);
    const std::uint64_t created = cache.created();
    PlannerComparison comparison;
    const std::vector<ComparisonRow>& rows = comparison.run(world, s.queries[0], cache);
    CHECK(rows.size() == planner_registry().size());
    CHECK(cache.created() == created + planner_registry().size());  // none had the defaults
    CHECK(cache.get(world, *find_planner("weighted_astar"), 0, {4.0}, PlannerRole::Batch, false) == custom);
    CHECK(comparison.rows().size() == rows.size());

    Query no_class = s.queries[0];
    no_class.movement_class = 5;
    CHECK(comparison.run(world, no_class, cache).empty());
    comparison.run(world, s.queries[0], cache);
    comparison.clear();
    CHECK(comparison.rows().empty());
  }

}  // TEST_SUITE
