#pragma once

// Whether a unit of no radius may follow a straight leg over the world's cells, judged
// strictly: the test the quadtree's shortcuts (planner/world/path_shortcuts.hpp) ask of a
// leg that may leave the corridor of leaves.

#include "planner/core/types.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope {

/// True when a unit of no radius may follow the straight leg a -> b (world metres) on
/// `grid`, judged strictly: every cell a piece of the leg lies in (both cells either side
/// of a piece along a cell line) is passable with one move key, and where the leg passes
/// through a cell corner between its ends, all four cells round it are too (as the grid's
/// diagonal moves ask). Legs it refuses may still be legal; those it accepts are.
bool open_leg(const CostGrid& grid, Vec2 a, Vec2 b);

}  // namespace pathscope
