// The hybrid planner's registry entry: a visibility-graph route, each leg refined by grid
// A*. Its legs are grid paths (moves between cell centres, as the referee counts them)
// and keep the route's radius from obstacles.

#include "planner/hybrid/hybrid_registry.hpp"

#include <cmath>
#include <memory>

#include "planner/core/planner_entry.hpp"
#include "planner/grid/grid_registry.hpp"
#include "planner/hybrid/hybrid_planner.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

void append_hybrid_planners(std::vector<PlannerInfo>& r) {
  using P = HybridParams;
  RefereeSpec referee;
  referee.cell_centres = true;
  // A route on the visibility graph refined by grid legs: at most 1.85 x the cheapest
  // cell-centre moves keeping its radius, measured (worst 1.82 on 300 worlds;
  // planner/referee/README.md).
  referee.bound = 1.85;
  // On ground of one cost with radius 0 not the any-angle 1.05: its legs are octile moves
  // through a cell at each corner of a Euclidean route (up to 1.082 x the route per leg,
  // and the route's way round may not be the grid's), and on random maps the route weaves
  // between blocks, its corner cells on alternate sides. At most 1.25 x grid A*, measured
  // (worst 1.20 on 2,000 uniform worlds, seeds 1000-2999; README, "Known limits").
  referee.uniform_bound = 1.25;
  referee.radius_zero = {{"radius", 0}};
  r.push_back(to_planner_info(PlannerEntry<P>{
      "hybrid",
      "hybrid",
      "Visibility-graph route, each leg refined by grid A* over the costed cells (seed 004's conclusion)",
      false,
      kGridCostUnits,
      P{},
      {{{"radius", "metres the route keeps from obstacles; -1: the movement class's radius", -1, -1, 1000},
        [](P& p, double v) { p.route.radius = v; }},
       {{"max_error", "metres by which the route's circles and rounded corners may be overstated", 0.05,
         1.0 / 1024, 10},
        [](P& p, double v) { p.route.max_error = v; }},
       {{"roads",
         "the route's roads: 0 off; 1 seed 004's road pass after its search; 2 planned exactly in "
         "its graph",
         2,
         0,
         2,
         {"off", "road pass", "exact"}},
        [](P& p, double v) { p.route.roads = RoadMode(std::lround(v)); }},
       {{"weighted", "1: the route weighs passable features of another cost (seed 004's swamps)", 1, 0, 1},
        [](P& p, double v) { p.route.weighted = v != 0; }},
       {{"snap", "cells searched round a route corner whose cell is blocked, for a passable one", 3, 0, 64},
        [](P& p, double v) { p.snap_cells = int(std::lround(v)); }}},
      [](const QueryContext& c, const P& p) -> std::unique_ptr<Planner> {
        return std::make_unique<HybridPlanner>(c.world, c.movement_class, p, "hybrid");
      },
      referee,
      [](const P& p, const QueryContext& c) {
        return p.route.radius < 0 ? c.world.scenario().classes.at(c.movement_class).radius : p.route.radius;
      }}));
}

}  // namespace pathscope
