// The one list of planners. To add a planner: write it behind the Planner interface in
// its family's folder and add one entry here; the CLI and the app pick it up from this
// table. This is the only file of the library that knows every family.

#include <cmath>

#include "planner/core/planner_registry.hpp"
#include "planner/grid/grid_astar.hpp"
#include "planner/grid/grid_bidirectional.hpp"
#include "planner/grid/grid_jps.hpp"
#include "planner/grid/grid_jps_block.hpp"
#include "planner/grid/grid_jps_plus.hpp"
#include "planner/hybrid/hybrid_planner.hpp"
#include "planner/navmesh/navmesh_planner.hpp"
#include "planner/quadtree/quadtree_planner.hpp"
#include "planner/tactical/tactical_planner.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/belief.hpp"

namespace pathscope {
namespace {

// A planner planning with a faction's knowledge (fog of war): the planner itself, made
// for the faction's believed world. Its answers are voided by any change of the
// faction's memory or sight, on top of what the planner's own dependency says.
class FactionDependency final : public ResultDependency {
 public:
  FactionDependency(std::unique_ptr<ResultDependency> inner, std::size_t faction)
      : inner_(std::move(inner)), faction_(faction) {}
  bool still_valid(const WorldChange& change) const override {
    for (const ItemRef& r : change.items) {
      if (r.kind == ItemKind::Faction && r.id == faction_) return false;
    }
    return inner_->still_valid(change);
  }

 private:
  std::unique_ptr<ResultDependency> inner_;
  std::size_t faction_;
};

class FactionPlanner final : public Planner {
 public:
  FactionPlanner(std::unique_ptr<Planner> inner, std::size_t faction)
      : inner_(std::move(inner)), faction_(faction) {}
  std::string_view name() const override { return inner_->name(); }
  SearchStatus start(const PathQuery& query) override { return inner_->start(query); }
  SearchStatus step(std::uint64_t max_expansions) override { return inner_->step(max_expansions); }
  const PathResult& result() const override { return inner_->result(); }
  std::size_t node_count() const override { return inner_->node_count(); }
  Vec2 node_position(NodeId node) const override { return inner_->node_position(node); }
  NodeGeometry node_geometry(NodeId node) const override { return inner_->node_geometry(node); }
  std::optional<NodeLattice> node_lattice() const override { return inner_->node_lattice(); }
  NodeId node_at(Vec2 point, double tolerance) const override { return inner_->node_at(point, tolerance); }
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override {
    inner_->visit_structure(bounds, visitor);
  }
  void visit_path_structure(StructureVisitor& visitor) const override {
    inner_->visit_path_structure(visitor);
  }
  std::unique_ptr<ResultDependency> result_dependency() const override {
    std::unique_ptr<ResultDependency> d = inner_->result_dependency();
    return d ? std::make_unique<FactionDependency>(std::move(d), faction_) : nullptr;
  }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override { inner_->visit_nodes(fn); }
  void set_observer(SearchObserver* observer) override { inner_->set_observer(observer); }

 private:
  std::unique_ptr<Planner> inner_;
  std::size_t faction_;
};

// Every planner plans with a faction's knowledge when the context names one.
void plan_with_knowledge(std::vector<PlannerInfo>& registry) {
  for (PlannerInfo& info : registry) {
    info.create = [make = std::move(info.create)](const QueryContext& c) -> std::unique_ptr<Planner> {
      if (!c.faction || *c.faction >= c.world.scenario().factions.size()) return make(c);
      const PlanningWorld& belief = believed_world(c.world, *c.faction);
      return std::make_unique<FactionPlanner>(
          make(QueryContext{belief, c.movement_class, std::nullopt, c.params}), *c.faction);
    };
  }
}

// How the path referee (planner/referee/) checks each planner: the grid family counts
// moves between cell centres (and so does the hybrid, whose legs are grid paths); the
// visibility graph and the hybrid keep the radius their parameter names; the tactical
// planner's cost is in a model of its own.
void declare_referee(std::vector<PlannerInfo>& registry) {
  for (PlannerInfo& info : registry) {
    RefereeSpec& spec = info.referee;
    if (info.family == "grid") spec.cell_centres = true;
    if (info.name == "hybrid") {
      spec.cell_centres = true;
      spec.radius_param = 0;
    } else if (info.name == "visgraph") {
      spec.radius_param = 2;  // its cost is the world's cost of its polyline
    } else if (info.name == "tactical") {
      spec.cost = CostModel::Other;
      spec.note =
          "threat-weighted travel (seed 001's exposure model: c1 outside threats, c2 inside, 0 in allies)";
    }
  }
}

// Grid planners report costs in metres of terrain-weighted travel: each move's length
// times the mean multiplier of the two cells it joins.
constexpr const char* kGridCostUnits = "metres of terrain-weighted travel";

std::vector<PlannerInfo> make_registry() {
  std::vector<PlannerInfo> r;
  r.push_back(PlannerInfo{"astar",
                          "grid",
                          "A* on the 8-connected cell grid (octile heuristic; optimal)",
                          true,
                          kGridCostUnits,
                          {},
                          [](const QueryContext& c) {
                            return std::make_unique<GridAStar>(c.world, c.movement_class,
                                                               GridAStarParams{1.0}, "astar");
                          }});
  r.push_back(PlannerInfo{"weighted_astar",
                          "grid",
                          "Weighted A*: f = g + w h; cost at most w times the optimum",
                          false,
                          kGridCostUnits,
                          {ParamSpec{"weight", "heuristic weight w (1 = A*)", 1.5, 1.0, 100.0}},
                          [](const QueryContext& c) {
                            return std::make_unique<GridAStar>(
                                c.world, c.movement_class, GridAStarParams{c.params.at(0)}, "weighted_astar");
                          }});
  r.push_back(PlannerInfo{"dijkstra",
                          "grid",
                          "Dijkstra on the cell grid (no heuristic; optimal)",
                          true,
                          kGridCostUnits,
                          {},
                          [](const QueryContext& c) {
                            return std::make_unique<GridAStar>(c.world, c.movement_class,
                                                               GridAStarParams{0.0}, "dijkstra");
                          }});
  r.push_back(PlannerInfo{"bidirectional",
                          "grid",
                          "Bidirectional A* on the cell grid (optimal stopping rule)",
                          true,
                          kGridCostUnits,
                          {},
                          [](const QueryContext& c) {
                            return std::make_unique<GridBidirectional>(c.world, c.movement_class,
                                                                       "bidirectional");
                          }});
  r.push_back(PlannerInfo{
      "jps",
      "grid",
      "Jump point search: A* over jump points, for uniform-cost grids (optimal; else use astar)",
      true,
      kGridCostUnits,
      {},
      [](const QueryContext& c) { return std::make_unique<GridJps>(c.world, c.movement_class, "jps"); }});
  r.push_back(PlannerInfo{"jps_block",
                          "grid",
                          "JPS (block-based): jumps read 56 cells per word, diagonals hand on what their "
                          "scans find (optimal; uniform costs, else use astar)",
                          true,
                          kGridCostUnits,
                          {},
                          [](const QueryContext& c) {
                            return std::make_unique<GridJpsBlock>(c.world, c.movement_class, "jps_block");
                          }});
  r.push_back(PlannerInfo{"jps_plus",
                          "grid",
                          "JPS+ (preprocessed): jump distances per cell and direction, kept up to date with "
                          "edits (optimal; uniform costs, else use astar)",
                          true,
                          kGridCostUnits,
                          {},
                          [](const QueryContext& c) {
                            return std::make_unique<GridJpsPlus>(c.world, c.movement_class, "jps_plus");
                          }});
  r.push_back(PlannerInfo{
      "quadtree",
      "quadtree",
      "A* over quadtree leaves, then rubber-banding: portal corners, string pulling (seed 000)",
      false,
      "metres of terrain-weighted travel along the final path (length in each leaf times its multiplier)",
      {ParamSpec{"weight",
                 "heuristic weight (1 = A* over the leaves; more: fewer expansions, longer corridors)", 1.0,
                 1.0, 10.0},
       ParamSpec{"landmarks",
                 "landmarks of the heuristic (0: none; costed again at the first query after cells change)",
                 8, 0, 32},
       ParamSpec{"landmark_margin", "share of the landmarks' costs taken off their estimate", 0.05, 0, 1},
       ParamSpec{
           "memory_mib",
           "MiB the tree, its links and its landmarks may take; a world that would need more is refused",
           2048, 1, 262144}},
      [](const QueryContext& c) {
        QuadtreeParams p;
        p.weight = c.params.at(0);
        p.landmarks = int(c.params.at(1));
        p.landmark_margin = c.params.at(2);
        p.memory = MemoryBudget::from_mib(c.params.at(3));
        return std::make_unique<QuadtreePlanner>(c.world, c.movement_class, "quadtree", p);
      }});
  r.push_back(PlannerInfo{
      "visgraph",
      "visgraph",
      "A* on the visibility graph of the inflated obstacles' corners; any-angle (seeds 003, 004)",
      false,
      "terrain-weighted metres: the world's cost of the path (each piece's length times its cell's "
      "multiplier, as grid A*)",
      {ParamSpec{"dijkstra", "1: Dijkstra (no heuristic) instead of A*", 0, 0, 1},
       ParamSpec{"max_error", "metres by which circles and rounded corners may be overstated", 0.05,
                 1.0 / 1024, 10},
       ParamSpec{"radius", "metres kept from obstacles; -1: the movement class's radius", -1, -1, 1000},
       ParamSpec{"shortcut",
                 "1: seed 004's heuristic: first and last crossings of the straight line, then culling", 0, 0,
                 1},
       ParamSpec{"k_nearest",
                 "each corner keeps its k shortest links (and those of corners keeping it); 0: all", 0, 0,
                 1000},
       ParamSpec{"max_link", "metres: longer links between corners are dropped; 0: none", 0, 0, 1e6},
       ParamSpec{
           "roads",
           "roads, whose legs cost length / speed factor: 0 off; 1 seed 004's road pass after the search; 2 "
           "planned exactly in the graph (road points, angle-rule entry and exit points)",
           2,
           0,
           2,
           {"off", "road pass", "exact"}},
       ParamSpec{"road_reach", "metres within which the path is linked to a road (road pass)", 24, 1, 1000},
       ParamSpec{"weighted",
                 "1: seed 004's swamps: passable features of another cost join the graph and weigh links", 1,
                 0, 1},
       ParamSpec{"memory_mib",
                 "MiB the visibility graph may take; a world whose graph would need more is refused", 2048, 1,
                 262144},
       ParamSpec{"compare_roads",
                 "1: exact roads: a path taking a road is searched again without roads for the stat "
                 "cost_without_roads (a second search, outside the step budget)",
                 0, 0, 1}},
      [](const QueryContext& c) {
        VisGraphParams p;
        p.dijkstra = c.params.at(0) != 0;
        p.max_error = c.params.at(1);
        p.radius = c.params.at(2);
        p.shortcut = c.params.at(3) != 0;
        p.limits.k_nearest = std::uint32_t(std::lround(c.params.at(4)));
        p.limits.max_length = c.params.at(5);
        p.roads = RoadMode(std::lround(c.params.at(6)));
        p.road_reach = c.params.at(7);
        p.weighted = c.params.at(8) != 0;
        p.memory = MemoryBudget::from_mib(c.params.at(9));
        p.compare_without_roads = c.params.at(10) != 0;
        return std::make_unique<VisGraphPlanner>(c.world, c.movement_class, p, "visgraph");
      }});
  r.push_back(PlannerInfo{
      "tactical",
      "tactical",
      "Threat-aware bidirectional A* over threats and allies, BSTS heuristic (seed 001)",
      false,
      "metres of threat-weighted travel: (length - threat - safe) * c1 + threat * c2, times the terrain "
      "multiplier",
      {ParamSpec{"c1", "cost per metre outside threats and allies (c1 + c2 = 1)", 0.25, 0.0, 1.0},
       ParamSpec{"c2", "cost per metre inside threats (c1 + c2 = 1)", 0.75, 0.0, 1.0},
       ParamSpec{"mode",
                 "heuristic: 0 BSTS (seed), 1 admissible (Euclidean x smallest cost), 2 exact (Dijkstra), 3 "
                 "waypoint (BSTS or by way of an ally or round a threat), 4 coarse (cost-to-go over a coarse "
                 "lattice)",
                 0,
                 0,
                 4,
                 {"bsts", "admissible", "exact", "waypoint", "coarse"}},
       ParamSpec{"fading", "1: threats weigh 1 - d / radius at distance d from their centre", 0, 0, 1},
       ParamSpec{"occlusion", "1: obstacles hide threats (no exposure behind them)", 0, 0, 1},
       ParamSpec{"weight",
                 "BSTS, waypoint and coarse modes: weight of the heuristic (1 = the seed's; lower: more "
                 "explored, nearer the optimum)",
                 1, 0, 1},
       ParamSpec{"corridor",
                 "cells each side of the joined path searched again for its cheapest path (0: none; not in "
                 "coarse mode)",
                 1, 0, 16}},
      [](const QueryContext& c) {
        tactical::TacticalParams p;
        p.model.c1 = c.params.at(0);
        p.model.c2 = c.params.at(1);
        p.mode = tactical::TacticalMode(int(std::lround(c.params.at(2))));
        p.model.fading = c.params.at(3) != 0;
        p.model.occlusion = c.params.at(4) != 0;
        p.weight = c.params.at(5);
        p.corridor = int(std::lround(c.params.at(6)));
        return std::make_unique<tactical::TacticalPlanner>(c.world, c.movement_class, p, "tactical");
      }});
  r.push_back(PlannerInfo{
      "hybrid",
      "hybrid",
      "Visibility-graph route, each leg refined by grid A* over the costed cells (seed 004's conclusion)",
      false,
      kGridCostUnits,
      {ParamSpec{"radius", "metres the route keeps from obstacles; -1: the movement class's radius", -1, -1,
                 1000},
       ParamSpec{"max_error", "metres by which the route's circles and rounded corners may be overstated",
                 0.05, 1.0 / 1024, 10},
       ParamSpec{"roads",
                 "the route's roads: 0 off; 1 seed 004's road pass after its search; 2 planned exactly in "
                 "its graph",
                 2,
                 0,
                 2,
                 {"off", "road pass", "exact"}},
       ParamSpec{"weighted", "1: the route weighs passable features of another cost (seed 004's swamps)", 1,
                 0, 1},
       ParamSpec{"snap", "cells searched round a route corner whose cell is blocked, for a passable one", 3,
                 0, 64}},
      [](const QueryContext& c) {
        HybridParams p;
        p.route.radius = c.params.at(0);
        p.route.max_error = c.params.at(1);
        p.route.roads = RoadMode(std::lround(c.params.at(2)));
        p.route.weighted = c.params.at(3) != 0;
        p.snap_cells = int(std::lround(c.params.at(4)));
        return std::make_unique<HybridPlanner>(c.world, c.movement_class, p, "hybrid");
      }});
  declare_referee(r);
  r.push_back(PlannerInfo{
      "navmesh",
      "navmesh",
      "Navmesh (Recast/Detour): Detour's A* over a Recast navmesh of the class, then its string pulling",
      false,
      "metres of terrain-weighted travel along the final path (length in each cell times its multiplier)",
      {ParamSpec{"radius",
                 "metres kept from walls (Recast's agent radius, whole voxels); -1: the class's radius", -1,
                 -1, 1000},
       ParamSpec{"voxels_per_cell",
                 "Recast voxels per scenario cell along each axis (its cell size: cell / this)", 2, 1, 8},
       ParamSpec{"max_edge", "longest polygon edge along walls, in scenario cells (0: no limit)", 12, 0,
                 1000},
       ParamSpec{"max_error",
                 "scenario cells by which simplified walls may stray from the voxels (0: exact; above 0 the "
                 "mesh may cover blocked cells)",
                 0, 0, 10},
       ParamSpec{"tile_cells", "side of a navmesh tile, in scenario cells", 64, 8, 1024},
       ParamSpec{"memory_mib",
                 "MiB the navmesh may take while built and held; a world that would need more is "
                 "refused",
                 2048, 1, 262144}},
      [](const QueryContext& c) {
        NavmeshParams p;
        p.radius = c.params.at(0);
        p.voxels_per_cell = int(std::lround(c.params.at(1)));
        p.max_edge = c.params.at(2);
        p.max_error = c.params.at(3);
        p.tile_cells = int(std::lround(c.params.at(4)));
        p.memory = MemoryBudget::from_mib(c.params.at(5));
        return std::make_unique<NavmeshPlanner>(c.world, c.movement_class, p, "navmesh");
      }});
  plan_with_knowledge(r);
  return r;
}

}  // namespace

std::span<const PlannerInfo> planner_registry() {
  static const std::vector<PlannerInfo> registry = make_registry();
  return registry;
}

}  // namespace pathscope
