// Jump point search on a uniform-cost grid with no corner cutting.
//
// Source: D. Harabor and A. Grastien, "Online Graph Pruning for Pathfinding on Grid Maps"
// (AAAI 2011), sections 3 (neighbour pruning, forced neighbours) and 4 (jumping), adapted
// to the movement rule of cost_grid.hpp, under which a diagonal move needs both orthogonal
// neighbours passable; and the block-based scanning of Harabor and Grastien, "Improving
// Jump Point Search" (ICAPS 2014), section 4 (straight jumps read a row of bits at once).
//
// Pruning rules, derived for this movement rule. A node x is reached from its parent p.
// A neighbour n of x is pruned when some path from p to n that avoids x is no longer than
// p -> x -> n (strictly shorter for diagonal arrivals: the rules below only prune on ties
// where the other path starts with a diagonal, so every optimal path has a canonical form).
//   Straight arrival, moving east into x = (x, y) from (x-1, y):
//     - (x+1, y) is natural.
//     - (x, y-1) costs 2 through x, sqrt(2) by the diagonal p -> (x, y-1), which is legal
//       exactly when (x-1, y-1) is passable (x and (x, y-1) are). So (x, y-1) is FORCED
//       when (x-1, y-1) is blocked and (x, y-1) passable, and pruned otherwise.
//     - (x+1, y-1) costs 1 + sqrt(2) through x; p -> (x, y-1) -> (x+1, y-1) costs the same
//       when (x-1, y-1) is passable. Moving there from x needs (x, y-1) passable, so it is
//       forced together with (x, y-1).
//     - (x-1, y-1) is one straight move from p: pruned. Row y+1 is symmetric.
//   Diagonal arrival, moving (dx, dy) into x from p = (x-dx, y-dy): the move was legal, so
//   (x-dx, y) and (x, y-dy) are passable. (x-dx, y+dy) costs 2 sqrt(2) through x and 2 by
//   way of (x-dx, y): always pruned, and likewise (x+dx, y-dy). Hence there are NO forced
//   neighbours on diagonal moves without corner cutting: the natural ones are (x+dx, y),
//   (x, y+dy) and (x+dx, y+dy).
// Jumping. A straight jump east stops on the goal, on a cell with a forced neighbour
// (row y-1 or y+1 passes from blocked at x-1 to passable at x), or before a blocked cell
// (no successor). With P the passable bits of a row, the stop cells of row y are
//   ~P_y | (P_{y-1} & ~P_{y-1} << 1) | (P_{y+1} & ~P_{y+1} << 1)
// (bit x against bit x-1), so one 64-bit load per row tests 56 cells (unaligned loads,
// shifted by up to 7 bits) and std::countr_zero finds the first stop. The passable bits
// are kept in four orientations (as is, mirrored, transposed, transposed and mirrored), so
// the four straight directions are one scan east. A diagonal jump steps one cell at a
// time while the diagonal move is legal; a cell is a jump point when it is the goal or
// when a straight jump from it along either component direction finds a jump point.
// Every jump edge is a straight or diagonal line, so each costs its octile length times
// the group's one multiplier, the octile heuristic is consistent on the jump graph, and a
// jump point is never reopened.
//
// Uniform costs: moves join only cells of one move key (cost_grid.hpp), so the search
// from a start runs on the cells of the start's key, treated as the passable ones. Those
// must all share one multiplier; otherwise the query is Invalid and names astar.
// Ties: f, then h (deeper first), then cell index, as in A*. Expansions count jump points.

#include "planner/grid/grid_jps.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdio>
#include <cstring>
#include <limits>

#include "planner/grid/grid_dependency.hpp"
#include "planner/grid/grid_jump_search.hpp"

namespace pathscope {
namespace {

static_assert(std::endian::native == std::endian::little, "the bit scans load rows as little-endian words");

// The direction of a unit step (dx, dy), as indexed by kDirDx / kDirDy.
constexpr std::uint8_t kDirOf[3][3] = {{6, 3, 7}, {2, 8, 0}, {5, 1, 4}};  // [dy + 1][dx + 1]
std::uint8_t dir_of(int dx, int dy) { return kDirOf[dy + 1][dx + 1]; }
constexpr std::uint8_t bit(int d) { return std::uint8_t(1u << d); }

int sign(int v) { return (v > 0) - (v < 0); }

std::string format_multiplier(double m) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", m);
  return buf;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// JpsBitGrid

JpsBitGrid::JpsBitGrid(const CostGrid& grid, std::uint16_t key)
    : width_(grid.width()), height_(grid.height()) {
  len_[0] = len_[1] = width_;
  len_[2] = len_[3] = height_;
  for (int o = 0; o < 4; ++o) {
    const int rows = o < 2 ? height_ : width_;
    stride_[o] = std::size_t(len_[o] + 2 + 7) / 8 + 8;  // border bits, and slack for 8-byte loads
    bits_[o].assign(stride_[o] * std::size_t(rows + 2), 0);
  }
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      if (grid.move_key(grid.index(x, y)) != key) continue;
      set(0, x, y);
      set(1, width_ - 1 - x, y);
      set(2, y, x);
      set(3, height_ - 1 - y, x);
    }
  }
}

void JpsBitGrid::set(int o, int p, int row) {
  std::uint8_t* r = bits_[o].data() + std::size_t(row + 1) * stride_[o];
  const int b = p + 1;
  r[b >> 3] = std::uint8_t(r[b >> 3] | (1u << (b & 7)));
}

// ---------------------------------------------------------------------------------------
// GridJps

GridJps::GridJps(const PlanningWorld& world, std::size_t movement_class, std::string name)
    : GridSearchBase<1>(world, movement_class, std::move(name)),
      parent_(std::make_unique<JumpParentPages>(grid_.cell_count())) {}

GridJps::~GridJps() = default;

double GridJps::uniform_multiplier(const CostGrid& grid, const TerrainRaster& raster, std::uint16_t key,
                                   double* first, double* second) {
  double m = 0;
  for (std::size_t id = 0; id < raster.surface_count(); ++id) {
    if (raster.cells_with(SurfaceId(id)) == 0) continue;
    const auto [mult, k] = grid.cost_of(raster.surface(SurfaceId(id)));
    if (k != key || mult <= 0) continue;
    if (m == 0) {
      m = mult;
    } else if (mult != m) {
      if (first) *first = m;
      if (second) *second = mult;
      return 0;
    }
  }
  return m;
}

// The jump graph as planner/search's best-first loop sees it: a node's successors are
// the jump points of its jumps (at most one per direction the rules keep), at their octile
// cost times the group's multiplier, their parent the node (parent_) and their direction
// the jump's. The goal is expanded like any node (kExpandsTarget). Traced, the Prune
// events of the neighbours the rules skip come first, then each jump's PassOver events
// before the Push or Relax of what it found.
class GridJps::Model {
 public:
  static constexpr bool kExpandsTarget = true;

  explicit Model(GridJps& planner)
      : p_(planner), parents_(*planner.parent_), reached_(planner.state_.finder()), m_(planner.multiplier_) {}

  bool tracing() const { return p_.observer_ != nullptr; }
  void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
    p_.emit(kind, side, node, parent, g, h);
  }
  double heuristic(NodeId n) const { return p_.heuristic(0, n); }
  NodeId parent(NodeId n, const Cell&) const { return parents_[n]; }
  double key(double f) const { return f; }

  // Inlined by force into the loop: GCC otherwise makes it a call per expansion, about
  // 5% more instructions in the search.
  template <class Relax>
  __attribute__((always_inline)) void successors(NodeId u, const Cell& cur, Relax&& relax) {
    const glm::ivec2 uc = p_.grid_.cell(u);
    const std::uint8_t dirs = p_.successor_dirs(u, uc, cur.parent_dir[0]);
    const bool traced = tracing();
    if (traced) {
      // The legal neighbours the pruning rules skip. A neighbour the search holds already
      // is left alone: a Prune event would take it off the replay's open list.
      const double gu = cur.g[0];
      const auto& offsets = p_.grid_.offsets();
      const std::uint8_t pruned = std::uint8_t(p_.grid_.moves(u) & ~dirs);
      for (int d = 0; d < 8; ++d) {
        if (!(pruned & bit(d))) continue;
        const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
        if (reached_.find(v) == nullptr)
          emit(SearchEventKind::Prune, 0, v, u, gu + kDirLength[d] * m_, heuristic(v));
      }
    }
    const auto no_scan = [](NodeId, NodeId) {};
    const auto trace_scan = [this](NodeId from, NodeId to) {
      emit(SearchEventKind::PassOver, 0, to, from, 0.0, 0.0);
    };
    const glm::ivec2 goal = p_.ends_xy_[1];
    for (int d = 0; d < 8; ++d) {
      if (!(dirs & bit(d))) continue;
      const Successor s = traced ? p_.jump(u, uc, d, trace_scan) : p_.jump(u, uc, d, no_scan);
      p_.scanned_ += s.scanned;
      if (s.node == kNoNode) continue;
      relax(
          s.node,
          [&](Cell& c) {
            c.parent_dir[0] = std::uint8_t(d);  // the direction of the jump into the node
            parents_.set(s.node, u);
          },
          [&] { return s.cost * m_; },
          [&] { return p_.h_scale_ * octile_cells(s.cell.x, s.cell.y, goal.x, goal.y); });
    }
  }

 private:
  GridJps& p_;
  JumpParentPages& parents_;
  const GridSearchState<1>::Finder reached_;
  const double m_;
};

SearchStatus GridJps::start(const PathQuery& query) {
  scanned_ = 0;
  bits_ = nullptr;
  if (!begin_query(query, 1.0)) return result_.status;
  const NodeId start = ends_[0];
  key_ = grid_.move_key(start);
  double first = 0, other = 0;
  multiplier_ = uniform_multiplier(grid_, world_.raster(), key_, &first, &other);
  if (multiplier_ == 0) {
    result_.status = SearchStatus::Invalid;
    result_.message = "jps needs uniform costs, but class \"" + world_.scenario().classes[class_].name +
                      "\" has terrain costs (multipliers " + format_multiplier(first) + " and " +
                      format_multiplier(other) + " in the start's terrain group): use astar";
    return result_.status;
  }
  // The heuristic scale and the bits are read again at every start: the world may have
  // been updated.
  h_scale_ = multiplier_;
  if (world_.revision() != revision_) {
    grids_.clear();
    revision_ = world_.revision();
  }
  std::unique_ptr<JpsBitGrid>& bits = grids_[key_];
  if (!bits) bits = std::make_unique<JpsBitGrid>(grid_, key_);
  bits_ = bits.get();

  parent_->set(start, kNoNode);
  Model model(*this);
  search_.start(model, state_, start, ends_[1], result_.stats);
  result_.status = SearchStatus::Running;
  return result_.status;
}

std::uint8_t GridJps::successor_dirs(NodeId u, glm::ivec2 c, std::uint8_t dir) const {
  // Moves join cells of one key only, so the cost grid's moves are the bit grid's.
  return jump_successor_dirs(grid_.moves(u), dir,
                             [&](int dx, int dy) { return bits_->passable(c.x + dx, c.y + dy); });
}

template <class ScanFn>
GridJps::Successor GridJps::jump(NodeId u, glm::ivec2 c, int dir, ScanFn&& scan) const {
  const int gx = ends_xy_[1].x, gy = ends_xy_[1].y;
  const int dx = kDirDx[dir], dy = kDirDy[dir];
  // Row-major ids without CostGrid::index's range assertions (every cell here is in range).
  const auto at = [w = std::uint32_t(grid_.width())](int x, int y) {
    return NodeId(std::uint32_t(y) * w + std::uint32_t(x));
  };
  Successor out;
  if (dx == 0 || dy == 0) {
    const JpsBitGrid::Jump j = bits_->jump_straight(dir, c.x, c.y, gx, gy);
    out.scanned = std::uint64_t(j.steps);
    out.cell = {c.x + dx * j.steps, c.y + dy * j.steps};
    if (j.steps > 0) scan(u, at(out.cell.x, out.cell.y));
    if (!j.found) return out;
    out.node = at(out.cell.x, out.cell.y);
    out.cost = double(j.steps);
    return out;
  }
  const int h_dir = dir_of(dx, 0), v_dir = dir_of(0, dy);
  int x = c.x, y = c.y, k = 0;
  bool found = false;
  while (bits_->passable(x + dx, y) && bits_->passable(x, y + dy) && bits_->passable(x + dx, y + dy)) {
    x += dx;
    y += dy;
    ++k;
    if (x == gx && y == gy) {
      found = true;
      break;
    }
    const JpsBitGrid::Jump a = bits_->jump_straight(h_dir, x, y, gx, gy);
    out.scanned += std::uint64_t(a.steps);
    if (a.steps > 0) scan(at(x, y), at(x + dx * a.steps, y));
    if (a.found) {
      found = true;
      break;
    }
    const JpsBitGrid::Jump b = bits_->jump_straight(v_dir, x, y, gx, gy);
    out.scanned += std::uint64_t(b.steps);
    if (b.steps > 0) scan(at(x, y), at(x, y + dy * b.steps));
    if (b.found) {
      found = true;
      break;
    }
  }
  out.scanned += std::uint64_t(k);
  out.cell = {x, y};
  if (k > 0) scan(u, at(x, y));
  if (!found) return out;
  out.node = at(x, y);
  out.cost = kSqrt2 * double(k);
  return out;
}

SearchStatus GridJps::step(std::uint64_t max_expansions) {
  if (result_.status != SearchStatus::Running) return result_.status;
  ++result_.stats.steps;
  Model model(*this);
  const SearchStatus status = search_.step(model, state_, result_.stats, max_expansions);
  if (status == SearchStatus::NoPath) result_.message = "the open list ran empty: the goal is unreachable";
  if (status != SearchStatus::Running) finish(status);
  return result_.status;
}

void GridJps::finish(SearchStatus status) {
  result_.stats.extra = {{"open_at_end", double(search_.open_size())}, {"scanned_cells", double(scanned_)}};
  if (status != SearchStatus::Found) {
    result_.status = status;
    return;
  }
  std::vector<NodeId> jumps;
  for (NodeId n = ends_[1]; n != kNoNode; n = (*parent_)[n]) jumps.push_back(n);
  std::reverse(jumps.begin(), jumps.end());
  // Every cell between consecutive jump points, which lie on one straight or diagonal
  // line, with its move's direction.
  std::vector<NodeId> nodes{jumps.front()};
  std::vector<std::uint8_t> dirs;
  for (std::size_t i = 1; i < jumps.size(); ++i) {
    const glm::ivec2 a = grid_.cell(jumps[i - 1]), b = grid_.cell(jumps[i]);
    const int dx = sign(b.x - a.x), dy = sign(b.y - a.y);
    std::uint8_t dir = 0;
    while (kDirDx[dir] != dx || kDirDy[dir] != dy) ++dir;
    for (glm::ivec2 p = a; p != b;) {
      p.x += dx;
      p.y += dy;
      nodes.push_back(grid_.index(p.x, p.y));
      dirs.push_back(dir);
    }
  }
  finish_path(std::move(nodes), dirs);
}

void GridJps::visit_nodes(const std::function<void(const NodeView&)>& fn) const {
  if (result_.status == SearchStatus::Idle || ends_[0] == kNoNode || bits_ == nullptr) return;
  const double s = grid_.cell_size();
  state_.for_each_reached([&](NodeId n, const Cell& c) {
    if (c.g[0] == std::numeric_limits<double>::infinity()) return;
    fn(NodeView{n, 0, c.g[0] * s, heuristic(0, n) * s, (*parent_)[n], c.closed != 0});
  });
}

std::unique_ptr<ResultDependency> GridJps::result_dependency() const {
  if (result_.status != SearchStatus::Found || world_.revision() != revision_ || bits_ == nullptr)
    return nullptr;
  // The jumps are replayed from every expanded jump point (the world is as the search saw
  // it), marking each scanned segment and the cell past its end, then every neighbour of
  // those: all the cells the scans and the pruning rules read.
  const int w = grid_.width(), h = grid_.height();
  std::vector<std::uint64_t> line((grid_.cell_count() + 63) / 64, 0);
  const auto mark = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= w || y >= h) return;
    const std::uint32_t i = grid_.index(x, y);
    line[i >> 6] |= std::uint64_t(1) << (i & 63);
  };
  const auto mark_segment = [&](NodeId from, NodeId to) {
    const glm::ivec2 a = grid_.cell(from), b = grid_.cell(to);
    const int dx = sign(b.x - a.x), dy = sign(b.y - a.y);
    for (glm::ivec2 p = a;; p += glm::ivec2(dx, dy)) {
      mark(p.x, p.y);
      if (p == b) break;
    }
    mark(b.x + dx, b.y + dy);
  };
  state_.for_each_reached([&](NodeId u, const Cell& c) {
    if (!c.closed) return;
    const glm::ivec2 uc = grid_.cell(u);
    mark(uc.x, uc.y);
    if (u == ends_[1]) return;
    const std::uint8_t dirs = successor_dirs(u, uc, c.parent_dir[0]);
    for (int d = 0; d < 8; ++d) {
      if (dirs & bit(d)) jump(u, uc, d, mark_segment);
    }
  });
  std::vector<std::uint64_t> read(line.size(), 0);
  for (std::size_t wi = 0; wi < line.size(); ++wi) {
    for (std::uint64_t word = line[wi]; word != 0; word &= word - 1) {
      const glm::ivec2 p = grid_.cell(std::uint32_t(wi * 64 + std::size_t(std::countr_zero(word))));
      for (int ny = p.y - 1; ny <= p.y + 1; ++ny) {
        for (int nx = p.x - 1; nx <= p.x + 1; ++nx) {
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const std::uint32_t i = grid_.index(nx, ny);
          read[i >> 6] |= std::uint64_t(1) << (i & 63);
        }
      }
    }
  }
  return std::make_unique<JumpDependency>(world_, class_, std::move(read), key_, multiplier_);
}

}  // namespace pathscope
