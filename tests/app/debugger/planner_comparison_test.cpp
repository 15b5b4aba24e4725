// Planner comparison: every registered planner on the active query.

#include "app/debugger/planner_comparison.hpp"

#include "app/debugger/search_debugger.hpp"
#include "planner/core/planner_registry.hpp"
#include "tests/app/debugger/debugger_fixtures.hpp"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "planner/referee/path_referee.hpp"
#include "render/search/comparison_painter.hpp"

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

  TEST_CASE("the comparison view: a colour per planner, every path drawn in it, a selected row highlighted") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    dbg.compare_planners();
    const PlannerComparison& cmp = dbg.comparison();
    const std::vector<ComparisonRow>& rows = cmp.rows();
    REQUIRE(rows.size() == planner_registry().size());
    std::set<std::tuple<int, int, int>> colours;
    std::size_t found = 0;
    const PlanningWorld& world = *dbg.world();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const ComparisonRow& r = rows[i];
      CAPTURE(r.name);
      colours.insert({r.color.r, r.color.g, r.color.b});
      CHECK(r.found() == r.terrain_cost.has_value());
      if (!r.found()) {
        CHECK(cmp.note(i).find(to_string(r.status)) == 0);  // not comparable: says why first
        continue;
      }
      ++found;
      // The terrain cost is the referee's, recomputed here by itself.
      const PlannerInfo& info = *find_planner(r.name);
      ParamValues defaults;
      for (const ParamSpec& spec : info.params) defaults.push_back(spec.default_value);
      const auto verdict =
          referee::referee_path(world, 0, r.points, referee::params_for(info, defaults, world, 0));
      REQUIRE(verdict);
      CHECK(*r.terrain_cost == doctest::Approx(verdict->cost).epsilon(1e-12));
      // Planners whose own cost is in the world's model agree with it (exact or not).
      if (r.cost_model == CostModel::Terrain && r.legal) CHECK(referee::costs_agree(r.cost, *r.terrain_cost));
      if (r.cost_model == CostModel::Other) CHECK(cmp.note(i).find("own cost: ") != std::string::npos);
    }
    CHECK(colours.size() == rows.size());  // one colour each (12 planners, 12 colours)
    REQUIRE(found >= 6);

    // Every path found on layer compared_paths, in its planner's colour, in row order.
    render::DrawList out;
    dbg.paint_comparison(render::LayerSet::defaults(), out);
    auto lines = out.find(render::Layer::ComparedPaths, render::PrimitiveKind::Polyline);
    REQUIRE(lines.size() == found);
    std::size_t k = 0;
    for (const ComparisonRow& r : rows) {
      if (!r.found()) continue;
      CHECK(lines[k]->color == r.color);
      CHECK(std::get<render::PolylinePrim>(lines[k]->shape).points == r.points);
      ++k;
    }

    // Selecting a row highlights its path (drawn last, opaque, wide) and makes it the baseline.
    const std::uint64_t version = cmp.version();
    std::size_t pick = 0;
    while (pick < rows.size() && (rows[pick].exact || !rows[pick].found())) ++pick;
    REQUIRE(pick < rows.size());
    dbg.select_compared(pick);
    CHECK(cmp.selected() == pick);
    CHECK(cmp.baseline() == pick);
    CHECK(cmp.version() != version);
    out.clear();
    dbg.paint_comparison(render::LayerSet::defaults(), out);
    lines = out.find(render::Layer::ComparedPaths, render::PrimitiveKind::Polyline);
    REQUIRE(lines.size() == found);
    CHECK(lines.back()->color.r == rows[pick].color.r);
    CHECK(lines.back()->color.a == 255);
    CHECK(std::get<render::PolylinePrim>(lines.back()->shape).thickness == render::kHighlightedPathWidth);
    CHECK(lines.front()->color.a == render::kDimmedAlpha);
    dbg.select_compared(rows.size());  // out of range: none
    CHECK_FALSE(cmp.selected().has_value());
    // Another active query forgets the rows and the selection.
    dbg.select_compared(pick);
    state.active_query = 1;
    dbg.sync(state);
    CHECK(cmp.rows().empty());
    CHECK_FALSE(cmp.selected().has_value());
  }

  TEST_CASE("the comparison view: A* through a one-cell gap, the radius-aware planners round, and why") {
    // A wall with a one-cell gap on the straight line; the way round is over the top, three
    // cells wide (room for the hybrid's cell centres at 0.8 m from the wall and the edge).
    Scenario s = ascii_scenario({
        "..............................",
        "..............................",
        "..............................",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............#...............",
        "..............................",
        "..............#...............",
        "..............#...............",
        "..............#...............",
    });
    s.classes[0].radius = 0.8;
    s.queries = {
        Query{"gap", cell_center(s, 2, 11), cell_center(s, 27, 11), 0, "astar", {}, std::nullopt, {}}};
    EditorState state = open_state(s);
    SearchDebugger dbg;
    dbg.sync(state);
    dbg.compare_planners();
    const PlannerComparison& cmp = dbg.comparison();
    const std::vector<ComparisonRow>& rows = cmp.rows();
    auto row = [&](const std::string& name) -> std::size_t {
      for (std::size_t i = 0; i < rows.size(); ++i)
        if (rows[i].name == name) return i;
      FAIL("no row " << name);
      return 0;
    };
    const ComparisonRow& astar = rows[row("astar")];
    const ComparisonRow& hybrid = rows[row("hybrid")];
    REQUIRE(astar.found());
    REQUIRE(hybrid.found());
    CHECK(astar.radius == 0);
    CHECK(hybrid.radius == doctest::Approx(0.8));
    CHECK(rows[row("visgraph")].radius == doctest::Approx(0.8));
    CHECK(astar.terrain_cost == doctest::Approx(25.0));
    // A* passes half a cell from the gap's walls, nearer than the 0.8 m hybrid keeps.
    CHECK(astar.min_clearance == doctest::Approx(0.5));
    REQUIRE(astar.narrowest.has_value());
    CHECK(astar.narrowest->x == doctest::Approx(14.5).epsilon(0.1));
    CHECK(*hybrid.terrain_cost > 25.0 * 1.2);
    // The visibility graph keeps its radius exactly.
    const ComparisonRow& visgraph = rows[row("visgraph")];
    REQUIRE(visgraph.found());
    CHECK(visgraph.min_clearance >= 0.8 - 1.0 / 512);
    CHECK(visgraph.legal);
    // The baseline is astar (the first exact planner that found a path).
    REQUIRE(cmp.baseline() == row("astar"));
    CHECK(cmp.note(row("astar")).empty());
    CHECK(cmp.note(row("hybrid")).find("radius: 0.80 m (astar: a point)") != std::string::npos);
    CHECK(cmp.note(row("tactical")).find("own cost: threat-weighted travel") != std::string::npos);
    CHECK(*cmp.relative_cost(row("hybrid")) > kMarkedDifference);
    // The reason, once per planner that differs a lot; the exact grid planners do not.
    const std::vector<std::string> why = cmp.differences();
    bool hybrid_reason = false;
    for (const std::string& line : why) {
      CAPTURE(line);
      CHECK(line.find("dijkstra") == std::string::npos);
      if (line.rfind("hybrid costs", 0) == 0) {
        hybrid_reason = true;
        CHECK(line.find("astar (radius: a point) passes 0.50 m from a wall") != std::string::npos);
        CHECK(line.find("a gap hybrid cannot take: it keeps its radius, 0.80 m") != std::string::npos);
        // The gap explains it: inexactness is not offered as the reason besides.
        CHECK(line.find("not exact") == std::string::npos);
      }
    }
    CHECK(hybrid_reason);
    // Two rows that agree need no reason.
    CHECK(explain_difference(astar, rows[row("dijkstra")]).empty());
  }

}  // TEST_SUITE

TEST_SUITE("debugger") {
  TEST_CASE("refresh_comparison: an edit runs again only the planners whose answers it may change") {
    EditorState state = open_state(debugger_scenario());
    SearchDebugger dbg;
    dbg.sync(state);
    const std::size_t n = planner_registry().size();
    dbg.compare_planners();
    REQUIRE(dbg.comparison().planner_runs() == n);
    CHECK_FALSE(dbg.comparison().needs_run());

    // Nothing planners read: nothing runs again.
    REQUIRE(state.doc->apply("rename", [](Scenario& sc) { sc.name = "renamed"; }).ok());
    dbg.sync(state);
    CHECK_FALSE(dbg.comparison().needs_run());
    dbg.refresh_comparison();
    CHECK(dbg.comparison().planner_runs() == n);

    // Rough ground in the far corner under the wall's bottom end: away from the query's
    // path over the top gap. Some planners' answers hold (they run no more), the others run
    // again, and the rows are those of a comparison run from scratch.
    REQUIRE(state.doc
                ->apply("corner",
                        [](Scenario& sc) {
                          Feature f;
                          f.id = 8;
                          f.name = "corner";
                          f.terrain = sc.find_terrain("rough").value();
                          f.shape.kind = ShapeKind::Rect;
                          f.shape.min = {23, 11};
                          f.shape.max = {24, 12};
                          sc.features.push_back(f);
                        })
                .ok());
    dbg.sync(state);
    CHECK(dbg.comparison().needs_run());
    dbg.refresh_comparison();
    const std::uint64_t after_corner = dbg.comparison().planner_runs();
    CHECK(after_corner > n);
    CHECK(after_corner < 2 * n);
    MESSAGE("planners run again after a far edit: " << after_corner - n << " of " << n);
    SearchDebugger fresh;
    fresh.sync(state);
    const std::vector<ComparisonRow> expected = fresh.compare_planners();
    const std::vector<ComparisonRow>& kept = dbg.comparison().rows();
    REQUIRE(kept.size() == expected.size());
    for (std::size_t i = 0; i < kept.size(); ++i) {
      CAPTURE(kept[i].name);
      CHECK(kept[i].status == expected[i].status);
      CHECK(kept[i].cost == doctest::Approx(expected[i].cost).epsilon(1e-12));
      CHECK(kept[i].points.size() == expected[i].points.size());
      CHECK(kept[i].terrain_cost.has_value() == expected[i].terrain_cost.has_value());
      if (kept[i].terrain_cost && expected[i].terrain_cost)
        CHECK(*kept[i].terrain_cost == doctest::Approx(*expected[i].terrain_cost).epsilon(1e-12));
    }

    // A wall across the top gap: every path found changes, so at least those planners
    // run again.
    std::uint64_t found = 0;
    for (const ComparisonRow& row : expected) found += row.found() ? 1 : 0;
    REQUIRE(state.doc->apply("add wall", [](Scenario& sc) { sc.features.push_back(cutting_wall(sc)); }).ok());
    dbg.sync(state);
    dbg.refresh_comparison();
    CHECK(dbg.comparison().planner_runs() >= after_corner + found);
    CHECK(dbg.comparison().planner_runs() <= after_corner + n);
    const std::uint64_t after_wall = dbg.comparison().planner_runs();

    // Another active query: all of them run again.
    state.active_query = 1;
    dbg.sync(state);
    CHECK(dbg.comparison().rows().empty());
    dbg.refresh_comparison();
    CHECK(dbg.comparison().planner_runs() == after_wall + n);
  }
}
