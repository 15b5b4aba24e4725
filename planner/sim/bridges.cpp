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

#include <algorithm>
#include <limits>

#include <glm/geometric.hpp>

#include "planner/core/geometry.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/world/planning_world.hpp"

namespace pathscope::sim {

namespace {

constexpr double kApproach = 5;  // metres of its way ahead a unit looks for a bridge's deck

bool on_deck(const Bridge& b, Vec2 p) {
  const double half = 0.5 * b.width;
  return distance_sq_to_segment(p, b.a, b.b) <= half * half;
}

}  // namespace

void Simulation::keep_bridges() {
  const Scenario& sc = scenario();
  for (SimUnit& u : units_) u.bridge_wait = false;
  if (sc.bridges.empty()) return;
  const double dt = sc.sim.dt;
  for (const Bridge& b : sc.bridges) {
    if (!b.intact) {
      impl_->bridges.clear(b.id);
      continue;
    }
    std::vector<std::uint32_t> present;  // platoons on the deck or driving onto it
    for (SimUnit& u : units_) {
      if (!u.alive || !is_moving(u)) continue;
      UnitPrivate& x = impl_->extra[u.id.index];
      if (on_deck(b, u.position)) {
        (void)impl_->bridges.reserve(b.id, x.platoon);  // free: it is ours; held: we are on it anyway
        present.push_back(x.platoon);
        continue;
      }
      // About to drive onto it: its way (the path ahead, sampled every half metre, or
      // its predicted positions) reaches the deck within kApproach metres, so that it
      // waits off the bridge's end, where the platoon coming off can pass it.
      bool approaching = std::any_of(u.predicted.begin(), u.predicted.end(),
                                     [&](const PredictedPoint& p) { return on_deck(b, p.position); });
      if (!approaching && u.yield == Yield::None && u.waypoint < u.path.size()) {
        double left = kApproach;
        Vec2 from = u.position;
        for (std::size_t k = u.waypoint; k < u.path.size() && left > 0 && !approaching; ++k) {
          const Vec2 to = u.path[k];
          const double len = glm::length(to - from);
          for (double d = 0; d <= std::min(len, left) && !approaching; d += 0.5) {
            approaching = on_deck(b, len > 0 ? from + (to - from) * (d / len) : to);
          }
          left -= len;
          from = to;
        }
      }
      if (!approaching) continue;
      const BridgeReservation r = impl_->bridges.reserve(b.id, x.platoon);
      if (r.granted) {
        present.push_back(x.platoon);
        continue;
      }
      // Another platoon holds it: wait before the bridge.
      u.bridge_wait = true;
      u.yield = Yield::Wait;
      u.yield_to = UnitId{std::numeric_limits<std::uint32_t>::max(), 0};  // nobody: asked again next step
      u.yield_until = time() + dt;
      u.predicted.clear();
      x.next = MotionState{u.position, u.heading, 0};
      x.next_from_prediction = false;
    }
    if (const auto holder = impl_->bridges.holder(b.id)) {
      if (std::find(present.begin(), present.end(), *holder) == present.end()) impl_->bridges.release(b.id, *holder);
    }
  }
}

}  // namespace pathscope::sim
