// Connected regions of the quadtree's leaves, labelled once and then kept up to date
// after each edit (seed 000, footnote 1: regions answer "no path" before any search).
//
// Two levels, so that an edit relabels a bounded area however large the regions it
// joins or cuts (a wall across a maze cuts a region of half the map in two; relabelling
// either half by a search would cost as much as labelling the map):
//  - The map is cut into square blocks of `side_` cells, 16 to a side of the padded
//    root (8 to 64 cells each); a leaf belongs to the block holding its top-left cell.
//    A block's parts are its passable leaves joined by two-way links inside the block
//    (a union-find over them); each part is named by its smallest leaf id. The block
//    also lists its two-way links into leaves of later blocks.
//  - Regions are the parts joined by those links: a union-find over the parts, run again
//    after every update. It reads every part and every link between blocks, a few per
//    block on open maps, a few dozen on a maze of one-cell corridors, never the leaves.
// An update labels again the blocks holding an added leaf, a leaf whose links were found
// again, or a removed one; every other block keeps its parts and links, because a link
// that appeared or went has an added or a removed leaf at one end and a leaf whose links
// were found again (or an added one) at the other (quadtree_links.cpp).

#include "planner/quadtree/quadtree_regions.hpp"

#include <algorithm>
#include <cassert>

#include "planner/quadtree/quadtree_links.hpp"

namespace pathscope {

std::uint32_t QuadRegions::find(std::uint32_t leaf) {
  while (up_[leaf] != leaf) {
    up_[leaf] = up_[up_[leaf]];
    leaf = up_[leaf];
  }
  return leaf;
}

void QuadRegions::label_block(const Quadtree& tree, const QuadLinks& links, std::uint32_t b) {
  const int bx = int(b % std::uint32_t(blocks_x_)) * side_, by = int(b / std::uint32_t(blocks_x_)) * side_;
  const CellRect rect = CellRect{bx, by, bx + side_, by + side_}.intersected(CellRect{0, 0, width_, height_});
  Block& block = blocks_[b];
  block.parts.clear();
  block.crossings.clear();
  members_.clear();
  tree.for_each_leaf_in(rect, [&](std::uint32_t id) {
    const QuadLeaf& l = tree.leaf(id);
    if (!rect.contains(l.x, l.y)) return;  // a larger leaf of an earlier block
    if (!l.passable()) {
      part_[id] = kNoRegion;
      return;
    }
    members_.push_back(id);
    up_[id] = id;
  });
  for (const std::uint32_t u : members_) {
    for (const QuadLink& link : links.out(u)) {
      if (link.one_way) continue;
      const QuadLeaf& v = tree.leaf(link.to);
      if (rect.contains(v.x, v.y)) {
        if (link.to < u) continue;  // a link inside the block once
        const std::uint32_t ru = find(u), rv = find(link.to);
        if (ru != rv) up_[std::max(ru, rv)] = std::min(ru, rv);
      } else if (block_of(v) > b) {
        block.crossings.emplace_back(u, link.to);
      }
    }
  }
  // Each part is rooted at its smallest leaf.
  for (const std::uint32_t u : members_) {
    const std::uint32_t r = find(u);
    part_[u] = r;
    if (r == u) block.parts.push_back(u);
  }
}

void QuadRegions::join_blocks() {
  for (const Block& block : blocks_) {
    for (const std::uint32_t p : block.parts) up_[p] = p;
  }
  for (const Block& block : blocks_) {
    for (const auto& [u, v] : block.crossings) {
      const std::uint32_t a = find(part_[u]), b = find(part_[v]);
      if (a != b) up_[std::max(a, b)] = std::min(a, b);
    }
  }
  count_ = 0;
  for (const Block& block : blocks_) {
    for (const std::uint32_t p : block.parts) {
      label_[p] = find(p);
      count_ += label_[p] == p;
    }
  }
}

void QuadRegions::build(const Quadtree& tree, const QuadLinks& links) {
  width_ = tree.width();
  height_ = tree.height();
  side_ = std::clamp(tree.root_size() / 16, 8, 64);
  blocks_x_ = (width_ + side_ - 1) / side_;
  blocks_y_ = (height_ + side_ - 1) / side_;
  blocks_.assign(std::size_t(blocks_x_) * std::size_t(blocks_y_), Block{});
  mark_.assign(blocks_.size(), 0);
  const std::size_t n = tree.leaf_slots();
  part_.assign(n, kNoRegion);
  label_.assign(n, kNoRegion);
  up_.assign(n, 0);
  for (std::uint32_t b = 0; b < blocks_.size(); ++b) label_block(tree, links, b);
  join_blocks();
}

void QuadRegions::update(const Quadtree& tree, const QuadtreeEdit& edit, std::span<const std::uint32_t> dirty,
                         const QuadLinks& links) {
  assert(tree.width() == width_ && tree.height() == height_);
  const std::size_t n = tree.leaf_slots();
  if (part_.size() < n) {
    part_.resize(n, kNoRegion);
    label_.resize(n, kNoRegion);
    up_.resize(n, 0);
  }
  for (const std::uint32_t id : edit.removed) part_[id] = kNoRegion;
  touched_.clear();
  const auto touch = [&](std::uint32_t b) {
    if (mark_[b]) return;
    mark_[b] = 1;
    touched_.push_back(b);
  };
  for (const std::uint32_t id : dirty) touch(block_of(tree.leaf(id)));
  // The blocks of the removed leaves: their slots are cleared, but they lay inside the
  // edit's area, so every block meeting it is labelled again.
  const CellRect area = edit.area.intersected(CellRect{0, 0, width_, height_});
  if (!area.empty()) {
    for (int by = area.y0 / side_; by <= (area.y1 - 1) / side_; ++by) {
      for (int bx = area.x0 / side_; bx <= (area.x1 - 1) / side_; ++bx)
        touch(std::uint32_t(by * blocks_x_ + bx));
    }
  }
  std::sort(touched_.begin(), touched_.end());
  for (const std::uint32_t b : touched_) {
    label_block(tree, links, b);
    mark_[b] = 0;
  }
  join_blocks();
}

std::size_t QuadRegions::memory_bytes() const {
  std::size_t bytes = blocks_.capacity() * sizeof(Block) + mark_.capacity();
  for (const Block& b : blocks_) {
    bytes += b.parts.capacity() * sizeof(std::uint32_t) +
             b.crossings.capacity() * sizeof(std::pair<std::uint32_t, std::uint32_t>);
  }
  return bytes +
         (part_.capacity() + label_.capacity() + up_.capacity() + members_.capacity() + touched_.capacity()) *
             sizeof(std::uint32_t);
}

}  // namespace pathscope
