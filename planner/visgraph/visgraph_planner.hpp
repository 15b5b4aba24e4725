#pragma once

// The visibility-graph planner (seeds 003 and 004): A* or Dijkstra over the convex
// corners of the inflated obstacles, with the start and the goal as temporary nodes.

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/search/best_first_search.hpp"
#include "planner/search/paged_node_state.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/visgraph/road_graph.hpp"
#include "planner/visgraph/road_network.hpp"
#include "planner/visgraph/visibility_graph.hpp"
#include "planner/visgraph/weighted_regions.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// How the visgraph planner uses the scenario's roads (seed 004, "Roads").
enum class RoadMode : std::uint8_t {
  Off,    ///< Roads ignored.
  Pass,   ///< Seed 004's road pass after the search (road_graph.hpp).
  Exact,  ///< Road points in the searched graph (road_network.hpp); the pass in shortcut mode.
};

/// Options of the visgraph planner (its registry parameters).
struct VisGraphParams {
  double radius = -1;       ///< Metres kept from obstacles; < 0: the movement class's radius.
  double max_error = 0.05;  ///< Metres by which circles and rounded corners may be overstated.
  bool dijkstra = false;    ///< No heuristic (Dijkstra) instead of A* with the straight distance.
  /// Seed 004's heuristic instead of exact temporary nodes: the first and last points
  /// where the straight line meets an obstacle are linked to the nearest corners along
  /// their obstacle's boundary, the graph is searched between them, then the path is
  /// culled from both ends. Not optimal.
  bool shortcut = false;
  /// Limits on the links between corners (none by default): fewer links, longer paths.
  visgraph::LinkLimits limits;
  /// Roads, whose legs cost their length divided by the road's speed factor: seed 004's
  /// road pass after the search (a found path may join them), or planned exactly in the
  /// graph, or off.
  RoadMode roads = RoadMode::Pass;
  /// Exact roads: when the path takes a road, search again without roads for the stat
  /// `cost_without_roads` (a second whole search when the first finishes, outside step()'s
  /// budget; registry parameter compare_roads). Off: the stat is -1 for such paths.
  bool compare_without_roads = false;
  /// Road pass: metres within which a path point is linked to a road point (in sight).
  double road_reach = 24;
  /// Seed 004's swamps: passable features of another cost than the ground join the graph
  /// with their corners, and links cost their length in each region times its factor.
  bool weighted = true;
  /// The cost reported is the world's cost of the path found (planner/world/path_cost:
  /// each piece's length times its cell's multiplier, grid A*'s units); false: the
  /// search's own (metres times the regions' factors relative to the ground, road legs
  /// divided by the road's factor), which tests of the search compare. Either way the
  /// search's own cost is the stat `own_cost`.
  bool world_cost = true;
  /// The most memory the visibility graph may take (planner parameter memory_mib); a
  /// world whose graph would need more is refused (Invalid, the message naming the budget).
  MemoryBudget memory{};
};

/// Shortest paths for a unit of some radius among polygonal obstacles, on the visibility
/// graph of their inflated corners (node ids 0 .. corners - 1), plus four temporary nodes
/// (corners + 0: start, + 1: goal, + 2 and + 3: the shortcut mode's first and last
/// crossing points), then the corners of weighted regions (corners + 4 ...), then with
/// exact roads the road points (RoadNetwork::points()) and the query's own joining points
/// (the start's and the goal's on each road piece), then the query's points on the sides of
/// the slow regions holding the start and the goal. Exact mode links the start and the goal to every corner
/// they see along a tangent (the direct line first; the goal's links tested as corners are expanded): costs
/// are then optimal any-angle lengths among the inflated obstacles. Costs are metres of straight travel
/// (terrain multipliers are not applied), road legs divided by the road's speed factor when the road pass
/// (seed 004) finds a cheaper way along the scenario's roads, or when exact roads take them. The search is
/// planner/search's BestFirstSearch, which expands the goal. Steppable and traced like every planner.
class VisGraphPlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  VisGraphPlanner(const PlanningWorld& world, std::size_t movement_class, VisGraphParams params,
                  std::string name = "visgraph");

  /// Begins a query: Invalid when the obstacles could not be built (the message names the
  /// bad item) or when start or goal lie inside an inflated obstacle or outside the area
  /// a unit's centre may use. Links the temporary nodes.
  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;

  /// Corners plus the four temporary nodes.
  std::size_t node_count() const override;
  Vec2 node_position(NodeId node) const override;
  /// Inflated obstacles (Polygon "inflated obstacle"; holes and the world's frame as
  /// closed Polyline "obstacle hole"), corners (Points "corner") and links (edges
  /// "link", each once, from an end inside `bounds`; with limits, only the links kept),
  /// all meeting `bounds`. Roads: the pass's graph (edges "road", "road junction"), or
  /// with exact roads the road points (Points "road point") and their links (edges
  /// "road" along the roads, "road entry" to and from them), once the world's roads are
  /// prepared (at start()).
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The temporary links of the last query, role Graph: Links "start link" and "goal
  /// link" (the goal's as found by the corners expanded so far; the direct line, or the
  /// shortcut's lines to its crossing points) and the
  /// shortcut's Polylines "boundary link" along obstacle boundaries.
  void visit_path_structure(StructureVisitor& visitor) const override;
  /// The last Found path and the obstacles that may not come near it (VisGraphDependency).
  std::unique_ptr<ResultDependency> result_dependency() const override;
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The graph of the current world (built on first use).
  const visgraph::VisGraphMap& map() const;
  /// The radius this planner inflates obstacles by, metres.
  double radius() const { return obstacle_params_.radius; }

 private:
  // The search state of a node, as planner/search's loop keeps it.
  struct NodeState {
    double g[1];               // infinity: not reached
    double h;                  // the heuristic when g was last lowered
    NodeId parent;             // kNoNode at the start
    std::uint32_t generation;  // PagedNodeState's
    std::uint8_t closed;
    static NodeState fresh(std::uint32_t generation) {
      return NodeState{{std::numeric_limits<double>::infinity()}, 0.0, kNoNode, generation, 0};
    }
  };
  // The graph as the best-first loop sees it (visgraph_planner.cpp).
  class Model;
  // A temporary link along an obstacle's boundary (shortcut mode).
  struct WalkLink {
    NodeId from = kNoNode;
    NodeId to = kNoNode;
    double cost = 0;
    std::vector<Vec2> via;  // points between from and to
  };

  NodeId temp(int k) const { return NodeId(corners_ + std::size_t(k)); }
  // The links of a corner this search uses (limited, if limits are set).
  std::span<const std::uint32_t> corner_links(std::uint32_t node) const {
    return limited_ ? limited_->links(node) : map_->graph().links(node);
  }
  double heuristic(Vec2 p) const;
  // Calls link(v, cost) for each move out of node u, in the order the search relaxes them
  // (cost() returns the move's cost); records the goal's links as u's are found.
  template <class Link>
  void successors(NodeId u, Link&& link);
  void link_exact();
  bool link_shortcut();
  void walk_to_corners(Vec2 from, std::uint32_t edge_vertex, bool reverse);
  void finish();
  // The road graph of the current world (built at start() when the world has roads).
  void prepare_roads();
  // The weighted regions of the current world (built at start()).
  void prepare_regions();
  // Cost of a straight leg: weighted through regions, else its length.
  double leg_cost(Vec2 a, Vec2 b) const;
  // The node of region corner k.
  NodeId region_node(std::size_t k) const { return NodeId(corners_ + 4 + k); }
  bool weighing() const { return params_.weighted && !params_.shortcut && !regions_.empty(); }
  // Roads planned in the graph: exact roads, not in shortcut mode, with a usable piece.
  bool road_nodes() const { return exact_roads() && !network_.empty(); }
  bool exact_roads() const { return params_.roads == RoadMode::Exact && !params_.shortcut; }
  bool road_pass_on() const {
    return params_.roads == RoadMode::Pass || (params_.roads == RoadMode::Exact && params_.shortcut);
  }
  // The query's turning points on the sides of the slow region holding `q` (the start or
  // the goal): where a way out of it (or in to it) leaves the side at the angle whose
  // cosine is 1 / the region's factor.
  void add_edge_points(Vec2 q, bool goal);
  // Calls link(e, cost) for each of the goal's edge points that node u at `pu` sees
  // (along a tangent, for an obstacle corner).
  template <class Link>
  void goal_edge_links(NodeId u, Vec2 pu, Link&& link);
  // successors() of one of the query's edge points.
  template <class Link>
  void edge_point_successors(NodeId u, Vec2 pu, Link&& link);
  // The road network of the current world (built at start()).
  void prepare_network();
  // Links of the start and the goal to the roads (exact roads).
  void link_roads();
  // successors() of road point u (permanent or the query's) at `pu`.
  template <class Link>
  void road_point_successors(NodeId u, Vec2 pu, Link&& link);
  // The cost of the optimal path without roads (a second search, run when the path takes a road).
  double cost_without_roads(std::vector<Vec2>* path);
  // The query's joining point on a piece: the start's (goal_cost < 0) or the goal's.
  struct TempRoadPoint {
    Vec2 pos;
    std::uint32_t piece = 0;
    double offset = 0;      // metres from the piece's end a
    double goal_cost = -1;  // the goal's: its leg to the goal
  };

  const PlanningWorld& world_;
  std::size_t class_;
  VisGraphParams params_;
  visgraph::ObstacleParams obstacle_params_;
  const visgraph::VisGraphMap* map_ = nullptr;       // fetched at start(); valid while revision_ holds
  const visgraph::LimitedLinks* limited_ = nullptr;  // with limits: fetched at start() as map_
  std::uint64_t revision_ = 0;
  std::size_t corners_ = 0;
  PathQuery query_;
  std::array<Vec2, 4> temp_pos_{};
  bool direct_ = false;                // the start sees the goal
  std::vector<NodeId> start_links_;    // corners linked to the start (exact mode)
  std::vector<NodeId> goal_links_;     // corners found linked to the goal (as expanded)
  std::vector<WalkLink> walks_;        // shortcut mode: boundary links of the crossing points
  visgraph::WeightedRegions regions_;  // valid while regions_revision_ == map().inputs_revision()
  std::uint64_t regions_revision_ = UINT64_MAX;
  std::vector<std::pair<NodeId, double>> start_region_links_;  // region corners the start sees, with costs
  double start_goal_cost_ = -1;    // with regions: the start sees the goal at this cost (else < 0)
  visgraph::RoadNetwork network_;  // exact roads: valid while network_revision_ == map().inputs_revision()
  std::uint64_t network_revision_ = UINT64_MAX;
  NodeId road_base_ = 0;       // node of road point 0
  NodeId road_temp_base_ = 0;  // node of the query's first joining point
  std::vector<TempRoadPoint> road_temps_;
  // The query's points on the sides of the slow regions holding the start and the goal
  // (add_edge_points), nodes edge_base_ ...: the start's first, then the goal's.
  struct EdgePoint {
    Vec2 pos;
    bool goal = false;  // the goal's (linked to the goal), else the start's
  };
  static constexpr std::size_t kMaxEdgePoints = 16;
  std::vector<EdgePoint> edge_points_;
  NodeId edge_base_ = 0;
  std::vector<std::vector<std::uint32_t>> piece_temps_;      // per piece: the query's joining points on it
  std::vector<std::pair<NodeId, double>> start_road_links_;  // road points the start sees, with costs
  std::unique_ptr<VisGraphPlanner>
      plain_;                  // exact roads: the same planner without roads, for cost_without_roads
  visgraph::RoadGraph roads_;  // valid while roads_revision_ == map().inputs_revision()
  std::uint64_t roads_revision_ = UINT64_MAX;
  std::vector<Vec2> road_joins_;                      // the last road pass's path-to-road links, pairs
  std::vector<Vec2> road_free_path_;                  // the last path before the road pass (empty: no pass)
  std::unique_ptr<PagedNodeState<NodeState>> state_;  // per node; made again when the node count changes
  BestFirstSearch<NodeState> search_;
};

}  // namespace pathscope
