// Line of sight with a uniform bucket grid over the obstacle edges.
//
// Each edge goes into every bucket its closed bounding box meets (grown by a hair, so a
// walk that rounds to the neighbouring bucket still finds it). A segment walks the
// buckets it passes through in order (Amanatides and Woo's grid traversal) and tests
// each edge once (a stamp per edge), stopping at the first that blocks.
//
// An edge a -> b blocks [p, q] when (inside is on the left of every edge):
//  - they cross properly (strict signs on both sides); or
//  - a lies on [p, q] and the segment leaves a, towards p or towards q, strictly into
//    the obstacle's wedge at a (b is handled by the edge that starts at b, which lies in
//    the same buckets); where a ring touches itself or another at a (a vertex on a
//    foreign edge) the wedge does not tell, and a point 1e-6 m off a is tested; or
//  - p (or q) lies inside the open edge and the segment turns to the edge's left.
// Otherwise the segment only touches boundaries, which is allowed. Together these decide
// "no point of [p, q] is inside an obstacle" for segments with an endpoint outside or on
// the boundary, which is all the planner asks (its points are checked with inside()).

#include "planner/visgraph/segment_index.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "planner/core/geometry.hpp"

namespace pathscope::visgraph {
namespace {

int sgn(double v) { return (v > 0) - (v < 0); }
double cross2(Vec2 u, Vec2 v) { return u.x * v.y - u.y * v.x; }
bool within(Vec2 a, Vec2 b, Vec2 x) {
  return std::min(a.x, b.x) <= x.x && x.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= x.y &&
         x.y <= std::max(a.y, b.y);
}
double param(Vec2 p, Vec2 q, Vec2 x) {
  const Vec2 d = q - p;
  const double dd = d.x * d.x + d.y * d.y;
  return dd > 0 ? ((x - p).x * d.x + (x - p).y * d.y) / dd : 0.0;
}

}  // namespace

SegmentIndex::SegmentIndex(const std::vector<Ring>& rings) {
  for (const Ring& ring : rings) {
    const std::uint32_t base = std::uint32_t(pos_.size());
    const std::uint32_t n = std::uint32_t(ring.points.size());
    for (std::uint32_t i = 0; i < n; ++i) {
      pos_.push_back(ring.points[i]);
      prev_.push_back(base + (i + n - 1) % n);
      next_.push_back(base + (i + 1) % n);
    }
  }
  stamp_.assign(pos_.size(), 0);
  inside_stamp_.assign(pos_.size(), 0);
  touching_.assign(pos_.size(), 0);
  if (pos_.empty()) return;
  Box2 box = Box2::of(pos_[0]);
  for (const Vec2& p : pos_) box = box.united(Box2::of(p));
  const Vec2 size = box.size();
  // About two edges per bucket on a uniform spread; at most 2048 buckets a side.
  const double area = std::max(size.x, 1e-9) * std::max(size.y, 1e-9);
  cell_ = std::sqrt(area / double(pos_.size())) * 1.5;
  cell_ = std::max({cell_, size.x / 2048.0, size.y / 2048.0, 1e-6});
  lo_ = box.lo;
  nx_ = int(size.x / cell_) + 1;
  ny_ = int(size.y / cell_) + 1;
  const auto range = [&](std::uint32_t e, int& x0, int& y0, int& x1, int& y1) {
    const Vec2 a = pos_[e], b = pos_[next_[e]];
    constexpr double kHair = 1e-7;
    x0 = std::clamp(int(std::floor((std::min(a.x, b.x) - lo_.x) / cell_ - kHair)), 0, nx_ - 1);
    y0 = std::clamp(int(std::floor((std::min(a.y, b.y) - lo_.y) / cell_ - kHair)), 0, ny_ - 1);
    x1 = std::clamp(int(std::floor((std::max(a.x, b.x) - lo_.x) / cell_ + kHair)), 0, nx_ - 1);
    y1 = std::clamp(int(std::floor((std::max(a.y, b.y) - lo_.y) / cell_ + kHair)), 0, ny_ - 1);
  };
  bucket_start_.assign(std::size_t(nx_) * std::size_t(ny_) + 1, 0);
  for (std::uint32_t e = 0; e < pos_.size(); ++e) {
    int x0, y0, x1, y1;
    range(e, x0, y0, x1, y1);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) ++bucket_start_[std::size_t(y) * std::size_t(nx_) + std::size_t(x) + 1];
    }
  }
  for (std::size_t i = 1; i < bucket_start_.size(); ++i) bucket_start_[i] += bucket_start_[i - 1];
  bucket_edges_.resize(bucket_start_.back());
  std::vector<std::uint32_t> fill(bucket_start_.begin(), bucket_start_.end() - 1);
  for (std::uint32_t e = 0; e < pos_.size(); ++e) {
    int x0, y0, x1, y1;
    range(e, x0, y0, x1, y1);
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x)
        bucket_edges_[fill[std::size_t(y) * std::size_t(nx_) + std::size_t(x)]++] = e;
    }
  }
  // Vertices where a ring touches itself or another (a vertex on a foreign edge): there
  // the vertex's own wedge does not say what is inside; blocks() asks inside() instead.
  for (std::uint32_t v = 0; v < pos_.size(); ++v) {
    const Vec2 p = pos_[v];
    const int bx = std::clamp(int(std::floor((p.x - lo_.x) / cell_)), 0, nx_ - 1);
    const int by = std::clamp(int(std::floor((p.y - lo_.y) / cell_)), 0, ny_ - 1);
    const std::size_t b = std::size_t(by) * std::size_t(nx_) + std::size_t(bx);
    for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1] && !touching_[v]; ++k) {
      const std::uint32_t e = bucket_edges_[k];
      if (e == v || e == prev_[v]) continue;
      const Vec2 a = pos_[e], c = pos_[next_[e]];
      if (cross(a, c, p) == 0 && within(a, c, p)) touching_[v] = 1;
    }
  }
}

bool SegmentIndex::convex(std::uint32_t v) const {
  return cross(pos_[prev_[v]], pos_[v], pos_[next_[v]]) > 0;
}

bool SegmentIndex::enters(std::uint32_t v, Vec2 d) const {
  const Vec2 u = pos_[next_[v]] - pos_[v];
  const Vec2 w = pos_[prev_[v]] - pos_[v];
  const double c = cross2(u, w);
  // The inside runs counter-clockwise (positive cross) from u to w.
  if (c > 0) return cross2(u, d) > 0 && cross2(d, w) > 0;
  if (c < 0) return !(cross2(w, d) >= 0 && cross2(d, u) >= 0);
  return cross2(u, d) > 0;  // a straight vertex
}

bool SegmentIndex::tangent(std::uint32_t v, Vec2 d) const {
  const Vec2 o = pos_[v];
  const int a = sgn(cross2(d, pos_[prev_[v]] - o));
  const int b = sgn(cross2(d, pos_[next_[v]] - o));
  return a * b >= 0;
}

bool SegmentIndex::blocks(Vec2 p, Vec2 q, std::uint32_t ai, double* t) const {
  ++edge_tests_;
  const Vec2 a = pos_[ai], b = pos_[next_[ai]];
  const int oa = sgn(cross(p, q, a)), ob = sgn(cross(p, q, b));
  const double cp = cross(a, b, p), cq = cross(a, b, q);
  if (oa * ob < 0 && sgn(cp) * sgn(cq) < 0) {
    if (t) *t = cp / (cp - cq);
    return true;
  }
  if (oa == 0 && within(p, q, a)) {
    // Just off the vertex towards each end: inside an obstacle?
    const auto into = [&](Vec2 to) {
      if (!touching_[ai]) return enters(ai, to - a);
      const Vec2 d = to - a;
      return inside(a + d * (1e-6 / std::sqrt(d.x * d.x + d.y * d.y)));
    };
    if ((a != q && into(q)) || (a != p && into(p))) {
      if (t) *t = param(p, q, a);
      return true;
    }
  }
  if (cp == 0 && p != a && p != b && within(a, b, p) && cross2(b - a, q - p) > 0) {
    if (t) *t = 0;
    return true;
  }
  if (cq == 0 && q != a && q != b && within(a, b, q) && cross2(b - a, p - q) > 0) {
    if (t) *t = 1;
    return true;
  }
  return false;
}

template <class Fn>
void SegmentIndex::walk(Vec2 p, Vec2 q, Fn&& fn) const {
  if (nx_ == 0) return;
  if (++current_ == 0) {
    std::fill(stamp_.begin(), stamp_.end(), 0);
    current_ = 1;
  }
  const double gx = (p.x - lo_.x) / cell_, gy = (p.y - lo_.y) / cell_;
  const double hx = (q.x - lo_.x) / cell_, hy = (q.y - lo_.y) / cell_;
  int ix = std::clamp(int(std::floor(gx)), 0, nx_ - 1), iy = std::clamp(int(std::floor(gy)), 0, ny_ - 1);
  const int jx = std::clamp(int(std::floor(hx)), 0, nx_ - 1),
            jy = std::clamp(int(std::floor(hy)), 0, ny_ - 1);
  const double dx = hx - gx, dy = hy - gy;
  const int sx = dx > 0 ? 1 : (dx < 0 ? -1 : 0), sy = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double tx = sx != 0 ? ((ix + (sx > 0 ? 1 : 0)) - gx) / dx : kInf;
  double ty = sy != 0 ? ((iy + (sy > 0 ? 1 : 0)) - gy) / dy : kInf;
  const double ddx = sx != 0 ? 1.0 / std::abs(dx) : kInf, ddy = sy != 0 ? 1.0 / std::abs(dy) : kInf;
  int budget = std::abs(jx - ix) + std::abs(jy - iy) + 1;
  for (;;) {
    const std::size_t b = std::size_t(iy) * std::size_t(nx_) + std::size_t(ix);
    for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
      const std::uint32_t e = bucket_edges_[k];
      if (stamp_[e] == current_) continue;
      stamp_[e] = current_;
      if (fn(e)) return;
    }
    if ((ix == jx && iy == jy) || --budget <= 0) return;
    if (tx < ty) {
      if (ix == jx) {  // rounding: the x walk is done, finish in y
        tx = kInf;
        continue;
      }
      ix += sx;
      tx += ddx;
    } else {
      if (iy == jy) {
        ty = kInf;
        if (tx == kInf) return;
        continue;
      }
      iy += sy;
      ty += ddy;
    }
  }
}

bool SegmentIndex::visible(Vec2 p, Vec2 q) const { return blocker(p, q) == kNoEdge; }

std::uint32_t SegmentIndex::blocker(Vec2 p, Vec2 q) const {
  if (p == q) return kNoEdge;
  std::uint32_t found = kNoEdge;
  walk(p, q, [&](std::uint32_t e) {
    if (!blocks(p, q, e, nullptr)) return false;
    found = e;
    return true;
  });
  return found;
}

bool SegmentIndex::crosses(Vec2 p, Vec2 q, std::uint32_t e) const {
  const Vec2 a = pos_[e], b = pos_[next_[e]];
  return sgn(cross(p, q, a)) * sgn(cross(p, q, b)) < 0 && sgn(cross(a, b, p)) * sgn(cross(a, b, q)) < 0;
}

std::vector<Crossing> SegmentIndex::crossings(Vec2 p, Vec2 q) const {
  std::vector<Crossing> out;
  if (p == q) return out;
  walk(p, q, [&](std::uint32_t e) {
    double t = 0;
    if (blocks(p, q, e, &t)) out.push_back(Crossing{t, e});
    return false;
  });
  std::sort(out.begin(), out.end(), [](const Crossing& a, const Crossing& b) {
    return a.t != b.t ? a.t < b.t : a.vertex < b.vertex;
  });
  return out;
}

bool SegmentIndex::inside(Vec2 p) const {
  if (nx_ == 0) return false;
  if (p.y < lo_.y || p.y > lo_.y + ny_ * cell_) return false;
  if (++inside_current_ == 0) {
    std::fill(inside_stamp_.begin(), inside_stamp_.end(), 0);
    inside_current_ = 1;
  }
  const int iy = std::clamp(int(std::floor((p.y - lo_.y) / cell_)), 0, ny_ - 1);
  const int ix0 = std::clamp(int(std::floor((p.x - lo_.x) / cell_)), 0, nx_ - 1);
  bool in = false;
  // A ray towards +x: every edge it crosses lies in a bucket of p's row, right of p.
  for (int ix = ix0; ix < nx_; ++ix) {
    const std::size_t b = std::size_t(iy) * std::size_t(nx_) + std::size_t(ix);
    for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
      const std::uint32_t e = bucket_edges_[k];
      if (inside_stamp_[e] == inside_current_) continue;
      inside_stamp_[e] = inside_current_;
      const Vec2 a = pos_[e], c = pos_[next_[e]];
      if (cross(a, c, p) == 0 && within(a, c, p)) return false;  // on the boundary
      if ((a.y > p.y) != (c.y > p.y)) {
        const double x = a.x + (p.y - a.y) / (c.y - a.y) * (c.x - a.x);
        if (x > p.x) in = !in;
      }
    }
  }
  return in;
}

}  // namespace pathscope::visgraph
