#pragma once

// The message panel: what the editor reported (loads, saves, refused edits), newest last.
// Errors are red with an "error:" prefix, warnings yellow with "warning:"; the latest
// error is pinned above the list, with a button to dismiss it.

#include "app/editor/editor_state.hpp"

namespace pathscope::app {

/// The body of the message panel (call between ImGui::Begin and ImGui::End).
void messages_panel(EditorState& state);

}  // namespace pathscope::app
