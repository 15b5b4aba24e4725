// Neighbour graph of a quadtree (seed 000, "The Quadtree", step 3).
//
// Recursive, as the seed describes: a leaf borders its parent's four sides by itself; a
// divided cell first recurses into its quarters, then links the quarters across its four
// inner borders (NW-NE and SW-SE vertically, NW-SW and NE-SE horizontally), and hands
// its parent the lists of leaves along its own north, east, south and west sides,
// merged from its quarters' lists. The seed links "each cell in one list and each cell
// in the other"; the lists are ordered along the border, so here one sweep over both
// links exactly the pairs whose edges overlap with positive length (a leaf and a smaller
// neighbour's far end do not touch).
//
// The seed skips impassable cells (step 1 of the recursion); its footnote 2 adds links
// out of them but not into them. So impassable leaves stay in the border lists and the
// direction of each link is decided when a pair meets. Leaves of different move keys
// (land and water for a class that is not amphibious) are not linked.
//
// Regions: QuadRegions (quadtree_regions.cpp), labelled once, then kept up to date.
//
// Links are stored per leaf id, each leaf's in a block of one array, sorted by the
// target's corner (its top-left cell): the same order in a fresh build and after any
// updates, whatever ids the leaves have.
//
// Update after Quadtree::update, which keeps the ids of the leaves it leaves in place:
// a kept leaf whose sides touch only kept leaves has the same neighbours as before, so
// its links stay as they are (the area of a removed leaf is all covered by added
// leaves, so every leaf that touched a removed one touches an added one). The added
// leaves and the kept leaves touching them find their neighbours by walking the tree
// along each side (the strip of cells just outside it), and their blocks are rewritten
// in place, or moved to the end of the array when they grew; the array is packed again
// when its holes outgrow its links. Regions are then brought up to date around the edit
// (QuadRegions::update).

#include "planner/quadtree/quadtree_links.hpp"

#include <algorithm>
#include <cassert>

namespace pathscope {
namespace {

enum Side { kEast = 0, kSouth = 1, kWest = 2, kNorth = 3 };

// The leaves along each side of a square, ordered by x (north, south) or y (east, west).
struct Borders {
  std::vector<std::uint32_t> side[4];
};

struct Pending {
  std::uint32_t from;
  QuadLink link;
};

class Extractor {
 public:
  explicit Extractor(const Quadtree& tree) : tree_(tree) {}

  Borders extract(Quadtree::Ref ref) {
    Borders out;
    if (ref == Quadtree::kNoLeaf) return out;
    if (ref & Quadtree::kLeafBit) {
      for (auto& s : out.side) s.push_back(ref & ~Quadtree::kLeafBit);
      return out;
    }
    const Quadtree::Inner& n = tree_.nodes()[ref];
    Borders nw = extract(n.child[0]), ne = extract(n.child[1]);
    Borders sw = extract(n.child[2]), se = extract(n.child[3]);
    join(nw.side[kEast], ne.side[kWest], true);
    join(sw.side[kEast], se.side[kWest], true);
    join(nw.side[kSouth], sw.side[kNorth], false);
    join(ne.side[kSouth], se.side[kNorth], false);
    out.side[kNorth] = concat(std::move(nw.side[kNorth]), ne.side[kNorth]);
    out.side[kSouth] = concat(std::move(sw.side[kSouth]), se.side[kSouth]);
    out.side[kWest] = concat(std::move(nw.side[kWest]), sw.side[kWest]);
    out.side[kEast] = concat(std::move(ne.side[kEast]), se.side[kEast]);
    return out;
  }

  std::vector<Pending> pending;

 private:
  static std::vector<std::uint32_t> concat(std::vector<std::uint32_t> a,
                                           const std::vector<std::uint32_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  // Links the leaves of `first` (west or north of the border) with those of `second`
  // (east or south) whose edges overlap; `vertical`: the border is a vertical line.
  void join(const std::vector<std::uint32_t>& first, const std::vector<std::uint32_t>& second,
            bool vertical) {
    std::size_t i = 0, j = 0;
    while (i < first.size() && j < second.size()) {
      const QuadLeaf& a = tree_.leaf(first[i]);
      const QuadLeaf& b = tree_.leaf(second[j]);
      const int a0 = vertical ? a.y : a.x, a1 = a0 + a.size;
      const int b0 = vertical ? b.y : b.x, b1 = b0 + b.size;
      const int lo = std::max(a0, b0), hi = std::min(a1, b1);
      if (lo < hi) {
        const int line = vertical ? a.x + a.size : a.y + a.size;
        const glm::ivec2 p = vertical ? glm::ivec2{line, lo} : glm::ivec2{lo, line};
        const glm::ivec2 q = vertical ? glm::ivec2{line, hi} : glm::ivec2{hi, line};
        pair(first[i], second[j], p, q);
      }
      if (a1 <= b1) ++i;
      if (b1 <= a1) ++j;
    }
  }

  void pair(std::uint32_t u, std::uint32_t v, glm::ivec2 p, glm::ivec2 q) {
    const QuadLeaf& a = tree_.leaf(u);
    const QuadLeaf& b = tree_.leaf(v);
    if (a.passable() && b.passable()) {
      if (a.key != b.key) return;
      pending.push_back({u, QuadLink{v, p, q, tree_.corner(v), false}});
      pending.push_back({v, QuadLink{u, p, q, tree_.corner(u), false}});
    } else if (b.passable()) {
      pending.push_back({u, QuadLink{v, p, q, tree_.corner(v), true}});
    } else if (a.passable()) {
      pending.push_back({v, QuadLink{u, p, q, tree_.corner(u), true}});
    }
  }

  const Quadtree& tree_;
};

// Calls fn(t, lo, hi) for every leaf t across side `side` of leaf `a` that shares the
// stretch [lo, hi) of it (cells along the side): one descent of the tree per neighbour.
// A side on the map's edge has none.
template <class Fn>
void for_each_neighbour(const Quadtree& tree, const QuadLeaf& a, int side, Fn&& fn) {
  const bool vertical = side == kEast || side == kWest;
  const int across = side == kEast    ? a.x + a.size
                     : side == kSouth ? a.y + a.size
                     : side == kWest  ? a.x - 1
                                      : a.y - 1;
  const int begin = vertical ? a.y : a.x, end = begin + a.size;
  for (int u = begin; u < end;) {
    const std::uint32_t t = vertical ? tree.leaf_at_cell(across, u) : tree.leaf_at_cell(u, across);
    if (t == Quadtree::kNoLeaf) return;  // a leaf's side is all inside the map or all outside
    const QuadLeaf& b = tree.leaf(t);
    const int hi = std::min(end, vertical ? b.y + b.size : b.x + b.size);
    fn(t, u, hi);
    u = hi;
  }
}

// The links out of leaf `id` (sorted by the target's corner), found by walking the tree
// along its four sides: the same links the extraction makes. Calls touch(t) for every
// neighbour.
template <class Touch>
void links_of(const Quadtree& tree, std::uint32_t id, std::vector<QuadLink>& out, Touch&& touch) {
  const QuadLeaf& a = tree.leaf(id);
  const std::size_t first = out.size();
  for (int side = 0; side < 4; ++side) {
    const bool vertical = side == kEast || side == kWest;
    const int line = side == kEast ? a.x + a.size : side == kSouth ? a.y + a.size : side == kWest ? a.x : a.y;
    for_each_neighbour(tree, a, side, [&](std::uint32_t t, int lo, int hi) {
      touch(t);
      const QuadLeaf& b = tree.leaf(t);
      bool one_way = false;
      if (a.passable()) {
        if (!b.passable() || a.key != b.key) return;
      } else {
        if (!b.passable()) return;
        one_way = true;
      }
      const glm::ivec2 p = vertical ? glm::ivec2{line, lo} : glm::ivec2{lo, line};
      const glm::ivec2 q = vertical ? glm::ivec2{line, hi} : glm::ivec2{hi, line};
      out.push_back(QuadLink{t, p, q, tree.corner(t), one_way});
    });
  }
  std::sort(out.begin() + std::ptrdiff_t(first), out.end(),
            [](const QuadLink& x, const QuadLink& y) { return x.to_corner < y.to_corner; });
}

}  // namespace

QuadLinks::QuadLinks(const Quadtree& tree) {
  const std::size_t n = tree.leaf_slots();
  Extractor extractor(tree);
  extractor.extract(tree.root());
  const std::vector<Pending>& pending = extractor.pending;
  // Grouped by source (a counting sort), then each leaf's links by the target's corner
  // (one link per pair, so the order is total).
  block_.assign(n, Block{});
  for (const Pending& p : pending) ++block_[p.from].count;
  capacity_.resize(n);
  std::uint32_t at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    block_[i].first = at;
    capacity_[i] = block_[i].first;  // the next free place of the block while filling
    at += block_[i].count;
  }
  links_.resize(pending.size());
  for (const Pending& p : pending) {
    links_[capacity_[p.from]++] = p.link;
    one_way_ += p.link.one_way;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = links_.begin() + block_[i].first;
    std::sort(first, first + block_[i].count,
              [](const QuadLink& x, const QuadLink& y) { return x.to_corner < y.to_corner; });
    capacity_[i] = block_[i].count;
  }
  link_count_ = links_.size();
  mark_.assign(n, 0);
  regions_.build(tree, *this);
}

void QuadLinks::store(std::uint32_t leaf, std::span<const QuadLink> links) {
  Block& b = block_[leaf];
  for (std::uint32_t k = 0; k < b.count; ++k) one_way_ -= links_[b.first + k].one_way;
  link_count_ -= b.count;
  if (links.size() > capacity_[leaf]) {
    b.first = std::uint32_t(links_.size());
    capacity_[leaf] = std::uint32_t(links.size());
    links_.resize(links_.size() + links.size());
  }
  std::copy(links.begin(), links.end(), links_.begin() + b.first);
  b.count = std::uint32_t(links.size());
  for (const QuadLink& l : links) one_way_ += l.one_way;
  link_count_ += links.size();
}

void QuadLinks::compact() {
  std::vector<QuadLink> packed;
  packed.reserve(link_count_ + link_count_ / 4);
  for (std::size_t i = 0; i < block_.size(); ++i) {
    Block& b = block_[i];
    const std::uint32_t first = std::uint32_t(packed.size());
    packed.insert(packed.end(), links_.begin() + b.first, links_.begin() + b.first + b.count);
    b.first = first;
    capacity_[i] = b.count;
  }
  links_ = std::move(packed);
}

void QuadLinks::update_links(const Quadtree& tree, const QuadtreeEdit& edit) {
  const std::size_t n = tree.leaf_slots();
  if (block_.size() < n) {
    block_.resize(n);
    capacity_.resize(n, 0);
  }
  if (mark_.size() < n) mark_.resize(n, 0);
  // Removed leaves have no links; their blocks stay for the next leaf of the slot.
  for (const std::uint32_t id : edit.removed) store(id, {});
  // Leaves whose links must be found again: the added ones, and the kept ones across a
  // side of an added one.
  dirty_.clear();
  for (const std::uint32_t id : edit.added) {
    mark_[id] = 1;
    dirty_.push_back(id);
  }
  for (const std::uint32_t id : edit.added) {
    scratch_.clear();
    links_of(tree, id, scratch_, [&](std::uint32_t t) {
      if (mark_[t]) return;
      mark_[t] = 1;
      dirty_.push_back(t);
    });
    store(id, scratch_);
  }
  for (std::size_t k = edit.added.size(); k < dirty_.size(); ++k) {
    scratch_.clear();
    links_of(tree, dirty_[k], scratch_, [](std::uint32_t) {});
    store(dirty_[k], scratch_);
  }
  for (const std::uint32_t id : dirty_) mark_[id] = 0;
  std::sort(dirty_.begin(), dirty_.end());
  if (links_.size() > 2 * link_count_ + 4096) compact();
}

const QuadLink* QuadLinks::find(std::uint32_t from, std::uint32_t to) const {
  for (const QuadLink& l : out(from)) {
    if (l.to == to) return &l;
  }
  return nullptr;
}

std::size_t QuadLinks::memory_bytes() const {
  return block_.capacity() * sizeof(Block) +
         (capacity_.capacity() + dirty_.capacity()) * sizeof(std::uint32_t) + mark_.capacity() +
         (links_.capacity() + scratch_.capacity()) * sizeof(QuadLink) + regions_.memory_bytes();
}

}  // namespace pathscope
