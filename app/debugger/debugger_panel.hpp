#pragma once

// The search debugger's ImGui widgets: planner and query choice, step / run / pause /
// breakpoint controls, the timeline, the stats, the open list and the planner
// comparison (its view: comparison_panel.hpp). They read the SearchDebugger and issue its commands; no
// algorithms here.

#include "app/debugger/search_debugger.hpp"
#include "app/editor/editor_state.hpp"

#include <optional>

namespace pathscope::app {

/// The body of the debugger window (call between ImGui::Begin and ImGui::End). Syncs
/// `debugger` with `state` after its own changes; may change state.active_query and
/// state.camera (a click on an open-list row centres the node).
void debugger_panel(SearchDebugger& debugger, EditorState& state);

/// Keyboard shortcuts of the debugger, as the panel's tooltips show them: F5 run/pause,
/// F6 reset, F10 step (Shift: back), F11 step N (Shift: N back), F7 to the end, F8 run
/// to the breakpoint, F9 toggle a breakpoint at `hover_world` (the map point under the
/// mouse, if any). Ignored while a text field has the keyboard or Ctrl/Alt is held.
/// Call once per frame, whether or not the debugger window is open.
void debugger_shortcuts(SearchDebugger& debugger, std::optional<Vec2> hover_world);

/// A tooltip with describe_node() for the node under `world` (metres); nothing when
/// there is no node there. Call while the mouse is over the map.
void debugger_hover_tooltip(const SearchDebugger& debugger, Vec2 world);

}  // namespace pathscope::app
