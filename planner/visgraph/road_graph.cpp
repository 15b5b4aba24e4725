// Seed 004's road pass. The road graph holds every road cut into short pieces (a path may
// join a road anywhere, not only at the vertices the designer drew); a piece that runs
// into an obstacle (a road through a wall, a river without its bridge) is left out. A
// query's path is cut the same way and each of its points linked to the road points near
// it; one Dijkstra over path, links and roads gives the cheapest way.

#include "planner/visgraph/road_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <utility>

namespace pathscope::visgraph {
namespace {

double distance(Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  return std::sqrt(d.x * d.x + d.y * d.y);
}

// The points of polyline `pts` every `step` metres at most, its vertices included.
std::vector<Vec2> cut(const std::vector<Vec2>& pts, double step) {
  std::vector<Vec2> out;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    if (i > 0) {
      const double len = distance(pts[i - 1], pts[i]);
      const int pieces = std::max(1, int(std::ceil(len / step)));
      for (int k = 1; k < pieces; ++k)
        out.push_back(pts[i - 1] + (pts[i] - pts[i - 1]) * (double(k) / pieces));
    }
    if (out.empty() || out.back() != pts[i]) out.push_back(pts[i]);
  }
  return out;
}

// Drops points where the polyline goes straight on.
std::vector<Vec2> without_collinear(std::vector<Vec2> pts) {
  std::vector<Vec2> out;
  for (const Vec2& p : pts) {
    while (out.size() >= 2) {
      const Vec2 a = out[out.size() - 2], b = out.back();
      const double c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
      const double dot = (b.x - a.x) * (p.x - b.x) + (b.y - a.y) * (p.y - b.y);
      if (std::abs(c) > 1e-9 * (distance(a, b) + distance(b, p)) || dot < 0) break;
      out.pop_back();
    }
    if (out.empty() || out.back() != p) out.push_back(p);
  }
  return out;
}

}  // namespace

RoadGraph build_road_graph(const std::vector<Road>& roads, const SegmentIndex& index, double step) {
  RoadGraph g;
  std::vector<std::uint32_t> road_of;  // per point
  std::vector<double> width_of;
  for (std::size_t r = 0; r < roads.size(); ++r) {
    const Road& road = roads[r];
    if (road.points.size() < 2) continue;
    std::uint32_t prev = UINT32_MAX;
    for (const Vec2& p : cut(road.points, step)) {
      if (index.inside(p)) {
        prev = UINT32_MAX;
        continue;
      }
      const std::uint32_t id = std::uint32_t(g.points.size());
      g.points.push_back(p);
      road_of.push_back(std::uint32_t(r));
      width_of.push_back(road.width);
      if (prev != UINT32_MAX && index.visible(g.points[prev], p)) {
        g.links.push_back(RoadLink{prev, id, distance(g.points[prev], p) / road.speed_factor, false});
      }
      prev = id;
    }
  }
  // Junctions: the nearest point of each other road within half the widths' sum.
  for (std::uint32_t i = 0; i < g.points.size(); ++i) {
    std::vector<std::pair<double, std::uint32_t>> nearest(roads.size(),
                                                          {std::numeric_limits<double>::infinity(), 0});
    for (std::uint32_t j = i + 1; j < g.points.size(); ++j) {
      if (road_of[j] == road_of[i]) continue;
      const double d = distance(g.points[i], g.points[j]);
      if (d <= 0.5 * (width_of[i] + width_of[j]) && d < nearest[road_of[j]].first)
        nearest[road_of[j]] = {d, j};
    }
    for (const auto& [d, j] : nearest) {
      if (std::isfinite(d) && index.visible(g.points[i], g.points[j]))
        g.links.push_back(RoadLink{i, j, d, true});
    }
  }
  return g;
}

RoadPass road_pass(const std::vector<Vec2>& path, const RoadGraph& roads, const SegmentIndex& index,
                   double reach, double step, const std::function<double(Vec2, Vec2)>& leg_cost) {
  const auto leg = [&](Vec2 a, Vec2 b) { return leg_cost ? leg_cost(a, b) : distance(a, b); };
  RoadPass out;
  out.points = path;
  double length = 0;  // the path's own cost
  for (std::size_t i = 1; i < path.size(); ++i) length += leg(path[i - 1], path[i]);
  out.cost = length;
  if (path.size() < 2 || roads.empty()) return out;
  // Nodes: the path's points (0 .. n - 1), then the road points.
  const std::vector<Vec2> along = cut(path, step);
  const std::uint32_t n = std::uint32_t(along.size());
  const std::uint32_t total = n + std::uint32_t(roads.points.size());
  std::vector<std::vector<std::pair<std::uint32_t, double>>> adj(total);
  const auto link = [&](std::uint32_t a, std::uint32_t b, double c) {
    adj[a].push_back({b, c});
    adj[b].push_back({a, c});
  };
  for (std::uint32_t i = 1; i < n; ++i) link(i - 1, i, leg(along[i - 1], along[i]));
  for (const RoadLink& l : roads.links) link(n + l.a, n + l.b, l.cost);
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t j = 0; j < roads.points.size(); ++j) {
      const double d = distance(along[i], roads.points[j]);
      if (d > reach || !index.visible(along[i], roads.points[j])) continue;
      link(i, n + j, leg(along[i], roads.points[j]));
      out.joins.insert(out.joins.end(), {along[i], roads.points[j]});
    }
  }
  // Dijkstra from the first point to the last; ties by node id, so runs agree.
  std::vector<double> dist(total, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> parent(total, UINT32_MAX);
  using Entry = std::pair<double, std::uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  dist[0] = 0;
  open.push({0, 0});
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;
    if (u == n - 1) break;
    for (const auto& [v, c] : adj[u]) {
      if (d + c < dist[v]) {
        dist[v] = d + c;
        parent[v] = u;
        open.push({dist[v], v});
      }
    }
  }
  // Only a real saving replaces the path (rounding must not swap equal ways).
  if (!(dist[n - 1] < length * (1 - 1e-9))) return out;
  std::vector<Vec2> pts;
  for (std::uint32_t v = n - 1; v != UINT32_MAX; v = parent[v]) {
    pts.push_back(v < n ? along[v] : roads.points[v - n]);
    out.on_road = out.on_road || v >= n;
  }
  std::reverse(pts.begin(), pts.end());
  out.points = without_collinear(std::move(pts));
  out.cost = dist[n - 1];
  return out;
}

}  // namespace pathscope::visgraph
