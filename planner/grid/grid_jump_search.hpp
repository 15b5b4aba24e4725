#pragma once

// What the jump point planners whose diagonal jumps do not stop on their turning points
// (`jps_block`, `jps_plus`) share: A* over jump points, run by planner/search's best-first
// loop, where one jump may go diagonally and then straight, so a successor is reached from
// its parent by k diagonal moves followed by s straight ones (cost k sqrt 2 + s, its
// octile distance). The pruning rules (jump_successor_dirs) are also those of `jps`.
// Notes on the pruning rules and on why the turning points need not be nodes are at the
// top of grid_jps_block.cpp.

#include <algorithm>
#include <bit>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "planner/grid/grid_dependency.hpp"
#include "planner/grid/grid_jps.hpp"
#include "planner/grid/grid_search_base.hpp"
#include "planner/search/best_first_search.hpp"

namespace pathscope {

/// The direction of a unit step (dx, dy), as indexed by kDirDx / kDirDy: [dy + 1][dx + 1].
/// A table in static storage (one inside the function is built on the stack at each call).
inline constexpr std::uint8_t kJumpDirOf[3][3] = {{6, 3, 7}, {2, 8, 0}, {5, 1, 4}};
/// The direction of a unit step (dx, dy), as indexed by kDirDx / kDirDy.
constexpr std::uint8_t jump_dir_of(int dx, int dy) { return kJumpDirOf[dy + 1][dx + 1]; }

/// The pruning rules of jump point search without corner cutting (derived at the top of
/// grid_jps.cpp): of a cell's legal `moves`, the natural and forced neighbours after a
/// last move in `dir` (kNoDir at the start: every legal move). `open(dx, dy)` says whether
/// the neighbour at that offset is passable; it is asked only of the two cells beside the
/// one the move came from. Straight arrival east: the rows above and below are forced
/// (with their forward diagonal) where the cell behind them is blocked.
/// Inlined by force: GCC otherwise keeps it a call, with the cell and the planner behind
/// the closure, on every expansion.
template <class Open>
__attribute__((always_inline)) constexpr std::uint8_t jump_successor_dirs(std::uint8_t moves,
                                                                          std::uint8_t dir, Open&& open) {
  if (dir == GridCellState<1>::kNoDir) return moves;
  const int dx = kDirDx[dir], dy = kDirDy[dir];
  std::uint8_t want = std::uint8_t(1u << dir);
  if (dx != 0 && dy != 0) {
    want |= std::uint8_t((1u << jump_dir_of(dx, 0)) | (1u << jump_dir_of(0, dy)));
  } else if (dx != 0) {
    for (const int s : {-1, 1}) {
      if (!open(-dx, s)) want |= std::uint8_t((1u << jump_dir_of(0, s)) | (1u << jump_dir_of(dx, s)));
    }
  } else {
    for (const int s : {-1, 1}) {
      if (!open(s, -dy)) want |= std::uint8_t((1u << jump_dir_of(s, 0)) | (1u << jump_dir_of(s, dy)));
    }
  }
  return want & moves;
}

/// A jump point found from an expanded node: where it is, what the jump cost (cells,
/// unweighted) and the direction of its last move (straight, or diagonal for the goal).
struct JumpSuccessor {
  glm::ivec2 cell{0, 0};
  double cost = 0;
  std::uint8_t arrive_dir = 0;
};

/// Per cell: the jump point it was reached from; read only for cells the current search
/// reached. In pages of 1,024 cells allocated when first written, as the search state.
class JumpParentPages {
 public:
  /// Room for `cells` cells; no page allocated yet.
  explicit JumpParentPages(std::size_t cells) : pages_((cells + kPageCells - 1) / kPageCells) {}
  /// The parent of a cell written in this search.
  NodeId operator[](NodeId cell) const { return pages_[cell / kPageCells][cell % kPageCells]; }
  /// Sets the parent of `cell`, allocating its page on first use.
  void set(NodeId cell, NodeId parent) {
    std::unique_ptr<NodeId[]>& page = pages_[cell / kPageCells];
    if (!page) page = std::make_unique_for_overwrite<NodeId[]>(kPageCells);
    page[cell % kPageCells] = parent;
  }
  /// Asks the cache for a cell's entry ahead of set(), when its page exists.
  void prefetch(NodeId cell) const {
    const std::unique_ptr<NodeId[]>& page = pages_[cell / kPageCells];
    if (page) __builtin_prefetch(&page[cell % kPageCells], 1);
  }

 private:
  static constexpr std::uint32_t kPageCells = 1024;
  std::vector<std::unique_ptr<NodeId[]>> pages_;
};

/// The grid dependency over the cells the jumps read, plus the group's one multiplier.
class JumpDependency final : public ResultDependency {
 public:
  /// `bits`: the cells read, one bit per cell. Borrows the world.
  JumpDependency(const PlanningWorld& world, std::size_t movement_class, std::vector<std::uint64_t> bits,
                 std::uint16_t key, double multiplier)
      : world_(world),
        class_(movement_class),
        cells_(world, movement_class, std::move(bits)),
        key_(key),
        multiplier_(multiplier) {}
  /// False when a read cell changed or the group's costs are no longer the same one.
  bool still_valid(const WorldChange& change) const override {
    if (!cells_.still_valid(change)) return false;
    return GridJps::uniform_multiplier(world_.grid(class_), world_.raster(), key_) == multiplier_;
  }

 private:
  const PlanningWorld& world_;
  std::size_t class_;
  ExpandedCellsDependency cells_;
  std::uint16_t key_;
  double multiplier_;
};

/// A* over jump points for uniform-cost groups, on planner/search's BestFirstSearch: the
/// successors of a jump point are the jump points its jumps find. `Derived` provides
///   bool prepare(): makes its jump structure for key_ (false: result_ says why),
///   bool passable(int x, int y) const: cell of the query's group, borders blocked,
///   void jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const: the successors
///     of a node at `c` in direction `dir`, each handed to push(JumpSuccessor), and each
///     segment read handed to scan(from cell, to cell) when `Scan` is not NoScan;
/// and may provide
///   std::uint8_t pruned_dirs(glm::ivec2 c, std::uint8_t dir) const: successor_dirs() below
///     from its own structure (cheaper than the cost grid's moves and passability),
///   void prefetch(NodeId) const: asks the cache for what expanding that node reads.
template <class Derived>
class JumpPointSearch : public GridSearchBase<1> {
 public:
  /// Scan callback type that reads nothing: the fast path.
  struct NoScan {
    void operator()(glm::ivec2, glm::ivec2) const {}
  };

  SearchStatus start(const PathQuery& query) override {
    scanned_ = 0;
    ready_ = false;
    path_ = std::move(result_.nodes);
    if (!begin_query(query, 1.0)) return result_.status;
    const NodeId start = ends_[0];
    key_ = grid_.move_key(start);
    double first = 0, other = 0;
    multiplier_ = GridJps::uniform_multiplier(grid_, world_.raster(), key_, &first, &other);
    if (multiplier_ == 0) {
      result_.status = SearchStatus::Invalid;
      result_.message = name_ + " needs uniform costs, but class \"" +
                        world_.scenario().classes[class_].name + "\" has terrain costs (multipliers " +
                        format(first) + " and " + format(other) + " in the start's terrain group): use astar";
      return result_.status;
    }
    h_scale_ = multiplier_;
    if (!static_cast<Derived*>(this)->prepare()) return result_.status;
    ready_ = true;
    revision_ = world_.revision();
    parent_.set(start, kNoNode);
    Model model(*this);
    search_.start(model, state_, start, ends_[1], result_.stats);
    result_.status = SearchStatus::Running;
    return result_.status;
  }

  SearchStatus step(std::uint64_t max_expansions) override {
    if (result_.status != SearchStatus::Running) return result_.status;
    ++result_.stats.steps;
    Model model(*this);
    const SearchStatus status = search_.step(model, state_, result_.stats, max_expansions);
    if (status == SearchStatus::NoPath) result_.message = "the open list ran empty: the goal is unreachable";
    if (status != SearchStatus::Running) finish(status);
    return result_.status;
  }

  /// The reached jump points with their jump-point parents.
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override {
    if (result_.status == SearchStatus::Idle || ends_[0] == kNoNode || !ready_) return;
    const double s = grid_.cell_size();
    state_.for_each_reached([&](NodeId n, const Cell& c) {
      if (c.g[0] == std::numeric_limits<double>::infinity()) return;
      fn(NodeView{n, 0, c.g[0] * s, heuristic(0, n) * s, parent_[n], c.closed != 0});
    });
  }

  /// The cells the last search's jumps read (each segment, one cell past its end, and
  /// their neighbours) and the multiplier of its terrain group.
  std::unique_ptr<ResultDependency> result_dependency() const override {
    if (result_.status != SearchStatus::Found || world_.revision() != revision_ || !ready_) return nullptr;
    const Derived& self = *static_cast<const Derived*>(this);
    const int w = grid_.width(), h = grid_.height();
    std::vector<std::uint64_t> line((grid_.cell_count() + 63) / 64, 0);
    const auto mark = [&](int x, int y) {
      if (x < 0 || y < 0 || x >= w || y >= h) return;
      const std::uint32_t i = grid_.index(x, y);
      line[i >> 6] |= std::uint64_t(1) << (i & 63);
    };
    const auto mark_segment = [&](glm::ivec2 a, glm::ivec2 b) {
      const int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
      for (glm::ivec2 p = a;; p += glm::ivec2(dx, dy)) {
        mark(p.x, p.y);
        if (p == b) break;
      }
      mark(b.x + dx, b.y + dy);
    };
    const auto ignore = [](const JumpSuccessor&) {};
    state_.for_each_reached([&](NodeId u, const Cell& c) {
      if (!c.closed) return;
      const glm::ivec2 uc = grid_.cell(u);
      mark(uc.x, uc.y);
      if (u == ends_[1]) return;
      const std::uint8_t dirs = successor_dirs(u, uc, c.parent_dir[0]);
      for (int d = 0; d < 8; ++d) {
        if (dirs >> d & 1u) {
          mark(uc.x + kDirDx[d], uc.y + kDirDy[d]);
          self.jumps(uc, d, ignore, mark_segment);
        }
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

 protected:
  JumpPointSearch(const PlanningWorld& world, std::size_t movement_class, std::string name)
      : GridSearchBase<1>(world, movement_class, std::move(name)), parent_(grid_.cell_count()) {}

  /// The direction of a unit step (dx, dy), as indexed by kDirDx / kDirDy.
  static std::uint8_t dir_of(int dx, int dy) { return jump_dir_of(dx, dy); }

  std::uint16_t key_ = 0;      // the current query's move key
  double multiplier_ = 1;      // of the current query's group
  std::uint64_t scanned_ = 0;  // cells the traced jumps read (0 untraced)

 private:
  // The jump graph as the best-first loop sees it: a node's successors are the jump points
  // its jumps find, at their octile cost times the group's multiplier, their parent the
  // node (parent_) and their direction the jump's last move. The goal is expanded like
  // any node (kExpandsTarget). Untraced, an expansion's successors are gathered first and
  // their search state asked of the cache, so that their misses overlap, then handed to
  // the loop in the order found; traced, each is handed on as found, between the PassOver
  // events of the scans, after the Prune events of the neighbours the rules skip.
  class Model {
   public:
    static constexpr bool kExpandsTarget = true;

    explicit Model(JumpPointSearch& planner)
        : p_(planner),
          reached_(planner.state_.finder()),
          goal_(planner.ends_xy_[1]),
          w_(std::uint32_t(planner.grid_.width())),
          m_(planner.multiplier_),
          h_scale_(planner.h_scale_) {}

    bool tracing() const { return p_.observer_ != nullptr; }
    void emit(SearchEventKind kind, int side, NodeId node, NodeId parent, double g, double h) const {
      p_.emit(kind, side, node, parent, g, h);
    }
    double heuristic(NodeId n) const { return p_.heuristic(0, n); }
    NodeId parent(NodeId n, const Cell&) const { return p_.parent_[n]; }
    double key(double f) const { return f; }
    // The next entry is usually the next node expanded: its state and its part of the
    // jump structure load while this node is expanded.
    void prefetch(NodeId next) const {
      reached_.prefetch(next);
      p_.prefetch_structure(next);
    }

    // Inlined by force into the loop: GCC otherwise makes it a call per expansion,
    // about 0.5% more instructions in the search.
    template <class Relax>
    __attribute__((always_inline)) void successors(NodeId u, const Cell& cur, Relax&& relax) {
      const Derived& self = static_cast<const Derived&>(p_);
      const glm::ivec2 uc = p_.grid_.cell(u);
      const std::uint8_t dirs = p_.successor_dirs(u, uc, cur.parent_dir[0]);
      // Inlined by force too: GCC otherwise calls it once per successor (about 3% of a
      // `jps_plus` search's instructions).
      const auto hand_on = [&](const JumpSuccessor& s) __attribute__((always_inline)) {
        const NodeId v = NodeId(std::uint32_t(s.cell.y) * w_ + std::uint32_t(s.cell.x));
        relax(
            v,
            [&](Cell& c) {
              c.parent_dir[0] = s.arrive_dir;
              p_.parent_.set(v, u);
            },
            [&] { return s.cost * m_; },
            [&] { return h_scale_ * octile_cells(s.cell.x, s.cell.y, goal_.x, goal_.y); });
      };
      if (tracing()) {
        // The legal neighbours the pruning rules skip, unless the search holds them
        // already (a Prune event would take them off the replay's open list).
        const double gu = cur.g[0];
        const std::uint8_t pruned = std::uint8_t(p_.grid_.moves(u) & ~dirs);
        const auto& offsets = p_.grid_.offsets();
        for (int d = 0; d < 8; ++d) {
          if (!(pruned >> d & 1u)) continue;
          const NodeId v = NodeId(std::int64_t(u) + offsets[d]);
          if (reached_.find(v) == nullptr)
            emit(SearchEventKind::Prune, 0, v, u, gu + kDirLength[d] * m_, heuristic(v));
        }
        const auto trace_scan = [this](glm::ivec2 a, glm::ivec2 b) {
          p_.scanned_ += std::uint64_t(std::max(std::abs(b.x - a.x), std::abs(b.y - a.y)));
          emit(SearchEventKind::PassOver, 0, NodeId(std::uint32_t(b.y) * w_ + std::uint32_t(b.x)),
               NodeId(std::uint32_t(a.y) * w_ + std::uint32_t(a.x)), 0.0, 0.0);
        };
        for (int d = 0; d < 8; ++d) {
          if (dirs >> d & 1u) self.jumps(uc, d, hand_on, trace_scan);
        }
        return;
      }
      std::vector<JumpSuccessor>& found = p_.found_;
      found.clear();
      const auto gather = [&](const JumpSuccessor& s) __attribute__((always_inline)) {
        const NodeId v = NodeId(std::uint32_t(s.cell.y) * w_ + std::uint32_t(s.cell.x));
        reached_.prefetch(v);
        p_.parent_.prefetch(v);
        // Its part of the jump structure too: a successor that continues the search's
        // best line is the next node expanded, before the open list's old top that the
        // loop prefetched.
        p_.prefetch_structure(v);
        found.push_back(s);
      };
      for (int d = 0; d < 8; ++d) {
        if (dirs >> d & 1u) self.jumps(uc, d, gather, NoScan{});
      }
      for (const JumpSuccessor& s : found) hand_on(s);
    }

   private:
    JumpPointSearch& p_;
    const GridSearchState<1>::Finder reached_;
    const glm::ivec2 goal_;
    const std::uint32_t w_;
    const double m_;
    const double h_scale_;
  };

  // Asks the cache for the part of the planner's jump structure that expanding `node`
  // reads, when the planner says which (its prefetch()).
  void prefetch_structure(NodeId node) const {
    const Derived& self = *static_cast<const Derived*>(this);
    if constexpr (requires { self.prefetch(node); }) self.prefetch(node);
  }

  static std::string format(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  // The natural and forced neighbours of `u` reached by a last move in `dir` (kNoDir at
  // the start: every legal move): jump_successor_dirs() on the grid's moves, unless the
  // planner reads them from a structure of its own.
  std::uint8_t successor_dirs(NodeId u, glm::ivec2 c, std::uint8_t dir) const {
    const Derived& self = *static_cast<const Derived*>(this);
    if constexpr (requires { self.pruned_dirs(c, dir); }) return self.pruned_dirs(c, dir);
    return jump_successor_dirs(grid_.moves(u), dir,
                               [&](int dx, int dy) { return self.passable(c.x + dx, c.y + dy); });
  }

  void finish(SearchStatus status) {
    result_.stats.extra = {{"open_at_end", double(search_.open_size())}};
    if (observer_) result_.stats.extra.emplace_back("scanned_cells", double(scanned_));
    if (status != SearchStatus::Found) {
      result_.status = status;
      return;
    }
    jumps_.clear();
    for (NodeId n = ends_[1]; n != kNoNode; n = parent_[n]) jumps_.push_back(n);
    std::reverse(jumps_.begin(), jumps_.end());
    // Between consecutive jump points: diagonal moves while both coordinates differ, then
    // straight ones (every jump has this shape), stepped as index offsets, each move's
    // direction kept for the path's costs.
    const std::int64_t w = grid_.width();
    std::size_t moves = 0;
    for (std::size_t i = 1; i < jumps_.size(); ++i) {
      const glm::ivec2 d = grid_.cell(jumps_[i]) - grid_.cell(jumps_[i - 1]);
      moves += std::size_t(std::max(std::abs(d.x), std::abs(d.y)));
    }
    std::vector<NodeId> nodes = std::move(path_);
    nodes.resize(moves + 1);
    dirs_.resize(moves);
    nodes[0] = jumps_.front();
    std::size_t m = 0;
    glm::ivec2 a = grid_.cell(jumps_.front());
    for (std::size_t i = 1; i < jumps_.size(); ++i) {
      const glm::ivec2 b = grid_.cell(jumps_[i]);
      const int sx = (b.x > a.x) - (b.x < a.x), sy = (b.y > a.y) - (b.y < a.y);
      const int ax = std::abs(b.x - a.x), ay = std::abs(b.y - a.y);
      const int diagonal = std::min(ax, ay), straight = std::max(ax, ay) - diagonal;
      std::int64_t id = jumps_[i - 1];
      const std::uint8_t diagonal_dir = jump_dir_of(sx, sy);
      for (int k = 0; k < diagonal; ++k, ++m) {
        nodes[m + 1] = NodeId(id += sy * w + sx);
        dirs_[m] = diagonal_dir;
      }
      const std::int64_t step = ax > ay ? sx : sy * w;
      const std::uint8_t straight_dir = ax > ay ? jump_dir_of(sx, 0) : jump_dir_of(0, sy);
      for (int k = 0; k < straight; ++k, ++m) {
        nodes[m + 1] = NodeId(id += step);
        dirs_[m] = straight_dir;
      }
      a = b;
    }
    finish_path(std::move(nodes), dirs_);
  }

  bool ready_ = false;  // the current query's structure is prepared
  std::uint64_t revision_ = ~std::uint64_t(0);
  JumpParentPages parent_;
  BestFirstSearch<Cell> search_;
  std::vector<JumpSuccessor> found_;  // one expansion's successors (untraced), kept for its memory
  std::vector<NodeId> jumps_;         // the found path's jump points, kept for its memory
  std::vector<std::uint8_t> dirs_;    // the found path's moves, kept for their memory
  std::vector<NodeId> path_;          // the last answer's cells, taken back at start for their memory
};

}  // namespace pathscope
