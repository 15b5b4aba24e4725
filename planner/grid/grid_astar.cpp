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

SearchStatus GridAStar::start(const PathQuery& query) {
  open_.clear();
  best_goal_g_ = std::numeric_limits<double>::infinity();
  // The scale is read again at every start: the world may have been updated.
  if (!begin_query(query, params_.weight * grid_.min_multiplier())) return result_.status;
  const NodeId start = ends_[0];
  state_.add(start).g[0] = 0.0;
  if (start == ends_[1]) best_goal_g_ = 0.0;  // found before any expansion
  const double h = heuristic(0, start);
  // Exact keys (see the top of the file): on a uniform map with the octile heuristic
  // unweighted (or none), every f is m (A + B sqrt 2) for integers A and B.
  rounded_keys_ = grid_.uniform_cost() && (params_.weight == 1.0 || params_.weight == 0.0);
  key_scale_ = kKeyQuantum / grid_.min_multiplier();
  open_.push(OpenEntry{key(h), float(h), start});
  ++result_.stats.pushes;
  if (observer_) emit(SearchEventKind::Push, 0, start, kNoNode, 0.0, h);
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
  const CostGrid::View cells = grid_.view();
  const std::uint8_t* const moves = moves_ ? moves_ : cells.moves;
  const auto& offsets = grid_.offsets();
  const NodeId goal = ends_[1];
  const glm::ivec2 goal_xy = ends_xy_[1];
  const double h_scale = h_scale_;
  // Uniform cost: every legal move costs its length times the one multiplier.
  const double m = grid_.min_multiplier();
  double move_cost[8];
  for (int d = 0; d < 8; ++d) move_cost[d] = kDirLength[d] * m;
  const GridSearchState<1>::Finder reached = state_.finder();
  std::uint64_t done = 0;
  double goal_key = key(best_goal_g_);
  while (done < max_expansions) {
    // The goal's best cost so far is final once no open entry can lead to a cheaper
    // one: f is a lower bound on any path through an entry (consistent heuristic).
    if (open_.empty() || open_.top().f >= goal_key) {
      if (best_goal_g_ < std::numeric_limits<double>::infinity()) {
        finish(SearchStatus::Found);
      } else {
        result_.message = "the open list ran empty: the goal is unreachable";
        finish(SearchStatus::NoPath);
      }
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
    const double gu = cur.g[0];
    const double mu = kUniform ? 0.0 : cells.multiplier(u);
    const std::uint8_t mask = moves[u];
    // The rows above and below are far away in memory: start both loads now, so that
    // their cache misses overlap instead of waiting one after the other.
    if (mask & 0xC8u) reached.prefetch(NodeId(std::int64_t(u) + offsets[3]));  // N, NW, NE
    if (mask & 0x32u) reached.prefetch(NodeId(std::int64_t(u) + offsets[1]));  // S, SE, SW
    const glm::ivec2 uc = grid_.cell(u);  // one division per expansion, none per neighbour
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
      Cell* sv = reached.find(v);
      const bool fresh = sv == nullptr;
      if (fresh)
        sv = &state_.add(v);
      else if (sv->closed)
        continue;
      const double ng =
          kUniform ? gu + move_cost[d] : gu + kDirLength[d] * (0.5 * (mu + cells.multiplier(v)));
      if (!(ng < sv->g[0])) continue;
      sv->g[0] = ng;
      sv->parent_dir[0] = std::uint8_t(d);
      const double h = h_scale == 0
                           ? 0.0
                           : h_scale * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], goal_xy.x, goal_xy.y);
      if (!fresh) ++result_.stats.relaxations;
      if (observer_) emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, 0, v, u, ng, h);
      if (v == goal) {
        best_goal_g_ = ng;  // the goal is never expanded: reaching it is enough
        goal_key = key(ng);
        continue;
      }
      // An entry that cannot beat the goal's cost so far would never be expanded.
      const double f = key(ng + h);
      if (f >= goal_key) continue;
      open_.push(OpenEntry{f, float(h), v});
      ++result_.stats.pushes;
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
