// Bidirectional A* on a CostGrid.
//
// Both searches use the octile heuristic scaled by the smallest multiplier (towards the
// goal forwards, towards the start backwards); it is consistent, and moves are symmetric
// (cost_grid.hpp), so the backward search runs on the same moves and costs.
//
// The loop is planner/search/bidirectional_search.hpp, with the classic stopping rule:
// mu (the best start-goal path seen) <= max(min f forward, min f backward), which with a
// consistent heuristic returns an optimal path; meeting when the frontiers first touch,
// as in seed 001, is what leaves a bump in the path. Side choice: the side whose open
// list is smaller; ties go forward. Tie-breaking inside a side: f, then h, then cell index.

#include "planner/grid/grid_bidirectional.hpp"

#include <algorithm>
#include <limits>

namespace pathscope {

GridBidirectional::GridBidirectional(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : GridSearchBase<2>(world, movement_class, std::move(name)) {}

/// The grid as the bidirectional loop sees it: each cell's moves, their costs from the two
/// cells' multipliers, the octile heuristic towards the other side's root computed from
/// cell coordinates (one division per expansion, none per neighbour).
class GridBidirectional::Model {
 public:
  explicit Model(GridBidirectional& planner)
      : p_(planner), cells_(planner.grid_.view()), offsets_(planner.grid_.offsets().data()) {}

  bool tracing() const { return p_.observer_ != nullptr; }
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    p_.emit(kind, side, node, parent, g, h);
  }
  double heuristic(int side, NodeId n) const { return p_.heuristic(side, n); }
  NodeId parent(int side, NodeId n, const Cell&) const { return p_.parent_of(side, n); }
  bool meeting_is_final(double mu, double top_f0, double top_f1) const {
    return mu <= std::max(top_f0, top_f1);
  }

  template <class Relax>
  void successors(int side, NodeId u, const Cell& cur, Relax&& relax) const {
    (void)cur;
    const double mu = cells_.multiplier(u);
    const std::uint8_t mask = cells_.moves[u];
    const glm::ivec2 uc = p_.grid_.cell(u);  // one division per expansion, none per neighbour
    const glm::ivec2 target = p_.ends_xy_[1 - side];
    const double h_scale = p_.h_scale_;
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets_[d]);
      relax(
          v, [side, d](Cell& c) { c.parent_dir[side] = std::uint8_t(d); },
          [&] { return kDirLength[d] * (0.5 * (mu + cells_.multiplier(v))); },
          [&](const Cell&) {
            return h_scale * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], target.x, target.y);
          });
    }
  }

 private:
  const GridBidirectional& p_;
  const CostGrid::View cells_;
  const std::int64_t* const offsets_;
};

SearchStatus GridBidirectional::start(const PathQuery& query) {
  // The scale is read again at every start: the world may have been updated.
  if (!begin_query(query, grid_.min_multiplier())) return result_.status;
  Model model(*this);
  search_.start(model, state_, ends_, result_.stats);
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus GridBidirectional::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  Model model(*this);
  const SearchStatus status = search_.step(model, state_, result_.stats, max_expansions);
  if (status == SearchStatus::NoPath) result_.message = "an open list ran empty: the goal is unreachable";
  if (status != SearchStatus::Running) finish(status);
  return result_.status;
}

void GridBidirectional::finish(SearchStatus status) {
  result_.stats.extra = {{"forward_expansions", double(search_.side_expansions(0))},
                         {"backward_expansions", double(search_.side_expansions(1))}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  const NodeId meet = search_.meeting();
  std::vector<NodeId> nodes = search_.path(Model(*this), state_);
  const glm::ivec2 m = grid_.cell(meet);
  result_.stats.extra.emplace_back("meet_x", double(m.x));
  result_.stats.extra.emplace_back("meet_y", double(m.y));
  finish_path(std::move(nodes));
}

}  // namespace pathscope
