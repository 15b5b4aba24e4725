#pragma once

// Bridges in the simulation (seed 004, "Bridges"): one platoon at a time on a bridge. A
// component of the step: it reads the units and the scenario's bridges, keeps the
// world's ledger of who holds which bridge and each unit's memory of the last bridge it
// crossed, and says which units wait before a bridge (bridges.cpp).

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/sim/platoon_formation.hpp"
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
/// Metres a platoon refused a bridge keeps its front vehicles short of the deck, beyond
/// their bodies (room for those coming off it to turn aside).
inline constexpr double kBridgeHoldGap = 4;

/// What the bridge rule reads and writes of one unit (the step copies it from the unit's
/// private state and back).
struct BridgeUnit {
  std::uint32_t platoon = 0;      ///< Its platoon (read).
  std::int64_t last_bridge = -1;  ///< The last bridge (id) it was on, -1 if none.
  double bridge_time = 0;         ///< When it was last on that bridge (seconds).
  bool waiting = false;           ///< Out: it waits before a bridge another platoon holds.
};

/// A unit refused a bridge: it waits before it, clear of the way off its end (the line
/// through `entry` along `flow`, `half_width` metres to either side). The step has it
/// wait (it brakes, or steps to the side).
struct BridgeWait {
  std::uint32_t unit = 0;  ///< Slot index.
  Vec2 entry{0, 0};        ///< Where its way reaches the deck (metres).
  Vec2 flow{0, 0};         ///< The way it would drive onto the bridge (a unit vector).
  double half_width = 0;   ///< Half the bridge's width (metres).
};

/// A platoon under way as the bridge rule sees it. The platoon, not its vehicles, asks for
/// a bridge (seed 004: "If a platoon is on a bridge, the bridge is marked with that
/// platoon ID and other platoons must wait before crossing").
struct BridgePlatoon {
  std::uint32_t platoon = 0;       ///< Its id in the ledger (as its vehicles' BridgeUnit::platoon).
  const PathWalk* walk = nullptr;  ///< Its path.
  double along = 0;                ///< Where it is on `walk` (arc length, metres).
  double front = 0;                ///< Metres its formation reaches ahead of its position, bodies included.
  double reach = 0;                ///< Metres ahead of `front` it asks for a bridge (braking and a margin).
  std::span<const Vec2> vehicles;  ///< Where its vehicles are (metres).
  /// Out: the arc length on `walk` it stops at, before a bridge another platoon holds
  /// (infinite: none); the smallest over the bridges.
  double hold_at = std::numeric_limits<double>::infinity();
  std::int64_t held_by = -1;  ///< Out: that bridge's id (-1: none).
};

/// One bridge for the platoons under way, before they move. A platoon with a vehicle on
/// the deck, or whose way (its path from its position, sampled every half metre) meets
/// the deck within `front + reach` metres, asks `ledger` for the bridge. Granted, or on it
/// already, it is appended to `claimed` (keep_bridge then counts it present); refused, it
/// stops `front` metres before the point where its way meets the deck, or where it is if
/// nearer (`hold_at`, `held_by`). Platoons are asked in order, so the same run grants the
/// same platoon.
void keep_bridge_for_platoons(const Bridge& bridge, BridgeReservations& ledger,
                              std::span<BridgePlatoon> platoons, std::vector<std::uint32_t>& claimed);

/// One bridge for one step: each unit under way that is on `bridge` or about to drive onto
/// it asks `ledger` for the bridge for its platoon; refused, it waits (`waiting`, and a
/// BridgeWait appended to `waits`, cleared first, in slot order). The bridge is released
/// when no platoon is on or near it any more (nor in `claimed`, the platoons that
/// keep_bridge_for_platoons let on this step), cleared when broken. Units driving in a
/// platoon (MoveState::InPlatoon) hold the bridge for it while on or near it, but are
/// never refused one: their platoon asks. Reads of each unit
/// (`units`, per slot) its alive flag, body, route (predictions, path, waypoint) and yield;
/// `now` is the time in seconds. Writes `ledger`, `track` (per slot) and `waits`. The
/// step has the units of `waits` wait before it asks about the next bridge, which then
/// sees them waiting.
void keep_bridge(const Bridge& bridge, std::span<const SimUnit> units, double now, BridgeReservations& ledger,
                 std::span<BridgeUnit> track, std::span<const std::uint32_t> claimed,
                 std::vector<BridgeWait>& waits);

}  // namespace pathscope::sim
