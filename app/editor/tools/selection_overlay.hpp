#pragma once

// Drawing of the selection and of the item under the pointer: outlines and drag handles
// in the Markers layer, world metres.

#include "app/editor/editor_state.hpp"
#include "render/core/draw_list.hpp"

namespace pathscope::app::tools {

/// Outlines the item `sel` names in `color` (nothing if it does not exist).
void draw_outline(const Scenario& s, const Selection& sel, Color color, float thickness_px,
                  render::DrawList& out);

/// Outlines the selection and draws its handles (vertices, corners, bridge ends; the
/// selected vertex larger). `handle_radius` is in metres; handles are at least a few
/// pixels wide.
void draw_selection(const Scenario& s, const Selection& sel, double handle_radius, render::DrawList& out);

}  // namespace pathscope::app::tools
