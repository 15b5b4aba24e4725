#pragma once

// The inspector: every field of the selected item, editable, each change an undoable
// Document edit (typing into one field is one undo step; refused values show the
// validator's message under the field). With nothing selected it shows the scenario.

#include "app/editor/editor_state.hpp"

namespace pathscope::app {

/// The inspector window's body (the caller opens and closes the window). A selection
/// whose item no longer exists (after an undo) is cleared. UI only.
void inspector_panel(EditorState& state);

}  // namespace pathscope::app
