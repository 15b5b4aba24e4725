#pragma once

// The simulation's private state and the steps shared by its source files
// (simulation.cpp: lifecycle, state loop, moves; step.cpp: the step;
// passage_exits.cpp, density_cost.cpp, sim_state.cpp). The step's components
// (the state loop, collision detection, cooperation, the moves, prevention, avoidance, arrival, bridges,
// passage_turns, detours) do not see it; cooperation reads and writes UnitPrivate.

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "planner/sim/arrival.hpp"
#include "planner/sim/avoidance.hpp"
#include "planner/sim/bridges.hpp"
#include "planner/sim/cooperation.hpp"
#include "planner/sim/detours.hpp"
#include "planner/sim/formation_gaps.hpp"
#include "planner/sim/knots.hpp"
#include "planner/sim/moves.hpp"
#include "planner/sim/passage_turns.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/path_service.hpp"
#include "planner/sim/platoon_drive.hpp"
#include "planner/sim/prevention.hpp"
#include "planner/sim/simulation.hpp"
#include "planner/sim/spatial_hash.hpp"
#include "planner/sim/state_loop.hpp"
#include "planner/sim/unit_motion.hpp"
#include "planner/world/bridge_reservations.hpp"

namespace pathscope::sim {

/// Platoon ids: a scenario group's own id (below kOrderPlatoon), a group order given at
/// run time, or a faction.
inline constexpr std::uint32_t kOrderPlatoon = 0x40000000u;
inline constexpr std::uint32_t kFactionPlatoon = 0x80000000u;

/// Seconds after which a yield (moving aside, going back, a pause) gives up.
inline constexpr double kYieldSeconds = 4;

/// Per unit, what only the simulation reads.
struct UnitPrivate {
  std::uint16_t move_key = 0;         ///< Its terrain group's move key (static checks).
  bool path_pending = false;          ///< A request is queued.
  std::uint32_t order_serial = 0;     ///< Increases with every new order (memory is per order).
  MotionState next;                   ///< The move chosen for this step.
  bool next_from_prediction = false;  ///< `next` is predicted[0] (the prediction holds).
  std::vector<Vec2> yield_path;       ///< Path while moving aside or returning.
  double last_repath = -1e300;        ///< When cooperation (case 3.4) last asked for a new path.
  /// Its platoon for bridges (seed 004): its group's id, the id of a group order, or
  /// its faction's (kFactionPlatoon + index) when it has neither.
  std::uint32_t platoon = 0;
  /// The last bridge (its id) or passage (its index in its class's map) it went
  /// through, the way it went and when it was last on it: coming off, it keeps the way
  /// held for its side while it clears the queue waiting at the end (for a while).
  std::int64_t last_bridge = -1;
  double bridge_time = 0;
  std::int64_t last_passage = -1;
  Vec2 passage_flow{0, 0};
  double passage_time = 0;
  /// Its order done and off its goal (not arrived): the time since which it has stood
  /// still (not moved, pushed or yielding). It walks back kSettleSeconds after (arrival.cpp).
  double still_since = 0;
  /// Seconds it stands still before it walks back: kSettleSeconds, doubled (up to
  /// kMaxSettleSeconds) each time a walk back ends off the goal, reset when it arrives.
  double settle = kSettleSeconds;
};

/// Metres a unit coming out of a passage runs straight on before it turns (passage_exits.cpp).
inline constexpr double kExitRun = 8;

struct Simulation::Impl {
  explicit Impl(const PlanningWorld& world) : paths(world) {}

  PathService paths;
  std::vector<Motion> motions;     ///< Per movement class.
  std::vector<UnitPrivate> extra;  ///< Per slot.
  std::vector<std::uint32_t> free_slots;
  UnitHash hashed;  ///< The units alive where they stand: built by detection and by the moves.
  std::vector<std::uint32_t> scratch;  ///< Scratch: unit indices.
  MoveScratch moves;                   ///< The moves' own scratch.
  DetectionScratch detection;          ///< Detection's own scratch.
  CooperationScratch cooperation;      ///< Cooperation's own scratch.
  CooperationOutcome cooperated;       ///< Scratch: what cooperation asked of the step.
  StateLoopOutcome state_loop;         ///< Scratch: what the state loops asked of the step.
  double max_hard = 0.5, max_soft = 0.75, max_speed = 1;  ///< Over classes.
  BridgeReservations bridges;                             ///< One platoon at a time on a bridge (seed 004).
  std::vector<PassageMap>
      passage_maps;  ///< Per class; made at the first step, and again after a world change.
  std::vector<std::vector<PassageTally>> passage_tallies;  ///< Scratch: per class, per passage.
  PassageClaims claims;     ///< The claimed ways out of held passages (passage_turns.hpp).
  std::vector<Knot> knots;  ///< Scratch: the knots found this step (knots.hpp).
  /// The cells of the density map with a value above 0, for its decay (density_cost.cpp);
  /// in any order (each cell decays on its own). Rebuilt from the map when it is taken.
  std::vector<std::uint32_t> density_cells;
  std::uint32_t next_order_platoon = kOrderPlatoon;  ///< Platoon of the next group order.
  std::vector<const CostGrid*> grids;                ///< Per class: the world's grid, taken at each step.
  std::vector<PreventionUnit> prevention_units;      ///< Scratch: prevention's view of the units.
  PreventionScratch prevention;                      ///< Prevention's own scratch.
  std::vector<AvoidanceSteer> steers;                ///< Scratch: the moves reactive avoidance changed.
  std::vector<std::uint16_t> move_keys;              ///< Scratch: per slot, UnitPrivate::move_key.
  std::vector<ArrivalUnit> arrivals;                 ///< Scratch: arrivals' view of the units.
  ArrivalScratch arrival;                            ///< Arrivals' own scratch.
  std::vector<BridgeUnit> bridge_units;              ///< Scratch: the bridge rule's view of the units.
  std::vector<PassageUnit> passage_units;            ///< Scratch: the passage rule's view of the units.
  std::vector<BridgeWait> bridge_waits;              ///< Scratch: the units a bridge refused.
  std::vector<BridgePlatoon> bridge_platoons;        ///< Scratch: the bridge rule's view of the platoons.
  std::vector<std::vector<Vec2>> bridge_vehicles;    ///< Scratch: their vehicles' positions.
  std::vector<std::uint32_t> bridge_claims;          ///< Scratch: platoons let on a bridge this step.
  std::vector<std::vector<Vec2>> gap_areas;          ///< Scratch: the driving platoons' areas.
  std::vector<GapUnit> gap_units;                    ///< Scratch: the formation-gap rule's view of the units.
  std::vector<PassageWait> passage_waits;            ///< Scratch: the units the passages refused.
  std::vector<DetourUnit> detour_units;              ///< Scratch: detours' view of the units.
  DetourScratch detour;                              ///< Detours' own scratch.
  std::vector<Detour> detours;                       ///< Scratch: detours' decisions.
  std::vector<std::optional<VehicleClass>> vehicles;  ///< Per class: its vehicle (nullopt: infantry).
  std::vector<PlatoonRun> platoons;                   ///< The scenario's platoons, in its groups' order.
  PlatoonOutcome platooned;                           ///< Scratch: what the platoons asked of the step.
};

/// Arrived or with nothing to do, standing, yielding to nobody: movers shove it.
bool settled(const SimUnit& u);

/// The unit that gives way less: higher class priority, then the lower slot index; a
/// yielding unit ranks as the unit it yields to, if that is better.
bool outranks(const SimUnit& a, const Motion& ma, const SimUnit& b, const Motion& mb);

/// A unit's rank (priority, slot index) with any rank lent to it.
std::pair<int, std::uint32_t> effective_rank(const SimUnit& u, const Motion& m);

}  // namespace pathscope::sim
