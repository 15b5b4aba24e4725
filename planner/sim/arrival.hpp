#pragma once

// Arrival (arrival.cpp): a unit whose order is done is "arrived" only while it stands at
// its goal, and one pushed off its goal walks back. keep_arrivals is a component of the
// step: it reads the units and the motions per class, and writes each unit's goal, its
// progress towards it and its wait before walking back (ArrivalUnit), which the step
// copies in and out. reach_goal and start_walk_back serve the state loop.

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

/// Seconds a unit pushed off its goal stands still before it walks back: one shoved by a
/// passing unit waits until the passing is over. Each walk back pushed off again doubles
/// the wait, up to kMaxSettleSeconds: in a busy street the unit lets the traffic pass
/// instead of walking back into it.
inline constexpr double kSettleSeconds = 1;
inline constexpr double kMaxSettleSeconds = 16;

/// What arrivals read and write of one unit (the step copies it from the unit and back).
struct ArrivalUnit {
  SimUnit::Goal goal;              ///< Arrived, taken, walking back, arrival time.
  double best_distance = 0;        ///< SimUnit::Route::best_distance: reset when pushed off its goal.
  double progress_time = 0;        ///< SimUnit::Route::progress_time: likewise.
  double still_since = 0;          ///< Off its goal: the time since which it has stood still (seconds).
  double settle = kSettleSeconds;  ///< Seconds it stands still before it walks back.
};

/// Arrivals' own scratch, kept between steps (no allocation once warm).
struct ArrivalScratch {
  SpatialHash hash;
  std::vector<Vec2> points;         ///< Positions hashed (index = slot).
  std::vector<std::uint8_t> alive;  ///< Alive flags hashed.
  std::vector<std::uint32_t> off;   ///< Units standing off their goals.
};

/// At the end of a step, measures each unit whose order is done against its goal: arrived
/// within arrival_tolerance, else not, and whether another unit holds the goal (taken) or
/// traffic passes by (it waits longer). Reads of each unit (`units`, per slot) its alive
/// flag, class, body, route state and order, and yield; `motions` is per class, `now` the
/// time in seconds. Reads and writes `arrivals` (per slot).
void keep_arrivals(std::span<const SimUnit> units, std::span<const Motion> motions, double now,
                   std::span<ArrivalUnit> arrivals, ArrivalScratch& scratch);

/// Listing 1's ReachedGoal, for a unit out of waypoints at `now`: sets its state, and
/// whether it arrived (within arrival_tolerance of its goal, for `motion`); writes its route
/// state, goal and its wait before walking back (`still_since`, `settle`).
void reach_goal(SimUnit& u, const Motion& motion, double now, double& still_since, double& settle);

/// Sends a unit whose order is done, standing off its goal, back to it (a straight line,
/// or a path request when a wall of `grid`, for `move_key`, is in the way); false if it
/// has no goal, yields or waits for a bridge or a passage. Writes its route and goal.
bool start_walk_back(SimUnit& u, const CostGrid& grid, std::uint16_t move_key, double now);

}  // namespace pathscope::sim
