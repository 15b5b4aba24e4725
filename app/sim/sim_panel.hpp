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

}  // namespace pathscope::app
