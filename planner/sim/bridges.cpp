// Bridges in the simulation (seed 004, "Bridges": "only one platoon at a time can be on
// them, since there is no room to pass. If a platoon is on a bridge, the bridge is marked
// with that platoon ID and other platoons must wait before crossing").
//
// Each step, after the state loops: a moving unit whose predicted positions reach an
// intact bridge's deck (within half its width of its segment) asks the world's ledger
// (BridgeReservations) for the bridge on behalf of its platoon; refused, it waits where it
// is (a yield that cooperation sees as a still unit) and asks again next step. A platoon
// holds a bridge while any of its units is on the deck or about to drive onto it; then
// the bridge is released. Units are asked in slot order, so the same run grants the
// same platoon.
//
// A component: it sees the units, one bridge, the ledger and each unit's platoon and last
// bridge (BridgeUnit), and returns the units refused (BridgeWait); how a unit waits is the
// step's.

#include "planner/sim/bridges.hpp"

#include <algorithm>
#include <vector>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/bridge_reservations.hpp"

namespace pathscope::sim {

namespace {

constexpr double kApproach = 5;  // metres of its way ahead a unit looks for a bridge's deck

bool on_deck(const Bridge& b, Vec2 p) {
  const double half = 0.5 * b.width;
  return distance_sq_to_segment(p, b.a, b.b) <= half * half;
}

}  // namespace

void keep_bridge_for_platoons(const Bridge& b, BridgeReservations& ledger, std::span<BridgePlatoon> platoons,
                              std::vector<std::uint32_t>& claimed) {
  if (!b.intact) return;
  for (BridgePlatoon& p : platoons) {
    if (p.walk == nullptr) continue;
    const bool on = std::any_of(p.vehicles.begin(), p.vehicles.end(), [&](Vec2 v) { return on_deck(b, v); });
    // Where its way meets the deck, within reach.
    double to_deck = -1;
    if (!on) {
      const double end = std::min(p.along + p.front + p.reach, p.walk->length());
      for (double s = p.along; s <= end; s += 0.5) {
        if (on_deck(b, p.walk->point_at(s))) {
          to_deck = s - p.along;
          break;
        }
      }
      if (to_deck < 0) continue;
    }
    if (on || to_deck == 0) {
      (void)ledger.reserve(b.id, p.platoon);  // free: it is ours; held: it is on it anyway
      claimed.push_back(p.platoon);
      continue;
    }
    if (ledger.reserve(b.id, p.platoon).granted) {
      claimed.push_back(p.platoon);
      continue;
    }
    const double hold = p.along + std::max(to_deck - p.front, 0.0);
    if (hold < p.hold_at) {
      p.hold_at = hold;
      p.held_by = b.id;
    }
  }
}

void keep_bridge(const Bridge& b, std::span<const SimUnit> units, double now, BridgeReservations& ledger,
                 std::span<BridgeUnit> track, std::span<const std::uint32_t> claimed,
                 std::vector<BridgeWait>& waits) {
  waits.clear();
  if (!b.intact) {
    ledger.clear(b.id);
    return;
  }
  std::vector<std::uint32_t> present(claimed.begin(),
                                     claimed.end());  // platoons on the deck or driving onto it
  for (const SimUnit& u : units) {
    if (!u.alive || !is_moving(u)) continue;
    BridgeUnit& x = track[u.id.index];
    if (on_deck(b, u.body.position)) {
      (void)ledger.reserve(b.id, x.platoon);  // free: it is ours; held: we are on it anyway
      present.push_back(x.platoon);
      x.last_bridge = b.id;
      x.bridge_time = now;
      continue;
    }
    // Come off it a moment ago and still near: the queue at this end waits for it.
    if (x.last_bridge == b.id && now - x.bridge_time <= kClearSeconds &&
        distance_sq_to_segment(u.body.position, b.a, b.b) <= kQueueReach * kQueueReach) {
      present.push_back(x.platoon);
      continue;
    }
    if (u.route.state == MoveState::InPlatoon) continue;  // its platoon asks (keep_bridge_for_platoons)
    // About to drive onto it: its way (its predicted positions, or the path ahead
    // sampled every half metre) reaches the deck within kApproach metres, so that it
    // waits off the bridge's end, where the platoon coming off can pass it. Farther
    // back, within kQueueReach metres, it joins the queue if another platoon holds the
    // bridge, rather than walk up into the way of those coming off.
    Vec2 entry = u.body.position;
    double distance = -1;  // along its way to the deck; -1: not within reach
    for (const PredictedPoint& p : u.route.predicted) {
      if (on_deck(b, p.position)) {
        entry = p.position;
        distance = 0;
        break;
      }
    }
    if (distance < 0 && u.coop.yield == Yield::None && u.route.waypoint < u.route.path.size()) {
      double walked = 0;
      Vec2 from = u.body.position;
      for (std::size_t k = u.route.waypoint; k < u.route.path.size() && walked <= kQueueReach && distance < 0;
           ++k) {
        const Vec2 to = u.route.path[k];
        const double len = glm::length(to - from);
        for (double d = 0; d <= len && walked + d <= kQueueReach; d += 0.5) {
          entry = len > 0 ? from + (to - from) * (d / len) : to;
          if (on_deck(b, entry)) {
            distance = walked + d;
            break;
          }
        }
        walked += len;
        from = to;
      }
    }
    if (distance < 0) continue;
    if (distance > kApproach) {
      const auto holder = ledger.holder(b.id);
      if (!holder || *holder == x.platoon) continue;
    } else {
      const BridgeReservation r = ledger.reserve(b.id, x.platoon);
      if (r.granted) {
        present.push_back(x.platoon);
        continue;
      }
    }
    // Another platoon holds it: wait before the bridge, clear of the way off its end.
    x.waiting = true;
    const Vec2 along = b.b - b.a;
    const double len = glm::length(along);
    Vec2 flow = len > 0 ? along / len : direction(u.body.heading);
    if (glm::dot(flow, entry - u.body.position) < 0) flow = -flow;
    waits.push_back(BridgeWait{u.id.index, entry, flow, 0.5 * b.width});
  }
  if (const auto holder = ledger.holder(b.id)) {
    if (std::find(present.begin(), present.end(), *holder) == present.end()) ledger.release(b.id, *holder);
  }
}

}  // namespace pathscope::sim
