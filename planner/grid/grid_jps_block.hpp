#pragma once

// Block-based jump point search (Harabor and Grastien, "Improving Jump Point Search",
// ICAPS 2014) on a cost grid whose passable cells all cost the same, for the
// 8-connected, no-corner-cutting movement of cost_grid.hpp.

#include <bit>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "planner/grid/grid_jump_search.hpp"

namespace pathscope {

/// One terrain group's passable cells as rows of bits for `jps_block`'s jumps: the layout
/// of JpsBitGrid (four orientations, so every straight jump is a scan east; a blocked
/// border all round), with the scan inlined and its orientation fixed at compile time, so a
/// diagonal jump's two scans per step are no calls.
class JpsBlockRows {
 public:
  /// The cells of `grid` whose move key is `key` (non-zero) are passable.
  JpsBlockRows(const CostGrid& grid, std::uint16_t key);

  /// True when cell (x, y) is passable; x in [-1, width], y in [-1, height].
  bool passable(int x, int y) const {
    const std::uint8_t* r = row_ptr(0, y);
    return (r[(x + 1) >> 3] >> ((x + 1) & 7)) & 1u;
  }
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
  /// as kDirDx), stopping at the goal (gx, gy) if it lies ahead; what
  /// JpsBitGrid::jump_straight answers. Scans 56 cells per step.
  template <int kDir>
  Jump jump(int x, int y, int gx, int gy) const {
    if constexpr (kDir == 0) return scan_east(0, x, y, gy == y && gx > x ? gx : -1);
    if constexpr (kDir == 2) return scan_east(1, width_ - 1 - x, y, gy == y && gx < x ? width_ - 1 - gx : -1);
    if constexpr (kDir == 1) return scan_east(2, y, x, gx == x && gy > y ? gy : -1);
    if constexpr (kDir == 3)
      return scan_east(3, height_ - 1 - y, x, gx == x && gy < y ? height_ - 1 - gy : -1);
  }

 private:
  static constexpr int kScanBits = 56;
  static constexpr std::uint64_t kScanMask = (std::uint64_t(1) << kScanBits) - 1;

  const std::uint8_t* row_ptr(int o, int row) const {
    return bits_[o].data() + std::size_t(row + 1) * stride_[o];
  }
  static std::uint64_t load_bits(const std::uint8_t* row, int bit) {
    std::uint64_t v;
    std::memcpy(&v, row + (bit >> 3), sizeof v);
    return v >> (bit & 7);
  }
  // Orientation o (0 as is, 1 mirrored in x, 2 transposed, 3 transposed and mirrored):
  // from cell p of row `row`, the first stop east (a blocked cell: the cell before it,
  // nothing found; a forced neighbour: found), or the goal at goal_p if it comes first.
  Jump scan_east(int o, int p, int row, int goal_p) const {
    const std::uint8_t* here = row_ptr(o, row);
    const std::uint8_t* above = row_ptr(o, row - 1);
    const std::uint8_t* below = row_ptr(o, row + 1);
    // c: the first cell of the window (its bit is c + 1). The border cell at the row's
    // end is blocked, so the loop stops by then.
    for (int c = p + 1;; c += kScanBits) {
      const std::uint64_t cur = load_bits(here, c + 1);
      const std::uint64_t a = load_bits(above, c + 1), a_back = load_bits(above, c);
      const std::uint64_t b = load_bits(below, c + 1), b_back = load_bits(below, c);
      const std::uint64_t stop = (~cur | (a & ~a_back) | (b & ~b_back)) & kScanMask;
      const int s = stop ? c + std::countr_zero(stop) : INT_MAX;
      if (goal_p >= c && goal_p < c + kScanBits && goal_p <= s) return Jump{goal_p - p, true};
      if (stop == 0) continue;
      if (!((cur >> (s - c)) & 1u)) return Jump{s - 1 - p, false};  // a wall: the last free cell
      return Jump{s - p, true};                                     // a forced neighbour
    }
  }

  int width_ = 0;
  int height_ = 0;
  std::size_t stride_[4] = {0, 0, 0, 0};  // bytes per row, with the border and 8 bytes of slack
  std::vector<std::uint8_t> bits_[4];
};

/// Jump point search with block-based jumps: every straight jump reads rows of bits 56
/// cells at a time, and a diagonal jump runs both straight block scans from each of its
/// steps and hands on what they find directly, so the cells where it turns are never
/// nodes. Exact (the costs of `astar`) on a uniform-cost group; otherwise a query is
/// Invalid and names `astar`. Nodes are cells (id = row-major index).
class GridJpsBlock final : public JumpPointSearch<GridJpsBlock> {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridJpsBlock(const PlanningWorld& world, std::size_t movement_class, std::string name);
  ~GridJpsBlock() override;

 private:
  friend class JumpPointSearch<GridJpsBlock>;
  bool prepare();
  bool passable(int x, int y) const { return bits_->passable(x, y); }
  std::uint8_t pruned_dirs(glm::ivec2 c, std::uint8_t dir) const;
  template <class Push, class Scan>
  void jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const;
  template <int kDir, class Push, class Scan>
  void straight_jump(glm::ivec2 c, Push&& push, Scan&& scan) const;
  template <int kDx, int kDy, class Push, class Scan>
  void diagonal_jump(glm::ivec2 c, Push&& push, Scan&& scan) const;

  const JpsBlockRows* bits_ = nullptr;  // the current query's group; valid while bits_revision_ holds
  std::uint64_t bits_revision_ = ~std::uint64_t(0);
  std::map<std::uint16_t, std::unique_ptr<JpsBlockRows>> grids_;  // per move key, for bits_revision_
};

// The search loop is instantiated once, in grid_jps_block.cpp, where the jumps are.
extern template class JumpPointSearch<GridJpsBlock>;

}  // namespace pathscope
