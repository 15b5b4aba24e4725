// Collision prevention (seed 000, "Support Systems": "on every
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
// A component: it sees the units' shapes, terrain keys and whether they move
// (PreventionUnit), the motions per class and the cost grids, and writes positions only;
// the step applies them (a unit pushed drops its prediction).

#include "planner/sim/prevention.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "planner/sim/static_check.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

namespace {

constexpr int kPreventionPasses = 16;
constexpr double kSlack = 1e-9;      // metres pushed beyond the overlap, so touching is not overlapping
constexpr double kTolerance = 1e-7;  // overlaps below this are rounding at a contact, left alone

}  // namespace

double hard_overlap(Vec2 pa, double ha, const Motion& ma, Vec2 pb, double hb, const Motion& mb, Vec2& n,
                    double& dist) {
  const Vec2 d = pb - pa;
  dist = glm::length(d);
  n = dist > 1e-12 ? d / dist : Vec2{1, 0};
  // Farther than the two bounding circles: apart, whatever the headings.
  if (dist >= ma.hard_radius + mb.hard_radius) return ma.hard_radius + mb.hard_radius - dist;
  return hard_contact_distance(ma, ha, mb, hb, n) - dist;
}

void prevent_overlaps(std::span<PreventionUnit> units, std::span<const Motion> motions,
                      std::span<const CostGrid* const> grids, PreventionScratch& scratch) {
  double max_hard = 0;
  for (const Motion& m : motions)
    max_hard = std::max(max_hard, m.hard_radius);  // an ellipse lies inside its circle
  const double reach = 2 * max_hard + 1e-9;
  // Where each unit stood after its move: no unit is pushed farther than half its hard
  // radius from there in one step (a crowd's pushes must not add up to a jump).
  std::vector<Vec2>& moved_to = scratch.moved_to;
  moved_to.resize(units.size());
  scratch.points.resize(units.size());
  scratch.alive.resize(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    moved_to[i] = units[i].position;
    scratch.alive[i] = units[i].alive;
    units[i].pushed = false;
  }
  // The point towards p that keeps unit i within its cap.
  auto capped = [&](std::uint32_t i, Vec2 p) {
    const double cap = 0.5 * motions[units[i].movement_class].hard_radius;
    const Vec2 d = p - moved_to[i];
    const double len = glm::length(d);
    return len <= cap ? p : moved_to[i] + d * (cap / len);
  };
  for (int pass = 0; pass < kPreventionPasses; ++pass) {
    for (std::size_t i = 0; i < units.size(); ++i) scratch.points[i] = units[i].position;
    scratch.hash.build(scratch.points, reach, scratch.alive);
    bool any = false;
    scratch.hash.pairs_within(scratch.points, reach, [&](std::uint32_t i, std::uint32_t j) {
      PreventionUnit& a = units[i];
      PreventionUnit& b = units[j];
      const Motion& ma = motions[a.movement_class];
      const Motion& mb = motions[b.movement_class];
      Vec2 n;
      double dist;
      const double over = hard_overlap(a.position, a.heading, ma, b.position, b.heading, mb, n, dist);
      if (over <= kTolerance) return;  // a hair (rounding at a contact) is not an overlap
      any = true;
      // Who gives way: a still unit to a mover, else the lower class priority, else both
      // share (equal shares spread a crowd's pressure instead of squeezing one unit).
      double wa = 0.5;
      if (a.moving != b.moving) {
        wa = a.moving ? 0.0 : 1.0;
      } else if (ma.priority != mb.priority) {
        wa = ma.priority > mb.priority ? 0.0 : 1.0;
      }
      const double push = over + kSlack;
      Vec2 pa = capped(i, a.position - n * (push * wa));
      Vec2 pb = capped(j, b.position + n * (push * (1 - wa)));
      const CostGrid& ga = *grids[a.movement_class];
      const CostGrid& gb = *grids[b.movement_class];
      // The push's line and the step's whole line must both stay in open cells.
      const auto clear = [](const CostGrid& g, const PreventionUnit& u, Vec2 to) {
        return !segment_blocked(g, u.move_key, u.position, to) &&
               !segment_blocked(g, u.move_key, u.start, to);
      };
      const bool a_ok = wa == 0 || clear(ga, a, pa);
      const bool b_ok = wa == 1 || clear(gb, b, pb);
      if (!a_ok && !b_ok) return;
      if (!a_ok) {
        pa = a.position;
        pb = capped(j, b.position + n * push);
        if (!clear(gb, b, pb)) return;
      } else if (!b_ok) {
        pb = b.position;
        pa = capped(i, a.position - n * push);
        if (!clear(ga, a, pa)) return;
      }
      if (pa != a.position) {
        a.position = pa;
        a.pushed = true;
      }
      if (pb != b.position) {
        b.position = pb;
        b.pushed = true;
      }
      scratch.points[i] = a.position;
      scratch.points[j] = b.position;
    });
    if (!any) break;
  }
}

}  // namespace pathscope::sim
