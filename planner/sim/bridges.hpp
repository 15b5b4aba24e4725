#pragma once

// Bridges in the simulation (seed 004, "Bridges"): one platoon at a time on a bridge. A
// component of the step: it reads the units and the scenario's bridges, keeps the
// world's ledger of who holds which bridge and each unit's memory of the last bridge it
// crossed, and says which units wait before a bridge (bridges.cpp).

#include <cstdint>
#include <functional>
#include <span>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope {
class BridgeReservations;
}

namespace pathscope::sim {

/// Seconds a unit come off a bridge or out of a passage keeps it held for its side, at
/// most (while it clears the units queueing there).
inline constexpr double kClearSeconds = 8;
/// Metres from a bridge or a passage within which units queue for it, and within which
/// units that came out of it still hold it.
inline constexpr double kQueueReach = 16;
/// Metres a unit waiting for a bridge or a passage keeps clear of the way out.
inline constexpr double kWaitMargin = 0.25;

/// What the bridge rule reads and writes of one unit (the step copies it from the unit's
/// private state and back).
struct BridgeUnit {
  std::uint32_t platoon = 0;      ///< Its platoon (read).
  std::int64_t last_bridge = -1;  ///< The last bridge (id) it was on, -1 if none.
  double bridge_time = 0;         ///< When it was last on that bridge (seconds).
  bool waiting = false;           ///< Out: it waits before a bridge another platoon holds.
};

/// Has unit `unit` (a slot) wait before a bridge: clear of the way out of it, the line
/// through `entry` along `flow`, `half_width` metres to either side. Called as soon as
/// the unit is refused, so the bridges after see it waiting.
using WaitBeforeBridge = std::function<void(std::uint32_t unit, Vec2 entry, Vec2 flow, double half_width)>;

/// Each unit under way that is on a bridge or about to drive onto it asks `ledger` for the
/// bridge for its platoon; refused, it waits (`wait_before`, and `waiting`). A bridge no
/// platoon is on or near any more is released, a broken one cleared. Reads of each unit
/// (`units`, per slot) its alive flag, body, route (predictions, path, waypoint) and
/// yield; `now` is the time in seconds. Writes `ledger` and `track` (per slot).
void keep_bridges(std::span<const Bridge> bridges, std::span<const SimUnit> units, double now,
                  BridgeReservations& ledger, std::span<BridgeUnit> track,
                  const WaitBeforeBridge& wait_before);

}  // namespace pathscope::sim
