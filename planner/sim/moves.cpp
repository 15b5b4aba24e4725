// The moves (seed 002, "Simple Movement Algorithm", "Discrete vs. Continuous Simulation"):
// a component of the step (moves.hpp).

#include "planner/sim/moves.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim {

namespace {

// Across / length of a move below which a contact counts as head-on (turn right).
constexpr double kHeadOn = 0.2;
// Share of two units' hard radii within which one unit's move crossing another's counts
// as passing through it (the referee counts from 0.9).
constexpr double kCrossing = 0.95;

// The first contact of a disc of radius r moving from p by `move` with a still disc at
// q: t in [0, 1], or 2 if none (moving away, or not reaching it). Touching and moving
// closer is contact at 0.
double first_contact(Vec2 p, Vec2 move, Vec2 q, double r) {
  const Vec2 d = p - q;
  const double a = glm::dot(move, move);
  const double b = glm::dot(d, move);
  if (a <= 0 || b >= 0) return 2;
  const double c = glm::dot(d, d) - r * r;
  if (c <= 0) return 0;
  const double disc = b * b - a * c;
  if (disc <= 0) return 2;
  const double t = (-b - std::sqrt(disc)) / a;
  return t >= 0 && t < 1 ? t : 2;
}

}  // namespace

void move_units(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
                std::span<const CostGrid* const> grids, double max_hard, const SimSettings& set, double now,
                UnitHash& hashed, MoveScratch& scratch, std::uint64_t& repaths) {
  const double dt = set.dt;
  // Units move one after the other, highest priority first, each against the others
  // where they stand now, so no move ends inside another unit's hard shape (but a
  // shove, below, which prevention resolves).
  //  - Continuous check (move lines): a move that would touch another unit within the
  //    step stops at the contact and slides along it for the rest (its part towards the
  //    other is dropped; meeting head-on it turns right, as traffic does). No unit hops
  //    over another between two steps (seed 002, Figure 3), and touching units flow
  //    round each other instead of locking.
  //    A unit that has moved already this step is met on its move: the two moves are
  //    taken as simultaneous straight lines (the referee's reading of a step), so two
  //    fast units crossing do not pass through each other between their two positions.
  //  - Discrete check: units are tested where their moves end only: a move is made
  //    whole, and an overlap it ends in is left to prevention (seed 002: "they move the
  //    unit from point A to point B without considering what might be between"). A
  //    fast unit may hop over another.
  double max_step = 0;
  std::vector<std::uint32_t>& order = scratch.order;
  order.clear();
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (!units[i].alive) continue;
    order.push_back(static_cast<std::uint32_t>(i));
    max_step = std::max(max_step, glm::length(extra[i].next.position - units[i].body.position));
  }
  const auto higher_first = [&](std::uint32_t a, std::uint32_t b) {
    return motions[units[a].movement_class].priority > motions[units[b].movement_class].priority;
  };
  // A stable sort leaves an order already sorted as it is (units of one priority, the
  // common case, stay in slot order): only an order out of place is sorted.
  if (!std::is_sorted(order.begin(), order.end(), higher_first))
    std::stable_sort(order.begin(), order.end(), higher_first);
  const double reach = 2 * max_hard + 2 * max_step + 1e-9;
  hashed.build(units, reach);
  constexpr std::uint32_t kNobody = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t>& shover = scratch.shover;
  shover.assign(units.size(), kNobody);
  std::vector<std::uint8_t>& moved = scratch.moved;
  moved.assign(units.size(), 0);
  std::vector<std::uint32_t>& near = scratch.near;
  for (std::uint32_t i : order) {
    SimUnit& u = units[i];
    UnitPrivate& x = extra[i];
    const double ri = motions[u.movement_class].hard_radius;
    Vec2 move = x.next.position - u.body.position;
    const double length = glm::length(move);
    // A unit under way shoves settled units (arrived, or with nothing to do, standing
    // and yielding to nobody) of its class priority or lower: its move goes on into
    // them and prevention pushes them aside, as idle units are pushed in RTS games. A
    // block of arrived units, each 0.5 m from the next, otherwise walls in a late one.
    // Only one with room to give way is shoved (pushed off by the overlap it would
    // get, it stays clear of the static world and of every other unit), so prevention
    // never meets a push it cannot make.
    auto shove_room = [&](std::uint32_t j, Vec2 m) {
      if (shover[j] != kNobody && shover[j] != i) return false;  // one shove each per step
      const SimUnit& o = units[j];
      const Motion& mo = motions[o.movement_class];
      const double r = ri + mo.hard_radius;
      const Vec2 end = u.body.position + m;
      const Vec2 d = o.body.position - end;
      const double len = glm::length(d);
      const double over = r - len;
      // Only a short move that ends pressing into it: a longer one could pass through.
      if (over <= 0 || len < 1e-9 || over > 0.25 * mo.hard_radius || glm::length(m) > 0.25 * mo.hard_radius)
        return false;
      const Vec2 to = o.body.position + d * ((over + 1e-6) / len);
      if (segment_blocked(*grids[o.movement_class], extra[j].move_key, o.body.position, to)) return false;
      bool room = true;
      hashed.hash.near(to, [&](std::uint32_t k) {
        if (k == j || k == i || !room) return;
        const SimUnit& q = units[k];
        const double rk = mo.hard_radius + motions[q.movement_class].hard_radius;
        if (glm::length(q.body.position - to) < rk + max_step)
          room = false;  // kept clear of this step's moves too
      });
      if (room) shover[j] = i;
      return room;
    };
    const bool shoves = is_moving(u) && u.route.state == MoveState::Moving && !u.route.order.points.empty();
    const int rank = motions[u.movement_class].priority;
    auto earliest = [&](Vec2 m, Vec2& normal) {
      double best = 2;
      for (const std::uint32_t j : near) {
        const SimUnit& o = units[j];
        if (shoves && settled(o) && motions[o.movement_class].priority <= rank && shove_room(j, m)) continue;
        const double r = ri + motions[o.movement_class].hard_radius;
        const double t = first_contact(u.body.position, m, o.body.position, r);
        if (t < best) {
          best = t;
          const Vec2 at = u.body.position + m * t;
          const double len = glm::length(o.body.position - at);
          normal = len > 1e-12 ? (o.body.position - at) / len : Vec2{1, 0};
        }
      }
      return best;
    };
    // The share s of a move such that s x move crosses no move made before it this
    // step: 1 when none is crossed, else found by bisection.
    // Crossing is passing well inside the other (kCrossing of the two radii) from apart;
    // units touching as they go (a column) do not cross, and a settled unit being shoved
    // is meant to be pressed into.
    auto crosses = [&](Vec2 m) {
      for (const std::uint32_t j : near) {
        if (!moved[j] || shover[j] == i) continue;  // a unit it shoves is pressed into
        const SimUnit& o = units[j];
        const double r = kCrossing * (ri + motions[o.movement_class].hard_radius);
        const Vec2 p0 = u.body.position - o.body.previous;
        const Vec2 p1 = u.body.position + m - o.body.position;
        if (glm::dot(p0, p0) >= r * r && distance_sq_to_segment(Vec2{0, 0}, p0, p1) < r * r) return true;
      }
      return false;
    };
    auto crossing_free_share = [&](std::uint32_t, Vec2 m) {
      if (!crosses(m)) return 1.0;
      double lo = 0, hi = 1;
      for (int k = 0; k < 24; ++k) {
        const double mid = 0.5 * (lo + hi);
        (crosses(m * mid) ? hi : lo) = mid;
      }
      return lo;
    };
    if (length > 0) {
      if (set.continuous) {
        // The others in the hash cells round it, in the hash's order, gathered once: every
        // contact and crossing test of its move reads them (it stands where it stood until
        // it has moved).
        near.clear();
        hashed.hash.near(u.body.position, [&](std::uint32_t j) {
          if (j != i) near.push_back(j);
        });
        bool free = false;  // the move as it stands touches nobody
        for (int iter = 0; iter < 3; ++iter) {
          Vec2 n{1, 0};
          const double t = earliest(move, n);
          if (t > 1) {
            free = true;
            break;
          }
          const double into = glm::dot(move, n);
          const Vec2 right{-n.y, n.x};  // right of n on screen (y down)
          const double ml = glm::length(move);
          const double across = glm::dot(move, right);
          const double side = std::abs(across) < kHeadOn * ml ? 1.0 : (across > 0 ? 1.0 : -1.0);
          Vec2 slid = move * t + right * ((across + side * into) * (1 - t));
          const double sl = glm::length(slid);
          if (sl > ml) slid *= ml / sl;  // never faster than meant
          move = slid;
        }
        // Whatever the slides left: stop at the first contact (a move found free above is
        // free still: nothing has moved meanwhile).
        if (!free) {
          Vec2 n;
          const double t = earliest(move, n);
          if (t <= 1) move *= std::max(0.0, t - 1e-9);
        }
        // Clear of where the others stand is not enough against those that moved this
        // step: taken as simultaneous straight lines (the referee's reading of a step),
        // a fast unit may cross another's move between their two positions. Then the
        // move is cut back to the longest part that crosses none (standing still does
        // not: each of those moves was checked against where this unit stands).
        move *= crossing_free_share(i, move);
        // A slide must not take the unit into the static world where its own move would not.
        const CostGrid& g = *grids[u.movement_class];
        if (move != x.next.position - u.body.position &&
            segment_blocked(g, x.move_key, u.body.position, u.body.position + move)) {
          move = Vec2{0, 0};
        }
      }
    }
    MotionState next = x.next;
    if (u.body.position + move != next.position) {
      next.position = u.body.position + move;
      next.speed = std::min(next.speed, glm::length(move) / dt);
      x.next_from_prediction = false;
    }
    // The static world (Listing 1: "if that new position causes a collision").
    const CostGrid& grid = *grids[u.movement_class];
    bool blocked = set.continuous ? segment_blocked(grid, x.move_key, u.body.position, next.position)
                                  : (point_blocked(grid, x.move_key, next.position) &&
                                     !point_blocked(grid, x.move_key, u.body.position));
    if (blocked && u.route.state == MoveState::InPlatoon) {
      // A vehicle in a platoon has no path to wait for (its crew steers to a point that
      // moves on): it slides along the wall, whose cells' sides run along the axes, the
      // whole length of its move along the way it leans (first the axis it leans to
      // most), so that it comes off a corner it is pressed against.
      const Vec2 m = next.position - u.body.position;
      const double len = glm::length(m);
      const Vec2 along_x{m.x > 0 ? len : -len, 0};
      const Vec2 along_y{0, m.y > 0 ? len : -len};
      const bool x_first = std::abs(m.x) >= std::abs(m.y);
      for (const Vec2 part : {x_first ? along_x : along_y, x_first ? along_y : along_x}) {
        if ((part.x != 0 && m.x == 0) || (part.y != 0 && m.y == 0)) continue;
        if (part == Vec2{0, 0} || segment_blocked(grid, x.move_key, u.body.position, u.body.position + part))
          continue;
        next.position = u.body.position + part;
        next.speed = std::min(next.speed, glm::length(part) / dt);
        blocked = false;
        break;
      }
    }
    if (blocked) {
      next = MotionState{u.body.position, next.heading, 0};
      x.next_from_prediction = false;
      if (u.route.state == MoveState::Moving && u.coop.yield == Yield::None) {
        u.route.state = MoveState::WaitingForPath;
        ++repaths;
      }
      if (u.coop.yield == Yield::MoveAside || u.coop.yield == Yield::Return)
        u.coop.until = 0;  // give the yield up
    }
    u.body.previous = u.body.position;
    moved[i] = 1;
    u.body.position = next.position;
    u.body.heading = next.heading;
    u.body.speed = next.speed;
    if (x.next_from_prediction && !u.route.predicted.empty()) {
      const std::uint32_t w = u.route.predicted[0].waypoint;
      u.route.predicted.pop_front();
      // Roll the list on by one step, from its last state.
      const std::size_t want = static_cast<std::size_t>(std::ceil(set.prediction_seconds / set.dt - 1e-9));
      if (!u.route.predicted.empty() && u.route.predicted.size() + 1 == want) {
        const PredictedPoint& last = u.route.predicted.back();
        MotionState s{last.position, last.heading, last.speed}, n;
        std::uint32_t lw = last.waypoint;
        const bool going = pursue(u, followed_path(u, x), motions[u.movement_class], grid, dt, s, lw, n);
        if ((going || n.speed > 0) && !segment_blocked(grid, x.move_key, s.position, n.position)) {
          u.route.predicted.push_back(PredictedPoint{n.position, n.heading, n.speed, last.time + dt, lw});
        }
      }
      if (u.coop.yield == Yield::None && u.route.state == MoveState::Moving) {
        u.route.waypoint = w;
        if (w >= u.route.path.size())
          u.route.state = MoveState::IncrementWaypoint;  // reached the order point
      }
    } else {
      u.route.predicted.clear();
      if (u.coop.yield == Yield::None && u.route.state == MoveState::Moving) {
        // Passed path points while off the prediction: the closest point ahead decides.
        const double accept = std::max(u.body.speed * dt, motions[u.movement_class].hard_radius);
        while (u.route.waypoint + 1 < u.route.path.size() &&
               glm::length(u.route.path[u.route.waypoint] - u.body.position) <= accept) {
          ++u.route.waypoint;
        }
      }
    }
    // Progress towards the order point, for stuck detection.
    if (!u.route.order.points.empty() && u.route.state != MoveState::ReachedGoal) {
      const double d =
          glm::length(u.route.order.points[std::min(u.route.order_point, u.route.order.points.size() - 1)] -
                      u.body.position);
      if (d < u.route.best_distance - 0.1) {
        u.route.best_distance = d;
        u.route.progress_time = now + dt;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Figures

}  // namespace pathscope::sim
