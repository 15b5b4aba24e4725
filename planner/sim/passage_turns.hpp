#pragma once

// Narrow passages in the simulation: one direction of travel at a time (passages.hpp). A
// component of the step: it reads the units, the grids and motions per class, keeps the
// passage maps' turns and the claimed ways out, each unit's memory of the last passage it
// went through, and returns which units wait and where; the step has them wait
// (passage_turns.cpp).

#include <cstdint>
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

/// A unit the passage rule refused, and where it waits: at `spot`, off the claimed ways
/// out (`at_spot`), else where it stands (`in_place`: inside a knot's passage, off the
/// claimed ways already), else clear of the way out of the passage (the line through
/// `entry` along `flow`, `half_width` metres to either side). The step has it wait.
struct PassageWait {
  std::uint32_t unit = 0;  ///< Slot index.
  bool at_spot = false;    ///< It walks to `spot` and waits there.
  Vec2 spot{0, 0};         ///< Metres: the centre of a cell open to it, off the claimed ways.
  Vec2 entry{0, 0};        ///< Where its way enters the passage (metres).
  Vec2 flow{0, 0};         ///< The way it would go through (a unit vector).
  double half_width = 0;   ///< Half the passage's width at the entry (metres).
  bool in_place = false;   ///< It brakes and waits where it stands.
};

/// Each unit following its path through, or up to, a narrow passage holds it for its
/// direction or asks for it; refused, it waits (`waiting`, and a PassageWait appended to
/// `waits`, cleared first, in slot order). Reads of each unit (`units`, per slot) its
/// alive flag, class, body, route (state, path, waypoint) and yield; `grids` and
/// `motions` are per class, `maps` per class (their passages' turns are written), `now`
/// the time in seconds. Writes `track` (per slot), `claims` and `tallies` (scratch, per
/// class and passage), and `waits`.
void keep_passages(std::span<const SimUnit> units, std::span<PassageMap> maps,
                   std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                   std::span<PassageUnit> track, PassageClaims& claims,
                   std::vector<std::vector<PassageTally>>& tallies, std::vector<PassageWait>& waits);

}  // namespace pathscope::sim
