#pragma once

// Draws DetourCrowd's agents (planner/navmesh/crowd_run.hpp) in world metres, beside or
// instead of the unit simulation's units: each agent as a ring of its radius in the
// crowd's own colour (outlined ghosts over our units, or filled when they are drawn
// alone), a line along its last step's move scaled to one second, and a small cross on its
// goal. Reads the agents through a span; no window code.

#include <span>

#include "planner/navmesh/navmesh_crowd.hpp"
#include "render/core/draw_list.hpp"
#include "render/core/layer_set.hpp"

namespace pathscope::render {

/// How the agents are drawn.
enum class CrowdStyle : std::uint8_t {
  Ghosts,  ///< Outlined rings over our units (side by side).
  Alone,   ///< Filled discs with an outline (DetourCrowd instead of our units).
};

/// Draws `agents` on Units (bodies and moves) and SimTargets (goals); `dt` is the
/// seconds of their last step (its move is drawn as the velocity over one second; 0: no
/// move drawn). Only layers in `layers` are drawn.
void paint_crowd(std::span<const CrowdAgent> agents, double dt, CrowdStyle style, const LayerSet& layers,
                 DrawList& out);

/// Colours of the crowd's drawing, for the legend and tests.
namespace crowd_palette {
inline constexpr Color kAgent{255, 80, 220, 255};      ///< An agent's ring and move line.
inline constexpr Color kAgentFill{255, 80, 220, 110};  ///< An agent's disc when drawn alone.
inline constexpr Color kGoal{255, 80, 220, 170};       ///< The cross on an agent's goal.
}  // namespace crowd_palette

}  // namespace pathscope::render
