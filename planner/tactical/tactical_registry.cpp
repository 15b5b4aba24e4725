// The tactical family's registry entry. Its cost is in a model of its own (seed 001's
// exposure), which the referee reports beside the world's without comparing; its rule
// c1 + c2 = 1 is checked when its parameters are resolved, as well as at start().

#include "planner/tactical/tactical_registry.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "planner/core/planner_entry.hpp"
#include "planner/tactical/tactical_planner.hpp"

namespace pathscope {

void append_tactical_planners(std::vector<PlannerInfo>& r) {
  using P = tactical::TacticalParams;
  RefereeSpec referee;
  referee.cost = CostModel::Other;
  referee.note =
      "threat-weighted travel (seed 001's exposure model: c1 outside threats, c2 inside, 0 in allies)";
  referee.uniform_skip = "its cost is threat-weighted exposure (seed 001), another model than grid A*'s";
  r.push_back(to_planner_info(PlannerEntry<P>{
      "tactical",
      "tactical",
      "Threat-aware bidirectional A* over threats and allies, BSTS heuristic (seed 001)",
      false,
      "metres of threat-weighted travel: (length - threat - safe) * c1 + threat * c2, times the terrain "
      "multiplier",
      P{},
      {{{"c1", "cost per metre outside threats and allies (c1 + c2 = 1)", 0.25, 0.0, 1.0},
        [](P& p, double v) { p.model.c1 = v; }},
       {{"c2", "cost per metre inside threats (c1 + c2 = 1)", 0.75, 0.0, 1.0},
        [](P& p, double v) { p.model.c2 = v; }},
       {{"mode",
         "heuristic: 0 BSTS (seed), 1 admissible (distance allies cannot cover x smallest cost), 2 exact "
         "(Dijkstra), 3 waypoint (BSTS or by way of an ally or round a threat), 4 coarse (cost-to-go over a "
         "coarse "
         "lattice)",
         0,
         0,
         4,
         {"bsts", "admissible", "exact", "waypoint", "coarse"}},
        [](P& p, double v) { p.mode = tactical::TacticalMode(int(std::lround(v))); }},
       {{"fading", "1: threats weigh 1 - d / radius at distance d from their centre", 0, 0, 1},
        [](P& p, double v) { p.model.fading = v != 0; }},
       {{"occlusion", "1: obstacles hide threats (no exposure behind them)", 0, 0, 1},
        [](P& p, double v) { p.model.occlusion = v != 0; }},
       {{"weight",
         "BSTS, waypoint and coarse modes: weight of the heuristic (1 = the seed's; lower: more "
         "explored, nearer the optimum)",
         1, 0, 1},
        [](P& p, double v) { p.weight = v; }},
       {{"corridor",
         "cells each side of the joined path searched again for its cheapest path (0: none; not in "
         "coarse mode)",
         1, 0, 16},
        [](P& p, double v) { p.corridor = int(std::lround(v)); }}},
      [](const QueryContext& c, const P& p) -> std::unique_ptr<Planner> {
        return std::make_unique<tactical::TacticalPlanner>(c.world, c.movement_class, p, "tactical");
      },
      referee,
      nullptr,
      [](const P& p) -> Status { return tactical::check_constants(p.model.c1, p.model.c2); }}));
}

}  // namespace pathscope
