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
/// 24 bytes: a search reads one per neighbour.
struct QuadLink {
  std::uint32_t to = Quadtree::kNoLeaf;  ///< The neighbour leaf.
  glm::ivec2 a{0, 0};                    ///< One end of the shared edge (the portal), cells.
  glm::ivec2 b{0, 0};                    ///< The other end; a < b along the edge.
  /// The neighbour's corner (Quadtree::corner), at hand for the search; maps have fewer
  /// than 2^31 cells.
  std::uint32_t to_corner : 31 = 0;
  bool one_way : 1 = false;  ///< Out of an impassable leaf: there is no link back.
};
static_assert(sizeof(QuadLink) == 24);

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
  /// `edit`): update_links(), then update_regions(). The links equal QuadLinks(tree) (as
  /// links between squares); the regions are the same partition (their labels may
  /// differ).
  void update(const Quadtree& tree, const QuadtreeEdit& edit) {
    update_links(tree, edit);
    update_regions(tree, edit);
  }
  /// The links of the added leaves and of the leaves touching them are found again by
  /// walking the tree along their sides; the removed leaves lose theirs; every other leaf
  /// keeps its links as they are. O(links of the leaves around the edit).
  void update_links(const Quadtree& tree, const QuadtreeEdit& edit);
  /// The regions after update_links(): joined, extended and cut around the edit only
  /// (QuadRegions::update).
  void update_regions(const Quadtree& tree, const QuadtreeEdit& edit) {
    regions_.update(tree, edit, dirty_, *this);
  }

  /// The links out of a leaf (none for a free slot), sorted by their target's corner
  /// (Quadtree::corner), so their order does not depend on leaf ids.
  std::span<const QuadLink> out(std::uint32_t leaf) const {
    const Block& b = block_[leaf];
    return {links_.data() + b.first, b.count};
  }
  /// The link from `from` to `to`, or nullptr. O(links out of `from`).
  const QuadLink* find(std::uint32_t from, std::uint32_t to) const;
  /// Directed links in all.
  std::size_t link_count() const { return link_count_; }
  /// Directed links out of impassable leaves.
  std::size_t one_way_count() const { return one_way_; }

  /// Connected region of a leaf (passable leaves joined by two-way links), kNoRegion for
  /// impassable leaves. Labels are arbitrary: compare them, never count on their values.
  std::uint32_t region(std::uint32_t leaf) const { return regions_.region(leaf); }
  std::uint32_t region_count() const { return regions_.count(); }

  /// Bytes held.
  std::size_t memory_bytes() const;

 private:
  // A leaf's links: links_[first, first + count) (read by every expansion of a search,
  // so kept to 8 bytes; the room in place is in capacity_).
  struct Block {
    std::uint32_t first = 0;
    std::uint32_t count = 0;
  };
  // Replaces the links of `leaf` with `links`, in place if they fit, else at the end.
  void store(std::uint32_t leaf, std::span<const QuadLink> links);
  // Packs the blocks again, leaf by leaf, when holes outweigh the links.
  void compact();

  std::vector<Block> block_;             // per leaf slot
  std::vector<std::uint32_t> capacity_;  // per leaf slot: links its block holds in place
  std::vector<QuadLink> links_;          // the blocks, with holes left by blocks that moved
  std::size_t link_count_ = 0;
  std::size_t one_way_ = 0;
  std::vector<std::uint32_t> dirty_;  // leaves whose links the last update found again, ascending
  std::vector<std::uint8_t> mark_;    // per leaf slot: scratch of update_links(), all 0 between calls
  std::vector<QuadLink> scratch_;
  QuadRegions regions_;
};

}  // namespace pathscope
