// The navmesh planner's trace on ground of several costs: every search of a query, the
// further ones too, reports g in metres of world cost. A referee of its own recomputes each
// pushed or improved polygon's g from the trace's parent and the mesh's geometry: Detour
// places a polygon's node at the midpoint of the portal it was first reached through (the
// search's origin for its first polygon), and a leg between two nodes costs its length
// times the multiplier of the polygon it crosses (the scenario's terrain under the
// polygon); the search's last polygon adds the leg to the search's end point. h is the
// straight line to that end point times the smallest multiplier, at most.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "planner/core/search_trace.hpp"
#include "planner/navmesh/navmesh_planner.hpp"
#include "planner/world/planning_world.hpp"
#include "tests/test_maps.hpp"
#include "tests/trace_replay_check.hpp"

using namespace pathscope;
using pathscope::test::cell_center;

namespace {

// Radius 0 and one tile: each polygon has one node in Detour's pool, and polygons sharing
// an edge share its two vertices.
NavmeshParams one_tile() {
  NavmeshParams p;
  p.radius = 0;
  p.tile_cells = 64;
  return p;
}

// Metres between two points.
double metres(Vec2 a, Vec2 b) { return std::hypot(b.x - a.x, b.y - a.y); }

// The terrain multiplier under a polygon: the scenario's cell under its vertex mean (inside
// it, the polygon being convex; a polygon never mixes costs).
double polygon_multiplier(const Scenario& s, std::span<const Vec2> polygon) {
  Vec2 m{0, 0};
  for (const Vec2 v : polygon) m += v;
  m /= double(polygon.size());
  const TileGrid& t = *s.tiles;
  const int x = int(std::floor(m.x / s.world.cell_size)), y = int(std::floor(m.y / s.world.cell_size));
  return *s.terrains[t.terrain[std::size_t(y * t.width + x)]].cost[0];
}

// The midpoint of the edge polygons a and b share (two vertices of both).
Vec2 shared_edge_midpoint(std::span<const Vec2> a, std::span<const Vec2> b) {
  std::vector<Vec2> common;
  for (const Vec2 v : a) {
    for (const Vec2 w : b) {
      if (v == w) common.push_back(v);
    }
  }
  REQUIRE(common.size() == 2);
  return (common[0] + common[1]) * 0.5;
}

// Checks every Push and Relax event of every search of `trace` (a query of `planner` on
// `s`, Found); returns how many were checked in searches after the first.
int check_trace_costs(const Scenario& s, const NavmeshPlanner& planner, const SearchTrace& trace,
                      const PathResult& r) {
  double min_multiplier = std::numeric_limits<double>::infinity();
  for (const TerrainType& t : s.terrains) {
    if (t.cost[0]) min_multiplier = std::min(min_multiplier, *t.cost[0]);
  }
  const PathQuery& q = trace.query();
  int search = -1, later_checked = 0;
  std::map<NodeId, Vec2> pos;  // the current search's node positions
  std::map<NodeId, double> g;  // and g, as last reported
  Vec2 end{0, 0};
  NodeId end_node = kNoNode;
  for (const SearchEvent& e : trace.events()) {
    if (e.kind != SearchEventKind::Push && e.kind != SearchEventKind::Relax) continue;
    if (e.parent == kNoNode) {
      // A search's first polygon: from the start, then from the goal (the second search).
      ++search;
      REQUIRE(search < 2);
      const bool backward = search == 1;
      pos.clear();
      g.clear();
      pos[e.node] = backward ? q.goal : q.start;
      end = backward ? q.start : q.goal;
      end_node = backward ? r.nodes.front() : r.nodes.back();
      CHECK(e.g == 0);
      g[e.node] = 0;
      continue;
    }
    CAPTURE(search);
    CAPTURE(e.node);
    REQUIRE(pos.count(e.parent) == 1);
    const std::span<const Vec2> parent_poly = planner.node_geometry(e.parent).polygon;
    const std::span<const Vec2> poly = planner.node_geometry(e.node).polygon;
    if (!pos.count(e.node)) pos[e.node] = shared_edge_midpoint(parent_poly, poly);
    double expected =
        g.at(e.parent) + metres(pos[e.parent], pos[e.node]) * polygon_multiplier(s, parent_poly);
    const double to_end = metres(pos[e.node], end);
    if (e.node == end_node) {
      expected += to_end * polygon_multiplier(s, poly);
      CHECK(e.h == 0);
    } else {
      CHECK(e.h >= 0);
      CHECK(e.h <= to_end * min_multiplier + 1e-4);
    }
    CHECK(e.g == doctest::Approx(expected).epsilon(1e-5));
    g[e.node] = e.g;
    if (search > 0) ++later_checked;
  }
  return later_checked;
}

// The result's stat "searches".
double searches_run(const PathResult& r) {
  for (const auto& [name, value] : r.stats.extra) {
    if (name == "searches") return value;
  }
  return 0;
}

}  // namespace

TEST_SUITE("navmesh") {
  TEST_CASE("trace on slow ground: both searches report g in metres of world cost, as visit_nodes does") {
    // Every path crosses the swamp (3 x): Detour's corridor is dear, so the second search
    // runs, from the goal, with the swamp costed 9.
    const Scenario s = test::ascii_scenario({
        "................",
        "......##........",
        "................",
        "ssssssssssssssss",
        "ssssssssssssssss",
        "ssssssssssssssss",
        "................",
        "........##......",
        "................",
    });
    const PlanningWorld world(s);
    NavmeshPlanner traced(world, 0, one_tile()), live(world, 0, one_tile());
    SearchTrace trace;
    traced.set_observer(&trace);
    const PathQuery q{cell_center(s, 2, 0), cell_center(s, 13, 8)};
    const PathResult r = find_path(traced, q);
    REQUIRE(r.status == SearchStatus::Found);
    REQUIRE(searches_run(r) == 2);
    CHECK(check_trace_costs(s, traced, trace, r) > 5);
    // The inspector's values (visit_nodes, no observer) are the trace's at every step.
    test::check_replay_follows_live(live, trace, q, [&] { return live.result().stats.expansions; });
  }

  TEST_CASE("trace where the cheapest ground costs 0.5: g and h in metres of world cost, not over it") {
    // Detour's area costs are the multipliers over the smallest (here ground 2, swamp 6):
    // its own g is twice the world's in the first search too.
    Scenario s = test::ascii_scenario({
        "rrrrrrrrrrrrrrrr",
        "......##........",
        "ssssssssssssssss",
        "ssssssssssssssss",
        "................",
        "........##......",
        "rrrrrrrrrrrrrrrr",
    });
    s.terrains[2].cost[0] = 0.5;  // 'r': a road
    const PlanningWorld world(s);
    NavmeshPlanner traced(world, 0, one_tile()), live(world, 0, one_tile());
    SearchTrace trace;
    traced.set_observer(&trace);
    const PathQuery q{cell_center(s, 1, 1), cell_center(s, 14, 5)};
    const PathResult r = find_path(traced, q);
    REQUIRE(r.status == SearchStatus::Found);
    REQUIRE(searches_run(r) == 2);
    CHECK(check_trace_costs(s, traced, trace, r) > 5);
    test::check_replay_follows_live(live, trace, q, [&] { return live.result().stats.expansions; });
  }

  TEST_CASE("trace on random weighted maps: every search's g in metres of world cost") {
    std::mt19937_64 rng(7211);
    int second = 0;
    for (int round = 0; round < 12; ++round) {
      const Scenario s = test::ascii_scenario(test::random_rows(rng, 24, 16, 0.15, true));
      const PlanningWorld world(s);
      NavmeshPlanner traced(world, 0, one_tile()), live(world, 0, one_tile());
      SearchTrace trace;
      traced.set_observer(&trace);
      const PathQuery q{test::random_cell_center(rng, s), test::random_cell_center(rng, s)};
      const PathResult r = find_path(traced, q);
      if (r.status != SearchStatus::Found) continue;
      CAPTURE(round);
      if (check_trace_costs(s, traced, trace, r) > 0) ++second;
      test::check_replay_follows_live(live, trace, q, [&] { return live.result().stats.expansions; });
    }
    CHECK(second >= 3);
  }
}
