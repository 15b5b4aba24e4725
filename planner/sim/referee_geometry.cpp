// Exact geometry for the simulation referee. Shares no code with the step's geometry.
//
// Ellipse against ellipse: the affine map u = S_a^-1 R_a^T (x - c_a) takes shape a onto the
// unit disc and shape b onto an ellipse c + M v, |v| <= 1. The interiors meet iff the
// origin is inside that ellipse or nearer than 1 to it (distances in the mapped space; the
// map preserves "inside" and "touching"). The ellipse's axes come from the singular value
// decomposition of M: its left singular vectors are the eigenvectors of M M^T (a symmetric
// 2 x 2, solved in closed form); the larger singular value is the root of the larger
// eigenvalue (no cancellation) and the smaller is |det M| over it (det M is known exactly:
// the ratio of the two shapes' areas). The distance from a point to an axis-aligned
// ellipse is David Eberly's robust bisection ("Distance from a Point to an Ellipse, an
// Ellipsoid, or a Hyperellipsoid", Geometric Tools, 2013: DistancePointEllipse and GetRoot).
//
// Depth: the set of translations of b that make the shapes overlap is convex (the
// Minkowski difference of two convex sets), so along the centre line the overlapping
// moves form one interval containing 0, and bisection finds its end.

#include "planner/sim/referee_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pathscope::sim {

namespace {

// Eberly's GetRoot (2D): the root s of (r0 z0 / (s + r0))^2 + (z1 / (s + 1))^2 - 1 on
// [z1 - 1, |(r0 z0, z1)| - 1], by bisection to the last bit.
double ellipse_root(double r0, double z0, double z1, double g) {
  const double n0 = r0 * z0;
  double s0 = z1 - 1;
  double s1 = g < 0 ? 0 : std::hypot(n0, z1) - 1;
  double s = 0;
  // 1074 halvings reach the smallest double: the loop ends well before, when the
  // midpoint equals an end.
  for (int i = 0; i < 1100; ++i) {
    s = 0.5 * (s0 + s1);
    if (s == s0 || s == s1) break;
    const double ratio0 = n0 / (s + r0);
    const double ratio1 = z1 / (s + 1);
    const double gs = ratio0 * ratio0 + ratio1 * ratio1 - 1;
    if (gs > 0) {
      s0 = s;
    } else if (gs < 0) {
      s1 = s;
    } else {
      break;
    }
  }
  return s;
}

// A unit vector along a heading, and the one across it (a quarter turn on).
Vec2 along_axis(double heading) { return {std::cos(heading), -std::sin(heading)}; }
Vec2 across_axis(double heading) { return {std::sin(heading), std::cos(heading)}; }

bool is_circle(const HardShape& s) { return s.along == s.across; }

// The radius of a circle round the shape.
double bounding_radius(const HardShape& s) { return std::max(s.along, s.across); }

}  // namespace

double distance_to_ellipse(double e0, double e1, Vec2 p, bool& inside) {
  // The ellipse is symmetric in both axes: work in the first quadrant.
  const double y0 = std::abs(p.x), y1 = std::abs(p.y);
  const double z0 = y0 / e0, z1 = y1 / e1;
  const double g = z0 * z0 + z1 * z1 - 1;
  inside = g <= 0;
  if (y1 > 0) {
    if (y0 > 0) {
      if (g == 0) return 0;
      const double r0 = (e0 / e1) * (e0 / e1);
      const double s = ellipse_root(r0, z0, z1, g);
      const double x0 = r0 * y0 / (s + r0);
      const double x1 = y1 / (s + 1);
      return std::hypot(x0 - y0, x1 - y1);
    }
    // On the minor axis: the nearest point is the co-vertex.
    return std::abs(y1 - e1);
  }
  // On the major axis: near the centre the nearest point is off the axis.
  const double numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1;
  if (numer0 < denom0) {
    const double xde0 = numer0 / denom0;
    const double x0 = e0 * xde0;
    const double x1 = e1 * std::sqrt(std::max(0.0, 1 - xde0 * xde0));
    return std::hypot(x0 - y0, x1);
  }
  return std::abs(y0 - e0);
}

bool hard_shapes_overlap(const HardShape& a, const HardShape& b) {
  const Vec2 delta = b.centre - a.centre;
  if (is_circle(a) && is_circle(b)) {
    const double r = a.along + b.along;
    return delta.x * delta.x + delta.y * delta.y < r * r;
  }
  // Far apart: the circles round them do not meet.
  const double reach = bounding_radius(a) + bounding_radius(b);
  if (delta.x * delta.x + delta.y * delta.y >= reach * reach) return false;
  // Into a's frame, scaled so that a is the unit disc.
  const Vec2 da = along_axis(a.heading), na = across_axis(a.heading);
  const Vec2 db = along_axis(b.heading), nb = across_axis(b.heading);
  const Vec2 c{(da.x * delta.x + da.y * delta.y) / a.along, (na.x * delta.x + na.y * delta.y) / a.across};
  // M's columns: b's two semi-axes, mapped.
  const double m00 = b.along * (da.x * db.x + da.y * db.y) / a.along;
  const double m10 = b.along * (na.x * db.x + na.y * db.y) / a.across;
  const double m01 = b.across * (da.x * nb.x + da.y * nb.y) / a.along;
  const double m11 = b.across * (na.x * nb.x + na.y * nb.y) / a.across;
  // SVD of M through the eigenvectors of P = M M^T.
  const double p00 = m00 * m00 + m01 * m01;
  const double p11 = m10 * m10 + m11 * m11;
  const double p01 = m00 * m10 + m01 * m11;
  const double half_diff = 0.5 * (p00 - p11);
  const double lambda1 = 0.5 * (p00 + p11) + std::hypot(half_diff, p01);
  const double sigma1 = std::sqrt(lambda1);
  const double det = (b.along * b.across) / (a.along * a.across);
  const double sigma2 = std::min(sigma1, det / sigma1);
  const double phi = 0.5 * std::atan2(2 * p01, p00 - p11);
  const Vec2 u1{std::cos(phi), std::sin(phi)}, u2{-std::sin(phi), std::cos(phi)};
  // The origin (a's centre) in the frame of b's image, whose axes are u1, u2.
  const Vec2 q{-(u1.x * c.x + u1.y * c.y), -(u2.x * c.x + u2.y * c.y)};
  bool inside = false;
  const double distance = distance_to_ellipse(sigma1, sigma2, q, inside);
  return inside || distance < 1;
}

double overlap_depth(const HardShape& a, const HardShape& b) {
  const Vec2 delta = b.centre - a.centre;
  const double distance = std::hypot(delta.x, delta.y);
  if (is_circle(a) && is_circle(b)) return std::max(0.0, a.along + b.along - distance);
  if (!hard_shapes_overlap(a, b)) return 0;
  const Vec2 n = distance > 0 ? delta / distance : Vec2{1, 0};
  // Moved by `hi`, the circles round them at most touch: apart.
  double lo = 0;
  double hi = std::max(0.0, bounding_radius(a) + bounding_radius(b) - distance) + 1e-9;
  HardShape moved = b;
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = 0.5 * (lo + hi);
    moved.centre = b.centre + n * mid;
    (hard_shapes_overlap(a, moved) ? lo : hi) = mid;
  }
  return hi;
}

bool segment_crosses_box(Vec2 p, Vec2 q, Vec2 lo, Vec2 hi, double margin) {
  lo += Vec2{margin, margin};
  hi -= Vec2{margin, margin};
  if (!(lo.x < hi.x && lo.y < hi.y)) return false;
  double t0 = 0, t1 = 1;
  const Vec2 d = q - p;
  for (int k = 0; k < 2; ++k) {
    if (d[k] == 0) {
      // Parallel to this slab: inside it all along, or never.
      if (!(p[k] > lo[k] && p[k] < hi[k])) return false;
      continue;
    }
    double ta = (lo[k] - p[k]) / d[k];
    double tb = (hi[k] - p[k]) / d[k];
    if (ta > tb) std::swap(ta, tb);
    t0 = std::max(t0, ta);
    t1 = std::min(t1, tb);
  }
  // A point (p == q) that passed both slabs is inside; a segment needs a stretch inside.
  return (d.x == 0 && d.y == 0) || t0 < t1;
}

double segment_distance_to_origin(Vec2 p, Vec2 q) {
  const Vec2 d = q - p;
  const double dd = d.x * d.x + d.y * d.y;
  const double t = dd > 0 ? std::clamp(-(p.x * d.x + p.y * d.y) / dd, 0.0, 1.0) : 0.0;
  const Vec2 c = p + d * t;
  return std::hypot(c.x, c.y);
}

}  // namespace pathscope::sim
