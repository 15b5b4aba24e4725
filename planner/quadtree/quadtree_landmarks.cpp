#include "planner/quadtree/quadtree_landmarks.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <utility>

#include "planner/quadtree/quadtree_map.hpp"

namespace pathscope {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// The point of the portal [a, b] (axis-aligned, world) nearest to p.
Vec2 nearest_on(Vec2 p, Vec2 a, Vec2 b) {
  return Vec2{std::clamp(p.x, std::min(a.x, b.x), std::max(a.x, b.x)),
              std::clamp(p.y, std::min(a.y, b.y), std::max(a.y, b.y))};
}

// Costs from `source` to every leaf (kInf where unreachable), in the planner's model.
void costs_from(const Quadtree& tree, const QuadLinks& links, std::uint32_t source,
                std::vector<double>& cost) {
  const double s = tree.cell_size();
  cost.assign(tree.leaf_slots(), kInf);
  std::vector<Vec2> entry(tree.leaf_slots(), Vec2{0, 0});  // where each leaf is entered
  // (cost, corner, leaf): pops in cost order, ties by corner.
  using Item = std::tuple<double, std::uint32_t, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  cost[source] = 0;
  entry[source] = tree.leaf_center(source);
  open.emplace(0.0, tree.corner(source), source);
  while (!open.empty()) {
    const auto [g, corner, u] = open.top();
    open.pop();
    if (g > cost[u]) continue;
    const double mu = tree.leaf(u).multiplier;
    for (const QuadLink& l : links.out(u)) {
      const Vec2 e = nearest_on(entry[u], Vec2(l.a) * s, Vec2(l.b) * s);
      const double ng = g + distance(entry[u], e) * mu;
      if (ng < cost[l.to]) {
        cost[l.to] = ng;
        entry[l.to] = e;
        open.emplace(ng, l.to_corner, l.to);
      }
    }
  }
}

// The corner graph: the side points of every passable leaf (its corners and the ends of
// its portals), each linked to the leaf's other side points by a straight segment inside
// the leaf. The side points of two linked leaves that lie on their portal are one place
// (so a path crosses from leaf to leaf only where the search can, never through a corner
// where two leaves merely touch); the graph's vertices are the places.
struct CornerGraph {
  std::vector<glm::ivec2> point;           // per side point of a leaf, cells
  std::vector<std::uint32_t> leaf_begin;   // per leaf slot + 1: its side points, in point order
  std::vector<std::uint32_t> place;        // per side point: its place
  std::vector<std::uint32_t> place_begin;  // per place + 1: its side points in place_point
  std::vector<std::uint32_t> place_point;
  std::vector<std::uint32_t> owner;  // per side point: its leaf
};

bool point_before(glm::ivec2 a, glm::ivec2 b) { return a.y != b.y ? a.y < b.y : a.x < b.x; }

CornerGraph corner_graph(const Quadtree& tree, const QuadLinks& links) {
  CornerGraph g;
  const std::size_t slots = tree.leaf_slots();
  g.leaf_begin.assign(slots + 1, 0);
  std::vector<glm::ivec2> pts;
  for (std::uint32_t id = 0; id < slots; ++id) {
    g.leaf_begin[id] = std::uint32_t(g.point.size());
    if (!tree.has_leaf(id) || !tree.leaf(id).passable()) continue;
    const QuadLeaf& l = tree.leaf(id);
    pts = {{l.x, l.y}, {l.x + l.size, l.y}, {l.x, l.y + l.size}, {l.x + l.size, l.y + l.size}};
    for (const QuadLink& k : links.out(id)) pts.push_back(k.a), pts.push_back(k.b);
    std::sort(pts.begin(), pts.end(), point_before);
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
    for (const glm::ivec2 p : pts) {
      g.point.push_back(p);
      g.owner.push_back(id);
    }
  }
  g.leaf_begin[slots] = std::uint32_t(g.point.size());
  // Union-find over the side points: those on a portal join their copy across it.
  const std::uint32_t n = std::uint32_t(g.point.size());
  std::vector<std::uint32_t> root(n);
  for (std::uint32_t v = 0; v < n; ++v) root[v] = v;
  const auto find = [&](std::uint32_t v) {
    while (root[v] != v) v = root[v] = root[root[v]];
    return v;
  };
  for (std::uint32_t v = 0; v < n; ++v) {
    const glm::ivec2 p = g.point[v];
    for (const QuadLink& k : links.out(g.owner[v])) {
      // Portals are axis-aligned with a < b.
      if (p.x < k.a.x || p.x > k.b.x || p.y < k.a.y || p.y > k.b.y) continue;
      const auto first = g.point.begin() + g.leaf_begin[k.to],
                 last = g.point.begin() + g.leaf_begin[k.to + 1];
      const auto at = std::lower_bound(first, last, p, point_before);
      if (at != last && *at == p) root[find(v)] = find(std::uint32_t(at - g.point.begin()));
    }
  }
  g.place.assign(n, 0);
  std::vector<std::uint32_t> index(n, std::numeric_limits<std::uint32_t>::max());
  std::uint32_t places = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint32_t& i = index[find(v)];
    if (i == std::numeric_limits<std::uint32_t>::max()) i = places++;
    g.place[v] = i;
  }
  g.place_begin.assign(places + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++g.place_begin[g.place[v] + 1];
  for (std::uint32_t i = 0; i < places; ++i) g.place_begin[i + 1] += g.place_begin[i];
  g.place_point.resize(n);
  std::vector<std::uint32_t> fill(g.place_begin.begin(), g.place_begin.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v) g.place_point[fill[g.place[v]]++] = v;
  return g;
}

// Costs from `source` over the corner graph, from its centre: per leaf, the cost of its
// cheapest side point and that point (world); the source's own leaf costs 0 at its centre.
void corner_costs_from(const Quadtree& tree, const CornerGraph& g, std::uint32_t source,
                       std::vector<double>& cost, std::vector<Vec2>& entry) {
  const double s = tree.cell_size();
  const std::size_t slots = tree.leaf_slots();
  std::vector<double> d(g.place_begin.size() - 1, kInf);  // per place
  // (cost, place): the costs found do not depend on the order of equal pops (each is the
  // least of the same sums), nor the entries (ties go to the first point of a leaf).
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
  const auto reach = [&](std::uint32_t w, double nd) {
    if (nd < d[w]) d[w] = nd, open.emplace(nd, w);
  };
  const Vec2 centre = tree.leaf_center(source) / s;
  for (std::uint32_t w = g.leaf_begin[source]; w < g.leaf_begin[source + 1]; ++w) {
    reach(g.place[w], distance(centre, Vec2(g.point[w])) * s * tree.leaf(source).multiplier);
  }
  while (!open.empty()) {
    const auto [dv, v] = open.top();
    open.pop();
    if (dv > d[v]) continue;
    for (std::uint32_t j = g.place_begin[v]; j < g.place_begin[v + 1]; ++j) {
      const std::uint32_t at = g.place_point[j];
      const std::uint32_t leaf = g.owner[at];
      const double mu = tree.leaf(leaf).multiplier * s;
      const Vec2 pv(g.point[at]);
      for (std::uint32_t w = g.leaf_begin[leaf]; w < g.leaf_begin[leaf + 1]; ++w) {
        const std::uint32_t pw = g.place[w];
        if (d[pw] > dv) reach(pw, dv + distance(pv, Vec2(g.point[w])) * mu);  // no root for the settled
      }
    }
  }
  cost.assign(slots, kInf);
  entry.assign(slots, Vec2{0, 0});
  for (std::uint32_t id = 0; id < slots; ++id) {
    for (std::uint32_t w = g.leaf_begin[id]; w < g.leaf_begin[id + 1]; ++w) {
      if (d[g.place[w]] < cost[id]) cost[id] = d[g.place[w]], entry[id] = Vec2(g.point[w]) * s;
    }
  }
  cost[source] = 0;
  entry[source] = tree.leaf_center(source);
}

}  // namespace

QuadLandmarks::QuadLandmarks(const Quadtree& tree, const QuadLinks& links, int count) {
  const std::size_t slots = tree.leaf_slots();
  // The largest region by area; its passable leaf with the smallest corner seeds the
  // choice.
  struct Region {
    double area = 0;
    std::uint32_t seed_corner = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t seed = Quadtree::kNoLeaf;
  };
  std::map<std::uint32_t, Region> regions;
  for (std::uint32_t id = 0; id < slots; ++id) {
    if (!tree.has_leaf(id) || !tree.leaf(id).passable()) continue;
    Region& r = regions[links.region(id)];
    r.area += double(tree.leaf(id).size) * tree.leaf(id).size;
    if (tree.corner(id) < r.seed_corner) r.seed_corner = tree.corner(id), r.seed = id;
  }
  const Region* largest = nullptr;
  for (const auto& [label, r] : regions) {
    if (!largest || r.area > largest->area ||
        (r.area == largest->area && r.seed_corner < largest->seed_corner)) {
      largest = &r;
    }
  }
  if (!largest || count <= 0) return;

  std::vector<double> cost, nearest(slots, kInf);
  std::vector<std::vector<double>> found;
  // The farthest leaf from those chosen (ties: the smaller corner); kNoLeaf if none is
  // farther than 0.
  const auto farthest = [&](const std::vector<double>& d) {
    std::uint32_t best = Quadtree::kNoLeaf;
    for (std::uint32_t id = 0; id < slots; ++id) {
      if (!(d[id] < kInf) || d[id] <= 0) continue;
      if (best == Quadtree::kNoLeaf || d[id] > d[best] ||
          (d[id] == d[best] && tree.corner(id) < tree.corner(best))) {
        best = id;
      }
    }
    return best;
  };
  costs_from(tree, links, largest->seed, cost);
  std::uint32_t next = farthest(cost);
  while (next != Quadtree::kNoLeaf && int(found.size()) < count) {
    landmarks_.push_back(next);
    costs_from(tree, links, next, cost);
    for (std::size_t id = 0; id < slots; ++id) nearest[id] = std::min(nearest[id], cost[id]);
    found.push_back(cost);
    next = farthest(nearest);
  }
  count_ = int(found.size());
  cost_.assign(slots * std::size_t(count_), std::numeric_limits<float>::infinity());
  for (int k = 0; k < count_; ++k) {
    for (std::size_t id = 0; id < slots; ++id) cost_[id * count_ + k] = float(found[k][id]);
  }
  // The same landmarks over the corner graph.
  const CornerGraph graph = corner_graph(tree, links);
  corner_cost_.assign(slots * std::size_t(count_), std::numeric_limits<float>::infinity());
  corner_entry_.assign(slots * std::size_t(count_), EntryPoint{0, 0});
  std::vector<Vec2> entry;
  for (int k = 0; k < count_; ++k) {
    corner_costs_from(tree, graph, landmarks_[k], cost, entry);
    for (std::size_t id = 0; id < slots; ++id) {
      corner_cost_[id * count_ + k] = float(cost[id]);
      corner_entry_[id * count_ + k] = EntryPoint{float(entry[id].x), float(entry[id].y)};
    }
  }
}

const QuadLandmarks& QuadLandmarks::of(const PlanningWorld& world, std::size_t movement_class, int count,
                                       MemoryBudget budget) {
  std::string key = std::string(QuadtreeMap::kKey) + " landmarks " + std::to_string(count);
  if (budget.bytes != kDefaultMemoryBudget) key += " budget=" + std::to_string(budget.bytes);
  return world.derived<QuadLandmarks>(
      key, movement_class, [count, budget](const PlanningWorld& w, std::size_t c) {
        const QuadtreeMap& map = QuadtreeMap::of(w, c, budget);
        auto refused = std::make_unique<QuadLandmarks>();
        if (!map.ok()) {
          refused->error_ = map.error();
          return refused;
        }
        // Before costing them: the map and the landmarks together.
        const std::uint64_t slots = map.tree().leaf_slots();
        const std::uint64_t estimate = map.memory_bytes() + estimate_bytes(slots, count);
        if (Status fits = budget.check(
                estimate, "the quadtree with its landmarks",
                "use fewer landmarks (planner parameter landmarks), larger cells or a smaller "
                "world, or raise the planner parameter memory_mib (" +
                    std::to_string(count) + " landmarks over " + std::to_string(slots) + " leaves)");
            !fits) {
          refused->error_ = fits.error();
          return refused;
        }
        return std::make_unique<QuadLandmarks>(map.tree(), map.links(), count);
      });
}

double QuadLandmarks::bound(std::span<const float> a, std::span<const float> b, double slack, double margin) {
  double best = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double x = a[k], y = b[k];
    if (!(x < kInf) || !(y < kInf)) continue;
    best = std::max(best, std::abs(x - y) - slack - margin * std::max(x, y));
  }
  return best;
}

double QuadLandmarks::corner_bound(std::span<const float> a, double slack, std::span<const float> goal,
                                   std::span<const double> goal_excess) {
  double best = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double x = a[k], y = goal[k];
    if (!(x < kInf) || !(y < kInf)) continue;
    if (x >= y) {
      // Every point of the leaf costs at least x, the goal at most y + its excess.
      best = std::max(best, x - y - goal_excess[k]);
    } else if (y - x > best) {
      // The goal costs at least y, the point at most x + the way from the leaf's entry
      // (at most `slack`: the exact way would cost a read of the entries per estimate).
      best = std::max(best, y - x - slack);
    }
  }
  return best;
}

}  // namespace pathscope
