#pragma once
// The simulation tests' own ellipse geometry, a brute-force reference sharing nothing with
// the simulation's: boundary points, a strict inside test and a sampled overlap test.

#include <cmath>
#include <numbers>

#include "planner/core/types.hpp"

namespace pathscope::sim::test_support {

/// An ellipse in the world: centre, heading (direction (cos h, -sin h), y down), semi-axes
/// along and across the heading.
struct TestEllipse {
  Vec2 centre{0, 0};
  double heading = 0;
  double along = 1;
  double across = 1;
};

/// The point of e's boundary at parameter t (radians).
inline Vec2 boundary_point(const TestEllipse& e, double t) {
  const Vec2 h{std::cos(e.heading), -std::sin(e.heading)};
  const Vec2 p{-h.y, h.x};
  return e.centre + h * (e.along * std::cos(t)) + p * (e.across * std::sin(t));
}

/// True when q is inside e shrunk by `margin` metres on both semi-axes.
inline bool inside(const TestEllipse& e, Vec2 q, double margin) {
  const Vec2 h{std::cos(e.heading), -std::sin(e.heading)};
  const Vec2 p{-h.y, h.x};
  const Vec2 d = q - e.centre;
  const double x = (d.x * h.x + d.y * h.y) / (e.along - margin);
  const double y = (d.x * p.x + d.y * p.y) / (e.across - margin);
  return x * x + y * y < 1;
}

/// Brute force: the two ellipses overlap by more than about `margin` metres if a sampled
/// boundary point of either lies inside the other shrunk by `margin` (two convex shapes
/// overlap when a boundary point of one is inside the other, or one holds the other).
inline bool overlap_sampled(const TestEllipse& a, const TestEllipse& b, double margin, int samples = 2048) {
  if (inside(a, b.centre, margin) || inside(b, a.centre, margin)) return true;
  for (int k = 0; k < samples; ++k) {
    const double t = 2 * std::numbers::pi * k / samples;
    if (inside(a, boundary_point(b, t), margin) || inside(b, boundary_point(a, t), margin)) return true;
  }
  return false;
}

}  // namespace pathscope::sim::test_support
