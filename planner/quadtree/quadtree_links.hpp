#pragma once

// The 4-connected neighbour graph of a quadtree's leaves (seed 000, "The Quadtree",
// step 3) and its connected regions (seed 000, footnote 1).

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>

#include "planner/quadtree/quadtree.hpp"

namespace pathscope {

/// A directed link out of a leaf into a neighbour that shares a stretch of its edge.
struct QuadLink {
  std::uint32_t to = Quadtree::kNoLeaf;  ///< The neighbour leaf.
  glm::ivec2 a{0, 0};                    ///< One end of the shared edge (the portal), cells.
  glm::ivec2 b{0, 0};                    ///< The other end; a < b along the edge.
  bool one_way = false;                  ///< Out of an impassable leaf: there is no link back.
};

/// The neighbour links of every leaf. Two passable leaves with the same move key that
/// share an edge of positive length are linked both ways; an impassable leaf is linked
/// out to its passable neighbours and nothing links into it (seed 000, footnote 2: a ship
/// pushed into an obstacle can still leave it). Leaves touching at a corner only are
/// not neighbours.
class QuadLinks {
 public:
  /// Names no region (impassable leaves).
  static constexpr std::uint32_t kNoRegion = 0xFFFFFFFFu;

  QuadLinks() = default;
  /// Extracts the links of `tree` recursively with border lists, as the seed describes.
  explicit QuadLinks(const Quadtree& tree);

  /// Brings the links up to date after `tree` was updated (Quadtree::update returned
  /// `edit`): the links of new leaves and of the leaves touching them are found again by
  /// walking the tree along their sides; every other leaf keeps its links, renumbered.
  /// Regions are labelled again in full. The result equals QuadLinks(tree).
  void update(const Quadtree& tree, const QuadtreeEdit& edit);

  /// The links out of a leaf, sorted by target leaf.
  std::span<const QuadLink> out(std::uint32_t leaf) const {
    return {links_.data() + first_[leaf], links_.data() + first_[leaf + 1]};
  }
  /// The link from `from` to `to`, or nullptr.
  const QuadLink* find(std::uint32_t from, std::uint32_t to) const;
  /// Directed links in all.
  std::size_t link_count() const { return links_.size(); }
  /// Directed links out of impassable leaves.
  std::size_t one_way_count() const { return one_way_; }

  /// Connected region of a leaf (passable leaves joined by two-way links, labelled 0..
  /// in leaf order of their first leaf), kNoRegion for impassable leaves.
  std::uint32_t region(std::uint32_t leaf) const { return region_[leaf]; }
  std::uint32_t region_count() const { return region_count_; }

  /// Bytes held.
  std::size_t memory_bytes() const;

  /// Labels the regions again from the links (union-find over two-way links, O(leaves +
  /// links)); the constructor and update() do this. Public so that benchmarks can time it.
  void label_regions(const Quadtree& tree);

 private:
  std::vector<std::uint32_t> first_;   // per leaf + 1: index of its first link
  std::vector<QuadLink> links_;
  // update() writes the new links here and swaps: memory already touched is reused, as
  // fresh pages cost more than the copy itself on big maps.
  std::vector<std::uint32_t> spare_first_;
  std::vector<QuadLink> spare_links_;
  std::vector<std::uint32_t> scratch_;  // union-find parents, dirty marks
  std::vector<std::uint32_t> region_;  // per leaf
  std::uint32_t region_count_ = 0;
  std::size_t one_way_ = 0;
};

}  // namespace pathscope
