#include "planner/grid/grid_search_base.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "planner/grid/grid_dependency.hpp"

namespace pathscope {

template <int kSides>
GridSearchBase<kSides>::GridSearchBase(const PlanningWorld& world, std::size_t movement_class,
                                       std::string name)
    : PlannerBase(std::move(name)),
      world_(world),
      grid_(world.grid(movement_class)),
      class_(movement_class),
      state_(world.grid(movement_class).cell_count()) {}

template <int kSides>
bool GridSearchBase<kSides>::begin_query(const PathQuery& query, double h_scale) {
  query_ = query;
  // A new result, keeping the memory of the last one's points for this one's.
  std::vector<Vec2> points = std::move(result_.points);
  result_ = PathResult{};
  points.clear();
  result_.points = std::move(points);
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
void GridSearchBase<kSides>::finish_path(std::vector<NodeId> nodes, std::span<const std::uint8_t> dirs) {
  if (!observer_) {
    finish_grid_path(grid_, query_, std::move(nodes), dirs, result_, nullptr);
    return;
  }
  std::vector<double> g;
  finish_grid_path(grid_, query_, std::move(nodes), dirs, result_, &g);
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
void GridSearchBase<kSides>::expanded_cells(std::vector<std::uint64_t>& bits) const {
  bits.assign((grid_.cell_count() + 63) / 64, 0);
  state_.for_each_reached([&](NodeId c, const Cell& s) {
    if (s.closed) bits[c >> 6] |= std::uint64_t(1) << (c & 63);
  });
}

template <int kSides>
NodeGeometry GridSearchBase<kSides>::node_geometry(NodeId node) const {
  const glm::ivec2 c = grid_.cell(node);
  const double s = grid_.cell_size();
  const Box2 box{{c.x * s, c.y * s}, {(c.x + 1) * s, (c.y + 1) * s}};
  return NodeGeometry{NodeShape::Box, box.center(), box, {}};
}

template <int kSides>
void GridSearchBase<kSides>::visit_structure(const Box2& bounds, StructureVisitor& visitor) const {
  const double s = grid_.cell_size();
  if (bounds.empty()) return;
  const int x0 = std::max(0, int(std::floor(bounds.lo.x / s))),
            y0 = std::max(0, int(std::floor(bounds.lo.y / s)));
  const int x1 = std::min(grid_.width(), int(std::floor(bounds.hi.x / s)) + 1);
  const int y1 = std::min(grid_.height(), int(std::floor(bounds.hi.y / s)) + 1);
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      if (visitor.full()) return;
      const std::uint32_t i = grid_.index(x, y);
      const double m = grid_.passable(i) ? grid_.multiplier(i) : std::numeric_limits<double>::infinity();
      const Box2 box{{x * s, y * s}, {(x + 1) * s, (y + 1) * s}};
      visitor.cell(StructureCell{NodeShape::Box, box, {}, m, i});
      // Each undirected move once: east, south-east, south, south-west (y grows down).
      const std::uint8_t moves = grid_.moves(i);
      for (const int d : {0, 4, 1, 5}) {
        if (!(moves & (1u << d))) continue;
        if (visitor.full()) return;
        const NodeId j = NodeId(std::int64_t(i) + grid_.offsets()[d]);
        visitor.edge(
            StructureEdge{i, j, box.center(), grid_.center(j), "move", grid_.move_cost(i, d) * s, false});
      }
    }
  }
}

template <int kSides>
std::unique_ptr<ResultDependency> GridSearchBase<kSides>::result_dependency() const {
  if (result_.status != SearchStatus::Found) return nullptr;
  std::vector<std::uint64_t> bits;
  expanded_cells(bits);
  return std::make_unique<ExpandedCellsDependency>(world_, class_, std::move(bits));
}

template class GridSearchBase<1>;
template class GridSearchBase<2>;

}  // namespace pathscope
