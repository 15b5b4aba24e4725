// Formations and drive-to points: seed 004, "4 Formations" ("Formation movement",
// "Column formation", "Obstacle avoidance"). See platoon_formation.hpp.

#include "planner/sim/platoon_formation.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

#include <glm/geometric.hpp>

#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim {

namespace {

/// The unit vector to the left of `heading` (a quarter turn counter-clockwise on screen).
Vec2 left_vector(double heading) { return {-std::sin(heading), -std::cos(heading)}; }

Vec2 lerp(Vec2 a, Vec2 b, double t) { return a + (b - a) * t; }

/// A slot's position in `formation` for the platoon in `in`: column slots on the path by
/// rank, the others at their offsets.
Vec2 slot_position(const DriveToInput& in, const PlatoonFormation& formation,
                   std::span<const std::size_t> ranks, std::size_t slot) {
  if (formation.shape == FormationShape::Column) {
    return in.walk->point_at(in.along - static_cast<double>(ranks[slot]) * in.column_spacing);
  }
  return formation_point(in.position, in.heading, formation.offsets[slot]);
}

}  // namespace

std::string_view formation_shape_name(FormationShape shape) {
  switch (shape) {
    case FormationShape::Column: return "column";
    case FormationShape::Line: return "line";
    case FormationShape::Wedge: return "wedge";
    case FormationShape::Echelon: return "echelon";
    case FormationShape::Custom: return "custom";
  }
  return "custom";
}

PlatoonFormation make_formation(FormationShape shape, std::size_t slots, double spacing) {
  PlatoonFormation f{shape, {}};
  f.offsets.reserve(slots);
  for (std::size_t i = 0; i < slots; ++i) {
    const double k = static_cast<double>(i);
    // Slots alternate sides outwards: 1 left, 2 right, 3 further left, ...
    const double side = i % 2 == 1 ? 1.0 : -1.0;
    const double rung = static_cast<double>((i + 1) / 2);
    switch (shape) {
      case FormationShape::Column: f.offsets.push_back({-k * spacing, 0}); break;
      case FormationShape::Line: f.offsets.push_back({0, side * rung * spacing}); break;
      case FormationShape::Wedge: f.offsets.push_back({-rung * spacing, side * rung * spacing}); break;
      case FormationShape::Echelon: f.offsets.push_back({-k * spacing, -k * spacing}); break;
      case FormationShape::Custom: f.offsets.push_back({0, 0}); break;
    }
  }
  return f;
}

Vec2 formation_point(Vec2 origin, double heading, Vec2 offset) {
  return origin + direction(heading) * offset.x + left_vector(heading) * offset.y;
}

PathWalk::PathWalk(Vec2 start, double heading, std::span<const Vec2> path, double lead_in)
    : lead_in_(std::max(lead_in, 0.0)) {
  const Vec2 back = start - direction(heading) * lead_in_;
  auto add = [this](Vec2 p) {
    if (!points_.empty() && points_.back() == p) return;
    cumulative_.push_back(points_.empty() ? 0 : cumulative_.back() + glm::distance(points_.back(), p));
    points_.push_back(p);
  };
  add(back);
  add(start);
  for (const Vec2& p : path) add(p);
}

PathWalk PathWalk::from_vertices(std::vector<Vec2> points, double lead_in) {
  PathWalk w;
  w.lead_in_ = lead_in;
  w.points_ = std::move(points);
  w.cumulative_.reserve(w.points_.size());
  for (std::size_t k = 0; k < w.points_.size(); ++k)
    w.cumulative_.push_back(k == 0 ? 0
                                   : w.cumulative_.back() + glm::distance(w.points_[k - 1], w.points_[k]));
  return w;
}

std::size_t PathWalk::segment_at(double s) const {
  // The segment [i, i + 1] with cumulative_[i] <= s < cumulative_[i + 1]; the last one
  // past the end.
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), s);
  const std::size_t after = static_cast<std::size_t>(it - cumulative_.begin());
  const std::size_t last = points_.size() - 2;
  return after == 0 ? 0 : std::min(after - 1, last);
}

Vec2 PathWalk::point_at(double s) const {
  if (points_.empty()) return {0, 0};
  if (points_.size() == 1) return points_[0];
  if (s >= length()) return points_.back();
  const std::size_t i = segment_at(s);
  const double len = cumulative_[i + 1] - cumulative_[i];
  return points_[i] + (points_[i + 1] - points_[i]) * ((s - cumulative_[i]) / len);
}

Vec2 PathWalk::direction_at(double s) const {
  if (points_.size() < 2) return {1, 0};
  const std::size_t i = segment_at(s);
  return (points_[i + 1] - points_[i]) / (cumulative_[i + 1] - cumulative_[i]);
}

double morph_weight(Vec2 column_point, Vec2 formation_point, const SegmentBlocked& blocked, int iterations) {
  if (!blocked(column_point, formation_point)) return 0;
  // The clear fraction of the segment from the column end: its sub-segments grow with
  // the fraction, so being clear is monotone in it and bisection finds its end.
  double clear = 0;
  double cut = 1;
  for (int i = 0; i < iterations; ++i) {
    const double mid = 0.5 * (clear + cut);
    if (blocked(column_point, lerp(column_point, formation_point, mid))) {
      cut = mid;
    } else {
      clear = mid;
    }
  }
  return 1 - clear;
}

std::vector<std::size_t> column_ranks(const PlatoonFormation& formation) {
  const auto& o = formation.offsets;
  std::vector<std::size_t> by_rank(o.size());
  std::iota(by_rank.begin(), by_rank.end(), std::size_t{0});
  std::stable_sort(by_rank.begin(), by_rank.end(), [&](std::size_t a, std::size_t b) {
    if (o[a].x != o[b].x) return o[a].x > o[b].x;
    if (std::abs(o[a].y) != std::abs(o[b].y)) return std::abs(o[a].y) < std::abs(o[b].y);
    return o[a].y > o[b].y;
  });
  std::vector<std::size_t> rank(o.size());
  for (std::size_t r = 0; r < by_rank.size(); ++r) rank[by_rank[r]] = r;
  return rank;
}

void drive_to_points(const DriveToInput& in, const SegmentBlocked& blocked, std::span<double> morph,
                     std::vector<SlotTarget>& out) {
  assert(in.walk != nullptr && in.from != nullptr && in.to != nullptr);
  const std::size_t slots = in.to->offsets.size();
  assert(morph.size() >= slots);
  const std::vector<std::size_t> from_ranks = column_ranks(*in.from);
  const std::vector<std::size_t> to_ranks = column_ranks(*in.to);
  const double blend = std::clamp(in.blend, 0.0, 1.0);
  const double ease = in.ease_seconds > 0 ? in.dt / in.ease_seconds : 1.0;
  out.assign(slots, SlotTarget{});
  for (std::size_t k = 0; k < slots; ++k) {
    SlotTarget& t = out[k];
    const Vec2 to_position = slot_position(in, *in.to, to_ranks, k);
    t.formation = k < in.from->offsets.size() && blend < 1
                      ? lerp(slot_position(in, *in.from, from_ranks, k), to_position, blend)
                      : to_position;
    // The anchor is on the planned path, which the planner made safe; the lead-in before
    // it is only the heading the platoon had, and may run into anything.
    t.column = in.walk->point_at(
        std::max(in.along - static_cast<double>(to_ranks[k]) * in.column_spacing, in.walk->path_start()));
    const double needed = morph_weight(t.column, t.formation, blocked);
    morph[k] = std::max(needed, morph[k] - ease);
    t.morph = morph[k];
    t.drive_to = lerp(t.formation, t.column, t.morph);
  }
}

}  // namespace pathscope::sim
