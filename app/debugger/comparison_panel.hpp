#pragma once

// The planner comparison's view (View > Compare planners, or "compare planners" in the
// search debugger): a strip across the bottom of the window with one row per registered
// planner, its colour (its path on the map), status, radius, the path's cost in the
// world's one model (the referee's terrain metres) and against the baseline, its own cost
// and that cost's model, length, expansions, time and a note where it is not comparable;
// clicking a row selects and highlights that planner's path. Under the table, the reason
// for every large difference from the baseline. Reads the SearchDebugger and issues its
// commands; no algorithms here.

#include "app/debugger/search_debugger.hpp"
#include "app/editor/editor_state.hpp"

namespace pathscope::app {

/// Pixels of height the view's contents need (title bar included) for the last comparison.
float comparison_panel_height(const SearchDebugger& dbg);

/// The view's contents, in the current ImGui window. Runs the comparison when none is
/// shown (and the active query can be planned).
void comparison_panel(SearchDebugger& dbg, EditorState& state);

}  // namespace pathscope::app
