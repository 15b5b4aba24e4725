#pragma once

// The moves of a step (seed 002): a component. Internal to the simulation
// (planner/sim/*.cpp); step.cpp composes it.
//
// move_units reads each unit's move for this step (UnitPrivate::next, from the state loop,
// cooperation or avoidance), terrain key and yield path, the units' bodies, routes and
// yields, motions and cost grids per class, the largest hard radius over classes, the
// settings and the time. Units move one after another, highest class priority first, each
// against the others where they stand (continuous check: move lines, contacts and slides;
// discrete: end points only) and against the static world. It writes the bodies, the
// predicted lists (rolled on by a step, or dropped), the waypoint and route state (a move
// into the static world waits for a new path, counted in `repaths`), yields given up, and
// progress towards the order point; it leaves the units hashed where they stood.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/sim/cooperation.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

struct UnitPrivate;  // simulation_impl.hpp

/// The moves' scratch, kept between steps for its buffers.
struct MoveScratch {
  std::vector<std::uint32_t> order;   ///< The order units move in.
  std::vector<std::uint32_t> shover;  ///< Per slot, the unit shoving it this step.
  std::vector<std::uint8_t> moved;    ///< Per slot, 1 once it has moved this step.
  std::vector<std::uint32_t> near;    ///< The units in the hash cells round the unit moving.
};

/// Moves every unit alive (see above). `grids`: per class.
void move_units(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
                std::span<const CostGrid* const> grids, double max_hard, const SimSettings& set, double now,
                UnitHash& hashed, MoveScratch& scratch, std::uint64_t& repaths);

}  // namespace pathscope::sim
