// Clearance of the hybrid's legs (leg_clearance.hpp). The grid planners ignore a unit's
// radius; the hybrid's route keeps it (the visibility graph inflates obstacles by it),
// so its legs must too, or the refined path hugs the walls the route kept away from.
//
// Distances are exact: from a point or a segment to a blocked cell's closed square (the
// world as rasterised, what a unit of the class cannot enter) and to the world's edge. A
// cell's clearance is its centre's distance to the nearest; a move keeps the radius when
// both centres do and, unless both lie farther than the radius plus half the move's
// length (every point of the move is that near one of its ends), the segment itself
// does. A hair (1e-9 m) is allowed for rounding: centres and squares are multiples of
// half a cell.

#include "planner/hybrid/leg_clearance.hpp"

#include "planner/visgraph/visibility_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pathscope {
namespace {

constexpr double kHair = 1e-9;

double point_box(Vec2 p, Vec2 lo, Vec2 hi) {
  const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x}), dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
  return std::sqrt(dx * dx + dy * dy);
}

double point_segment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 d = b - a;
  const double len2 = d.x * d.x + d.y * d.y;
  double t = len2 > 0 ? ((p.x - a.x) * d.x + (p.y - a.y) * d.y) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const Vec2 q = a + d * t - p;
  return std::sqrt(q.x * q.x + q.y * q.y);
}

// Distance from segment ab to the closed box [lo, hi]: 0 if they meet, else the least of
// the ends' distances to the box and the box corners' distances to the segment.
double segment_box(Vec2 a, Vec2 b, Vec2 lo, Vec2 hi) {
  // The visibility graph's closed-box test (Liang and Barsky); a cell's square is never empty.
  if (visgraph::segment_meets_box(a, b, Box2{lo, hi})) return 0;
  double best = std::min(point_box(a, lo, hi), point_box(b, lo, hi));
  const Vec2 corners[4] = {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}};
  for (const Vec2& c : corners) best = std::min(best, point_segment(c, a, b));
  return best;
}

}  // namespace

LegClearance::LegClearance(const CostGrid& grid, double radius, Vec2 world_size)
    : width_(grid.width()),
      height_(grid.height()),
      cell_size_(grid.cell_size()),
      radius_(radius),
      world_size_(world_size) {
  const double s = cell_size_;
  const std::size_t n = grid.cell_count();
  // A square can lie within radius + half a diagonal move of a centre only this many
  // cells away; an edit changes clearances this far round it.
  reach_ = int(std::ceil(radius / s)) + 2;
  blocked_.assign(n, 0);
  for (std::uint32_t c = 0; c < n; ++c) blocked_[c] = !grid.passable(c);

  // Each centre's distance to the nearest blocked square (spread from the blocked cells
  // next to a passable one: the nearest square is always one of those) and the edge.
  std::vector<double> dist(n, std::numeric_limits<double>::infinity());
  for (std::uint32_t c = 0; c < n; ++c) {
    const Vec2 centre = grid.center(c);
    dist[c] = std::min({centre.x, centre.y, world_size_.x - centre.x, world_size_.y - centre.y});
  }
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      if (!blocked_[grid.index(x, y)]) continue;
      bool border = false;
      for (int d = 0; d < 8 && !border; ++d) {
        const int nx = x + kDirDx[d], ny = y + kDirDy[d];
        border = grid.in_bounds(nx, ny) && !blocked_[grid.index(nx, ny)];
      }
      if (!border) continue;
      const Vec2 lo{x * s, y * s}, hi{(x + 1) * s, (y + 1) * s};
      for (int cy = std::max(0, y - reach_); cy <= std::min(height_ - 1, y + reach_); ++cy) {
        for (int cx = std::max(0, x - reach_); cx <= std::min(width_ - 1, x + reach_); ++cx) {
          const std::uint32_t c = grid.index(cx, cy);
          dist[c] = std::min(dist[c], point_box(grid.center(c), lo, hi));
        }
      }
    }
  }
  clear_.assign(n, 0);
  for (std::uint32_t c = 0; c < n; ++c) clear_[c] = !blocked_[c] && dist[c] >= radius - kHair;

  moves_.assign(n, 0);
  const double far = radius + 0.5 * kSqrt2 * s;  // beyond it, every move from the centre is clear
  for (std::uint32_t c = 0; c < n; ++c) {
    if (!clear_[c]) continue;
    std::uint8_t mask = 0;
    for (int d = 0; d < 8; ++d) {
      if (!(grid.moves(c) & (1u << d))) continue;
      const std::uint32_t v = std::uint32_t(std::int64_t(c) + grid.offsets()[d]);
      if (!clear_[v]) continue;
      if (std::min(dist[c], dist[v]) < far && !clear_segment(grid.center(c), grid.center(v))) continue;
      mask |= std::uint8_t(1u << d);
    }
    moves_[c] = mask;
  }
}

double LegClearance::nearest(Vec2 a, Vec2 b) const {
  const double s = cell_size_;
  double best = std::min({a.x, b.x, a.y, b.y, world_size_.x - a.x, world_size_.x - b.x, world_size_.y - a.y,
                          world_size_.y - b.y});
  const double r = radius_;
  const int x0 = std::max(0, int(std::floor((std::min(a.x, b.x) - r) / s)) - 1);
  const int x1 = std::min(width_ - 1, int(std::floor((std::max(a.x, b.x) + r) / s)) + 1);
  const int y0 = std::max(0, int(std::floor((std::min(a.y, b.y) - r) / s)) - 1);
  const int y1 = std::min(height_ - 1, int(std::floor((std::max(a.y, b.y) + r) / s)) + 1);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (!blocked_[std::size_t(y) * std::size_t(width_) + std::size_t(x)]) continue;
      best = std::min(best, segment_box(a, b, Vec2{x * s, y * s}, Vec2{(x + 1) * s, (y + 1) * s}));
    }
  }
  return best;
}

bool LegClearance::clear_segment(Vec2 a, Vec2 b) const { return nearest(a, b) >= radius_ - kHair; }

}  // namespace pathscope
