// Collisions between units and their resolution (seed 002, "Collision Determination",
// "Predicted Positions", "Unit to Unit Cooperation", "Basic Planning").
//
// Detection: the spatial hash gives the pairs near enough to meet within the horizon;
// a pair collides now (hard or soft shapes overlapping) or in the future (the first
// predicted step at which they would; every unit predicts at the same time stamps, so
// the lists are compared index by index, a finished list standing at its last point).
// Collisions are handled immediate before future, hard before soft, soonest first.
//
// Resolution, from the deciding unit's frame of reference (the mover; of two movers or
// two still units, the higher priority):
//   1   both still: the higher tells the lower to make the shortest move out of the overlap;
//   2   we are still, the other moves: nothing (the other decides);
//   3.0 (ours) we go to our slot of a group's formation, the other is a formation-mate
//       settled on its own, nearer ours than we are: we swap slots, and it walks on;
//   3.1 we move, the other is still and lower: our get-to point lies past it along our
//       path; it moves aside, off our path, and returns once we are past;
//   3.2 else we go round it, through a point beside it, if the way is open;
//   3.3 else, if we are higher, we push it along our path ahead of us;
//   3.4 else we stop and ask for a path again;
//   4.1 both move, we are lower: nothing;
//   4.2 both move and the hard collision comes before the lower could stop: it pauses
//       (and case 3 follows);
//   4.3 else the lower slows down until we are past our get-to point.
// A decided pair is remembered for SimSettings::memory_seconds and not decided again
// meanwhile unless one of them gets a new order, so no unit undoes its own decision.

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "planner/core/geometry.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr double kMargin = 0.05;      // metres added to every clearance
constexpr double kSlowSeconds = 1.5;  // a slow-down (case 3.1's mover, 4.3) gives up sooner
constexpr double kRepathAfter = 3;    // seconds without progress before case 3.4 re-paths
constexpr double kSameWay = 0.5;      // cos of the largest angle between two units going "the same way"
constexpr std::size_t kStride = 4;    // predicted steps per window of the future-collision scan
// Hard shapes closer than this count as colliding: continuous checks stop units at
// contact, and touching units must still be resolved.
constexpr double kContact = 0.02;

Vec2 position_at(const SimUnit& u, std::size_t k) {
  if (u.predicted.empty()) return u.position;
  return u.predicted[std::min(k, u.predicted.size() - 1)].position;
}

std::uint64_t pair_key(UnitId a, UnitId b) {
  const std::uint32_t lo = std::min(a.index, b.index), hi = std::max(a.index, b.index);
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

// The point of `path` (from point `from` on, starting at `p`) closest to `q`, the
// direction of the path there, and the distance along the path to it.
struct Projection {
  Vec2 point{0, 0};
  Vec2 dir{1, 0};
  double along = 0;
  std::size_t segment = 0;  // index of the path point the segment ends at
};

Projection project(const std::vector<Vec2>& path, std::size_t from, Vec2 p, Vec2 q) {
  Projection best;
  double best_d = INFINITY;
  double along = 0;
  Vec2 a = p;
  // The point closest to q lies within |q - p| of p along the path's stretch that can
  // matter: look no farther than that and a little more (paths can be long).
  const double enough = glm::length(q - p) + 4;
  for (std::size_t i = from; i < path.size() && along <= enough; ++i) {
    const Vec2 b = path[i];
    const Vec2 ab = b - a;
    const double len2 = glm::dot(ab, ab);
    const double t = len2 > 0 ? std::clamp(glm::dot(q - a, ab) / len2, 0.0, 1.0) : 0.0;
    const Vec2 c = a + ab * t;
    const double d = glm::dot(q - c, q - c);
    if (d < best_d) {
      best_d = d;
      best.point = c;
      best.dir = len2 > 0 ? ab / std::sqrt(len2) : best.dir;
      best.along = along + std::sqrt(len2) * t;
      best.segment = i;
    }
    along += std::sqrt(len2);
    a = b;
  }
  return best;
}

// The point `distance` metres further along the path than the projection; past the
// path's end, on along its last direction.
Vec2 along_path(const std::vector<Vec2>& path, const Projection& pr, double distance) {
  Vec2 a = pr.point;
  Vec2 dir = pr.dir;
  for (std::size_t i = pr.segment; i < path.size(); ++i) {
    const double len = glm::length(path[i] - a);
    if (len > 0) dir = (path[i] - a) / len;
    if (len >= distance) return a + dir * distance;
    distance -= len;
    a = path[i];
  }
  return a + dir * distance;
}

// b gives way to a: it ranks as a while it does.
void lend(SimUnit& b, const SimUnit& a, const Motion& ma) {
  const auto r = effective_rank(a, ma);
  b.lent = true;
  b.lent_priority = r.first;
  b.lent_index = r.second;
}

// a, under way to its slot of a formation, may swap slots with b: a formation-mate of
// the same order (and class) settled on its own slot, nearer a's slot than a is by more
// than a's hard radius (every swap hands the slot to a unit nearer it: no swap undoes
// another).
bool swaps_slots(const SimUnit& a, const UnitPrivate& xa, const SimUnit& b, const UnitPrivate& xb,
                 double hard_radius) {
  if (!a.formation || !b.formation || a.formation_point != b.formation_point || xa.platoon != xb.platoon)
    return false;
  if (a.movement_class != b.movement_class || a.order.kind != OrderKind::Move ||
      b.order.kind != OrderKind::Move)
    return false;
  if (a.state != MoveState::Moving || a.yield != Yield::None || b.state != MoveState::ReachedGoal ||
      !settled(b))
    return false;
  if (a.order.points.empty() || b.order.points.empty()) return false;
  const Vec2 slot = a.order.points.back();
  return glm::length(b.position - slot) + hard_radius < glm::length(a.position - slot);
}

}  // namespace

void Simulation::detect_collisions() {
  collisions_.clear();
  const SimSettings& set = scenario().sim;
  const double now = time();
  std::erase_if(memory_, [&](const Memory& m) { return m.until <= now || !unit(m.a) || !unit(m.b); });
  const double horizon = std::min(set.prediction_seconds, 1.0);
  const double reach = 2 * impl_->max_soft + 2 * impl_->max_speed * horizon + 1e-9;
  impl_->hash_units(units_, reach);
  const auto horizon_steps = static_cast<std::size_t>(std::ceil(horizon / set.dt - 1e-9));
  impl_->hash.pairs_within(impl_->points, reach, [&](std::uint32_t i, std::uint32_t j) {
    const SimUnit& a = units_[i];
    const SimUnit& b = units_[j];
    const Motion& ma = impl_->motions[a.movement_class];
    const Motion& mb = impl_->motions[b.movement_class];
    const double soft = ma.soft_radius + mb.soft_radius;
    const double hard = ma.hard_radius + mb.hard_radius + kContact;
    const double d0 = glm::length(a.position - b.position);
    if (d0 >= soft + (ma.speed + mb.speed) * horizon) return;
    // Units that do not close in on each other (a column walking together, two units
    // parting) have nothing to resolve unless their hard shapes touch.
    const Vec2 relative = direction(b.heading) * b.speed - direction(a.heading) * a.speed;
    const bool closing = glm::dot(b.position - a.position, relative) < 0;
    if (!closing && d0 >= hard) return;
    Collision c;
    c.a = a.id;
    c.b = b.id;
    if (d0 < soft) {
      c.immediate = true;
      c.hard = d0 < hard;
      c.time = now;
      c.point = (a.position + b.position) * 0.5;
    } else {
      const std::size_t n = std::min(horizon_steps, std::max(a.predicted.size(), b.predicted.size()));
      bool found = false;
      // Windows of kStride steps first: between two sampled steps the relative position
      // stays within half the window's relative travel of the line joining them, so a
      // window whose line passes farther than that from soft contact holds no contact.
      // Inside the others every step is tested: the same first step as testing them all.
      // (Top speeds on the fastest ground: roads divide the multipliers.)
      const double va = ma.speed / std::min(1.0, world_->grid(a.movement_class).min_multiplier());
      const double vb = mb.speed / std::min(1.0, world_->grid(b.movement_class).min_multiplier());
      const double slack = 0.5 * (va + vb) * kStride * set.dt;
      const double reach2 = (soft + slack) * (soft + slack);
      std::size_t k = 0;
      while (k < n && !found) {
        const std::size_t k1 = std::min(k + kStride, n - 1);
        const Vec2 r0 = position_at(b, k) - position_at(a, k);
        const Vec2 r1 = position_at(b, k1) - position_at(a, k1);
        if (distance_sq_to_segment(Vec2{0, 0}, r0, r1) >= reach2) {
          k = k1 + 1;
          continue;
        }
        const std::size_t window_end = k1;
        for (; k <= window_end && !found; ++k) {
          const Vec2 pa = position_at(a, k), pb = position_at(b, k);
          const double d = glm::length(pa - pb);
          if (d < soft) {
            found = true;
            c.hard = d < hard;
            c.time = now + static_cast<double>(k + 1) * set.dt;
            c.point = (pa + pb) * 0.5;
            // A soft meeting may turn hard a little later: look on for the hard one.
            for (std::size_t k2 = k + 1; k2 < n && !c.hard; ++k2) {
              const Vec2 qa = position_at(a, k2), qb = position_at(b, k2);
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
    collisions_.push_back(c);
  });
  std::sort(collisions_.begin(), collisions_.end(), [](const Collision& x, const Collision& y) {
    if (x.immediate != y.immediate) return x.immediate;
    if (x.hard != y.hard) return x.hard;
    if (x.time != y.time) return x.time < y.time;
    if (x.a.index != y.a.index) return x.a.index < y.a.index;
    return x.b.index < y.b.index;
  });
  counters_.collisions_found += collisions_.size();
  // Density: where collisions keep happening (seed 002), per cell of the world's grid;
  // what happened long ago counts less (SimSettings::density_half_life).
  const CostGrid& grid = world_->grid(0);
  if (density_.value.empty()) {
    density_.width = grid.width();
    density_.height = grid.height();
    density_.cell_size = grid.cell_size();
    density_.value.assign(static_cast<std::size_t>(grid.width()) * static_cast<std::size_t>(grid.height()),
                          0.0f);
  }
  decay_density();  // by one step's share of the half-life (density_cost.cpp)
  for (const Collision& c : collisions_) {
    if (!c.immediate) continue;
    const auto cell = grid.cell_at(c.point);
    if (!cell) continue;
    float& v = density_.value[*cell];
    if (v == 0.0f) impl_->density_cells.push_back(*cell);
    v += c.hard ? 1.0f : 0.25f;
    density_.max_value = std::max(density_.max_value, v);
  }
}

void Simulation::cooperate() {
  const SimSettings& set = scenario().sim;
  const double now = time();
  if (!set.cooperation) return;
  // One decision per unit per step: the most urgent collision decides.
  std::vector<std::uint8_t>& decided = impl_->decided;
  decided.assign(units_.size(), 0);
  // The remembered pairs, for lookup (memory_ keeps its order).
  std::unordered_map<std::uint64_t, std::size_t>& remembered_at = impl_->remembered_at;
  remembered_at.clear();
  for (std::size_t k = 0; k < memory_.size(); ++k)
    remembered_at.try_emplace(pair_key(memory_[k].a, memory_[k].b), k);
  std::vector<std::uint8_t> forgotten(memory_.size(), 0);
  for (Collision& c : collisions_) {
    // Remembered: decided already (Basic Planning).
    const auto found = remembered_at.find(pair_key(c.a, c.b));
    const Memory* remembered =
        found != remembered_at.end() && !forgotten[found->second] ? &memory_[found->second] : nullptr;
    // A slow-down does not hold once the hard collision is imminent: it may escalate.
    const bool imminent = c.hard && (c.immediate || c.time - now <= 0.5);
    if (remembered && imminent && remembered->rule == CooperationRule::SlowDown) {
      forgotten[found->second] = 1;
    } else if (remembered) {
      c.rule = remembered->rule;
      c.a = remembered->a;  // the unit that decided
      c.b = remembered->b;
      const SimUnit& ua = units_[c.a.index];
      const SimUnit& ub = units_[c.b.index];
      const bool linked =
          (ua.yield != Yield::None && ua.yield_to == c.b) || (ub.yield != Yield::None && ub.yield_to == c.a);
      c.state = linked ? CollisionState::Resolving : CollisionState::Resolved;
      continue;
    }
    SimUnit* a = &units_[c.a.index];
    SimUnit* b = &units_[c.b.index];
    bool a_moves = is_moving(*a), b_moves = is_moving(*b);
    // The decider: the mover; of two movers or two still units, the higher priority.
    if ((!a_moves && b_moves) || (a_moves == b_moves && !outranks(*a, impl_->motions[a->movement_class], *b,
                                                                  impl_->motions[b->movement_class]))) {
      std::swap(a, b);
      std::swap(c.a, c.b);
      std::swap(a_moves, b_moves);
    }
    if (decided[a->id.index] || decided[b->id.index]) continue;  // a more urgent one was decided
    const Motion& ma = impl_->motions[a->movement_class];
    const Motion& mb = impl_->motions[b->movement_class];
    UnitPrivate& xa = impl_->extra[a->id.index];
    UnitPrivate& xb = impl_->extra[b->id.index];
    const bool higher = outranks(*a, ma, *b, mb);
    const double hard = ma.hard_radius + mb.hard_radius;
    const CostGrid& grid_a = world_->grid(a->movement_class);
    const CostGrid& grid_b = world_->grid(b->movement_class);
    const bool a_still_b_still = !a_moves && !b_moves;
    auto remember = [&](CooperationRule rule) {
      c.rule = rule;
      // Remembered while the resolution runs, and memory_seconds after.
      memory_.push_back(Memory{c.a, c.b, now + kYieldSeconds + set.memory_seconds, rule});
      decided[a->id.index] = decided[b->id.index] = 1;
    };
    auto inside = [&](Vec2 p) {
      return p.x >= 0 && p.y >= 0 && p.x <= scenario().world.width && p.y <= scenario().world.height;
    };
    if (a_still_b_still) {
      // Case 1. Only hard overlaps matter between still units.
      if (!(c.hard && c.immediate)) {
        c.rule = CooperationRule::BothStill;
        c.state = CollisionState::Resolved;
        continue;
      }
      const Vec2 d = b->position - a->position;
      const double len = glm::length(d);
      const Vec2 n = len > 1e-9 ? d / len : Vec2{1, 0};
      const Vec2 target = b->position + n * (hard - len + kMargin);
      if (!inside(target) || segment_blocked(grid_b, xb.move_key, b->position, target)) {
        c.rule = CooperationRule::BothStill;
        c.state = CollisionState::Unresolved;
        continue;
      }
      b->yield = Yield::MoveAside;
      b->yield_to = a->id;
      lend(*b, *a, ma);
      b->aside = b->home = target;  // the shortest move; it stays there
      b->get_to = target;
      b->yield_until = now + kYieldSeconds;
      xb.yield_path = {target};
      b->predicted.clear();
      c.state = CollisionState::Resolving;
      remember(CooperationRule::BothStill);
      continue;
    }
    // a moves. Where its path passes b, and its get-to point past it.
    const bool a_aside = a->yield == Yield::MoveAside || a->yield == Yield::Return;
    const std::vector<Vec2>& path_a = a_aside ? xa.yield_path : a->path;
    const std::size_t from = a_aside ? 0 : std::min(a->waypoint, path_a.empty() ? 0 : path_a.size() - 1);
    const Projection pr = path_a.empty() ? Projection{a->position, direction(a->heading), 0, 0}
                                         : project(path_a, from, a->position, b->position);
    const Vec2 get_to =
        path_a.empty() ? a->position : along_path(path_a, pr, hard + ma.hard_radius + kMargin);
    c.get_to = get_to;
    const Vec2 normal{-pr.dir.y, pr.dir.x};
    const double offset = glm::dot(b->position - pr.point, normal);
    const double side = offset >= 0 ? 1.0 : -1.0;
    if (!b_moves) {
      // Case 3: we move, the other is still.
      // Ours, first: a formation-mate settled on its slot, nearer our slot than we are,
      // takes our slot and walks on to it, and we take its slot. A late unit does not
      // have to make its way through the arrived ones to a slot deep in the formation:
      // the vacancy comes out to it, one unit at a time.
      if (c.hard && swaps_slots(*a, xa, *b, xb, ma.hard_radius)) {
        // Each starts its order again, to its new slot (and arrives again only there).
        std::swap(a->order.points.back(), b->order.points.back());
        start_order(*a);
        start_order(*b);
        c.state = CollisionState::Resolved;
        remember(CooperationRule::SwapSlots);
        continue;
      }
      const Vec2 aside_b = pr.point + normal * (side * (hard + kMargin));
      const bool b_can_move = inside(aside_b) && !segment_blocked(grid_b, xb.move_key, b->position, aside_b);
      if (higher && b_can_move) {
        // 3.1: it moves aside and comes back once we are past our get-to point.
        b->yield = Yield::MoveAside;
        b->yield_to = a->id;
        lend(*b, *a, ma);
        b->aside = aside_b;
        b->home = b->position;
        b->get_to = get_to;
        b->yield_until = now + kYieldSeconds;
        xb.yield_path = {aside_b};
        b->predicted.clear();
        a->yield = Yield::SlowDown;  // wait (slow down) until it is out of the way
        a->yield_to = b->id;
        a->speed_factor = 0.3;
        a->get_to = get_to;
        a->home = a->position;
        a->yield_until = now + kSlowSeconds;
        a->predicted.clear();
        c.state = CollisionState::Resolving;
        remember(CooperationRule::MoveAside);
        continue;
      }
      // 3.2: go round it, on our side of it.
      const Vec2 detour = b->position - normal * (side * (hard + kMargin));
      if (!a_aside && !path_a.empty() && inside(detour) &&
          !segment_blocked(grid_a, xa.move_key, a->position, detour) &&
          !segment_blocked(grid_a, xa.move_key, detour, get_to)) {
        // Path points under the other unit are left out: past the detour point the
        // unit heads for the first one beyond it.
        const auto first = a->path.begin() + static_cast<std::ptrdiff_t>(pr.segment);
        const auto last_inside = std::find_if(
            first, a->path.end(), [&](Vec2 p) { return glm::length(p - b->position) >= hard + kMargin; });
        const bool keep_end = last_inside == a->path.end();  // never drop the goal
        a->path.erase(first, keep_end ? a->path.end() - 1 : last_inside);
        a->path.insert(a->path.begin() + static_cast<std::ptrdiff_t>(pr.segment), detour);
        a->waypoint = pr.segment;
        a->yield = Yield::Detour;
        a->yield_to = b->id;
        a->aside = detour;
        a->yield_until = now + kYieldSeconds;
        a->predicted.clear();
        c.state = CollisionState::Resolved;
        remember(CooperationRule::Avoid);
        continue;
      }
      if (higher) {
        // 3.3: push it along our path, ahead of our get-to point.
        const Vec2 ahead =
            path_a.empty() ? get_to : along_path(path_a, pr, 2 * hard + ma.hard_radius + kMargin);
        if (inside(ahead) && !segment_blocked(grid_b, xb.move_key, b->position, ahead)) {
          b->yield = Yield::MoveAside;
          b->yield_to = a->id;
          lend(*b, *a, ma);
          b->aside = b->home = ahead;  // it stays ahead; the next collision decides again
          b->get_to = ahead;
          b->yield_until = now + kYieldSeconds;
          xb.yield_path = {ahead};
          b->predicted.clear();
          c.state = CollisionState::Resolving;
          c.rule = CooperationRule::Push;
          decided[a->id.index] = decided[b->id.index] = 1;  // not remembered: we push on at the next contact
          continue;
        }
      }
      // 3.4: stop, and re-path. The planners do not see units, so a new path differs
      // only once the unit has been held up a while (pushed off its way, say): before,
      // it stops and waits for the other.
      if (c.hard) {
        // Held up: a new path, at most once per kRepathAfter (a jam re-planned every
        // step would only cost time: the planners do not see the jam).
        if (!a_aside && a->state == MoveState::Moving && !a->order.points.empty() &&
            now - std::max(a->progress_time, xa.last_repath) > kRepathAfter) {
          a->state = MoveState::WaitingForPath;
          a->path.clear();
          xa.last_repath = now;
          ++counters_.repaths;
        }
        a->predicted.clear();
        a->yield = Yield::Wait;
        a->yield_to = b->id;
        a->home = a->position;
        a->get_to = a->position;
        a->yield_until = now + 1;
        c.state = CollisionState::Resolved;
        remember(CooperationRule::Repath);
      } else {
        c.rule = CooperationRule::Repath;
        c.state = CollisionState::Unresolved;
      }
      continue;
    }
    // Case 4: both move; a is the higher (4.1: b does nothing of its own volition).
    // Two units going the same way (a column, a crowd through a gap) follow each other:
    // the moves' contact slide keeps them apart, and neither has to give way.
    if (glm::dot(direction(a->heading), direction(b->heading)) > kSameWay) {
      c.rule = CooperationRule::LowerPriority;
      c.state = CollisionState::Resolved;
      continue;
    }
    const double stop_time = b->speed / mb.deceleration + set.dt;
    if (c.hard && (c.immediate || c.time - now <= stop_time)) {
      // 4.2: the lower pauses; next step it is a still unit in our way (case 3).
      b->yield = Yield::Wait;
      b->yield_to = a->id;
      lend(*b, *a, ma);
      b->home = b->position;
      b->get_to = get_to;
      b->yield_until = now + kYieldSeconds;
      b->predicted.clear();
      c.state = CollisionState::Resolving;
      c.rule = CooperationRule::Pause;
      // Not remembered: case 3 decides next. Only b is decided: a pause leaves a as it
      // was, free to resolve what holds it up itself this step (else a unit stopped by
      // one unit while it pauses another would pause that one again every step, and
      // never see to the first).
      decided[b->id.index] = 1;
      continue;
    }
    // 4.3: the lower slows down enough to reach the meeting point after we have passed.
    const double a_time =
        glm::length(get_to - a->position) / std::max(1e-3, a->speed > 0 ? a->speed : ma.speed);
    const double b_dist = glm::length(c.point - b->position);
    const double factor =
        std::clamp(b_dist / (std::max(1e-3, mb.speed) * std::max(a_time, set.dt)), 0.1, 0.8);
    b->yield = Yield::SlowDown;
    b->yield_to = a->id;
    lend(*b, *a, ma);
    b->speed_factor = factor;
    b->home = c.point;
    b->get_to = get_to;
    b->yield_until = now + kSlowSeconds;
    b->predicted.clear();
    c.state = CollisionState::Resolving;
    remember(CooperationRule::SlowDown);
  }
  // Drop the remembered slow-downs that escalated (new entries were appended after them).
  std::size_t kept = 0;
  for (std::size_t k = 0; k < memory_.size(); ++k) {
    if (k < forgotten.size() && forgotten[k]) continue;
    memory_[kept++] = memory_[k];
  }
  memory_.resize(kept);
}

}  // namespace pathscope::sim
