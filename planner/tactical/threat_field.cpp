// The cost model of seed 001, section 3: a segment costs
//   (dist - threatDist - safeDist) * c1 + threatDist * c2,   c1 + c2 = 1,
// with threatDist and safeDist the segment's lengths inside threats and inside safe
// areas (segment_exposure.hpp: union rule, threat wins over ally). Section 5's future
// work as options: fading (a threat weighs less away from its centre) and occlusion
// ("allow obstacles to block a threat's influence area").
//
// Occlusion is decided per grid cell: a point is hidden from a threat when the segment
// from the threat's centre to the centre of the point's cell crosses an impassable cell
// of the movement class (the cell holding the centre excepted, so a threat standing on
// an obstacle still sees out). Each threat's visible cells are computed once per field;
// a segment's chord through a threat then counts only on the cells that see it.

#include "planner/tactical/threat_field.hpp"

#include <algorithm>
#include <cmath>

namespace pathscope::tactical {

ThreatField::ThreatField(const PlanningWorld& world, std::size_t movement_class, const CostModelParams& params)
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
  for (std::size_t i = 0; i < threats_.size(); ++i) {
    const Disc& d = threats_[i];
    Visibility& v = visibility_[i];
    v.rect = CellRect{int(std::floor((d.center.x - d.radius) / cell_size_)), int(std::floor((d.center.y - d.radius) / cell_size_)),
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
        v.seen[std::size_t(y - v.rect.y0) * std::size_t(v.rect.width()) + std::size_t(x - v.rect.x0)] = clear ? 1 : 0;
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

Exposure ThreatField::exposure(Vec2 a, Vec2 b) const {
  const Box2 box = Box2::spanning(a, b);
  std::size_t used = 0;
  bool walked = false;
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
      if (!walked) {
        piece_scratch_.clear();
        walk_cells(a, b, cell_size_, width_, height_,
                   [&](int x, int y, double t0, double t1) { piece_scratch_.push_back(CellPiece{x, y, t0, t1}); });
        walked = true;
      }
      for (const CellPiece& p : piece_scratch_) {
        const double t0 = std::max(p.t0, c->t0), t1 = std::min(p.t1, c->t1);
        if (!(t1 > t0) || !sees(i, p.x, p.y)) continue;
        if (!ts.spans.empty() && ts.spans.back().t1 == t0) {
          ts.spans.back().t1 = t1;  // adjacent visible cells: one stretch
        } else {
          ts.spans.push_back(Span{t0, t1});
        }
      }
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

double ThreatField::min_factor() const {
  if (!allies_.empty()) return 0.0;
  return threats_.empty() ? params_.c1 : std::min(params_.c1, params_.c2);
}

}  // namespace pathscope::tactical
