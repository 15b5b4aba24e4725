#pragma once

// A referee of the simulation's promises, checked after every step from the outside
// (const access to the Simulation only), with its own geometry (referee_geometry.hpp). It
// shares no code with the step that keeps the promises: not the spatial hash, not the
// shape extents prevention separates by, not the move line walk the continuous check
// refuses moves with, not the simulation's counters.
//
// What it checks, and how:
//  - Hard overlaps: every pair of alive units (sweep and prune on x over bounding
//    circles, then an exact test of the hard shapes: circles, or ellipses along the
//    heading, semi-axes hard_radius along and hard_radius x hard_aspect across). A pair
//    overlapping deeper than `overlap_tolerance_m` (depth: the smallest move along the
//    centre line that separates them) counts, each pair once over the run; the deepest
//    overlap is kept.
//  - Tunnelling through the static world: a unit is a point on its class's cost grid (the
//    planners plan its centre). A cell is closed to it when it is off the grid, impassable,
//    or of another terrain group (CostGrid::move_key) than the cell it starts the step in
//    (or, starting in a closed cell, the first open cell the referee saw it in). A move
//    (the segment from where the unit stood at the last check, or SimUnit::Body::previous for a
//    unit not seen before, to where it stands) tunnels if it passes through the interior
//    of a closed cell other than its start cell, deeper than `wall_tolerance_m`: exact
//    slab tests of the segment against each cell near it.
//  - Tunnelling through units: two units whose hard shapes are apart (within
//    `overlap_tolerance_m`) both before and after the step, but overlap on the way deeper
//    than `tunnel_fraction` of the smaller hard radius, taking both moves (and turns) as
//    linear over the step. Exact for two circles (the closest approach of the relative
//    move to the origin); shapes with an ellipse are sampled at `tunnel_samples` instants
//    with the exact test. Every unit of such a pair that moved or turned counts.
//  - Inside walls: units whose centre ends a step inside a closed cell (deeper than
//    `wall_tolerance_m`), each once over the run, and how many are now.
//  - Goal errors, of the state given: for each alive unit with a Move or Waypoints order,
//    the distance from its centre to the order's last point (a formation order's last
//    point is the unit's own slot); within `goal_tolerance_m` it is at its goal.
//
// The tunnelling tolerance: the simulation moves units one after another, each against the
// others' new positions, and the straight line between where two units stood before and
// after such moves can cut the corner of a sliding contact by up to L^2 / (8 r) (L the
// relative move over the step, r the sum of the radii): about 1 mm for infantry at 1.5 m/s
// and 30 steps a second (under 1 mm measured in `bench sim`'s cases), 0.2 m for vehicles of
// radius 2 m passing head-on at 40 m/s. The same straight line cannot tell such a graze from
// a short hop into a unit and out, so the tolerance is a share of the units' size: a unit
// passing through another goes in deeper than a fifth of its radius.

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "planner/sim/referee_geometry.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

/// The referee's tolerances (metres unless said).
struct RefereeSettings {
  /// Shapes overlapping less deeply than this touch.
  double overlap_tolerance_m = 1e-6;
  /// An overlap on the way within a step no deeper than this share of the smaller hard
  /// radius is a graze, not a pass through.
  double tunnel_fraction = 0.2;
  /// Instants of a step tested for pairs with an ellipse (>= 2).
  int tunnel_samples = 32;
  /// How far inside a closed cell a move or a centre must get to count.
  double wall_tolerance_m = 1e-9;
  /// A unit this close to its order's last point is at its goal.
  double goal_tolerance_m = 0.5;
};

/// What the referee found over the steps it checked.
struct RefereeCounts {
  /// Steps checked.
  std::uint64_t steps = 0;
  /// Unit pairs whose hard shapes overlapped after a step (each pair once over the run).
  std::uint64_t hard_overlaps = 0;
  /// The deepest such overlap, metres.
  double max_overlap_m = 0;
  /// Pairs overlapping after the last step checked.
  std::uint64_t overlaps_now = 0;
  /// Units that tunnelled through a closed cell or through a unit (each once).
  std::uint64_t tunnelled = 0;
  /// Units whose move crossed a closed cell (each once).
  std::uint64_t tunnelled_walls = 0;
  /// Units that passed through another unit's hard shape (each once).
  std::uint64_t tunnelled_units = 0;
  /// Units whose centre ended a step in a closed cell (each once).
  std::uint64_t inside_walls = 0;
  /// Units in a closed cell after the last step checked.
  std::uint64_t inside_walls_now = 0;
};

/// How far units with a Move or Waypoints order are from its last point, now.
struct GoalErrors {
  std::size_t ordered = 0;       ///< Alive units with such an order.
  std::size_t at_goal = 0;       ///< Of those, within the tolerance of the point.
  double at_goal_pct = 0;        ///< 100 x at_goal / ordered; 0 when no unit is ordered.
  double mean_goal_error_m = 0;  ///< Mean distance, metres (0 when no unit is ordered).
  double max_goal_error_m = 0;   ///< Largest distance, metres.
  double tolerance_m = 0;        ///< The tolerance used (RefereeSettings::goal_tolerance_m).
};

/// A unit's hard shape where it stands.
HardShape hard_shape(const SimUnit& unit, const Motion& motion);

/// The referee. Observes a Simulation after each step; never changes it.
class SimReferee {
 public:
  explicit SimReferee(RefereeSettings settings = {});

  /// Checks the state after a step (call once after every step, from the first).
  void check_step(const Simulation& simulation);
  /// What it found so far.
  const RefereeCounts& counts() const { return counts_; }
  /// The goal errors of the simulation's state now.
  GoalErrors goal_errors(const Simulation& simulation) const;
  /// The tolerances it checks with.
  const RefereeSettings& settings() const { return settings_; }

 private:
  // A unit as the referee saw it at its last check.
  struct Seen {
    std::uint32_t generation = 0;
    bool valid = false;  // alive then
    Vec2 position{0, 0};
    double heading = 0;
    std::uint16_t home_key = 0;  // move key of the first open cell it was seen in; 0 none yet
  };
  using UnitKey = std::uint64_t;  // slot index and generation
  void flag_tunnel(UnitKey key, std::set<UnitKey>& kind, std::uint64_t& count);

  RefereeSettings settings_;
  RefereeCounts counts_;
  std::vector<Seen> seen_;  // per slot
  std::set<std::pair<UnitKey, UnitKey>> overlapped_;
  std::set<UnitKey> tunnelled_;
  std::set<UnitKey> tunnelled_walls_;
  std::set<UnitKey> tunnelled_units_;
  std::set<UnitKey> inside_walls_;
};

}  // namespace pathscope::sim
