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

#include "planner/quadtree/quadtree_links.hpp"

#include <algorithm>
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

  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const Pending& p : pending) {
    if (p.link.one_way) continue;
    const std::uint32_t a = find_root(parent, p.from), b = find_root(parent, p.link.to);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  region_.assign(n, kNoRegion);
  std::vector<std::uint32_t> label_of_root(n, kNoRegion);
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!tree.leaf(i).passable()) continue;
    std::uint32_t& label = label_of_root[find_root(parent, i)];
    if (label == kNoRegion) label = region_count_++;
    region_[i] = label;
  }
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
