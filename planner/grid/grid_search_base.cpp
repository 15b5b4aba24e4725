#include "planner/grid/grid_search_base.hpp"

namespace pathscope {

template <int kSides>
GridSearchBase<kSides>::GridSearchBase(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : world_(world),
      grid_(world.grid(movement_class)),
      class_(movement_class),
      name_(std::move(name)),
      state_(world.grid(movement_class).cell_count()) {}

template <int kSides>
bool GridSearchBase<kSides>::begin_query(const PathQuery& query, double h_scale) {
  query_ = query;
  result_ = PathResult{};
  h_scale_ = h_scale;
  ends_[0] = ends_[1] = kNoNode;
  state_.next_search();
  if (observer_) observer_->on_start(query);
  const auto ends = resolve_grid_query(world_, class_, query, result_);
  if (!ends) return false;
  ends_[0] = ends->start;
  ends_[1] = ends->goal;
  ends_xy_[0] = grid_.cell(ends_[0]);
  ends_xy_[1] = grid_.cell(ends_[1]);
  return true;
}

template <int kSides>
void GridSearchBase<kSides>::finish_path(std::vector<NodeId> nodes) {
  const std::vector<double> g = finish_grid_path(grid_, query_, std::move(nodes), result_);
  if (!observer_) return;
  for (std::size_t i = 0; i < g.size(); ++i) {
    observer_->on_event(SearchEvent{SearchEventKind::Path, 0, result_.nodes[i], kNoNode, g[i], 0.0});
  }
}

template <int kSides>
void GridSearchBase<kSides>::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || ends_[0] == kNoNode) return;
  const double s = grid_.cell_size();
  for (int side = 0; side < kSides; ++side) {
    state_.for_each_reached([&](NodeId n, const Cell& c) {
      if (c.g[side] == std::numeric_limits<double>::infinity()) return;
      NodeView view;
      view.node = n;
      view.side = std::uint8_t(side);
      view.g = c.g[side] * s;
      view.h = heuristic(side, n) * s;
      view.parent = parent_of(side, n);
      view.closed = (c.closed >> side) & 1u;
      fn(view);
    });
  }
}

template <int kSides>
bool GridSearchBase<kSides>::expanded_cells(std::vector<std::uint64_t>& bits) const {
  bits.assign((grid_.cell_count() + 63) / 64, 0);
  state_.for_each_reached([&](NodeId c, const Cell& s) {
    if (s.closed) bits[c >> 6] |= std::uint64_t(1) << (c & 63);
  });
  return true;
}

template class GridSearchBase<1>;
template class GridSearchBase<2>;

}  // namespace pathscope
