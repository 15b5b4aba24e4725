// The grid family's registry entries: A* and its variants, bidirectional A*, and the
// three jump point searches. Their costs count moves between cell centres, which the
// referee recomputes so; they plan for a point (no clearance of their own).

#include "planner/grid/grid_registry.hpp"

#include <memory>
#include <string>

#include "planner/core/planner_entry.hpp"
#include "planner/grid/grid_astar.hpp"
#include "planner/grid/grid_bidirectional.hpp"
#include "planner/grid/grid_jps.hpp"
#include "planner/grid/grid_jps_block.hpp"
#include "planner/grid/grid_jps_plus.hpp"

namespace pathscope {
namespace {

// The referee counts a grid path's moves between cell centres; `bound`: its cost at most
// that times the optimum (1: optimal), on every world, uniform ones with radius 0 included
// (the grid plans for a point).
RefereeSpec grid_referee(double bound = 1) {
  RefereeSpec spec;
  spec.cell_centres = true;
  spec.bound = bound;
  spec.uniform_bound = bound;
  return spec;
}

// An entry whose planner takes no parameter.
struct NoParams {};

template <class T>
PlannerInfo plain(std::string name, std::string summary) {
  return to_planner_info(
      PlannerEntry<NoParams>{name,
                             "grid",
                             std::move(summary),
                             true,
                             kGridCostUnits,
                             {},
                             {},
                             [name](const QueryContext& c, const NoParams&) -> std::unique_ptr<Planner> {
                               return std::make_unique<T>(c.world, c.movement_class, name);
                             },
                             grid_referee()});
}

PlannerInfo astar_entry(std::string name, std::string summary, bool exact, GridAStarParams base,
                        std::vector<ParamField<GridAStarParams>> fields, double bound = 1) {
  return to_planner_info(PlannerEntry<GridAStarParams>{
      name, "grid", std::move(summary), exact, kGridCostUnits, base, std::move(fields),
      [name](const QueryContext& c, const GridAStarParams& p) -> std::unique_ptr<Planner> {
        return std::make_unique<GridAStar>(c.world, c.movement_class, p, name);
      },
      grid_referee(bound)});
}

}  // namespace

void append_grid_planners(std::vector<PlannerInfo>& r) {
  r.push_back(astar_entry("astar", "A* on the 8-connected cell grid (octile heuristic; optimal)", true,
                          GridAStarParams{1.0}, {}));
  r.push_back(astar_entry("weighted_astar", "Weighted A*: f = g + w h; cost at most w times the optimum",
                          false, GridAStarParams{},
                          {{{"weight", "heuristic weight w (1 = A*)", 1.5, 1.0, 100.0},
                            [](GridAStarParams& p, double v) { p.weight = v; }}},
                          1.5));  // w times the optimum at its default weight
  r.push_back(astar_entry("dijkstra", "Dijkstra on the cell grid (no heuristic; optimal)", true,
                          GridAStarParams{0.0}, {}));
  r.push_back(
      plain<GridBidirectional>("bidirectional", "Bidirectional A* on the cell grid (optimal stopping rule)"));
  r.push_back(plain<GridJps>(
      "jps", "Jump point search: A* over jump points, for uniform-cost grids (optimal; else use astar)"));
  r.push_back(
      plain<GridJpsBlock>("jps_block",
                          "JPS (block-based): jumps read 56 cells per word, diagonals hand on what their "
                          "scans find (optimal; uniform costs, else use astar)"));
  r.push_back(
      plain<GridJpsPlus>("jps_plus",
                         "JPS+ (preprocessed): jump distances per cell and direction, kept up to date with "
                         "edits (optimal; uniform costs, else use astar)"));
}

}  // namespace pathscope
