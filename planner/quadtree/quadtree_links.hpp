#pragma once

// The 4-connected neighbour graph of a quadtree's leaves (seed 000, "The Quadtree",
// step 3) and its connected regions (seed 000, footnote 1).

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec2.hpp>

#include "planner/quadtree/quadtree.hpp"
#include "planner/quadtree/quadtree_regions.hpp"

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
  static constexpr std::uint32_t kNoRegion = QuadRegions::kNoRegion;

  QuadLinks() = default;
  /// Extracts the links of `tree` recursively with border lists, as the seed describes.
  explicit QuadLinks(const Quadtree& tree);

  /// Brings the links up to date after `tree` was updated (Quadtree::update returned
  /// `edit`): update_links(), then update_regions(). The links equal QuadLinks(tree);
  /// the regions are the same partition (their labels may differ).
  void update(const Quadtree& tree, const QuadtreeEdit& edit) {
    update_links(tree, edit);
    update_regions(tree, edit);
  }
  /// The links of new leaves and of the leaves touching them are found again by walking
  /// the tree along their sides; every other leaf keeps its links, renumbered.
  void update_links(const Quadtree& tree, const QuadtreeEdit& edit);
  /// The regions after update_links(): joined, extended and cut around the edit only
  /// (QuadRegions::update).
  void update_regions(const Quadtree& tree, const QuadtreeEdit& edit) { regions_.update(tree, edit, dirty_, *this); }

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

  /// Connected region of a leaf (passable leaves joined by two-way links), kNoRegion for
  /// impassable leaves. Labels are arbitrary: compare them, never count on their values.
  std::uint32_t region(std::uint32_t leaf) const { return regions_.region(leaf); }
  std::uint32_t region_count() const { return regions_.count(); }

  /// Bytes held.
  std::size_t memory_bytes() const;

 private:
  std::vector<std::uint32_t> first_;   // per leaf + 1: index of its first link
  std::vector<QuadLink> links_;
  // update() writes the new links here and swaps: memory already touched is reused, as
  // fresh pages cost more than the copy itself on big maps.
  std::vector<std::uint32_t> spare_first_;
  std::vector<QuadLink> spare_links_;
  std::vector<std::uint8_t> dirty_;  // per leaf: its links were found again by the last update
  QuadRegions regions_;
  std::size_t one_way_ = 0;
};

}  // namespace pathscope
