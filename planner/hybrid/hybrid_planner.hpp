#pragma once

// The hybrid planner (seed 004, "Conclusions": "create a high-level visibility graph which
// covers those terrain features which are impassible, and then use A* to compute a new
// path along each edge in the visibility graph path, which takes advantage of the local
// terrain"): the visibility graph gives the broad route, a grid A* refines each of its
// legs over the costed cells.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/grid/grid_astar.hpp"
#include "planner/hybrid/leg_clearance.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/visgraph/visgraph_planner.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// Options of the hybrid planner (its registry parameters).
struct HybridParams {
  /// The broad route's planner (radius, max_error, roads, weighted regions...).
  VisGraphParams route;
  /// Cells searched around a route corner whose own cell is blocked (the inflated corner
  /// lies in a cell the coverage rule blocks) or, with a radius, too near a blocked cell:
  /// the nearest usable cell within this many cells (Chebyshev) stands for it.
  int snap_cells = 3;
};

/// Visibility-graph route, then one grid A* per leg between consecutive route points (the
/// start, the corners, the goal), joined into one cell path. Nodes are the class's grid
/// cells (id = row-major index, as the grid planners'), so its traces draw like theirs:
/// the legs' pushes and expansions are its events, the route and the path refined so far
/// its refinements ("visibility route", "legs refined", "hybrid path"); the route's own
/// search is not traced node by node (its nodes are corners, not cells). Costs are the
/// grid's: metres of terrain-weighted travel, comparable with A*'s (never below it).
/// When a leg finds no way (a corner snapped into a pocket the grid does not join), one
/// A* from that leg's start to the goal finishes the path ("fallback" in the stats).
/// With a radius (the route's, > 0) every leg, the fallback included, keeps it: legs
/// search only the cells and moves that stay the radius from blocked cells and the
/// world's edge (LegClearance), and a start or goal nearer than that is Invalid.
class HybridPlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  HybridPlanner(const PlanningWorld& world, std::size_t movement_class, HybridParams params,
                std::string name = "hybrid");

  /// Begins the route's search: Invalid when the visibility graph refuses the query (a
  /// point inside an inflated obstacle) or the grid does (a blocked cell).
  SearchStatus start(const PathQuery& query) override;
  /// Route expansions and leg expansions both count against `max_expansions`.
  SearchStatus step(std::uint64_t max_expansions) override;

  std::size_t node_count() const override { return legs_.node_count(); }
  Vec2 node_position(NodeId node) const override { return legs_.node_position(node); }
  NodeGeometry node_geometry(NodeId node) const override { return legs_.node_geometry(node); }
  std::optional<NodeLattice> node_lattice() const override { return legs_.node_lattice(); }
  /// The visibility graph's structure (inflated obstacles, corners, links), without node
  /// ids: its ids are corners, not this planner's cells.
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The route's temporary links (the start's and the goal's).
  void visit_path_structure(StructureVisitor& visitor) const override {
    route_.visit_path_structure(visitor);
  }
  /// The last Found answer's HybridDependency: its route's dependency, its legs', and the
  /// cells round its corners. None after a fallback (a route found later would change
  /// the answer): then any world change re-plans.
  std::unique_ptr<ResultDependency> result_dependency() const override;
  /// Every leg's nodes so far, as a replay of the trace shows them: g from the query's
  /// start; a cell several legs touched has the latest leg's g, h and parent, and is
  /// closed once any leg closed it.
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The broad route of the last query (start, corners, goal), once found.
  const std::vector<Vec2>& route() const { return route_points_; }
  /// The points the legs join (the route's, corners snapped to passable cells).
  const std::vector<Vec2>& waypoints() const { return waypoints_; }

 private:
  // Relays of the inner planners' events to the hybrid's observer.
  class RouteRelay final : public SearchObserver {
   public:
    explicit RouteRelay(HybridPlanner& owner) : owner_(owner) {}
    void on_start(const PathQuery&) override {}
    void on_event(const SearchEvent&) override {}  // corner ids: not cells
    void on_refine(std::string_view stage, std::span<const Vec2> polyline,
                   std::span<const StructureShape> shapes) override;

   private:
    HybridPlanner& owner_;
  };
  class LegRelay final : public SearchObserver {
   public:
    explicit LegRelay(HybridPlanner& owner) : owner_(owner) {}
    void on_start(const PathQuery&) override {}
    void on_event(const SearchEvent& event) override;  // Path events are the hybrid's own

   private:
    HybridPlanner& owner_;
  };
  enum class Phase : std::uint8_t { Idle, Route, Legs, Done };

  // The leg end standing for route corner `p`, between the leg's start `from` and the
  // route's next point `to` (snapping, step 2 of hybrid_planner.cpp).
  Vec2 snap(Vec2 p, Vec2 from, Vec2 to) const;
  // The radius-keeping moves for the current world, built again when it changed.
  void update_clearance();
  // Empty when `p` (the start or the goal) keeps the radius, else why not.
  std::string end_not_clear(const char* what, Vec2 p) const;
  // With a radius: the path's first and last legs go through their cells' centres when
  // the straight leg from the start (to the goal) would come nearer a blocked cell.
  void keep_clearance_at_ends();
  // Starts the leg from -> to, keeping the nodes of the leg before it (earlier_legs_).
  SearchStatus start_leg(Vec2 from, Vec2 to);
  // The current leg's nodes, g from the query's start.
  std::vector<NodeView> current_leg_nodes() const;
  SearchStatus finish(SearchStatus status, std::string message = {});
  void leg_found();

  const PlanningWorld& world_;
  std::size_t class_;
  HybridParams params_;
  VisGraphPlanner route_;
  GridAStar legs_;
  std::optional<LegClearance> clearance_;  // with a radius > 0: the legs' moves
  std::uint64_t clearance_revision_ = 0;   // the world's revision clearance_ was built for
  RouteRelay route_relay_{*this};
  LegRelay leg_relay_{*this};
  PathQuery query_;
  Phase phase_ = Phase::Idle;
  std::vector<Vec2> route_points_;
  std::vector<Vec2> waypoints_;
  std::size_t leg_ = 0;    // the leg being searched: waypoints_[leg_] -> waypoints_[leg_ + 1]
  bool fallback_ = false;  // the current leg runs to the goal
  SearchStatus leg_status_ = SearchStatus::Idle;
  std::uint64_t route_expansions_ = 0;
  std::uint64_t leg_expansions_ = 0;  // finished legs
  std::uint64_t leg_pushes_ = 0;
  // What the answer read (HybridDependency), taken as each part finishes.
  std::shared_ptr<const ResultDependency> route_dependency_;
  std::vector<std::shared_ptr<const ResultDependency>> leg_dependencies_;
  double route_length_ = 0;
  double route_cost_ = 0;
  // The nodes the legs before the current one touched, by node id, g from the query's
  // start (what their trace events say); merged with the current leg's by visit_nodes.
  std::vector<NodeView> earlier_legs_;
  double leg_offset_ = 0;     // the path's cost before the current leg (its nodes' g start there)
  bool leg_started_ = false;  // the current query has started a leg
};

}  // namespace pathscope
