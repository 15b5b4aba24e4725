#pragma once

// A quadtree decomposition of one movement class's cost grid (seed 000, "The Quadtree"):
// squares of uniform cost, as large as the grid allows, down to one grid cell (the
// resolution). The root is padded to a power of two; cells outside the map belong to no
// leaf.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "planner/core/cell_rect.hpp"
#include "planner/core/types.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// One leaf of a quadtree: a square of grid cells that share one cost.
struct QuadLeaf {
  int x = 0;                 ///< Left column of its top-left cell.
  int y = 0;                 ///< Top row of its top-left cell.
  int size = 1;              ///< Side in cells, a power of two.
  double multiplier = 0;     ///< Terrain cost multiplier of every cell in it; 0 = impassable.
  std::uint16_t key = 0;     ///< CostGrid::move_key of its cells (0 = impassable).

  bool passable() const { return multiplier > 0; }
  /// Its cells.
  CellRect rect() const { return {x, y, x + size, y + size}; }
};

struct QuadtreeEdit;

/// The quadtree of one CostGrid. Leaves are numbered in the order the bottom-up build
/// emits them (deterministic); their ids are the quadtree planner's node ids.
class Quadtree {
 public:
  /// Names no leaf (outside the map).
  static constexpr std::uint32_t kNoLeaf = 0xFFFFFFFFu;

  /// A reference to a tree node: kNoLeaf (outside the map), a leaf (kLeafBit | id) or an
  /// inner node (an index into nodes()).
  using Ref = std::uint32_t;
  static constexpr Ref kLeafBit = 0x80000000u;

  /// An inner node: its four quarters, in the order NW, NE, SW, SE (y grows downwards).
  struct Inner {
    std::array<Ref, 4> child{};
  };

  Quadtree() = default;
  /// Builds the simplified tree of `grid`: every maximal aligned square of cells with
  /// equal multiplier and move key is one leaf, and no inner node has four leaf children
  /// of equal cost (they would have been one leaf).
  explicit Quadtree(const CostGrid& grid);

  /// Brings the tree up to date after the cells of `changed` (clipped to the map) changed
  /// in `grid`, the grid it was built from: the squares meeting `changed` are built again
  /// from the grid, everything else is copied, and squares are merged upwards where
  /// they became uniform. The result equals a tree built from `grid` from scratch, leaf
  /// ids and node indices included. O(changed cells + leaves + nodes).
  QuadtreeEdit update(const CostGrid& grid, const CellRect& changed);

  int width() const { return width_; }             ///< Map width, cells.
  int height() const { return height_; }           ///< Map height, cells.
  int root_size() const { return root_size_; }     ///< Side of the padded root, cells.
  double cell_size() const { return cell_size_; }  ///< Metres per cell.

  const std::vector<QuadLeaf>& leaves() const { return leaves_; }
  const QuadLeaf& leaf(std::uint32_t id) const { return leaves_[id]; }
  std::size_t leaf_count() const { return leaves_.size(); }
  const std::vector<Inner>& nodes() const { return nodes_; }
  Ref root() const { return root_; }

  /// World box of a leaf.
  Box2 leaf_box(std::uint32_t id) const;
  /// World centre of a leaf.
  Vec2 leaf_center(std::uint32_t id) const;
  /// The leaf holding cell (x, y), or kNoLeaf outside the map. O(depth).
  std::uint32_t leaf_at_cell(int x, int y) const;
  /// The leaf holding a world point (cells are half-open, as CostGrid::cell_at), or
  /// kNoLeaf outside the map.
  std::uint32_t leaf_at(Vec2 world) const;
  /// Calls fn(leaf id) for every leaf meeting the cells of `rect`, in tree order.
  template <class Fn>
  void for_each_leaf_in(const CellRect& rect, Fn&& fn) const {
    if (!rect.empty() && root_ != kNoLeaf) visit_in(root_, 0, 0, root_size_, rect, fn);
  }

  /// Bytes held.
  std::size_t memory_bytes() const;

 private:
  template <class Fn>
  void visit_in(Ref ref, int x, int y, int size, const CellRect& rect, Fn& fn) const {
    if (ref == kNoLeaf || CellRect{x, y, x + size, y + size}.intersected(rect).empty()) return;
    if (ref & kLeafBit) {
      fn(ref & ~kLeafBit);
      return;
    }
    const int h = size / 2;
    const Inner& n = nodes_[ref];
    visit_in(n.child[0], x, y, h, rect, fn);
    visit_in(n.child[1], x + h, y, h, rect, fn);
    visit_in(n.child[2], x, y + h, h, rect, fn);
    visit_in(n.child[3], x + h, y + h, h, rect, fn);
  }

  int width_ = 0;
  int height_ = 0;
  int root_size_ = 1;
  double cell_size_ = 1;
  std::vector<QuadLeaf> leaves_;
  std::vector<Inner> nodes_;
  Ref root_ = kNoLeaf;
};

/// What Quadtree::update() kept: a leaf is kept when a leaf with the same square and cost
/// existed before the update (its id may have changed).
struct QuadtreeEdit {
  std::vector<std::uint32_t> old_of_new;  ///< Per leaf now: its id before, or kNoLeaf when new.
  std::vector<std::uint32_t> new_of_old;  ///< Per leaf before: its id now, or kNoLeaf when gone.
  std::size_t new_leaves = 0;             ///< Leaves now that were not kept.
};

}  // namespace pathscope
