// The visibility graph family's registry entry. Its paths keep its radius from obstacles
// (the inflation of visgraph/obstacle_set.hpp), which the referee checks.

#include "planner/visgraph/visgraph_registry.hpp"

#include <cmath>
#include <cstdint>
#include <memory>

#include "planner/core/planner_entry.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

// Its cost is the world's cost of its polyline. On weighted ground it turns only at region
// corners and the query's points on the sides of the regions holding its ends: at most
// 1.45 x the cheapest cell-centre moves keeping its radius, measured (worst 1.42 on the
// slow tier's 300 worlds, 1.41 on worlds 1-999; planner/referee/README.md). On ground of
// one cost with radius 0 it is any-angle: at most 1.05 x grid A*.
RefereeSpec visgraph_referee() {
  RefereeSpec spec = polyline_cost_within(1.45);
  spec.uniform_bound = 1.05;
  spec.radius_zero = {{"radius", 0}};
  return spec;
}

}  // namespace

void append_visgraph_planners(std::vector<PlannerInfo>& r) {
  using P = VisGraphParams;
  r.push_back(to_planner_info(PlannerEntry<P>{
      "visgraph",
      "visgraph",
      "A* on the visibility graph of the inflated obstacles' corners; any-angle (seeds 003, 004)",
      false,
      "terrain-weighted metres: the world's cost of the path (each piece's length times its cell's "
      "multiplier, as grid A*)",
      P{},
      {{{"dijkstra", "1: Dijkstra (no heuristic) instead of A*", 0, 0, 1},
        [](P& p, double v) { p.dijkstra = v != 0; }},
       {{"max_error", "metres by which circles and rounded corners may be overstated", 0.05, 1.0 / 1024, 10},
        [](P& p, double v) { p.max_error = v; }},
       {{"radius", "metres kept from obstacles; -1: the movement class's radius", -1, -1, 1000},
        [](P& p, double v) { p.radius = v; }},
       {{"shortcut", "1: seed 004's heuristic: first and last crossings of the straight line, then culling",
         0, 0, 1},
        [](P& p, double v) { p.shortcut = v != 0; }},
       {{"k_nearest", "each corner keeps its k shortest links (and those of corners keeping it); 0: all", 0,
         0, 1000},
        [](P& p, double v) { p.limits.k_nearest = std::uint32_t(std::lround(v)); }},
       {{"max_link", "metres: longer links between corners are dropped; 0: none", 0, 0, 1e6},
        [](P& p, double v) { p.limits.max_length = v; }},
       {{"roads",
         "roads, whose legs cost length / speed factor: 0 off; 1 seed 004's road pass after the search; 2 "
         "planned exactly in the graph (road points, angle-rule entry and exit points)",
         2,
         0,
         2,
         {"off", "road pass", "exact"}},
        [](P& p, double v) { p.roads = RoadMode(std::lround(v)); }},
       {{"road_reach", "metres within which the path is linked to a road (road pass)", 24, 1, 1000},
        [](P& p, double v) { p.road_reach = v; }},
       {{"weighted", "1: seed 004's swamps: passable features of another cost join the graph and weigh links",
         1, 0, 1},
        [](P& p, double v) { p.weighted = v != 0; }},
       {{"memory_mib", "MiB the visibility graph may take; a world whose graph would need more is refused",
         2048, 1, 262144},
        [](P& p, double v) { p.memory = MemoryBudget::from_mib(v); }},
       {{"compare_roads",
         "1: exact roads: a path taking a road is searched again without roads for the stat "
         "cost_without_roads (a second search, outside the step budget)",
         0, 0, 1},
        [](P& p, double v) { p.compare_without_roads = v != 0; }}},
      [](const QueryContext& c, const P& p) -> std::unique_ptr<Planner> {
        return std::make_unique<VisGraphPlanner>(c.world, c.movement_class, p, "visgraph");
      },
      visgraph_referee(),
      [](const P& p, const QueryContext& c) {
        return p.radius < 0 ? c.world.scenario().classes.at(c.movement_class).radius : p.radius;
      }}));
}

}  // namespace pathscope
