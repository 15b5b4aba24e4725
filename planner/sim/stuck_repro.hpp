#pragma once

// Stuck-unit repros (issue "QA": "writes, for each stuck unit, a repro: the saved game
// from a set number of seconds before it got stuck, with an expectation that it
// arrives"). A repro is a scenario file that, opened and run, gets the unit stuck again
// at the same simulated time, and fails its expectation until the cause is fixed.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/sim/stuck_detector.hpp"

namespace pathscope::sim {

/// How repros are cut from a run.
struct StuckReproParams {
  /// Simulated seconds before the flag the repro starts at (at least one step: the flag's
  /// own step already holds the flag); clamped at the run's first step, where the repro
  /// is the scenario the run started from.
  double seconds_before = 10;
};

/// One stuck unit's repro.
struct StuckRepro {
  StuckEvent event;        ///< The unit's first flag in the run it was cut from.
  std::uint64_t step = 0;  ///< The step the repro starts at.
  double time = 0;         ///< Seconds, simulated: step x dt.
  Scenario scenario;       ///< The saved game then (or the run's start), with its `expect`.
};

/// The first flag of each unit (by UnitId), in the order of `events`.
std::vector<StuckEvent> first_flags(std::span<const StuckEvent> events);

/// The `expect` block of a repro of `event`, from `simulation` at the step the repro
/// starts at: the unit arrives (a Move or Waypoints order; a patrol: passes its order
/// point) and is not flagged stuck, both within the deadline T + stuck_seconds + 2 L / v
/// (T: the flag's time; L: metres of its order left from where it is, straight from
/// point to point; v: its class's speed), rounded up to 0.1 s. A unit that is no longer
/// stuck has the time the stuck one lost and twice the straight-line time besides.
/// Empty if the unit is not in `simulation`.
std::vector<Expectation> repro_expectations(const Simulation& simulation, const StuckEvent& event);

/// Called with each repro, in order of its start step; an error stops the run.
using ReproSink = std::function<Status(StuckRepro&&)>;

/// Runs `start` again (the valid scenario, or saved game, the run that flagged `events`
/// started from, with the same settings) up to the last repro's start step, and hands
/// `emit` one repro per unit flagged in `events` (first flags only). The simulation is
/// deterministic, so the states are exactly the first run's: one re-run costs at most the
/// first run's time and holds one simulation in memory, where keeping saved states along
/// the way would cost a state copy per second of the run or a replay from each. Errors:
/// `start`'s saved game does not restore, or `emit`'s.
Status make_stuck_repros(const Scenario& start, std::span<const StuckEvent> events,
                         const StuckReproParams& params, const ReproSink& emit);

/// Runs `scenario` for `seconds` (its saved game on from where it was saved), the
/// detector watching, and returns every stuck unit's repro (tests, tools).
Result<std::vector<StuckRepro>> stuck_repros(const Scenario& scenario, double seconds,
                                             const StuckReproParams& params);

}  // namespace pathscope::sim
