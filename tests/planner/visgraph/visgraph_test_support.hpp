#pragma once

// Brute-force references for the visibility-graph tests: sight as "no piece of the
// segment between two boundary contacts has its midpoint strictly inside an obstacle",
// over every edge of every ring (no buckets, no wedges), and random obstacle maps.

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "planner/core/geometry.hpp"
#include "planner/core/search.hpp"
#include "planner/visgraph/obstacle_set.hpp"

namespace pathscope::test {

/// The value of a result's extra stat `name`, or -1 when it has none.
inline double stat(const PathResult& r, const std::string& name) {
  for (const auto& [k, v] : r.stats.extra) {
    if (k == name) return v;
  }
  return -1;
}

/// True when p is on some ring's boundary.
inline bool reference_on_boundary(const std::vector<visgraph::Ring>& rings, Vec2 p) {
  for (const visgraph::Ring& r : rings) {
    const std::size_t n = r.points.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = r.points[i], b = r.points[(i + 1) % n];
      if (cross(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
          std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y)) {
        return true;
      }
    }
  }
  return false;
}

/// True when p is strictly inside the obstacles (odd crossing count over all rings).
inline bool reference_inside(const std::vector<visgraph::Ring>& rings, Vec2 p) {
  if (reference_on_boundary(rings, p)) return false;
  bool in = false;
  for (const visgraph::Ring& r : rings) {
    if (point_in_polygon(p, r.points)) in = !in;
  }
  return in;
}

/// Sight by brute force: split [p, q] at every contact with every edge and test the
/// midpoint of every piece.
inline bool reference_visible(const std::vector<visgraph::Ring>& rings, Vec2 p, Vec2 q) {
  std::vector<double> ts = {0.0, 1.0};
  const Vec2 d = q - p;
  const double dd = d.x * d.x + d.y * d.y;
  const auto param = [&](Vec2 x) { return ((x - p).x * d.x + (x - p).y * d.y) / dd; };
  for (const visgraph::Ring& r : rings) {
    const std::size_t n = r.points.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = r.points[i], b = r.points[(i + 1) % n];
      if (!segments_intersect(p, q, a, b)) continue;
      const double ca = cross(p, q, a), cb = cross(p, q, b);
      if (ca == 0) ts.push_back(param(a));
      if (cb == 0) ts.push_back(param(b));
      if (ca != cb) ts.push_back(std::clamp(cross(a, b, p) / (cross(a, b, p) - cross(a, b, q)), 0.0, 1.0));
    }
  }
  std::sort(ts.begin(), ts.end());
  for (std::size_t k = 0; k + 1 < ts.size(); ++k) {
    if (!(ts[k + 1] > ts[k])) continue;
    if (reference_inside(rings, p + d * (0.5 * (ts[k] + ts[k + 1])))) return false;
  }
  return true;
}

/// Random obstacles in a w x h world: axis-aligned rectangles with integer corners, some
/// triangles, and (when `circles`) circles.
inline std::vector<visgraph::ObstacleInput> random_obstacles(std::mt19937_64& rng, double w, double h,
                                                             int count, bool circles) {
  std::vector<visgraph::ObstacleInput> out;
  const auto ui = [&](int lo, int hi) { return lo + int(rng() % unsigned(hi - lo + 1)); };
  for (int i = 0; i < count; ++i) {
    visgraph::ObstacleInput in;
    in.name = "obstacle " + std::to_string(i);
    const int kind = ui(0, circles ? 5 : 4);
    const int x = ui(1, int(w) - 6), y = ui(1, int(h) - 6);
    if (kind <= 2) {
      in.shape.kind = ShapeKind::Rect;
      in.shape.min = {double(x), double(y)};
      in.shape.max = {double(x + ui(1, 5)), double(y + ui(1, 5))};
    } else if (kind <= 4) {
      in.shape.kind = ShapeKind::Polygon;
      in.shape.points = {{double(x), double(y)},
                         {double(x + ui(2, 5)), double(y + ui(0, 2))},
                         {double(x + ui(0, 3)), double(y + ui(2, 5))}};
      if (std::abs(cross(in.shape.points[0], in.shape.points[1], in.shape.points[2])) < 1) {
        in.shape.points[2].x += 0.5;
        in.shape.points[2].y += 3;
      }
    } else {
      in.shape.kind = ShapeKind::Circle;
      in.shape.center = {x + 0.5 + ui(0, 2), y + 0.25 + ui(0, 2)};
      in.shape.radius = 0.5 + 0.25 * ui(0, 6);
    }
    out.push_back(std::move(in));
  }
  return out;
}

/// Convex corners of the rings inside `box` (the graph's nodes, found independently).
inline std::vector<Vec2> reference_corners(const std::vector<visgraph::Ring>& rings, const Box2& box) {
  std::vector<Vec2> out;
  for (const visgraph::Ring& r : rings) {
    const std::size_t n = r.points.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2 a = r.points[(i + n - 1) % n], v = r.points[i], b = r.points[(i + 1) % n];
      if (cross(a, v, b) > 0 && box.contains(v)) out.push_back(v);
    }
  }
  return out;
}

/// Shortest path length from p to q by Dijkstra over every ring vertex inside `box`
/// plus p and q, every pair in sight by reference_visible (no tangency pruning).
inline double reference_shortest(const std::vector<visgraph::Ring>& rings, const Box2& box, Vec2 p, Vec2 q) {
  std::vector<Vec2> pts = {p, q};
  for (const visgraph::Ring& r : rings) {
    for (const Vec2& v : r.points) {
      if (box.contains(v)) pts.push_back(v);
    }
  }
  const std::size_t n = pts.size();
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  std::vector<char> done(n, 0);
  dist[0] = 0;
  for (;;) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!done[i] && (u == n || dist[i] < dist[u])) u = i;
    }
    if (u == n || !std::isfinite(dist[u])) return std::numeric_limits<double>::infinity();
    if (u == 1) return dist[1];
    done[u] = 1;
    for (std::size_t v = 0; v < n; ++v) {
      if (done[v]) continue;
      const double nd = dist[u] + std::hypot(pts[v].x - pts[u].x, pts[v].y - pts[u].y);
      if (nd < dist[v] && reference_visible(rings, pts[u], pts[v])) dist[v] = nd;
    }
  }
}

}  // namespace pathscope::test
