// Connected regions of the quadtree's leaves, labelled once and then kept up to date
// after each edit (seed 000, footnote 1: regions answer "no path" before any search).
//
// An edit replaces the leaves of a few squares; the leaves around them (the "dirty" ones,
// whose links were found again) and the new leaves form the local graph. Outside it,
// nothing about connectivity changed, so:
//  - A local component that holds kept leaves of several regions joins them: one union
//    over region labels, no relabelling.
//  - New leaves take the region of their local component; a component of new leaves
//    only (a pocket opened inside an obstacle) is a region of its own.
//  - A region is cut only if it is carried by two or more local components (every part
//    of a cut region touches the edit). Those components are searched from at once, one
//    leaf each in turn, over the whole graph; searches that meet join; a search that ends
//    without meeting another has found a part cut off, which gets a new label. The last
//    search still running keeps the old label, so the work is bounded by the parts cut
//    off, however large the region that keeps its label. When the parts cut off hold a
//    sixteenth of the map (a maze cut in two), the map is labelled afresh instead.
// Labels live in a union-find; after each update every label points at its root, so a
// leaf's region is two array reads.

#include "planner/quadtree/quadtree_regions.hpp"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <utility>

#include "planner/quadtree/quadtree_links.hpp"

namespace pathscope {
namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr std::uint32_t kUnset = 0xFFFFFFFEu;  // a new passable leaf, no label yet

// Root of `i` in a union-find over local indices, halving paths.
std::uint32_t root_of(std::vector<std::uint32_t>& up, std::uint32_t i) {
  while (up[i] != i) {
    up[i] = up[up[i]];
    i = up[i];
  }
  return i;
}

}  // namespace

std::uint32_t QuadRegions::find(std::uint32_t l) {
  while (parent_[l] != l) {
    parent_[l] = parent_[parent_[l]];
    l = parent_[l];
  }
  return l;
}

std::uint32_t QuadRegions::fresh_label() {
  const std::uint32_t l = std::uint32_t(parent_.size());
  parent_.push_back(l);
  size_.push_back(0);
  return l;
}

std::uint32_t QuadRegions::join(std::uint32_t a, std::uint32_t b) {
  a = find(a);
  b = find(b);
  if (a == b) return a;
  if (size_[a] < size_[b]) std::swap(a, b);
  parent_[b] = a;
  size_[a] += size_[b];
  size_[b] = 0;
  return a;
}

void QuadRegions::build(const Quadtree& tree, const QuadLinks& links) {
  const std::uint32_t n = std::uint32_t(tree.leaf_count());
  // Union-find over the two-way links (one pass over them, faster than a search on maps
  // of many leaves), each set rooted at its smallest leaf.
  std::vector<std::uint32_t>& up = slot_;
  up.resize(n);
  std::iota(up.begin(), up.end(), 0u);
  for (std::uint32_t from = 0; from < n; ++from) {
    for (const QuadLink& link : links.out(from)) {
      if (link.one_way || link.to < from) continue;  // a two-way link once
      const std::uint32_t a = root_of(up, from), b = root_of(up, link.to);
      if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
  }
  // Leaf order meets each root before the rest of its set: regions are numbered 0, 1, ...
  // in the order of their first leaves.
  label_.resize(n);
  parent_.clear();
  size_.clear();
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!tree.leaf(i).passable()) {
      label_[i] = kNoRegion;
      continue;
    }
    const std::uint32_t r = root_of(up, i);
    label_[i] = r == i ? fresh_label() : label_[r];
    ++size_[label_[i]];
  }
  count_ = std::uint32_t(parent_.size());
}

void QuadRegions::update(const Quadtree& tree, const QuadtreeEdit& edit, std::span<const std::uint8_t> dirty,
                         const QuadLinks& links) {
  const std::uint32_t n = std::uint32_t(tree.leaf_count());
  assert(edit.old_of_new.size() == n && edit.new_of_old.size() == label_.size() && dirty.size() >= n);
  // Removed leaves leave their regions.
  for (std::size_t o = 0; o < label_.size(); ++o) {
    if (edit.new_of_old[o] == Quadtree::kNoLeaf && label_[o] != kNoRegion) --size_[find(label_[o])];
  }
  // Labels by the new ids: kept leaves keep theirs.
  spare_label_.resize(n);
  for (std::uint32_t id = 0; id < n; ++id) {
    const std::uint32_t o = edit.old_of_new[id];
    spare_label_[id] = o != Quadtree::kNoLeaf ? label_[o] : tree.leaf(id).passable() ? kUnset : kNoRegion;
  }
  label_.swap(spare_label_);

  // The local graph: passable leaves whose links were found again, joined by their links.
  std::vector<std::uint32_t> local;
  slot_.assign(n, kNone);
  for (std::uint32_t id = 0; id < n; ++id) {
    if (dirty[id] && label_[id] != kNoRegion) {
      slot_[id] = std::uint32_t(local.size());
      local.push_back(id);
    }
  }
  std::vector<std::uint32_t> up(local.size());
  std::iota(up.begin(), up.end(), 0u);
  for (std::uint32_t i = 0; i < local.size(); ++i) {
    for (const QuadLink& link : links.out(local[i])) {
      const std::uint32_t j = link.one_way ? kNone : slot_[link.to];
      if (j == kNone) continue;
      const std::uint32_t a = root_of(up, i), b = root_of(up, j);
      if (a != b) up[std::max(a, b)] = std::min(a, b);
    }
  }
  // Joins: the regions of the kept leaves of one component are one region now.
  std::vector<std::uint32_t> component_label(local.size(), kNone);
  for (std::uint32_t i = 0; i < local.size(); ++i) {
    const std::uint32_t l = label_[local[i]];
    if (l == kUnset) continue;
    std::uint32_t& c = component_label[root_of(up, i)];
    c = c == kNone ? find(l) : join(c, l);
  }
  // New leaves take their component's region; new leaves alone make a new one.
  for (std::uint32_t i = 0; i < local.size(); ++i) {
    const std::uint32_t leaf = local[i];
    if (label_[leaf] != kUnset) continue;
    std::uint32_t& c = component_label[root_of(up, i)];
    if (c == kNone) c = fresh_label();
    c = find(c);
    label_[leaf] = c;
    ++size_[c];
  }
  // Cuts: a region carried by two or more components may have fallen apart. The searches
  // may visit a sixteenth of the leaves; past that, the parts cut off are likely as large
  // as the map (a maze cut in halves) and labelling afresh costs less than finishing.
  std::size_t budget = n / 16 + 64;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> carried;  // (region, component root)
  for (std::uint32_t i = 0; i < local.size(); ++i) {
    if (root_of(up, i) == i) carried.emplace_back(find(component_label[i]), i);
  }
  std::sort(carried.begin(), carried.end());
  std::vector<std::uint32_t> seed_of(local.size(), kNone);  // component root -> its seed list
  std::vector<std::vector<std::uint32_t>> seeds;
  for (std::size_t a = 0, b = 0; a < carried.size(); a = b) {
    for (b = a; b < carried.size() && carried[b].first == carried[a].first; ++b) {}
    if (b - a < 2) continue;
    seeds.assign(b - a, {});
    for (std::size_t k = a; k < b; ++k) seed_of[carried[k].second] = std::uint32_t(k - a);
    for (std::uint32_t i = 0; i < local.size(); ++i) {
      const std::uint32_t s = seed_of[root_of(up, i)];
      if (s != kNone) seeds[s].push_back(local[i]);
    }
    for (std::size_t k = a; k < b; ++k) seed_of[carried[k].second] = kNone;
    if (!split(carried[a].first, seeds, links, budget)) {
      build(tree, links);  // the cut parts are as large as the map: label it afresh
      return;
    }
  }
  flatten();
}

bool QuadRegions::split(std::uint32_t g, std::vector<std::vector<std::uint32_t>>& seeds, const QuadLinks& links,
                        std::size_t& budget) {
  const std::uint32_t k = std::uint32_t(seeds.size());
  if (stamp_.size() < label_.size()) stamp_.resize(label_.size(), 0);
  if (next_stamp_ > 0xF0000000u - k) {  // stamps wrap: forget the old ones
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    next_stamp_ = 1;
  }
  const std::uint32_t base = next_stamp_;
  next_stamp_ += k;
  // Search j's visited leaves are seeds[j]; its queue is seeds[j][head[j]..].
  std::vector<std::size_t> head(k, 0);
  std::vector<std::uint32_t> group(k), open(k, 1);  // union-find of searches that met; open queues per root
  std::iota(group.begin(), group.end(), 0u);
  for (std::uint32_t j = 0; j < k; ++j) {
    for (const std::uint32_t leaf : seeds[j]) stamp_[leaf] = base + j;
  }
  std::uint32_t running = k;
  while (running >= 2) {
    for (std::uint32_t j = 0; j < k && running >= 2; ++j) {
      if (head[j] == seeds[j].size()) continue;
      if (budget-- == 0) return false;
      const std::uint32_t u = seeds[j][head[j]++];
      for (const QuadLink& link : links.out(u)) {
        if (link.one_way) continue;
        const std::uint32_t s = stamp_[link.to];
        if (s >= base && s < base + k) {
          const std::uint32_t a = root_of(group, j), b = root_of(group, s - base);
          if (a != b) {  // two searches met: one part
            group[b] = a;
            open[a] += open[b];
            --running;
          }
        } else {
          stamp_[link.to] = base + j;
          seeds[j].push_back(link.to);
        }
      }
      if (head[j] == seeds[j].size() && --open[root_of(group, j)] == 0) --running;
    }
  }
  // The part still searched (or, if none is, the largest) keeps g; the others are cut off.
  std::vector<std::size_t> visited(k, 0);
  for (std::uint32_t j = 0; j < k; ++j) visited[root_of(group, j)] += seeds[j].size();
  std::uint32_t keeper = kNone;
  for (std::uint32_t j = 0; j < k; ++j) {
    if (root_of(group, j) != j) continue;
    if (open[j] > 0) {
      keeper = j;
      break;
    }
    if (keeper == kNone || visited[j] > visited[keeper]) keeper = j;
  }
  const std::uint32_t root = find(g);
  for (std::uint32_t r = 0; r < k; ++r) {
    if (root_of(group, r) != r || r == keeper) continue;
    const std::uint32_t cut = fresh_label();
    std::uint32_t moved = 0;
    for (std::uint32_t j = 0; j < k; ++j) {
      if (root_of(group, j) != r) continue;
      for (const std::uint32_t leaf : seeds[j]) label_[leaf] = cut;
      moved += std::uint32_t(seeds[j].size());
    }
    size_[cut] = moved;
    size_[root] -= moved;
  }
  return true;
}

void QuadRegions::flatten() {
  count_ = 0;
  for (std::uint32_t l = 0; l < parent_.size(); ++l) {
    parent_[l] = find(l);
    count_ += parent_[l] == l && size_[l] > 0;
  }
  // Labels of regions gone pile up over many edits; number the live ones afresh when they
  // are outnumbered (an O(leaves) pass, rarely).
  if (parent_.size() <= 2 * std::size_t(count_) + 1024) return;
  std::vector<std::uint32_t> dense(parent_.size(), kNone);
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t l = 0; l < parent_.size(); ++l) {
    if (parent_[l] == l && size_[l] > 0) {
      dense[l] = std::uint32_t(sizes.size());
      sizes.push_back(size_[l]);
    }
  }
  for (std::uint32_t& l : label_) {
    if (l != kNoRegion) l = dense[parent_[l]];
  }
  parent_.resize(sizes.size());
  std::iota(parent_.begin(), parent_.end(), 0u);
  size_ = std::move(sizes);
}

std::size_t QuadRegions::memory_bytes() const {
  return (label_.capacity() + parent_.capacity() + size_.capacity() + spare_label_.capacity() + slot_.capacity() +
          stamp_.capacity()) *
         sizeof(std::uint32_t);
}

}  // namespace pathscope
