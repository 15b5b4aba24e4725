// The cost model of seed 001, section 3: a segment costs
//   (dist - threatDist - safeDist) * c1 + threatDist * c2,   c1 + c2 = 1,
// with threatDist and safeDist the segment's lengths inside threats and inside safe
// areas (segment_exposure.hpp: union rule, threat wins over ally). Section 5's future
// work as options: fading (a threat weighs less away from its centre) and occlusion
// ("allow obstacles to block a threat's influence area").
//
// Occlusion is exact for grid obstacles: a point p of a segment is hidden from a threat
// when the segment from the threat's centre c to p meets an impassable cell of the
// movement class (features count as the grid rasterises them), the cell holding c
// excepted, so a threat standing on an obstacle still sees out. Only blocked cells that
// meet the disc can hide anything inside it (c-p stays inside the disc); they are listed
// once per threat and field.
//
// The shadow of one square from c, {c + s (q - c) : q in the square, s >= 1}, is convex:
// the wedge between the square's two silhouette corners, cut by the half-planes behind
// its front edges (those c sees from outside, or stands on). So along the line
// p(t) = a + t u each half-plane is a linear inequality in t, and the shadow is one
// interval, clipped exactly (Cyrus-Beck). The visible part of a chord is the chord minus
// the union of these intervals. When c lies on a square's boundary, the front-edge
// half-planes alone are its shadow. Whether two shadows touch, or a ray grazes a corner,
// changes the result on sets of length zero only. Cost: a bounding-box test per blocked
// cell in the disc, and at most six half-planes for those inside the triangle c, p(t0),
// p(t1). The heat map and factor_at() still ask per cell centre (sees()).

#include "planner/tactical/threat_field.hpp"

#include <algorithm>
#include <cmath>

namespace pathscope::tactical {

ThreatField::ThreatField(const PlanningWorld& world, std::size_t movement_class,
                         const CostModelParams& params)
    : params_(params) {
  const Scenario& s = world.scenario();
  for (const Influence& t : s.threats) {
    if (t.strength > 0) threats_.push_back(Disc{t.center, t.radius});
  }
  for (const Influence& a : s.allies) {
    if (a.strength > 0) allies_.push_back(Disc{a.center, a.radius});
  }
  const CostGrid& grid = world.grid(movement_class);
  cell_size_ = grid.cell_size();
  width_ = grid.width();
  height_ = grid.height();
  threat_scratch_.resize(threats_.size());
  if (!params_.occlusion) return;
  visibility_.resize(threats_.size());
  blockers_.resize(threats_.size());
  for (std::size_t i = 0; i < threats_.size(); ++i) {
    const Disc& d = threats_[i];
    Visibility& v = visibility_[i];
    v.rect = CellRect{int(std::floor((d.center.x - d.radius) / cell_size_)),
                      int(std::floor((d.center.y - d.radius) / cell_size_)),
                      int(std::floor((d.center.x + d.radius) / cell_size_)) + 1,
                      int(std::floor((d.center.y + d.radius) / cell_size_)) + 1}
                 .intersected(CellRect{0, 0, width_, height_});
    v.seen.assign(std::size_t(v.rect.width()) * std::size_t(v.rect.height()), 0);
    const int cx = int(std::floor(d.center.x / cell_size_)), cy = int(std::floor(d.center.y / cell_size_));
    for (int y = v.rect.y0; y < v.rect.y1; ++y) {
      for (int x = v.rect.x0; x < v.rect.x1; ++x) {
        const Vec2 target{(x + 0.5) * cell_size_, (y + 0.5) * cell_size_};
        bool clear = true;
        walk_cells(d.center, target, cell_size_, width_, height_, [&](int wx, int wy, double, double) {
          if ((wx != cx || wy != cy) && !grid.passable(grid.index(wx, wy))) clear = false;
        });
        v.seen[std::size_t(y - v.rect.y0) * std::size_t(v.rect.width()) + std::size_t(x - v.rect.x0)] =
            clear ? 1 : 0;
        if ((x == cx && y == cy) || grid.passable(grid.index(x, y))) continue;
        const Square q{x * cell_size_, y * cell_size_, (x + 1) * cell_size_, (y + 1) * cell_size_};
        const double nx = std::clamp(d.center.x, q.x0, q.x1) - d.center.x,
                     ny = std::clamp(d.center.y, q.y0, q.y1) - d.center.y;
        if (nx * nx + ny * ny < d.radius * d.radius) blockers_[i].push_back(q);
      }
    }
  }
}

bool ThreatField::sees(std::size_t i, int x, int y) const {
  if (!params_.occlusion) return true;
  const Visibility& v = visibility_[i];
  if (!v.rect.contains(x, y)) return false;
  return v.seen[std::size_t(y - v.rect.y0) * std::size_t(v.rect.width()) + std::size_t(x - v.rect.x0)] != 0;
}

namespace {

// Clips [lo, hi] to {t : alpha + beta t >= 0}.
void clip(double alpha, double beta, double& lo, double& hi) {
  if (beta > 0) {
    lo = std::max(lo, -alpha / beta);
  } else if (beta < 0) {
    hi = std::min(hi, -alpha / beta);
  } else if (alpha < 0) {
    hi = lo;  // parallel and outside: empty
  }
}

double cross(Vec2 p, Vec2 q) { return p.x * q.y - p.y * q.x; }

}  // namespace

void ThreatField::visible_spans(std::size_t i, Vec2 a, Vec2 b, Span chord, std::vector<Span>& out) const {
  const Vec2 c = threats_[i].center;
  const Vec2 ab = b - a;
  const double len = std::sqrt(ab.x * ab.x + ab.y * ab.y);
  if (!(len > 0) || !(chord.t1 > chord.t0)) return;
  const Vec2 u = ab / len;
  const Vec2 p0 = a + u * chord.t0, p1 = a + u * chord.t1;
  // The triangle c, p0, p1 holds every sight line; cells outside its box hide nothing.
  const double bx0 = std::min({c.x, p0.x, p1.x}), bx1 = std::max({c.x, p0.x, p1.x});
  const double by0 = std::min({c.y, p0.y, p1.y}), by1 = std::max({c.y, p0.y, p1.y});
  std::vector<Span>& hidden = hidden_scratch_;
  hidden.clear();
  const Vec2 ac = a - c;
  for (const Square& q : blockers_[i]) {
    if (q.x1 <= bx0 || q.x0 >= bx1 || q.y1 <= by0 || q.y0 >= by1) continue;
    double lo = chord.t0, hi = chord.t1;
    // Behind the front edges: p.x >= x0 when c.x <= x0, and so on.
    if (c.x <= q.x0) clip(a.x - q.x0, u.x, lo, hi);
    if (c.x >= q.x1) clip(q.x1 - a.x, -u.x, lo, hi);
    if (c.y <= q.y0) clip(a.y - q.y0, u.y, lo, hi);
    if (c.y >= q.y1) clip(q.y1 - a.y, -u.y, lo, hi);
    const bool on_boundary = c.x >= q.x0 && c.x <= q.x1 && c.y >= q.y0 && c.y <= q.y1;
    if (!on_boundary && hi > lo) {
      // The wedge between the silhouette corners, each side oriented towards the centre.
      const int col = c.x < q.x0 ? 0 : c.x > q.x1 ? 2 : 1, row = c.y < q.y0 ? 0 : c.y > q.y1 ? 2 : 1;
      // Silhouette corners per region (col, row), as (x index, y index) pairs: 0 = low, 1 = high.
      static constexpr int kCorners[3][3][4] = {
          {{0, 1, 1, 0}, {0, 0, 0, 1}, {0, 0, 1, 1}},  // col 0: rows below, middle, above
          {{0, 0, 1, 0}, {0, 0, 0, 0}, {0, 1, 1, 1}},  // col 1 (middle, middle is on_boundary)
          {{0, 0, 1, 1}, {1, 0, 1, 1}, {0, 1, 1, 0}},  // col 2
      };
      const int* k = kCorners[col][row];
      const Vec2 m{0.5 * (q.x0 + q.x1) - c.x, 0.5 * (q.y0 + q.y1) - c.y};
      for (int s = 0; s < 2; ++s) {
        const Vec2 v{(k[2 * s] ? q.x1 : q.x0) - c.x, (k[2 * s + 1] ? q.y1 : q.y0) - c.y};
        const double side = cross(v, m) > 0 ? 1.0 : -1.0;
        clip(side * cross(v, ac), side * cross(v, u), lo, hi);
      }
    }
    if (hi > lo) hidden.push_back(Span{lo, hi});
  }
  std::sort(hidden.begin(), hidden.end(),
            [](const Span& x, const Span& y) { return x.t0 < y.t0 || (x.t0 == y.t0 && x.t1 < y.t1); });
  double at = chord.t0;
  for (const Span& h : hidden) {
    if (h.t0 > at) out.push_back(Span{at, h.t0});
    at = std::max(at, h.t1);
  }
  if (chord.t1 > at) out.push_back(Span{at, chord.t1});
}

Exposure ThreatField::exposure(Vec2 a, Vec2 b) const {
  const Box2 box = Box2::spanning(a, b);
  std::size_t used = 0;
  for (std::size_t i = 0; i < threats_.size(); ++i) {
    const Disc& d = threats_[i];
    if (!box.expanded(d.radius).contains(d.center)) continue;
    const auto c = chord(a, b, d);
    if (!c) continue;
    ThreatSpans& ts = threat_scratch_[used];
    ts.disc = &d;
    ts.spans.clear();
    if (!params_.occlusion) {
      ts.spans.push_back(*c);
    } else {
      visible_spans(i, a, b, *c, ts.spans);
      if (ts.spans.empty()) continue;
    }
    ++used;
  }
  ally_scratch_.clear();
  for (const Disc& d : allies_) {
    if (!box.expanded(d.radius).contains(d.center)) continue;
    if (const auto c = chord(a, b, d)) ally_scratch_.push_back(*c);
  }
  if (used == 0 && ally_scratch_.empty()) {
    const Vec2 ab = b - a;
    return Exposure{std::sqrt(ab.x * ab.x + ab.y * ab.y), 0, 0};
  }
  return combine_spans(a, b, std::span<const ThreatSpans>(threat_scratch_.data(), used), ally_scratch_,
                       params_.fading, cut_scratch_);
}

double ThreatField::factor_at(Vec2 p) const {
  const int x = int(std::floor(p.x / cell_size_)), y = int(std::floor(p.y / cell_size_));
  double w = 0;
  bool under = false;
  for (std::size_t i = 0; i < threats_.size(); ++i) {
    const Vec2 v = p - threats_[i].center;
    const double dist = std::sqrt(v.x * v.x + v.y * v.y);
    if (!(dist <= threats_[i].radius) || !sees(i, x, y)) continue;
    under = true;
    w = std::max(w, params_.fading ? 1.0 - dist / threats_[i].radius : 1.0);
  }
  if (under) return params_.c1 * (1.0 - w) + params_.c2 * w;
  for (const Disc& d : allies_) {
    const Vec2 v = p - d.center;
    if (v.x * v.x + v.y * v.y <= d.radius * d.radius) return 0.0;
  }
  return params_.c1;
}

double ThreatField::min_factor_outside_allies() const {
  return threats_.empty() ? params_.c1 : std::min(params_.c1, params_.c2);
}

}  // namespace pathscope::tactical
