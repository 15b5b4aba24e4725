// A*, weighted A* and Dijkstra on a CostGrid.
//
// Moves and costs follow cost_grid.hpp (8-connected, 1 and sqrt(2) times the mean of the
// two cells' multipliers, no corner cutting). The heuristic is the octile distance times
// the smallest multiplier on the map, which never overestimates, and is consistent, so
// with weight 1 the first time the goal leaves the open list its cost is optimal and no
// node needs reopening. The open list uses lazy deletion: an improved cell is pushed
// again and its stale entry is skipped when it surfaces (it is closed by then).
// Ties: f, then h (deeper first), then cell index.

#include "planner/grid/grid_astar.hpp"

#include <algorithm>

namespace pathscope {

GridAStar::GridAStar(const PlanningWorld& world, std::size_t movement_class, GridAStarParams params, std::string name)
    : GridSearchBase<1>(world, movement_class, std::move(name)), params_(params) {}

SearchStatus GridAStar::start(const PathQuery& query) {
  open_.clear();
  // The scale is read again at every start: the world may have been updated.
  if (!begin_query(query, params_.weight * grid_.min_multiplier())) return result_.status;
  const NodeId start = ends_[0];
  state_.add(start).g[0] = 0.0;
  const double h = heuristic(0, start);
  open_.push(OpenEntry{h, float(h), start});
  ++result_.stats.pushes;
  if (observer_) emit(SearchEventKind::Push, 0, start, kNoNode, 0.0, h);
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus GridAStar::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  const CostGrid::View cells = grid_.view();
  const auto& offsets = grid_.offsets();
  const NodeId goal = ends_[1];
  const glm::ivec2 goal_xy = ends_xy_[1];
  const double h_scale = h_scale_;
  const GridSearchState<1>::Finder reached = state_.finder();
  std::uint64_t done = 0;
  while (done < max_expansions) {
    if (open_.empty()) {
      result_.message = "the open list ran empty: the goal is unreachable";
      finish(SearchStatus::NoPath);
      return result_.status;
    }
    const OpenEntry top = open_.pop();
    Cell& cur = state_.at(top.node);
    if (cur.closed) continue;  // stale duplicate of an improved entry
    cur.closed = 1;
    ++done;
    ++result_.stats.expansions;
    const NodeId u = top.node;
    if (observer_) emit(SearchEventKind::Expand, 0, u, parent_of(0, u), cur.g[0], heuristic(0, u));
    if (u == goal) {
      finish(SearchStatus::Found);
      return result_.status;
    }
    const double gu = cur.g[0];
    const double mu = cells.multiplier(u);
    const std::uint8_t mask = cells.moves[u];
    const glm::ivec2 uc = grid_.cell(u);  // one division per expansion, none per neighbour
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
      Cell* sv = reached.find(v);
      const bool fresh = sv == nullptr;
      if (fresh) sv = &state_.add(v);
      else if (sv->closed) continue;
      const double ng = gu + kDirLength[d] * (0.5 * (mu + cells.multiplier(v)));
      if (!(ng < sv->g[0])) continue;
      sv->g[0] = ng;
      sv->parent_dir[0] = std::uint8_t(d);
      const double h = h_scale == 0 ? 0.0 : h_scale * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], goal_xy.x, goal_xy.y);
      open_.push(OpenEntry{ng + h, float(h), v});
      ++result_.stats.pushes;
      if (!fresh) ++result_.stats.relaxations;
      if (observer_) emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, 0, v, u, ng, h);
    }
  }
  return result_.status;
}

void GridAStar::finish(SearchStatus status) {
  result_.stats.extra = {{"open_at_end", double(open_.size())}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  std::vector<NodeId> nodes;
  append_chain(0, ends_[1], nodes);
  std::reverse(nodes.begin(), nodes.end());
  finish_path(std::move(nodes));
}

}  // namespace pathscope
