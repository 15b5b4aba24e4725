#pragma once

// Checking a scenario's expectations (its `expect` blocks) against a simulation run, step
// by step: each is decided at the simulated time it fails, or once it can no longer fail.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "planner/scenario/scenario.hpp"
#include "planner/sim/sim_referee.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/stuck_detector.hpp"

namespace pathscope::sim {

/// Where an expectation stands.
enum class Verdict : std::uint8_t {
  Pending,  ///< Not decided yet.
  Passed,
  Failed,
  Undecided,  ///< The run was cut short before its deadline (e.g. --seconds): neither.
};

/// snake_case name ("pending", "passed", "failed", "undecided").
const char* to_string(Verdict verdict);

/// One expectation's verdict.
struct ExpectationResult {
  std::string label;  ///< "expect[2] arrive \"home\"" (index, kind, name if any).
  ExpectKind kind = ExpectKind::NoOverlaps;
  Verdict verdict = Verdict::Pending;
  double time = 0;      ///< Seconds of simulated time it was decided at.
  std::string message;  ///< What held, or what failed (which units, where).
};

/// Simulated seconds a run with expectations lasts when nothing else says: the largest
/// `within`, or this when none has one.
inline constexpr double kDefaultExpectSeconds = 60;

/// The seconds a run must last to decide `expect` (see kDefaultExpectSeconds).
double expectation_horizon(std::span<const Expectation> expect);

/// Checks expectations against one run. Deterministic; observes only.
class ExpectationChecker {
 public:
  /// Copies the expectations (the scenario must be valid).
  explicit ExpectationChecker(std::vector<Expectation> expect);

  /// After each step (and after `detector` has observed the same step).
  void observe(const Simulation& simulation, const StuckDetector& detector);
  /// The run stopped: what is still pending is decided (absences pass, over the run;
  /// arrivals and passes not yet made fail, or are undecided before their deadline).
  void finish(const Simulation& simulation);

  /// Every expectation decided.
  bool decided() const;
  /// Any failed.
  bool failed() const;
  /// The first failed, or nullptr.
  const ExpectationResult* first_failure() const;
  std::span<const ExpectationResult> results() const { return results_; }

 private:
  // Per-expectation run state.
  struct State {
    bool bound = false;                ///< Units resolved to slots (first observe).
    std::vector<UnitId> ids;           ///< The units it is about.
    std::vector<std::uint32_t> names;  ///< Their scenario ids.
    std::vector<bool> done;            ///< Passes: came near; Arrive: unused.
  };
  void bind(const Simulation& simulation, std::size_t index);
  void decide(std::size_t index, Verdict verdict, double time, std::string message);
  std::vector<Expectation> expect_;
  std::vector<State> states_;
  std::vector<ExpectationResult> results_;
  std::size_t events_seen_ = 0;  ///< Stuck events already looked at.
  /// Judges no_overlaps and no_tunnelling: the referee, which shares no code with the
  /// step, checks every step while one of them is pending.
  SimReferee referee_;
  bool referee_needed_ = false;
};

/// A headless regression run of a scenario's expectations.
struct ExpectationRun {
  double seconds = 0;                      ///< Simulated seconds run.
  std::vector<ExpectationResult> results;  ///< One per expectation, in the scenario's order.
  std::vector<StuckEvent> stuck;           ///< Every stuck flag of the run.
  bool failed = false;                     ///< Any expectation failed.
  /// The saved game's state did not restore (naming the field): nothing ran, and failed.
  std::string error;
};

/// Runs `scenario` (valid, with units; a saved game on from where it was saved, its
/// stuck detector's tracks too) until every expectation is decided, at most until the
/// simulated time `max_seconds` (<= 0: expectation_horizon; deadlines are simulated
/// time since the scenario's start, so a saved game runs that much less), and checks them.
ExpectationRun run_expectations(Scenario scenario, double max_seconds = 0);

}  // namespace pathscope::sim
