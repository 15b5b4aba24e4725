#pragma once

// Connected regions of a quadtree's leaves (seed 000, footnote 1: a path query between
// regions is refused at once), kept up to date edit by edit without a pass over every
// leaf.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "planner/quadtree/quadtree.hpp"

namespace pathscope {

class QuadLinks;

/// Region labels of the passable leaves: two leaves share a region exactly when two-way
/// links join them. Labels are arbitrary (not dense, not a fresh build's numbers, and
/// they may change at every update); only equality means something.
///
/// The map is cut into square blocks (a leaf belongs to the block of its top-left cell).
/// Within a block, the leaves joined by links inside it form parts; the parts are joined
/// across blocks by the links between blocks. An update labels again only the parts of
/// the blocks the edit touched, then joins all parts (a pass over the parts and the links
/// between blocks, not over the leaves).
class QuadRegions {
 public:
  /// Names no region (impassable leaves).
  static constexpr std::uint32_t kNoRegion = 0xFFFFFFFFu;

  /// Labels every leaf from scratch: O(leaf slots + links).
  void build(const Quadtree& tree, const QuadLinks& links);

  /// Brings the labels up to date after Quadtree::update gave `edit` and the links were
  /// brought up to date: `dirty` lists the leaves whose links were found again (the
  /// added leaves and their neighbours). O(leaves and links of the blocks touched + parts
  /// + links between blocks).
  void update(const Quadtree& tree, const QuadtreeEdit& edit, std::span<const std::uint32_t> dirty,
              const QuadLinks& links);

  /// Region of a leaf, kNoRegion for impassable leaves (and free slots).
  std::uint32_t region(std::uint32_t leaf) const {
    const std::uint32_t p = part_[leaf];
    return p == kNoRegion ? kNoRegion : label_[p];
  }
  /// Regions now.
  std::uint32_t count() const { return count_; }
  /// Side of the blocks, cells.
  int block_side() const { return side_; }

  /// Bytes held.
  std::size_t memory_bytes() const;

 private:
  struct Block {
    std::vector<std::uint32_t> parts;  // the leaf that names each of its parts
    // Two-way links (from, to) out of its leaves into leaves of later blocks.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> crossings;
  };

  std::uint32_t block_of(const QuadLeaf& l) const {
    return std::uint32_t(l.y / side_) * std::uint32_t(blocks_x_) + std::uint32_t(l.x / side_);
  }
  // Finds the parts of block `b` and its links into later blocks.
  void label_block(const Quadtree& tree, const QuadLinks& links, std::uint32_t b);
  // Joins the parts across blocks and labels them.
  void join_blocks();
  std::uint32_t find(std::uint32_t leaf);

  int side_ = 1;
  int blocks_x_ = 0;
  int blocks_y_ = 0;
  int width_ = 0;
  int height_ = 0;
  std::vector<Block> blocks_;
  std::vector<std::uint32_t> part_;   // per leaf slot: the leaf naming its part, or kNoRegion
  std::vector<std::uint32_t> label_;  // per leaf naming a part: the part's region
  std::uint32_t count_ = 0;
  // Scratch, kept between updates so that memory already touched is reused.
  std::vector<std::uint32_t> up_;       // per leaf slot: union-find parent
  std::vector<std::uint32_t> members_;  // the passable leaves of the block being labelled
  std::vector<std::uint32_t> touched_;  // blocks an update labels again
  std::vector<std::uint8_t> mark_;      // per block: listed in touched_
};

}  // namespace pathscope
