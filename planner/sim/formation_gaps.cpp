// Formations as collision entities (seed 002): units of no platoon kept out of a driving
// platoon's area. See formation_gaps.hpp.

#include "planner/sim/formation_gaps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "planner/sim/static_check.hpp"

namespace pathscope::sim {

namespace {

/// z of (b - a) x (c - a).
double turn(Vec2 a, Vec2 b, Vec2 c) { return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x); }

/// The point of segment [a, b] nearest `p`.
Vec2 nearest_on_segment(Vec2 a, Vec2 b, Vec2 p) {
  const Vec2 d = b - a;
  const double dd = glm::dot(d, d);
  if (dd <= 0) return a;
  return a + d * std::clamp(glm::dot(p - a, d) / dd, 0.0, 1.0);
}

/// Bisection steps for where a move meets an area's edge (1e-9 of the move).
constexpr int kCutSteps = 30;

}  // namespace

std::vector<Vec2> convex_hull(std::vector<Vec2> points) {
  std::sort(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.x != b.x ? a.x < b.x : a.y < b.y; });
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() < 3) return points;
  std::vector<Vec2> hull(2 * points.size());
  std::size_t k = 0;
  for (const Vec2 p : points) {  // lower chain
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], p) <= 0) --k;
    hull[k++] = p;
  }
  const std::size_t lower = k + 1;
  for (std::size_t i = points.size() - 1; i-- > 0;) {  // upper chain
    while (k >= lower && turn(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point is the first
  return hull;
}

double distance_to_hull(std::span<const Vec2> hull, Vec2 p, Vec2& out) {
  out = Vec2{1, 0};
  if (hull.empty()) return std::numeric_limits<double>::infinity();
  const auto away = [&](Vec2 from, Vec2 fallback) {
    const Vec2 d = p - from;
    const double len = glm::length(d);
    out = len > 0 ? d / len : fallback;
    return len;
  };
  if (hull.size() == 1) return away(hull[0], Vec2{1, 0});
  if (hull.size() == 2) {
    const Vec2 e = hull[1] - hull[0];
    const double len = glm::length(e);
    const Vec2 normal = len > 0 ? Vec2{-e.y, e.x} / len : Vec2{1, 0};
    return away(nearest_on_segment(hull[0], hull[1], p), normal);
  }
  bool inside = true;
  double best = std::numeric_limits<double>::infinity();
  Vec2 best_point = hull[0];
  double depth = std::numeric_limits<double>::infinity();  // inside: distance to the nearest edge
  Vec2 depth_normal{1, 0};
  for (std::size_t i = 0; i < hull.size(); ++i) {
    const Vec2 a = hull[i];
    const Vec2 b = hull[(i + 1) % hull.size()];
    const double len = glm::length(b - a);
    if (len <= 0) continue;
    const double t = turn(a, b, p);  // > 0: p left of a -> b, the inside of a counter-clockwise hull
    if (t < 0) inside = false;
    if (t / len < depth) {
      depth = t / len;
      depth_normal = Vec2{b.y - a.y, a.x - b.x} / len;  // outward
    }
    const Vec2 q = nearest_on_segment(a, b, p);
    const double d = glm::distance(p, q);
    if (d < best) {
      best = d;
      best_point = q;
    }
  }
  if (inside) {
    out = depth_normal;
    return 0;
  }
  return away(best_point, depth_normal);
}

void keep_out_of_formations(std::span<const std::vector<Vec2>> areas, std::span<GapUnit> units,
                            std::span<const CostGrid* const> grids) {
  for (GapUnit& u : units) {
    if (!u.applies) continue;
    for (const std::vector<Vec2>& area : areas) {
      Vec2 dir{1, 0};
      const double end = distance_to_hull(area, u.position, dir);
      if (end >= u.radius) continue;
      const CostGrid& grid = *grids[u.movement_class];
      Vec2 ignored{0, 0};
      Vec2 start_dir{1, 0};
      const double start = distance_to_hull(area, u.start, start_dir);
      const Vec2 wanted = u.position;
      Vec2 stop = u.start;  // where it is kept: on the edge, or pushed out
      Vec2 normal = start_dir;
      if (start >= u.radius) {
        // It walked in: it stops where its move meets the edge (the part of a line nearer
        // a convex area than the radius is one interval, so bisection finds its start).
        double lo = 0, hi = 1;
        for (int k = 0; k < kCutSteps; ++k) {
          const double mid = 0.5 * (lo + hi);
          if (distance_to_hull(area, u.start + (wanted - u.start) * mid, ignored) >= u.radius) {
            lo = mid;
          } else {
            hi = mid;
          }
        }
        stop = u.start + (wanted - u.start) * lo;
        (void)distance_to_hull(area, stop, normal);
      } else {
        // The area came over it: no deeper than it stood (a move further in is undone),
        // then out the shortest way, as far as it can go in a step.
        Vec2 from = wanted;
        double depth = end;
        normal = dir;
        if (end < start) {
          from = u.start;
          depth = start;
          normal = start_dir;
        }
        const Vec2 to = from + normal * std::min(u.radius - depth, u.reach);
        stop = !segment_blocked(grid, u.move_key, from, to) && !segment_blocked(grid, u.move_key, u.start, to)
                   ? to
                   : from;
      }
      // What is left of its move along the edge it slides by, if that keeps it out.
      const Vec2 tangent{-normal.y, normal.x};
      const Vec2 slid = stop + tangent * glm::dot(wanted - stop, tangent);
      if (distance_to_hull(area, slid, ignored) >= u.radius &&
          !segment_blocked(grid, u.move_key, stop, slid) &&
          !segment_blocked(grid, u.move_key, u.start, slid) &&
          glm::distance(slid, u.start) <= glm::distance(wanted, u.start) + u.reach)
        stop = slid;
      u.position = stop;
      u.kept = true;
    }
  }
}

}  // namespace pathscope::sim
