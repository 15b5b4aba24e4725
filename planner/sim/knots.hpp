#pragma once

// Head-on knots: two crowds that meet head-on where the ground is wider than a passage
// (a street, a square's mouth) lock as they do in a gap. Each unit in front waits for the
// one facing it, every pair runs seed 002's rules to plans the crowd behind makes
// impossible (move aside to a spot another unit holds, go round where there is no way
// round), and the units behind press on. The rules between two units cannot see that one
// crowd has to step back.
//
// So a knot becomes a passage for as long as it lasts. Units held up (no progress towards
// their order point for KnotRules::held_seconds) where the ground is at most `max_width`
// hard diameters wide, standing close together (a chain of
// neighbours at most `link` hard diameters apart), whose ways go along one line in
// opposite directions (most of them within 45 degrees of it, at least `min_side` each
// way), are a knot. The open cells within `margin` metres of them become a passage of
// their class's map (passages.hpp) held by the direction with more units in the knot
// (ties: the direction of the unit in the lowest slot), the other direction queued. The
// passage rule then does the rest, as in a gap: the queued side, inside the knot too,
// steps off the ways the holders claim and waits; the holders go through; the turn
// passes. A knot passage no unit has been inside or waiting for in `linger_seconds` is
// dissolved. Every decision is made in slot order, so the same run decides the same.
//
// A component: it reads the units, the passage maps, the grids and the motions, and
// returns the knots found (find_knots); keep_knots adds them to the maps and dissolves
// the quiet ones.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "planner/core/types.hpp"
#include "planner/sim/passages.hpp"
#include "planner/sim/simulation.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// When held-up units are a knot, and how far its passage reaches.
struct KnotRules {
  double held_seconds = 3;  ///< No progress for this long: the unit is held up.
  double link = 2;          ///< Hard diameters: neighbours in a knot stand this close.
  double margin = 3;        ///< Metres round its units its passage covers.
  /// Hard diameters: a held-up unit is in a knot only where the ground is at most this
  /// wide (its cell's width, passages.hpp): a street, not a square. Crowds crossing open
  /// ground (a circle swapping places) have room to pass round and come from every side.
  double max_width = 12;
  std::uint32_t min_side = 2;  ///< Units each way, at least.
  double aligned = 0.8;        ///< Share of its units whose ways lie along its line.
  double linger_seconds = 5;   ///< A knot passage with nobody in or before it this long goes.
};

/// A knot found this step: its class, the cells its passage covers, and who goes first.
struct Knot {
  std::size_t movement_class = 0;
  std::vector<std::uint32_t> cells;  ///< Grid cells, increasing.
  Box2 bounds;                       ///< Metres.
  Vec2 flow{0, 0};                   ///< The way that goes first (a unit vector).
  std::uint32_t going = 0;           ///< Its units going that way...
  std::uint32_t queued = 0;          ///< ...and the other way.
};

/// The knots among `units` (per slot: alive, class, body, route: state, path, waypoint,
/// progress time; waits) under `rules`, as of `now` (seconds). A unit on a passage's
/// cell (narrow, or a knot already) is in no new knot, and a new knot takes no passage's
/// cell. `move_keys` are the units' terrain group keys (per slot), `maps`, `motions` and
/// `grids` per class. Writes `knots` (cleared first), in the order of each knot's lowest
/// slot.
void find_knots(std::span<const SimUnit> units, std::span<const std::uint16_t> move_keys,
                std::span<const PassageMap> maps, std::span<const Motion> motions,
                std::span<const CostGrid* const> grids, const KnotRules& rules, double now,
                std::vector<Knot>& knots);

/// Dissolves every knot passage of `maps` that nobody has been in or before for
/// `rules.linger_seconds`, then adds `knots` as passages, each held by its `flow` with
/// the other way queued since `now`.
void keep_knots(std::span<PassageMap> maps, std::span<const Knot> knots, const KnotRules& rules, double now);

}  // namespace pathscope::sim
