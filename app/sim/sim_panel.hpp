#pragma once

// The unit simulation's ImGui widgets: play / pause, step, reset, close, speed; the step count,
// simulated time, units alive and arrived, counters and state hash; the selected units
// with their state, speed, path left, yield and collisions. They read the SimPlayer and
// issue its commands; no algorithms here.

#include "app/editor/editor_state.hpp"
#include "app/sim/sim_player.hpp"

namespace pathscope::app {

/// The body of the simulation section (inside an open ImGui window).
void sim_panel(SimPlayer& sim, EditorState& state);

/// A tooltip on the simulated unit at `world` (metres; within `tolerance` of its hard
/// radius): its id, class, state, speed, path left, yield and collisions. False (and no
/// tooltip) when there is no simulation or no unit there. Call while the mouse is over
/// the map.
bool sim_hover_tooltip(const SimPlayer& sim, Vec2 world, double tolerance);

}  // namespace pathscope::app
