// Cooperation: the resolution of collisions between units (seed 002, "Unit to Unit
// Cooperation", "Basic Planning"). A component: cooperation.hpp; detection is in
// collision_detection.cpp.
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
// Basic Planning: a decided pair is remembered while its resolution runs and
// SimSettings::memory_seconds after, and is not checked for collisions meanwhile (the
// plan stands) unless one of them gets a new order, so no unit undoes its own decision.
// A slow-down (4.3) is the exception: it holds only while the lower unit can still stop,
// so its pair is still predicted and escalates to a pause (4.2) once the hard collision
// is imminent. A pause (4.2, case 3 follows at once) and a push (3.3, which turns into
// 3.1 as soon as the pushed unit can step aside) are decided again every step.

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/cooperation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/static_check.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr double kMargin = 0.05;      // metres added to every clearance
constexpr double kSlowSeconds = 1.5;  // a slow-down (case 3.1's mover, 4.3) gives up sooner than a move aside
constexpr double kRepathAfter = 3;    // seconds without progress before case 3.4 re-paths
constexpr double kSameWay = 0.5;      // cos of the largest angle between two units going "the same way"
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
  b.coop.lent = true;
  b.coop.lent_priority = r.first;
  b.coop.lent_index = r.second;
}

// a, under way to its slot of a formation, may swap slots with b: a formation-mate of
// the same order (and class) settled on its own slot, nearer a's slot than a is by more
// than a's hard radius (every swap hands the slot to a unit nearer it: no swap undoes
// another).
bool swaps_slots(const SimUnit& a, const UnitPrivate& xa, const SimUnit& b, const UnitPrivate& xb,
                 double hard_radius) {
  if (!a.goal.formation || !b.goal.formation || a.goal.formation_point != b.goal.formation_point ||
      xa.platoon != xb.platoon)
    return false;
  if (a.movement_class != b.movement_class || a.route.order.kind != OrderKind::Move ||
      b.route.order.kind != OrderKind::Move)
    return false;
  if (a.route.state != MoveState::Moving || a.coop.yield != Yield::None ||
      b.route.state != MoveState::ReachedGoal || !settled(b))
    return false;
  if (a.route.order.points.empty() || b.route.order.points.empty()) return false;
  const Vec2 slot = a.route.order.points.back();
  return glm::length(b.body.position - slot) + hard_radius < glm::length(a.body.position - slot);
}

}  // namespace

namespace {

// What a case of the rules decided about a collision.
enum class Binds : std::uint8_t {
  Nobody,      // nothing was asked of either unit
  Lower,       // only b was asked (a stays free to resolve what holds it up)
  Both,        // both were asked, for this step
  Remembered,  // both were asked, and the pair is remembered (Basic Planning)
};
struct Verdict {
  CooperationRule rule = CooperationRule::None;
  CollisionState state = CollisionState::Unresolved;
  Binds binds = Binds::Nobody;
};

// A collision as its deciding unit `a` sees it: the inputs every case reads.
struct Pair {
  Collision& c;
  SimUnit& a;
  SimUnit& b;
  UnitPrivate& xa;
  UnitPrivate& xb;
  const Motion& ma;
  const Motion& mb;
  const CostGrid& grid_a;
  const CostGrid& grid_b;
  bool higher;      // a outranks b
  double hard;      // the sum of their hard radii
  double now;       // seconds
  Vec2 world_size;  // metres
  std::uint64_t& repaths;

  bool inside(Vec2 p) const { return p.x >= 0 && p.y >= 0 && p.x <= world_size.x && p.y <= world_size.y; }
};

// Where the mover a's way passes b: the point of its path nearest b, the path's way
// there, and a's get-to point past b along it (the seed's "get-to point").
struct Way {
  const std::vector<Vec2>* path = nullptr;
  bool aside = false;  // a is moving aside or coming back: its way is its yield path
  Projection pr;
  Vec2 get_to{0, 0};
  Vec2 normal{0, 1};  // left of the way
  double side = 1;    // +1: b is left of the way, -1: right
};

Way way_past(const Pair& p) {
  Way w;
  w.aside = p.a.coop.yield == Yield::MoveAside || p.a.coop.yield == Yield::Return;
  w.path = w.aside ? &p.xa.yield_path : &p.a.route.path.points();
  const std::vector<Vec2>& path = *w.path;
  const std::size_t from = w.aside ? 0 : std::min(p.a.route.waypoint, path.empty() ? 0 : path.size() - 1);
  w.pr = path.empty() ? Projection{p.a.body.position, direction(p.a.body.heading), 0, 0}
                      : project(path, from, p.a.body.position, p.b.body.position);
  w.get_to = path.empty() ? p.a.body.position : along_path(path, w.pr, p.hard + p.ma.hard_radius + kMargin);
  w.normal = Vec2{-w.pr.dir.y, w.pr.dir.x};
  w.side = glm::dot(p.b.body.position - w.pr.point, w.normal) >= 0 ? 1.0 : -1.0;
  return w;
}

// b goes to `target` (moving aside, pushed, or out of an overlap) and comes back to
// `home` once a is past `get_to`.
void send_aside(Pair& p, Vec2 target, Vec2 home, Vec2 get_to) {
  p.b.coop.yield = Yield::MoveAside;
  p.b.coop.yield_to = p.a.id;
  lend(p.b, p.a, p.ma);
  p.b.coop.aside = target;
  p.b.coop.home = home;
  p.b.coop.get_to = get_to;
  p.b.coop.until = p.now + kYieldSeconds;
  p.xb.yield_path = {target};
  p.b.route.predicted.clear();
}

// Case 1: both still. Only a hard overlap now matters; the higher tells the lower to
// make the shortest move out of it, and it stays there.
Verdict both_still(Pair& p) {
  if (!(p.c.hard && p.c.immediate))
    return {CooperationRule::BothStill, CollisionState::Resolved, Binds::Nobody};
  const Vec2 d = p.b.body.position - p.a.body.position;
  const double len = glm::length(d);
  const Vec2 n = len > 1e-9 ? d / len : Vec2{1, 0};
  const Vec2 target = p.b.body.position + n * (p.hard - len + kMargin);
  if (!p.inside(target) || segment_blocked(p.grid_b, p.xb.move_key, p.b.body.position, target))
    return {CooperationRule::BothStill, CollisionState::Unresolved, Binds::Nobody};
  send_aside(p, target, target, target);
  return {CooperationRule::BothStill, CollisionState::Resolving, Binds::Remembered};
}

// Case 3.0 (ours): a, under way to its formation slot, meets a formation-mate settled on
// its own slot nearer a's: they swap slots (the caller starts both orders again).
std::optional<Verdict> swap_slots(Pair& p) {
  if (!p.c.hard || !swaps_slots(p.a, p.xa, p.b, p.xb, p.ma.hard_radius)) return std::nullopt;
  std::swap(p.a.route.order.points.back(), p.b.route.order.points.back());
  return Verdict{CooperationRule::SwapSlots, CollisionState::Resolved, Binds::Remembered};
}

// Case 3.1: a is higher and b can step off a's way: b moves aside and comes back once a
// is past its get-to point; a slows down meanwhile.
std::optional<Verdict> move_aside(Pair& p, const Way& w) {
  const Vec2 aside = w.pr.point + w.normal * (w.side * (p.hard + kMargin));
  if (!p.higher || !p.inside(aside) || segment_blocked(p.grid_b, p.xb.move_key, p.b.body.position, aside))
    return std::nullopt;
  send_aside(p, aside, p.b.body.position, w.get_to);
  p.a.coop.yield = Yield::SlowDown;  // wait (slow down) until it is out of the way
  p.a.coop.yield_to = p.b.id;
  p.a.coop.speed_factor = 0.3;
  p.a.coop.get_to = w.get_to;
  p.a.coop.home = p.a.body.position;
  p.a.coop.until = p.now + kSlowSeconds;
  p.a.route.predicted.clear();
  return Verdict{CooperationRule::MoveAside, CollisionState::Resolving, Binds::Remembered};
}

// Case 3.2: a goes round b, through a point beside it on a's side, if the way is open.
std::optional<Verdict> go_round(Pair& p, const Way& w) {
  const Vec2 detour = p.b.body.position - w.normal * (w.side * (p.hard + kMargin));
  if (w.aside || w.path->empty() || !p.inside(detour) ||
      segment_blocked(p.grid_a, p.xa.move_key, p.a.body.position, detour) ||
      segment_blocked(p.grid_a, p.xa.move_key, detour, w.get_to))
    return std::nullopt;
  // Path points under the other unit are left out: past the detour point the unit heads
  // for the first one beyond it.
  UnitPath& path = p.a.route.path;
  const auto first = path.begin() + static_cast<std::ptrdiff_t>(w.pr.segment);
  const auto last_inside = std::find_if(
      first, path.end(), [&](Vec2 q) { return glm::length(q - p.b.body.position) >= p.hard + kMargin; });
  const bool keep_end = last_inside == path.end();  // never drop the goal
  path.erase(first, keep_end ? path.end() - 1 : last_inside);
  path.insert(path.begin() + static_cast<std::ptrdiff_t>(w.pr.segment), detour);
  p.a.route.waypoint = w.pr.segment;
  p.a.coop.yield = Yield::Detour;
  p.a.coop.yield_to = p.b.id;
  p.a.coop.aside = detour;
  p.a.coop.until = p.now + kYieldSeconds;
  p.a.route.predicted.clear();
  return Verdict{CooperationRule::Avoid, CollisionState::Resolved, Binds::Remembered};
}

// Case 3.3: a is higher: it pushes b along its path, ahead of its get-to point. Not
// remembered: a pushes on at the next contact.
std::optional<Verdict> push(Pair& p, const Way& w) {
  if (!p.higher) return std::nullopt;
  const Vec2 ahead =
      w.path->empty() ? w.get_to : along_path(*w.path, w.pr, 2 * p.hard + p.ma.hard_radius + kMargin);
  if (!p.inside(ahead) || segment_blocked(p.grid_b, p.xb.move_key, p.b.body.position, ahead))
    return std::nullopt;
  send_aside(p, ahead, ahead, ahead);  // it stays ahead; the next collision decides again
  return Verdict{CooperationRule::Push, CollisionState::Resolving, Binds::Both};
}

// Case 3.4: a stops, and asks for a path again. The planners do not see units, so a new
// path differs only once the unit has been held up a while (pushed off its way, say):
// before, it stops and waits for the other; at most one new path per kRepathAfter (a jam
// re-planned every step would only cost time).
Verdict stop_and_repath(Pair& p, const Way& w) {
  if (!p.c.hard) return {CooperationRule::Repath, CollisionState::Unresolved, Binds::Nobody};
  if (!w.aside && p.a.route.state == MoveState::Moving && !p.a.route.order.points.empty() &&
      p.now - std::max(p.a.route.progress_time, p.xa.last_repath) > kRepathAfter) {
    p.a.route.state = MoveState::WaitingForPath;
    p.a.route.path.clear();
    p.xa.last_repath = p.now;
    ++p.repaths;
  }
  p.a.route.predicted.clear();
  p.a.coop.yield = Yield::Wait;
  p.a.coop.yield_to = p.b.id;
  p.a.coop.home = p.a.body.position;
  p.a.coop.get_to = p.a.body.position;
  p.a.coop.until = p.now + 1;
  return {CooperationRule::Repath, CollisionState::Resolved, Binds::Remembered};
}

// Case 4.2: the hard collision comes before b could stop: b pauses, and next step it is
// a still unit in a's way (case 3). Only b is bound: a stays free to resolve what holds
// it up itself this step (else a unit stopped by one unit while it pauses another would
// pause that one again every step, and never see to the first).
std::optional<Verdict> pause(Pair& p, const Way& w, double dt) {
  const double stop_time = p.b.body.speed / p.mb.deceleration + dt;
  if (!p.c.hard || !(p.c.immediate || p.c.time - p.now <= stop_time)) return std::nullopt;
  p.b.coop.yield = Yield::Wait;
  p.b.coop.yield_to = p.a.id;
  lend(p.b, p.a, p.ma);
  p.b.coop.home = p.b.body.position;
  p.b.coop.get_to = w.get_to;
  p.b.coop.until = p.now + kYieldSeconds;
  p.b.route.predicted.clear();
  return Verdict{CooperationRule::Pause, CollisionState::Resolving, Binds::Lower};
}

// Case 4.3: b slows down enough to reach the meeting point after a has passed its
// get-to point, until a has or kSlowSeconds have passed. (Holding it longer, until a
// could be past, resolves a right-angle crossing without the pause that follows now,
// but holds crowds up: two groups through a passage meet inside it.)
Verdict slow_down(Pair& p, const Way& w, double dt) {
  const double a_time = glm::length(w.get_to - p.a.body.position) /
                        std::max(1e-3, p.a.body.speed > 0 ? p.a.body.speed : p.ma.speed);
  const double b_dist = glm::length(p.c.point - p.b.body.position);
  const double factor = std::clamp(b_dist / (std::max(1e-3, p.mb.speed) * std::max(a_time, dt)), 0.1, 0.8);
  p.b.coop.yield = Yield::SlowDown;
  p.b.coop.yield_to = p.a.id;
  lend(p.b, p.a, p.ma);
  p.b.coop.speed_factor = factor;
  p.b.coop.home = p.c.point;
  p.b.coop.get_to = w.get_to;
  p.b.coop.until = p.now + kSlowSeconds;
  p.b.route.predicted.clear();
  return {CooperationRule::SlowDown, CollisionState::Resolving, Binds::Remembered};
}

}  // namespace

void cooperate(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
               std::span<const CostGrid* const> grids, Vec2 world_size, const SimSettings& set, double now,
               std::span<Collision> collisions, std::vector<Memory>& memory, CooperationScratch& scratch,
               CooperationOutcome& outcome) {
  outcome.repaths = 0;
  outcome.restart.clear();
  if (!set.cooperation) return;
  // One decision per unit per step: the most urgent collision decides.
  std::vector<std::uint8_t>& decided = scratch.decided;
  decided.assign(units.size(), 0);
  // The remembered pairs, for lookup (memory keeps its order).
  std::unordered_map<std::uint64_t, std::size_t>& remembered_at = scratch.remembered_at;
  remembered_at.clear();
  for (std::size_t k = 0; k < memory.size(); ++k)
    remembered_at.try_emplace(pair_key(memory[k].a, memory[k].b), k);
  std::vector<std::uint8_t>& forgotten = scratch.forgotten;
  forgotten.assign(memory.size(), 0);
  for (Collision& c : collisions) {
    // Remembered: decided already (Basic Planning; only a slow-down's pair is still
    // checked, and it holds until the hard collision is imminent).
    const auto found = remembered_at.find(pair_key(c.a, c.b));
    const Memory* remembered =
        found != remembered_at.end() && !forgotten[found->second] ? &memory[found->second] : nullptr;
    // A slow-down does not hold once the hard collision is imminent: it may escalate.
    const bool imminent = c.hard && (c.immediate || c.time - now <= 0.5);
    if (remembered && imminent && remembered->rule == CooperationRule::SlowDown) {
      forgotten[found->second] = 1;
    } else if (remembered) {
      c.rule = remembered->rule;
      c.a = remembered->a;  // the unit that decided
      c.b = remembered->b;
      const SimUnit& ua = units[c.a.index];
      const SimUnit& ub = units[c.b.index];
      const bool linked = (ua.coop.yield != Yield::None && ua.coop.yield_to == c.b) ||
                          (ub.coop.yield != Yield::None && ub.coop.yield_to == c.a);
      c.state = linked ? CollisionState::Resolving : CollisionState::Resolved;
      continue;
    }
    SimUnit* a = &units[c.a.index];
    SimUnit* b = &units[c.b.index];
    // Vehicles driving in a platoon follow seed 004, not seed 002: their crews avoid
    // other vehicles, and the moves and prevention keep every unit out of them.
    if (a->route.state == MoveState::InPlatoon || b->route.state == MoveState::InPlatoon) continue;
    bool a_moves = is_moving(*a), b_moves = is_moving(*b);
    // The decider: the mover; of two movers or two still units, the higher priority.
    if ((!a_moves && b_moves) ||
        (a_moves == b_moves && !outranks(*a, motions[a->movement_class], *b, motions[b->movement_class]))) {
      std::swap(a, b);
      std::swap(c.a, c.b);
      std::swap(a_moves, b_moves);
    }
    if (decided[a->id.index] || decided[b->id.index]) continue;  // a more urgent one was decided
    const Motion& ma = motions[a->movement_class];
    const Motion& mb = motions[b->movement_class];
    Pair p{c,
           *a,
           *b,
           extra[a->id.index],
           extra[b->id.index],
           ma,
           mb,
           *grids[a->movement_class],
           *grids[b->movement_class],
           outranks(*a, ma, *b, mb),
           ma.hard_radius + mb.hard_radius,
           now,
           world_size,
           outcome.repaths};
    Verdict v;
    if (!a_moves && !b_moves) {
      v = both_still(p);
    } else {
      const Way w = way_past(p);
      c.get_to = w.get_to;
      if (!b_moves) {
        // Case 3: we move, the other is still.
        if (auto swapped = swap_slots(p)) {
          // Each starts its order again, to its new slot (and arrives again only there):
          // the step does it, once every collision is decided.
          outcome.restart.push_back(a->id.index);
          outcome.restart.push_back(b->id.index);
          v = *swapped;
        } else if (auto r = move_aside(p, w)) {
          v = *r;
        } else if (auto r2 = go_round(p, w)) {
          v = *r2;
        } else if (auto r3 = push(p, w)) {
          v = *r3;
        } else {
          v = stop_and_repath(p, w);
        }
      } else if (glm::dot(direction(a->body.heading), direction(b->body.heading)) > kSameWay) {
        // Case 4, both move; a is the higher (4.1: b does nothing of its own volition).
        // Two units going the same way (a column, a crowd through a gap) follow each
        // other: the moves' contact slide keeps them apart, and neither gives way.
        v = {CooperationRule::LowerPriority, CollisionState::Resolved, Binds::Nobody};
      } else if (auto paused = pause(p, w, set.dt)) {
        v = *paused;
      } else {
        v = slow_down(p, w, set.dt);
      }
    }
    c.rule = v.rule;
    c.state = v.state;
    switch (v.binds) {
      case Binds::Nobody: break;
      case Binds::Lower: decided[b->id.index] = 1; break;
      case Binds::Remembered:
        // Remembered while the resolution runs, and memory_seconds after.
        memory.push_back(Memory{c.a, c.b, now + kYieldSeconds + set.memory_seconds, v.rule});
        [[fallthrough]];
      case Binds::Both: decided[a->id.index] = decided[b->id.index] = 1; break;
    }
  }
  // Drop the remembered slow-downs that escalated (new entries were appended after them).
  std::size_t kept = 0;
  for (std::size_t k = 0; k < memory.size(); ++k) {
    if (k < forgotten.size() && forgotten[k]) continue;
    memory[kept++] = memory[k];
  }
  memory.resize(kept);
}

}  // namespace pathscope::sim
