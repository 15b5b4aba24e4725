// Coverage of a closed box S by a union U of closed shapes, decided on the boundaries.
//
// S \ U is open in S, so if it is not empty it has positive area, and its boundary has
// positive length. That boundary runs along edges of S (with the uncovered side inside
// S) and along edges or rims of the shapes (with the uncovered side outside the shape).
// So S lies inside U exactly when, along every such curve within S, the side facing
// away from the curve's own region (into S for S's edges, out of the shape for a
// shape's) is covered by some other shape, except at finitely many points. Conversely,
// a stretch of positive length where that side is uncovered has uncovered points next
// to it. Each curve is therefore reduced to one dimension:
// - A straight edge lies on a line; another rectangle or polygon covers the line shifted
//   an infinitesimal step to the tested side where the shifted line is inside it. The
//   shifted line passes no vertex: a vertex on the line counts as lying on the other
//   side, and the even-odd crossings of the shifted line, sorted along the line, bound
//   the covered stretches (a collinear edge of a shape on the same side covers nothing,
//   one on the other side covers its length: touching containers). A disc covers its
//   chord. The stretches must cover the edge's part inside S.
// - A circle's rim is cut at every crossing with S's sides and the other shapes'
//   boundaries; each arc between crossings lies wholly inside or outside S and each
//   other shape, so its middle point decides it.
// Only shapes whose interior meets the open box matter (the others add a set without
// interior to U near S); one that holds S alone answers at once.

#include "planner/world/box_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "planner/core/geometry.hpp"

namespace pathscope {
namespace {

constexpr double kTwoPi = 6.283185307179586;

int sign(double v) { return (v > 0) - (v < 0); }

// A rectangle or polygon as a ring with its interior on the left of every edge.
std::vector<Vec2> ccw_ring(const Shape& s) {
  if (s.kind == ShapeKind::Rect) return {s.min, {s.max.x, s.min.y}, s.max, {s.min.x, s.max.y}};
  std::vector<Vec2> p = s.points;
  double twice = 0;
  for (std::size_t i = 0, n = p.size(); i < n; ++i)
    twice += p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y;
  if (twice < 0) std::reverse(p.begin(), p.end());
  return p;
}

// True when p lies in the closed shape.
bool contains_point(const Shape& s, Vec2 p) {
  switch (s.kind) {
    case ShapeKind::Rect: return s.min.x <= p.x && p.x <= s.max.x && s.min.y <= p.y && p.y <= s.max.y;
    case ShapeKind::Circle: {
      const Vec2 d = p - s.center;
      return d.x * d.x + d.y * d.y <= s.radius * s.radius;
    }
    case ShapeKind::Polygon: {
      if (point_in_polygon(p, s.points)) return true;
      for (std::size_t i = 0, n = s.points.size(); i < n; ++i) {
        const Vec2 a = s.points[i], b = s.points[(i + 1) % n];
        if (cross(a, b, p) == 0 && std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) &&
            std::min(a.y, b.y) <= p.y && p.y <= std::max(a.y, b.y)) {
          return true;
        }
      }
      return false;
    }
  }
  return false;
}

// The line through a and b (a != b) with a tested side, and positions along it: the x
// coordinate on a horizontal line, y on a vertical one (so rectangles need comparisons
// only), else the parameter t of a + t (b - a).
class TestLine {
 public:
  // `side` is +1 when the tested side is left of a -> b, -1 when it is right.
  TestLine(Vec2 a, Vec2 b, int side) : a_(a), b_(b), side_(side) {
    kind_ = a.y == b.y ? Kind::Horizontal : a.x == b.x ? Kind::Vertical : Kind::Sloped;
  }

  // Which side of the line v lies on: +1 left, -1 right, 0 on it.
  int side_of(Vec2 v) const {
    switch (kind_) {
      case Kind::Horizontal: return (b_.x > a_.x ? 1 : -1) * sign(v.y - a_.y);
      case Kind::Vertical: return (b_.y > a_.y ? -1 : 1) * sign(v.x - a_.x);
      case Kind::Sloped: return sign(cross(a_, b_, v));
    }
    return 0;
  }

  // Position of a point on the line.
  double position(Vec2 v) const {
    switch (kind_) {
      case Kind::Horizontal: return v.x;
      case Kind::Vertical: return v.y;
      case Kind::Sloped: {
        const Vec2 d = b_ - a_, w = v - a_;
        return (w.x * d.x + w.y * d.y) / (d.x * d.x + d.y * d.y);
      }
    }
    return 0;
  }

  // Position where segment [c, d], with ends strictly on opposite sides, crosses the line.
  // One quotient, computed the same way whichever way round the segment is given.
  double crossing(Vec2 c, Vec2 d) const {
    if (d.x < c.x || (d.x == c.x && d.y < c.y)) std::swap(c, d);
    switch (kind_) {
      case Kind::Horizontal:
        if (c.x == d.x) return c.x;
        return ((a_.y - c.y) * (d.x - c.x) + c.x * (d.y - c.y)) / (d.y - c.y);
      case Kind::Vertical:
        if (c.y == d.y) return c.y;
        return ((a_.x - c.x) * (d.y - c.y) + c.y * (d.x - c.x)) / (d.x - c.x);
      case Kind::Sloped: {
        const Vec2 e = d - c, u = b_ - a_;
        return -cross(c, d, a_) / (e.x * u.y - e.y * u.x);
      }
    }
    return 0;
  }

  // Where the shifted line (an infinitesimal step to the tested side) lies inside the
  // closed ring (interior on the left), as closed stretches appended to `out`.
  void ring_cover(const std::vector<Vec2>& ring, std::vector<std::pair<double, double>>& out) const {
    std::vector<double> xs;
    const auto shifted_side = [&](int s) { return s != 0 ? s : -side_; };
    for (std::size_t i = 0, n = ring.size(); i < n; ++i) {
      const Vec2 c = ring[i], d = ring[(i + 1) % n];
      const int sc = side_of(c), sd = side_of(d);
      if (shifted_side(sc) == shifted_side(sd)) continue;
      xs.push_back(sc == 0 ? position(c) : sd == 0 ? position(d) : crossing(c, d));
    }
    std::sort(xs.begin(), xs.end());
    for (std::size_t k = 0; k + 1 < xs.size(); k += 2) out.emplace_back(xs[k], xs[k + 1]);
  }

  // The chord of a disc, appended to `out` (nothing when the line misses or touches it).
  void disc_cover(Vec2 o, double r, std::vector<std::pair<double, double>>& out) const {
    switch (kind_) {
      case Kind::Horizontal:
      case Kind::Vertical: {
        const bool h = kind_ == Kind::Horizontal;
        const double off = h ? a_.y - o.y : a_.x - o.x;
        const double h2 = r * r - off * off;
        if (!(h2 > 0)) return;
        const double m = h ? o.x : o.y, w = std::sqrt(h2);
        out.emplace_back(m - w, m + w);
        return;
      }
      case Kind::Sloped: {
        const Vec2 d = b_ - a_, f = a_ - o;
        const double qa = d.x * d.x + d.y * d.y, qb = d.x * f.x + d.y * f.y,
                     qc = f.x * f.x + f.y * f.y - r * r;
        const double disc = qb * qb - qa * qc;
        if (!(disc > 0)) return;
        const double w = std::sqrt(disc);
        out.emplace_back((-qb - w) / qa, (-qb + w) / qa);
        return;
      }
    }
  }

  // The stretch of the segment [a, b] inside the closed box whose tested side faces into
  // the box; false when it has no length.
  bool within_box(Vec2 lo, Vec2 hi, double& p0, double& p1) const {
    switch (kind_) {
      case Kind::Horizontal: {
        if (a_.y < lo.y || a_.y > hi.y) return false;
        const int up = side_ * (b_.x > a_.x ? 1 : -1);  // +1: the tested side is +y
        if ((a_.y == lo.y && up < 0) || (a_.y == hi.y && up > 0)) return false;
        p0 = std::max(lo.x, std::min(a_.x, b_.x));
        p1 = std::min(hi.x, std::max(a_.x, b_.x));
        return p0 < p1;
      }
      case Kind::Vertical: {
        if (a_.x < lo.x || a_.x > hi.x) return false;
        const int right = side_ * (b_.y > a_.y ? -1 : 1);  // +1: the tested side is +x
        if ((a_.x == lo.x && right < 0) || (a_.x == hi.x && right > 0)) return false;
        p0 = std::max(lo.y, std::min(a_.y, b_.y));
        p1 = std::min(hi.y, std::max(a_.y, b_.y));
        return p0 < p1;
      }
      case Kind::Sloped: {
        p0 = 0;
        p1 = 1;
        const double d[2] = {b_.x - a_.x, b_.y - a_.y}, s[2] = {a_.x, a_.y};
        const double mins[2] = {lo.x, lo.y}, maxs[2] = {hi.x, hi.y};
        for (int axis = 0; axis < 2; ++axis) {
          double ta = (mins[axis] - s[axis]) / d[axis], tb = (maxs[axis] - s[axis]) / d[axis];
          if (ta > tb) std::swap(ta, tb);
          p0 = std::max(p0, ta);
          p1 = std::min(p1, tb);
        }
        return p0 < p1;
      }
    }
    return false;
  }

 private:
  enum class Kind { Horizontal, Vertical, Sloped };
  Vec2 a_, b_;
  int side_ = 1;
  Kind kind_ = Kind::Sloped;
};

// True when the closed stretches cover [p0, p1].
bool stretches_cover(std::vector<std::pair<double, double>>& stretches, double p0, double p1) {
  std::sort(stretches.begin(), stretches.end());
  double reached = p0;
  for (const auto& [s, e] : stretches) {
    if (s > reached) break;
    reached = std::max(reached, e);
    if (reached >= p1) return true;
  }
  return reached >= p1;
}

// The boundary pieces and shapes of one test: rings of the rectangles and polygons
// (interior on the left), and the discs.
struct Piece {
  const Shape* shape = nullptr;
  const std::vector<Vec2>* ring = nullptr;  // empty for a disc
};

// True when the tested side of segment [a, b] is covered, within the box, by the pieces
// other than `own`.
bool edge_covered(Vec2 a, Vec2 b, int side, std::size_t own, const std::vector<Piece>& pieces, Vec2 lo,
                  Vec2 hi) {
  const TestLine line(a, b, side);
  double p0 = 0, p1 = 0;
  if (!line.within_box(lo, hi, p0, p1)) return true;
  std::vector<std::pair<double, double>> stretches;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i == own) continue;
    if (pieces[i].ring->empty()) {
      line.disc_cover(pieces[i].shape->center, pieces[i].shape->radius, stretches);
    } else {
      line.ring_cover(*pieces[i].ring, stretches);
    }
  }
  return stretches_cover(stretches, p0, p1);
}

// Angles on circle (o, r) where it meets segment [c, d].
void circle_segment_angles(Vec2 o, double r, Vec2 c, Vec2 d, std::vector<double>& out) {
  const Vec2 e = d - c, f = c - o;
  const double qa = e.x * e.x + e.y * e.y, qb = e.x * f.x + e.y * f.y, qc = f.x * f.x + f.y * f.y - r * r;
  const double disc = qb * qb - qa * qc;
  if (disc < 0 || qa == 0) return;
  const double w = std::sqrt(disc);
  for (const double t : {(-qb - w) / qa, (-qb + w) / qa}) {
    if (t < 0 || t > 1) continue;
    const Vec2 p = c + e * t;
    out.push_back(std::atan2(p.y - o.y, p.x - o.x));
  }
}

// True when the outside of circle piece `own` next to its rim is covered within the box.
bool rim_covered(std::size_t own, const std::vector<Piece>& pieces, Vec2 lo, Vec2 hi) {
  const Shape& c = *pieces[own].shape;
  const Vec2 o = c.center;
  const double r = c.radius;
  std::vector<double> angles;
  const Vec2 box[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  for (int k = 0; k < 4; ++k) circle_segment_angles(o, r, box[k], box[(k + 1) % 4], angles);
  const auto same_circle = [&](const Shape& s) {
    return s.kind == ShapeKind::Circle && s.center == o && s.radius == r;
  };
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i == own) continue;
    const Piece& p = pieces[i];
    if (!p.ring->empty()) {
      const std::vector<Vec2>& ring = *p.ring;
      for (std::size_t k = 0, n = ring.size(); k < n; ++k)
        circle_segment_angles(o, r, ring[k], ring[(k + 1) % n], angles);
      continue;
    }
    const Shape& s = *p.shape;
    const Vec2 v = s.center - o;
    const double dist = std::sqrt(v.x * v.x + v.y * v.y);
    if (dist == 0 || dist > r + s.radius || dist < std::abs(r - s.radius)) continue;
    const double cos_a = std::clamp((r * r + dist * dist - s.radius * s.radius) / (2 * r * dist), -1.0, 1.0);
    const double phi = std::atan2(v.y, v.x), alpha = std::acos(cos_a);
    angles.push_back(phi - alpha);
    angles.push_back(phi + alpha);
  }
  for (double& a : angles) a = std::remainder(a, kTwoPi);  // into [-pi, pi]
  std::sort(angles.begin(), angles.end());
  if (angles.empty()) angles.push_back(0);
  for (std::size_t k = 0; k < angles.size(); ++k) {
    const double a0 = angles[k];
    const double a1 = k + 1 < angles.size() ? angles[k + 1] : angles[0] + kTwoPi;
    if (angles.size() > 1 && !(a0 < a1)) continue;
    const double mid = angles.size() == 1 ? a0 + kTwoPi / 2 : (a0 + a1) * 0.5;
    const Vec2 m{o.x + r * std::cos(mid), o.y + r * std::sin(mid)};
    if (m.x < lo.x || m.x > hi.x || m.y < lo.y || m.y > hi.y) continue;
    bool covered = false;
    for (std::size_t i = 0; i < pieces.size() && !covered; ++i) {
      if (i == own || same_circle(*pieces[i].shape)) continue;
      covered = contains_point(*pieces[i].shape, m);
    }
    if (!covered) return false;
  }
  return true;
}

}  // namespace

bool shape_contains_box(const Shape& s, Vec2 lo, Vec2 hi) {
  switch (s.kind) {
    case ShapeKind::Rect: return s.min.x <= lo.x && hi.x <= s.max.x && s.min.y <= lo.y && hi.y <= s.max.y;
    case ShapeKind::Circle: {
      // A disc is convex: it holds the box when it holds the four corners.
      const double r2 = s.radius * s.radius;
      for (const Vec2 k : {lo, hi, Vec2{lo.x, hi.y}, Vec2{hi.x, lo.y}}) {
        const Vec2 d = k - s.center;
        if (!(d.x * d.x + d.y * d.y <= r2)) return false;
      }
      return true;
    }
    case ShapeKind::Polygon: {
      // No edge through the open box: it lies wholly inside or outside, as its centre.
      if (!point_in_polygon((lo + hi) * 0.5, s.points)) return false;
      for (std::size_t k = 0, n = s.points.size(); k < n; ++k) {
        if (segment_crosses_open_box(s.points[k], s.points[(k + 1) % n], lo, hi)) return false;
      }
      return true;
    }
  }
  return false;
}

bool shape_overlaps_open_box(const Shape& s, Vec2 lo, Vec2 hi) {
  switch (s.kind) {
    case ShapeKind::Rect: return s.min.x < hi.x && lo.x < s.max.x && s.min.y < hi.y && lo.y < s.max.y;
    case ShapeKind::Circle: return disc_overlaps_open_box(s.center, s.radius, lo, hi);
    case ShapeKind::Polygon: return polygon_overlaps_open_box(s.points, lo, hi);
  }
  return false;
}

ShapeUnion::ShapeUnion(std::span<const Shape* const> shapes) : shapes_(shapes.begin(), shapes.end()) {
  for (const Shape* s : shapes_) {
    Box2 b;
    switch (s->kind) {
      case ShapeKind::Rect: b = Box2{s->min, s->max}; break;
      case ShapeKind::Circle: b = Box2{s->center - Vec2(s->radius), s->center + Vec2(s->radius)}; break;
      case ShapeKind::Polygon:
        for (const Vec2& p : s->points) b = b.united(Box2::of(p));
        break;
    }
    bounds_.push_back(b);
    rings_.push_back(s->kind == ShapeKind::Circle ? std::vector<Vec2>{} : ccw_ring(*s));
  }
}

bool ShapeUnion::covers_box(Vec2 lo, Vec2 hi) const {
  std::vector<Piece> pieces;
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    const Box2& b = bounds_[i];
    if (!(b.lo.x < hi.x && lo.x < b.hi.x && b.lo.y < hi.y && lo.y < b.hi.y)) continue;  // misses the open box
    const Shape& s = *shapes_[i];
    if (shape_contains_box(s, lo, hi)) return true;
    if (shape_overlaps_open_box(s, lo, hi)) pieces.push_back(Piece{&s, &rings_[i]});
  }
  // One shape that does not hold the box leaves part of it uncovered.
  if (pieces.size() < 2) return false;
  // The box's sides, tested inwards (on the left of a counter-clockwise ring).
  const Vec2 box[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  for (int k = 0; k < 4; ++k) {
    if (!edge_covered(box[k], box[(k + 1) % 4], +1, pieces.size(), pieces, lo, hi)) return false;
  }
  // Every shape's boundary, tested outwards (on the right of its ring).
  for (std::size_t j = 0; j < pieces.size(); ++j) {
    const std::vector<Vec2>& ring = *pieces[j].ring;
    if (ring.empty()) {
      if (!rim_covered(j, pieces, lo, hi)) return false;
      continue;
    }
    for (std::size_t k = 0, n = ring.size(); k < n; ++k) {
      const Vec2 a = ring[k], b = ring[(k + 1) % n];
      if (a == b) continue;
      if (!edge_covered(a, b, -1, j, pieces, lo, hi)) return false;
    }
  }
  return true;
}

bool union_covers_box(std::span<const Shape* const> shapes, Vec2 lo, Vec2 hi) {
  return ShapeUnion(shapes).covers_box(lo, hi);
}

}  // namespace pathscope
