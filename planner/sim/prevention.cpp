// Collision prevention and the step's counters (seed 000, "Support Systems": "on every
// simulation cycle ... we look at each ship and check it against each nearby ship (using
// geometric hashing, aka buckets ...). If the shield ellipsoids overlap by any amount,
// we simply separate the ships by that amount").
//
// Hard shapes are circles, or ellipses along the heading (MovementClass::hard_aspect).
// The overlap of two shapes is measured along the line between their centres: the
// distance at which they would touch on that line (the radius of their Minkowski sum
// towards the other, exact for ellipses at any headings), less the distance. Each overlapping pair is
// pushed apart by its overlap: a still unit gives way to a mover; otherwise the lower
// class priority moves, and equals share. A push that would put a unit into a closed
// cell is taken by the other unit. No unit is pushed more than half its hard radius in
// one step (a crowd's pushes must not add up to a jump); what is left is pushed at the
// next step. Passes repeat (Gauss-Seidel) until no pair overlaps or a bound is reached;
// pairs are visited in the hash's fixed order. Moves themselves make no overlap
// (simulation.cpp: units move one after another, against the others where they stand)
// but a shove: a mover's short move into a settled unit with room to give way, which
// prevention then pushes aside. Otherwise it separates units placed overlapping and the
// pushes of cooperation.
//
// Counters after the step: pairs still overlapping (each pair counted once over the
// run) and the deepest overlap; units whose move crossed a closed cell or passed
// through another unit's hard shape between two steps (tunnelling).

#include <algorithm>
#include <cmath>

#include "planner/core/geometry.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr int kPreventionPasses = 16;
constexpr double kSlack = 1e-9;      // metres pushed beyond the overlap, so touching is not overlapping
constexpr double kTolerance = 1e-7;  // overlaps below this are rounding at a contact, left alone

// The overlap of two units' hard shapes along the line between them, and its direction
// (from a to b): how much farther apart their centres must be, on that line, for the
// shapes to touch (exact for ellipses of any aspect and heading: hard_contact_distance).
double overlap(const SimUnit& a, const Motion& ma, const SimUnit& b, const Motion& mb, Vec2& n,
               double& dist) {
  const Vec2 d = b.body.position - a.body.position;
  dist = glm::length(d);
  n = dist > 1e-12 ? d / dist : Vec2{1, 0};
  // Farther than the two bounding circles: apart, whatever the headings.
  if (dist >= ma.hard_radius + mb.hard_radius) return ma.hard_radius + mb.hard_radius - dist;
  return hard_contact_distance(ma, a.body.heading, mb, b.body.heading, n) - dist;
}

}  // namespace

void Simulation::prevent_overlaps() {
  const SimSettings& set = scenario().sim;
  if (!set.prevention) return;
  const double reach = 2 * impl_->max_hard + 1e-9;
  // Where each unit stood after its move: no unit is pushed farther than half its hard
  // radius from there in one step (a crowd's pushes must not add up to a jump).
  std::vector<Vec2>& moved_to = impl_->moved_to;
  moved_to.resize(units_.size());
  for (std::size_t i = 0; i < units_.size(); ++i) moved_to[i] = units_[i].body.position;
  // The point towards p that keeps unit i within its cap.
  auto capped = [&](std::uint32_t i, Vec2 p) {
    const double cap = 0.5 * impl_->motions[units_[i].movement_class].hard_radius;
    const Vec2 d = p - moved_to[i];
    const double len = glm::length(d);
    return len <= cap ? p : moved_to[i] + d * (cap / len);
  };
  for (int pass = 0; pass < kPreventionPasses; ++pass) {
    impl_->hash_units(units_, reach);
    bool any = false;
    impl_->hash.pairs_within(impl_->points, reach, [&](std::uint32_t i, std::uint32_t j) {
      SimUnit& a = units_[i];
      SimUnit& b = units_[j];
      const Motion& ma = impl_->motions[a.movement_class];
      const Motion& mb = impl_->motions[b.movement_class];
      Vec2 n;
      double dist;
      const double over = overlap(a, ma, b, mb, n, dist);
      if (over <= kTolerance) return;  // a hair (rounding at a contact) is not an overlap
      any = true;
      // Who gives way: a still unit to a mover, else the lower class priority, else both
      // share (equal shares spread a crowd's pressure instead of squeezing one unit).
      const bool am = is_moving(a), bm = is_moving(b);
      double wa = 0.5;
      if (am != bm) {
        wa = am ? 0.0 : 1.0;
      } else if (ma.priority != mb.priority) {
        wa = ma.priority > mb.priority ? 0.0 : 1.0;
      }
      const double push = over + kSlack;
      Vec2 pa = capped(i, a.body.position - n * (push * wa));
      Vec2 pb = capped(j, b.body.position + n * (push * (1 - wa)));
      const CostGrid& ga = world_->grid(a.movement_class);
      const CostGrid& gb = world_->grid(b.movement_class);
      const UnitPrivate& xa = impl_->extra[i];
      const UnitPrivate& xb = impl_->extra[j];
      const bool a_ok = wa == 0 || !segment_blocked(ga, xa.move_key, a.body.position, pa);
      const bool b_ok = wa == 1 || !segment_blocked(gb, xb.move_key, b.body.position, pb);
      if (!a_ok && !b_ok) return;
      if (!a_ok) {
        pa = a.body.position;
        pb = capped(j, b.body.position + n * push);
        if (segment_blocked(gb, xb.move_key, b.body.position, pb)) return;
      } else if (!b_ok) {
        pb = b.body.position;
        pa = capped(i, a.body.position - n * push);
        if (segment_blocked(ga, xa.move_key, a.body.position, pa)) return;
      }
      if (pa != a.body.position) {
        a.body.position = pa;
        a.route.predicted.clear();
      }
      if (pb != b.body.position) {
        b.body.position = pb;
        b.route.predicted.clear();
      }
      impl_->points[i] = a.body.position;
      impl_->points[j] = b.body.position;
    });
    if (!any) break;
  }
  for (std::size_t i = 0; i < units_.size(); ++i)
    units_[i].diag.pushed = units_[i].body.position - moved_to[i];
}

void Simulation::count_step() {
  // Hard overlaps left at the end of the step.
  const double reach = 2 * impl_->max_hard + 1e-9;
  impl_->hash_units(units_, reach);
  impl_->hash.pairs_within(impl_->points, reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units_[i];
    const SimUnit& b = units_[j];
    Vec2 n;
    double dist;
    const double over =
        overlap(a, impl_->motions[a.movement_class], b, impl_->motions[b.movement_class], n, dist);
    if (over <= 1e-6) return;
    counters_.max_overlap_m = std::max(counters_.max_overlap_m, over);
    const std::uint64_t key = (static_cast<std::uint64_t>(j) << 32) | i;
    if (impl_->overlapping_pairs.insert(key).second) ++counters_.hard_overlaps;
  });
  // Tunnelling through the static world: the move line crossed a closed cell.
  auto flag = [&](std::size_t i) {
    if (!impl_->extra[i].tunnelled) {
      impl_->extra[i].tunnelled = true;
      ++counters_.tunnelled;
    }
  };
  for (std::size_t i = 0; i < units_.size(); ++i) {
    const SimUnit& u = units_[i];
    if (!u.alive || u.body.previous == u.body.position) continue;
    if (segment_blocked(world_->grid(u.movement_class), impl_->extra[i].move_key, u.body.previous,
                        u.body.position))
      flag(i);
  }
  // Tunnelling through units: the two moves, taken as straight lines over the step,
  // brought the centres closer than their hard radii while both ends are apart.
  const double dt = scenario().sim.dt;
  const double move_reach = 2 * impl_->max_hard + 4 * impl_->max_speed * dt + 1e-9;
  impl_->hash_units(units_, move_reach, /*previous=*/true);
  impl_->hash.pairs_within(impl_->points, move_reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units_[i];
    const SimUnit& b = units_[j];
    const double r =
        impl_->motions[a.movement_class].hard_radius + impl_->motions[b.movement_class].hard_radius;
    const Vec2 p0 = b.body.previous - a.body.previous;
    const Vec2 p1 = b.body.position - a.body.position;
    // Both ends apart (by a little less than r, so rounding at contact does not count).
    const double r_in = r * 0.9;
    if (glm::dot(p0, p0) < r_in * r_in || glm::dot(p1, p1) < r_in * r_in) return;
    if (distance_sq_to_segment(Vec2{0, 0}, p0, p1) < r_in * r_in) {
      // The unit(s) that moved crossed; one standing still was crossed.
      if (a.body.previous != a.body.position) flag(i);
      if (b.body.previous != b.body.position) flag(j);
    }
  });
}

}  // namespace pathscope::sim
