#pragma once

// The tactical planner (seed 001): bidirectional A* on the 8-connected cell grid over
// the threat-aware cost model (threat_field.hpp), with the seed's inadmissible "Better
// Safe Than Sorry" heuristic or, for reference, an admissible one or none (Dijkstra).

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/core/search.hpp"
#include "planner/search/bidirectional_search.hpp"
#include "planner/search/paged_node_state.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/tactical/threat_field.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::tactical {

/// Which heuristic both searches use.
enum class TacticalMode : std::uint8_t {
  Bsts = 0,  ///< Seed 001: the model's cost along the straight line to the other end (inadmissible).
  Admissible =
      1,      ///< Distance not coverable by allies times the smallest cost per metre outside them (optimal).
  Exact = 2,  ///< No heuristic: bidirectional Dijkstra (optimal).
  Waypoint = 3,  ///< BSTS, or cheaper by way of one waypoint: an ally's centre, or just beside a
                 ///< threat across the start-goal line (inadmissible; an addition to the seed).
  Coarse = 4,    ///< Cost-to-go over a coarse lattice (Dijkstra from the other end, once per query),
                 ///< reached by a line from the cell (inadmissible; an addition to the seed).
};

/// Parameters of the tactical planner.
struct TacticalParams {
  CostModelParams model;
  TacticalMode mode = TacticalMode::Bsts;
  /// Bsts, Waypoint and Coarse: the heuristic's weight (1 = the seed's; lower explores more, strays less).
  double weight = 1.0;
  /// Cells on each side of the joined path searched again for the cheapest path inside
  /// them (0: only loops and one-cell detours are cut). Not used by Coarse.
  int corridor = 1;
};

/// The state of one cell in the tactical search: per side its g, its heuristic (computed
/// once per cell and query: NaN until then) and its parent; 48 bytes.
struct TacticalNode {
  double g[2];               ///< Cost from the side's root, metres; infinity when not reached.
  double h[2];               ///< The side's heuristic, metres; NaN until computed.
  NodeId parent[2];          ///< The side's parent; kNoNode at the root or when not reached.
  std::uint32_t generation;  ///< The search that wrote this state.
  std::uint8_t closed;       ///< Bit s: closed on side s.

  /// The state of a cell the search `generation` has just reached.
  static TacticalNode fresh(std::uint32_t generation) {
    TacticalNode s;
    for (int side = 0; side < 2; ++side) {
      s.g[side] = std::numeric_limits<double>::infinity();
      s.h[side] = std::numeric_limits<double>::quiet_NaN();
      s.parent[side] = kNoNode;
    }
    s.generation = generation;
    s.closed = 0;
    return s;
  }
};

/// Bidirectional A* over grid cells (node id = row-major cell index; side 0 searches from
/// the start, side 1 from the goal), on planner/search's bidirectional loop. A move
/// between neighbouring cell centres costs the model's cost of that segment times the
/// mean terrain multiplier of the two cells; the path runs between the centres of the
/// start and goal cells. Search memory: 48 bytes per cell (above 512 x 512 cells, in
/// pages allocated as searches first reach them), allocated at the first query and reused.
class TacticalPlanner final : public PlannerBase {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  TacticalPlanner(const PlanningWorld& world, std::size_t movement_class, const TacticalParams& params,
                  std::string name = "tactical");

  /// Begins a query: Invalid when c1 + c2 != 1, or an end is off the map or blocked;
  /// NoPath at once between regions.
  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;

  std::size_t node_count() const override { return grid_.cell_count(); }
  Vec2 node_position(NodeId node) const override { return grid_.center(node); }
  NodeGeometry node_geometry(NodeId node) const override;
  std::optional<NodeLattice> node_lattice() const override {
    return NodeLattice{grid_.width(), grid_.height(), grid_.cell_size()};
  }
  /// The heat map: cells inside `bounds`, value 1 + (cost per metre at the centre, terrain
  /// included) / c1, so safe cells are 1, open ground 2 and threatened cells 1 + c2 / c1;
  /// infinity when blocked.
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The last path coloured by exposure (one polyline per move, role Region, value: the
  /// share of the move inside threats) and the meeting point (points, role Region).
  void visit_path_structure(StructureVisitor& visitor) const override;
  /// The expanded cells, the threats and allies, and the heuristic's scale (tactical_dependency.hpp).
  std::unique_ptr<ResultDependency> result_dependency() const override;
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;

  /// The cost model of the current query.
  const ThreatField& field() const { return field_; }
  /// Cost of the move between neighbouring cells a and b, metres (symmetric).
  double move_cost(NodeId a, NodeId b) const;
  /// The heuristic of `cell` on `side` (towards the goal for side 0), metres.
  double heuristic(int side, NodeId cell) const;
  /// The meeting cell of the last Found result (kNoNode otherwise).
  NodeId meeting() const { return search_.meeting(); }

 private:
  /// The grid and cost model as the bidirectional loop sees them (tactical_planner.cpp).
  class Model;
  bool resolve_ends(const PathQuery& query);
  void finish(SearchStatus status);
  double grid_line_cost(Vec2 a, Vec2 b) const;
  void build_coarse();
  double coarse_heuristic(int side, NodeId cell) const;
  std::vector<NodeId> repair(std::vector<NodeId> nodes);
  std::vector<NodeId> corridor_search(const std::vector<NodeId>& nodes);

  const PlanningWorld& world_;
  const CostGrid& grid_;
  std::size_t class_;
  TacticalParams params_;
  ThreatField field_;
  double h_scale_ = 0;  // multiplies the heuristic's line cost (or Euclidean distance)
  // Admissible mode, per side: the distances to that side's target that some ally's disc
  // reaches, as sorted disjoint intervals, and the length they cover below each one's start.
  struct Reach {
    double lo, hi, covered_before;
  };
  std::vector<Reach> ally_reach_[2];
  PagedNodeState<TacticalNode> state_{0};  // sized at the first query
  BidirectionalSearch<TacticalNode> search_;
  NodeId ends_[2] = {kNoNode, kNoNode};
  std::uint64_t explored_ = 0;  // cells expanded by either side, each once, and the repair's
  std::size_t repairs_ = 0;
  double repair_gain_ = 0;  // cost the repair saved
  std::uint64_t corridor_cells_ = 0;
  // The corridor search's state, valid where corridor_stamp_ equals corridor_generation_.
  std::uint32_t corridor_generation_ = 0;
  std::vector<std::uint32_t> corridor_stamp_;
  std::vector<double> corridor_g_;
  std::vector<double> corridor_len_;
  std::vector<NodeId> corridor_parent_;
  std::vector<std::uint8_t> corridor_done_;
  std::vector<Vec2> waypoints_;  // Waypoint mode: ally centres, and eight round each threat
  std::vector<double>
      waypoint_tail_[2];  // cheapest chain of line costs from each waypoint to each side's target
  std::vector<std::uint32_t> waypoint_order_[2];  // waypoints by increasing tail, per side
  // Coarse mode: lattice columns and rows (fine cell indices), the lattice cell holding
  // each fine column and row, and each lattice node's cost-to-go to each side's target.
  std::vector<int> coarse_x_, coarse_y_;
  std::vector<int> coarse_col_, coarse_row_;
  std::vector<Vec2> coarse_pos_;              // lattice nodes (row-major), then rim points
  std::vector<Vec2> coarse_links_;            // the coarse graph's edges, as pairs of points (drawn)
  std::vector<std::uint32_t> coarse_bucket_;  // per lattice cell: its first entry in coarse_rims_
  std::vector<std::uint32_t> coarse_rims_;    // rim points' node indices, by lattice cell
  std::vector<double> coarse_to_[2];
  int coarse_stride_ = 0;
  bool coarse_open_field_ = false;       // no blocked cell, one multiplier: lines skip the walk
  std::uint64_t coarse_lines_ = 0;       // line costs the lattice took (its edges and seeds)
  std::vector<Exposure> path_exposure_;  // per move of the result
};

/// Ok if |c1 + c2 - 1| is within rounding and neither is negative; otherwise a Value error
/// whose message names both parameters and their sum.
Status check_constants(double c1, double c2);

}  // namespace pathscope::tactical
