#pragma once

// Platoons in the simulation (seed 004, "Formation movement"): a component of the step.
// PlatoonRun and the types it holds are public: Simulation::platoons() gives them to
// readers (the platoon painter, the window's panels, saved games). The functions below
// are the simulation's own (planner/sim/*.cpp); step.cpp composes them.
//
// A scenario group with a platoon (UnitGroup::platoon) moves as one: its tactician asks
// for one path for the platoon (with the class of its widest vehicle), moves the platoon
// along it (platoon.hpp) and each step gives every vehicle a drive-to point of the
// formation (platoon_formation.hpp). The vehicles' state is MoveState::InPlatoon: the
// state loop leaves them alone and the crew here chooses each one's move for the step
// (UnitPrivate::next), which the moves and collision prevention then make as for every
// unit (so no vehicle passes through a wall or another unit). When the platoon has made
// its last turn and every vehicle is within its arrival radius of its slot, or
// kPlatoonSettleSeconds later, each vehicle is ordered to its slot as a unit of its own
// (the step starts those orders: arrivals then hold it there).
//
// drive_platoons reads the units' bodies, the motions and cost grids per class, the
// settings and the time; it writes each platoon's state, and for every vehicle of a
// platoon under way its move (UnitPrivate::next) and its dropped predictions.

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "planner/sim/platoon.hpp"
#include "planner/sim/platoon_formation.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/vehicle.hpp"
#include "planner/sim/vehicle_path.hpp"
#include "planner/world/cost_grid.hpp"

namespace pathscope::sim {

struct UnitPrivate;  // simulation_impl.hpp

/// Seconds after the platoon's last turn that its vehicles are left to reach their slots
/// before each is ordered there on its own.
inline constexpr double kPlatoonSettleSeconds = 10;

/// Metres from its drive-to point within which a vehicle counts as there: its vehicle
/// class's (seed 004: 2.5 m); for infantry its hard radius, at least 0.5 m.
double platoon_arrival_radius(const Motion& motion, const std::optional<VehicleClass>& vehicle);

/// A movement class's vehicle (nullopt: infantry, VehicleModel::Infantry): its kind's
/// defaults with the class's speed, reverse speed, acceleration, deceleration, turn rate
/// (when given), minimum turning radius (wheeled) and hard shape as its footprint
/// (length two hard radii, width that times the aspect).
std::optional<VehicleClass> vehicle_of(const MovementClass& movement_class, const Motion& motion);

/// What a vehicle's crew did in the last step, for the window and the decision log.
struct CrewState {
  std::int8_t direction = 1;  ///< +1 forward, -1 reversing (the body keeps the speed's size).
  bool backing_turn = false;  ///< Wheeled: in a three-point turn's backing leg.
  std::int8_t turn_side = 0;  ///< That leg's turn side.
  HeadingCase heading_case = HeadingCase::Still;  ///< Seed 004's case it answered (vehicles).
  Vec2 steering{0, 0};                            ///< Its steering velocity after avoidance, m/s.
  UnitId avoided{0xffffffffu, 0};                 ///< The vehicle it avoided, if any (index ~0: none).
  bool stopped = false;                           ///< Avoidance stopped it (its point too near the other).
  /// Its own path round an obstacle between it and its drive-to point (seed 004's
  /// bad-position check, Figure 9), while it drives one.
  PrivatePath private_path;
  bool private_path_pending = false;    ///< It asked for one; the answer has not come.
  double last_check = -1e300;           ///< When it last made the bad-position check (s).
  std::uint32_t private_paths = 0;      ///< Private paths it was given over the order.
  std::uint32_t three_point_turns = 0;  ///< Backing legs it started over the order (wheeled).
};

/// Seconds between two of a crew's bad-position checks (seed 004: "periodic checks").
inline constexpr double kBadPositionCheckSeconds = 0.5;
/// Where a platoon stands with its order.
enum class PlatoonOrderState : std::uint8_t {
  None,            ///< No order (or done: its vehicles hold their slots on their own).
  WaitingForPath,  ///< Its path is asked for.
  Driving,         ///< Along its path, its vehicles in formation.
  Failed,          ///< No path to the ordered point.
};

/// A platoon as the simulation runs it.
struct PlatoonRun {
  std::uint32_t group = 0;     ///< Its scenario group's id.
  std::vector<UnitId> slots;   ///< Slot k's vehicle (a slot whose vehicle is gone stays empty).
  std::size_t path_class = 0;  ///< The movement class its path is planned for (its widest vehicle's).
  PlatoonFormation from;       ///< The formation being left.
  PlatoonFormation to;         ///< The formation taken.
  double spacing = 8;          ///< Metres: column spacing along the path.
  PlatoonParams params;        ///< From its vehicles' classes.
  PlatoonOrderState order = PlatoonOrderState::None;
  Vec2 goal{0, 0};  ///< The ordered point (metres): the order's last.
  /// The order's points whose legs are still to plan, in order (the last is `goal`):
  /// while it waits for its path, each leg is asked for from the end of the path so far
  /// (`path` grows leg by leg), and the walk starts once the last leg is found. A Move
  /// order has one leg.
  std::vector<Vec2> legs;
  std::optional<double> final_heading;  ///< Radians to face at the end.
  UnitId requester;                     ///< The vehicle whose path request carries the platoon's.
  std::vector<Vec2> path;               ///< The planned path (metres).
  PathWalk walk;                        ///< The path with its lead-in.
  PlatoonMotion motion;                 ///< Its own position, heading, speed.
  std::vector<double> morph;            ///< Per slot: how far it is pulled towards its column position.
  std::vector<SlotTarget> targets;      ///< Per slot: this step's drive-to point.
  std::vector<CrewState> crews;         ///< Per slot: its crew's last step.
  double arrived_time = -1;             ///< When its last turn ended (s), -1 before.
  /// No path for the platoon: its vehicles go to their slots at the goal on their own
  /// (PlatoonSpec::break_when_blocked).
  bool break_when_blocked = false;
  /// This step's stop before a bridge another platoon holds (arc length on `walk`;
  /// infinite: none), set by the step's bridge rule before the platoons move
  /// (keep_bridge_for_platoons), from the ledger and the platoon's place.
  double bridge_hold = std::numeric_limits<double>::infinity();
};

/// What the platoons ask of the step.
struct PlatoonOutcome {
  std::vector<std::size_t> finished;  ///< Platoons whose vehicles now go to their slots on their own.
  /// Vehicles that ask for a private path to their drive-to point: (platoon, slot).
  std::vector<std::pair<std::size_t, std::size_t>> vehicle_paths;
};

/// The platoon's position and heading at rest: its lead slot's vehicle's if present, else
/// the first present vehicle's place less its slot's offset. False when none is present.
bool platoon_pose(const PlatoonRun& p, std::span<const SimUnit> units, Vec2& position, double& heading);

/// Takes the planned `path` (Found) for the platoon standing at its pose: its walk starts.
void start_platoon_path(PlatoonRun& p, std::span<const SimUnit> units, std::vector<Vec2> path);

/// Moves every platoon under way one step and chooses its vehicles' moves (see above).
/// `vehicles`: per class (vehicle_of); vehicles steer as seed 004's crews and avoid
/// every other platoon's and their own platoon's vehicles (Reynolds, vehicle_avoidance.hpp).
void drive_platoons(std::span<PlatoonRun> platoons, std::span<SimUnit> units, std::span<UnitPrivate> extra,
                    std::span<const Motion> motions, std::span<const std::optional<VehicleClass>> vehicles,
                    std::span<const CostGrid* const> grids, const SimSettings& set, double now,
                    PlatoonOutcome& out);

}  // namespace pathscope::sim
