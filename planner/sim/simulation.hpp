#pragma once

// The unit simulation: units that execute paths (seed 002, "Coordinated Unit Movement"),
// with seed 000's support systems (reactive avoidance, collision prevention).
//
// It advances only by the scenario's fixed dt: the caller owns any accumulator (the
// window's update smoothing), so frame times never change a result. Same scenario, same
// orders, same states, bit for bit: the state hash says so at every step.
//
// One step, in order:
//   1. path requests are answered, at most SimSettings::path_budget of them;
//   2. every unit runs Listing 1's state loop and predicts its next positions (the same
//      code then moves it: seed 002, "Predicted Positions"); a unit about to drive onto
//      a bridge another platoon holds waits before it (seed 004, "Bridges"), and one
//      about to enter a narrow passage units come through the other way waits before
//      it (passages.hpp);
//   3. collisions between units are found through a spatial hash from the predicted
//      positions, immediate before future, hard before soft; the immediate ones add to
//      the collision density, which decays with SimSettings::density_half_life;
//   4. the cooperation rules decide who waits, slows, moves aside or goes round;
//   5. units move (continuous or discrete check against the static world);
//   6. collision prevention separates any overlapping hard shapes (seed 000);
//   7. arrivals: a unit whose order is done is arrived only within arrival_tolerance of
//      its goal; pushed farther off, it walks back once it has stood still a moment and
//      the goal is free (arrival.cpp);
//   8. counters: overlaps, tunnelling;
//   9. every SimSettings::density_refresh seconds, with SimSettings::density_cost on, the
//      density becomes planning cost on the simulation's world (density_cost.cpp).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "planner/core/result.hpp"
#include "planner/scenario/scenario.hpp"
#include "planner/sim/formation.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/sim_types.hpp"
#include "planner/sim/unit_path.hpp"

namespace pathscope {
class CostGrid;
class PlanningWorld;
class BridgeReservations;
}  // namespace pathscope

namespace pathscope::sim {

struct MotionState;
struct PlatoonRun;  // platoon_drive.hpp
struct PathAnswer;  // path_service.hpp

/// The resolved motion limits of a movement class (defaults derived, see scenario.hpp).
struct Motion {
  double speed = 1;                      ///< m/s on cost-1 ground.
  double acceleration = 2;               ///< m/s^2.
  double deceleration = 4;               ///< m/s^2.
  double turn_rate = 6.283185307179586;  ///< rad/s.
  double hard_radius = 0.5;              ///< m.
  double soft_radius = 0.75;             ///< m.
  double hard_aspect = 1;                ///< Across / along the heading.
  int priority = 0;
};

/// A class's motion with every absent value derived from its radius and speed.
Motion resolve_motion(const MovementClass& movement_class);

/// The largest arrival tolerance, metres (arrival_tolerance).
inline constexpr double kMaxArrivalTolerance = 0.5;
/// Metres from its goal within which a unit of this class whose order is done counts as
/// arrived (SimUnit::Goal::arrived): half its hard radius, at most kMaxArrivalTolerance (0.25 m
/// for a hard radius of 0.5 m). Pushed farther off, it walks back (arrival.cpp).
double arrival_tolerance(const Motion& motion);

/// What cooperation currently asks of a unit (seed 002's resolving collisions).
enum class Yield : std::uint8_t {
  None,
  Wait,       ///< Stop until the other unit has passed (case 3.1 mover, case 4.2 pause).
  SlowDown,   ///< Go at `speed_factor` until the other has passed its get-to point (case 4.3).
  MoveAside,  ///< Go to `aside` (cases 1, 3.1), then back to where it was (`home`).
  Return,     ///< Going back home after moving aside.
  Detour,     ///< Going round a unit through `aside` (case 3.2), then on along its path.
};

/// One unit as the simulation holds it. Read-only outside the simulation.
///
/// Its state is a few parts, each written by one component of the step (the comment on
/// each says which); the others read it.
struct SimUnit {
  /// Where it is and how it moves: written by the motion step (unit_motion.cpp,
  /// moves.cpp) and by collision prevention's shoves (prevention.cpp).
  struct Body {
    Vec2 position{0, 0};  ///< Metres.
    Vec2 previous{0, 0};  ///< Position at the start of the last step.
    double heading = 0;   ///< Radians, as Unit::heading.
    double speed = 0;     ///< Metres per second along the heading.
  };
  /// Its order and how far along it is: written by the state loop (Listing 1,
  /// simulation.cpp) and the path service's answers.
  struct Route {
    MoveState state = MoveState::Idle;
    Order order;
    std::size_t order_point = 0;  ///< Index into order.points of the current target.
    int patrol_step = 1;          ///< +1 or -1 (back and forth patrols).
    UnitPath path;                ///< The current path to the order point.
    std::size_t waypoint = 0;     ///< Index into path of the point it heads for.
    PredictedList predicted;      ///< Rolling list; predicted[0] is the next step's.
    double progress_time = 0;     ///< Last time it got closer to its order point.
    double best_distance = 0;     ///< Closest it has got to its current order point.
  };
  /// Whether it is at its goal: written by arrivals (arrival.cpp) and detours to a taken
  /// spot (detours.cpp).
  struct Goal {
    /// At its goal: its Move or Waypoints order is done (ReachedGoal) and it stands within
    /// arrival_tolerance of the order's last point (a formation order's: its own slot).
    /// Cleared at the end of a step that leaves it farther off (pushed, shoved, moved
    /// aside); set again when it is back (it walks back: arrival.cpp).
    bool arrived = false;
    /// Its order is done but it stands off its goal, beyond arrival_tolerance, and another
    /// unit's hard shape covers the goal and holds it (standing there by right, or passing:
    /// arrival.cpp; a unit sent to a taken spot stops beside it, detours.cpp). It is not at
    /// its goal; it walks in once the goal is free. Never set with `arrived`.
    bool taken = false;
    /// Walking back to its goal after a push (arrival.cpp). It ranks as an arrived unit,
    /// below units still under way, so a unit passing through has it step aside again
    /// rather than meet it head-on.
    bool walking_back = false;
    /// Its order came to a group (SimSettings::formation_goals): the order's last point is
    /// its own slot of the group's formation round `formation_point` (sim/formation.hpp).
    bool formation = false;
    Vec2 formation_point{0, 0};  ///< The point the group was ordered to (formation only).
    /// When it first arrived at its current order's goal (seconds), -1 before. Leaving the
    /// goal and coming back keep it; a new order (or a slot swap) starts it afresh.
    double arrived_time = -1;
  };
  /// What cooperation asks of it: written by cooperation.cpp (seed 002's cases) and
  /// detours.cpp (case 3.2's way round).
  struct Cooperation {
    Yield yield = Yield::None;
    UnitId yield_to;          ///< The unit it yields to.
    double speed_factor = 1;  ///< Slow-down factor (Yield::SlowDown).
    Vec2 aside{0, 0};         ///< Where it moves aside (or detours) to.
    Vec2 home{0, 0};          ///< Where it returns to after moving aside.
    Vec2 get_to{0, 0};        ///< The other unit's get-to point.
    double until = 0;         ///< Time the yield gives up at (never forever).
    /// While it yields: the rank (class priority, slot index) lent by the unit it gives
    /// way to, so that it can pass the demand on to units in its own way.
    int lent_priority = 0;
    std::uint32_t lent_index = 0;
    bool lent = false;
  };
  /// Waits before shared ground: written by bridges.cpp and passages.cpp.
  struct Waits {
    /// Before a bridge another platoon holds (seed 004); it then gives way to every unit,
    /// so the platoon on the bridge can come off it.
    bool bridge = false;
    /// Before a narrow passage units come through the other way (passages.hpp); it gives
    /// way to everyone meanwhile.
    bool passage = false;
  };
  /// What the last step's corrections did: written by avoidance.cpp and prevention.cpp,
  /// observed by recordings, never read by the step.
  struct Diagnostics {
    double steered = 0;  ///< Radians reactive avoidance turned it from its path's way.
    Vec2 pushed{0, 0};   ///< Metres collision prevention moved it.
  };

  UnitId id;
  bool alive = false;
  std::uint32_t scenario_id = 0;  ///< Unit::id in the scenario.
  std::size_t movement_class = 0;
  std::size_t faction = 0;  ///< Index into Scenario::factions (0 if none).
  Body body;
  Route route;
  Goal goal;
  Cooperation coop;
  Waits waits;
  Diagnostics diag;
};

/// True if a unit means to move this step (seed 002's "moving" unit): under way and not
/// told to wait, or moving aside or back.
bool is_moving(const SimUnit& u);

/// A remembered resolution (seed 002, "Basic Planning"): the pair is not checked again
/// until `until` unless one of them gets a new order.
struct Memory {
  UnitId a;
  UnitId b;
  double until = 0;
  CooperationRule rule = CooperationRule::None;
};

/// Collision density (seed 002: areas where collisions keep happening), per grid cell of
/// the world, decaying with SimSettings::density_half_life (density_cost.cpp).
struct DensityMap {
  int width = 0;  ///< Cells.
  int height = 0;
  double cell_size = 1;  ///< Metres.
  /// Collisions per cell (a hard one 1, a soft one 0.25 per step), each multiplied by
  /// 2^(-age / half-life); a cell decayed below kDensityFloor is 0. Row-major.
  std::vector<float> value;
  float max_value = 0;  ///< The largest value now (it decays too).
};

/// A cell's density decayed below this (half a soft collision) is forgotten: set to 0.
inline constexpr float kDensityFloor = 0.125f;

/// The factor a density value is multiplied by each step: 2^(-dt / density_half_life),
/// or 1 (no decay) with a half-life of 0.
double density_decay_factor(const SimSettings& settings);

/// Steps between two updates of the density cost (SimSettings::density_refresh, at least 1).
std::uint64_t density_refresh_steps(const SimSettings& settings);
/// The cost overlay (PlanningWorld::set_cost_overlay) `density` makes with weight
/// `weight`: per cell, 1 + weight x (v / max_value) rounded down to eighths, v the
/// largest value of the cell and its 8 neighbours; empty when no cell gets more than 1.
std::vector<float> density_cost_factors(const DensityMap& density, double weight);

/// The simulation. Owns a PlanningWorld made from its scenario; not thread-safe.
class Simulation {
 public:
  /// The simulation of a scenario from outside (a file, the editor): its units placed
  /// with their orders, or the scenario's first problem (validate_scenario), naming the
  /// field. A saved game's state (`sim_state`) is not taken here: restore_state.
  static Result<std::unique_ptr<Simulation>> create(Scenario scenario);
  /// Takes a scenario known to be valid (create() checks one) and places its units with
  /// their orders.
  explicit Simulation(Scenario scenario);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Advances by one fixed step of scenario().sim.dt seconds.
  void step();

  std::uint64_t step_count() const { return counters_.steps; }
  double time() const;  ///< Seconds simulated.
  const Scenario& scenario() const;
  const PlanningWorld& world() const { return *world_; }

  /// The world changed (an edit while it runs): obstacles, terrain. Units, orders and
  /// settings in `next` are ignored; paths that now collide are re-planned as they meet
  /// the change (Listing 1). The density cost on the world stays. `next` must be valid.
  /// A Limit error when the density cost on the new cells would need more surfaces than
  /// a raster holds (PlanningWorld::update()): then nothing changed.
  Status update_world(Scenario next);

  /// Adds a unit (its order too); returns its id.
  UnitId add_unit(const Unit& unit);
  /// Removes a unit; false if the id names none (removed already).
  bool remove_unit(UnitId id);
  /// The unit `id` names, or nullptr.
  const SimUnit* unit(UnitId id) const;
  /// The unit whose scenario id is `scenario_id`, or nullptr.
  const SimUnit* find_scenario_unit(std::uint32_t scenario_id) const;
  /// Every slot, dead ones too (alive == false); index = UnitId::index.
  std::span<const SimUnit> slots() const { return units_; }
  /// Units alive.
  std::size_t unit_count() const;
  /// Gives `order` to the units (a group order when more than one: they cross bridges as
  /// one platoon; with SimSettings::formation_goals, the last point of a move or
  /// waypoints order becomes each unit's own slot round it, formation.hpp); unknown and
  /// repeated ids are skipped. Returns how many units took it.
  /// Returns an error naming the order's field if the order is malformed.
  Result<std::size_t> give_order(std::span<const UnitId> ids, const Order& order);

  /// Orders the platoon of scenario group `group` (UnitGroup::platoon) to the last point
  /// of a Move or Waypoints order (its tactician plans one path there), to face `heading`
  /// at the end (default: the path's last way); a Stop or None order stops it. Returns
  /// how many of its vehicles took it, or an error naming the field.
  Result<std::size_t> order_platoon(std::uint32_t group, const Order& order, std::optional<double> heading);
  /// Changes a platoon's formation (a built-in name or one of the scenario's), the slots
  /// moving over PlatoonParams::formation_change_seconds; an error names a formation or
  /// group that does not exist.
  Status change_formation(std::uint32_t group, std::string_view formation);
  /// The platoons (platoon_drive.hpp), in the scenario's groups' order.
  std::span<const PlatoonRun> platoons() const;

  /// The collisions found in the last step, in the order they were handled.
  std::span<const Collision> collisions() const { return collisions_; }
  /// The remembered resolutions.
  std::span<const Memory> memory() const { return memory_; }
  const DensityMap& density() const { return density_; }
  /// Which platoon holds which bridge now.
  const BridgeReservations& bridge_reservations() const;
  /// The narrow passages of a movement class's grid and who goes through them now
  /// (empty before the first step, or with SimSettings::passages off).
  std::span<const Passage> passages(std::size_t movement_class) const;
  /// Per cell of the class's grid, 1 where the last step claimed the way out of a held
  /// passage (units waiting for it step off those cells); empty when nothing is claimed.
  std::span<const std::uint8_t> claimed_cells(std::size_t movement_class) const;
  const SimCounters& counters() const { return counters_; }
  /// Units alive at their goals (SimUnit::Goal::arrived: Move, Waypoints); patrols never arrive.
  std::size_t arrived_count() const;
  /// Units alive whose order is done but whose goal another unit holds (SimUnit::Goal::taken).
  std::size_t goal_taken_count() const;
  /// Units with a Move or Waypoints order (arrived or not).
  std::size_t ordered_count() const;
  /// A hash of every unit's state (ids, positions, headings, speeds, states, paths),
  /// the same in every run and build for the same inputs.
  std::uint64_t state_hash() const;

  /// The whole state (units, queued paths, memory, counters, turns at bridges and
  /// passages), as JSON text for a saved game (Scenario::sim_state).
  std::string state_json() const;
  /// Takes the state `text` (state_json() of a simulation of the same world), so that
  /// running on gives the same states as the simulation it was saved from. On an error,
  /// naming the field, nothing changes.
  Status restore_state(std::string_view text);
  /// How many times restore_state replaced the units: a unit's path revision
  /// (UnitPath::revision) tells two paths of the same unit id apart only while this holds.
  std::uint64_t restores() const { return restores_; }

  /// Optional clock (nanoseconds) for profiling only: time spent planning paths and
  /// in the rest of the step is summed; results never depend on it.
  void set_clock(std::function<std::uint64_t()> clock) { clock_ = std::move(clock); }
  std::uint64_t planning_nanoseconds() const { return planning_ns_; }
  std::uint64_t movement_nanoseconds() const { return movement_ns_; }

 private:
  struct Impl;
  // The phases of step(), in order (see the top of this file).
  void answer_paths();
  void refresh_density_cost();
  // Helpers.
  std::span<const CostGrid* const> class_grids();  // per class, the world's grids now
  void request_path(SimUnit& u);
  void make_passage_maps();  // per class, at the first step and after a world change (passage_exits.cpp)
  void run_out_of_passages(SimUnit& u);
  void wait_clear(SimUnit& u, Vec2 entry, Vec2 flow, double half_width);
  void wait_at(SimUnit& u, Vec2 spot);
  void wait_here(SimUnit& u);
  void start_order(SimUnit& u);
  void decay_density();  // density_cost.cpp
  void count_density();  // density_cost.cpp: decays, then adds this step's immediate collisions
  FormationPlan formation_for(std::span<const UnitId> ids, const Order& order);
  void forget(UnitId id);
  void make_platoons();                                        // platoons.cpp: from the scenario's groups
  void request_platoon_path(PlatoonRun& p);                    // platoons.cpp
  void request_vehicle_path(PlatoonRun& p, std::size_t slot);  // platoons.cpp: a crew's private path
  void leave_platoons(UnitId id);                              // platoons.cpp: its slot empties
  bool answer_platoon(PathAnswer& a);  // platoons.cpp: true if the answer was a platoon's
  void break_platoon(PlatoonRun& p);   // platoons.cpp: no path: each vehicle to its slot on its own
  std::unique_ptr<PlanningWorld> world_;
  std::unique_ptr<Impl> impl_;
  std::vector<SimUnit> units_;
  std::vector<Collision> collisions_;
  std::vector<Memory> memory_;
  DensityMap density_;
  SimCounters counters_;
  std::uint64_t restores_ = 0;
  std::function<std::uint64_t()> clock_;
  std::uint64_t planning_ns_ = 0;
  std::uint64_t movement_ns_ = 0;
};

/// The state hash of unit slots at `steps` (Simulation::state_hash() is this of its own;
/// a recording's frames give the same): every field a recording's frame keeps, of every
/// live unit (sim_fields.hpp), and each unit's path through its path_digest
/// (state_hash.cpp).
std::uint64_t state_hash(std::uint64_t steps, std::span<const SimUnit> units);
/// The same, with each slot's path_digest given (index = slot) by a caller that keeps
/// them (an empty span: computed here).
std::uint64_t state_hash(std::uint64_t steps, std::span<const SimUnit> units,
                         std::span<const std::uint64_t> path_digests);
/// The hash of recordings of the format's version 1 (identity, position, heading, speed,
/// state, yield, order point, waypoint and path only), to check them.
std::uint64_t state_hash_v1(std::uint64_t steps, std::span<const SimUnit> units,
                            std::span<const std::uint64_t> path_digests);
/// A digest of a path's points, for state_hash.
std::uint64_t path_digest(std::span<const Vec2> path);

/// A saved game: the simulation's scenario (its world as it is now), its units where and
/// as they are now (position, heading, order), and its whole state in sim_state, so that
/// opening it and restoring the state runs on exactly. Units added while it ran are
/// listed too; removed ones are not.
Scenario saved_game(const Simulation& simulation);

}  // namespace pathscope::sim
