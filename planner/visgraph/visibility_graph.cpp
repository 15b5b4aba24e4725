// The visibility graph (seed 003, "Howdy neighbour!": links are the nodes in line of
// sight; seed 004, "Visibility graphs").
//
// Nodes are the convex corners of the merged, inflated obstacles that lie in the box a
// unit's centre may use; concave corners and straight vertices are never on a shortest
// path. A pair of corners is linked when the line through them is tangent to the
// obstacle at both ends (both ring neighbours of each end on one closed side of it) and
// the segment between them enters no obstacle. The tangency test costs a few products
// and rejects about three pairs in four before the sight test walks the bucket grid
// (segment_index.hpp); the sight test stops at the first blocking edge, so in cluttered
// maps it reads a handful of buckets.
//
// Nodes are numbered in groups (the nodes of one cell of a coarse grid, cells in Morton
// order), and the groups form a tree (the cells' quadtree). From kTreeScanFrom nodes on
// (below, the groups are scanned in order, which is quicker where most of a map is in
// sight: a shadow buffer costs more to fill there than it saves), a build walks the tree
// from each node, nearest subtrees first, and fills a shadow buffer (shadow_buffer.hpp)
// with the obstacle edges near every group it reaches and every edge that blocked a
// test: a subtree whose box the buffer hides is skipped whole (a proper crossing of an
// obstacle edge always blocks), so the work per node follows what it sees, not the map.
// Among candidates, the last few edges that blocked a node's tests are tried first, and
// a group is skipped when all four corners of its box lie behind one of them (the shadow
// of an edge is convex). An update (from kTreeUpdateFrom nodes on) walks the same way,
// past the subtrees that hold no new node and that no segment from the node across the
// changed box can reach. A query's
// start and goal links are found the same way (in order or through the tree).

#include "planner/visgraph/visibility_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>

namespace pathscope::visgraph {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

int sgn(double v) { return (v > 0) - (v < 0); }

}  // namespace

bool segment_meets_box(Vec2 a, Vec2 b, const Box2& box) {
  if (box.empty()) return false;
  // Liang and Barsky's clipping, closed box.
  double t0 = 0, t1 = 1;
  const double d[2] = {b.x - a.x, b.y - a.y}, o[2] = {a.x, a.y};
  const double lo[2] = {box.lo.x, box.lo.y}, hi[2] = {box.hi.x, box.hi.y};
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      if (o[k] < lo[k] || o[k] > hi[k]) return false;
      continue;
    }
    double ta = (lo[k] - o[k]) / d[k], tb = (hi[k] - o[k]) / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  return true;
}

bool segments_may_meet(Vec2 p, const Box2& b, const Box2& c) {
  if (b.empty() || c.empty()) return false;
  if (!b.united(Box2::of(p)).overlaps(c)) return false;
  if (b.contains(p) || b.overlaps(c)) return true;
  // The hull of p and b lies between the rays from p to b's two outermost corners: c is
  // apart when all its corners lie strictly beyond one of those rays.
  const Vec2 corner[4] = {b.lo, {b.hi.x, b.lo.y}, b.hi, {b.lo.x, b.hi.y}};
  const Vec2 other[4] = {c.lo, {c.hi.x, c.lo.y}, c.hi, {c.lo.x, c.hi.y}};
  Vec2 right = corner[0] - p, left = right;
  for (int k = 1; k < 4; ++k) {
    const Vec2 d = corner[k] - p;
    if (d.x * right.y - d.y * right.x > 0) right = d;  // d is clockwise of right
    if (left.x * d.y - left.y * d.x > 0) left = d;     // d is counter-clockwise of left
  }
  const auto beyond = [&](Vec2 ray, double side) {
    for (const Vec2& x : other) {
      const Vec2 d = x - p;
      const double turn = ray.x * d.y - ray.y * d.x;
      const double tolerance = 1e-9 * (std::abs(ray.x) + std::abs(ray.y)) * (std::abs(d.x) + std::abs(d.y));
      if (!(side * turn > tolerance)) return false;
    }
    return true;
  };
  return !beyond(right, -1) && !beyond(left, 1);
}

bool Blockers::sees(const SegmentIndex& index, Vec2 p, Vec2 q) {
  found_ = SegmentIndex::kNoEdge;
  for (const std::uint32_t e : edge_) {
    if (e != SegmentIndex::kNoEdge && index.crosses(p, q, e)) return false;
  }
  const std::uint32_t e = index.blocker(p, q);
  found_ = e;
  if (e == SegmentIndex::kNoEdge) return true;
  edge_[next_] = e;
  next_ = (next_ + 1) % edge_.size();
  return false;
}

bool Blockers::hide_box(const SegmentIndex& index, Vec2 p, const Box2& box) const {
  const Vec2 corners[4] = {box.lo, {box.hi.x, box.lo.y}, box.hi, {box.lo.x, box.hi.y}};
  for (const std::uint32_t e : edge_) {
    if (e == SegmentIndex::kNoEdge) continue;
    bool all = true;
    for (const Vec2& c : corners) all = all && index.crosses(p, c, e);
    if (all) return true;
  }
  return false;
}

bool VisibilityGraph::tree_scan(PairScan scan, std::size_t from) const {
  return scan == PairScan::Tree || (scan == PairScan::Automatic && corner_.size() >= from);
}

VisibilityGraph::VisibilityGraph(ObstacleSet obstacles, PairScan how, std::uint64_t max_bytes)
    : obstacles_(std::move(obstacles)), index_(obstacles_.rings) {
  init_nodes();
  const std::uint64_t fixed = memory_bytes();  // no links yet
  const Pairing pg(*this);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const std::uint64_t tests_before = index_.edge_tests();
  const std::size_t groups = group_box_.size();
  const bool tree = tree_scan(how, kTreeScanFrom);
  TreeScan scan(tree ? sectors_ : 8);
  if (tree) scan.stamp.assign(index_.vertex_count(), 0);
  for (std::size_t gi = 0; gi < groups && !over_budget_; ++gi) {
    for (std::uint32_t i = group_start_[gi]; i < group_start_[gi + 1]; ++i) {
      if (tree) {
        scan_tree(pg, i, gi, nullptr, scan, pairs);
      } else {
        scan_pairs(pg, i, gi, nullptr, pairs);
      }
      if (!within(max_bytes, fixed, pairs.size(), i + 1)) break;
    }
  }
  const std::size_t n = corner_.size();
  stats_.pairs = std::uint64_t(n) * (n > 0 ? n - 1 : 0) / 2;
  stats_.edge_tests = index_.edge_tests() - tests_before;
  if (over_budget_) return;
  make_links(pairs);
  projected_bytes_ = memory_bytes();
}

bool VisibilityGraph::within(std::uint64_t max_bytes, std::uint64_t fixed, std::size_t links,
                             std::size_t scanned) {
  const std::uint64_t now = fixed + std::uint64_t(links) * kBuildBytesPerLink;
  if (now <= max_bytes) return true;
  over_budget_ = true;
  // Nodes scan the pairs to later nodes (an update: to all), so the later ones find fewer:
  // projecting by the nodes scanned overstates a little, which a rough figure may.
  const double share =
      double(std::max<std::size_t>(scanned, 1)) / double(std::max<std::size_t>(corner_.size(), 1));
  projected_bytes_ = fixed + std::uint64_t(double(links) / share * double(kBuildBytesPerLink));
  return false;
}

VisibilityGraph::VisibilityGraph(ObstacleSet obstacles, const VisibilityGraph& old, const Box2& changed,
                                 PairScan how, std::uint64_t max_bytes)
    : obstacles_(std::move(obstacles)), index_(obstacles_.rings) {
  init_nodes();
  const std::uint64_t fixed = memory_bytes();  // no links yet
  const std::size_t n = corner_.size();
  // A node is unchanged when a node of the old graph has its position and both ring
  // neighbours (so the same tangency).
  using Key = std::array<double, 6>;
  const auto key_of = [](const VisibilityGraph& g, std::uint32_t node) {
    const std::uint32_t v = g.corner_[node];
    const Vec2 p = g.index_.position(v), a = g.index_.position(g.index_.prev(v)),
               b = g.index_.position(g.index_.next(v));
    return Key{p.x, p.y, a.x, a.y, b.x, b.y};
  };
  std::map<Key, std::uint32_t> old_nodes;
  for (std::uint32_t k = 0; k < old.node_count(); ++k) old_nodes.emplace(key_of(old, k), k);
  std::vector<std::uint32_t> new_of_old(old.node_count(), kNone);
  std::vector<std::uint8_t> fresh(n, 1), group_fresh(group_box_.size(), 0);
  for (std::size_t g = 0; g < group_box_.size(); ++g) {
    for (std::uint32_t i = group_start_[g]; i < group_start_[g + 1]; ++i) {
      const auto it = old_nodes.find(key_of(*this, i));
      if (it != old_nodes.end()) {
        new_of_old[it->second] = i;
        fresh[i] = 0;
      } else {
        group_fresh[g] = 1;
      }
    }
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  // Links of two unchanged nodes whose segment misses the changed box: sight along it
  // and tangency at its ends are as before.
  for (std::uint32_t k = 0; k < old.node_count(); ++k) {
    for (const std::uint32_t l : old.links(k)) {
      if (l < k) continue;
      const std::uint32_t i = new_of_old[k], j = new_of_old[l];
      if (i == kNone || j == kNone || segment_meets_box(position(i), position(j), changed)) continue;
      pairs.emplace_back(std::min(i, j), std::max(i, j));
      ++stats_.kept_links;
    }
  }
  // Every other pair is tested again: pairs with a new node, and pairs across the box.
  const Pairing pg(*this);
  // Per tree node: holds a fresh node (children come before their parents).
  std::vector<std::uint8_t> tree_fresh(tree_.size(), 0);
  for (std::size_t t = 0; t < tree_.size(); ++t) {
    const TreeNode& node = tree_[t];
    if (node.children == 0) {
      tree_fresh[t] = group_fresh[node.g0];
    } else {
      for (std::uint32_t k = 0; k < node.children; ++k) tree_fresh[t] |= tree_fresh[child_[node.child + k]];
    }
  }
  const UpdateFilter filter{&fresh, &group_fresh, &tree_fresh, changed};
  const std::uint64_t tests_before = index_.edge_tests();
  const bool tree = tree_scan(how, kTreeUpdateFrom);
  TreeScan scan(tree ? sectors_ : 8);
  if (tree) scan.stamp.assign(index_.vertex_count(), 0);
  for (std::size_t gi = 0; gi < group_box_.size() && !over_budget_; ++gi) {
    for (std::uint32_t i = group_start_[gi]; i < group_start_[gi + 1]; ++i) {
      if (tree) {
        scan_tree(pg, i, gi, &filter, scan, pairs);
      } else {
        scan_pairs(pg, i, gi, &filter, pairs);
      }
      if (!within(max_bytes, fixed, pairs.size(), i + 1)) break;
    }
  }
  stats_.pairs = std::uint64_t(n) * (n > 0 ? n - 1 : 0) / 2;
  stats_.edge_tests = index_.edge_tests() - tests_before;
  if (over_budget_) return;
  std::sort(pairs.begin(), pairs.end());
  make_links(pairs);
  projected_bytes_ = memory_bytes();
}

void VisibilityGraph::init_nodes() {
  const std::size_t nv = index_.vertex_count();
  node_of_vertex_.assign(nv, kNone);
  std::vector<std::uint32_t> found;
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (index_.convex(v) && obstacles_.free_box.contains(index_.position(v))) found.push_back(v);
  }
  // Groups: the nodes of one cell of a grid over the free box (about eight per cell),
  // cells in Morton order so that consecutive groups lie close together.
  const Box2 box = obstacles_.free_box;
  const double area = std::max(box.size().x * box.size().y, 1e-12);
  double cell = std::sqrt(area / double(std::max<std::size_t>(found.size(), 1)) * 8.0);
  cell = std::max({cell, box.size().x / 65535.0, box.size().y / 65535.0, 1e-9});
  // Shadow sectors: a few to the angle a cell spans from across the map, so that far
  // groups can be hidden; no more, since an edge costs the sectors it spans.
  const double across = std::sqrt(box.size().x * box.size().x + box.size().y * box.size().y);
  const double wanted = 4 * 2 * std::numbers::pi * across / cell;
  sectors_ = 64;
  while (sectors_ < 1024 && sectors_ < wanted) sectors_ *= 2;
  const auto key = [&](Vec2 p) {
    const std::uint32_t cx = std::uint32_t(std::clamp((p.x - box.lo.x) / cell, 0.0, 65535.0));
    const std::uint32_t cy = std::uint32_t(std::clamp((p.y - box.lo.y) / cell, 0.0, 65535.0));
    std::uint64_t k = 0;
    for (int b = 0; b < 16; ++b)
      k |= std::uint64_t((cx >> b) & 1u) << (2 * b) | std::uint64_t((cy >> b) & 1u) << (2 * b + 1);
    return k;
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order;
  for (const std::uint32_t v : found) order.emplace_back(key(index_.position(v)), v);
  std::sort(order.begin(), order.end());
  std::vector<std::uint64_t> group_key;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || order[i].first != order[i - 1].first) {
      group_start_.push_back(std::uint32_t(i));
      group_box_.push_back(Box2::of(index_.position(order[i].second)));
      group_key.push_back(order[i].first);
      const Vec2 p = index_.position(order[i].second);
      const Vec2 lo{box.lo.x + std::floor((p.x - box.lo.x) / cell) * cell,
                    box.lo.y + std::floor((p.y - box.lo.y) / cell) * cell};
      group_cell_.push_back(Box2{lo, lo + Vec2{cell, cell}}.united(Box2::of(p)));
    }
    group_box_.back() = group_box_.back().united(Box2::of(index_.position(order[i].second)));
    node_of_vertex_[order[i].second] = std::uint32_t(corner_.size());
    corner_.push_back(order[i].second);
  }
  group_start_.push_back(std::uint32_t(corner_.size()));
  init_tree(group_key);
}

void VisibilityGraph::init_tree(const std::vector<std::uint64_t>& group_key) {
  tree_.clear();
  child_.clear();
  std::vector<std::uint32_t> level(group_key.size());
  std::vector<std::uint64_t> keys = group_key;
  for (std::uint32_t g = 0; g < group_key.size(); ++g) {
    level[g] = g;
    tree_.push_back(TreeNode{group_box_[g], g, g + 1, 0, 0});
  }
  // Up the Morton cells' quadtree: siblings share their key but its last two bits.
  while (level.size() > 1) {
    std::vector<std::uint32_t> up;
    std::vector<std::uint64_t> up_keys;
    for (std::size_t a = 0; a < level.size();) {
      const std::uint64_t parent = keys[a] >> 2;
      std::size_t b = a + 1;
      while (b < level.size() && keys[b] >> 2 == parent) ++b;
      if (b - a == 1) {
        up.push_back(level[a]);
      } else {
        TreeNode t{tree_[level[a]].box, tree_[level[a]].g0, tree_[level[b - 1]].g1,
                   std::uint32_t(child_.size()), std::uint32_t(b - a)};
        for (std::size_t k = a; k < b; ++k) {
          t.box = t.box.united(tree_[level[k]].box);
          child_.push_back(level[k]);
        }
        up.push_back(std::uint32_t(tree_.size()));
        tree_.push_back(t);
      }
      up_keys.push_back(parent);
      a = b;
    }
    level = std::move(up);
    keys = std::move(up_keys);
  }
  if (!level.empty() && level[0] + 1 != tree_.size()) tree_.push_back(tree_[level[0]]);  // the root last
}

VisibilityGraph::Pairing::Pairing(const VisibilityGraph& g) {
  const std::size_t n = g.corner_.size();
  // Plain arrays for the quadratic loop: position, and the two ring neighbours relative to it.
  p.resize(n);
  a.resize(n);
  b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t v = g.corner_[i];
    p[i] = g.index_.position(v);
    a[i] = g.index_.position(g.index_.prev(v)) - p[i];
    b[i] = g.index_.position(g.index_.next(v)) - p[i];
  }
}

bool VisibilityGraph::Pairing::tangent(std::size_t i, Vec2 d) const {
  return sgn(d.x * a[i].y - d.y * a[i].x) * sgn(d.x * b[i].y - d.y * b[i].x) >= 0;
}

void VisibilityGraph::scan_pairs(const Pairing& pg, std::uint32_t i, std::size_t gi,
                                 const UpdateFilter* filter,
                                 std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  const std::vector<Vec2>& p = pg.p;
  const bool fresh_i = filter && (*filter->fresh)[i];
  Blockers blockers;
  for (std::size_t g = gi; g < group_box_.size(); ++g) {
    // An update tests only pairs with a new node or across the changed box: a segment
    // from p[i] into group g lies in the box spanning both.
    if (filter && !fresh_i && !(*filter->group_fresh)[g] &&
        !group_box_[g].united(Box2::of(p[i])).overlaps(filter->changed)) {
      continue;
    }
    if (g != gi && blockers.hide_box(index_, p[i], group_box_[g])) {
      stats_.hidden_groups++;
      continue;
    }
    for (std::uint32_t j = (g == gi ? i + 1 : group_start_[g]); j < group_start_[g + 1]; ++j) {
      if (filter && !fresh_i && !(*filter->fresh)[j] && !segment_meets_box(p[i], p[j], filter->changed))
        continue;
      const Vec2 d = p[j] - p[i];
      if (!pg.tangent(i, d) || !pg.tangent(j, d)) continue;
      ++stats_.tangent_pairs;
      if (blockers.sees(index_, p[i], p[j])) pairs.emplace_back(i, j);
    }
  }
}

void VisibilityGraph::TreeScan::begin(Vec2 from) {
  shadows.reset(from);
  if (stamp.empty()) return;
  if (++current == 0) {
    std::fill(stamp.begin(), stamp.end(), 0);
    current = 1;
  }
}

void VisibilityGraph::TreeScan::add(const SegmentIndex& index, std::uint32_t e) {
  if (!stamp.empty()) {
    if (stamp[e] == current) return;
    stamp[e] = current;
  }
  shadows.add_edge(index.position(e), index.position(index.next(e)));
}

template <class Skip, class Visit>
void VisibilityGraph::walk_groups(Vec2 from, std::size_t first, TreeScan& scan, std::uint64_t& hidden,
                                  Skip&& skip, Visit&& visit) const {
  if (tree_.empty()) return;
  scan.begin(from);
  const auto add_edge = [&](std::uint32_t e) { scan.add(index_, e); };
  const auto distance2 = [&](const Box2& b) {
    const double dx = std::max({b.lo.x - from.x, 0.0, from.x - b.hi.x});
    const double dy = std::max({b.lo.y - from.y, 0.0, from.y - b.hi.y});
    return dx * dx + dy * dy;
  };
  index_.for_each_edge_near(Box2::of(from).expanded(index_.bucket_size()), add_edge);
  std::vector<std::uint32_t>& stack = scan.stack;
  stack.assign(1, std::uint32_t(tree_.size() - 1));
  while (!stack.empty()) {
    const TreeNode& t = tree_[stack.back()];
    stack.pop_back();
    if (t.g1 <= first || skip(t)) continue;
    if (scan.shadows.hides(t.box)) {
      hidden += t.g1 - std::max<std::size_t>(t.g0, first);
      continue;
    }
    if (t.children == 0) {
      index_.for_each_edge_near(group_cell_[t.g0], add_edge);
      visit(std::size_t(t.g0));
      continue;
    }
    // Children farthest first on the stack, so the nearest is taken next.
    const std::size_t base = stack.size();
    for (std::uint32_t k = 0; k < t.children; ++k) stack.push_back(child_[t.child + k]);
    std::sort(stack.begin() + std::ptrdiff_t(base), stack.end(), [&](std::uint32_t a, std::uint32_t b) {
      return distance2(tree_[a].box) > distance2(tree_[b].box);
    });
  }
}

void VisibilityGraph::scan_tree(const Pairing& pg, std::uint32_t i, std::size_t gi,
                                const UpdateFilter* filter, TreeScan& scan,
                                std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  const std::vector<Vec2>& p = pg.p;
  const Vec2 from = p[i];
  const bool fresh_i = filter && (*filter->fresh)[i];
  // An update tests only pairs with a new node or across the changed box: a subtree
  // with no new node is passed by when no segment from p[i] into its box meets the box.
  const auto skip = [&](const TreeNode& t) {
    return filter && !fresh_i && !(*filter->tree_fresh)[std::size_t(&t - tree_.data())] &&
           !segments_may_meet(from, t.box, filter->changed);
  };
  Blockers blockers;
  const std::size_t first_pair = pairs.size();
  walk_groups(from, gi, scan, stats_.hidden_groups, skip, [&](std::size_t g) {
    if (g != gi && blockers.hide_box(index_, from, group_box_[g])) {
      stats_.hidden_groups++;
      return;
    }
    for (std::uint32_t j = (g == gi ? i + 1 : group_start_[g]); j < group_start_[g + 1]; ++j) {
      if (filter && !fresh_i && !(*filter->fresh)[j] && !segment_meets_box(from, p[j], filter->changed))
        continue;
      const Vec2 d = p[j] - from;
      if (!pg.tangent(i, d) || !pg.tangent(j, d)) continue;
      ++stats_.tangent_pairs;
      if (blockers.sees(index_, from, p[j])) {
        pairs.emplace_back(i, j);
      } else if (blockers.found() != SegmentIndex::kNoEdge) {
        scan.add(index_, blockers.found());
      }
    }
  });
  // make_links takes pairs sorted: (i, j) with j increasing.
  std::sort(pairs.begin() + std::ptrdiff_t(first_pair), pairs.end());
}

void VisibilityGraph::make_links(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& pairs) {
  const std::size_t n = corner_.size();
  link_start_.assign(n + 1, 0);
  for (const auto& [i, j] : pairs) {
    ++link_start_[i + 1];
    ++link_start_[j + 1];
  }
  for (std::size_t i = 1; i <= n; ++i) link_start_[i] += link_start_[i - 1];
  link_.resize(link_start_[n]);
  std::vector<std::uint32_t> fill(link_start_.begin(), link_start_.end() - 1);
  // Pairs come in increasing (i, j) order with i < j, so each node's list ends up
  // sorted: first the smaller ids (as j, in increasing i), then the larger (as i).
  for (const auto& [i, j] : pairs) link_[fill[j]++] = i;
  for (const auto& [i, j] : pairs) link_[fill[i]++] = j;
}

bool VisibilityGraph::links_to(std::uint32_t node, Vec2 q) const {
  const std::uint32_t v = corner_[node];
  const Vec2 o = index_.position(v);
  return index_.tangent(v, q - o) && index_.visible(o, q);
}

void VisibilityGraph::nodes_linked_to(Vec2 q, std::vector<std::uint32_t>& out) const {
  out.clear();
  Blockers blockers;
  const auto visit = [&](std::size_t g, TreeScan* scan) {
    if (blockers.hide_box(index_, q, group_box_[g])) return;
    for (std::uint32_t j = group_start_[g]; j < group_start_[g + 1]; ++j) {
      const std::uint32_t v = corner_[j];
      const Vec2 o = index_.position(v);
      if (!index_.tangent(v, q - o)) continue;
      if (blockers.sees(index_, q, o)) {
        out.push_back(j);
      } else if (scan && blockers.found() != SegmentIndex::kNoEdge) {
        scan->add(index_, blockers.found());
      }
    }
  };
  if (!tree_scan(PairScan::Automatic, kTreeScanFrom)) {
    for (std::size_t g = 0; g < group_box_.size(); ++g) visit(g, nullptr);
    return;
  }
  TreeScan scan(sectors_);  // without stamps: an edge may be added twice, which changes nothing
  std::uint64_t hidden = 0;
  walk_groups(
      q, 0, scan, hidden, [](const TreeNode&) { return false; }, [&](std::size_t g) { visit(g, &scan); });
  std::sort(out.begin(), out.end());
}

std::size_t VisibilityGraph::memory_bytes() const {
  std::size_t bytes = (corner_.size() + node_of_vertex_.size() + link_start_.size() + link_.size()) * 4;
  bytes += index_.vertex_count() * (sizeof(Vec2) + 12) +
           std::size_t(index_.buckets_x()) * std::size_t(index_.buckets_y()) * 4;
  for (const Ring& r : obstacles_.rings) bytes += r.points.size() * sizeof(Vec2);
  return bytes;
}

namespace {

// What a refusal of the budget suggests.
constexpr std::string_view kBudgetAdvice =
    "use larger cells, a smaller world or fewer obstacles, or raise the planner parameter memory_mib";

}  // namespace

VisGraphMap::VisGraphMap(const PlanningWorld& world, std::size_t movement_class, const ObstacleParams& params,
                         MemoryBudget budget)
    : inputs_revision_(world.revision()), class_(movement_class), params_(params), budget_(budget) {
  const Scenario& s = world.scenario();
  const Box2 box{{0, 0}, {s.world.width, s.world.height}};
  // Before building anything: the inputs' vertices promise the peak of the build.
  const std::uint64_t input_vertices = world_obstacle_vertices(world, movement_class);
  if (Status fits = budget_.check(input_vertices * kPeakBytesPerInputVertex, "the visibility graph",
                                  std::string(kBudgetAdvice) + " (" + std::to_string(input_vertices) +
                                      " obstacle vertices before inflation)");
      !fits) {
    error_ = fits.error();
    return;
  }
  Result<ObstacleSet> set = build_obstacle_set(world_obstacles(world, movement_class), box, params);
  if (!set) {
    error_ = set.error();
    return;
  }
  std::uint64_t ring_vertices = 0;
  for (const Ring& r : set.value().rings) ring_vertices += r.points.size();
  if (Status fits = budget_.check(ring_vertices * kBytesPerRingVertex, "the visibility graph",
                                  std::string(kBudgetAdvice) + " (" + std::to_string(ring_vertices) +
                                      " vertices of inflated obstacles)");
      !fits) {
    error_ = fits.error();
    return;
  }
  graph_ = std::make_unique<VisibilityGraph>(std::move(set.value()), PairScan::Automatic, budget_.bytes);
  if (graph_->over_budget()) {
    error_ = budget_
                 .check(std::max(graph_->projected_bytes(), budget_.bytes + 1), "the visibility graph",
                        std::string(kBudgetAdvice) + " (" + std::to_string(graph_->node_count()) +
                            " corners; its links passed the budget while building)")
                 .error();
    graph_.reset();
  }
}

const VisGraphMap& VisGraphMap::of(const PlanningWorld& world, std::size_t movement_class,
                                   const ObstacleParams& params, MemoryBudget budget) {
  char key[128];
  // The budget is part of the key only when not the default, so that ordinary use keeps one map.
  if (budget.bytes == kDefaultMemoryBudget) {
    std::snprintf(key, sizeof key, "visgraph r=%.17g e=%.17g", params.radius, params.max_error);
  } else {
    std::snprintf(key, sizeof key, "visgraph r=%.17g e=%.17g budget=%llu", params.radius, params.max_error,
                  static_cast<unsigned long long>(budget.bytes));
  }
  return world.derived<VisGraphMap>(key, movement_class, [&](const PlanningWorld& w, std::size_t c) {
    return std::make_unique<VisGraphMap>(w, c, params, budget);
  });
}

bool VisGraphMap::update(const PlanningWorld& world, const WorldChange& change) {
  // Any re-rasterised cell may come from an obstacle (feature ids need not be unique
  // in a scenario being edited, so the item list alone is not trusted).
  if (change.touches(ItemKind::Road)) inputs_revision_ = world.revision();
  if (!changes_obstacles(change)) return true;
  if (!graph_) return false;  // it was refused: built again at its next use
  inputs_revision_ = world.revision();
  const Scenario& s = world.scenario();
  Result<ObstacleSet> set = build_obstacle_set(world_obstacles(world, class_),
                                               Box2{{0, 0}, {s.world.width, s.world.height}}, params_);
  if (!set) return false;
  // The area holds the changed cells and the old and new extent of every changed item;
  // inflation reaches radius + max_error beyond it, rounding and closing a few units.
  const Box2 changed =
      change.area.expanded(params_.radius + params_.max_error + s.world.cell_size + 8.0 / kScale);
  if (set.value().ordered != graph_->obstacles().ordered) {
    // Openings came or went.
    graph_ = std::make_unique<VisibilityGraph>(std::move(set.value()), PairScan::Automatic, budget_.bytes);
  } else {
    graph_ = std::make_unique<VisibilityGraph>(std::move(set.value()), *graph_, changed, PairScan::Automatic,
                                               budget_.bytes);
  }
  // Over the budget: made again at its next use, where the build says why it is refused.
  return !graph_->over_budget();
}

bool changes_obstacles(const WorldChange& change) {
  // Any re-rasterised cell may come from an obstacle (feature ids need not be unique in a
  // scenario being edited, so the item list alone is not trusted).
  return !change.cells.empty() || change.touches(ItemKind::Tiles) || change.touches(ItemKind::Feature);
}

LimitedLinks::LimitedLinks(const VisibilityGraph& graph, const LinkLimits& limits) {
  const std::uint32_t n = std::uint32_t(graph.node_count());
  const double max_length =
      limits.max_length > 0 ? limits.max_length : std::numeric_limits<double>::infinity();
  // Per node: its links no longer than max_length, the k shortest marked.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;  // (i, j), i < j
  std::vector<std::pair<double, std::uint32_t>> by_length;
  for (std::uint32_t i = 0; i < n; ++i) {
    by_length.clear();
    const Vec2 p = graph.position(i);
    for (const std::uint32_t j : graph.links(i)) {
      const Vec2 d = graph.position(j) - p;
      const double len = std::sqrt(d.x * d.x + d.y * d.y);
      if (len <= max_length) by_length.push_back({len, j});
    }
    std::size_t keep = by_length.size();
    if (limits.k_nearest > 0 && limits.k_nearest < keep) {
      keep = limits.k_nearest;
      std::partial_sort(by_length.begin(), by_length.begin() + std::ptrdiff_t(keep), by_length.end());
    }
    for (std::size_t k = 0; k < keep; ++k) {
      const std::uint32_t j = by_length[k].second;
      pairs.push_back({std::min(i, j), std::max(i, j)});
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  link_start_.assign(std::size_t(n) + 1, 0);
  for (const auto& [i, j] : pairs) {
    ++link_start_[i + 1];
    ++link_start_[j + 1];
  }
  for (std::uint32_t i = 0; i < n; ++i) link_start_[i + 1] += link_start_[i];
  link_.resize(link_start_[n]);
  std::vector<std::uint32_t> fill(link_start_.begin(), link_start_.end() - 1);
  // Pairs are sorted by (i, j): writing j into i's list and i into j's keeps every list
  // in increasing order (a node's smaller partners all come from earlier pairs).
  for (const auto& [i, j] : pairs) link_[fill[j]++] = i;
  for (const auto& [i, j] : pairs) link_[fill[i]++] = j;
}

const LimitedLinks& LimitedLinks::of(const PlanningWorld& world, std::size_t movement_class,
                                     const ObstacleParams& params, const LinkLimits& limits,
                                     MemoryBudget budget) {
  char key[192];
  std::snprintf(key, sizeof key, "visgraph links r=%.17g e=%.17g k=%u max=%.17g budget=%llu", params.radius,
                params.max_error, limits.k_nearest, limits.max_length,
                static_cast<unsigned long long>(budget.bytes));
  return world.derived<LimitedLinks>(key, movement_class, [&](const PlanningWorld& w, std::size_t c) {
    return std::make_unique<LimitedLinks>(VisGraphMap::of(w, c, params, budget).graph(), limits);
  });
}

bool LimitedLinks::update(const PlanningWorld& world, const WorldChange& change) {
  (void)world;
  return !changes_obstacles(change);  // otherwise made again from the updated graph at next use
}

std::size_t LimitedLinks::memory_bytes() const {
  return (link_start_.capacity() + link_.capacity()) * sizeof(std::uint32_t);
}

}  // namespace pathscope::visgraph
