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
#include <limits>

#include "planner/grid/grid_query.hpp"

namespace pathscope {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint8_t kNoDir = 8;
}  // namespace

GridAStar::GridAStar(const PlanningWorld& world, std::size_t movement_class, GridAStarParams params, std::string name)
    : world_(world),
      grid_(world.grid(movement_class)),
      class_(movement_class),
      params_(params),
      name_(std::move(name)),
      h_scale_(params.weight * world.grid(movement_class).min_multiplier()),
      state_(world.grid(movement_class).cell_count(), CellState{kInf, 0, kNoDir, 0}) {}

double GridAStar::heuristic(NodeId cell) const {
  return h_scale_ == 0 ? 0.0 : h_scale_ * octile_cells(grid_, cell, goal_);
}

void GridAStar::emit(SearchEventKind kind, NodeId node, NodeId parent, double g, double h) const {
  const double s = grid_.cell_size();
  observer_->on_event(SearchEvent{kind, 0, node, parent, g * s, h * s});
}

SearchStatus GridAStar::start(const PathQuery& query) {
  query_ = query;
  result_ = PathResult{};
  open_.clear();
  h_scale_ = params_.weight * grid_.min_multiplier();  // read again: the world may have been updated
  start_ = goal_ = kNoNode;
  if (++generation_ == 0) {  // wrapped: stale generations could alias, so reset once
    for (CellState& s : state_) s.generation = 0;
    generation_ = 1;
  }
  if (observer_) observer_->on_start(query);

  const auto ends = resolve_grid_query(world_, class_, query, result_);
  if (!ends) return result_.status;
  start_ = ends->start;
  goal_ = ends->goal;
  goal_xy_ = grid_.cell(goal_);

  CellState& s = state_[start_];
  s = CellState{0.0, generation_, kNoDir, 0};
  const double h = heuristic(start_);
  open_.push(OpenEntry{h, float(h), start_});
  ++result_.stats.pushes;
  if (observer_) emit(SearchEventKind::Push, start_, kNoNode, 0.0, h);
  result_.status = SearchStatus::Running;
  return result_.status;
}

SearchStatus GridAStar::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  const auto& offsets = grid_.offsets();
  const std::uint32_t gen = generation_;
  std::uint64_t done = 0;
  while (done < max_expansions) {
    if (open_.empty()) {
      result_.message = "the open list ran empty: the goal is unreachable";
      finish(SearchStatus::NoPath);
      return result_.status;
    }
    const OpenEntry top = open_.pop();
    CellState& cur = state_[top.node];
    if (cur.closed) continue;  // stale duplicate of an improved entry
    cur.closed = 1;
    ++done;
    ++result_.stats.expansions;
    const NodeId u = top.node;
    if (observer_) {
      const NodeId parent = cur.parent_dir == kNoDir ? kNoNode : NodeId(std::int64_t(u) - offsets[cur.parent_dir]);
      emit(SearchEventKind::Expand, u, parent, cur.g, heuristic(u));
    }
    if (u == goal_) {
      finish(SearchStatus::Found);
      return result_.status;
    }
    const double gu = cur.g;
    const double mu = grid_.multiplier(u);
    const std::uint8_t mask = grid_.moves(u);
    const glm::ivec2 uc = grid_.cell(u);  // one division per expansion, none per neighbour
    for (int d = 0; d < 8; ++d) {
      if (!(mask & (1u << d))) continue;
      const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
      CellState& sv = state_[v];
      const bool fresh = sv.generation != gen;
      if (fresh) sv = CellState{kInf, gen, kNoDir, 0};
      else if (sv.closed) continue;
      const double ng = gu + kDirLength[d] * (0.5 * (mu + grid_.multiplier(v)));
      if (!(ng < sv.g)) continue;
      sv.g = ng;
      sv.parent_dir = std::uint8_t(d);
      const double h = h_scale_ == 0 ? 0.0 : h_scale_ * octile_cells(uc.x + kDirDx[d], uc.y + kDirDy[d], goal_xy_.x, goal_xy_.y);
      open_.push(OpenEntry{ng + h, float(h), v});
      ++result_.stats.pushes;
      if (!fresh) ++result_.stats.relaxations;
      if (observer_) emit(fresh ? SearchEventKind::Push : SearchEventKind::Relax, v, u, ng, h);
    }
  }
  return result_.status;
}

bool GridAStar::expanded_cells(std::vector<std::uint64_t>& bits) const {
  bits.assign((state_.size() + 63) / 64, 0);
  for (std::size_t c = 0; c < state_.size(); ++c) {
    const CellState& s = state_[c];
    if (s.generation == generation_ && s.closed) bits[c >> 6] |= std::uint64_t(1) << (c & 63);
  }
  return true;
}

void GridAStar::finish(SearchStatus status) {
  result_.stats.extra = {{"open_at_end", double(open_.size())}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  std::vector<NodeId> nodes;
  const auto& offsets = grid_.offsets();
  for (NodeId n = goal_;;) {
    nodes.push_back(n);
    const std::uint8_t d = state_[n].parent_dir;
    if (d == kNoDir) break;
    n = NodeId(std::int64_t(n) - offsets[d]);
  }
  std::reverse(nodes.begin(), nodes.end());
  const std::vector<double> g = finish_grid_path(grid_, query_, std::move(nodes), result_);
  if (observer_) {
    for (std::size_t i = 0; i < g.size(); ++i) {
      observer_->on_event(SearchEvent{SearchEventKind::Path, 0, result_.nodes[i], kNoNode, g[i], 0.0});
    }
  }
}

void GridAStar::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || start_ == kNoNode) return;
  const auto& offsets = grid_.offsets();
  const double s = grid_.cell_size();
  for (NodeId n = 0; n < state_.size(); ++n) {
    const CellState& c = state_[n];
    if (c.generation != generation_) continue;
    NodeView view;
    view.node = n;
    view.g = c.g * s;
    view.h = heuristic(n) * s;
    view.parent = c.parent_dir == kNoDir ? kNoNode : NodeId(std::int64_t(n) - offsets[c.parent_dir]);
    view.closed = c.closed != 0;
    fn(view);
  }
}

}  // namespace pathscope
