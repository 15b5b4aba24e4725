#pragma once

// What every best-first search on the cell grid shares: its per-cell state (paged,
// generation-stamped: grid_search_state.hpp), mapping a query onto cells, trace events in
// metres, rebuilding paths from parent directions, and the read-only views of the search
// (the nodes it reached, the cells it expanded). A*, weighted A* and Dijkstra (one side),
// bidirectional A* (two sides) and the jump point searches derive from it; their loops are
// planner/search's (best_first_search.hpp for the one-sided searches and the jump point
// searches, bidirectional_search.hpp).

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "planner/core/search.hpp"
#include "planner/grid/grid_query.hpp"
#include "planner/grid/grid_search_state.hpp"
#include "planner/search/planner_base.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope {

/// Base of the grid planners: nodes are the cells of one movement class's CostGrid (id =
/// row-major index), searched from `kSides` roots (1: the start; 2: start and goal).
/// Costs are kept in cells and reported in metres.
template <int kSides>
class GridSearchBase : public PlannerBase {
 public:
  using Cell = GridCellState<kSides>;

  std::size_t node_count() const override { return grid_.cell_count(); }
  Vec2 node_position(NodeId node) const override { return grid_.center(node); }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;
  /// A cell: its square, centred on node_position().
  NodeGeometry node_geometry(NodeId node) const override;
  /// The cells of the class's grid, id = row-major index.
  std::optional<NodeLattice> node_lattice() const override {
    return NodeLattice{grid_.width(), grid_.height(), grid_.cell_size()};
  }
  /// Cells inside `bounds` (value: the multiplier, infinity when blocked) and their legal
  /// moves (kind "move", cost in metres, each pair once).
  void visit_structure(const Box2& bounds, StructureVisitor& visitor) const override;
  /// The cells the last search expanded and the heuristic's scale (grid_dependency.hpp).
  std::unique_ptr<ResultDependency> result_dependency() const override;

  /// Sets `bits` to one bit per cell (bit c of word c / 64) for the cells the current
  /// search has expanded (on either side).
  void expanded_cells(std::vector<std::uint64_t>& bits) const;

  /// Bytes of search state per cell of an allocated page (16 one-sided, 24 two-sided).
  static constexpr std::size_t kStateBytesPerCell = GridSearchState<kSides>::kBytesPerCell;
  /// Bytes of search state held now: the pages searches have written so far.
  std::size_t state_bytes() const { return state_.memory_bytes(); }

 protected:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridSearchBase(const PlanningWorld& world, std::size_t movement_class, std::string name);

  /// Begins a query: a new result, a new search generation (every cell untouched), the
  /// observer told, the query mapped onto cells. `h_scale` multiplies the octile
  /// heuristic (0: none). Returns false when the query finished at once (Invalid, or
  /// NoPath between regions: result_ says which); otherwise ends_ holds start and goal.
  bool begin_query(const PathQuery& query, double h_scale);

  /// Heuristic of a cell on `side`, cells: h_scale times the octile distance to the other
  /// side's root (the goal for side 0).
  double heuristic(int side, NodeId cell) const {
    return h_scale_ == 0 ? 0.0 : h_scale_ * octile_cells(grid_, cell, ends_[1 - side]);
  }
  /// The parent of a reached cell on `side`, or kNoNode at the side's root.
  NodeId parent_of(int side, NodeId cell) const {
    const std::uint8_t d = state_.at(cell).parent_dir[side];
    return d == Cell::kNoDir ? kNoNode : NodeId(std::int64_t(cell) - grid_.offsets()[d]);
  }
  /// Sends a trace event to the observer (which must be set); g and h in cells, reported
  /// in metres.
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    const double s = grid_.cell_size();
    PlannerBase::emit(kind, side, node, parent, g * s, h * s);
  }
  /// Appends `cell` and its parents on `side`, up to the side's root.
  void append_chain(int side, NodeId cell, std::vector<NodeId>& nodes) const {
    for (NodeId n = cell; n != kNoNode; n = parent_of(side, n)) nodes.push_back(n);
  }
  /// Result Found with the cell path `nodes` (start to goal); emits the Path events.
  /// `dirs`: each move's direction when the planner knows them (finish_grid_path()).
  void finish_path(std::vector<NodeId> nodes, std::span<const std::uint8_t> dirs = {});

  const PlanningWorld& world_;
  const CostGrid& grid_;
  std::size_t class_;
  double h_scale_ = 0;  // heuristic factor of the current query
  GridSearchState<kSides> state_;
  PathQuery query_;
  NodeId ends_[2] = {kNoNode, kNoNode};       // start, goal cells of the current query
  glm::ivec2 ends_xy_[2] = {{0, 0}, {0, 0}};  // their cell coordinates
};

extern template class GridSearchBase<1>;
extern template class GridSearchBase<2>;

}  // namespace pathscope
