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
void costs_from(const Quadtree& tree, const QuadLinks& links, std::uint32_t source, std::vector<double>& cost) {
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
    if (!largest || r.area > largest->area || (r.area == largest->area && r.seed_corner < largest->seed_corner)) {
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
      if (best == Quadtree::kNoLeaf || d[id] > d[best] || (d[id] == d[best] && tree.corner(id) < tree.corner(best))) {
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
}

const QuadLandmarks& QuadLandmarks::of(const PlanningWorld& world, std::size_t movement_class, int count) {
  const std::string key = std::string(QuadtreeMap::kKey) + " landmarks " + std::to_string(count);
  return world.derived<QuadLandmarks>(key, movement_class, [count](const PlanningWorld& w, std::size_t c) {
    const QuadtreeMap& map = QuadtreeMap::of(w, c);
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

}  // namespace pathscope
