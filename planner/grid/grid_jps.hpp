#pragma once

// Jump point search (Harabor and Grastien, AAAI 2011) on a cost grid whose passable cells
// all cost the same, for the 8-connected, no-corner-cutting movement of cost_grid.hpp.

#include <bit>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planner/grid/grid_search_base.hpp"
#include "planner/search/best_first_search.hpp"

namespace pathscope {

class JumpParentPages;  // grid_jump_search.hpp

/// One terrain group's passable cells as rows of bits, in the four orientations a
/// straight jump scans (east, west, south, north all become "east" in one of them), with
/// a blocked border of one cell all round. Built from the cost grid's move keys.
class JpsBitGrid {
 public:
  /// The cells of `grid` whose move key is `key` (non-zero) are passable.
  JpsBitGrid(const CostGrid& grid, std::uint16_t key);

  /// True when cell (x, y) is passable; x in [-1, width], y in [-1, height].
  bool passable(int x, int y) const { return get(0, x, y); }

  /// Passability of the 3 x 3 cells around cell (x, y): bit (dy + 1) * 3 + (dx + 1) for
  /// cell (x + dx, y + dy); x in [0, width), y in [0, height).
  std::uint32_t around(int x, int y) const {
    std::uint32_t m = 0;
    for (int r = 0; r < 3; ++r) {
      const std::uint8_t* row = row_ptr(0, y - 1 + r);
      const std::uint32_t pair = std::uint32_t(row[x >> 3]) | (std::uint32_t(row[(x >> 3) + 1]) << 8);
      m |= ((pair >> (x & 7)) & 7u) << (3 * r);  // bits x-1..x+1 of the row are bits x..x+2
    }
    return m;
  }

  /// Result of a straight jump: how many cells it moved, and whether it stopped on a jump
  /// point (a cell with a forced neighbour, or the goal) rather than before a wall.
  struct Jump {
    int steps = 0;
    bool found = false;
  };
  /// The straight jump from cell (x, y) in orthogonal direction kDir (0 E, 1 S, 2 W, 3 N,
  /// as kDirDx), stopping at the goal (gx, gy) if it lies ahead. Scans 56 cells per step;
  /// inlined, with its orientation fixed at compile time (a diagonal jump's two scans per
  /// step are no calls).
  template <int kDir>
  Jump jump(int x, int y, int gx, int gy) const {
    const bool goal_on_line = (kDir == 0 || kDir == 2) ? gy == y : gx == x;
    const int r = scan(line<kDir>(x, y), goal_on_line ? position<kDir>(gx, gy) : -1);
    return r > 0 ? Jump{r, true} : Jump{-r, false};
  }

  /// A straight line of cells as a scan east sees it in one orientation: the row of bits
  /// holding the scan's cell, the bytes between rows, and the cell's position in the row.
  /// A diagonal jump keeps one per component direction and moves it one cell per step
  /// (advance()) instead of finding the rows again.
  struct Line {
    const std::uint8_t* row = nullptr;  // bits of the cell's row (bit p + 1 is cell p)
    std::ptrdiff_t stride = 0;          // bytes from one row to the next
    int p = 0;                          // the cell's position along the row, scanning east
    /// Moves to the next cell along the line and `rows` (-1, 0, 1) rows across.
    void advance(int rows) {
      row += rows * stride;
      ++p;
    }
  };
  /// The position along its oriented row of cell (x, y) when scanning in direction kDir.
  template <int kDir>
  int position(int x, int y) const {
    if constexpr (kDir == 0) return x;
    if constexpr (kDir == 2) return width_ - 1 - x;
    if constexpr (kDir == 1) return y;
    if constexpr (kDir == 3) return height_ - 1 - y;
  }
  /// The line from cell (x, y) in direction kDir; a diagonal step (dx, dy) moves a line
  /// east or west dy rows across, and one north or south dx rows across.
  template <int kDir>
  Line line(int x, int y) const {
    constexpr int o = kDir == 0 ? 0 : kDir == 2 ? 1 : kDir == 1 ? 2 : 3;
    const int r = (kDir == 0 || kDir == 2) ? y : x;
    return Line{row_ptr(o, r), std::ptrdiff_t(stride_[o]), position<kDir>(x, y)};
  }
  /// The scan of jump(): from the line's cell, > 0 when it stops on a jump point (a cell
  /// with a forced neighbour, or the goal at position `goal_p` if that comes first; -1:
  /// none) that many cells on, otherwise minus the cells before the first blocked one.
  /// With kRows -1 or 1, `*diagonal_next` receives diagonal_open(l, kRows), read from the
  /// scan's first words.
  template <int kRows = 0>
  static int scan(const Line& l, int goal_p, bool* diagonal_next = nullptr) {
    // c: the first cell of the window. One load per row from the cell behind the window
    // (bit c) holds, shifted down one, the window itself (56 cells: the shift is at most
    // 8) and, in the rows beside, each cell's cell behind; the shift stays the same as the
    // window moves 56 cells (7 bytes) on. The border cell at the row's end is blocked, so
    // the loop stops by then.
    int c = l.p + 1;
    const int shift = c & 7;
    const std::uint8_t* here = l.row + (c >> 3);
    std::uint64_t cur = (load64(here) >> shift) >> 1;
    std::uint64_t a_back = load64(here - l.stride) >> shift;
    std::uint64_t b_back = load64(here + l.stride) >> shift;
    if constexpr (kRows != 0) {
      // Bit 0 of cur is the next cell along; bits 0 and 1 of a row beside, the cells
      // across from the line's cell and from the next one.
      const std::uint64_t side = kRows < 0 ? a_back : b_back;
      *diagonal_next = (cur & side & (side >> 1) & 1u) != 0;
    }
    for (;;) {
      const std::uint64_t stop = (~cur | ((a_back >> 1) & ~a_back) | ((b_back >> 1) & ~b_back)) & kScanMask;
      const int s = stop ? c + std::countr_zero(stop) : INT_MAX;
      if (unsigned(goal_p - c) < unsigned(kScanBits) && goal_p <= s) return goal_p - l.p;
      if (stop != 0) {
        if (!((cur >> (s - c)) & 1u)) return -(s - 1 - l.p);  // a wall: the last free cell
        return s - l.p;                                       // a forced neighbour
      }
      c += kScanBits;
      here += kScanBits / 8;
      cur = (load64(here) >> shift) >> 1;
      a_back = load64(here - l.stride) >> shift;
      b_back = load64(here + l.stride) >> shift;
    }
  }
  /// True when the diagonal move from the line's cell to the next cell along it and
  /// `rows` (-1 or 1) rows across is legal: both cells beside the move free too.
  static bool diagonal_open(const Line& l, int rows) {
    const int bit = l.p + 1;  // the cell's own bit; the next cell's is bit + 1
    const std::uint8_t* here = l.row + (bit >> 3);
    const std::uint64_t same = load64(here) >> (bit & 7);
    const std::uint64_t next = load64(here + rows * l.stride) >> (bit & 7);
    return ((same >> 1) & next & (next >> 1) & 1u) != 0;
  }
  /// jump<dir>, the direction chosen at run time.
  Jump jump_straight(int dir, int x, int y, int gx, int gy) const {
    switch (dir) {
      case 0: return jump<0>(x, y, gx, gy);
      case 1: return jump<1>(x, y, gx, gy);
      case 2: return jump<2>(x, y, gx, gy);
      default: return jump<3>(x, y, gx, gy);
    }
  }

 private:
  // Orientation o stores rows of `len_[o]` bits: 0 normal, 1 mirrored in x, 2 transposed
  // (rows are columns, south is east), 3 transposed and mirrored (north is east).
  bool get(int o, int p, int row) const {
    const std::uint8_t* r = row_ptr(o, row);
    const int bit = p + 1;
    return (r[bit >> 3] >> (bit & 7)) & 1u;
  }
  void set(int o, int p, int row);
  const std::uint8_t* row_ptr(int o, int row) const {
    return bits_[o].data() + std::size_t(row + 1) * stride_[o];
  }
  // Cells per window: the bits an unaligned 8-byte load shifted by up to 8 still holds.
  static constexpr int kScanBits = 56;
  static constexpr std::uint64_t kScanMask = (std::uint64_t(1) << kScanBits) - 1;
  // Eight bytes from `p`, unaligned.
  static std::uint64_t load64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

  int width_ = 0;
  int height_ = 0;
  int len_[4] = {0, 0, 0, 0};             // cells per row in each orientation
  std::size_t stride_[4] = {0, 0, 0, 0};  // bytes per row, with the border and 8 bytes of slack
  std::vector<std::uint8_t> bits_[4];
};

/// Jump point search on one movement class's CostGrid: exact (the costs of `astar`) when
/// every cell of the start's terrain group has the same multiplier; otherwise a query is
/// Invalid with a message naming `astar`. Nodes are cells (id = row-major index); the
/// search (planner/search's BestFirstSearch) expands jump points only, and its trace shows
/// each jump's scanned cells (PassOver events) and the neighbours pruning skipped (Prune
/// events).
class GridJps final : public GridSearchBase<1> {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridJps(const PlanningWorld& world, std::size_t movement_class, std::string name);
  ~GridJps() override;

  SearchStatus start(const PathQuery& query) override;
  SearchStatus step(std::uint64_t max_expansions) override;
  /// The reached jump points with their jump-point parents.
  void visit_nodes(const std::function<void(const NodeView&)>& fn) const override;
  /// The cells the last search's jumps read (scanned cells and their neighbours) and the
  /// multiplier of its terrain group.
  std::unique_ptr<ResultDependency> result_dependency() const override;

  /// The multiplier shared by every cell of move key `key` in `grid`, or 0 when they do
  /// not all share one (or none holds it); then `first` and `second` receive two that differ.
  static double uniform_multiplier(const CostGrid& grid, const TerrainRaster& raster, std::uint16_t key,
                                   double* first = nullptr, double* second = nullptr);

 private:
  // The jump graph as the best-first loop sees it (grid_jps.cpp).
  class Model;
  struct Successor {
    NodeId node = kNoNode;
    double cost = 0;            // cells, unweighted
    std::uint64_t scanned = 0;  // cells the jump scanned
    glm::ivec2 cell{0, 0};      // where it stopped (node's coordinates when found)
  };
  // The directions worth jumping from `u` (at cell coordinates `c`), arriving in direction `dir` (kNoDir at
  // the start): the natural and forced neighbours of the pruning rules.
  std::uint8_t successor_dirs(NodeId u, glm::ivec2 c, std::uint8_t dir) const;
  // Jumps from `u` (at cell coordinates `c`) in `dir`; node kNoNode when it hits a wall first. `scan` (may be
  // null) receives each segment scanned: (origin cell, last cell scanned).
  template <class ScanFn>
  Successor jump(NodeId u, glm::ivec2 c, int dir, ScanFn&& scan) const;
  void finish(SearchStatus status);

  const JpsBitGrid* bits_ = nullptr;  // the current query's group; valid while revision_ holds
  std::uint64_t revision_ = ~std::uint64_t(0);
  std::map<std::uint16_t, std::unique_ptr<JpsBitGrid>> grids_;  // per move key, for revision_
  double multiplier_ = 1;                                       // of the current query's group
  std::uint16_t key_ = 0;                                       // the current query's move key
  // Per cell: the jump point it was reached from (the jump searches' pages,
  // grid_jump_search.hpp, which includes this header: held by pointer).
  std::unique_ptr<JumpParentPages> parent_;
  std::uint64_t scanned_ = 0;  // cells scanned by the current search's jumps
  BestFirstSearch<Cell> search_;
};

}  // namespace pathscope
