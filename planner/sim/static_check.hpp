#pragma once

// Units against the static world (seed 002, "Discrete vs. Continuous Simulation"). A unit
// is a point on its class's cost grid (the planners plan its centre): a cell is closed
// to it when it is impassable or of another terrain group (land, water) than the unit's.
// The discrete check tests where a move ends; the continuous one walks the move line
// through every cell it touches, so a fast unit cannot hop over a thin wall.

#include <cstdint>

#include "planner/core/types.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// The move key (CostGrid::move_key) of the cell at `p`, 0 outside the grid or blocked.
std::uint16_t move_key_at(const CostGrid& grid, Vec2 p);

/// True if `p` is in a cell closed to a unit of move key `key`.
bool point_blocked(const CostGrid& grid, std::uint16_t key, Vec2 p);

/// True if the segment [a, b] touches a cell closed to a unit of move key `key`, the
/// cell of `a` excepted (a unit pushed into a wall may always leave it). Passing exactly
/// through a corner touches both cells beside it (no corner cutting, as on the grid).
bool segment_blocked(const CostGrid& grid, std::uint16_t key, Vec2 a, Vec2 b);

}  // namespace pathscope::sim
