#pragma once

// Bidirectional A* on an 8-connected cost grid (seed 001, section 3), with a stopping
// rule that returns an optimal path, so there is no bump where the two searches meet
// (the artefact seed 001, section 5 complains of).

#include <cstdint>
#include <string>
#include <vector>

#include "planner/core/open_list.hpp"
#include "planner/world/planning_world.hpp"
#include "planner/core/search.hpp"

namespace pathscope {

/// Bidirectional A*: a forward search from the start and a backward search from the
/// goal, each with its own open list; side 0 is forward, side 1 backward in traces and
/// views. Search memory: 24 bytes per cell for both directions, allocated once.
class GridBidirectional final : public Planner {
 public:
  /// `world` must outlive the planner.
  GridBidirectional(const PlanningWorld& world, std::size_t movement_class, std::string name);

  std::string_view name() const override { return name_; }
  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;
  const PathResult& result() const override { return result_; }
  std::size_t node_count() const override { return grid_.cell_count(); }
  Vec2 node_position(NodeId node) const override { return grid_.center(node); }
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;
  bool expanded_cells(std::vector<std::uint64_t>& bits) const override;
  void set_observer(SearchObserver* observer) override { observer_ = observer; }

  /// Bytes of search state per cell, both directions together.
  static constexpr std::size_t kStateBytesPerCell = 24;

 private:
  struct CellState {
    double g[2];               // cells, per side; valid when generation == generation_
    std::uint32_t generation;
    std::uint8_t parent_dir[2];// per side: the move from the parent into this cell; 8 = none
    std::uint8_t closed;       // bit 0: closed forward, bit 1: closed backward
    std::uint8_t pad;
  };
  static_assert(sizeof(CellState) == kStateBytesPerCell);

  double heuristic(int side, NodeId cell) const;
  bool top_is_stale(int side) const;
  void drop_stale(int side);
  void expand(int side);
  void finish(SearchStatus status);
  NodeId parent_of(int side, NodeId cell) const;
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const;

  const PlanningWorld& world_;
  const CostGrid& grid_;
  std::size_t class_;
  std::string name_;
  double h_scale_;

  std::vector<CellState> state_;
  std::uint32_t generation_ = 0;
  OpenList open_[2];
  PathQuery query_;
  NodeId ends_[2] = {kNoNode, kNoNode};  // [0] start, [1] goal
  glm::ivec2 ends_xy_[2] = {{0, 0}, {0, 0}};
  double best_ = 0;                      // mu: cost of the best meeting found so far (cells)
  NodeId meet_ = kNoNode;
  std::uint64_t side_expansions_[2] = {0, 0};
  PathResult result_;
  SearchObserver* observer_ = nullptr;
};

}  // namespace pathscope
