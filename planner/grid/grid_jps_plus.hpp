#pragma once

// Preprocessed jump point search (JPS+: jump distances per cell and direction, built once
// per world and terrain group, updated with every edit) on a uniform-cost grid with no
// corner cutting.

#include <cstdint>
#include <string>
#include <vector>

#include "planner/grid/grid_jump_search.hpp"

namespace pathscope {

/// Jump distances of one terrain group (one move key) of a movement class's cost grid:
/// per passable cell and direction (kDirDx order), d > 0 when the jump from the cell in
/// that direction reaches a jump point d cells away, otherwise -d is the number of
/// cells it can go before a blocked cell (no jump point). Straight jump points are
/// cells with a forced neighbour; diagonal ones are cells from which a straight jump
/// along a component direction reaches a straight jump point. The goal is not in the
/// table: queries test it on the way. 17 bytes per cell: 8 distances of 2 bytes, 1 byte
/// of passability (with a blocked border). Maps of more than 32,767 cells a side are not
/// tabled (too_large()).
class JpsPlusTable final : public DerivedStructure {
 public:
  /// Builds the table of the cells of `grid` (`movement_class`'s, for update()) whose
  /// move key is `key`.
  JpsPlusTable(const CostGrid& grid, std::uint16_t key, std::size_t movement_class);
  /// The table of `key` in `movement_class`'s grid, as the world caches it.
  static const JpsPlusTable& of(const PlanningWorld& world, std::size_t movement_class, std::uint16_t key);

  /// Re-reads the changed cells' move keys and recomputes only the distances they can
  /// change: the straight ones of the rows and columns within one cell of the change,
  /// and the diagonal ones that lead into those, followed back along each diagonal for
  /// as long as they change. Equal to a table built from scratch (tested).
  bool update(const PlanningWorld& world, const WorldChange& change) override;
  std::size_t memory_bytes() const override { return dist_.size() * sizeof(std::int16_t) + pass_.size(); }

  /// True when the map is too large for 16-bit distances (nothing is tabled).
  bool too_large() const { return too_large_; }
  /// True when cell (x, y) belongs to the group; x in [-1, width], y in [-1, height].
  bool passable(int x, int y) const {
    return pass_[std::size_t(y + 1) * std::size_t(pw_) + std::size_t(x + 1)] != 0;
  }
  /// The jump distance from passable cell (x, y) in direction `dir` (see the class note).
  int distance(int x, int y, int dir) const {
    return dist_[(std::size_t(y) * std::size_t(w_) + std::size_t(x)) * 8 + std::size_t(dir)];
  }
  /// The 8 distances of passable cell (x, y), in direction order; a distance is 0 exactly
  /// when the move that way is illegal.
  const std::int16_t* row(int x, int y) const {
    return dist_.data() + (std::size_t(y) * std::size_t(w_) + std::size_t(x)) * 8;
  }
  /// The same row, of the cell of row-major index `cell` (y * width + x).
  const std::int16_t* row(std::uint32_t cell) const { return dist_.data() + std::size_t(cell) * 8; }
  /// Same passability and distances.
  bool operator==(const JpsPlusTable& o) const { return pass_ == o.pass_ && dist_ == o.dist_; }
  /// Cells whose distances the last update() recomputed.
  std::uint64_t last_update_cells() const { return last_update_cells_; }

 private:
  std::int16_t& at(int x, int y, int dir) {
    return dist_[(std::size_t(y) * std::size_t(w_) + std::size_t(x)) * 8 + std::size_t(dir)];
  }
  // The distance of (x, y) in `dir` from its successor cell's (already current).
  int straight_value(int x, int y, int dir) const;
  int diagonal_value(int x, int y, int dir) const;
  void straight_line(int dir, int line);  // one row (east, west) or column (south, north)
  void diagonals(int x0, int y0, int x1, int y1, bool all);

  std::size_t class_ = 0;
  std::uint16_t key_ = 0;
  int w_ = 0, h_ = 0, pw_ = 0;
  bool too_large_ = false;
  std::vector<std::uint8_t> pass_;  // (w + 2) x (h + 2), border blocked
  std::vector<std::int16_t> dist_;  // w x h x 8
  std::uint64_t last_update_cells_ = 0;
};

/// Jump point search over a JpsPlusTable: straight and diagonal jumps are table reads,
/// and as in `jps_block` a diagonal jump hands on the jump points its turning cells reach.
/// Exact on a uniform-cost group; otherwise a query is Invalid and names `astar`.
class GridJpsPlus final : public JumpPointSearch<GridJpsPlus> {
 public:
  /// `world` must outlive the planner. `name` is the registry name it reports.
  GridJpsPlus(const PlanningWorld& world, std::size_t movement_class, std::string name);
  ~GridJpsPlus() override;

 private:
  friend class JumpPointSearch<GridJpsPlus>;
  bool prepare();
  bool passable(int x, int y) const { return table_->passable(x, y); }
  std::uint8_t pruned_dirs(glm::ivec2 c, std::uint8_t dir) const;
  // Addressed by the cell's index, which is its row's in the table, not through x and y:
  // GCC 12 drops a prefetch whose address needs a division (the disassembly shows none).
  void prefetch(NodeId node) const { __builtin_prefetch(table_->row(node)); }
  template <class Push, class Scan>
  void jumps(glm::ivec2 c, int dir, Push&& push, Scan&& scan) const;
  template <class Push, class Scan>
  void straight(glm::ivec2 p, int dir, double base, Push&& push, Scan&& scan) const;

  const JpsPlusTable* table_ = nullptr;               // the current query's group
  std::uint64_t table_revision_ = ~std::uint64_t(0);  // the world revision table_ was found at
  std::uint16_t table_key_ = 0;                       // and the move key
};

// The search loop is instantiated once, in grid_jps_plus.cpp, where the jumps are.
extern template class JumpPointSearch<GridJpsPlus>;

}  // namespace pathscope
