#pragma once

// Generated cases of platoons in formation (seed 004, sections 4 and 5) for `pathscope
// bench formations` and the tests, and the run that measures them: a town, a forest gap,
// a bridge, a sharp turn round a building (Figure 9) and two platoons meeting head-on,
// each with platoons of a default vehicle class. Deterministic for given arguments.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "planner/scenario/scenario.hpp"

namespace pathscope::sim {

/// The generated worlds.
enum class FormationCase : std::uint8_t {
  Town,       ///< Blocks of buildings either side of a 24 m avenue; a wedge crosses the town.
  ForestGap,  ///< A forest band with one 24 m gap; a line goes through it.
  Bridge,     ///< A river with one bridge 10 m wide; a column crosses it.
  SharpTurn,  ///< A building the path turns round twice, 90 degrees each (Figure 9); a wedge.
  HeadOn,     ///< Two wedges on one line, each ordered to the other's start.
  /// The bridge's river with a column on each bank, each ordered across: one platoon at
  /// a time on the bridge, the other waiting before it.
  BridgeBothWays,
};

/// Every case, in the order above.
inline constexpr FormationCase kFormationCases[] = {FormationCase::Town,   FormationCase::ForestGap,
                                                    FormationCase::Bridge, FormationCase::SharpTurn,
                                                    FormationCase::HeadOn, FormationCase::BridgeBothWays};

/// The case's name ("town", "forest_gap", "bridge", "sharp_turn", "head_on",
/// "bridge_both_ways").
std::string_view formation_case_name(FormationCase c);

/// The case's scenario: platoons (scenario groups with UnitGroup::platoon) of `vehicles`
/// units of the default class `class_name` ("tracked", "wheeled", "rotary", "infantry"),
/// slots two body widths apart, standing in formation at the start and ordered across.
Scenario formation_case(FormationCase c, const std::string& class_name, int vehicles);

/// What a run of a case measured.
struct FormationFigures {
  std::size_t vehicles = 0;  ///< Units in platoons.
  double arrived_pct = 0;    ///< Of them, arrived (at their slots, their platoon's order done) at the end.
  double seconds_to_arrive = -1;    ///< When the last one arrived (-1: not all did).
  double mean_slot_error_m = 0;     ///< Mean distance from its drive-to point while its platoon drove.
  double max_slot_error_m = 0;      ///< Largest such distance.
  double max_slot_error_end_m = 0;  ///< Largest distance from its final slot at the end.
  double arrival_radius_m = 0;      ///< The vehicles' arrival radius (the largest).
  std::size_t left_formation = 0;   ///< Vehicles ever beyond 2 x maxspeed from their drive-to point.
  std::size_t referee_violations =
      0;                  ///< Hard overlaps, tunnelled units and units inside walls, by the referee.
  std::size_t stuck = 0;  ///< Vehicles not arrived at the end.
  std::size_t three_point_turns = 0;  ///< Backing legs started (wheeled).
  std::size_t private_paths = 0;      ///< Private paths given (bad-position checks that fired).
  std::size_t drive_to_in_walls = 0;  ///< Drive-to points found in a closed cell (steps x slots).
  double max_column_offset_m =
      0;  ///< Column platoons: largest distance of a vehicle from the platoon's path.
  /// Steps in which vehicles of two platoons stood on one bridge's deck (their centres
  /// within half its width of its segment), measured here from the positions alone.
  std::size_t bridge_conflicts = 0;
  double micros_per_vehicle_step = 0;  ///< Step time (clock given) per vehicle per step, microseconds.
  std::uint64_t steps = 0;             ///< Steps run.
  std::uint64_t state_hash = 0;        ///< The simulation's state hash at the end.
};

/// Runs `scenario` for at most `seconds` (stopping once every platoon's order is done and
/// every vehicle has arrived) with the referee after every step. `clock` (nanoseconds,
/// may be null) times the steps for micros_per_vehicle_step only.
FormationFigures run_formation_case(const Scenario& scenario, double seconds,
                                    const std::function<std::uint64_t()>& clock = nullptr);

}  // namespace pathscope::sim
