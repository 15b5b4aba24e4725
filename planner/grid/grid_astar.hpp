#pragma once

// Best-first search on an 8-connected cost grid: A*, weighted A* and Dijkstra share this
// one engine (seed 001, section 3; seed 000, "The Quadtree").

#include <cstdint>
#include <string>
#include <vector>

#include "planner/core/open_list.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/core/search.hpp"

namespace pathscope {

/// Parameters of GridAStar.
struct GridAStarParams {
  /// f = g + weight * h. 1 = A* (optimal); > 1 = weighted A* (cost <= weight * optimum);
  /// 0 = Dijkstra (no heuristic).
  double weight = 1.0;
};

/// A*, weighted A* or Dijkstra on one movement class's CostGrid. Nodes are cells
/// (id = row-major index). Search memory is allocated once (16 bytes per cell) and
/// reused: a generation counter marks which cells belong to the current query.
class GridAStar final : public Planner {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridAStar(const PlanningWorld& world, std::size_t movement_class, GridAStarParams params, std::string name);

  std::string_view name() const override { return name_; }
  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;
  const PathResult& result() const override { return result_; }
  std::size_t node_count() const override { return grid_.cell_count(); }
  Vec2 node_position(NodeId node) const override { return grid_.center(node); }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;
  bool expanded_cells(std::vector<std::uint64_t>& bits) const override;
  void set_observer(SearchObserver* observer) override { observer_ = observer; }

  /// Bytes of search state per cell (for the speed report).
  static constexpr std::size_t kStateBytesPerCell = 16;

 private:
  struct CellState {
    double g;                 // cells; valid only when generation == generation_
    std::uint32_t generation;
    std::uint8_t parent_dir;  // direction of the move from the parent into this cell; 8 = none
    std::uint8_t closed;
  };
  static_assert(sizeof(CellState) == kStateBytesPerCell);

  double heuristic(NodeId cell) const;
  void finish(SearchStatus status);
  void emit(SearchEventKind kind, NodeId node, NodeId parent, double g, double h) const;

  const PlanningWorld& world_;
  const CostGrid& grid_;
  std::size_t class_;
  GridAStarParams params_;
  std::string name_;
  double h_scale_;  // weight * smallest multiplier: admissible when weight == 1

  std::vector<CellState> state_;
  std::uint32_t generation_ = 0;
  OpenList open_;
  PathQuery query_;
  NodeId start_ = kNoNode;
  NodeId goal_ = kNoNode;
  glm::ivec2 goal_xy_{0, 0};
  PathResult result_;
  SearchObserver* observer_ = nullptr;
};

}  // namespace pathscope
