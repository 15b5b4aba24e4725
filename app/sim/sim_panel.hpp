#pragma once

// The unit simulation's ImGui widgets: play / pause, step, reset, close, speed; the step count,
// simulated time, units alive and arrived, counters and state hash; the selected units
// with their state, speed, path left, yield and collisions. They read the SimPlayer and
// issue its commands; no algorithms here.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/editor/editor_state.hpp"
#include "app/sim/sim_player.hpp"

namespace pathscope::app {

/// What the selected unit's log keeps between frames: each entry's text and where its
/// row begins once wrapped to the list's width (rows differ in height). Made again when
/// the recording, the unit or the width changes.
struct UnitLogLayout {
  const void* recording = nullptr;
  std::uint64_t revision = 0;
  sim::UnitId unit;
  float width = -1;
  std::vector<std::size_t> entries;  ///< Indices into Recording::decisions().
  std::vector<std::string> time;     ///< "12.40 s", right-aligned in its column.
  std::vector<std::string> text;     ///< sim::describe of the entry.
  std::vector<float> top;            ///< Pixels from the list's top to each row; back(): the total.
};

/// The body of the simulation section (inside an open ImGui window); `log` is the unit
/// log's layout, kept by the caller between frames.
void sim_panel(SimPlayer& sim, EditorState& state, UnitLogLayout& log);

/// A tooltip on the simulated unit at `world` (metres; within `tolerance` of its hard
/// radius): its id, class, state, speed, path left, yield and collisions. False (and no
/// tooltip) when there is no simulation or no unit there. Call while the mouse is over
/// the map.
bool sim_hover_tooltip(const SimPlayer& sim, Vec2 world, double tolerance);

}  // namespace pathscope::app
