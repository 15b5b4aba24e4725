#pragma once

// Narrow passages: one way at a time (seed 004's rule for bridges, "only one platoon at a
// time can be on them, since there is no room to pass", carried over to every gap,
// doorway and corridor of the map).
//
// Two crowds that meet head-on in a gap lock: each unit in front waits for the one facing
// it, and the rules between two units (seed 002) cannot see that the whole column behind
// has to back out. So the simulation gives a passage to one direction of travel at a
// time. A unit whose way enters a passage within a few metres asks for it: granted when
// the passage is free or held by units going its way; refused when units come the other
// way, and it then waits before the mouth (giving way to everyone, so those coming out
// can pass it). A passage is held while a unit going its way is inside or granted; a
// direction kept waiting for `PassageRules::turn_seconds` gets the next turn: units of
// the holding direction stop entering, and when the last one is out the waiting side
// goes. A crowd going through (more than `trickle` units inside) keeps its turn until
// `crowd_turn_seconds`: each change of turn costs the time the last units take to clear,
// worth paying less often when a crowd flows, while a unit or two trickling through a
// street's narrows should not keep the other way waiting long. Every decision is made
// in slot order, so the same run decides the same.
//
// Which cells are narrow: a passable cell is narrow when its width is at most `max_width`
// metres. Its width is the shorter free run through it of its row and its column (walls
// and the world's edge bound each run), or of its diagonals where those are short too
// (the row and column of a corridor at 45 degrees are its width times sqrt 2; beside a
// corner only a diagonal is short, and the cell is not narrow). Narrow cells joined 8-connected form
// a passage; one longer than `max_length` (a city's whole street network) is not a
// passage: there a single direction would stop the traffic of the whole town.

#include <cstdint>
#include <optional>
#include <vector>

#include "planner/core/types.hpp"

namespace pathscope {
class CostGrid;
}

namespace pathscope::sim {

/// Where passages are and what the rule does, per movement class.
struct PassageRules {
  double max_width = 5;            ///< Metres: runs this short or shorter are narrow.
  double max_length = 48;          ///< Metres: longest side of a passage's bounds.
  double look_ahead = 4;           ///< Metres of its way ahead a unit looks for a passage.
  double turn_seconds = 15;        ///< Waiting this long, a direction gets the next turn...
  double crowd_turn_seconds = 25;  ///< ...or this long while more than `trickle` units are inside.
  std::uint32_t trickle = 2;       ///< Units inside a passage (or granted it) that are no crowd.
};

/// One passage and, as the last step left it, who may go through.
struct Passage {
  std::vector<std::uint32_t> cells;  ///< Grid cells, increasing.
  Box2 bounds;                       ///< Metres.
  bool held = false;                 ///< Units go through it now...
  Vec2 flow{0, 0};                   ///< ...this way (a unit vector).
  bool queued = false;               ///< Units wait to go through the other way...
  Vec2 queue_flow{0, 0};             ///< ...this way,
  double queued_since = 0;           ///< ...since then (seconds).
  std::uint32_t inside = 0;          ///< Units inside it, or granted it, last step.
  std::uint32_t waiting = 0;         ///< Units waiting before it, last step.
  /// A knot's passage (knots.hpp): made while the simulation runs where two crowds locked
  /// head-on, dissolved when nobody has been in or before it for a while (then `cells` is
  /// empty and the entry waits to be reused).
  bool knot = false;
  double seen = 0;  ///< Last time a unit was inside it or waited before it (seconds).
};

/// The passages of one class's grid.
class PassageMap {
 public:
  PassageMap() = default;
  /// Finds the passages of `grid` under `rules` (see the top of this file).
  PassageMap(const CostGrid& grid, const PassageRules& rules);

  /// The passage cell `index` belongs to, if any.
  std::optional<std::uint32_t> passage_of(std::uint32_t index) const {
    const std::int32_t p = cell_passage_[index];
    if (p < 0) return std::nullopt;
    return static_cast<std::uint32_t>(p);
  }
  std::vector<Passage>& passages() { return passages_; }
  const std::vector<Passage>& passages() const { return passages_; }
  /// The width of every cell (metres; 0 for blocked cells), row-major.
  const std::vector<float>& widths() const { return width_; }
  /// The rules it was made under.
  const PassageRules& rules() const { return rules_; }

  /// Makes `cells` (increasing, in no passage) a knot's passage (knots.hpp) seen at `now`,
  /// in the first dissolved knot's entry nobody has been in since `reuse_before` (seconds),
  /// else a new one; returns its index.
  std::uint32_t add_knot(std::vector<std::uint32_t> cells, Box2 bounds, double now, double reuse_before);
  /// Dissolves knot passage `k`: its cells are in no passage; the entry stays, empty.
  void dissolve_knot(std::uint32_t k);

 private:
  PassageRules rules_;
  std::vector<std::int32_t> cell_passage_;  // -1: not in a passage
  std::vector<float> width_;
  std::vector<Passage> passages_;
};

}  // namespace pathscope::sim
