#pragma once

// Stuck-unit detection (issue "QA"): a unit with an order that has got less than a set
// distance closer to its order point over a set time is stuck. The detector only
// observes a Simulation after each step; it never changes what units do.

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

/// Watches a simulation step by step. Deterministic: the same run gives the same events.
class StuckDetector {
 public:
  explicit StuckDetector(StuckParams params) : params_(params) {}

  /// Looks at the units after a step (call once per step, from the first step on).
  void observe(const Simulation& simulation);

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
  };
  StuckParams params_;
  std::vector<Track> tracks_;  // index = UnitId::index
  std::vector<StuckEvent> events_;
};

/// A saved game (saved_game(simulation)) whose sim_state also holds the detector's
/// tracks, so that a run from it flags units exactly when the uninterrupted run does.
Scenario saved_game(const Simulation& simulation, const StuckDetector& detector);

/// Runs on from a saved game's `sim_state`: restores the simulation and, if the state
/// holds them, the detector's tracks (else the detector starts afresh). On an error,
/// naming the field, neither changes.
Status restore_saved_game(Simulation& simulation, StuckDetector& detector, std::string_view sim_state);

}  // namespace pathscope::sim
