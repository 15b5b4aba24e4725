// A*, weighted A* and Dijkstra on a CostGrid.
//
// Moves and costs follow cost_grid.hpp (8-connected, 1 and sqrt(2) times the mean of the
// two cells' multipliers, no corner cutting). The heuristic is the octile distance times
// the smallest multiplier on the map, which never overestimates, and is consistent, so
// with weight 1 no node needs reopening. The open list uses lazy deletion: an improved cell is pushed
// again and its stale entry is skipped when it surfaces (it is closed by then).
// Ties: f, then h (deeper first), then cell index.
//
// The goal is never expanded. Its cost so far is kept when a move reaches it, and the
// search ends once the open list's least f is no smaller: every other path is at least
// that f (the heuristic is consistent). On open maps this saves every cell whose f
// equals the optimum, a whole band of them, which expanding until the goal surfaces
// would take whenever rounding puts one of them ahead of it; entries that cannot beat
// the goal's cost are not pushed at all. On maps of one multiplier (every Moving AI
// map) a move's cost is read from a table of eight, not from the two cells.
//
// Ties, exactly. There, with weight 1 (or 0), every f is m (A + B sqrt 2) for integers A
// and B (straight and diagonal moves, spent and estimated), so two f are equal exactly
// when A and B are; but g is summed move by move in doubles, so equal f reach the open
// list a few ulps apart and ties would be broken by rounding noise rather than towards
// the goal. Open-list keys are therefore f rounded to 2^-20 cells (times m): distinct
// values differ by at least about 1 / (3 B) (sqrt 2 is badly approximable), 2e-5 on a
// 4096-cell path, far above the rounding step, while the summed error stays far below
// it (1e-8 there), so keys order distinct f as f does and equal f as equal, and ties
// go to the smaller h (the larger g). Costs and paths are still the exact doubles.

#include "planner/grid/grid_astar.hpp"

#include <algorithm>
#include <limits>

namespace pathscope {
namespace {

// Rounded keys per cell of f (a multiple of 1 / kKeyQuantum, taken as the nearest integer
// of f * kKeyQuantum: adding and taking away 2^52 rounds exactly and in every build, as
// round to nearest is the default mode and nothing is fused; f stays below 2^32 cells).
constexpr double kKeyQuantum = 1048576.0;  // 2^20

}  // namespace

GridAStar::GridAStar(const PlanningWorld& world, std::size_t movement_class, GridAStarParams params,
                     std::string name)
    : GridSearchBase<1>(world, movement_class, std::move(name)), params_(params) {}

/// The grid as the best-first loop sees it: the moves of each cell, their costs (kUniform:
/// length times the one multiplier, from a table of eight), the octile heuristic computed
/// from cell coordinates (one division per expansion, none per neighbour).
template <bool kUniform>
class GridAStar::Model {
 public:
  explicit Model(GridAStar& planner)
      : p_(planner),
        cells_(planner.grid_.view()),
        moves_(planner.moves_ ? planner.moves_ : cells_.moves),
        offsets_(planner.grid_.offsets().data()),
        goal_xy_(planner.ends_xy_[1]),
        h_scale_(planner.h_scale_),
        reached_(planner.state_.finder()) {
    const double m = planner.grid_.min_multiplier();
    for (int d = 0; d < 8; ++d) move_cost_[d] = kDirLength[d] * m;
  }

  bool tracing() const { return p_.observer_ != nullptr; }
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    p_.emit(kind, side, node, parent, g, h);
  }
  double heuristic(NodeId n) const { return p_.heuristic(0, n); }
  NodeId parent(NodeId n, const Cell&) const { return p_.parent_of(0, n); }
  double key(double f) const { return p_.key(f); }

  template <class Relax>
  void successors(NodeId u, const Cell& cur, Relax&& relax) const {
    const double mu = kUniform ? 0.0 : cells_.multiplier(u);
    const std::uint8_t mask = moves_[u];
    // The rows above and below are far away in memory: start both loads now, so that
    // their cache misses overlap instead of waiting one after the other.
    if (mask & 0xC8u) reached_.prefetch(NodeId(std::int64_t(u) + offsets_[3]));  // N, NW, NE
    if (mask & 0x32u) reached_.prefetch(NodeId(std::int64_t(u) + offsets_[1]));  // S, SE, SW
    const glm::ivec2 uc = p_.grid_.cell(u);  // one division per expansion, none per neighbour
    (void)cur;
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets_[d]);
      relax(
          v, [d](Cell& c) { c.parent_dir[0] = std::uint8_t(d); },
          [&] { return kUniform ? move_cost_[d] : kDirLength[d] * (0.5 * (mu + cells_.multiplier(v))); },
          [&] {
            return h_scale_ == 0
                       ? 0.0
                       : h_scale_ * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], goal_xy_.x, goal_xy_.y);
          });
    }
  }

 private:
  const GridAStar& p_;
  const CostGrid::View cells_;
  const std::uint8_t* const moves_;
  const std::int64_t* const offsets_;
  const glm::ivec2 goal_xy_;
  const double h_scale_;
  const GridSearchState<1>::Finder reached_;
  double move_cost_[8];
};

SearchStatus GridAStar::start(const PathQuery& query) {
  // The scale is read again at every start: the world may have been updated.
  if (!begin_query(query, params_.weight * grid_.min_multiplier())) return result_.status;
  // Exact keys (see the top of the file): on a uniform map with the octile heuristic
  // unweighted (or none), every f is m (A + B sqrt 2) for integers A and B.
  rounded_keys_ = grid_.uniform_cost() && (params_.weight == 1.0 || params_.weight == 0.0);
  key_scale_ = kKeyQuantum / grid_.min_multiplier();
  Model<true> model(*this);
  search_.start(model, state_, ends_[0], ends_[1], result_.stats);
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus GridAStar::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  return grid_.uniform_cost() ? run<true>(max_expansions) : run<false>(max_expansions);
}

template <bool kUniform>
SearchStatus GridAStar::run(std::uint64_t max_expansions) {
  Model<kUniform> model(*this);
  const SearchStatus status = search_.step(model, state_, result_.stats, max_expansions);
  if (status == SearchStatus::NoPath) result_.message = "the open list ran empty: the goal is unreachable";
  if (status != SearchStatus::Running) finish(status);
  return result_.status;
}

void GridAStar::finish(SearchStatus status) {
  result_.stats.extra = {{"open_at_end", double(search_.open_size())}};
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
