#pragma once

// Reactive avoidance (seed 000, "Support Systems"): potential fields or steering arcs, an
// option on top of the cooperation rules. A component of the step: it reads the units
// (their bodies, routes and yields), the detection's spatial hash, the motions and cost
// grids, and returns new moves for the units it steers; the step applies them
// (avoidance.cpp).

#include <cstdint>
#include <span>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/spatial_hash.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// A move reactive avoidance chose for one unit, instead of its predicted move.
struct AvoidanceSteer {
  std::uint32_t unit = 0;  ///< Slot index.
  MotionState next;        ///< Its move for this step.
  double steered = 0;      ///< Radians turned from its path's way (SimUnit::Diagnostics::steered).
};

/// What the units under way (Moving, yielding at most by slowing down) with units under
/// way near them do instead of their predicted moves, by `mode` (not None). Reads of each
/// unit its body, route (state, path, waypoint, predicted positions), cooperation (yield,
/// slow-down factor), class and alive flag; `near` holds the units where they stand now
/// (its cell size bounds how far a unit senses). `move_keys` is per slot, `motions` and
/// `grids` per class, `dt` the step in seconds. Appends to `out` (cleared first) one
/// steer per unit it turns, in slot order.
void avoid(AvoidanceMode mode, std::span<const SimUnit> units, std::span<const std::uint16_t> move_keys,
           const SpatialHash& near_units, std::span<const Motion> motions,
           std::span<const CostGrid* const> grids, double dt, std::vector<AvoidanceSteer>& out);

}  // namespace pathscope::sim
