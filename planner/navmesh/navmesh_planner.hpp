#pragma once

// The navmesh planner: Detour's sliced A* over a movement class's Recast navmesh, then
// its string pulling (findStraightPath), behind the Planner interface; where a corridor
// crosses slow ground, a string pulling weighing the polygons' costs and a further search
// from the goal with slow areas costed higher, the cheapest path kept.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/navmesh/navmesh.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/world/planning_world.hpp"

class dtNavMeshQuery;
class dtQueryFilter;

namespace pathscope {

/// The navmesh planner's parameters: the mesh's, and how many searches a query may run.
struct NavmeshPlannerParams {
  NavmeshParams mesh;  ///< The mesh (Navmesh::of) the planner searches.
  /// Detour searches a query may run (1..kNavmeshMaxSearches) while the cheapest
  /// corridor so far crosses ground dearer than the cheapest: Detour's, then from the goal
  /// with the area costs squared, then forward squared, then from the goal cubed
  /// (NavmeshPlanner); 1 is Detour's one search.
  int searches = 2;
  /// Whether a corridor crossing ground dearer than the cheapest is also string-pulled
  /// weighing its polygons' costs (NavmeshPlanner::weighted_string_pull), the cheaper path
  /// kept; false, with searches 1, is Detour's query alone.
  bool weighted_pull = true;
};

/// The most searches NavmeshPlannerParams::searches may ask for.
inline constexpr int kNavmeshMaxSearches = 4;

/// Detour's path query over the class's navmesh (Navmesh::of), steppable: start() snaps
/// start and goal to their polygons and calls initSlicedFindPath; step(n) is one
/// updateSlicedFindPath(n) (n polygons expanded); when it completes, the polygon corridor
/// is string-pulled by findStraightPath. Nodes are polygons (Navmesh node ids). The cost
/// reported is the path's cost in the world's model: the length of the polyline in each
/// cell times the cell's multiplier (Detour itself ranks corridors by the distances
/// between its portals' midpoints times area costs). A corridor crossing a polygon dearer
/// than the cheapest ground is also pulled weighing its polygons' costs; while the cheapest
/// path so far has such a corridor, the next search (up to `searches`) runs with the area
/// costs raised to a power, from the goal or the start, within the same step budget and
/// trace; the path of least world cost is the result.
class NavmeshPlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  NavmeshPlanner(const PlanningWorld& world, std::size_t movement_class, NavmeshPlannerParams params,
                 std::string name = "navmesh");
  /// With the default searches and weighted pulling.
  NavmeshPlanner(const PlanningWorld& world, std::size_t movement_class, NavmeshParams params,
                 std::string name = "navmesh");
  ~NavmeshPlanner() override;

  /// Begins a query. Invalid: the mesh could not be built (the message says why), start
  /// or goal outside the map, in a cell the class cannot enter, or farther than the radius
  /// plus a voxel from any polygon. NoPath at once: the goal's polygons are of another
  /// terrain group.
  SearchStatus start(const PathQuery& query) override;
  /// Up to `max_expansions` iterations of Detour's sliced searches (one polygon each; a
  /// search that ends within the budget hands the rest to the next).
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
  /// Detour's node pool: a polygon's best node (by the search's own total), over the nodes
  /// the query's earlier searches left (a later search's node replaces an earlier one's;
  /// closed in any search, closed). g and h are metres of world cost in every search, as
  /// the trace reports them (node_costs).
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The mesh of the last start() (nullptr before).
  const Navmesh* navmesh() const { return mesh_; }

 private:
  struct QueryDeleter {
    void operator()(dtNavMeshQuery* q) const;
  };
  const Navmesh& mesh() const { return Navmesh::of(world_, class_, params_.mesh); }
  // PlannerBase::fail, and the sliced search stops.
  SearchStatus fail(SearchStatus status, std::string message);
  // The nearest point of a polygon within `extents` of `point` that the straight leg
  // from `point` reaches keeping the mesh's radius from blocked cells and crossing only
  // cells of move key `key`: its polygon in `ref` (0: none) and the point in `nearest`
  // (Detour's x, y, z).
  void nearest_clear_poly(const CostGrid& grid, std::uint16_t key, Vec2 point, const float* centre,
                          const float* extents, const dtQueryFilter& filter, std::uint32_t& ref,
                          float* nearest) const;
  // Starts search `search_`: its area costs, initSlicedFindPath, the start's trace event.
  void begin_search();
  // One iteration with trace events (observer attached).
  int traced_iteration();
  // The current search completed: its corridor and straight path, kept when cheapest;
  // then the next search, or the result.
  void end_search();
  // The cheapest path found is the result (Found).
  void publish();
  // The cheapest path through the corridor `path` (polygon refs) from the start's point on
  // the mesh to the goal's, weighing each polygon's multiplier: one point on each portal
  // (samples along it, its ends included), chosen by dynamic programming, then legs merged
  // where the straight leg keeps the radius and costs no more. Empty if a portal is missing.
  std::vector<Vec2> weighted_string_pull(const std::vector<std::uint32_t>& path) const;
  // The current search's pool, a polygon's best node each, sorted by node.
  std::vector<NodeView> pool_views() const;
  // Sets the entry (y * tiles_x + x) of every tile holding a node of the current pool.
  void mark_pool_tiles(std::vector<std::uint8_t>& tiles) const;
  // Pool node `idx`'s (1-based) g and h in metres of world cost, whatever the search's
  // power: g the legs in the plane between the positions along its parents (the search's
  // origin, then the portal midpoints Detour placed the nodes at) each times the multiplier
  // of the polygon it crosses, and for the search's last polygon the leg to its end point
  // (h 0); h the straight line to the end point times the smallest multiplier. `memo`, if
  // given, holds g per pool index (NaN: not yet known) and is filled on the way.
  std::pair<double, double> node_costs(unsigned idx, std::vector<double>* memo = nullptr) const;

  const PlanningWorld& world_;
  std::size_t class_;
  NavmeshPlannerParams params_;
  const Navmesh* mesh_ = nullptr;
  std::uint64_t revision_ = 0;
  std::unique_ptr<dtNavMeshQuery, QueryDeleter> query_;
  std::unique_ptr<dtQueryFilter> filter_;
  PathQuery query_points_;
  Vec2 start_on_mesh_{0, 0}, goal_on_mesh_{0, 0};
  std::uint32_t start_ref_ = 0, goal_ref_ = 0;
  std::uint16_t key_ = 0;  // the start's terrain group (move key)
  bool searching_ = false;
  std::vector<std::uint32_t> corridor_;         // polygon refs of the last Found result
  std::vector<std::uint32_t> corridor_buffer_;  // finalizeSlicedFindPath's output, reused
  int search_ = 0;                              // the query's current search (0: Detour's costs)
  // The cheapest path of the searches so far: its points, corridor and world cost.
  std::vector<Vec2> best_points_;
  std::vector<std::uint32_t> best_corridor_;
  double best_cost_ = 0;
  bool best_dear_ = false;                   // its corridor crosses a polygon dearer than the cheapest ground
  std::vector<NodeView> earlier_nodes_;      // the earlier searches' nodes, merged, by node
  std::vector<std::uint8_t> touched_tiles_;  // tiles (y * tiles_x + x) the earlier searches touched
  // Trace: the node pool as last seen, per pool index (1-based; 0 unused).
  std::vector<float> seen_total_;
  std::vector<std::uint8_t> seen_open_;
  std::vector<unsigned> open_;  // pool indices open as last seen
};

}  // namespace pathscope
