#pragma once

// The message panel: what the editor reported (loads, saves, refused edits), newest last.

#include "app/editor/editor_state.hpp"

namespace pathscope::app {

/// The body of the message panel (call between ImGui::Begin and ImGui::End).
void messages_panel(EditorState& state);

}  // namespace pathscope::app
