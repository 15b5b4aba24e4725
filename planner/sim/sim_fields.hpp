#pragma once

// The field lists of the simulation's saved types: every field of a unit's parts
// (SimUnit::Body, Route, Goal, Cooperation, Waits, Diagnostics) and of what only the
// simulation keeps of it (UnitPrivate), once, with its name, its bounds when read back and
// whether a recording's frame keeps it. What walks them:
//   - the saved game (sim_state.cpp): each unit as named JSON fields, one object per part,
//     read back with each field checked against its bounds and a refusal naming its JSON
//     path (`sim_state.units[3].body.heading`);
//   - the recording's frames (recording_codec.cpp): the fields a frame keeps
//     (`kFramed`) are what project_but_path copies, and frame_value_error names the first
//     of them that no simulation makes;
//   - the state hash (state_hash.cpp): every field a frame keeps, of every live unit;
//   - the difference between two units (first_difference): the first field that differs,
//     named as the saved game names it.
// Adding a field to a part is one line here (and its bounds).
//
// Internal to the simulation (planner/sim/*.cpp).

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "planner/sim/simulation.hpp"
#include "planner/sim/simulation_impl.hpp"
#include "planner/sim/unit_motion.hpp"

namespace pathscope::sim::fields {

/// What a saved value is held to when read back (besides being finite).
enum class Bound : std::uint8_t {
  Any,    ///< Any finite number (whole numbers: any that fits the field).
  World,  ///< A point inside the world.
  Near,   ///< A point inside the world grown by its longer side all round.
  Speed,  ///< A speed in [0, the largest world's side per second].
  Share,  ///< A number in [0, 1].
  Flow,   ///< A unit vector (or 0) per coordinate, with room for rounding.
  NotNegative,
  Step,   ///< +1 or -1.
  Index,  ///< -1 (none) or an index in [0, 2^32).
};

/// What uses a field besides the saved game.
enum Use : std::uint8_t {
  kSaved = 0,       ///< The saved game only.
  kFramed = 1 << 0  ///< A recording's frame keeps it too.
};

/// One field of `Part`: its name in saved games, the member, its bounds, its uses.
template <class Part, class T>
struct Field {
  const char* name;
  T Part::*member;
  Bound bound = Bound::Any;
  std::uint8_t use = kSaved;
};
template <class Part, class T>
Field(const char*, T Part::*, Bound, std::uint8_t) -> Field<Part, T>;
template <class Part, class T>
Field(const char*, T Part::*, Bound) -> Field<Part, T>;

/// One part of a unit: its name in saved games, the member and its field list.
template <class Owner, class Part, class List>
struct PartOf {
  const char* name;
  Part Owner::*member;
  List fields;
};
template <class Owner, class Part, class List>
PartOf(const char*, Part Owner::*, List) -> PartOf<Owner, Part, List>;

using B = Bound;
using U = SimUnit;

// A unit's own fields (who it is).
inline constexpr auto kIdentity = std::make_tuple(                              //
    Field{"id", &U::id, B::Any, kFramed},                                       //
    Field{"alive", &U::alive, B::Any, kFramed},                                 //
    Field{"scenario_id", &U::scenario_id, B::Any, kFramed},                     //
    Field{"movement_class", &U::movement_class, B::Any, kFramed},               //
    Field{"faction", &U::faction, B::Any, kFramed});                            //
inline constexpr auto kBody = std::make_tuple(                                  //
    Field{"position", &U::Body::position, B::World, kFramed},                   //
    Field{"previous", &U::Body::previous, B::World},                            //
    Field{"heading", &U::Body::heading, B::Any, kFramed},                       //
    Field{"speed", &U::Body::speed, B::Speed, kFramed});                        //
inline constexpr auto kRoute = std::make_tuple(                                 //
    Field{"state", &U::Route::state, B::Any, kFramed},                          //
    Field{"order", &U::Route::order, B::World},                                 //
    Field{"order_point", &U::Route::order_point, B::Any, kFramed},              //
    Field{"patrol_step", &U::Route::patrol_step, B::Step},                      //
    Field{"path", &U::Route::path, B::Near},                                    //
    Field{"waypoint", &U::Route::waypoint, B::Any, kFramed},                    //
    Field{"predicted", &U::Route::predicted, B::Near},                          //
    Field{"progress_time", &U::Route::progress_time, B::Any},                   //
    Field{"best_distance", &U::Route::best_distance, B::NotNegative});          //
inline constexpr auto kGoal = std::make_tuple(                                  //
    Field{"arrived", &U::Goal::arrived, B::Any, kFramed},                       //
    Field{"taken", &U::Goal::taken, B::Any, kFramed},                           //
    Field{"walking_back", &U::Goal::walking_back, B::Any},                      //
    Field{"formation", &U::Goal::formation, B::Any},                            //
    Field{"formation_point", &U::Goal::formation_point, B::World},              //
    Field{"arrived_time", &U::Goal::arrived_time, B::Any, kFramed});            //
inline constexpr auto kCoop = std::make_tuple(                                  //
    Field{"yield", &U::Cooperation::yield, B::Any, kFramed},                    //
    Field{"yield_to", &U::Cooperation::yield_to, B::Any, kFramed},              //
    Field{"speed_factor", &U::Cooperation::speed_factor, B::Share},             //
    Field{"aside", &U::Cooperation::aside, B::Near, kFramed},                   //
    Field{"home", &U::Cooperation::home, B::Near, kFramed},                     //
    Field{"get_to", &U::Cooperation::get_to, B::Near, kFramed},                 //
    Field{"until", &U::Cooperation::until, B::Any},                             //
    Field{"lent_priority", &U::Cooperation::lent_priority, B::Any},             //
    Field{"lent_index", &U::Cooperation::lent_index, B::Any},                   //
    Field{"lent", &U::Cooperation::lent, B::Any});                              //
inline constexpr auto kWaits = std::make_tuple(                                 //
    Field{"bridge", &U::Waits::bridge, B::Any, kFramed},                        //
    Field{"passage", &U::Waits::passage, B::Any, kFramed});                     //
inline constexpr auto kDiag = std::make_tuple(                                  //
    Field{"steered", &U::Diagnostics::steered, B::Any},                         //
    Field{"pushed", &U::Diagnostics::pushed, B::Near});                         //
inline constexpr auto kPrivate = std::make_tuple(                               //
    Field{"move_key", &UnitPrivate::move_key, B::Any},                          //
    Field{"path_pending", &UnitPrivate::path_pending, B::Any},                  //
    Field{"order_serial", &UnitPrivate::order_serial, B::Any},                  //
    Field{"next", &UnitPrivate::next, B::Near},                                 //
    Field{"next_from_prediction", &UnitPrivate::next_from_prediction, B::Any},  //
    Field{"yield_path", &UnitPrivate::yield_path, B::Near},                     //
    Field{"last_repath", &UnitPrivate::last_repath, B::Any},                    //
    Field{"platoon", &UnitPrivate::platoon, B::Any},                            //
    Field{"last_bridge", &UnitPrivate::last_bridge, B::Index},                  //
    Field{"bridge_time", &UnitPrivate::bridge_time, B::Any},                    //
    Field{"last_passage", &UnitPrivate::last_passage, B::Index},                //
    Field{"passage_flow", &UnitPrivate::passage_flow, B::Flow},                 //
    Field{"passage_time", &UnitPrivate::passage_time, B::Any});                 //

/// A unit's parts, in the order a saved unit lists them.
inline constexpr auto kParts = std::make_tuple(  //
    PartOf{"body", &U::body, kBody},             //
    PartOf{"route", &U::route, kRoute},          //
    PartOf{"goal", &U::goal, kGoal},             //
    PartOf{"coop", &U::coop, kCoop},             //
    PartOf{"waits", &U::waits, kWaits},          //
    PartOf{"diag", &U::diag, kDiag});            //

/// Calls `f(field)` for each field of `list`, in order.
template <class List, class F>
constexpr void each(const List& list, F&& f) {
  std::apply([&](const auto&... field) { (f(field), ...); }, list);
}

/// Calls `f(part_name, part_of(unit), field)` for every field of a unit, its own first
/// (part name ""), then each part's. `part_of` maps a unit to that part.
template <class F>
void each_unit_field(F&& f) {
  each(kIdentity, [&](const auto& field) {
    f(
        "", [](auto& u) -> auto& { return u; }, field);
  });
  each(kParts, [&](const auto& part) {
    each(part.fields, [&](const auto& field) {
      f(
          part.name, [m = part.member](auto& u) -> auto& { return u.*m; }, field);
    });
  });
}

/// The first field in which `a` and `b` differ (of those `use` selects; kSaved: all),
/// named as the saved game names it ("body.position"); "" when none does. Doubles are
/// compared by their bits.
std::string first_difference(const SimUnit& a, const SimUnit& b, std::uint8_t use = kSaved);

/// Sets the fields of `to` a recording's frame keeps (kFramed) to `from`'s.
void copy_framed(const SimUnit& from, SimUnit& to);

/// The first value a frame keeps (kFramed, and the path, which frames keep apart) that no
/// simulation makes (a number that is not finite), named as the saved game names it
/// ("body.position", "route.path[2]"); "" when there is none.
std::string first_not_finite(const SimUnit& u);

}  // namespace pathscope::sim::fields
