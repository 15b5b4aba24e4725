#pragma once

// Narrow passages in the simulation: one direction of travel at a time (passages.hpp). A
// component of the step: it reads the units, the grids and motions per class, keeps the
// passage maps' turns and the claimed ways out, each unit's memory of the last passage it
// went through, and says which units wait (passage_turns.cpp).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// The passage rules of a class (passages.hpp): widths and lengths from its hard radius.
PassageRules passage_rules(const Motion& m);

/// What one step saw of a passage.
struct PassageTally {
  bool holder_present = false;  ///< A unit of the holding direction is inside or granted.
  bool queue_seen = false;      ///< A unit of the queued direction waited.
  std::uint32_t inside = 0;
  std::uint32_t waiting = 0;
};

/// What the passage rule reads and writes of one unit (the step copies it from the unit
/// and back).
struct PassageUnit {
  std::uint16_t move_key = 0;  ///< Its terrain group's move key (read).
  std::int64_t last_passage =
      -1;                   ///< The last passage (index in its class's map) it went through, -1 if none.
  Vec2 passage_flow{0, 0};  ///< The way it went through it.
  double passage_time = 0;  ///< When it was last in it (seconds).
  /// In: it steps clear of a bridge or a passage on its own to wait (still waiting). Out:
  /// it waits for a passage (SimUnit::Waits::passage).
  bool waiting = false;
};

/// Per class, the grid cells on the ways of units through a held passage (their paths on
/// from where they stand), which units waiting for it step off; kept between steps.
struct PassageClaims {
  std::vector<std::vector<std::uint8_t>> claimed;  ///< Per class, per cell: 1 if claimed.
  std::vector<std::uint8_t> any_claimed;           ///< Per class: some cell is claimed.
};

/// How a refused unit waits (the step's): clear of the way out of the passage (the line
/// through `entry` along `flow`, `half_width` metres to either side), or at `spot`, off
/// the claimed ways. Called as soon as the unit is refused.
struct PassageWaits {
  std::function<void(std::uint32_t unit, Vec2 entry, Vec2 flow, double half_width)> clear_of_way;
  std::function<void(std::uint32_t unit, Vec2 spot)> at;
};

/// Each unit following its path through, or up to, a narrow passage holds it for its
/// direction or asks for it; refused, it waits (`wait`). Reads of each unit (`units`, per
/// slot) its alive flag, class, body, route (state, path, waypoint) and yield; `grids` and
/// `motions` are per class, `maps` per class (their passages' turns are written), `now`
/// the time in seconds. Writes `track` (per slot), `claims` and `tallies` (scratch, per
/// class and passage).
void keep_passages(std::span<const SimUnit> units, std::span<PassageMap> maps,
                   std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                   std::span<PassageUnit> track, PassageClaims& claims,
                   std::vector<std::vector<PassageTally>>& tallies, const PassageWaits& wait);

}  // namespace pathscope::sim
