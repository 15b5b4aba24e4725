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
// Update after Quadtree::update: a leaf kept by the update (same square and cost) whose
// sides touch only kept leaves has the same neighbours as before, so its links are
// copied with the targets renumbered (the renumbering keeps their order: kept leaves
// keep their relative order in the build). The others, the new leaves and the kept
// leaves touching one, find their neighbours by walking the tree along each side (the
// strip of cells just outside it). Regions are then brought up to date around the edit
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
  static std::vector<std::uint32_t> concat(std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  }

  // Links the leaves of `first` (west or north of the border) with those of `second`
  // (east or south) whose edges overlap; `vertical`: the border is a vertical line.
  void join(const std::vector<std::uint32_t>& first, const std::vector<std::uint32_t>& second, bool vertical) {
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
      pending.push_back({u, QuadLink{v, p, q, false}});
      pending.push_back({v, QuadLink{u, p, q, false}});
    } else if (b.passable()) {
      pending.push_back({u, QuadLink{v, p, q, true}});
    } else if (a.passable()) {
      pending.push_back({v, QuadLink{u, p, q, true}});
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
  const int across = side == kEast ? a.x + a.size : side == kSouth ? a.y + a.size : side == kWest ? a.x - 1 : a.y - 1;
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

// The links out of leaf `id` (sorted by target), found by walking the tree along its
// four sides: the same links the extraction makes. Calls touch(t) for every neighbour.
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
      out.push_back(QuadLink{t, p, q, one_way});
    });
  }
  std::sort(out.begin() + std::ptrdiff_t(first), out.end(), [](const QuadLink& x, const QuadLink& y) { return x.to < y.to; });
}

}  // namespace

QuadLinks::QuadLinks(const Quadtree& tree) {
  const std::size_t n = tree.leaf_count();
  Extractor extractor(tree);
  extractor.extract(tree.root());
  std::vector<Pending>& pending = extractor.pending;
  std::stable_sort(pending.begin(), pending.end(), [](const Pending& x, const Pending& y) {
    return x.from != y.from ? x.from < y.from : x.link.to < y.link.to;
  });
  first_.assign(n + 1, 0);
  links_.reserve(pending.size());
  for (const Pending& p : pending) {
    ++first_[p.from + 1];
    links_.push_back(p.link);
    one_way_ += p.link.one_way;
  }
  for (std::size_t i = 0; i < n; ++i) first_[i + 1] += first_[i];

  regions_.build(tree, *this);
}

void QuadLinks::update_links(const Quadtree& tree, const QuadtreeEdit& edit) {
  const std::uint32_t n = std::uint32_t(tree.leaf_count());
  assert(edit.old_of_new.size() == n);
  // Leaves whose links must be found again: the new ones, whose links are found here
  // (in id order, into `fresh`), and the kept ones across a side of a new one.
  std::vector<std::uint8_t>& dirty = dirty_;
  dirty.assign(n, 0);
  std::vector<QuadLink> fresh;
  std::vector<std::uint32_t> fresh_end;
  fresh_end.reserve(edit.new_leaves);
  for (std::uint32_t id = 0; id < n; ++id) {
    if (edit.old_of_new[id] != Quadtree::kNoLeaf) continue;
    dirty[id] = 1;
    links_of(tree, id, fresh, [&](std::uint32_t t) { dirty[t] = 1; });
    fresh_end.push_back(std::uint32_t(fresh.size()));
  }
  std::vector<std::uint32_t>& first = spare_first_;
  std::vector<QuadLink>& links = spare_links_;
  first.resize(std::size_t(n) + 1);
  first[0] = 0;
  links.clear();
  const std::size_t expected = links_.size() + fresh.size();
  if (links.capacity() < expected) links.reserve(expected + expected / 2);  // grown rarely
  std::size_t next_fresh = 0;
  one_way_ = 0;
  for (std::uint32_t id = 0; id < n; ++id) {
    const std::size_t at = links.size();
    if (!dirty[id]) {
      const std::span<const QuadLink> kept = out(edit.old_of_new[id]);
      links.insert(links.end(), kept.begin(), kept.end());
      for (std::size_t k = at; k < links.size(); ++k) {
        links[k].to = edit.new_of_old[links[k].to];
        assert(links[k].to != Quadtree::kNoLeaf);
      }
    } else if (edit.old_of_new[id] == Quadtree::kNoLeaf) {
      const std::uint32_t from = next_fresh == 0 ? 0 : fresh_end[next_fresh - 1];
      links.insert(links.end(), fresh.begin() + from, fresh.begin() + fresh_end[next_fresh]);
      ++next_fresh;
    } else {
      links_of(tree, id, links, [](std::uint32_t) {});
    }
    for (std::size_t k = at; k < links.size(); ++k) one_way_ += links[k].one_way;
    first[id + 1] = std::uint32_t(links.size());
  }
  first_.swap(first);
  links_.swap(links);
}

const QuadLink* QuadLinks::find(std::uint32_t from, std::uint32_t to) const {
  const std::span<const QuadLink> links = out(from);
  const auto it = std::lower_bound(links.begin(), links.end(), to,
                                   [](const QuadLink& l, std::uint32_t t) { return l.to < t; });
  return it != links.end() && it->to == to ? &*it : nullptr;
}

std::size_t QuadLinks::memory_bytes() const {
  return (first_.capacity() + spare_first_.capacity()) * sizeof(std::uint32_t) + dirty_.capacity() +
         (links_.capacity() + spare_links_.capacity()) * sizeof(QuadLink) + regions_.memory_bytes();
}

}  // namespace pathscope
