// The navmesh family's registry entry (Recast/Detour). Its paths keep the planner's
// radius less half a voxel from walls (the mesh's exact margin), which it declares.

#include "planner/navmesh/navmesh_registry.hpp"

#include <cmath>
#include <memory>

#include "planner/core/planner_entry.hpp"
#include "planner/navmesh/navmesh.hpp"
#include "planner/navmesh/navmesh_planner.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {
namespace {

// Polygons and per-area costs: at most 1.65 x the cheapest cell-centre moves keeping its
// radius, measured (with its weighted string pulling and second search, worst 1.38 on
// worlds 1-1299 and 1.56 on 1300-2299; planner/referee/README.md). On ground of
// one cost with radius 0 (no erosion) not the any-angle 1.05: Detour's A* costs a
// corridor of polygons by their edges' midpoints, and on cluttered maps of small polygons
// the corridor it picks is not the shortest. At most 1.35 x grid A*, measured (worst 1.30
// on 2,000 uniform worlds, seeds 1000-2999; README, "Known limits").
RefereeSpec navmesh_referee() {
  RefereeSpec spec = polyline_cost_within(1.65);
  spec.uniform_bound = 1.35;
  spec.radius_zero = {{"radius", 0}};
  return spec;
}

}  // namespace

void append_navmesh_planners(std::vector<PlannerInfo>& r) {
  using P = NavmeshPlannerParams;
  r.push_back(to_planner_info(PlannerEntry<P>{
      "navmesh",
      "navmesh",
      "Navmesh (Recast/Detour): Detour's A* over a Recast navmesh of the class, then its string pulling; "
      "on weighted ground further searches with slow areas costed higher, the cheapest path kept",
      false,
      "metres of terrain-weighted travel along the final path (length in each cell times its multiplier)",
      P{},
      {{{"radius",
         "metres to keep from walls, less half a voxel (the mesh's tolerance); -1: the class's radius", -1,
         -1, 1000},
        [](P& p, double v) { p.mesh.radius = v; }},
       {{"voxels_per_cell",
         "Recast voxels per scenario cell along each axis (its cell size: cell / this; odd keeps a voxel on "
         "each cell's centre lines)",
         3, 1, 8},
        [](P& p, double v) { p.mesh.voxels_per_cell = int(std::lround(v)); }},
       {{"max_edge", "longest polygon edge along walls, in scenario cells (0: no limit)", 12, 0, 1000},
        [](P& p, double v) { p.mesh.max_edge = v; }},
       {{"max_error",
         "scenario cells by which simplified walls may stray from the voxels (0: exact; above 0 the "
         "mesh may cover blocked cells)",
         0, 0, 10},
        [](P& p, double v) { p.mesh.max_error = v; }},
       {{"tile_cells", "side of a navmesh tile, in scenario cells", 64, 8, 1024},
        [](P& p, double v) { p.mesh.tile_cells = int(std::lround(v)); }},
       {{"memory_mib",
         "MiB the navmesh may take while built and held; a world that would need more is "
         "refused",
         2048, 1, 262144},
        [](P& p, double v) { p.mesh.memory = MemoryBudget::from_mib(v); }},
       {{"searches",
         "Detour searches a query may run while the cheapest corridor so far crosses ground dearer than "
         "the cheapest: Detour's, then from the goal with the area costs squared, then forward squared, "
         "then from the goal cubed; the path of least world cost is kept (1: Detour's one search)",
         2, 1, kNavmeshMaxSearches},
        [](P& p, double v) { p.searches = int(std::lround(v)); }},
       {{"weighted_pull",
         "1: a corridor crossing ground dearer than the cheapest is also string-pulled weighing its "
         "polygons' costs (a point on each portal, by dynamic programming), the cheaper path kept; 0: "
         "Detour's string pulling only",
         1, 0, 1},
        [](P& p, double v) { p.weighted_pull = v >= 0.5; }}},
      [](const QueryContext& c, const P& p) -> std::unique_ptr<Planner> {
        return std::make_unique<NavmeshPlanner>(c.world, c.movement_class, p, "navmesh");
      },
      navmesh_referee(),
      [](const P& p, const QueryContext& c) {
        return kept_radius(p.mesh, c.world.grid(c.movement_class).cell_size(),
                           c.world.scenario().classes.at(c.movement_class).radius);
      }}));
}

}  // namespace pathscope
