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
  int x = 0;              ///< Left column of its top-left cell.
  int y = 0;              ///< Top row of its top-left cell.
  int size = 1;           ///< Side in cells, a power of two; 0 in a free slot (no leaf).
  double multiplier = 0;  ///< Terrain cost multiplier of every cell in it; 0 = impassable.
  std::uint16_t key = 0;  ///< CostGrid::move_key of its cells (0 = impassable).

  bool passable() const { return multiplier > 0; }
  /// Its cells.
  CellRect rect() const { return {x, y, x + size, y + size}; }
};

struct QuadtreeEdit;

/// The quadtree of one CostGrid. A leaf's id is a slot in leaves(): a fresh build numbers
/// its leaves densely in the order the bottom-up build emits them (deterministic); an
/// update keeps the id of every leaf it leaves in place, frees the slots of the leaves it
/// removes and gives new leaves free slots first. So ids are stable across updates but
/// depend on the edits made: whatever must not depend on them (the planner's node ids,
/// its ties, the order of links) uses the leaf's corner (corner()) instead, which is the
/// same in every tree of the same grid.
class Quadtree {
 public:
  /// Names no leaf (outside the map).
  static constexpr std::uint32_t kNoLeaf = 0xFFFFFFFFu;

  /// A reference to a tree node: kNoLeaf (outside the map), a leaf (kLeafBit | id) or an
  /// inner node (an index into nodes()).
  using Ref = std::uint32_t;
  static constexpr Ref kLeafBit = 0x80000000u;

  /// An inner node: its four quarters, in the order NW, NE, SW, SE (y grows downwards).
  /// A free slot of nodes() has four kNoLeaf children (a node in use has at least its
  /// north-west quarter inside the map).
  struct Inner {
    std::array<Ref, 4> child{kNoLeaf, kNoLeaf, kNoLeaf, kNoLeaf};
  };

  Quadtree() = default;
  /// Builds the simplified tree of `grid`: every maximal aligned square of cells with
  /// equal multiplier and move key is one leaf, and no inner node has four leaf children
  /// of equal cost (they would have been one leaf).
  explicit Quadtree(const CostGrid& grid) : Quadtree(grid, ~std::size_t{0}) {}
  /// The same, but the build stops once the tree would have more than `max_leaves`
  /// leaves (a memory budget): it is then empty (no leaf, no node; over_budget() is true).
  Quadtree(const CostGrid& grid, std::size_t max_leaves);
  /// True when the build stopped at its leaf limit (see the constructor).
  bool over_budget() const { return over_budget_; }

  /// Brings the tree up to date after the cells of `changed` (clipped to the map) changed
  /// in `grid`, the grid it was built from, in place: the squares meeting `changed` are
  /// built again from the grid, everything else is left as it is, and squares are merged
  /// upwards where they became uniform. The leaves equal those of a tree built from `grid`
  /// from scratch (squares and costs; ids differ, see the class). O(changed cells + the
  /// depth of the tree), whatever the number of leaves.
  QuadtreeEdit update(const CostGrid& grid, const CellRect& changed);

  int width() const { return width_; }             ///< Map width, cells.
  int height() const { return height_; }           ///< Map height, cells.
  int root_size() const { return root_size_; }     ///< Side of the padded root, cells.
  double cell_size() const { return cell_size_; }  ///< Metres per cell.

  /// Every slot, leaves and free ones (size 0); ids are indices into it.
  const std::vector<QuadLeaf>& leaves() const { return leaves_; }
  const QuadLeaf& leaf(std::uint32_t id) const { return leaves_[id]; }
  /// True if slot `id` holds a leaf.
  bool has_leaf(std::uint32_t id) const { return id < leaves_.size() && leaves_[id].size > 0; }
  /// Leaves in the tree.
  std::size_t leaf_count() const { return leaves_.size() - free_leaves_.size(); }
  /// Slots: every leaf id is below this (equal to leaf_count() after a fresh build).
  std::size_t leaf_slots() const { return leaves_.size(); }
  /// Every slot of inner nodes, used and free.
  const std::vector<Inner>& nodes() const { return nodes_; }
  /// Inner nodes in the tree.
  std::size_t node_count() const { return nodes_.size() - free_nodes_.size(); }
  Ref root() const { return root_; }

  /// The leaf's corner: the row-major index of its top-left cell, y * width() + x. Names
  /// the leaf independently of its id: equal in every tree of the same grid.
  std::uint32_t corner(std::uint32_t id) const {
    const QuadLeaf& l = leaves_[id];
    return std::uint32_t(l.y) * std::uint32_t(width_) + std::uint32_t(l.x);
  }
  /// The leaf whose top-left cell is `cell` (row-major index), or kNoLeaf. O(1).
  std::uint32_t leaf_at_corner(std::uint32_t cell) const {
    return cell < at_corner_.size() ? at_corner_[cell] : kNoLeaf;
  }

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
  friend class QuadtreeBuilder;

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
  std::vector<std::uint32_t> free_leaves_;  // free slots of leaves_, the next one to reuse last
  std::vector<std::uint32_t> free_nodes_;   // free slots of nodes_, likewise
  std::vector<std::uint32_t> at_corner_;    // per cell: the leaf whose top-left cell it is, or kNoLeaf
  Ref root_ = kNoLeaf;
  bool over_budget_ = false;
};

/// What Quadtree::update() changed. Every leaf in neither list is untouched: same id,
/// square and cost. The two lists never share an id (slots freed by an update are reused
/// from the next update on).
struct QuadtreeEdit {
  std::vector<std::uint32_t> added;    ///< Leaves the update made (new squares or costs).
  std::vector<std::uint32_t> removed;  ///< Leaves it removed; their slots are free now.
  CellRect area;                       ///< Bounds of the added and removed leaves, cells.
};

}  // namespace pathscope
