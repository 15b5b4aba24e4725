#pragma once

// The quadtree planner (seed 000): A* over the leaves of a movement class's quadtree,
// then two passes of rubber-banding through the corridor of leaves it found.

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/memory_budget.hpp"
#include "planner/core/open_list.hpp"
#include "planner/core/search.hpp"
#include "planner/quadtree/quadtree_landmarks.hpp"
#include "planner/quadtree/quadtree_map.hpp"
#include "planner/quadtree/rubber_band.hpp"
#include "planner/search/best_first_search.hpp"
#include "planner/search/paged_node_state.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// A* over quadtree leaves, steppable and traced like every planner. A leaf's node id is
/// its corner (Quadtree::corner: the row-major index of its top-left cell), the same on
/// a tree kept up to date as on a fresh one; ids of cells that are no leaf's corner name
/// no node.
/// A leaf is entered where the line from its parent's entry point towards the goal meets
/// the portal between them (the nearest point of the portal to that line, reflected
/// when the goal lies behind it); an edge costs the distance between the two entry
/// points times the multiplier of the leaf it crosses. A found corridor is then
/// rubber-banded: cell centres, step 1 (portal corners), step 2 (string pulling within
/// runs of one cost, never dearer than step 1), each a refinement event. Costs are metres
/// of terrain-weighted travel along the final path.
///
/// The heuristic is the straight distance to the goal times the smallest multiplier, or
/// with landmarks (QuadtreeParams::landmarks > 0) the largest of that and the landmarks'
/// two estimates (QuadLandmarks::bound over their greedy costs, QuadLandmarks::corner_bound
/// over their corner costs), which see walls and slow terrain between.
struct QuadtreeParams {
  /// Multiplies the heuristic (1: A*; above 1: fewer expansions, longer corridors; see
  /// the README for what it costs in length).
  double weight = 1.0;
  /// Landmarks of the heuristic (0: none). Chosen and costed again, by a Dijkstra each,
  /// at the first query after a change of cells (QuadLandmarks::of).
  int landmarks = 0;
  /// Share of the landmarks' costs taken off their estimate, for the excess of the
  /// model's paths over the shortest ones.
  double landmark_margin = 0.05;
  /// The most memory the tree, its links and its landmarks may take (planner parameter
  /// memory_mib); a world that would need more is Invalid, naming the budget.
  MemoryBudget memory{};
};

class QuadtreePlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  QuadtreePlanner(const PlanningWorld& world, std::size_t movement_class, std::string name = "quadtree",
                  QuadtreeParams params = {});

  /// Begins a query. A start inside an impassable leaf may leave it (links out of
  /// impassable leaves); a goal inside one is Invalid; start and goal in different
  /// regions is NoPath at once.
  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;

  /// Cells of the class's grid (node ids are leaves' top-left cells).
  std::size_t node_count() const override;
  /// A leaf's centre.
  Vec2 node_position(NodeId node) const override;
  /// A leaf's square.
  NodeGeometry node_geometry(NodeId node) const override;
  /// The leaf holding the point (a descent of the tree), or kNoNode outside the map.
  NodeId node_at(Vec2 point, double tolerance) const override;
  /// Leaves meeting `bounds` (value: multiplier, infinity when impassable), their links
  /// (kind "link"; one-way links out of impassable leaves marked directed; two-way links
  /// once), and the landmarks when the heuristic uses them (shapes "landmark": a circle
  /// round each landmark leaf's centre).
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The corridor of the last Found result (its leaves, role Corridor, value: the
  /// multiplier paid inside) and its portals (shapes "portal", role Portal).
  void visit_path_structure(StructureVisitor& visitor) const override;
  /// The squares the last search read (each touched leaf's parent square and one ring
  /// of cells around it) and the heuristic's scale; with landmarks, the whole map (their
  /// costs depend on every cell), so only changes that alter no cell keep the answer.
  std::unique_ptr<ResultDependency> result_dependency() const override;
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The corridor of the last Found result (empty otherwise).
  const Corridor& corridor() const { return corridor_; }
  /// The polylines of the three stages of the last Found result.
  const CorridorPath& centre_stage() const { return centres_; }
  const CorridorPath& portal_stage() const { return portal_; }
  const CorridorPath& pulled_stage() const { return pulled_; }

 private:
  // The search state of a leaf (by leaf id), as planner/search's loop keeps it.
  struct LeafState {
    double g[1];               // infinity: not reached
    double h;                  // heuristic at the entry point
    Vec2 entry;                // where the path enters the leaf, world
    NodeId parent;             // a leaf id (not a node id)
    std::uint32_t generation;  // PagedNodeState's
    std::uint8_t closed;
    static LeafState fresh(std::uint32_t generation) {
      return LeafState{{std::numeric_limits<double>::infinity()}, 0.0, Vec2{0, 0}, kNoNode, generation, 0};
    }
  };
  // The leaves' graph as the best-first loop sees it (quadtree_planner.cpp).
  class Model;

  const QuadtreeMap& map() const { return QuadtreeMap::of(world_, class_, params_.memory); }
  double heuristic(NodeId leaf, Vec2 entry) const;
  double travel_multiplier(NodeId leaf) const;
  // The node id (corner) of a leaf id, or kNoNode for kNoNode; the map fetched by start().
  NodeId node_of(std::uint32_t leaf) const;
  // A forward event (side 0); the observer must be attached.
  void emit(SearchEventKind kind, NodeId node, NodeId parent, double g, double h) const {
    PlannerBase::emit(kind, 0, node, parent, g, h);
  }
  // Sends one step of string pulling to the observer, with its visibility region.
  void refine_pull_step(const PullStep& step) const;
  void finish();

  const PlanningWorld& world_;
  std::size_t class_;
  const QuadtreeMap* map_ = nullptr;  // fetched at start(); valid while revision_ holds
  std::uint64_t revision_ = 0;
  double min_multiplier_ = 1;
  QuadtreeParams params_;
  const QuadLandmarks* landmarks_ = nullptr;  // fetched at start() when asked for
  std::vector<float> goal_costs_;             // the goal leaf's landmark costs
  double goal_slack_ = 0;                     // its half-diagonal times its multiplier
  std::vector<float> goal_corner_costs_;      // the goal leaf's corner costs
  std::vector<double>
      goal_excess_;  // per landmark: the goal's distance from its leaf's entry, times its multiplier
  PathQuery query_;
  NodeId start_leaf_ = kNoNode;  // leaf ids
  NodeId goal_leaf_ = kNoNode;
  std::unique_ptr<PagedNodeState<LeafState>> state_;  // per leaf id; grows with the leaf slots
  // Open entries by node id (corner), tagged with the leaf id.
  BestFirstSearch<LeafState, TaggedOpenList> search_;
  Corridor corridor_;
  CorridorPath centres_, portal_, pulled_;
  std::vector<CellRect> shortcut_cells_;  // cells round the last result's shortcut legs
};

}  // namespace pathscope
