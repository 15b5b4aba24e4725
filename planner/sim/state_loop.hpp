#pragma once

// Listing 1's state loop and the predicted positions (seed 002): a component of the step.
// Internal to the simulation (planner/sim/*.cpp); step.cpp composes it.
//
// run_state_loops reads each unit's order, route, goal, yield and body, the simulation's
// private part of it (terrain key, yield path, pending request, settle wait), motions and
// cost grids per class, the settings and the time. It writes the route (state, order point,
// path, waypoint, predictions, progress), the yield when its reason is over, the goal part
// when an order ends (arrival.hpp's reach_goal and start_walk_back), and each unit's move
// for this step (UnitPrivate::next). It returns the units that must ask for a path, in
// order (the step asks: the path service is the simulation's), and the re-paths it caused.

#include <cstdint>
#include <span>
#include <vector>

#include "planner/sim/simulation.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

struct UnitPrivate;  // simulation_impl.hpp

/// What the state loops ask of the step.
struct StateLoopOutcome {
  std::uint64_t repaths = 0;                 ///< Moves into the static world: waiting for a new path.
  std::vector<std::uint32_t> path_requests;  ///< Slots that ask for a path, in order.
};

/// One step of `dt` seconds braking along the heading at the class's deceleration.
MotionState brake(const MotionState& from, const Motion& m, double dt);

/// The path a unit follows now: its yield path while moving aside or going back, else its
/// route's path.
const std::vector<Vec2>& followed_path(const SimUnit& u, const UnitPrivate& x);

/// One move of `u` from `from` along `path` (followed_path), heading for path[w]: `to`,
/// and `w` advanced past the points the move reaches or leaves behind. False when the
/// path is done (it brakes).
bool pursue(const SimUnit& u, const std::vector<Vec2>& path, const Motion& m, const CostGrid& grid, double dt,
            const MotionState& from, std::uint32_t& w, MotionState& to);

/// `u`'s predicted positions from where it stands, made by pursue() step by step up to the
/// prediction horizon; it stops at a move into the static world (turning on the spot first
/// when the way to its point is open).
void predict(SimUnit& u, const UnitPrivate& x, const Motion& m, const CostGrid& grid, const SimSettings& set,
             double now);

/// Runs every unit's state loop (see above). `grids`: per class.
void run_state_loops(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
                     std::span<const CostGrid* const> grids, const SimSettings& set, double now,
                     StateLoopOutcome& out);

}  // namespace pathscope::sim
