#include "planner/core/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace pathscope {

double cross(Vec2 a, Vec2 b, Vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

namespace {

int sign(double v) { return (v > 0) - (v < 0); }

// True if q, known to be collinear with [a, b], lies within the segment's bounding box.
bool on_segment(Vec2 a, Vec2 b, Vec2 q) {
  return std::min(a.x, b.x) <= q.x && q.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= q.y &&
         q.y <= std::max(a.y, b.y);
}

}  // namespace

bool segments_intersect(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const int d1 = sign(cross(c, d, a));
  const int d2 = sign(cross(c, d, b));
  const int d3 = sign(cross(a, b, c));
  const int d4 = sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  if (d1 == 0 && on_segment(c, d, a)) return true;
  if (d2 == 0 && on_segment(c, d, b)) return true;
  if (d3 == 0 && on_segment(a, b, c)) return true;
  if (d4 == 0 && on_segment(a, b, d)) return true;
  return false;
}

std::optional<std::pair<std::size_t, std::size_t>> find_self_intersection(std::span<const Vec2> poly) {
  const std::size_t n = poly.size();
  if (n < 3) return std::nullopt;
  for (std::size_t i = 0; i < n; ++i) {
    if (poly[i] == poly[(i + 1) % n]) return std::make_pair(i, (i + 1) % n);
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto lo_x = [&](std::size_t e) { return std::min(poly[e].x, poly[(e + 1) % n].x); };
  auto hi_x = [&](std::size_t e) { return std::max(poly[e].x, poly[(e + 1) % n].x); };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return lo_x(a) != lo_x(b) ? lo_x(a) < lo_x(b) : a < b; });
  std::optional<std::pair<std::size_t, std::size_t>> best;
  for (std::size_t oi = 0; oi < n; ++oi) {
    const std::size_t i = order[oi];
    const double end = hi_x(i);
    for (std::size_t oj = oi + 1; oj < n && lo_x(order[oj]) <= end; ++oj) {
      std::size_t a = i, b = order[oj];
      if (a > b) std::swap(a, b);
      const Vec2 p0 = poly[a], p1 = poly[(a + 1) % n];
      const Vec2 q0 = poly[b], q1 = poly[(b + 1) % n];
      const bool adjacent = (b == a + 1) || (a == 0 && b == n - 1);
      bool hit = false;
      if (adjacent) {
        // Adjacent edges share one vertex; they intersect elsewhere only if they are
        // collinear and fold back over each other.
        const Vec2 shared = (b == a + 1) ? p1 : p0;
        const Vec2 other_a = (b == a + 1) ? p0 : p1;
        const Vec2 other_b = (b == a + 1) ? q1 : q0;
        if (cross(shared, other_a, other_b) == 0) {
          const Vec2 u = other_a - shared, v = other_b - shared;
          hit = u.x * v.x + u.y * v.y > 0;
        }
      } else {
        hit = segments_intersect(p0, p1, q0, q1);
      }
      if (hit && (!best || std::make_pair(a, b) < *best)) best = std::make_pair(a, b);
    }
  }
  return best;
}

double polygon_area(std::span<const Vec2> poly) {
  double twice = 0;
  for (std::size_t i = 0, n = poly.size(); i < n; ++i) {
    const Vec2 a = poly[i], b = poly[(i + 1) % n];
    twice += a.x * b.y - b.x * a.y;
  }
  return std::abs(twice) * 0.5;
}

bool point_in_polygon(Vec2 p, std::span<const Vec2> poly) {
  bool inside = false;
  for (std::size_t i = 0, n = poly.size(), j = n - 1; i < n; j = i++) {
    const Vec2 a = poly[i], b = poly[j];
    // Half-open in y: an edge counts when p.y is in [min y, max y).
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x_at = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x_at) inside = !inside;
    }
  }
  return inside;
}

bool segment_crosses_open_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  // Liang-Barsky clipping against the open slabs lo < x < hi, lo < y < hi.
  double t0 = 0, t1 = 1;
  const double d[2] = {b.x - a.x, b.y - a.y};
  const double start[2] = {a.x, a.y};
  const double mins[2] = {lo.x, lo.y};
  const double maxs[2] = {hi.x, hi.y};
  for (int axis = 0; axis < 2; ++axis) {
    if (d[axis] == 0) {
      if (!(start[axis] > mins[axis] && start[axis] < maxs[axis])) return false;
      continue;
    }
    double ta = (mins[axis] - start[axis]) / d[axis];
    double tb = (maxs[axis] - start[axis]) / d[axis];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
    if (!(t0 < t1)) return false;
  }
  return t0 < t1;
}

bool polygon_overlaps_open_box(std::span<const Vec2> poly, Vec2 lo, Vec2 hi) {
  // If no edge passes through the open box, the box lies wholly inside or wholly
  // outside the polygon, and its centre tells which.
  for (std::size_t i = 0, n = poly.size(); i < n; ++i) {
    if (segment_crosses_open_box(poly[i], poly[(i + 1) % n], lo, hi)) return true;
  }
  return point_in_polygon((lo + hi) * 0.5, poly);
}

bool disc_overlaps_open_box(Vec2 center, double radius, Vec2 lo, Vec2 hi) {
  const double cx = std::clamp(center.x, lo.x, hi.x);
  const double cy = std::clamp(center.y, lo.y, hi.y);
  const double dx = center.x - cx, dy = center.y - cy;
  return dx * dx + dy * dy < radius * radius;
}

double distance_sq_to_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a, ap = p - a;
  const double len2 = ab.x * ab.x + ab.y * ab.y;
  double t = len2 > 0 ? (ap.x * ab.x + ap.y * ab.y) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const Vec2 q = a + ab * t - p;
  return q.x * q.x + q.y * q.y;
}

}  // namespace pathscope
