#pragma once

// Two components of the step (seed 002): collision detection ("Collision Determination",
// "Predicted Positions") and cooperation ("Unit to Unit Cooperation", "Basic Planning").
// Internal to the simulation (planner/sim/*.cpp); step.cpp composes them.
//
// Detection reads the units' bodies, predictions and ids, the classes' motions, the grids'
// fastest ground and the remembered pairs; it writes the collisions found, sorted (immediate
// before future, hard before soft, soonest first), drops remembered pairs that ran out or lost
// a unit, and leaves the units hashed where they stand (reactive avoidance reads the hash).
// Cooperation reads the collisions and decides each from its deciding unit's frame of
// reference, one function per case of the seed (cooperation.cpp); it writes the units'
// yields (SimUnit::Cooperation), the paths and predictions those change, the private yield
// paths and re-path times, each collision's rule and state, the remembered pairs, and the
// slot swaps whose orders the step starts again.

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "planner/sim/simulation.hpp"
#include "planner/sim/spatial_hash.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

struct UnitPrivate;  // simulation_impl.hpp

/// The key of an unordered pair of units (their slots).
inline std::uint64_t pair_key(UnitId a, UnitId b) {
  const std::uint32_t lo = std::min(a.index, b.index), hi = std::max(a.index, b.index);
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

/// The units alive, hashed where they stand.
struct UnitHash {
  SpatialHash hash;
  std::vector<Vec2> points;         ///< Positions hashed (index = slot).
  std::vector<std::uint8_t> alive;  ///< Alive flags (index = slot).

  /// Hashes `units` in cells of `cell` metres.
  void build(std::span<const SimUnit> units, double cell) {
    points.resize(units.size());
    alive.resize(units.size());
    for (std::size_t i = 0; i < units.size(); ++i) {
      points[i] = units[i].body.position;
      alive[i] = units[i].alive;
    }
    hash.build(points, cell, alive);
  }
};

/// What detection reads besides the units: the largest soft radius and top speed over classes.
struct DetectionLimits {
  double max_soft = 0.75;  ///< Metres.
  double max_speed = 1;    ///< Metres per second.
};

/// Detection's scratch, kept between steps for its buffers.
struct DetectionScratch {
  std::vector<Vec2> velocity;           ///< Per slot, direction x speed.
  std::vector<std::uint64_t> standing;  ///< Remembered pairs not checked, sorted keys.
};

/// Finds the collisions of this step into `out` (see above). `grids`: per class.
void detect_collisions(std::span<const SimUnit> units, std::span<const Motion> motions,
                       std::span<const CostGrid* const> grids, DetectionLimits limits, const SimSettings& set,
                       double now, std::vector<Memory>& memory, UnitHash& hashed, DetectionScratch& scratch,
                       std::vector<Collision>& out);

/// Cooperation's scratch.
struct CooperationScratch {
  std::vector<std::uint8_t> decided;                             ///< Units decided this step.
  std::unordered_map<std::uint64_t, std::size_t> remembered_at;  ///< Memory lookup by pair.
  std::vector<std::uint8_t> forgotten;                           ///< Remembered slow-downs that escalated.
};

/// What cooperation counts and asks of the step.
struct CooperationOutcome {
  std::uint64_t repaths = 0;           ///< Units told to ask for a path again (case 3.4).
  std::vector<std::uint32_t> restart;  ///< Slots whose orders start again (slot swaps), in order.
};

/// Decides `collisions` (see above). `grids`: per class; `world_size`: metres.
void cooperate(std::span<SimUnit> units, std::span<UnitPrivate> extra, std::span<const Motion> motions,
               std::span<const CostGrid* const> grids, Vec2 world_size, const SimSettings& set, double now,
               std::span<Collision> collisions, std::vector<Memory>& memory, CooperationScratch& scratch,
               CooperationOutcome& outcome);

}  // namespace pathscope::sim
