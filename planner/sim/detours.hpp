#pragma once

// Detours (seed 002's case 3.4, "stop and re-path", with the other units seen): a unit
// held up by other units finds a way round them. A component of the step: it reads the
// units (where they stand, their routes, yields and waits), the motions and cost grids
// per class and each unit's terrain key and last try (DetourUnit), and returns, for each
// held-up unit it decides for, its way round or that its goal is taken (Detour); the
// step applies them (detours.cpp).

#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/spatial_hash.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// What detours read and write of one unit (the step copies it from the unit's private
/// state and back).
struct DetourUnit {
  std::uint16_t move_key = 0;   ///< Its terrain group's move key (read).
  double last_repath = -1e300;  ///< When it last tried a way round, or cooperation re-pathed it (seconds).
};

/// What detours decided for one held-up unit.
struct Detour {
  std::uint32_t unit = 0;  ///< Slot index.
  /// Its order point is taken by a unit standing on it, and it is as near as it can get:
  /// it is there (the step ends its path; at its last point it is not arrived).
  bool goal_taken = false;
  /// Otherwise its new path (metres): the lattice path round the units, then its path on.
  std::vector<Vec2> way;
};

/// Detours' own scratch, kept between steps (no allocation once warm).
struct DetourScratch {
  SpatialHash hash;
  std::vector<Vec2> points;          ///< Positions hashed (index = slot).
  std::vector<std::uint8_t> alive;   ///< Alive flags hashed.
  std::vector<std::uint8_t> moving;  ///< Per slot: is_moving, as the decisions so far leave it.
  std::vector<std::uint32_t> near;   ///< Units near the one deciding.
};

/// Each unit under way that has made no progress for a while (since its last try) with
/// another unit touching its soft shape, not stepping aside or waiting its turn at a
/// bridge or passage, is held up: its order point is taken (a still unit stands on it
/// within three hard radii), or it searches a small lattice round itself with every other
/// unit an obstacle where it stands, for a way round. Reads of each unit (`units`, per
/// slot) its alive flag, class, body, route (state, path, waypoint, progress time), yield
/// and waits; `motions` and `grids` are per class, `now` the time in seconds. Writes
/// `track` (each try's time), and `out` (cleared first): one Detour per held-up unit given
/// a way or found at a taken goal, in slot order.
void find_detours(std::span<const SimUnit> units, std::span<DetourUnit> track,
                  std::span<const Motion> motions, std::span<const CostGrid* const> grids, double now,
                  DetourScratch& scratch, std::vector<Detour>& out);

}  // namespace pathscope::sim
