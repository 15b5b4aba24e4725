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
// Regions: union-find over the two-way links, labelled in leaf order.
//
// Update after Quadtree::update: a leaf kept by the update (same square and cost) whose
// sides touch only kept leaves has the same neighbours as before, so its links are
// copied with the targets renumbered (the renumbering keeps their order: kept leaves
// keep their relative order in the build). The others, the new leaves and the kept
// leaves touching one, find their neighbours by walking the tree along each side (the
// strip of cells just outside it). Regions are labelled again over all links: it costs
// one pass over them (see the README's quadtree section for the figures).

#include "planner/quadtree/quadtree_links.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>

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

// The links out of leaf `id`, found by walking the tree along its four sides (in no
// particular order): the same links the extraction makes.
void links_of(const Quadtree& tree, std::uint32_t id, std::vector<QuadLink>& out) {
  const QuadLeaf& a = tree.leaf(id);
  const int x0 = a.x, y0 = a.y, x1 = a.x + a.size, y1 = a.y + a.size;
  const CellRect strips[4] = {{x1, y0, x1 + 1, y1}, {x0, y1, x1, y1 + 1}, {x0 - 1, y0, x0, y1}, {x0, y0 - 1, x1, y0}};
  for (int side = 0; side < 4; ++side) {
    const bool vertical = side == kEast || side == kWest;
    const int line = side == kEast ? x1 : side == kSouth ? y1 : side == kWest ? x0 : y0;
    tree.for_each_leaf_in(strips[side], [&](std::uint32_t t) {
      const QuadLeaf& b = tree.leaf(t);
      bool one_way = false;
      if (a.passable()) {
        if (!b.passable() || a.key != b.key) return;
      } else {
        if (!b.passable()) return;
        one_way = true;
      }
      const int lo = vertical ? std::max(a.y, b.y) : std::max(a.x, b.x);
      const int hi = vertical ? std::min(y1, b.y + b.size) : std::min(x1, b.x + b.size);
      const glm::ivec2 p = vertical ? glm::ivec2{line, lo} : glm::ivec2{lo, line};
      const glm::ivec2 q = vertical ? glm::ivec2{line, hi} : glm::ivec2{hi, line};
      out.push_back(QuadLink{t, p, q, one_way});
    });
  }
}

std::uint32_t find_root(std::vector<std::uint32_t>& parent, std::uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
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

  label_regions(tree);
}

void QuadLinks::label_regions(const Quadtree& tree) {
  const std::size_t n = tree.leaf_count();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (std::uint32_t from = 0; from < n; ++from) {
    for (const QuadLink& l : out(from)) {
      if (l.one_way || l.to < from) continue;  // a two-way link once
      const std::uint32_t a = find_root(parent, from), b = find_root(parent, l.to);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  region_count_ = 0;
  region_.assign(n, kNoRegion);
  std::vector<std::uint32_t> label_of_root(n, kNoRegion);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!tree.leaf(i).passable()) continue;
    std::uint32_t& label = label_of_root[find_root(parent, i)];
    if (label == kNoRegion) label = region_count_++;
    region_[i] = label;
  }
}

void QuadLinks::update(const Quadtree& tree, const QuadtreeEdit& edit) {
  const std::size_t n = tree.leaf_count();
  assert(edit.old_of_new.size() == n);
  // Leaves whose links must be found again: new ones and those touching one (corners
  // included, which costs nothing but a few extra walks).
  std::vector<std::uint8_t> dirty(n, 0);
  for (std::uint32_t id = 0; id < n; ++id) {
    if (edit.old_of_new[id] != Quadtree::kNoLeaf) continue;
    tree.for_each_leaf_in(tree.leaf(id).rect().expanded(1), [&](std::uint32_t t) { dirty[t] = 1; });
  }
  std::vector<std::uint32_t> first(n + 1, 0);
  std::vector<QuadLink> links;
  links.reserve(links_.size() + 8 * edit.new_leaves);
  std::vector<QuadLink> found;
  one_way_ = 0;
  for (std::uint32_t id = 0; id < n; ++id) {
    if (!dirty[id]) {
      for (QuadLink l : out(edit.old_of_new[id])) {
        l.to = edit.new_of_old[l.to];
        assert(l.to != Quadtree::kNoLeaf);
        links.push_back(l);
        one_way_ += l.one_way;
      }
    } else {
      found.clear();
      links_of(tree, id, found);
      std::sort(found.begin(), found.end(), [](const QuadLink& x, const QuadLink& y) { return x.to < y.to; });
      for (const QuadLink& l : found) one_way_ += l.one_way;
      links.insert(links.end(), found.begin(), found.end());
    }
    first[id + 1] = std::uint32_t(links.size());
  }
  first_ = std::move(first);
  links_ = std::move(links);
  label_regions(tree);
}

const QuadLink* QuadLinks::find(std::uint32_t from, std::uint32_t to) const {
  const std::span<const QuadLink> links = out(from);
  const auto it = std::lower_bound(links.begin(), links.end(), to,
                                   [](const QuadLink& l, std::uint32_t t) { return l.to < t; });
  return it != links.end() && it->to == to ? &*it : nullptr;
}

std::size_t QuadLinks::memory_bytes() const {
  return first_.capacity() * sizeof(std::uint32_t) + links_.capacity() * sizeof(QuadLink) +
         region_.capacity() * sizeof(std::uint32_t);
}

}  // namespace pathscope
