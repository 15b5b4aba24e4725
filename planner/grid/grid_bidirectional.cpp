// Bidirectional A* on a CostGrid.
//
// Both searches use the octile heuristic scaled by the smallest multiplier (towards the
// goal forwards, towards the start backwards); it is consistent, and moves are symmetric
// (cost_grid.hpp), so the backward search runs on the same moves and costs.
//
// mu is the cost of the best start-goal path seen so far: whenever one side improves
// g(v) and the other side has a g for v, g_f(v) + g_b(v) is a path. The search stops when
// mu <= max(min f forward, min f backward): every path not yet seen must pass through a
// node on each open list, and with a consistent heuristic the cheapest such path costs
// at least that open list's minimum f. This is the classic bidirectional A* bound
// (Pohl 1971; Kaindl and Kainz 1997 discuss stronger ones); meeting when the frontiers
// first touch, as in seed 001, is what leaves a bump in the path.
// Side choice: expand the side whose open list is smaller (Pohl's cardinality rule);
// ties go forward. Tie-breaking inside a side: f, then h, then cell index.

#include "planner/grid/grid_bidirectional.hpp"

#include <algorithm>
#include <limits>

namespace pathscope {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}  // namespace

GridBidirectional::GridBidirectional(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : GridSearchBase<2>(world, movement_class, std::move(name)) {}

SearchStatus GridBidirectional::start(const PathQuery& query) {
  open_[0].clear();
  open_[1].clear();
  best_ = kInf;
  meet_ = kNoNode;
  side_expansions_[0] = side_expansions_[1] = 0;
  // The scale is read again at every start: the world may have been updated.
  if (!begin_query(query, grid_.min_multiplier())) return result_.status;
  for (int side = 0; side < 2; ++side) {
    Cell* s = state_.find(ends_[side]);
    if (!s) s = &state_.add(ends_[side]);
    s->g[side] = 0;
    const double h = heuristic(side, ends_[side]);
    open_[side].push(OpenEntry{h, float(h), ends_[side]});
    ++result_.stats.pushes;
    if (observer_) emit(SearchEventKind::Push, side, ends_[side], kNoNode, 0.0, h);
  }
  if (ends_[0] == ends_[1]) {
    best_ = 0;
    meet_ = ends_[0];
  }
  result_.status = SearchStatus::Running;
  return result_.status;
}

bool GridBidirectional::top_is_stale(int side) const {
  return (state_.at(open_[side].top().node).closed >> side) & 1u;
}

void GridBidirectional::drop_stale(int side) {
  while (!open_[side].empty() && top_is_stale(side)) open_[side].pop();
}

SearchStatus GridBidirectional::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  for (std::uint64_t done = 0; done < max_expansions; ++done) {
    drop_stale(0);
    drop_stale(1);
    if (open_[0].empty() || open_[1].empty()) {
      // One side has closed everything it can reach; any path was seen on the way.
      if (meet_ == kNoNode) result_.message = "an open list ran empty: the goal is unreachable";
      finish(meet_ == kNoNode ? SearchStatus::NoPath : SearchStatus::Found);
      return result_.status;
    }
    if (meet_ != kNoNode && best_ <= std::max(open_[0].top().f, open_[1].top().f)) {
      finish(SearchStatus::Found);
      return result_.status;
    }
    expand(open_[1].size() < open_[0].size() ? 1 : 0);
  }
  return result_.status;
}

void GridBidirectional::expand(int side) {
  const int other = 1 - side;
  const OpenEntry top = open_[side].pop();
  const NodeId u = top.node;
  Cell& cur = state_.at(u);
  cur.closed |= std::uint8_t(1u << side);
  ++result_.stats.expansions;
  ++side_expansions_[side];
  if (observer_) emit(SearchEventKind::Expand, side, u, parent_of(side, u), cur.g[side], heuristic(side, u));

  const CostGrid::View cells = grid_.view();
  const auto& offsets = grid_.offsets();
  const double gu = cur.g[side];
  const double mu = cells.multiplier(u);
  const std::uint8_t mask = cells.moves[u];
  const glm::ivec2 uc = grid_.cell(u);  // one division per expansion, none per neighbour
  const glm::ivec2 target = ends_xy_[other];
  const GridSearchState<2>::Finder reached = state_.finder();
  for (int d = 0; d < 8; ++d) {
    if (!(mask & (1u << d))) continue;
    const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
    Cell* sv = reached.find(v);
    if (!sv)
      sv = &state_.add(v);
    else if ((sv->closed >> side) & 1u)
      continue;
    const double ng = gu + kDirLength[d] * (0.5 * (mu + cells.multiplier(v)));
    if (!(ng < sv->g[side])) continue;
    const bool fresh = sv->g[side] == kInf;
    sv->g[side] = ng;
    sv->parent_dir[side] = std::uint8_t(d);
    const double h = h_scale_ * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], target.x, target.y);
    open_[side].push(OpenEntry{ng + h, float(h), v});
    ++result_.stats.pushes;
    if (!fresh) ++result_.stats.relaxations;
    if (observer_) emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, side, v, u, ng, h);
    if (sv->g[other] < kInf) {
      const double total = ng + sv->g[other];
      if (total < best_ || (total == best_ && v < meet_)) {
        best_ = total;
        meet_ = v;
      }
    }
  }
}

void GridBidirectional::finish(SearchStatus status) {
  result_.stats.extra = {{"forward_expansions", double(side_expansions_[0])},
                         {"backward_expansions", double(side_expansions_[1])}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  std::vector<NodeId> nodes;
  append_chain(0, meet_, nodes);
  std::reverse(nodes.begin(), nodes.end());
  if (const NodeId next = parent_of(1, meet_); next != kNoNode) append_chain(1, next, nodes);
  const glm::ivec2 m = grid_.cell(meet_);
  result_.stats.extra.emplace_back("meet_x", double(m.x));
  result_.stats.extra.emplace_back("meet_y", double(m.y));
  finish_path(std::move(nodes));
}

}  // namespace pathscope
