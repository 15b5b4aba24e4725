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

#include "planner/grid/grid_query.hpp"

namespace pathscope {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint8_t kNoDir = 8;
}  // namespace

GridBidirectional::GridBidirectional(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : world_(world),
      grid_(world.grid(movement_class)),
      class_(movement_class),
      name_(std::move(name)),
      h_scale_(world.grid(movement_class).min_multiplier()),
      state_(world.grid(movement_class).cell_count(), CellState{{kInf, kInf}, 0, {kNoDir, kNoDir}, 0, 0}) {}

double GridBidirectional::heuristic(int side, NodeId cell) const {
  return h_scale_ * octile_cells(grid_, cell, ends_[1 - side]);
}

NodeId GridBidirectional::parent_of(int side, NodeId cell) const {
  const std::uint8_t d = state_[cell].parent_dir[side];
  return d == kNoDir ? kNoNode : NodeId(std::int64_t(cell) - grid_.offsets()[d]);
}

void GridBidirectional::emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
  const double s = grid_.cell_size();
  observer_->on_event(SearchEvent{kind, std::uint8_t(side), node, parent, g * s, h * s});
}

SearchStatus GridBidirectional::start(const PathQuery& query) {
  query_ = query;
  result_ = PathResult{};
  h_scale_ = grid_.min_multiplier();  // read again: the world may have been updated
  open_[0].clear();
  open_[1].clear();
  ends_[0] = ends_[1] = kNoNode;
  best_ = kInf;
  meet_ = kNoNode;
  side_expansions_[0] = side_expansions_[1] = 0;
  if (++generation_ == 0) {
    for (CellState& s : state_) s.generation = 0;
    generation_ = 1;
  }
  if (observer_) observer_->on_start(query);

  const auto ends = resolve_grid_query(world_, class_, query, result_);
  if (!ends) return result_.status;
  ends_[0] = ends->start;
  ends_[1] = ends->goal;
  ends_xy_[0] = grid_.cell(ends_[0]);
  ends_xy_[1] = grid_.cell(ends_[1]);
  for (int side = 0; side < 2; ++side) {
    CellState& s = state_[ends_[side]];
    if (s.generation != generation_) s = CellState{{kInf, kInf}, generation_, {kNoDir, kNoDir}, 0, 0};
    s.g[side] = 0;
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
  return (state_[open_[side].top().node].closed >> side) & 1u;
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

bool GridBidirectional::expanded_cells(std::vector<std::uint64_t>& bits) const {
  bits.assign((state_.size() + 63) / 64, 0);
  for (std::size_t c = 0; c < state_.size(); ++c) {
    const CellState& s = state_[c];
    if (s.generation == generation_ && s.closed) bits[c >> 6] |= std::uint64_t(1) << (c & 63);
  }
  return true;
}

void GridBidirectional::expand(int side) {
  const int other = 1 - side;
  const OpenEntry top = open_[side].pop();
  const NodeId u = top.node;
  CellState& cur = state_[u];
  cur.closed |= std::uint8_t(1u << side);
  ++result_.stats.expansions;
  ++side_expansions_[side];
  if (observer_) emit(SearchEventKind::Expand, side, u, parent_of(side, u), cur.g[side], heuristic(side, u));

  const auto& offsets = grid_.offsets();
  const std::uint32_t gen = generation_;
  const double gu = cur.g[side];
  const double mu = grid_.multiplier(u);
  const std::uint8_t mask = grid_.moves(u);
  const glm::ivec2 uc = grid_.cell(u);  // one division per expansion, none per neighbour
  const glm::ivec2 target = ends_xy_[other];
  for (int d = 0; d < 8; ++d) {
    if (!(mask & (1u << d))) continue;
    const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
    CellState& sv = state_[v];
    if (sv.generation != gen) sv = CellState{{kInf, kInf}, gen, {kNoDir, kNoDir}, 0, 0};
    else if ((sv.closed >> side) & 1u) continue;
    const double ng = gu + kDirLength[d] * (0.5 * (mu + grid_.multiplier(v)));
    if (!(ng < sv.g[side])) continue;
    const bool fresh = sv.g[side] == kInf;
    sv.g[side] = ng;
    sv.parent_dir[side] = std::uint8_t(d);
    const double h = h_scale_ * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], target.x, target.y);
    open_[side].push(OpenEntry{ng + h, float(h), v});
    ++result_.stats.pushes;
    if (!fresh) ++result_.stats.relaxations;
    if (observer_) emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, side, v, u, ng, h);
    if (sv.g[other] < kInf) {
      const double total = ng + sv.g[other];
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
  for (NodeId n = meet_; n != kNoNode; n = parent_of(0, n)) nodes.push_back(n);
  std::reverse(nodes.begin(), nodes.end());
  for (NodeId n = parent_of(1, meet_); n != kNoNode; n = parent_of(1, n)) nodes.push_back(n);
  const glm::ivec2 m = grid_.cell(meet_);
  result_.stats.extra.emplace_back("meet_x", double(m.x));
  result_.stats.extra.emplace_back("meet_y", double(m.y));
  const std::vector<double> g = finish_grid_path(grid_, query_, std::move(nodes), result_);
  if (observer_) {
    for (std::size_t i = 0; i < g.size(); ++i) {
      observer_->on_event(SearchEvent{SearchEventKind::Path, 0, result_.nodes[i], kNoNode, g[i], 0.0});
    }
  }
}

void GridBidirectional::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (ends_[0] == kNoNode) return;
  const double s = grid_.cell_size();
  for (int side = 0; side < 2; ++side) {
    for (NodeId n = 0; n < state_.size(); ++n) {
      const CellState& c = state_[n];
      if (c.generation != generation_ || c.g[side] == kInf) continue;
      NodeView view;
      view.node = n;
      view.side = std::uint8_t(side);
      view.g = c.g[side] * s;
      view.h = heuristic(side, n) * s;
      view.parent = parent_of(side, n);
      view.closed = (c.closed >> side) & 1u;
      fn(view);
    }
  }
}

}  // namespace pathscope
