// The quadtree family's registry entry: A* over the leaves, then rubber-banding.

#include "planner/quadtree/quadtree_registry.hpp"

#include <memory>

#include "planner/core/planner_entry.hpp"
#include "planner/quadtree/quadtree_planner.hpp"

namespace pathscope {
namespace {

// Rubber-banded leaves are no optimum: at most 1.15 x grid A* on weighted worlds, measured
// (worst 1.10 on the conformance suite's 300 slow-tier worlds, 1.12 on worlds 1-999;
// planner/referee/README.md). On ground of one cost (it keeps no clearance: radius 0 as it
// is) the any-angle bound, 1.05.
RefereeSpec quadtree_referee() {
  RefereeSpec spec = polyline_cost_within(1.15);
  spec.uniform_bound = 1.05;
  return spec;
}

}  // namespace

void append_quadtree_planners(std::vector<PlannerInfo>& r) {
  using P = QuadtreeParams;
  r.push_back(to_planner_info(PlannerEntry<P>{
      "quadtree",
      "quadtree",
      "A* over quadtree leaves, then rubber-banding: portal corners, string pulling (seed 000)",
      false,
      "metres of terrain-weighted travel along the final path (length in each leaf times its multiplier)",
      P{},
      {{{"weight", "heuristic weight (1 = A* over the leaves; more: fewer expansions, longer corridors)", 1.0,
         1.0, 10.0},
        [](P& p, double v) { p.weight = v; }},
       {{"landmarks",
         "landmarks of the heuristic (0: none; costed again at the first query after cells change)", 8, 0,
         32},
        [](P& p, double v) { p.landmarks = int(v); }},
       {{"landmark_margin", "share of the landmarks' costs taken off their estimate", 0.05, 0, 1},
        [](P& p, double v) { p.landmark_margin = v; }},
       {{"memory_mib",
         "MiB the tree, its links and its landmarks may take; a world that would need more is refused", 2048,
         1, 262144},
        [](P& p, double v) { p.memory = MemoryBudget::from_mib(v); }}},
      [](const QueryContext& c, const P& p) -> std::unique_ptr<Planner> {
        return std::make_unique<QuadtreePlanner>(c.world, c.movement_class, "quadtree", p);
      },
      quadtree_referee()}));
}

}  // namespace pathscope
