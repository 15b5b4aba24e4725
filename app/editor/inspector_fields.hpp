#pragma once

// Editable fields of the inspector: one ImGui widget per scenario field whose changes go
// through Document::apply. While a field is being edited its changes share a merge key
// (typing "12.5" is one undo step); leaving it ends the step. A refused value leaves the
// scenario unchanged and shows the validator's message in red under the field.
// UI only: call inside an open ImGui window.

#include <cstdint>
#include <functional>
#include <string>

#include "app/editor/editor_state.hpp"

namespace pathscope::app {

/// The fields of one item (or of the scenario itself) for one frame.
class InspectorFields {
 public:
  /// Fields of the item named `scope` ("feature 3", "scenario"), used in undo labels and
  /// to tell the fields of different items apart.
  InspectorFields(EditorState& state, std::string scope);

  /// A number. `set` writes the typed value into the scenario being edited.
  void number(const char* label, double value, const char* tooltip,
              const std::function<void(Scenario&, double)>& set, const char* format = "%.3f");
  /// A world point [x, y], metres.
  void point(const char* label, Vec2 value, const char* tooltip,
             const std::function<void(Scenario&, Vec2)>& set);
  /// A one-line text (`multiline`: a small text box).
  void text(const char* label, const std::string& value, const char* tooltip,
            const std::function<void(Scenario&, const std::string&)>& set, bool multiline = false);
  /// A checkbox.
  void boolean(const char* label, bool value, const char* tooltip,
               const std::function<void(Scenario&, bool)>& set);
  /// To call right after a combo or a button: when `changed`, applies `change` as its own
  /// undo step; shows a refusal under the widget.
  void choice(const char* label, bool changed, const std::function<void(Scenario&)>& change);
  /// Read-only "label: value" line.
  static void read_only(const char* label, const std::string& value);

 private:
  std::string field_id(const char* label) const { return scope_ + "/" + label; }
  // Applies `change` as an edit of field `label`; merge_key 0 = its own step.
  void commit(const char* label, const std::function<void(Scenario&)>& change, std::uint64_t merge_key);
  // Ends the merge when the widget just left was edited, then shows the field's error.
  void finish(const char* label, const char* tooltip);

  EditorState& state_;
  std::string scope_;
};

}  // namespace pathscope::app
