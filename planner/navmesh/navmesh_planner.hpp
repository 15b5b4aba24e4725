#pragma once

// The navmesh planner: Detour's sliced A* over a movement class's Recast navmesh, then
// its string pulling (findStraightPath), behind the Planner interface.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/navmesh/navmesh.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/world/planning_world.hpp"

class dtNavMeshQuery;
class dtQueryFilter;

namespace pathscope {

/// Detour's path query over the class's navmesh (Navmesh::of), steppable: start() snaps
/// start and goal to their polygons and calls initSlicedFindPath; step(n) is one
/// updateSlicedFindPath(n) (n polygons expanded); when it completes, the polygon corridor
/// is string-pulled by findStraightPath. Nodes are polygons (Navmesh node ids). The cost
/// reported is the path's cost in the world's model: the length of the polyline in each
/// cell times the cell's multiplier (Detour itself ranks corridors by the distances
/// between its portals' midpoints times area costs).
class NavmeshPlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  NavmeshPlanner(const PlanningWorld& world, std::size_t movement_class, NavmeshParams params,
                 std::string name = "navmesh");
  ~NavmeshPlanner() override;

  /// Begins a query. Invalid: the mesh could not be built (the message says why), start
  /// or goal outside the map, in a cell the class cannot enter, or farther than the radius
  /// plus a voxel from any polygon. NoPath at once: the goal's polygons are of another
  /// terrain group.
  SearchStatus start(const PathQuery& query) override;
  /// Up to `max_expansions` iterations of Detour's sliced search (one polygon each).
  SearchStatus step(std::uint64_t max_expansions) override;

  std::size_t node_count() const override;
  /// A polygon's vertex mean.
  Vec2 node_position(NodeId node) const override;
  /// The polygon.
  NodeGeometry node_geometry(NodeId node) const override;
  /// The polygon holding the point (Navmesh::polygon_at).
  NodeId node_at(Vec2 point, double tolerance) const override;
  /// Polygons meeting `bounds` (value: their area's multiplier) and the links between
  /// them (edges of kind "portal", once per pair, at the shared edge's midpoint); the
  /// shared edges themselves as shapes "portal".
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The polygons of the last Found corridor (role Corridor) and the edges it crosses
  /// (shapes "portal", role Portal).
  void visit_path_structure(StructureVisitor& visitor) const override;
  /// A Found or NoPath answer depends on the tiles of every polygon the search touched
  /// (their input cells, border included), on the smallest multiplier and on the table
  /// of areas (a change bringing a new pair of cost and group voids it).
  std::unique_ptr<ResultDependency> result_dependency() const override;
  /// Detour's node pool: a polygon's best node (g = cost, h = total - cost).
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The mesh of the last start() (nullptr before).
  const Navmesh* navmesh() const { return mesh_; }

 private:
  struct QueryDeleter {
    void operator()(dtNavMeshQuery* q) const;
  };
  const Navmesh& mesh() const { return Navmesh::of(world_, class_, params_); }
  // PlannerBase::fail, and the sliced search stops.
  SearchStatus fail(SearchStatus status, std::string message);
  // The nearest point of a polygon within `extents` of `point` that the straight leg
  // from `point` reaches keeping the mesh's radius from blocked cells and crossing only
  // cells of move key `key`: its polygon in `ref` (0: none) and the point in `nearest`
  // (Detour's x, y, z).
  void nearest_clear_poly(const CostGrid& grid, std::uint16_t key, Vec2 point, const float* centre,
                          const float* extents, const dtQueryFilter& filter, std::uint32_t& ref,
                          float* nearest) const;
  // One iteration with trace events (observer attached).
  int traced_iteration();
  void finish();

  const PlanningWorld& world_;
  std::size_t class_;
  NavmeshParams params_;
  const Navmesh* mesh_ = nullptr;
  std::uint64_t revision_ = 0;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query_;
  std::unique_ptr<dtQueryFilter> filter_;
  PathQuery query_points_;
  Vec2 start_on_mesh_{0, 0}, goal_on_mesh_{0, 0};
  std::uint32_t start_ref_ = 0, goal_ref_ = 0;
  bool searching_ = false;
  std::vector<std::uint32_t> corridor_;  // polygon refs of the last Found result
  // Trace: the node pool as last seen, per pool index (1-based; 0 unused).
  std::vector<float> seen_total_;
  std::vector<std::uint8_t> seen_open_;
  std::vector<unsigned> open_;  // pool indices open as last seen
};

}  // namespace pathscope
