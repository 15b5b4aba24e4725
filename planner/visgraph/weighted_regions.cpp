// Weighted regions (seed 004's swamps). A link's cost splits the segment at every
// crossing with a region's boundary and prices each piece by the region holding its
// midpoint (the last one painted; a piece along a boundary is outside): exact for
// straight segments among polygons.

#include "planner/visgraph/weighted_regions.hpp"

#include <algorithm>
#include <cmath>

#include "planner/core/geometry.hpp"
#include "planner/visgraph/obstacle_set.hpp"

namespace pathscope::visgraph {
namespace {

constexpr double kPi = 3.14159265358979323846;

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

std::vector<Vec2> ring_of(const Shape& s, double max_error) {
  switch (s.kind) {
    case ShapeKind::Rect: return {s.min, {s.max.x, s.min.y}, s.max, {s.min.x, s.max.y}};
    case ShapeKind::Circle: {
      // Circumscribed: the region is never understated (a path grazing it pays). Slow
      // ground only prices legs, so 2% of the radius will do (16 corners), when that is
      // coarser than max_error: every corner is a node linked to all it sees.
      const double error = std::max(max_error, 0.02 * s.radius);
      int n = 8;
      while (n < 1024 && s.radius * (1.0 / std::cos(kPi / n) - 1.0) > error) n *= 2;
      const double r = s.radius / std::cos(kPi / n);
      std::vector<Vec2> out;
      for (int i = 0; i < n; ++i) {
        const double a = 2 * kPi * i / n;
        out.push_back({s.center.x + r * std::cos(a), s.center.y + r * std::sin(a)});
      }
      return out;
    }
    case ShapeKind::Polygon: return s.points;
  }
  return {};
}

// Parameters in (0, 1) where [a, b] crosses the ring's edges.
void crossings(Vec2 a, Vec2 b, const std::vector<Vec2>& ring, std::vector<double>& ts) {
  const Vec2 d = b - a;
  for (std::size_t i = 0; i < ring.size(); ++i) {
    const Vec2 p = ring[i], q = ring[(i + 1) % ring.size()];
    const Vec2 e = q - p;
    const double den = d.x * e.y - d.y * e.x;
    if (den == 0) continue;  // parallel: pieces along the edge take their midpoint's region
    const Vec2 w = p - a;
    const double t = (w.x * e.y - w.y * e.x) / den;
    const double u = (w.x * d.y - w.y * d.x) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push_back(t);
  }
}

// Inside and not on the boundary: a leg along a region's edge runs beside it.
bool inside_strictly(Vec2 p, const std::vector<Vec2>& ring) {
  for (std::size_t i = 0; i < ring.size(); ++i) {
    if (distance_sq_to_segment(p, ring[i], ring[(i + 1) % ring.size()]) < 1e-18) return false;
  }
  return point_in_polygon(p, ring);
}

}  // namespace

WeightedRegions::WeightedRegions(const PlanningWorld& world, std::size_t movement_class,
                                 const VisibilityGraph& graph, double max_error) {
  const Scenario& s = world.scenario();
  const auto& ground = s.terrains[0].cost[movement_class];
  const double base = ground ? *ground : 1.0;
  const auto add = [&](std::vector<Vec2> ring, double factor) {
    WeightedRegion r;
    r.ring = std::move(ring);
    r.factor = factor;
    for (const Vec2& p : r.ring) r.box = r.box.united(Box2::of(p));
    // A region at the ground's own cost is kept: it covers what was painted before it.
    regions_.push_back(std::move(r));
  };
  // Containers are painted first (after the tiles, which are not weighed): their terrain
  // lies outside them, so a passable one (a swamp round a clearing) is the world's box at
  // its factor with every container over it at the ground's.
  for (const Feature& f : s.features) {
    if (!f.container) continue;
    if (blocks_class(s, f.terrain, movement_class)) break;  // an obstacle: obstacle_set.cpp's
    const double w = s.world.width, h = s.world.height;
    add({{0, 0}, {w, 0}, {w, h}, {0, h}}, *s.terrains[f.terrain].cost[movement_class] / base);
    for (const Feature& c : s.features) {
      if (c.container) add(ring_of(c.shape, max_error), 1.0);
    }
    break;
  }
  for (const Feature& f : s.features) {
    if (f.container || blocks_class(s, f.terrain, movement_class)) continue;
    add(ring_of(f.shape, max_error), *s.terrains[f.terrain].cost[movement_class] / base);
  }
  // Without a region that changes a cost there is nothing to weigh.
  bool any = false;
  for (const WeightedRegion& r : regions_) any = any || r.factor != 1;
  if (!any) {
    regions_.clear();
    return;
  }
  for (const WeightedRegion& r : regions_) min_factor_ = std::min(min_factor_, r.factor);

  const SegmentIndex& index = graph.index();
  const Box2 free_box = graph.obstacles().free_box;
  for (const WeightedRegion& r : regions_) {
    for (const Vec2& p : r.ring) {
      if (free_box.contains(p) && !index.inside(p)) corners_.push_back(p);
    }
  }
  std::sort(corners_.begin(), corners_.end(),
            [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  corners_.erase(std::unique(corners_.begin(), corners_.end()), corners_.end());

  const std::uint32_t n = std::uint32_t(corners_.size());
  std::vector<std::vector<Link>> adj(n);
  std::vector<std::vector<Link>> by_node(graph.node_count());
  std::vector<std::uint32_t> seen;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = i + 1; j < n; ++j) {
      if (!index.visible(corners_[i], corners_[j])) continue;
      const double c = cost(corners_[i], corners_[j]);
      adj[i].push_back(Link{j, false, c});
      adj[j].push_back(Link{i, false, c});
    }
    graph.nodes_linked_to(corners_[i], seen);
    for (const std::uint32_t node : seen) {
      const double c = cost(graph.position(node), corners_[i]);
      adj[i].push_back(Link{node, true, c});
      by_node[node].push_back(Link{i, false, c});
    }
  }
  link_start_.assign(std::size_t(n) + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) {
    link_start_[i + 1] = link_start_[i] + std::uint32_t(adj[i].size());
    links_.insert(links_.end(), adj[i].begin(), adj[i].end());
  }
  graph_start_.assign(graph.node_count() + 1, 0);
  for (std::size_t k = 0; k < by_node.size(); ++k) {
    graph_start_[k + 1] = graph_start_[k] + std::uint32_t(by_node[k].size());
    graph_links_.insert(graph_links_.end(), by_node[k].begin(), by_node[k].end());
  }
}

double WeightedRegions::cost(Vec2 a, Vec2 b) const {
  const double len = distance(a, b);
  if (regions_.empty() || len == 0) return len;
  const Box2 seg = Box2::spanning(a, b);
  std::vector<double> ts = {0.0, 1.0};
  bool touched = false;
  for (const WeightedRegion& r : regions_) {
    if (!r.box.overlaps(seg)) continue;
    touched = true;
    crossings(a, b, r.ring, ts);
  }
  if (!touched) return len;
  std::sort(ts.begin(), ts.end());
  double total = 0;
  for (std::size_t k = 1; k < ts.size(); ++k) {
    const double piece = ts[k] - ts[k - 1];
    if (piece <= 0) continue;
    const Vec2 mid = a + (b - a) * (0.5 * (ts[k] + ts[k - 1]));
    double factor = 1;
    for (const WeightedRegion& r : regions_) {
      if (r.box.contains(mid) && inside_strictly(mid, r.ring)) factor = r.factor;
    }
    total += piece * len * factor;
  }
  return total;
}

}  // namespace pathscope::visgraph
