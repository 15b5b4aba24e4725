// Reactive avoidance (seed 000, "Support Systems"), an option on top of the cooperation
// rules. Two systems, as Armada evaluated:
//   - potential fields (Latombe; Davis): every unit near enough, and every cell closed to
//     the mover near enough, pushes the mover's heading away, more the closer it is; the
//     next path point pulls;
//   - steering arcs (Kelly): a fan of arcs of constant turn rate is scored over a short
//     look-ahead: the next path point weighs for an arc, other units' predicted positions
//     and closed cells against it; the best arc is taken.
// A unit with nobody within reach keeps its predicted move, so avoidance costs nothing
// in open space and predictions stay valid there.
//
// A component: it reads the units and the detection's hash and returns the moves it
// changes (AvoidanceSteer); the step applies them.

#include "planner/sim/avoidance.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "planner/sim/static_check.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

constexpr int kArcs = 9;            // arcs in the fan, from full left to full right
constexpr double kLookAhead = 1.0;  // seconds an arc is followed
constexpr int kArcSamples = 5;      // points checked along an arc
constexpr double kRightBias = 0.6;  // potential fields: share of the push that goes right

// The push of the cells closed to a unit of move key `key` within `range` of `p` and
// ahead of it (along `ahead`): away from each cell's nearest point, more the closer it
// is. A wall of many cells pushes as much as its nearest cell: each direction counts
// once (the strongest push per side of the unit, left and right, and straight ahead).
Vec2 wall_push(const CostGrid& grid, std::uint16_t key, Vec2 p, Vec2 ahead, double range) {
  const double cs = grid.cell_size();
  // The box of cells within reach, clipped to the grid and its ring of outside cells: the
  // ring holds the nearest point of the outside on every side, and no cell beyond it can
  // push harder than the ring cell it stands behind.
  const auto clip = [](double v, int hi) {
    return static_cast<int>(std::clamp(std::floor(v), -1.0, static_cast<double>(hi)));
  };
  const int x0 = clip((p.x - range) / cs, grid.width());
  const int x1 = clip((p.x + range) / cs, grid.width());
  const int y0 = clip((p.y - range) / cs, grid.height());
  const int y1 = clip((p.y + range) / cs, grid.height());
  const Vec2 right{-ahead.y, ahead.x};
  Vec2 strongest[3] = {{0, 0}, {0, 0}, {0, 0}};  // from the left, from the right, head-on
  double weight[3] = {0, 0, 0};
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      // Outside the world is closed too.
      const bool closed = !grid.in_bounds(x, y) || grid.move_key(grid.index(x, y)) != key;
      if (!closed) continue;
      const Vec2 lo{x * cs, y * cs};
      const Vec2 nearest = glm::clamp(p, lo, lo + Vec2{cs, cs});
      const Vec2 d = p - nearest;
      const double dist = glm::length(d);
      if (dist >= range || dist < 1e-9) continue;
      if (glm::dot(-d, ahead) <= 0) continue;  // beside or behind: it does not hold us up
      const double w = (range - dist) / range;
      const double across = glm::dot(-d, right) / dist;  // where the cell lies: > 0 right
      const int side = across > 0.2 ? 1 : across < -0.2 ? 0 : 2;
      if (w > weight[side]) {
        weight[side] = w;
        strongest[side] = d / dist * w;
      }
    }
  }
  return strongest[0] + strongest[1] + strongest[2];
}

Vec2 position_at_time(const SimUnit& u, double t_from_now, double dt) {
  if (u.route.predicted.empty()) return u.body.position;
  const auto k = static_cast<std::size_t>(std::max(0.0, std::round(t_from_now / dt) - 1));
  return u.route.predicted[std::min(k, u.route.predicted.size() - 1)].position;
}

}  // namespace

void avoid(AvoidanceMode mode, std::span<const SimUnit> units, std::span<const std::uint16_t> move_keys,
           const SpatialHash& near_units, std::span<const Motion> motions,
           std::span<const CostGrid* const> grids, double dt, std::vector<AvoidanceSteer>& out) {
  out.clear();
  if (mode == AvoidanceMode::None) return;
  double max_soft = 0;
  for (const Motion& m : motions) max_soft = std::max(max_soft, m.soft_radius);
  std::vector<std::uint32_t> near;
  for (const SimUnit& u : units) {
    if (!u.alive || u.route.state != MoveState::Moving || u.route.path.empty()) continue;
    if (u.coop.yield != Yield::None && u.coop.yield != Yield::SlowDown) continue;
    const std::uint16_t move_key = move_keys[u.id.index];
    const Motion& m = motions[u.movement_class];
    const CostGrid& grid = *grids[u.movement_class];
    const double sense = std::min(2 * max_soft + m.speed * kLookAhead, near_units.cell_size());
    // The neighbours within reach (the detection's hash holds current positions).
    near.clear();
    // Units standing still are the cooperation rules' to resolve (they move aside, or
    // are gone round): avoidance steers round units under way only.
    near_units.near(u.body.position, [&](std::uint32_t j) {
      if (j != u.id.index && is_moving(units[j]) &&
          glm::length(units[j].body.position - u.body.position) < sense)
        near.push_back(j);
    });
    if (near.empty()) continue;
    // The last stretch to the order point is driven straight: steered there, a unit
    // circles its goal among the units arrived round it instead of stopping on it.
    if (glm::length(u.route.path.back() - u.body.position) <
        2 * m.soft_radius + stopping_distance(m.speed, m.deceleration))
      continue;
    const MotionState here{u.body.position, u.body.heading, u.body.speed};
    const Steer path_steer =
        steer_along(u.route.path, std::min(u.route.waypoint, u.route.path.size() - 1), u.body.position,
                    terrain_speed(m, grid, u.body.position),
                    2 * stopping_distance(std::max(u.body.speed, terrain_speed(m, grid, u.body.position)),
                                          m.deceleration) +
                        1);
    const Vec2 to_target = path_steer.target - u.body.position;
    const double target_dist = glm::length(to_target);
    if (target_dist < 1e-9) continue;
    const Vec2 goal_dir = to_target / target_dist;
    Vec2 dir = goal_dir;
    if (mode == AvoidanceMode::PotentialField) {
      Vec2 push{0, 0};
      for (std::uint32_t j : near) {
        const SimUnit& o = units[j];
        const Motion& mo = motions[o.movement_class];
        const Vec2 d = u.body.position - o.body.position;
        const double dist = glm::length(d);
        const double range = m.soft_radius + mo.soft_radius + m.speed * kLookAhead;
        if (dist >= range || dist < 1e-9) continue;
        // Only what lies ahead repels: units behind do not slow us down.
        if (glm::dot(-d, goal_dir) < 0) continue;
        // Away from it, and to the right of it (y down: right of heading h is h + pi/2):
        // two units meeting head-on both pass on their right, as traffic does, instead
        // of pushing straight against each other.
        const Vec2 away = d / dist;
        const Vec2 right{-goal_dir.y, goal_dir.x};
        push += (away + right * kRightBias) * ((range - dist) / range);
      }
      // Walls near enough ahead push as well: a unit driven off its path by others is
      // not driven into a wall.
      // Walls within half a second's travel push, never beyond what the unit senses.
      push += wall_push(grid, move_key, u.body.position, goal_dir,
                        std::min(m.hard_radius + 0.5 * m.speed * kLookAhead, sense));
      if (glm::dot(push, push) < 1e-12) continue;
      dir = goal_dir + push * 1.5;
      const double len = glm::length(dir);
      if (len < 1e-9) continue;
      dir /= len;
    } else {
      // Steering arcs: constant turn rates from -turn_rate to +turn_rate.
      double best = -INFINITY;
      double best_rate = 0;
      bool any_blocked_free = false;
      for (int k = 0; k < kArcs; ++k) {
        const double rate = m.turn_rate * (2.0 * k / (kArcs - 1) - 1.0);
        double score = 0;
        Vec2 p = u.body.position;
        double h = u.body.heading;
        const double speed = std::max(u.body.speed, 0.5 * m.speed);
        const double step_t = kLookAhead / kArcSamples;
        bool blocked = false;
        for (int s = 1; s <= kArcSamples && !blocked; ++s) {
          h += rate * step_t;
          const Vec2 q = p + direction(h) * (speed * step_t);
          if (segment_blocked(grid, move_key, p, q)) blocked = true;
          p = q;
          const double t = s * step_t;
          for (std::uint32_t j : near) {
            const SimUnit& o = units[j];
            const double r = m.soft_radius + motions[o.movement_class].soft_radius;
            const double d = glm::length(position_at_time(o, t, dt) - p);
            if (d < r) score -= (r - d) / r * (1.0 / s);  // sooner weighs more
          }
        }
        if (blocked) continue;
        any_blocked_free = true;
        // The next path point weighs for the arc: progress towards it.
        score += 0.5 * (target_dist - glm::length(path_steer.target - p)) / (speed * kLookAhead);
        // Prefer the straightest arc on ties.
        score -= 1e-3 * std::abs(rate);
        if (score > best) {
          best = score;
          best_rate = rate;
        }
      }
      if (!any_blocked_free) continue;
      const double wanted = u.body.heading + best_rate * dt;
      dir = direction(wanted);
      // Facing the path point within the turn already: the path's own move stands.
      if (std::abs(angle_difference(heading_of(goal_dir), wanted)) < 1e-6) continue;
    }
    Steer steer = path_steer;
    steer.target = u.body.position + dir * std::max(target_dist, 1.0);
    steer.max_speed =
        terrain_speed(m, grid, u.body.position) * (u.coop.yield == Yield::SlowDown ? u.coop.speed_factor : 1);
    steer.stop_distance = path_steer.stop_distance;
    out.push_back(AvoidanceSteer{u.id.index, advance(here, steer, m, dt),
                                 angle_difference(heading_of(goal_dir), heading_of(dir))});
  }
}

}  // namespace pathscope::sim
