// Collision detection (seed 002, "Collision Determination", "Predicted Positions"): the
// spatial hash gives the pairs near enough to meet within the horizon; a pair collides now
// (hard or soft shapes overlapping) or in the future (the first predicted step at which
// they would; every unit predicts at the same time stamps, so the lists are compared index
// by index, a finished list standing at its last point). Remembered pairs whose plan
// stands are not checked (Basic Planning). A component: cooperation.hpp.

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/cooperation.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim {

namespace {

constexpr std::size_t kStride = 4;  // predicted steps per window of the future-collision scan
// Hard shapes closer than this count as colliding: continuous checks stop units at
// contact, and touching units must still be resolved.
constexpr double kContact = 0.02;

// A unit's predicted positions as the pair scan reads them, taken once per pair: step k's
// position, a finished list standing at its last point, no list standing where the unit is.
class PredictedTrack {
 public:
  explicit PredictedTrack(const SimUnit& u)
      : points_(u.route.predicted.empty() ? nullptr : u.route.predicted.begin()),
        last_(u.route.predicted.empty() ? 0 : u.route.predicted.size() - 1),
        here_(u.body.position) {}
  Vec2 at(std::size_t k) const { return points_ ? points_[std::min(k, last_)].position : here_; }

 private:
  const PredictedPoint* points_;
  std::size_t last_;
  Vec2 here_;
};

}  // namespace

void detect_collisions(std::span<const SimUnit> units, std::span<const Motion> motions,
                       std::span<const CostGrid* const> grids, DetectionLimits limits, const SimSettings& set,
                       double now, std::vector<Memory>& memory, UnitHash& hashed, DetectionScratch& scratch,
                       std::vector<Collision>& out) {
  out.clear();
  const auto alive = [&](UnitId id) {
    return id.index < units.size() && units[id.index].alive && units[id.index].id.generation == id.generation;
  };
  std::erase_if(memory, [&](const Memory& m) { return m.until <= now || !alive(m.a) || !alive(m.b); });
  // The remembered pairs whose plan stands are not checked (Basic Planning).
  std::vector<std::uint64_t>& standing = scratch.standing;
  standing.clear();
  for (const Memory& m : memory) {
    if (m.rule != CooperationRule::SlowDown) standing.push_back(pair_key(m.a, m.b));
  }
  std::sort(standing.begin(), standing.end());
  const double horizon = std::min(set.prediction_seconds, 1.0);
  const double reach = 2 * limits.max_soft + 2 * limits.max_speed * horizon + 1e-9;
  hashed.build(units, reach);
  // Each unit's velocity, once (not once per pair it is in).
  std::vector<Vec2>& velocity = scratch.velocity;
  velocity.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i)
    velocity[i] = direction(units[i].body.heading) * units[i].body.speed;
  const auto horizon_steps = static_cast<std::size_t>(std::ceil(horizon / set.dt - 1e-9));
  // Any order of the pairs will do: the collisions are sorted below.
  hashed.hash.pairs_within_any_order(hashed.points, reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units[i];
    const SimUnit& b = units[j];
    const Motion& ma = motions[a.movement_class];
    const Motion& mb = motions[b.movement_class];
    const double soft = ma.soft_radius + mb.soft_radius;
    const double hard = ma.hard_radius + mb.hard_radius + kContact;
    const double d0 = glm::length(a.body.position - b.body.position);
    if (d0 >= soft + (ma.speed + mb.speed) * horizon) return;
    // Units that do not close in on each other (a column walking together, two units
    // parting) have nothing to resolve unless their hard shapes touch.
    const Vec2 relative = velocity[j] - velocity[i];
    const bool closing = glm::dot(b.body.position - a.body.position, relative) < 0;
    if (!closing && d0 >= hard) return;
    if (!standing.empty() && std::binary_search(standing.begin(), standing.end(), pair_key(a.id, b.id)))
      return;
    Collision c;
    c.a = a.id;
    c.b = b.id;
    if (d0 < soft) {
      c.immediate = true;
      c.hard = d0 < hard;
      c.time = now;
      c.point = (a.body.position + b.body.position) * 0.5;
    } else {
      const std::size_t n =
          std::min(horizon_steps, std::max(a.route.predicted.size(), b.route.predicted.size()));
      bool found = false;
      // Windows of kStride steps first: between two sampled steps the relative position
      // stays within half the window's relative travel of the line joining them, so a
      // window whose line passes farther than that from soft contact holds no contact.
      // Inside the others every step is tested: the same first step as testing them all.
      // (Top speeds on the fastest ground: roads divide the multipliers.)
      const double va = ma.speed / std::min(1.0, grids[a.movement_class]->min_multiplier());
      const double vb = mb.speed / std::min(1.0, grids[b.movement_class]->min_multiplier());
      const double slack = 0.5 * (va + vb) * kStride * set.dt;
      const double reach2 = (soft + slack) * (soft + slack);
      const PredictedTrack ta(a), tb(b);
      std::size_t k = 0;
      while (k < n && !found) {
        const std::size_t k1 = std::min(k + kStride, n - 1);
        const Vec2 r0 = tb.at(k) - ta.at(k);
        const Vec2 r1 = tb.at(k1) - ta.at(k1);
        if (distance_sq_to_segment(Vec2{0, 0}, r0, r1) >= reach2) {
          k = k1 + 1;
          continue;
        }
        const std::size_t window_end = k1;
        for (; k <= window_end && !found; ++k) {
          const Vec2 pa = ta.at(k), pb = tb.at(k);
          const double d = glm::length(pa - pb);
          if (d < soft) {
            found = true;
            c.hard = d < hard;
            c.time = now + static_cast<double>(k + 1) * set.dt;
            c.point = (pa + pb) * 0.5;
            // A soft meeting may turn hard a little later: look on for the hard one.
            for (std::size_t k2 = k + 1; k2 < n && !c.hard; ++k2) {
              const Vec2 qa = ta.at(k2), qb = tb.at(k2);
              if (glm::length(qa - qb) < hard) {
                c.hard = true;
                c.time = now + static_cast<double>(k2 + 1) * set.dt;
                c.point = (qa + qb) * 0.5;
              }
            }
          }
        }
      }
      if (!found) return;
    }
    out.push_back(c);
  });
  std::sort(out.begin(), out.end(), [](const Collision& x, const Collision& y) {
    if (x.immediate != y.immediate) return x.immediate;
    if (x.hard != y.hard) return x.hard;
    if (x.time != y.time) return x.time < y.time;
    if (x.a.index != y.a.index) return x.a.index < y.a.index;
    return x.b.index < y.b.index;
  });
}

}  // namespace pathscope::sim
