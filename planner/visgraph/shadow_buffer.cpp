// The shadow buffer (see the header).
//
// Directions are measured by a pseudo-angle in [0, 4) (a quarter turn per unit, exact to
// a few ulps, no trigonometry), and sector k spans [k w, (k + 1) w), w = 4 / sectors. An
// edge seen from the origin under the open pseudo-angles (lo, hi), less than half a turn
// apart, shadows the sectors that lie inside them with a margin. Within one such sector
// the edge's piece runs between the sector's two boundary rays, and the distance to a
// point moving along a segment is convex, so the piece is no farther than the larger of
// its distances along those rays: every point of the sector beyond that (with a margin
// for rounding) is behind the edge, and the segment to it crosses the edge properly, away
// from both ends. Blocks of sectors keep their deepest sector, so a wide box is tested a
// block at a time.

#include "planner/visgraph/shadow_buffer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathscope::visgraph {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTurn = 4;  // pseudo-angle of a full turn
// Pseudo-angle units: far above the rounding of pseudo_angle(), far below a sector.
constexpr double kAngleMargin = 1e-9;
// Distances: relative and absolute margins over the rounding of the reach.
constexpr double kRelativeMargin = 1e-9;
constexpr double kAbsoluteMargin = 1e-9;

double cross2(Vec2 u, Vec2 v) { return u.x * v.y - u.y * v.x; }

// Monotone counter-clockwise in the angle of v (not zero), 0 along +x; opposite
// directions differ by exactly 2.
double pseudo_angle(Vec2 v) {
  const double p = v.y / (std::abs(v.x) + std::abs(v.y));
  if (v.x < 0) return 2 - p;
  return v.y < 0 ? kTurn + p : p;
}

// A unit direction of pseudo-angle t in [0, 4].
Vec2 direction_of(double t) {
  Vec2 v;
  if (t <= 1) {
    v = {1 - t, t};
  } else if (t <= 3) {
    const double p = 2 - t;
    v = {-(1 - std::abs(p)), p};
  } else {
    const double p = t - kTurn;
    v = {1 + p, p};
  }
  return v / std::sqrt(v.x * v.x + v.y * v.y);
}

}  // namespace

ShadowBuffer::ShadowBuffer(int sectors) {
  sectors = std::max(kBlock, (std::max(sectors, kBlock) / kBlock) * kBlock);
  width_ = kTurn / sectors;
  depth_.assign(static_cast<std::size_t>(sectors), kInf);
  block_.assign(static_cast<std::size_t>(sectors / kBlock), kInf);
  ray_.resize(static_cast<std::size_t>(sectors) + 1);
  for (int k = 0; k <= sectors; ++k) ray_[static_cast<std::size_t>(k)] = direction_of(k * width_);
}

void ShadowBuffer::reset(Vec2 origin) {
  origin_ = origin;
  std::fill(depth_.begin(), depth_.end(), kInf);
  std::fill(block_.begin(), block_.end(), kInf);
}

void ShadowBuffer::add_edge(Vec2 a, Vec2 b) {
  Vec2 lo = a - origin_, hi = b - origin_;
  const double turn = cross2(lo, hi);
  if (!(turn != 0)) return;  // through the origin's line (or not a number)
  if (turn < 0) std::swap(lo, hi);
  const long n = sectors();
  const double start = pseudo_angle(lo);
  double end = pseudo_angle(hi);
  if (end < start) end += kTurn;
  // Boundaries first..last lie within the edge's angles; sectors first..last-1 are shadowed.
  const long first = static_cast<long>(std::ceil((start + kAngleMargin) / width_));
  const long last = static_cast<long>(std::floor((end - kAngleMargin) / width_));
  if (last <= first) return;
  const Vec2 d = hi - lo;
  const double num = cross2(lo, d);
  // No sector nearer than the edge's closest point gains: those are skipped unread.
  const double dd = d.x * d.x + d.y * d.y;
  const double t = std::clamp(-(lo.x * d.x + lo.y * d.y) / dd, 0.0, 1.0);
  const Vec2 c = lo + d * t;
  const double closest = std::sqrt(c.x * c.x + c.y * c.y);
  const auto reach = [&](long k) {
    const double den = cross2(ray_[static_cast<std::size_t>(k % n)], d);
    const double r = den != 0 ? num / den : kInf;
    return r > 0 ? r : kInf;
  };
  long known = -1;  // the boundary whose reach is in `previous`
  double previous = 0;
  for (long k = first; k < last;) {
    const long s = k % n;
    if (s % kBlock == 0 && k + kBlock <= last && block_[static_cast<std::size_t>(s / kBlock)] <= closest) {
      k += kBlock;
      continue;
    }
    double& depth = depth_[static_cast<std::size_t>(s)];
    if (depth <= closest) {
      ++k;
      continue;
    }
    const double r0 = known == k ? previous : reach(k);
    const double r1 = reach(k + 1);
    known = k + 1;
    previous = r1;
    const double bound = std::max(r0, r1) * (1 + kRelativeMargin) + kAbsoluteMargin;
    if (bound < depth) {
      const double old = depth;
      depth = bound;
      // Blocks keep their deepest sector: it may have been this one.
      const std::size_t b = static_cast<std::size_t>(s / kBlock);
      if (old == block_[b]) {
        const auto begin = depth_.begin() + static_cast<std::ptrdiff_t>(b * kBlock);
        block_[b] = *std::max_element(begin, begin + kBlock);
      }
    }
    ++k;
  }
}

bool ShadowBuffer::hides(const Box2& box) const {
  if (box.empty()) return false;
  const double dx = std::max({box.lo.x - origin_.x, 0.0, origin_.x - box.hi.x});
  const double dy = std::max({box.lo.y - origin_.y, 0.0, origin_.y - box.hi.y});
  const double near = std::sqrt(dx * dx + dy * dy);
  if (!(near > 0)) return false;
  // The box's pseudo-angles, round the direction of its centre (which lies among them;
  // the box spans less than half a turn).
  const double mid = pseudo_angle(box.center() - origin_);
  double lo = kInf, hi = -kInf;
  for (const Vec2 k : {box.lo, box.hi, Vec2{box.lo.x, box.hi.y}, Vec2{box.hi.x, box.lo.y}}) {
    double delta = pseudo_angle(k - origin_) - mid;
    if (delta > kTurn / 2) delta -= kTurn;
    if (delta < -kTurn / 2) delta += kTurn;
    lo = std::min(lo, delta);
    hi = std::max(hi, delta);
  }
  const long n = sectors();
  long k = static_cast<long>(std::floor((mid + lo - kAngleMargin) / width_));
  const long last = static_cast<long>(std::floor((mid + hi + kAngleMargin) / width_));
  if (last - k >= n) return false;
  while (k <= last) {
    const long s = ((k % n) + n) % n;
    if (s % kBlock == 0 && k + kBlock - 1 <= last) {
      if (!(block_[static_cast<std::size_t>(s / kBlock)] < near)) return false;
      k += kBlock;
      continue;
    }
    if (!(depth_[static_cast<std::size_t>(s)] < near)) return false;
    ++k;
  }
  return true;
}

}  // namespace pathscope::visgraph
