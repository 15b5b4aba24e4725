#pragma once

// Stuck-unit detection (issue "QA"): a unit with an order that has got less than a set
// distance closer to its order point over a set time is stuck. The detector only
// observes the units after each step (a StuckView: the time, the slots, the step's
// collisions and the remembered resolutions); it never changes what units do.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/sim/sim_types.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope::sim {

/// When a unit counts as stuck (from SimSettings::stuck_seconds, stuck_progress).
struct StuckParams {
  double seconds = 10;    ///< Seconds without progress (> 0).
  double progress = 0.5;  ///< Metres closer that count as progress (> 0).
};

/// The scenario's stuck parameters.
StuckParams stuck_params(const SimSettings& sim);

/// One collision a stuck unit was part of in the step it was flagged.
struct StuckContact {
  std::uint32_t other = 0;  ///< The other unit's scenario id.
  bool hard = false;        ///< Hard shapes (true) or soft radii only.
  bool immediate = false;   ///< Overlapping then (true) or predicted to.
  bool decides = false;     ///< The stuck unit was the deciding one (Collision::a).
  CollisionState state = CollisionState::Unresolved;
  CooperationRule rule = CooperationRule::None;
};

/// A unit flagged stuck: when, where, and what it was doing then.
struct StuckEvent {
  UnitId id;
  std::uint32_t unit = 0;  ///< Scenario id.
  double time = 0;         ///< Seconds of simulated time it was flagged at.
  double since = 0;        ///< Seconds: its last progress (time - since >= StuckParams::seconds).
  Vec2 position{0, 0};     ///< Metres, when flagged.
  Vec2 target{0, 0};       ///< Its order point then.
  double distance = 0;     ///< Metres from the order point.
  MoveState state = MoveState::Idle;
  Yield yield = Yield::None;
  std::optional<std::uint32_t> yield_to;         ///< Scenario id of the unit it gives way to, if any.
  bool bridge_wait = false;                      ///< Waiting before a bridge another platoon holds.
  CooperationRule rule = CooperationRule::None;  ///< Its latest remembered resolution's rule.
  std::vector<StuckContact> contacts;            ///< Collisions it was in that step, in the order handled.
};

/// snake_case name of a yield ("none", "wait", ...).
const char* to_string(Yield yield);

/// One line: "unit 3 stuck at 12.40 s at (10.50, 4.00), 6.20 m from its order point
/// (11.00, 9.00), no progress since 2.40 s: moving, yield wait (for unit 2), ...".
std::string describe(const StuckEvent& event);

/// What the detector reads of a simulation after a step, and nothing more.
struct StuckView {
  double now = 0;                  ///< Seconds simulated.
  double dt = 1.0 / 30;            ///< Seconds of the step just made.
  std::span<const SimUnit> slots;  ///< Every slot, dead ones too (index = UnitId::index).
  std::uint64_t restores = 0;      ///< Simulation::restores(): the units were replaced when it changes.
  std::span<const Collision> collisions;  ///< The step's collisions.
  std::span<const Memory> memory;         ///< The remembered resolutions.
};

/// The view of `simulation` now.
StuckView stuck_view(const Simulation& simulation);

/// Watches a simulation step by step. Deterministic: the same run gives the same events.
class StuckDetector {
 public:
  explicit StuckDetector(StuckParams params) : params_(params) {}

  /// Looks at the units after a step (call once per step, from the first step on).
  void observe(const StuckView& view);
  /// The same, of stuck_view(simulation).
  void observe(const Simulation& simulation);
  /// The same, told whether each slot's path changed since the last call (bit for bit;
  /// index = slot, slots past the end count as changed): a caller that compares every
  /// path anyway (a Recording) spares the detector comparing them again.
  void observe(const Simulation& simulation, std::span<const std::uint8_t> path_changed);

  /// Every flag so far, in order of time, then slot index. A unit is flagged again only
  /// after it has made progress since its last flag.
  std::span<const StuckEvent> events() const { return events_; }
  /// Units stuck now (flagged and no progress since).
  std::size_t stuck_now() const;
  /// Whether unit `id` is stuck now.
  bool is_stuck(UnitId id) const {
    return id.index < tracks_.size() && tracks_[id.index].stuck && tracks_[id.index].id == id;
  }
  const StuckParams& params() const { return params_; }

  /// What it remembers of each slot (not its events), as JSON text: the key
  /// "stuck_detector" of a saved game's sim_state (see saved_game(sim, detector)).
  std::string state_json() const;
  /// Takes the tracks of `text` (state_json()); `slots` is the number of slots of the
  /// simulation it goes with (no track past it). Events are history and start empty.
  /// On an error, naming the field, nothing changes.
  Status restore_state(std::string_view text, std::size_t slots);

  /// Path segments measured so far (a square root each): once per segment of each new
  /// path a unit with an order follows, not every step.
  std::uint64_t segments_measured() const { return segments_measured_; }

 private:
  // What the detector remembers of one slot.
  struct Track {
    UnitId id;
    bool active = false;       ///< Has an order it has not finished.
    Vec2 target{0, 0};         ///< The order point being tracked.
    double best_direct = 0;    ///< Closest straight-line distance to the target so far.
    double best_route = -1;    ///< Shortest length still to go along its paths so far (-1: no path yet).
    double progress_time = 0;  ///< Last progress, seconds.
    bool stuck = false;
    /// best_route is an estimate within best_error of the length left summed front to
    /// back, from path point best_waypoint of the slot's cached path, best_lead metres
    /// away; the exact sum is made when needed (see stuck_detector.cpp).
    bool best_pending = false;
    std::size_t best_waypoint = 0;
    double best_lead = 0;
    double best_error = 0;
  };
  // A slot's path as last measured: a copy, whose unit and revision (UnitPath) it was
  // (a new path is noticed by its revision, then by comparing the bits, unless the caller
  // says), and its segment lengths, each and summed from every point to the end.
  struct RouteCache {
    bool valid = false;  ///< Made from the slot's path as it is now.
    UnitId unit;
    std::uint64_t revision = 0;
    std::vector<Vec2> path;
    std::vector<double> segment;  ///< segment[i]: metres from path[i - 1] to path[i]; segment[0] = 0.
    std::vector<double> after;    ///< after[i]: segment[i + 1] + after[i + 1]; after.back() = 0.
  };
  // The length a unit has left along its path, from its cached segments.
  struct RouteLeft {
    double estimate = -1;  ///< -1: no path, or past its end.
    double error = 0;      ///< |estimate - the front-to-back sum| is less than this.
    bool exact = true;     ///< estimate is the front-to-back sum.
    std::size_t waypoint = 0;
    double lead = 0;  ///< Metres from the unit to path[waypoint].
  };
  // Both observe()s; `path_changed` is null when the paths must be compared here.
  void observe_slots(const StuckView& view, const std::span<const std::uint8_t>* path_changed);
  // Brings slot `slot`'s cache to `unit`'s path (settling a pending best_route on the old one);
  // `compare`: a valid cache is checked against `path` (else it is known to hold it).
  void cache_path(std::size_t slot, const SimUnit& unit, bool compare);
  // Replaces a pending best_route by its exact value.
  void settle(std::size_t slot);
  // route < best_route - progress, decided as with lengths summed front to back.
  bool shorter_by_progress(std::size_t slot, RouteLeft& route);

  StuckParams params_;
  std::vector<Track> tracks_;       // index = UnitId::index
  std::vector<RouteCache> routes_;  // index = UnitId::index
  std::vector<StuckEvent> events_;
  std::uint64_t segments_measured_ = 0;
  std::uint64_t restores_ = 0;  // Simulation::restores() when last observed
};

/// A saved game (saved_game(simulation)) whose sim_state also holds the detector's
/// tracks, so that a run from it flags units exactly when the uninterrupted run does.
Scenario saved_game(const Simulation& simulation, const StuckDetector& detector);

/// Runs on from a saved game's `sim_state`: restores the simulation and, if the state
/// holds them, the detector's tracks (else the detector starts afresh). On an error,
/// naming the field, neither changes.
Status restore_saved_game(Simulation& simulation, StuckDetector& detector, std::string_view sim_state);

}  // namespace pathscope::sim
